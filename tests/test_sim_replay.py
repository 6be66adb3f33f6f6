"""Real game records replayed by a simulated person on the virtual board.

Every game must come back move for move from the firmware's own SGF, read
by sgfmill (an independent SGF implementation), with both sensor kinds,
sensor flicker, late prisoner removal and bumped stones."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill_sgf

from host_sim.person import replay
ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "host_sim" / "games").glob("*.sgf"))


def test_games_are_shipped_with_sources():
    assert len(GAMES) >= 3
    readme = (ROOT / "host_sim" / "games" / "README.md").read_text()
    for g in GAMES:
        assert g.name in readme, "%s has no source in games/README.md" % g.name
    # GNU Go self-play on the small boards, beside the professional and tournament games.
    selfplay = {replay.load_game(g.read_bytes()).size for g in GAMES
                if g.name.startswith("gnugo-selfplay")}
    assert selfplay >= {9, 13}


@pytest.mark.parametrize("sensors,noise,seed", [("colour", 0.003, 1), ("occupancy", 0.003, 2)])
@pytest.mark.parametrize("game", GAMES, ids=[g.stem for g in GAMES])
def test_real_game_reconstructed_exactly(game, sensors, noise, seed):
    data = game.read_bytes()
    summary, fw = replay.replay(data, sensors=sensors, noise=noise, seed=seed, late=0.25, bump=0.08)
    assert summary["match"], summary["problem"]
    # Independent check: sgfmill reads both records and the move lists agree.
    want = [n.get_move() for n in sgfmill_sgf.Sgf_game.from_bytes(data).get_main_sequence()]
    got = [n.get_move() for n in sgfmill_sgf.Sgf_game.from_string(fw).get_main_sequence()]
    assert [m for m in got if m[0] is not None] == [m for m in want if m[0] is not None]
    assert summary["flickers"] > 0, "noise was asked for but no sensor flickered"
    assert summary["person"]["bumps_unfixed"] == 0
    passes = sum(1 for colour, pt in want if colour is not None and pt is None)
    assert summary["events"]["move"] == summary["moves"] - passes
    assert summary["events"].get("pass", 0) == passes


def test_capture_heavy_game_exercises_the_habits():
    game = ROOT / "host_sim" / "games" / "shusaku-ear-reddening-1846.sgf"
    summary, _ = replay.replay(game.read_bytes(), seed=5, noise=0.0005, late=0.3, bump=0.1)
    assert summary["match"], summary["problem"]
    p = summary["person"]
    # The ko fight of the ear-reddening game: dozens of captures, each one
    # cleared by following the REMOVE lights, some only after the reply.
    assert summary["captures"] >= 40
    assert p["late"] > 0 and p["bumps"] > 0
    assert summary["prompts_shown"] >= summary["captures"]


def test_compare_reports_a_changed_move():
    game = replay.load_game(GAMES[0].read_bytes())
    text = GAMES[0].read_text()
    first = text.index(";B[") + 3
    changed = text[:first] + ("aa" if text[first:first + 2] != "aa" else "bb") + text[first + 2:]
    problem = replay.compare(game, changed)
    assert problem and problem.startswith("move 1:")
    assert replay.compare(game, text) is None
    assert "moves" in replay.compare(game, text[:text.rindex(";")] + ")")


def run_cli(*args, input=None):
    return subprocess.run([sys.executable, "-m", "host_sim", "replay", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, input=input)


def test_cli_json_and_out(tmp_path):
    out = tmp_path / "fw.sgf"
    r = run_cli(str(GAMES[0]), "--sensors", "occupancy", "--noise", "0.0005", "--seed", "3",
                "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["match"] and summary["moves"] > 100
    for key in ("moves", "captures", "prompts_shown", "count"):
        assert key in summary
    assert summary["count"] is not None and summary["count"]["result"]
    assert replay.compare(replay.load_game(GAMES[0].read_bytes()), out.read_text()) is None


def test_cli_fails_on_a_record_the_firmware_refuses(tmp_path):
    # White plays onto Black's stone: no hand can do that, the record is not
    # reproducible and the exit status says so.
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[dd];B[dd])")
    r = run_cli(str(bad))
    assert r.returncode == 1
    assert "MISMATCH" in r.stdout


def test_cli_suicide_in_record_is_a_mismatch(tmp_path):
    # B A1 after W B1 and W A2 is suicide, forbidden by the japanese preset:
    # the firmware lights it illegal, the person takes it back, the record differs.
    bad = tmp_path / "suicide.sgf"
    bad.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[bi];B[ec];W[ah];B[ai])")
    r = run_cli(str(bad), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["match"] is False


@pytest.mark.parametrize("text,msg", [("not sgf at all", "not a readable SGF"),
                                      ("(;GM[1]SZ[25];B[aa])", "size")])
def test_cli_bad_input_is_a_clear_error(tmp_path, text, msg):
    f = tmp_path / "x.sgf"
    f.write_text(text)
    r = run_cli(str(f))
    assert r.returncode == 2
    assert msg in r.stderr
    assert "Traceback" not in r.stderr



@pytest.mark.parametrize("text", [
    "(;GM[1]FF[4]SZ[9]B[ee];W[dd];B[cc])",  # the first move beside the game info
    "(;GM[1]FF[4]SZ[9]AB[gc][cg]W[ee];B[dd];W[cc])",  # a handicap and White's first move
])
def test_a_move_in_the_root_node_is_read_like_sgfmill_and_gnugo_do(text, gnugo_path, tmp_path):
    game = replay.load_game(text)
    assert len(game.moves) == 3
    sgfmill_moves = [n.get_move() for n in sgfmill_sgf.Sgf_game.from_string(text).get_main_sequence()]
    assert game.moves == [(replay.COLOURS[c], r * 9 + col) for c, (r, col) in
                          (m for m in sgfmill_moves if m[0])]
    # GNU Go loads the record to the same stones (no captures in these games).
    f = tmp_path / "root.sgf"
    f.write_text(text)
    out = subprocess.run([gnugo_path, "--mode", "gtp"], timeout=60, capture_output=True, text=True,
                         input="loadsgf %s\nlist_stones black\nlist_stones white\nquit\n" % f).stdout
    replies = [line[1:].split() for line in out.splitlines() if line.startswith("=")]
    gnugo = {replay.BLACK: set(replies[1]), replay.WHITE: set(replies[2])}
    ours = {replay.BLACK: set(), replay.WHITE: set()}
    for colour, place in game.setup + game.moves:
        ours[colour].add(replay.describe(9, (colour, place)).split()[1])
    assert ours == gnugo
    summary, fw = replay.replay(text.encode())
    assert summary["match"], summary["problem"]
