"""Run under MicroPython (cwd: a board's flash): main.py's whole app through a
game, and which firmware modules are loaded in each phase.  Prints one JSON
line, {phase: [module, ...]}.  tests/test_memory_budget.py holds each phase
to host_sim/tools/memory.py's budget.

    micropython phase_game.py calibrate   # calib.bin, as the maker does
    micropython phase_game.py game [MOD]  # idle, playing, counting, saving,
                                          # over, a new game, a host over GTP
                                          # (MOD: imported as play begins)
    micropython phase_game.py resume      # after `game`: a power cut, the game
                                          # resumed from the journal
    micropython phase_game.py room        # the room link (broker in the config,
                                          # gogadget.mqtt on a socket stand-in)
    micropython phase_game.py clock       # a game on byo-yomi (a time control
                                          # in the config loads the clock)

A phase's modules are those in sys.modules after each scan cycle of it
(saving: during the SGF's write, when its last bytes reach the flash)."""
import json
import sys

import machine

SIZE = 9
MODE = sys.argv[1] if len(sys.argv) > 1 else "game"
board = machine.install_colour(SIZE, seed=11, noise=200)

if MODE == "calibrate":
    from gogadget.config import Config
    from gogadget.events import BTN_CONFIRM
    from gogadget.hw import pico
    from gogadget.hw.calibrate import Calibrator
    cal = Calibrator(pico.make_sensors(Config(size=SIZE), machine), "calib.bin", samples=4)
    cal.press(BTN_CONFIRM)
    for p in cal.black_places:
        board.stones[p] = 1
    cal.press(BTN_CONFIRM)
    for p in cal.white_places:
        board.stones[p] = 2
    print(json.dumps({"calibration": cal.press(BTN_CONFIRM)}))
    sys.exit()

config = {"size": SIZE, "scan_hz": 50}
if MODE == "room":
    import mqtt_socket

    from gogadget import mqtt
    mqtt.socket = mqtt_socket
    config.update(broker="broker.local", board_id="board01")
if MODE == "clock":
    config.update(time_control="byoyomi", main_time=600, period_time=30, periods=5)
with open("config.json", "w") as f:
    f.write(json.dumps(config))

# What the test and the fakes brought in is not the firmware's.
base = set(m for m in sys.modules if not m.startswith("gogadget") and m != "main")
phases = {}


def note(phase):
    seen = phases.get(phase)
    if seen is None:
        seen = phases[phase] = set()
    for m in sys.modules:
        if m not in base:
            seen.add(m)


class Stream:
    """The USB serial line: quiet until the test types on it."""

    def __init__(self):
        self.rx = b""
        self.out = []

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        buf[:n] = self.rx[:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.out.append(bytes(data))


stream = Stream()
import main  # noqa: E402

app = main.main(cycles=30, stream=stream, watchdog=False)
ref = app.referee
now = [100000]


def steps(n, phase, until=None):
    for _ in range(n):
        app.step(now[0])
        now[0] += 20
        note(phase)
        if until is not None and until():
            return


def play(places, phase):
    for i, p in enumerate(places):
        want = ref.board.moves + 1
        board.stones[p] = 1 + i % 2
        steps(40, phase, lambda: ref.board.moves == want)
        assert ref.board.moves == want, ref.status()
        steps(3, phase)


if MODE == "resume":
    note("resume")  # main.main has replayed the journal: the stones are asked back
    assert ref.board.moves >= 3 and ref.phase == "resume", ref.status()
    print(json.dumps({"phases": dict((k, sorted(v)) for k, v in phases.items())}))
    sys.exit()
steps(5, "room" if MODE == "room" else "clocked" if MODE == "clock" else "idle")
OPENING = [2 * SIZE + 2, 6 * SIZE + 6, 2 * SIZE + 6, 6 * SIZE + 2, 4 * SIZE + 4, 4 * SIZE + 2]
if MODE == "room":
    play(OPENING, "room")
    assert mqtt_socket.published[0] > len(OPENING), (mqtt_socket.published, app.broadcast.error)  # pyright: ignore[reportPossiblyUnbound]
    print(json.dumps({"phases": dict((k, sorted(v)) for k, v in phases.items()),
                      "published": mqtt_socket.published}))  # pyright: ignore[reportPossiblyUnbound]
    sys.exit()

if MODE == "clock":
    play(OPENING, "clocked")
    assert ref.clock is not None, "a time control in the config and no clock"  # pyright: ignore[reportOptionalMemberAccess]
    print(json.dumps({"phases": dict((k, sorted(v)) for k, v in phases.items())}))
    sys.exit()

from gogadget.events import BTN_CONFIRM, BTN_PASS  # noqa: E402  (main has it loaded)

if len(sys.argv) > 2:
    __import__(sys.argv[2])  # tests/test_memory_budget.py: a module play does not need
play(OPENING, "playing")
ref.press(BTN_PASS, now[0])
steps(3, "passing")
ref.press(BTN_PASS, now[0])
assert ref.phase == "count", ref.phase
steps(10, "counting")
from gogadget import journal  # noqa: E402

real_sync = journal._sync


def saving_sync():
    if "gogadget.sgf" in sys.modules:  # the record's write (not the result's journal record)
        note("saving")
    real_sync()


journal._sync = saving_sync
ref.press(BTN_CONFIRM, now[0])
steps(3, "over")
journal._sync = real_sync
assert ref.phase == "over" and "saving" in phases, (ref.phase, list(phases))
assert [n for n in __import__("os").listdir("games") if n.endswith(".sgf")], "saved"
ref.new_game()
steps(5, "new game")
for p in OPENING:
    board.stones[p] = 0
steps(60, "new game", lambda: not ref.outstanding())
assert not ref.outstanding(), ref.status()
play(OPENING[:3], "new game")
stream.rx = b"protocol_version\nname\nlist_commands\nplay W d6\nshowboard\nfinal_score\n"
steps(40, "host")
answers = b"".join(stream.out)
assert answers.count(b"=") >= 6 and b"?" not in answers, answers
print(json.dumps({"phases": dict((k, sorted(v)) for k, v in phases.items())}))
