"""`gogadget online` (issue 19): whole games against the local OGS
(host_sim/ogs/server.py) through the simulator's scripted person, and every
message both ways compiled against OGS's own client types (the goban npm
package, tests/ogs/package.json) with tsc."""
import json
import os

import pytest

from conftest import require
from host_sim.ogs import proto, typecheck
from ogs_games import (board_moves, game_commands, names, play, save_trace, server_moves,
                       trace_path)

RECORD = os.environ.get("OGS_RECORD") == "1"  # rewrite tests/ogs/traces from this run


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = {}
    for name in names():
        out[name] = play(name, str(tmp_path_factory.mktemp(name)))
        if RECORD:
            save_trace(name, out[name].trace)
    return out


def test_the_fixtures_cover_the_issue():
    assert set(names()) >= {"win", "resign", "dispute", "reconnect", "timeout", "handicap"}


@pytest.mark.parametrize("name", names())
def test_whole_game(played, name):
    p = played[name]
    spec = p.spec
    assert p.result == spec["result"], p.log
    # The agreed result is on the board, in its record and in its flash
    # (a fresh boot on the same store shows it).
    assert p.status.get("phase") == "over" and p.status.get("result") == spec["result"], p.status
    moves, setup, g = board_moves(p.record)
    assert g.props.get("RE") == [spec["result"]]
    assert p.rebooted.get("result") == spec["result"], p.rebooted
    kept = sorted(f for f in os.listdir(p.store) if f.endswith(".sgf"))
    with open(os.path.join(p.store, kept[-1])) as f:
        assert "RE[%s]" % spec["result"] in f.read()
    # The board's game is the server's, move for move (handicap stones as
    # set-up stones); a refused move is nowhere.
    ours = server_moves(p.game)
    hand = spec.get("handicap", 0)
    assert setup == sorted(ours[:hand])
    assert moves == ours[hand:], (moves, ours)
    assert len(p.seat.refused) == spec.get("refused", 0)
    assert p.seat.reconnects == spec.get("reconnects", 0)
    assert p.server.drops == spec.get("reconnects", 0)
    if spec.get("power_cut_after"):
        assert p.seat.board_restarts == 1 and len(p.sims) == 2
    for line in spec.get("expect_log", []):
        assert any(line in text for text in p.log), p.log
    # No engine: the board was never asked for a move (genmove) or advice.
    assert not any(d == "out" and "engine" in json.dumps(m) for d, m in p.trace)


def test_the_illegal_move_came_back_as_an_error_and_was_taken_back(played):
    p = played["resign"]
    errors = [m for d, m in p.trace if d == "in" and m[0] == "game/1/error"]
    assert errors == [["game/1/error", "Illegal Ko Move"]]
    sent = [m[1]["move"] for d, m in p.trace if d == "out" and m[0] == "game/move"]
    assert sent[0] == sent[1]  # refused, taken back at the board, played again
    assert any("refused" in line for line in p.log)


def test_stone_removal_proposes_the_lifted_stones(played):
    p = played["dispute"]
    cmds = game_commands(p.trace)
    sets = [c[1] for c in cmds if c[0] == "game/removed_stones/set"]
    assert {"game_id": 1, "removed": True, "stones": proto.list_of_vertices(9, ["B5"])} in sets
    # The opponent's two extra marks are taken off before the accept.
    assert {"game_id": 1, "removed": False,
            "stones": proto.list_of_vertices(9, ["E8", "E9"])} in sets
    accept = [c[1] for c in cmds if c[0] == "game/removed_stones/accept"]
    assert accept == [{"game_id": 1, "stones": proto.list_of_vertices(9, ["B5"]),
                       "strict_seki_mode": False}]


def test_the_recorded_traces_are_replayed(played):
    """The person's side of each game, as recorded in tests/ogs/traces/,
    is what this run sent (pings, clocks and timings aside)."""
    for name, p in played.items():
        with open(trace_path(name)) as f:
            recorded = [tuple(json.loads(line)) for line in f if line.strip()]
        assert game_commands(recorded) == game_commands(p.trace), name


@pytest.fixture(scope="module")
def tsc():
    require("node", "(apt-get install nodejs npm)")
    require("npm", "(apt-get install nodejs npm)")
    return typecheck.ensure_packages()


def test_every_message_compiles_against_gobans_types(played, tsc):
    sources = {}
    for name, p in played.items():
        sources[name + "_client"] = typecheck.typescript(p.trace, name + " client")
        sources[name + "_server"] = typecheck.typescript(p.server_trace, name + " server")
        with open(trace_path(name)) as f:
            recorded = [tuple(json.loads(line)) for line in f if line.strip()]
        sources[name + "_recorded"] = typecheck.typescript(recorded, name + " recorded")
    ok, output = typecheck.check(sources)
    assert ok, output
    assert sum(len(p.trace) + len(p.server_trace) for p in played.values()) > 300


def test_a_message_ogs_would_not_accept_fails_the_build(tsc):
    bad = [("out", ["game/move", {"game_id": 1, "move": [3, 3]}]),  # moves go out as "dd"
           ("out", ["chat/connect", {}]),  # gone: authenticate connects chat now
           ("in", ["game/1/phase", "scoring"]),
           ("out", ["game/resign", {"game_id": 1, "why": "tired"}])]
    ok, output = typecheck.check({"bad": typecheck.typescript(bad, "bad")})
    assert not ok
    for n in range(len(bad)):
        assert "bad #%d" % n in typescript_lines(output, typecheck.typescript(bad, "bad")), output


def typescript_lines(output, source):
    """The tags ("bad #2") of the source lines tsc complained about."""
    lines = source.splitlines()
    tags = []
    for err in output.splitlines():
        if ".ts(" in err:
            row = int(err.split(".ts(")[1].split(",")[0])
            tags.append(lines[row - 1].split("//")[-1].strip())
    return " ".join(tags)
