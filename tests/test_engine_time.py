"""An engine on the board's clock (issue 35, findings 5 and 6):
`gogadget play --time`, a running simulator reached with --sim-store, and
what the engine is told, as GTP v2 (time_settings, time_left) and KGS
(kgs-time_settings) define it, seen by a recording engine
(tests/recording_engine.py) and by GNU Go."""
import re
import sys
import threading
import time
import types

import pytest
from sgfmill import sgf as msgf

from conftest import ROOT
from gogadget.points import BLACK, WHITE
from host_sim import cli
from host_sim.sim import session
from host_sim.base.serialport import GtpError

RECORDER = "%s %s" % (sys.executable, ROOT / "tests" / "recording_engine.py")


class FakeBoard:
    """gogadget-clock's answer, as a board gives it."""

    def __init__(self, line):
        self.line = line

    def send(self, command):
        assert command == "gogadget-clock"
        return self.line


class FakeEngine:
    def __init__(self, refuse=()):
        self.sent = []
        self.refuse = refuse

    def send(self, command):
        self.sent.append(command)
        if command.split()[0] in self.refuse:
            raise GtpError("unknown command")
        return ""


def _told(clock_line, colour, refuse=()):
    board = FakeBoard(clock_line)
    eng = FakeEngine(refuse)
    told = session.tell_engine_time_settings(eng, session.board_clock(board))
    session.tell_engine_time_left(board, eng, colour, *([told] if refuse else []))
    return eng.sent


def test_time_left_at_the_edges():
    # Under a second of main time left: 1 s, never 0 (0 says the time is gone).
    assert _told("absolute 60 0 0 W 0 - 60000 0 400 0", WHITE) == [
        "kgs-time_settings absolute 60", "time_left w 1 0"]
    assert _told("byoyomi 60 30 5 B 0 - 999 0 60000 0", BLACK)[-1] == "time_left b 1 0"
    # Byo-yomi 1 s + 2 x 5 s to an engine without kgs-time_settings (GNU Go):
    # Canadian with one stone a period, so time_left says 1 stone, not the
    # periods (which time_settings never mentioned).
    assert _told("byoyomi 1 5 2 W 0 - 0 0 4200 2", WHITE, refuse=("kgs-time_settings",)) == [
        "kgs-time_settings byoyomi 1 5 2", "time_settings 1 5 1", "time_left w 4 1"]
    # Under kgs-time_settings byoyomi, the periods left.
    assert _told("byoyomi 1 5 2 W 0 - 0 0 4200 2", WHITE)[-1] == "time_left w 4 2"
    # Canadian: the stones left in the current period.
    assert _told("canadian 0 60 5 B 0 - 31500 3 60000 5", BLACK, refuse=("kgs-time_settings",)) \
        == ["kgs-time_settings canadian 0 60 5", "time_settings 0 60 5", "time_left b 31 3"]
    # Out of time: 0.
    assert _told("absolute 60 0 0 - 0 B 0 0 60000 0", BLACK)[-1] == "time_left b 0 0"


def _time_lines(log):
    """The time lines the engine got, each with what it answered
    ("?" for a refusal), and the genmoves among them."""
    out = []
    lines = log.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(("time_settings", "kgs-time_settings", "time_left", "genmove")):
            answer = lines[i + 1] if i + 1 < len(lines) else ""
            out.append(line + (" ?" if answer.startswith("-> ?") else ""))
    return out


# (--time, refuses kgs-time_settings, the settings lines, time_left's pattern
# (SECONDS, then STONES), the limit of its seconds, its stones in turn)
SYSTEMS = [
    ("absolute:600", False, ["kgs-time_settings absolute 600"], 600, [0, 0, 0, 0]),
    ("absolute:600", True, ["kgs-time_settings absolute 600 ?", "time_settings 600 0 0"], 600,
     [0, 0, 0, 0]),
    # fischer: absolute time, told again by every time_left (increments included)
    ("fischer:600:10", False, ["kgs-time_settings absolute 600"], 640, [0, 0, 0, 0]),
    ("byoyomi:0:30:3", False, ["kgs-time_settings byoyomi 0 30 3"], 30, [3, 3, 3, 3]),
    ("byoyomi:0:30:3", True, ["kgs-time_settings byoyomi 0 30 3 ?", "time_settings 0 30 1"], 30,
     [1, 1, 1, 1]),
    ("canadian:0:60:3", False, ["kgs-time_settings canadian 0 60 3"], 60, [3, 2, 1, 3]),
    ("canadian:0:60:3", True, ["kgs-time_settings canadian 0 60 3 ?", "time_settings 0 60 3"],
     60, [3, 2, 1, 3]),
]


@pytest.mark.parametrize("spec,no_kgs,settings,limit,stones", SYSTEMS,
                         ids=["%s%s" % (s[0].split(":")[0], "-v2" if s[1] else "") for s in SYSTEMS])
