"""`gogadget online` as a person runs it: the command line against the
local OGS (host_sim/ogs/server.py) with the simulator's scripted person
(--sim --auto), the game list, attaching by the board's position, and the
refusals (bad login, an engine as the person, --auto on a real server)."""
import os
import stat
import subprocess
import sys

import pytest

from conftest import ROOT
from gogadget.points import BLACK
from host_sim.ogs import typecheck
from host_sim.ogs.server import Game, Server
from host_sim.ogs.typecheck import read_trace

PERSON = {"id": 1001, "username": "person"}


def gogadget(args, env_extra=None, timeout=120):
    env = dict(os.environ, OGS_USERNAME="person", OGS_PASSWORD="secret")
    env.pop("OGS_CREDENTIALS", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "host_sim.cli", "online"] + args, cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def server():
    games = [Game(1, PERSON, {"id": 2002, "username": "opponent"}, BLACK, size=9,
                  script=["D5", "D3", "resign"]),
             Game(2, {"id": 3003, "username": "someone"}, PERSON, BLACK, size=13,
                  moves=[(3, 3), (9, 9)])]
    s = Server(games, user_id=PERSON["id"])
    yield s
    s.close()


def test_lists_the_persons_games(server):
    r = gogadget(["--server", server.url, "--list", "--sim", "--auto"])
    assert r.returncode == 0, r.stderr
    assert "2 games of person" in r.stdout
    assert "1  person (B) vs opponent (W)  9x9  move 0" in r.stdout
    assert "2  someone (B) vs person (W)  13x13  move 2" in r.stdout


def test_a_whole_game_from_the_command_line(server, tmp_path):
    """No --game: the board's empty 9x9 position matches game 1 alone (game
    2 is 13x13 and under way)."""
    out, trace = tmp_path / "game.sgf", tmp_path / "trace.jsonl"
    r = gogadget(["--sim", "--auto", "--person", "script:E5 C3 G7", "--sim-store",
                  str(tmp_path / "store"), "--server", server.url, "--ws-url", server.ws_url,
                  "--out", str(out), "--trace", str(trace)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "result B+R" in r.stdout
    assert "1. black E5 (you)" in r.stdout and "2. white D5 (the opponent)" in r.stdout
    assert "clock: black" in r.stdout
    record = out.read_text()
    assert "RE[B+R]" in record and ";B[ee];W[de];B[cg];W[dg];B[gc]" in record
    items = read_trace(trace)
    assert [m[1]["move"] for d, m in items if d == "out" and m[0] == "game/move"] == \
        ["ee", "cg", "gc"]
    # Made to be shared: no token in it, readable by its owner only, never committed.
    assert server.jwt not in trace.read_text() and "<redacted>" in trace.read_text()
    assert stat.S_IMODE(os.stat(trace).st_mode) == 0o600
    assert "*.jsonl" in (ROOT / ".gitignore").read_text().split()
    ok, output = typecheck.check({"cli": typecheck.typescript(items, "cli")})
    assert ok, output


def test_a_bad_login_is_refused_clearly(server):
    r = gogadget(["--server", server.url, "--list", "--sim", "--auto"],
                 {"OGS_PASSWORD": "wrong"})
    assert r.returncode == 1
    assert "login refused" in r.stderr and "wrong" not in r.stderr


def test_no_account_no_start(server):
    env = {"OGS_USERNAME": "", "OGS_PASSWORD": ""}
    r = gogadget(["--server", server.url, "--list", "--sim", "--auto"], env)
    assert r.returncode == 1 and "OGS_USERNAME" in r.stderr


def test_credentials_from_a_file(server, tmp_path):
    creds = tmp_path / "ogs.txt"
    creds.write_text("person\nsecret\n")
    for mode in (0o666, 0o644, 0o640):
        os.chmod(creds, mode)
        r = gogadget(["--server", server.url, "--list", "--sim", "--auto", "--credentials",
                      str(creds)], {"OGS_USERNAME": "", "OGS_PASSWORD": ""})
        assert r.returncode == 1 and "chmod 600" in r.stderr, (oct(mode), r.stderr)
    os.chmod(creds, 0o600)
    r = gogadget(["--server", server.url, "--list", "--sim", "--auto", "--credentials",
                  str(creds)], {"OGS_USERNAME": "", "OGS_PASSWORD": ""})
    assert r.returncode == 0, r.stderr


def test_no_engine_and_no_scripted_person_on_a_real_server():
    r = gogadget(["--sim", "--auto", "--person", "engine:gnugo --mode gtp",
                  "--server", "http://127.0.0.1:9"])
    assert r.returncode == 2 and "no engine" in r.stderr
    r = gogadget(["--sim", "--auto", "--server", "https://online-go.com"])
    assert r.returncode == 2 and "only against a local test server" in r.stderr
