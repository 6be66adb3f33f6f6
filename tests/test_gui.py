"""The Tk simulator for real: Xvfb, mouse clicks and keys by xdotool, pixels by xwd."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import require
from host_sim.screenshot import grab

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.gui

WOOD = (0xdc, 0xb3, 0x5c)


def near(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture
def display():
    xvfb = require("Xvfb", "(apt-get install xvfb; .ci/run does)")
    for n in range(91, 160):
        if not os.path.exists("/tmp/.X%d-lock" % n) and not os.path.exists("/tmp/.X11-unix/X%d" % n):
            break
    proc = subprocess.Popen([xvfb, ":%d" % n, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists("/tmp/.X11-unix/X%d" % n):
                break
            time.sleep(0.05)
        else:
            pytest.fail("Xvfb did not start on :%d" % n)
        yield ":%d" % n
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Gui:
    def __init__(self, display, tmp_path, *args):
        self.display = display
        self.xdotool = require("xdotool", "(apt-get install xdotool; .ci/run does)")
        require("xwd", "(apt-get install x11-apps; .ci/run does)")
        self.state_file = tmp_path / "state.json"
        self.env = dict(os.environ, DISPLAY=display)
        self.log = open(tmp_path / "gui.log", "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "host_sim", "--state-file",
                                      str(self.state_file), *args],
                                     cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)

    def state(self):
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None

    def wait(self, test, what, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            assert self.proc.poll() is None, "simulator exited: " + self.logged()
            s = self.state()
            if s and test(s):
                return s
            time.sleep(0.05)
        pytest.fail("GUI never showed %s; last state: %s" % (what, self.state()))

    def logged(self):
        self.log.flush()
        return Path(self.log.name).read_text()

    def xdo(self, *args):
        subprocess.run([self.xdotool, *args], env=self.env, check=True, timeout=30)

    def click(self, vertex):
        x, y = self.state()["screen"][vertex]
        self.xdo("mousemove", str(x), str(y), "click", "1")

    def drag(self, src, dst):
        (x0, y0), (x1, y1) = self.state()["screen"][src], self.state()["screen"][dst]
        self.xdo("mousemove", str(x0), str(y0), "mousedown", "1", "mousemove", str((x0 + x1) // 2),
                 str((y0 + y1) // 2), "mousemove", str(x1), str(y1), "mouseup", "1")

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.log.close()


def moves(s):
    return [t for k, t in s["events"] if k == "move"]


def test_gui_hand_places_lifts_slides_and_shows_prompts(display, tmp_path):
    gui = Gui(display, tmp_path, "--size", "9", "--rules", "japanese")
    try:
        gui.wait(lambda s: s.get("mapped") and s["size"] == 9, "the board")
        time.sleep(0.5)  # the window manager-less screen settles the window's place
        gui.click("D4")
        gui.wait(lambda s: s["stones"].get("D4") == "B" and "B D4" in moves(s), "black D4 played")
        gui.click("E5")  # still black in hand, but White is to play
        gui.wait(lambda s: s["lights"].get("E5", "").startswith("wrong-colour"), "wrong colour at E5")
        gui.click("E5")  # lift it again
        gui.wait(lambda s: "E5" not in s["stones"] and "E5" not in s["lights"], "E5 cleared")
        gui.xdo("key", "c")  # white in hand
        gui.click("E5")
        gui.wait(lambda s: "W E5" in moves(s), "white E5 played")
        gui.drag("D4", "D5")  # a sloppy hand slides Black's stone
        s = gui.wait(lambda s: s["lights"].get("D4", "").startswith("put-black")
                     and s["lights"].get("D5", "").startswith("remove"), "slide prompts")
        assert s["stones"] == {"D5": "B", "E5": "W"} and moves(s) == ["B D4", "W E5"]
        # The screen shows the wooden board, both stones and a lit prompt
        # (blinking: grab until a frame catches it on).
        d4, e5, d5 = (s["screen"][v] for v in ("D4", "E5", "D5"))
        for _ in range(20):
            shot = grab(display)
            glow = shot.pixel(d4[0], d4[1])
            if not near(glow, WOOD, 30):
                break
            time.sleep(0.07)
        assert not near(glow, WOOD, 30), "no light at D4 in any screenshot"
        assert glow[2] > glow[0], "put-black should light D4 blue, got %s" % (glow,)
        board = shot.crop(d4[0] - 200, d4[1] - 300, d4[0] + 300, d4[1] + 200)
        wood = board.count(lambda r, g, b: near((r, g, b), WOOD))
        assert wood > 0.4 * board.width * board.height
        assert max(shot.pixel(d5[0], d5[1])) < 60  # black stone
        assert min(shot.pixel(e5[0], e5[1])) > 200  # white stone
        shot.crop(0, 0, 700, 620).save_png(str(tmp_path / "gui.png"))
        assert (tmp_path / "gui.png").stat().st_size > 1000
        gui.drag("D5", "D4")  # put right
        gui.wait(lambda s: not any(v.split("/")[0] in ("put-black", "remove")
                                   for v in s["lights"].values()), "prompts gone")
        gui.xdo("key", "h")  # a hand over the board makes no move
        time.sleep(0.8)
        assert moves(gui.state()) == ["B D4", "W E5"]
    finally:
        gui.close()


def test_gui_is_the_board_in_a_game_against_gnugo(display, tmp_path, gnugo_path):
    out = tmp_path / "game.sgf"
    gui = Gui(display, tmp_path, "--size", "9", "--engine", gnugo_path + " --mode gtp --level 0",
              "--out", str(out))
    try:
        gui.wait(lambda s: s.get("mapped") and "Black to play (you)" in (s["game"] or ""),
                 "the person's turn")
        time.sleep(0.5)
        gui.click("E5")
        s = gui.wait(lambda s: any(v.startswith("put-white") for v in s["lights"].values()),
                     "GNU Go's reply lit")
        reply = next(v for v, c in s["lights"].items() if c.startswith("put-white"))
        assert "GNU Go's white %s is waiting to be placed" % reply in s["game"]
        assert reply not in s["stones"] and moves(s) == ["B E5", "W " + reply]
        gui.click(reply)  # black in hand, but the light says which stone to take
        s = gui.wait(lambda s: s["stones"].get(reply) == "W" and not any(
            v.split("/")[0] in ("put-white", "put-black", "remove") for v in s["lights"].values()),
                     "reply placed")
        assert s["stones"] == {"E5": "B", reply: "W"}
        assert "Black to play (you)" in s["game"] and s["game_log"][-2:] == ["1. black E5",
                                                                            "2. white " + reply]
    finally:
        gui.close()
    # Closing the window ends the engine and keeps the firmware's record.
    from sgfmill import sgf as sgfmill_sgf
    game = sgfmill_sgf.Sgf_game.from_string(out.read_text())
    got = [n.get_move() for n in game.get_main_sequence()[1:]]
    col = "ABCDEFGHJ".index(reply[0])
    assert got == [("b", (4, 4)), ("w", (int(reply[1:]) - 1, col))]
