"""The terminal mode for a person at a terminal: one screen, redrawn in place.

The board with its lights on the grid (host_sim/faces/tui.py draws a point as its
stone and its light's glyph), a key to the lit glyphs, the status lights,
the recent events and command output beside it, what to do next, and the
prompt on the last line.  The screen is the terminal's alternate screen: it
is only rewritten where a line changed, and only when something the person
would notice changed (the lights' codes, the stones, the events; not a
blink), so nothing scrolls and the prompt stays put however long the result
digits run.  At 80x24 a 19x19 board, the next step, a message and the prompt
all fit; a smaller terminal is told what it is missing.

Keys are read one at a time (cbreak), so a redraw never loses what the
person has typed: the prompt line shows it again.  A piped script (no
terminal) keeps the plain log of host_sim/faces/tui.py.
"""
import os
import re
import select
import signal
import termios
import textwrap
import tty

from host_sim.faces import nextstep, tui
from host_sim.sim.virtual import code_name

ALT_ON, ALT_OFF = "\x1b[?1049h", "\x1b[?1049l"
HOME, CLEAR_EOL, CLEAR_EOS = "\x1b[H", "\x1b[K", "\x1b[J"
PANE_MIN = 24  # narrower than this, the side pane goes below the board
LOG_KEPT = 200
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def visible(text):
    """text without its colour codes (what takes room on the screen)."""
    return _ANSI.sub("", text)


class Log:
    """Where the Console's words go on the screen: the last lines said."""

    def __init__(self):
        self.lines = []

    def write(self, text):
        for line in text.split("\n"):
            if line.strip():
                self.lines.append(" ".join(line.split()))
        del self.lines[:-LOG_KEPT]

    def flush(self):
        pass


def screen_lines(sim, cols, rows, colour=True, log=(), game=None, typed="", busy=None):
    """The whole screen as rows lines (no line wider than cols characters),
    the prompt with what was typed on the last one."""
    size = sim.size
    bw = tui.board_width(size)
    bottom_lines = ["next: " + nextstep.next_step(sim)]
    if game is not None:
        bottom_lines.append("game: " + game.status())
    # Below the board: the next step and the game's line (each wrapped at a
    # word, two lines at most, shortened at a word beyond), the last
    # message and the prompt.
    bottom = []
    for line in bottom_lines:
        bottom += textwrap.wrap(line, cols - 1, subsequent_indent="  ", max_lines=2,
                                placeholder=" ...") or [""]
    # The board's rows, its coordinates above and (room allowing) below;
    # under them the bottom lines, the last message and the prompt.
    board = tui.board_lines(sim, colour, footer=rows >= size + 2 + len(bottom) + 2)
    pane_w = cols - bw - 3  # the last column left empty: some terminals wrap there
    pane = []
    lit = sim.leds.lit()
    if lit:
        pane.append("lights (glyph right of its point):")
        for code, text in tui.legend(lit.values()):
            g = tui.glyph(code)
            if colour:
                rgb = tui.light_rgb(code)
                text = "%s%s%s\x1b[0m%s" % (tui._bg(rgb), tui._fg(rgb, 0), g, text[1:])
            pane.append("  " + text)
    else:
        pane.append("lights: none")
    pane.append("status: " + " ".join(
        "%s=%s" % (name, code_name(sim.leds.status(i)) if sim.leds.status(i) else "off")
        for i, name in enumerate(tui.STATUS_NAMES)))
    if sim.referee.phase == "over" and sim.referee.result:
        pane.append("result: %s (%s)" % (nextstep.result_words(sim.referee.result),
                                          sim.referee.result))
    pane += nextstep.detail(sim).split("\n")
    wrapped = []
    width = pane_w if pane_w >= PANE_MIN else cols - 1
    for line in pane:
        if len(visible(line)) <= width:
            wrapped.append(line)
        else:
            wrapped += textwrap.wrap(visible(line), width, subsequent_indent="  ")
    pane = wrapped
    room = rows - len(bottom) - 2  # the last message and the prompt
    if pane_w >= PANE_MIN:
        # Beside the board: what the board says, then the newest messages.
        free = max(0, room - len(pane) - 1)
        said = []
        for line in reversed(list(log)):
            # Whole messages only: the oldest shown starts at its beginning
            # (one message taller than the room shows its head).
            part = textwrap.wrap(line, pane_w, subsequent_indent="  ")
            if len(said) + len(part) > free:
                if not said:
                    said = part[:free]
                break
            said[:0] = part
        pane += ["-" * min(pane_w, 20)] + said if free else []
        height = max(len(board), min(len(pane), room))
        top = []
        for i in range(min(height, room)):
            left = board[i] if i < len(board) else ""
            pad = " " * (bw + 2 - len(visible(left)))
            right = pane[i] if i < len(pane) else ""
            top.append(left + pad + right)
    else:
        top = (board + pane)[:room]
    message = log[-1] if log else ""
    if len(board) > room:
        message = "terminal too small: %d rows, %d wanted for a %dx%d board" % (
            rows, len(board) + len(bottom) + 2, size, size)
    lines = top + [""] * (room - len(top)) + bottom + [message[:cols - 1]]
    # While an action runs (an engine thinking) the prompt says so.
    prompt = "(working: %s)" % busy if busy is not None else tui.PROMPT + typed
    lines.append(prompt[-(cols - 1):])
    return lines


