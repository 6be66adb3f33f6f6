"""`gogadget play` as a newcomer meets it (issue 20, items 5-6): a game kept
on the board is resumed aloud (or set aside with --new), the summary counts
the record's moves, the record names the players, the start is said once,
and the words agree in number."""
import os
import re
import subprocess
import sys

from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT
from host_sim import cli
from host_sim.sim import session
def gogadget(*args, input=None, env=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "host_sim.cli", *args], cwd=ROOT, input=input,
                          capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))


def leave_a_game_from_gtp(store):
    """What `gtp --sim` leaves behind: a controller's game that White began."""
    r = gogadget("gtp", "--sim", "--auto", "--sim-store", store,
                 input="boardsize 9\nclear_board\nplay w E5\nplay b C3\nquit\n", timeout=60)
    assert r.returncode == 0, r.stderr


def record(path):
    game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
    return game, [n.get_move() for n in game.get_main_sequence()[1:]]


def test_a_resumed_game_is_said_and_counted_from_the_record(gnugo_path, tmp_path):
    store = str(tmp_path / "store")
    leave_a_game_from_gtp(store)
    out = tmp_path / "g.sgf"
    r = gogadget("play", "--sim", "--auto", "--sim-store", store, "--engine",
                 gnugo_path + " --mode gtp --level 0", "--size", "9", "--max-moves", "4",
                 "--out", str(out))
    assert r.returncode == 0, r.stderr
    said = re.search(r"^resuming the game kept on the board at move 3 \(White to play, kept in "
                     r"a virtual board on (\S+); --new starts a new game instead\)$",
                     r.stdout, re.M)
    assert said and said.group(1) == store, r.stdout
    game, moves = record(out)
    assert moves[0] == ("w", (4, 4))  # the gtp game's first move, as the board kept it
    summary = re.search(r"^stopped, (\d+) moves \(2 of them resumed\), saved ", r.stdout, re.M)
    assert summary and int(summary.group(1)) == len(moves) == 6, r.stdout
    root = game.get_root()
    assert root.get("PB") == "Go Gadget" and root.get("PW") == "GNU Go"


def test_new_starts_afresh_and_keeps_the_unfinished_game(gnugo_path, tmp_path):
    store = str(tmp_path / "store")
    leave_a_game_from_gtp(store)
    out = tmp_path / "g.sgf"
    data = tmp_path / "data"
    r = gogadget("play", "--sim", "--auto", "--sim-store", store, "--engine",
                 gnugo_path + " --mode gtp --level 0", "--size", "9", "--max-moves", "2",
                 "--new", "--colour", "white", "--player", "Ann [3k]", "--out", str(out),
                 env={"XDG_DATA_HOME": str(data)})
    assert r.returncode == 0, r.stderr
    assert "resuming" not in r.stdout
    kept = re.search(r"the unfinished one \(2 moves\) is saved as (\S+)$", r.stdout, re.M)
    assert kept, r.stdout
    path = kept.group(1)
    assert path.startswith(str(data / "gogadget" / "unfinished"))
    assert ";W[ee];B[cg]" in open(path).read()
    game, moves = record(out)
    assert moves[0][0] == "b" and len(moves) == 2
    assert "stopped, 2 moves, saved" in r.stdout
    root = game.get_root()
    assert root.get("PB") == "GNU Go" and root.get("PW") == "Ann [3k]"


def test_the_start_of_play_is_said_once(gnugo_path, tmp_path):
    # The board booted at a new game; boardsize/clear_board started it again.
    r = gogadget("play", "--sim", "--tui", "--sim-store", str(tmp_path / "store"), "--engine",
                 gnugo_path + " --mode gtp --level 0", "--size", "9", input="quit\n",
                 env={"NO_COLOR": "1", "DISPLAY": ""}, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("event new-game:") == 1, r.stdout
    assert r.stdout.count("board ready") == 1, r.stdout


def test_one_game_is_one_game(tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    (store / "0001.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee])")
    assert cli.main(["pull", "--sim", "--sim-store", str(store), "--dest",
                     str(tmp_path / "d")]) == 0
    assert "1 game on the board" in capsys.readouterr().out
    assert session.plural(0, "game") == "0 games" and session.plural(2, "move") == "2 moves"
