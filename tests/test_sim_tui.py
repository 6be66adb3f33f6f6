"""The terminal simulator driven by a piped script of physical actions."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import require

from gogadget import frame

ROOT = Path(__file__).resolve().parent.parent

# Black surrounds and captures White's E5 on 9x9, then handles stones sloppily.
SCRIPT = """\
put b D5
put w E5
put b F5
put w A1
put b E6
put w A2
put b E4   # captures E5
lift E5
lift D5    # knocked off by accident
put Z99    # a typo: an error, nothing lost
put b D5
put D3     # no colour: the stone the turn light asks for (white)
pass
hand
wait 500
sgf
quit
put b J9   # never reached
"""


def run(script, *args):
    return subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--size", "9", *args],
                          cwd=ROOT, input=script, capture_output=True, text=True, timeout=120)


def blocks(out):
    """Output after each echoed action line, by action."""
    parts = re.split(r"^> (.*)$", out, flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


def test_piped_script_plays_captures_and_prompts():
    r = run(SCRIPT, "--no-color")
    assert r.returncode == 0, r.stderr
    steps = blocks(r.stdout)
    actions = [a.split("#")[0].strip() for a, _ in steps]
    assert actions[-1] == "quit" and "put b J9" not in actions
    after = {a.split("#")[0].strip(): text for a, text in steps}
    capture = after["put b E4"]
    assert "event capture: B captured 1: E5" in capture
    assert "E5 remove" in capture  # the prisoner's light asks for it
    assert "E5 remove" not in after["lift E5"]
    assert "D5 put-black" in after["lift D5"]  # the missing stone is asked back
    assert "D5 put-black" not in after["put b D5"]
    assert "error: invalid coordinate" in after["put Z99"]
    assert "event move: W D3" in after["put D3"]
    assert "event pass: B" in after["pass"]
    record = after["sgf"].strip()
    game = sgfmill_sgf.Sgf_game.from_string(record)
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert moves == [("b", (4, 3)), ("w", (4, 4)), ("b", (4, 5)), ("w", (0, 0)), ("b", (5, 4)),
                     ("w", (1, 0)), ("b", (3, 4)), ("w", (2, 3)), ("b", None)]


def test_ansi_colours_show_the_lights():
    r = run("put b D5\nput w E5\nput b F5\nput w A1\nput b E6\nput w A2\nput b E4\nquit\n")
    assert r.returncode == 0, r.stderr
    last = r.stdout.rsplit("> put b E4", 1)[1]
    # The prisoner's light is drawn as its palette colour behind the stone.
    rgb = frame.PALETTE[frame.REMOVE]
    scale = [tuple(v * b // 255 for v in rgb) for b in range(96, 256)]
    found = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+)m\x1b\[[0-9;]*mO", last)
    assert any(tuple(map(int, f)) in scale for f in found), found


def test_occupancy_sensors_in_the_terminal():
    r = run("put D4\nput E4\nlift D4\nquit\n", "--sensors", "occupancy", "--no-color")
    assert r.returncode == 0, r.stderr
    assert "event move: B D4" in r.stdout and "event move: W E4" in r.stdout
    assert "D4 put-black" in r.stdout.rsplit("> lift D4", 1)[1]


def test_bad_flags_are_clear_errors():
    r = subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--handicap", "12"],
                       cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "handicap" in r.stderr and "Traceback" not in r.stderr


def test_first_frame_is_current_handicap_lit_at_once():
    r = run("quit\n", "--no-color", "--handicap", "2")
    assert r.returncode == 0, r.stderr
    first = r.stdout.split("> quit", 1)[0]
    assert "lights: none" not in first
    assert "lights: C3 put-black/blink, G7 put-black/blink" in first
    assert "next: handicap: put a black stone on C3 G7" in first


def test_takeback_count_and_result_said_in_words():
    script = "put b D5\nput w E5\nlift E5\nconfirm\npass\npass\nlift D5\nconfirm\nquit\n"
    r = run(script, "--no-color", "--rules", "chinese")
    assert r.returncode == 0, r.stderr
    steps = blocks(r.stdout)
    assert [a for a, _ in steps] == script.splitlines()
    text = [t for _, t in steps]

    def said(block):
        return [l for l in block.splitlines() if l.startswith("next: ")][-1][len("next: "):]

    assert re.search(r"E5 (takeback|put-white)/blink \(take-back: press Confirm\)", text[2]), text[2]
    assert said(text[2]).startswith("take-back of E5 ready: press Confirm to take back")
    assert "event undo: W E5" in text[3]
    assert said(text[3]) == "White to play: put a white stone down, or press Pass"
    for block in text[5:7]:  # the second pass, then a dead stone lifted: still counting
        assert said(block).startswith("two passes: lift dead stones, then Confirm"), block
        assert "to move" not in block and "to play" not in said(block)
    result = re.search(r"event result: (\S+)", text[7]).group(1)
    assert result == "W+7.5"  # Black's only stone lifted dead: White's area and komi
    assert "result: White wins by 7.5 points (W+7.5)" in text[7]
    assert said(text[7]).startswith("game over: White wins by 7.5 points")
    assert "to move" not in text[7]


def test_black_territory_is_readable_on_a_dark_terminal():
    walls = "".join("put b C%d\nput w G%d\n" % (i, i) for i in range(1, 10))
    r = run(walls + "pass\npass\nquit\n")
    assert r.returncode == 0, r.stderr
    last = r.stdout.rsplit("> pass", 1)[1]
    row = [l for l in last.splitlines() if l.startswith(" 5 ")][0]
    backgrounds = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+)m(\x1b\[[0-9;]*m)\.", row)
    assert len(backgrounds) == 4, row  # A5 B5 Black's, H5 J5 White's
    r0, g0, b0, fg = backgrounds[0]
    # Light enough for dark text on a dark terminal's black (luma well above half) ...
    assert 0.299 * int(r0) + 0.587 * int(g0) + 0.114 * int(b0) > 150, backgrounds[0]
    assert fg == "\x1b[30m"  # ... and drawn in dark text
    # ... still blue, and apart from the deep blue of "put a black stone here".
    assert int(b0) > int(r0) + 40
    assert tuple(map(int, (r0, g0, b0))) != tuple(v * 255 // 255 for v in
                                                  frame.PALETTE[frame.PUT_BLACK])


def test_interactive_terminal_prompts_and_helps():
    import os
    import pty
    import select
    import time
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "host_sim", "--tui", "--size", "9", "--no-color"],
                            cwd=ROOT, stdin=slave, stdout=slave, stderr=slave,
                            env=dict(os.environ, DISPLAY=""))
    os.close(slave)
    seen = b""

    def read_until(text, times=1, timeout=30):
        nonlocal seen
        end = time.time() + timeout
        while seen.count(text.encode()) < times and time.time() < end:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        assert seen.count(text.encode()) >= times, seen.decode(errors="replace")[-2000:]

    try:
        read_until("action (help, quit)> ")  # a person at a terminal is asked
        assert b"Type help for the actions." in seen and b"next: Black to play" in seen
        assert b"\x1b[?1049h" in seen  # one screen, redrawn in place
        os.write(master, b"help\n")
        read_until("slide D4 E4")
        os.write(master, b"quit\n")
        assert proc.wait(timeout=30) == 0
        read_until("\x1b[?1049l")
        # Back on the normal screen: the board as it was left.
        assert b"next: Black to play" in seen.rsplit(b"\x1b[?1049l", 1)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_star_points_five_on_9_and_13_nine_on_19():
    from host_sim.faces.nextstep import star_points
    from gogadget.points import COLUMNS

    def named(size):
        return sorted(COLUMNS[c] + str(r + 1) for r, c in star_points(size))

    assert named(9) == ["C3", "C7", "E5", "G3", "G7"]
    assert named(13) == ["D10", "D4", "G7", "K10", "K4"]
    assert named(19) == ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
    r = run("quit\n", "--no-color")
    board = r.stdout.split("lights:", 1)[0]
    assert board.count("+") == 5


def test_what_next_through_a_free_handicap():
    from host_sim.faces import nextstep
    from host_sim.sim.virtual import Simulator, make_config
    sim = Simulator(make_config(size=9, preset="tromp-taylor", handicap=3))
    try:
        steps = []
        for action in (None, ("put", "C3"), ("put", "G7"), ("put", "E5"), ("confirm",)):
            if action and action[0] == "put":
                sim.stones.put(action[1], nextstep.turn_colour(sim))  # the turn light asks black
            elif action:
                sim.press("confirm")
            sim.until_quiet()
            steps.append(nextstep.next_step(sim))
        assert steps == [
            "handicap: 0 of 3 black stones placed; place them anywhere, then Confirm",
            "handicap: 1 of 3 black stones placed; place them anywhere, then Confirm",
            "handicap: 2 of 3 black stones placed; place them anywhere, then Confirm",
            "handicap: all 3 black stones placed: press Confirm",
            "White to play: put a white stone down, or press Pass"]
    finally:
        sim.close()


class Tmux:
    """One tmux window of a given size running the terminal mode."""

    def __init__(self, name, cols, rows, args):
        import shlex
        self.tmux = require("tmux", "(apt-get install tmux; .ci/run does)")
        self.name = name
        cmd = "cd %s && NO_COLOR=1 DISPLAY= %s -m host_sim --tui %s; sleep 600" % (
            shlex.quote(str(ROOT)), shlex.quote(sys.executable), args)
        subprocess.run([self.tmux, "kill-session", "-t", name], capture_output=True)
        subprocess.run([self.tmux, "new-session", "-d", "-s", name, "-x", str(cols), "-y",
                        str(rows), cmd], check=True)

    def screen(self):
        return subprocess.run([self.tmux, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def history(self):
        """Lines scrolled off the top of the window so far."""
        return int(subprocess.run([self.tmux, "display", "-p", "-t", self.name,
                                   "#{history_size}"], capture_output=True, text=True,
                                  check=True).stdout)

    def wait(self, test, what, timeout=60):
        import time
        end = time.time() + timeout
        while time.time() < end:
            text = self.screen()
            if test(text):
                return text
            time.sleep(0.1)
        pytest.fail("the terminal never showed %s:\n%s" % (what, self.screen()))

    def type(self, *actions):
        for action in actions:
            subprocess.run([self.tmux, "send-keys", "-t", self.name, action, "Enter"], check=True)

    def close(self):
        subprocess.run([self.tmux, "kill-session", "-t", self.name], capture_output=True)


def grid(text, size):
    """{vertex: (stone char, light glyph)} of the board on the screen."""
    from gogadget.points import COLUMNS
    out = {}
    for row, cells in re.findall(r"^ ?(\d+) (.{%d})\1" % (2 * size), text, re.M):
        for col in range(size):
            out[COLUMNS[col] + row] = (cells[2 * col], cells[2 * col + 1])
    return out


def test_80x24_terminal_shows_the_whole_19x19_board_and_lights_without_scrolling():
    import os
    import time
    from host_sim.faces import tui
    term = Tmux("gg-looks-%d" % os.getpid(), 80, 24, "--size 19")
    try:
        term.wait(lambda t: t.rstrip().endswith(tui.PROMPT.rstrip()), "the prompt")
        # Black captures White's K10; the last move and the prisoner are lit on the grid.
        term.type("put b K11", "put w K10", "put b J10", "put w A1", "put b L10", "put w A2",
                  "put b K9")
        text = term.wait(lambda t: grid(t, 19).get("K10") == ("O", tui.glyph(frame.REMOVE)), "the capture")
        board = grid(text, 19)
        assert len(board) == 19 * 19  # every row at 80x24, with the prompt and the next step
        assert board["K9"] == ("X", tui.glyph(frame.LAST))  # the last move, marked where it is
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 24 and lines[-1].startswith(tui.PROMPT.rstrip())
        assert any(l.startswith("next: lift the stone on K10") for l in lines)
        assert "x remove (blinks)" in text and "* last" in text  # the key to the glyphs
        term.type("lift K10", "pass", "pass", "confirm")
        text = term.wait(lambda t: "next: game over" in t, "the result")
        # The result's digits are drawn over the grid; the screen is redrawn
        # in place: nothing scrolls off the top, the prompt stays the last line.
        start = term.history()
        seen = set()
        end = time.time() + 6
        while time.time() < end:
            text = term.screen()
            cells = grid(text, 19)
            seen.add(frozenset(v for v, (_, g) in cells.items() if g == "#"))
            assert len(cells) == 19 * 19
            assert text.rstrip("\n").split("\n")[-1].startswith(tui.PROMPT.rstrip())
            time.sleep(0.3)
        assert term.history() == start == 0
        assert all(seen), seen  # the digits (W+7.5 fits 19 columns: it stands still)
        # A typed line survives the redraws.
        term.type("show")
        term.wait(lambda t: "> show" in t, "the action echoed")
    finally:
        term.close()


def test_80x24_help_reads_whole_show_redraws_and_the_board_keeps_its_coordinates():
    """At 80x24 a 19x19 board has its coordinate row below it too; `help`
    in the side pane gives each action on its own line(s), none cut off at
    the top; after `show` the prompt comes back (no "(working: show)")."""
    import os
    import time
    from host_sim.faces import tui
    term = Tmux("gg-help-%d" % os.getpid(), 80, 24, "--size 19")
    try:
        text = term.wait(lambda t: t.rstrip().endswith(tui.PROMPT.rstrip()), "the prompt")
        head = "   " + " ".join("ABCDEFGHJKLMNOPQRST")
        assert [line[:len(head)] for line in text.split("\n")].count(head) == 2, text
        term.type("help")
        text = term.wait(lambda t: "quit: leave the simulator" in t, "the help")
        pane = [line[tui.board_width(19) + 2:].rstrip() for line in text.split("\n")[:21]]
        said = pane[pane.index("-" * 20) + 1:]
        usages = [usage for usage, _ in tui.HELP]
        assert said and said[0].split(":")[0] in usages, said  # an action's first line
        for line in said:
            assert line.startswith("  ") or line.split(":")[0] in usages, said
        assert any(line.startswith("load FILE: play the game record in") for line in said), said
        term.type("show")
        term.wait(lambda t: "> show" in t, "show echoed")
        time.sleep(1)
        text = term.screen()
        assert "(working" not in text, text
        assert text.rstrip("\n").split("\n")[-1].startswith(tui.PROMPT.rstrip()), text
    finally:
        term.close()


def test_digits_are_readable_on_the_grid():
    """The result W+7.5 on a 9x9 board spells its characters in the grid's
    '#' strokes: each picture of the scroll is a window onto the firmware's
    own font (gogadget.font), column for column."""
    import os
    from gogadget import font
    from host_sim.faces import tui
    term = Tmux("gg-looks-d-%d" % os.getpid(), 80, 24, "--size 9 --rules chinese")
    try:
        term.wait(lambda t: t.rstrip().endswith(tui.PROMPT.rstrip()), "the prompt")
        term.type("pass", "pass", "confirm")
        term.wait(lambda t: "next: game over" in t, "the result")
        pictures = set()
        import time
        end = time.time() + 8
        while time.time() < end:
            cells = grid(term.screen(), 9)
            pictures.add(tuple(tuple(cells["ABCDEFGHJ"[c] + str(r)][1] == "#" for c in range(9))
                               for r in range(9, 0, -1)))
            time.sleep(0.1)
        assert term.history() == 0  # scrolling digits redraw in place, never flood
        # The ticker the board runs: the text, three blank columns, again;
        # glyph row 0 a third of the way down.
        cols = font.render("W+7.5")
        span, top = len(cols) + 3, (9 - 5) // 2

        def window(k):
            return tuple(tuple(0 <= t - top < 5 and (x + k) % span < len(cols) and
                               bool(cols[(x + k) % span] >> (t - top) & 1) for x in range(9))
                         for t in range(9))

        windows = set(window(k) for k in range(span))
        lit = [p for p in pictures if any(any(row) for row in p)]
        assert len(lit) >= 5, pictures
        for p in lit:
            assert p in windows, "\n".join("".join("#" if c else "." for c in row) for row in p)
    finally:
        term.close()


def test_terminal_shows_both_clocks_and_a_loss_on_time():
    r = run("put e5\nwait 3000\nput w c3\nwait 7000\nshow\nwait 4000\nshow\nquit\n",
            "--time", "byoyomi:5:3:2", "--no-color")
    out = r.stdout
    assert r.returncode == 0, r.stderr
    assert "clock: B 0:05   W 0:05   (starts with the first move)" in out
    assert "clock: B 0:05   W 0:05 <" in out  # black's first stone started white's clock
    assert "clock: B 0:05 <   W 0:02" in out
    assert "clock: B 0:01 x2 <" in out  # black in main time's last second, two periods to come
    assert "event time: B out of time" in out and "White wins on time (W+T)" in out


def test_bad_time_control_is_a_clear_error():
    r = subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--time", "byoyomi:600"],
                       cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--time byoyomi takes MAIN_TIME:PERIOD_TIME:PERIODS" in r.stderr