def test_a_recording_engine_is_told_what_the_specs_say(tmp_path, capsys, spec, no_kgs, settings,
                                                       limit, stones):
    log = tmp_path / "engine.log"
    out = tmp_path / "game.sgf"
    rc = cli.main(["play", "--sim", "--auto", "--sim-store", str(tmp_path / "store"),
                   "--time", spec, "--engine",
                   "%s %s%s" % (RECORDER, log, " --no-kgs" if no_kgs else ""),
                   "--colour", "black", "--size", "9", "--max-moves", "8", "--quiet",
                   "--out", str(out)])
    assert rc == 0, capsys.readouterr()
    lines = _time_lines(log)
    assert lines[:len(settings)] == settings, lines
    rest = lines[len(settings):]
    # Exactly one time_left for the engine's colour before each genmove.
    assert len(rest) == 2 * len(stones), rest
    for k, n in enumerate(stones):
        m = re.fullmatch(r"time_left w (\d+) (\d+)", rest[2 * k])
        assert m and rest[2 * k + 1] == "genmove w", rest
        assert 1 <= int(m.group(1)) <= limit and int(m.group(2)) == n, rest
    # The board kept the game on that clock.
    root = msgf.Sgf_game.from_bytes(out.read_bytes()).get_root()
    assert root.get("TM") == int(spec.split(":")[1])


def test_play_time_refuses_bad_words(capsys):
    assert cli.main(["play", "--sim", "--auto", "--time", "byoyomi:600", "--engine",
                     RECORDER + " /dev/null"]) == 2
    assert "--time byoyomi takes MAIN_TIME:PERIOD_TIME:PERIODS" in capsys.readouterr().err


def test_gnugo_plays_on_the_boards_clock_through_gogadget_play(gnugo_path, tmp_path, capsys):
    """GNU Go 3.8 refuses kgs-time_settings: it gets time_settings (byo-yomi
    as one stone a period) and a time_left before each genmove, and takes
    them all; the board keeps every move's time."""
    log = tmp_path / "gnugo.log"
    out = tmp_path / "game.sgf"
    rc = cli.main(["play", "--sim", "--auto", "--sim-store", str(tmp_path / "store"),
                   "--time", "byoyomi:60:20:3", "--engine",
                   "%s %s --proxy '%s --mode gtp --level 0'" % (RECORDER, log, gnugo_path),
                   "--colour", "black", "--size", "9", "--max-moves", "10", "--quiet",
                   "--out", str(out)])
    assert rc == 0, capsys.readouterr()
    text = "\n".join(line.rstrip() for line in log.read_text().splitlines()) + "\n"
    assert "kgs-time_settings byoyomi 60 20 3\n-> ?" in text, "GNU Go 3.8 refuses it"
    assert "time_settings 60 20 1\n-> =\n" in text
    lefts = re.findall(r"^time_left w (\d+) (\d+)\n-> =$", text, re.M)
    assert len(lefts) == 5 and all(1 <= int(s) <= 60 for s, _ in lefts), text
    assert "-> ?" not in text.replace("kgs-time_settings byoyomi 60 20 3\n-> ?", "")
    game = msgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_root().get("OT") == "3x20 byo-yomi"
    nodes = game.get_main_sequence()[1:]
    assert len(nodes) == 10
    for node in nodes:
        c = node.get_move()[0].upper()
        assert node.has_property(c + "L"), node


class Running:
    """A simulator running in this process, as `make sim` runs one, with a
    scripted person at it (host_sim/sim/simboard.py's Person) doing what the LEDs
    ask and moving when the host's genmove asks."""

    def __init__(self, store):
        from host_sim.sim.simboard import Person, RandomPolicy
        from host_sim.sim.virtual import make_config
        self.sim = session.BoardSim(make_config(size=9), store_dir=store)
        sim = self.sim
        view = types.SimpleNamespace(app=sim.app, stones=sim.stones, sensors=sim.sensors,
                                     leds=sim.leds, buttons=sim.buttons, link=sim.live.link)
        self.person = Person(view, RandomPolicy(4))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            self.person.act(self.sim.clock.now_ms)
            self.sim.step()
            time.sleep(0.002)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sim.close()


def test_play_sim_reaches_the_simulator_running_on_its_store(tmp_path, capsys):
    """`gogadget play --sim --sim-store DIR` with a simulator running there
    plays at that one (its person), on the --time given, instead of
    refusing it."""
    store = str(tmp_path / "store")
    live = Running(store)
    try:
        log = tmp_path / "engine.log"
        rc = cli.main(["play", "--sim", "--sim-store", store, "--time", "canadian:0:60:3",
                       "--engine", "%s %s" % (RECORDER, log), "--colour", "black",
                       "--size", "9", "--max-moves", "6", "--new"])
        printed = capsys.readouterr()
        assert rc == 0, printed
        assert "playing at the simulator running on %s" % store in printed.out
        assert "6. white" in printed.out and "in use by another simulator" not in printed.err
        assert live.sim.app.referee.board.moves == 6
        assert live.sim.app.referee.clock is not None
        assert live.sim.app.referee.clock.system == 4  # canadian, set over GTP
        assert "kgs-time_settings canadian 0 60 3" in log.read_text()
    finally:
        live.close()
