"""A second controller nobody here wrote: Sabaki's @sabaki/gtp runs a 9x9
game between GNU Go and the board (`python -m host_sim.cli gtp --sim`)."""
import json
import subprocess
import sys

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, require

SABAKI = ROOT / "tests" / "sabaki"


@pytest.fixture(scope="module")
def node():
    node = require("node", "(apt-get install nodejs npm)")
    npm = require("npm", "(apt-get install nodejs npm)")
    if not (SABAKI / "node_modules" / "@sabaki" / "gtp").exists():
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=SABAKI,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    return node


def history(text):
    out = []
    for line in text.splitlines():
        colour, mv = line.split()
        out.append((colour[0].lower(), mv.upper()))
    return out[::-1]


def sgf_moves(text):
    game = sgfmill_sgf.Sgf_game.from_string(text)
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        out.append((colour, "PASS" if move is None else
                    "ABCDEFGHJ"[move[1]] + str(move[0] + 1)))
    return out


@pytest.mark.oracle
def test_sabaki_gtp_runs_gnugo_against_the_board(node, gnugo_path):
    r = subprocess.run([node, str(SABAKI / "play.js"), gnugo_path, sys.executable, "4"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result["error"] is None, result["error"]
    assert result["boardName"] == "GoGadget"
    moves = [(c.lower(), m.upper()) for c, m in result["moves"]]
    assert len(moves) > 20 and len(moves) < 300
    assert [m for _, m in moves[-2:]] == ["PASS", "PASS"]
    # GNU Go's own record, the board's SGF and what Sabaki relayed agree.
    assert history(result["gnugoHistory"]) == moves
    assert sgf_moves(result["boardSgf"]) == moves
