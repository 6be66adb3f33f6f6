"""The `gogadget` console script against the simulated board (--sim)."""
import subprocess
import sys

from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT
from host_sim import cli


def test_play_against_gnugo_saves_the_record(gnugo_path, tmp_path, capsys):
    out = tmp_path / "game.sgf"
    rc = cli.main(["play", "--sim", "--engine", gnugo_path + " --mode gtp --level 0",
                   "--colour", "white", "--size", "9", "--komi", "6.5", "--out", str(out),
                   "--person", "engine:%s --mode gtp --level 0 --seed 2" % gnugo_path])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "result " in printed and "1. black " in printed
    game = sgfmill_sgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_size() == 9 and game.get_komi() == 6.5
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert len(moves) > 20 and moves[-1][1] is None and moves[-2][1] is None
    assert moves[-1][0] != moves[-2][0]


def test_pull_downloads_only_stored_games(tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    (store / "0001.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
    (store / "0002.sgf").write_text("(;GM[1]FF[4]SZ[9];B[dd])")
    (store / "notes.txt").write_text("private")
    dest = tmp_path / "dest"
    assert cli.main(["pull", "--sim", "--sim-store", str(store), "--dest", str(dest)]) == 0
    assert sorted(p.name for p in dest.iterdir()) == ["0001.sgf", "0002.sgf"]
    assert "B[ee]" in (dest / "0001.sgf").read_text()
    assert "2 games on the board, 2 downloaded" in capsys.readouterr().out
    # Already there: nothing is fetched twice.
    assert cli.main(["pull", "--sim", "--sim-store", str(store), "--dest", str(dest)]) == 0
    assert "2 games on the board, 0 downloaded" in capsys.readouterr().out


def test_watch_shows_board_and_status(capsys):
    assert cli.main(["watch", "--sim", "--count", "2", "--interval", "0.05", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.count("phase=") == 2 and " A B C D E F G H J" in out


def test_gtp_bridge_on_stdin_stdout():
    script = b"# a comment\n\n1 name\nplay b E5\n2 genmove w\n\x00\xff garbage\n3 showboard\nquit\n"
    r = subprocess.run([sys.executable, "-m", "host_sim.cli", "gtp", "--sim"], input=script,
                       cwd=ROOT, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    blocks = out.split("\n\n")
    assert blocks[0] == "=1 GoGadget"
    assert blocks[1] == "= "
    assert blocks[2].startswith("=2 ") and len(blocks[2].split()[1]) >= 2
    assert blocks[3].startswith("? ")
    assert blocks[4].startswith("=3 ") and " X " in blocks[4] and " O " in blocks[4]
    assert blocks[5] == "= " and blocks[6] == ""


def test_bad_port_is_a_clear_error(capsys):
    assert cli.main(["watch", "--port", "/dev/nonexistent-gogadget", "--count", "1"]) == 1
    assert "nonexistent-gogadget" in capsys.readouterr().err
