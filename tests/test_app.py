"""The pin-free application with fake drivers: step() wiring, boot, resume."""
import sys
from pathlib import Path

from gogadget.app import App
from gogadget.config import Config
from gogadget.events import BTN_PASS
from gogadget.points import BLACK, parse_vertex, place
from gogadget.scan import S_BLACK

sys.path.insert(0, str(Path(__file__).resolve().parent / "mp"))
from fake_drivers import Buttons, Sensors  # noqa: E402


class Leds:
    def __init__(self):
        self.shown = None
        self.calls = 0

    def show(self, frame, now_ms):
        self.shown = bytes(frame)
        self.calls += 1


def test_step_moves_and_resume(tmp_path):
    store = str(tmp_path / "games")
    sensors, leds, buttons = Sensors(9), Leds(), Buttons()
    app = App(Config(size=9), sensors, leds, buttons, store)
    app.boot(0)
    t = 0
    steps = 0
    # The settled view is voted from the first scans; a stone found on the
    # board then was there before the game and is never a move.
    sensors.board[place(9, parse_vertex(9, "D4"))] = S_BLACK
    period = app.config.scan_period_ms()
    while t < 2000:  # past the settler's boot warm-up (settle.WARM_MS)
        app.step(t)
        t += period
        steps += 1
    assert app.referee.board.moves == 0 and app.referee.outstanding() == 1
    sensors.board[place(9, parse_vertex(9, "D4"))] = 0
    sensors.board[place(9, parse_vertex(9, "E5"))] = S_BLACK
    for _ in range(2 * app.referee.settler.stable_scans):
        app.step(t)
        t += period
        steps += 1
    assert app.referee.board.moves == 1
    assert app.referee.board.last_move()[1] == parse_vertex(9, "E5")
    assert leds.shown == bytes(app.referee.frame) and leds.calls == steps
    buttons.queue.append(BTN_PASS)
    app.step(t)
    assert app.referee.board.moves == 2
    # power cut: a new App on the same store resumes and waits for the stone
    sensors2 = Sensors(9)
    app2 = App(Config(size=9), sensors2, Leds(), Buttons(), store)
    app2.boot(0)
    assert app2.referee.board.moves == 2 and app2.referee.phase == "resume"
    sensors2.board[:] = sensors.board
    for i in range(20):
        app2.step(i * 20)
    assert app2.referee.phase == "play" and app2.referee.to_move() == BLACK


def test_occupancy_driver_sets_the_config(tmp_path):
    s = Sensors(9)
    s.kind = "occupancy"
    app = App(Config(size=9), s, Leds(), Buttons(), str(tmp_path))
    assert app.config.sensors == "occupancy"
