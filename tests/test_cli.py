"""The `gogadget` console script against the simulated board (--sim)."""
import os
import re
import subprocess
import sys
import threading
import time

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT
from host_sim import cli
from host_sim.sim import session
def run_cli(*args, input=None, timeout=180, env=None):
    return subprocess.run([sys.executable, "-m", "host_sim.cli", *args], cwd=ROOT, input=input,
                          capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))


def test_play_auto_against_gnugo_the_result_is_the_boards_count(gnugo_path, tmp_path, capsys):
    """--auto: a scripted person (a second GNU Go) at the virtual board plays
    a whole game, lifts the dead stones and confirms; RE[] is the board's
    count, the engine's own score is only its opinion, and the finished game
    is stored on the board, so `pull --sim` finds it."""
    out = tmp_path / "game.sgf"
    store = tmp_path / "store"
    rc = cli.main(["play", "--sim", "--auto", "--sim-store", str(store),
                   "--engine", gnugo_path + " --mode gtp --level 0",
                   "--colour", "white", "--size", "9", "--komi", "6.5", "--out", str(out),
                   "--person", "engine:%s --mode gtp --level 0 --seed 2" % gnugo_path])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "1. black " in printed
    # One spelling of a pass in the log (item 7).
    moves_logged = re.findall(r"^\d+\. (black|white) (\S+)$", printed, re.M)
    assert [m for _, m in moves_logged[-2:]] == ["pass", "pass"]
    assert not any(m in ("PASS", "Pass") for _, m in moves_logged)
    assert "two passes: lift the dead stones at the board, then press Confirm" in printed
    result = re.search(r"^result (\S+) \(the board's count\), \d+ moves", printed, re.M).group(1)
    opinion = re.search(r"^GNU Go's opinion: (\S+)$", printed, re.M)
    if opinion:
        assert opinion.group(1) != result
    game = sgfmill_sgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_size() == 9 and game.get_komi() == 6.5
    assert game.get_root().get("RE") == result
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert len(moves) > 20 and moves[-1][1] is None and moves[-2][1] is None
    assert moves[-1][0] != moves[-2][0]
    dest = tmp_path / "pulled"
    assert cli.main(["pull", "--sim", "--sim-store", str(store), "--dest", str(dest)]) == 0
    assert "1 game on the board" in capsys.readouterr().out
    (name,) = [p.name for p in dest.iterdir()]
    assert "RE[%s]" % result in (dest / name).read_text()


def test_a_reused_sim_store_resumes_the_stored_game(gnugo_path, tmp_path):
    """Stopped after 20 moves, the same store again: the board resumes the
    kept game (as after a power cut) and the relay goes on from move 21."""
    engine = gnugo_path + " --mode gtp --level 0"
    store = str(tmp_path / "store")
    first = run_cli("play", "--sim", "--auto", "--sim-store", store, "--engine", engine,
                    "--size", "9", "--max-moves", "20")
    assert first.returncode == 0, first.stderr
    assert "stopped, 20 moves" in first.stdout
    second = run_cli("play", "--sim", "--auto", "--sim-store", store, "--engine", engine,
                     "--size", "9", "--out", str(tmp_path / "g.sgf"))
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    # The scripted person may have put its next stone down before the stop.
    at = int(re.search(r"^resuming the game kept on the board at move (\d+) \(", second.stdout,
                       re.M).group(1))
    assert at in (21, 22)
    assert re.search(r"^%d\. (black|white) " % at, second.stdout, re.M)
    game = sgfmill_sgf.Sgf_game.from_string((tmp_path / "g.sgf").read_text())
    assert len(game.get_main_sequence()) > 21 and game.get_root().get("RE")
    if "GNU Go's opinion:" in second.stdout:
        # The random person lifts no dead stones: the output says so.
        assert "the scripted random person lifts none" in second.stdout, second.stdout


def test_results_read_as_what_happened():
    assert session.result_words("W+R") == "W+R (Black resigned)"
    assert session.result_words("B+R") == "B+R (White resigned)"
    assert session.result_words("B+T") == "B+T (White lost on time)"
    assert session.result_words("W+9.5") == "W+9.5 (the board's count)"
    assert "lifts none" in session.opinion_note("GNU Go", random_person=True)
    assert "lifts none" not in session.opinion_note("GNU Go")


def test_a_dead_simulator_thread_is_a_clear_error_not_a_hang(tmp_path, monkeypatch, capsys):
    from host_sim.sim import simboard
    real = simboard.SimBoard.step

    def broken(self):
        if self.steps > 20:
            raise ValueError("G3 already holds a stone")
        real(self)

    monkeypatch.setattr(simboard.SimBoard, "step", broken)
    start = time.monotonic()
    rc = cli.main(["watch", "--sim", "--sim-store", str(tmp_path / "s"), "--count", "0",
                   "--interval", "0.05", "--plain"])
    assert rc == 1 and time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert "the simulated board stopped: ValueError: G3 already holds a stone" in err


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
    assert "2 games on the board" in capsys.readouterr().out
    # Already there: nothing is fetched twice.
    assert cli.main(["pull", "--sim", "--sim-store", str(store), "--dest", str(dest)]) == 0
    assert "0 downloaded" in capsys.readouterr().out