class Screen:
    """Runs a Console on a terminal: keys in, the screen redrawn in place."""

    def __init__(self, console, stdin, out, game=None, period_s=0.02, stop=None):
        self.console = console
        self.sim = console.sim
        self.stdin = stdin
        self.out = out
        self.game = game
        self.period_s = period_s
        self.stop = stop
        self.log = Log()
        console.out = self.log
        console.show = self._show
        console.help_width = None  # the side pane wraps each action's line itself
        self.typed = ""
        self.busy = None  # the action line being done
        self.drawn = []
        self._size = None
        self._seen = None

    def _show(self):
        """The Console's "draw the board": the loop redraws what changed."""

    def _looks(self):
        sim = self.sim
        n = sim.size * sim.size
        return (bytes(sim.leds.frame[1:1 + n]), bytes(sim.stones.cells), len(sim.events),
                len(self.log.lines), self.typed, self.game.status() if self.game else None,
                sim.referee.phase, self.busy, nextstep.clock_words(sim.referee))

    def draw(self, force=False):
        try:
            cols, rows = os.get_terminal_size(self.out.fileno())
        except OSError:
            cols, rows = 0, 0
        if cols <= 0 or rows <= 0:  # a terminal that does not say its size
            cols, rows = 80, 24
        cols, rows = max(cols, 30), max(rows, 6)
        if (cols, rows) != self._size:
            self._size = (cols, rows)
            force = True
        lines = screen_lines(self.sim, cols, rows, self.console.colour, self.log.lines,
                             self.game, self.typed, self.busy)
        parts = []
        if force:
            parts.append(HOME + CLEAR_EOS)
            self.drawn = []
        for i, line in enumerate(lines):
            if i < len(self.drawn) and self.drawn[i] == line:
                continue
            parts.append("\x1b[%d;1H%s%s" % (i + 1, line, CLEAR_EOL))
        parts.append("\x1b[%d;%dH" % (len(lines), len(visible(lines[-1])) + 1))
        self.drawn = lines
        self.out.write("".join(parts))
        self.out.flush()
        self._seen = self._looks()

    def _keys(self, data):
        """Edit the prompt line; returns the lines entered (None: quit)."""
        entered = []
        i = 0
        while i < len(data):
            ch = data[i]
            i += 1
            if ch in "\r\n":
                entered.append(self.typed)
                self.typed = ""
            elif ch in "\x7f\x08":
                self.typed = self.typed[:-1]
            elif ch == "\x15":  # Ctrl-U
                self.typed = ""
            elif ch == "\x03" or (ch == "\x04" and not self.typed):
                entered.append(None)
                break
            elif ch == "\x1b":  # an arrow or function key: skip its sequence
                m = re.match(r"\[[0-9;]*[A-Za-z~]|O[A-Za-z]", data[i:])
                if m:
                    i += m.end()
            elif ch.isprintable():
                self.typed += ch
        return entered

    def run(self):
        fd = self.stdin.fileno()
        saved = termios.tcgetattr(fd)
        resized = []
        try:
            old_winch = signal.signal(signal.SIGWINCH, lambda *_: resized.append(1))
        except ValueError:  # not the main thread: the size is read at every draw anyway
            old_winch = None
        self.out.write(ALT_ON)
        try:
            tty.setcbreak(fd)
            self.console.settle()
            self.console.report_events()
            self.log.write("Type help for the actions.")
            self.draw(force=True)
            sim = self.sim
            while True:
                if self.stop is not None and self.stop():
                    return
                try:
                    ready, _, _ = select.select([fd], [], [], self.period_s)
                except InterruptedError:
                    ready = []
                if ready:
                    data = os.read(fd, 1024).decode("utf-8", "replace")
                    if not data:
                        return
                    for line in self._keys(data):
                        if line is None:
                            return
                        self.log.write("> " + line)
                        self.busy = line
                        self.draw()
                        try:
                            if not self.console.do(line):
                                return
                        finally:
                            self.busy = None
                        self.console.report_events()
                else:
                    for _ in range(max(1, int(self.period_s * 1000) // sim.period_ms)):
                        sim.step()
                    self.console.report_events()
                if resized:
                    del resized[:]
                    self.draw(force=True)
                elif self._looks() != self._seen:
                    self.draw()
        except KeyboardInterrupt:
            return  # Ctrl-C: the person is done; the board is left as it is
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            if old_winch is not None:
                signal.signal(signal.SIGWINCH, old_winch)
            self.out.write(ALT_OFF)
            # Left on the normal screen: the board as it was, for the record.
            self.out.write(tui.render(self.sim, self.console.colour) + "\n")
            self.out.flush()


def main(sim, stdin, out, colour=None, match=None, stop=None):
    if colour is None:
        colour = "NO_COLOR" not in os.environ
    console = tui.Console(sim, out=out, colour=colour)
    console.interactive = True
    console.match = match
    try:
        Screen(console, stdin, out, game=match, stop=stop).run()
    finally:
        if match is not None:
            match.save()
    return 0
