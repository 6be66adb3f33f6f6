"""The Tk simulator for real: Xvfb, mouse clicks and keys by xdotool, pixels by xwd."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import require, xvfb_display
from host_sim.faces.screenshot import grab

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.gui

WOOD = (0xdc, 0xb3, 0x5c)


def near(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture
def display():
    with xvfb_display(91, "1280x1024x24") as name:
        yield name


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


def blinking(display, test, tries=24):
    """A screenshot in which test(shot) holds (lights blink: grab until one is on)."""
    for _ in range(tries):
        shot = grab(display)
        if test(shot):
            return shot
        time.sleep(0.06)
    return None


def at(s, vertex, dx=0.0, dy=0.0):
    """Screen pixel at a point, offset by (dx, dy) cells."""
    x, y = s["screen"][vertex]
    return int(round(x + dx * s["cell"])), int(round(y + dy * s["cell"]))


def test_gui_hand_places_lifts_slides_and_shows_prompts(display, tmp_path):
    gui = Gui(display, tmp_path, "--size", "9", "--rules", "japanese")
    try:
        s = gui.wait(lambda s: s.get("mapped") and s["size"] == 9, "the board")
        assert s["in_hand"] == "B" and s["hand_mode"] == "turn"
        time.sleep(0.5)  # the window manager-less screen settles the window's place
        gui.click("D4")
        s = gui.wait(lambda s: s["stones"].get("D4") == "B" and "B D4" in moves(s), "black D4 played")
        # The stone in hand follows the turn: two players need not press c.
        s = gui.wait(lambda s: s["in_hand"] == "W", "white in hand for White's turn")
        assert s["next"] == "White to play: put a white stone down, or press Pass"
        gui.xdo("key", "c")  # choose black, against the turn
        gui.wait(lambda s: s["in_hand"] == "B" and s["hand_mode"] == "chosen", "black chosen")
        gui.click("E5")
        s = gui.wait(lambda s: s["lights"].get("E5", "").startswith("wrong-colour"), "wrong colour at E5")
        # Wrong (illegal, wrong colour) is a barred circle, a stone to lift a
        # cross: told apart by shape, not only colour.
        assert s["marks"]["E5"] == "barred", s["marks"]
        # The message says how to fix it ...
        assert "E5 holds a black stone, but White is to play: lift it and put down a white stone" \
            in s["next"] and "key a" in s["next"], s["next"]
        assert s["last_event"].startswith("last event: illegal: B stone at E5")
        gui.click("E5")  # lift it again
        s = gui.wait(lambda s: "E5" not in s["stones"] and "E5" not in s["lights"], "E5 cleared")
        # ... and goes away when it is fixed.
        s = gui.wait(lambda s: s["last_event"] == "", "the wrong-colour message gone")
        assert "E5" not in s["next"]
        gui.xdo("key", "a")  # the stone in hand follows the turn again
        gui.wait(lambda s: s["in_hand"] == "W" and s["hand_mode"] == "turn", "white in hand")
        gui.click("E5")
        gui.wait(lambda s: "W E5" in moves(s), "white E5 played")
        # The legend shows the last move's ring on the stone it is on: red on white.
        gui.wait(lambda s: ["last", "W"] in s["legend"], "the legend's ring on a white stone")
        gui.click("C6")  # black in hand again without a key: the turn's
        gui.wait(lambda s: "B C6" in moves(s), "black C6 played")
        gui.wait(lambda s: ["last", "B"] in s["legend"], "the legend's ring on a black stone")
        gui.drag("D4", "D5")  # a sloppy hand slides Black's stone
        s = gui.wait(lambda s: s["lights"].get("D4", "").startswith("put-black")
                     and s["lights"].get("D5", "").startswith("remove"), "slide prompts")
        assert s["stones"] == {"D5": "B", "E5": "W", "C6": "B"}
        assert moves(s) == ["B D4", "W E5", "B C6"]
        # White's turn, but the board asks for a black stone: that is in hand.
        s = gui.wait(lambda s: s["in_hand"] == "B", "black in hand, as the lights ask")
        assert s["in_hand_text"] == "Black (the lights ask)", s["in_hand_text"]
        assert s["next"].startswith("put a black stone on D4, and lift the stone on D5")
        assert s["marks"]["D5"] == "cross", s["marks"]
        # D4's LED shines where the real one does, up and to the right of the
        # point (the maker's guide's 14 mm on a 22 x 23.7 mm grid): blue.
        led = s["led_at"]
        assert abs(led - 14 / (22 ** 2 + 23.7 ** 2) ** 0.5) < 1e-9
        shot = blinking(display, lambda shot: not near(shot.pixel(*at(s, "D4", led, -led)), WOOD, 30))
        assert shot is not None, "no light at D4's LED in any screenshot"
        glow = shot.pixel(*at(s, "D4", led, -led))
        assert glow[2] > glow[0] + 60, "put-black should light D4 blue, got %s" % (glow,)
        # What the lights ask is marked on the points, steady, in every frame:
        # a ghost black stone (dark and wood pixels in a stone's circle) at
        # D4, an orange cross on the stone at D5.
        for _ in range(6):
            shot = grab(display)
            x, y = at(s, "D4")
            r = int(0.35 * s["cell"])
            ghost = shot.crop(x - r, y - r, x + r, y + r)
            dark = ghost.count(lambda r_, g, b: max(r_, g, b) < 60)
            wood = ghost.count(lambda r_, g, b: near((r_, g, b), WOOD, 30))
            assert dark > 0.1 * ghost.width * ghost.height and wood > 0.3 * ghost.width * ghost.height
            cross = shot.pixel(*at(s, "D5"))
            assert cross[0] > 200 and 60 < cross[1] < 160 and cross[2] < 60, cross
            time.sleep(0.2)
        assert max(shot.pixel(*at(s, "D5", 0.4, 0))) < 60, "a black stone covers its line"
        assert min(shot.pixel(*at(s, "E5", 0.3, 0))) > 200, "a white stone covers its line"
        assert max(shot.pixel(*at(s, "D5", -0.3, 0.2))) < 60  # black stone
        assert min(shot.pixel(*at(s, "E5"))) > 200  # white stone
        board = shot.crop(*at(s, "A9", -1.2, -1.2), *at(s, "J1", 1.2, 1.2))
        wood = board.count(lambda r, g, b: near((r, g, b), WOOD))
        assert wood > 0.4 * board.width * board.height
        shot.crop(0, 0, 800, 800).save_png(str(tmp_path / "gui.png"))
        assert (tmp_path / "gui.png").stat().st_size > 1000
        gui.drag("D5", "D4")  # put right
        gui.wait(lambda s: not any(v.split("/")[0] in ("put-black", "remove")
                                   for v in s["lights"].values()), "prompts gone")
        # A hand over the board shows in the window and makes no move.
        gui.xdo("key", "h")
        s = gui.wait(lambda s: s["hand_over_board"], "the hand shown")
        assert s["next"].startswith("a hand over the board"), s["next"]
        skin = (0xe8, 0xb0, 0x90)
        shot = grab(display)
        board = shot.crop(*at(s, "A9"), *at(s, "J1"))
        assert board.count(lambda r, g, b: near((r, g, b), skin, 10)) > 0.05 * board.width * board.height
        shot.crop(0, 0, 800, 800).save_png(str(tmp_path / "hand.png"))
        s = gui.wait(lambda s: not s["hand_over_board"], "the hand gone")
        time.sleep(0.3)
        assert moves(gui.state()) == ["B D4", "W E5", "B C6"]
    finally:
        gui.close()


def label_clear(shot, s, key):
    """The coordinate label is drawn (dark text) and no stone covers it."""
    x, y = s["labels"][key]
    h = max(5, int(s["cell"] * 0.16))
    box = shot.crop(int(x) - h, int(y) - h, int(x) + h + 1, int(y) + h + 1)
    text = box.count(lambda r, g, b: r < 120 and g < 100 and b < 60 and r > g > b)
    white = box.count(lambda r, g, b: min(r, g, b) > 225)
    black = box.count(lambda r, g, b: max(r, g, b) < 30)
    return text > 3 and white == 0 and black == 0


def test_gui_board_grows_with_the_window_star_points_and_labels(display, tmp_path):
    gui = Gui(display, tmp_path, "--size", "13")
    try:
        gui.wait(lambda s: s.get("mapped") and s["size"] == 13, "the board")
        time.sleep(0.5)
        s = gui.state()
        # 13x13: the four 4-4 points and the centre.
        assert sorted(s["stars"]) == ["D10", "D4", "G7", "K10", "K4"]
        shot = grab(display)
        for v in s["stars"]:
            assert max(shot.pixel(*at(s, v, 0.05, 0.05))) < 90, v
        for v in ("D7", "G4", "G10", "K7"):  # no star on the sides
            assert near(shot.pixel(*at(s, v, 0.05, 0.05)), WOOD, 30), v
        # Coordinates on all four sides.
        for side in ("top", "bottom"):
            assert {k.split()[1] for k in s["labels"] if k.startswith(side)} == set("ABCDEFGHJKLMN")
        for side in ("left", "right"):
            assert {k.split()[1] for k in s["labels"] if k.startswith(side)} == \
                {str(n) for n in range(1, 14)}
        # Stones on the edge lines leave the labels readable.
        edge = ["A13", "G13", "N13", "A7", "N7", "A1", "G1", "N1"]
        for i, v in enumerate(edge):
            gui.click(v)
            gui.wait(lambda s, i=i, v=v: len([m for m in moves(s) if m.endswith(" " + v)]) == 1,
                     "a stone on " + v)
        s = gui.wait(lambda s: len(s["stones"]) == 8, "edge stones")
        shot = grab(display)
        shot.crop(0, 0, 800, 760).save_png(str(tmp_path / "edges.png"))
        for key in ("top A", "top G", "top N", "left 13", "left 7", "left 1", "right 13",
                    "right 7", "right 1", "bottom A", "bottom G", "bottom N"):
            assert label_clear(shot, s, key), key
        # The board grows with the window.
        cell = s["cell"]
        wid = subprocess.run([gui.xdotool, "search", "--name", "Go Gadget simulator"], env=gui.env,
                             capture_output=True, text=True).stdout.split()
        assert wid
        for w in wid:
            gui.xdo("windowsize", w, "1200", "1000")
        s = gui.wait(lambda s: s["cell"] > cell * 1.2, "a bigger board")
        time.sleep(0.3)
        s = gui.state()
        shot = grab(display)
        shot.save_png(str(tmp_path / "bigger.png"))
        x, y, w, h = s["canvas"]
        assert (13 - 1) * s["cell"] > 0.75 * min(w, h)  # the board fills the canvas
        for key in ("top A", "left 13", "right 1", "bottom N", "left 7"):
            assert label_clear(shot, s, key), key
        assert max(shot.pixel(*at(s, "G7", 0.05, 0.05))) < 90  # the centre star, redrawn
        gui.click("F6")  # clicks land on the resized points
        gui.wait(lambda s: "B F6" in moves(s), "a move on the bigger board")
    finally:
        gui.close()


def test_gui_lights_territory_and_what_to_do_next(display, tmp_path):
    """Counting: dim territory spots apart from prompts; the status line keeps
    saying what to do next and never "to move"."""
    gui = Gui(display, tmp_path, "--size", "9", "--rules", "chinese")
    try:
        s = gui.wait(lambda s: s.get("mapped"), "the board")
        assert sorted(s["stars"]) == ["C3", "C7", "E5", "G3", "G7"]  # 9x9: five
        time.sleep(0.5)
        for i in range(1, 10):  # Black walls off column A, White column J
            gui.click("B%d" % i)
            gui.wait(lambda s, i=i: "B B%d" % i in moves(s), "B B%d" % i)
            gui.click("H%d" % i)
            gui.wait(lambda s, i=i: "W H%d" % i in moves(s), "W H%d" % i)
        gui.click("E6")
        gui.wait(lambda s: "B E6" in moves(s), "B E6")
        gui.click("E6")  # lifted again: a take-back waits
        s = gui.wait(lambda s: "press Confirm to take back" in s["next"], "the take-back said")
        assert s["next"].startswith("take-back of E6 ready"), s["next"]
        assert "E6" in s["lights"]
        gui.click("E6")  # put back: play on
        gui.wait(lambda s: "press Confirm" not in s["next"], "take-back withdrawn")
        for _ in range(2):
            x, y = s["buttons"]["pass"]
            gui.xdo("mousemove", str(x), str(y), "click", "1")
            time.sleep(0.3)
        s = gui.wait(lambda s: s["phase"] == "count", "counting")
        s = gui.wait(lambda s: "A5" in s["lights"], "territory lit")
        assert s["lights"]["A5"] == "territory-black/dim" and s["lights"]["J5"] == "territory-white/dim"
        assert s["next"].startswith("two passes: lift dead stones, then Confirm"), s["next"]
        assert "to move" not in s["status"] and "to play" not in s["next"]
        shot = grab(display)
        shot.crop(0, 0, 800, 800).save_png(str(tmp_path / "count.png"))
        # Territory is a small steady spot: lit at the point, wood 0.45 cell away,
        # where a prompt's glow (put black, same blue) still shines.
        centre = shot.pixel(*at(s, "A5", 0.08, 0.08))
        assert centre[2] > centre[0] + 60, centre
        assert near(shot.pixel(*at(s, "A5", 0.33, 0.33)), WOOD, 12)
        gui.click("E6")  # Black's E6 lifted: dead; counting goes on
        s = gui.wait(lambda s: "count now W+7.5" in s["next"], "E6 counted dead")
        assert s["next"].startswith("two passes: lift dead stones, then Confirm"), s["next"]
        x, y = s["buttons"]["confirm"]
        gui.xdo("mousemove", str(x), str(y), "click", "1")
        s = gui.wait(lambda s: s["phase"] == "over", "the result")
        assert s["next"].startswith("game over: ") and "to move" not in s["status"]
        assert "to play" not in s["next"]
        # The result's digits are drawn above the stones: every digit's mark
        # on a point with a stone lies above the stone in the canvas.
        s = gui.wait(lambda s: any(c == "digit" and v in s["stones"]
                                   for v, c in s["lights"].items()), "a digit over a stone")
        over = [v for v, c in s["lights"].items() if c == "digit" and v in s["stones"]]
        assert set(over) <= set(s["marks_over_stones"]), (over, s["marks_over_stones"])
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
        # "Put a white stone here": the LED up and to the right lights white,
        # and the point shows a ghost of a white stone (wood through it).
        led = s["led_at"]
        shot = blinking(display, lambda shot: min(shot.pixel(*at(s, reply, led, -led))) > 200)
        assert shot is not None, "the put-white light never seen on"
        x, y = at(s, reply)
        r = int(0.35 * s["cell"])
        ghost = shot.crop(x - r, y - r, x + r, y + r)
        assert ghost.count(lambda r_, g, b: min(r_, g, b) > 230) > 0.1 * ghost.width * ghost.height
        assert ghost.count(lambda r_, g, b: near((r_, g, b), WOOD, 30)) > 0.3 * ghost.width * ghost.height
        gui.click(reply)  # black in hand, but the light says which stone to take
        s = gui.wait(lambda s: s["stones"].get(reply) == "W" and not any(
            v.split("/")[0] in ("put-white", "put-black", "remove") for v in s["lights"].values()),
                     "reply placed")
        assert s["stones"] == {"E5": "B", reply: "W"}
        time.sleep(0.3)
        dx = 0.4 if reply[0] != "J" else -0.4
        assert min(grab(display).pixel(*at(s, reply, dx, 0))) > 200  # the stone covers its line
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


def test_gui_shows_both_clocks_running(display, tmp_path):
    """--time: the window's status shows both clocks, the running one marked
    and counting down (docs/CLOCK.md)."""
    gui = Gui(display, tmp_path, "--size", "9", "--time", "absolute:300")
    try:
        s = gui.wait(lambda s: s.get("mapped") and s["size"] == 9, "the board")
        assert "clock: B 5:00   W 5:00   (starts with the first move)" in s["status"], s["status"]
        time.sleep(0.5)
        gui.click("E5")
        s = gui.wait(lambda s: "B E5" in moves(s), "black E5 played")
        s = gui.wait(lambda s: "W 4:58 <" in s["status"], "white's clock counting down")
        assert "B 5:00" in s["status"]
        gui.click("C3")
        gui.wait(lambda s: "B 4:58 <" in s["status"], "black's clock counting down")
    finally:
        gui.close()