def test_watch_shows_board_and_status(capsys):
    assert cli.main(["watch", "--sim", "--count", "2", "--interval", "0.05", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.count("phase=") == 2 and " A B C D E F G H J" in out


class Running:
    """A simulator running in this process (as `make sim` does in another),
    stepped by a thread; the test's hand acts under its lock."""

    def __init__(self, store):
        from host_sim.sim.virtual import make_config
        self.sim = session.BoardSim(make_config(size=9), store_dir=store)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            with self.lock:
                self.sim.step()
            time.sleep(0.002)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sim.close()


def test_watch_and_pull_mirror_the_running_simulator(tmp_path, capsys):
    live = Running(str(tmp_path / "store"))
    try:
        assert session.live_port() == live.sim.live.port
        # Let the board take its first view (a stone down before it is one
        # found at boot, never a move), as a person would see it light up.
        deadline = time.time() + 5
        while not live.sim.referee.settler.primed and time.time() < deadline:
            time.sleep(0.02)
        for vertex, colour in (("D4", 1), ("E5", 2)):
            with live.lock:
                live.sim.stones.put(vertex, colour)
            time.sleep(0.5)
        assert cli.main(["watch", "--sim", "--count", "1", "--plain"]) == 0
        out = capsys.readouterr().out
        assert "moves=2" in out and "phase=play" in out
        assert re.search(r"^ ?4 .*X", out, re.M) and re.search(r"^ ?5 .*O", out, re.M)
        assert "move B D4" in out and "move W E5" in out  # the events, as they came
        with live.lock:
            live.sim.press("pass")
        time.sleep(0.3)
        with live.lock:
            live.sim.press("pass")
        time.sleep(0.3)
        with live.lock:
            live.sim.press("confirm")  # the count confirmed: the game is stored
        time.sleep(0.5)
        dest = tmp_path / "pulled"
        assert cli.main(["pull", "--sim", "--dest", str(dest)]) == 0
        assert "1 game on the board (the running simulator)" in capsys.readouterr().out
        assert ";B[df];W[ee];B[];W[]" in next(dest.iterdir()).read_text()
    finally:
        live.close()
    assert session.live_port() is None


def test_gtp_auto_bridge_on_stdin_stdout():
    script = "# a comment\n\n1 name\nplay b E5\n2 genmove w\n\x00\xff garbage\n3 showboard\nquit\n"
    r = run_cli("gtp", "--sim", "--auto", input=script, timeout=60)
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.split("\n\n")
    assert blocks[0] == "=1 GoGadget"
    assert blocks[1] == "= "
    assert blocks[2].startswith("=2 ") and len(blocks[2].split()[1]) >= 2
    assert blocks[3].startswith("? ")
    assert blocks[4].startswith("=3 ") and " X " in blocks[4] and " O " in blocks[4]
    assert blocks[5] == "= " and blocks[6] == ""


def test_gtp_sim_a_person_answers_genmove():
    """`gogadget gtp --sim`: the controller's genmove waits for the person at
    the virtual board (here a hand acting on the session's simulator)."""
    import io
    from host_sim.sim.virtual import make_config
    r_fd, w_fd = os.pipe()
    stdin = os.fdopen(r_fd, "rb")
    feed = os.fdopen(w_fd, "wb", buffering=0)
    answers = io.StringIO()
    sim, relay = session.start_gtp(make_config(size=9), stdin, answers)
    try:
        feed.write(b"boardsize 9\nclear_board\nplay b E5\n1 genmove w\n")
        deadline = time.monotonic() + 10
        while not (relay._word == "genmove" and sim.link.waiting):
            assert time.monotonic() < deadline, answers.getvalue()
            sim.step()
        assert relay.status().startswith("White to play (you): first set the lit stones")
        sim.stones.put("E5", 1)  # the controller's stone, as its light asks
        sim.until_quiet()
        assert relay.status() == "White to play (you): put a stone down or press Pass"
        sim.stones.put("C3", 2)  # the person's move
        while "=1 " not in answers.getvalue():
            assert time.monotonic() < deadline, answers.getvalue()
            sim.step()
        assert "=1 C3\n\n" in answers.getvalue()
        assert relay.log[-2:] == ["black E5 (from the controller)", "white C3 (you)"]
        feed.write(b"2 genmove b\n")
        while not sim.link.waiting:
            sim.step()
        sim.press("pass")
        while "=2 " not in answers.getvalue():
            assert time.monotonic() < deadline, answers.getvalue()
            sim.step()
        assert "=2 pass\n\n" in answers.getvalue().lower()
        feed.write(b"quit\n")
        while not relay.done:
            assert time.monotonic() < deadline
            sim.step()
    finally:
        feed.close()
        relay.close()
        sim.close()


def test_bad_port_is_a_clear_error(capsys):
    assert cli.main(["watch", "--port", "/dev/nonexistent-gogadget", "--count", "1"]) == 1
    assert "nonexistent-gogadget" in capsys.readouterr().err


def test_every_option_has_help_text():
    parsers = [cli.parser()]
    parsers += list(parsers[0]._subparsers._group_actions[0].choices.values())
    from host_sim import __main__ as sim_main
    import argparse
    captured = {}
    real = argparse.ArgumentParser.parse_args

    def grab(self, args=None, namespace=None):
        captured["p"] = self
        return real(self, args, namespace)

    class Got(Exception):
        pass

    def grab_and_stop(self, args=None, namespace=None):
        captured["replay"] = self
        raise Got()

    argparse.ArgumentParser.parse_args = grab
    try:
        sim_main.parse([])
        argparse.ArgumentParser.parse_args = grab_and_stop
        with pytest.raises(Got):
            sim_main.replay_main([])
    finally:
        argparse.ArgumentParser.parse_args = real
    parsers += [captured["p"], captured["replay"]]
    for p in parsers:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, (p.prog, action.option_strings or action.dest)


def test_host_sim_help_lists_replay():
    r = subprocess.run([sys.executable, "-m", "host_sim", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "replay GAME.sgf" in r.stdout


def test_play_sim_help_says_you_are_at_the_board():
    r = run_cli("play", "--help", timeout=60)
    text = " ".join(r.stdout.split())
    assert "With --sim you play at the simulator's window" in text
    assert "--auto" in text and "scripted person" in text


@pytest.mark.parametrize("line", [l for l in (ROOT / "README.md").read_text().splitlines()
                                  if l.lstrip().startswith((".venv/bin/gogadget ", "gogadget "))])
def test_readme_gogadget_commands_parse(line):
    """Every `gogadget` command in the README is spelled so it runs on a
    fresh clone (.venv/bin/gogadget) and parses."""
    import shlex
    words = shlex.split(line.split("#", 1)[0])
    assert words[0] == ".venv/bin/gogadget", line
    args = cli.parser().parse_args(words[1:])
    assert args.func


def test_gtp_sim_without_display_or_terminal_says_how_to_go_on():
    """Started by a controller with no display and no terminal for the
    person: a clear error naming --auto, not a hang."""
    r = subprocess.run([sys.executable, "-m", "host_sim.cli", "gtp", "--sim"], cwd=ROOT,
                       input="name\n", capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, DISPLAY=""), start_new_session=True)
    assert r.returncode == 2
    assert "no display and no terminal for the person" in r.stderr and "--auto" in r.stderr


def test_version_shows_the_boards_firmware_and_the_hosts(tmp_path, capsys):
    """`gogadget version`: what a tournament director checks on each board.
    The virtual board runs the firmware from firmware/, not a UF2, so its
    build is 'dev'; the version is the package's one VERSION."""
    from gogadget import VERSION
    assert cli.main(["version", "--sim", "--sim-store", str(tmp_path / "store")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^board: GoGadget %s \(dev\) \(a virtual board on " % re.escape(VERSION),
                     out, re.M), out
    assert "host:  gogadget %s (dev)" % VERSION in out, out


def _said_to_take_sim(text, commands):
    """The commands a help text says take --sim ("Every command takes
    --sim", "Every command but relay ... takes --sim")."""
    m = re.search(r"Every command(?: but ((?:\w+, )*\w+(?: and \w+)?))?[^.]*? takes --sim",
                  " ".join(text.split()))
    assert m, text
    return set(commands) - set(re.split(r", | and ", m.group(1) or ""))


def test_the_help_and_the_readme_say_which_commands_take_sim(capsys):
    """Issue 27, item 3: `gogadget --help` said every command takes --sim;
    relay refused it.  What the help and the README say is what the parser
    takes, and the others refuse --sim with argparse's error."""
    p = cli.parser()
    commands = p._subparsers._group_actions[0].choices
    takes = {name for name, sub in commands.items()
             if any("--sim" in a.option_strings for a in sub._actions)}
    assert "play" in takes and "remote" in takes and "relay" not in takes
    assert _said_to_take_sim(p.format_help(), commands) == takes
    readme = (ROOT / "README.md").read_text().replace("`", "")
    assert _said_to_take_sim(readme[readme.index("### The same with the simulator"):],
                             commands) == takes
    for name in set(commands) - takes:
        with pytest.raises(SystemExit) as exc:
            cli.main([name, "--sim"] + ({"relay": ["--broker", "mqtt://127.0.0.1:1"],
                                         "image": ["--firmware", "x.uf2"],
                                         "room": ["boards", "--template", "t.json", "--boards",
                                                  "1", "--sim-stores", "s"]}.get(name, [])))
        assert exc.value.code == 2
        assert "unrecognized arguments: --sim" in capsys.readouterr().err
