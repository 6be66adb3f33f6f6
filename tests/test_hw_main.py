"""firmware/main.py under the MicroPython unix port with the pin-level
fakes: calibration at the board, boot self-test, the scan loop, a move."""
import pytest

from conftest import ROOT

SCRIPT = r"""
import sys, json, time
sys.path.append(%(fw)r)
import machine
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM
from gogadget.hw import pico, pins
from gogadget.hw.calibrate import Calibrator
from gogadget.points import parse_vertex, place, vertex
size = 9
board = machine.install_colour(size, seed=11, noise=200)
with open("config.json", "w") as f:
    f.write(json.dumps({"size": size, "scan_hz": 50}))
cal = Calibrator(pico.make_sensors(Config(size=size), machine), "calib.bin", samples=4)
cal.press(BTN_CONFIRM)
for p in cal.black_places: board.stones[p] = 1
cal.press(BTN_CONFIRM)
for p in cal.white_places: board.stones[p] = 2
print("calibration", cal.press(BTN_CONFIRM))
for p in range(size * size): board.stones[p] = 0
%(before)s
class Stream:
    def readinto(self, buf): return 0
    def write(self, b): pass
import main
t0 = time.ticks_ms()
app = main.main(cycles=50, stream=Stream())
print("elapsed", time.ticks_diff(time.ticks_ms(), t0))
print("feeds", machine.counters["wdt_feeds"])
if app:
    board.stones[place(size, parse_vertex(size, "D4"))] = 1
    now = time.ticks_ms()
    for i in range(30):
        app.step(now + 20 * i)
    print("moves", [vertex(size, app.referee.board.move(i)[1]) for i in range(app.referee.board.moves)])
"""


def run(micropython, tmp_path, before=""):
    r = micropython(code=SCRIPT % dict(fw=str(ROOT / "firmware"), before=before), cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_calibrate_boot_loop_and_a_move(micropython, tmp_path):
    out = run(micropython, tmp_path)
    assert "calibration ok" in out and "calibration loaded" in out
    assert "sensor fault" not in out
    assert "feeds 50" in out  # the watchdog is fed every cycle
    elapsed = int(out.split("elapsed ")[1].split()[0])
    assert elapsed >= 49 * 20  # the schedule never runs faster than scan_hz
    assert "moves ['D4']" in out, out


def test_stuck_sensor_is_reported_at_boot(micropython, tmp_path):
    out = run(micropython, tmp_path, before="board.stuck[place(size, parse_vertex(size, 'C3'))] = 0")
    assert "sensor fault at C3: stuck low (0)" in out


def test_confirm_held_at_power_up_skips_the_loop(micropython, tmp_path):
    out = run(micropython, tmp_path, before="machine.buttons.held = {pins.BUTTON_CONFIRM}")
    assert "not starting" in out and "feeds 0" in out


def test_missing_config_runs_on_defaults(micropython, tmp_path):
    out = run(micropython, tmp_path, before="import os; os.remove('config.json')")
    assert "no config.json: defaults" in out


def test_pass_and_new_held_hand_over_to_the_calibration_then_let_it_go(micropython, tmp_path):
    # The scan loop (gogadget/loop.py) runs the procedure when the buttons
    # ask for it, the self-test after it took, and then lets both modules
    # go; the procedure itself runs on the emulated Pico in tests/test_rp2_physics.py (a stand-in here
    # says it took).
    before = ("import gogadget.hw.calibrate as _cal\n"
              "def _took(sensors, leds, buttons, wdt, path=None):\n"
              "    print('calibrating'); return 'ok'\n"
              "_cal.run = _took\n"
              "_cal = None\n"
              "machine.buttons.held = {pins.BUTTON_PASS, pins.BUTTON_NEW}\n")
    code = SCRIPT % dict(fw=str(ROOT / "firmware"), before=before) + (
        "\nprint('held', sorted(m for m in sys.modules if m.endswith(('calibrate', 'selftest',"
        " '.boot', '.pico', 'configfile'))))\n")
    r = micropython(code=code, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "calibrating" in r.stdout and "feeds 50" in r.stdout, r.stdout
    assert "held []" in r.stdout, r.stdout
