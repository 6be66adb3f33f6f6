"""The simulator in a terminal: physical actions from stdin, the board in ANSI colour.

One action per line (a script can be piped in): HELP below lists them, and
`help` prints that list.

After every action the simulator scans long enough for the referee's
stability window, then draws the stones with the light under each point
and says what to do next (host_sim/faces/nextstep.py).
"""
import os
import sys

from gogadget import frame, points
from gogadget.points import BLACK, WHITE
from host_sim.faces import nextstep
from host_sim.sim.virtual import BUTTONS, PUT_CODES, code_name

# The actions, as `help` lists them: (how it is typed, what it does).
HELP = (
    ("put b D4 | put w D4 | put D4", "put down a stone (no colour: the one the light there asks "
                                     "for, else the one the turn light asks for)"),
    ("lift D4", "pick a stone up"),
    ("slide D4 E4", "push a stone to another point"),
    ("pass | confirm | new | resign", "press a button (study: New held)"),
    ("hand", "hold a hand over the board for a moment"),
    ("wait N", "let N ms pass"),
    ("show", "draw the board again"),
    ("sgf", "print the firmware's SGF record"),
    ("save FILE", "write the firmware's SGF record to FILE"),
    ("load FILE", "play the game record in FILE onto the board"),
    ("help", "this list"),
    ("quit", "leave the simulator"),
)


def help_text(width=79):
    """HELP as text: a table wrapped to width, or (width None) one line per
    action, for a reader that wraps lines itself (the terminal's side pane)."""
    if width is None:
        return "\n".join("%s: %s" % (usage, what) for usage, what in HELP)
    import textwrap
    col = max(len(usage) for usage, _ in HELP) + 3
    lines = []
    for usage, what in HELP:
        for i, part in enumerate(textwrap.wrap(what, max(20, width - col - 4))):
            lines.append("    %-*s%s" % (col, usage if i == 0 else "", part))
    return "\n".join(lines)


STONE_CHARS = {0: ".", BLACK: "X", WHITE: "O"}
STATUS_NAMES = ("turn", "phase", "alert")
PROMPT = "action (help, quit)> "

# One character per light kind, drawn right of its point: the real LED sits
# up and to the right of the point (hwdoc.LED_OFFSET_MM), and a terminal row
# has no room above, so "X*" reads as a stone with its light beside it.
# Without colour the glyph alone tells the kinds apart.
LIGHT_GLYPHS = {
    frame.LAST: "*", frame.ILLEGAL: "!", frame.KO: "k", frame.SUPERKO: "s",
    frame.REMOVE: "x", frame.PUT_BLACK: "b", frame.PUT_WHITE: "w", frame.WRONG_COLOUR: "?",
    frame.TERRITORY_BLACK: "-", frame.TERRITORY_WHITE: "=", frame.DEAD: "d",
    frame.DIGIT: "#", frame.FAULT: "F", frame.OK_GREEN: "v", frame.INFO: "i",
}
TAKEBACK_GLYPH = "T"  # the take-back light (OK green, blinking)


def glyph(code):
    """The character a lit point shows beside its stone (" " when dark)."""
    if code & 0x0F == frame.OFF:
        return " "
    if code == frame.OK_GREEN | frame.BLINK:
        return TAKEBACK_GLYPH
    return LIGHT_GLYPHS[code & 0x0F]


def legend(codes):
    """[(code, "x remove (blinks)")] for the lit codes, each kind once."""
    seen, out = set(), []
    for code in sorted(set(codes), key=lambda c: (c & 0x0F, c)):
        g = glyph(code)
        if g in seen:
            continue
        seen.add(g)
        name = nextstep.light_name(code).split("/")[0].replace("-", " ")
        pattern = {frame.BLINK: " (blinks)", frame.FAST: " (flashes: wrong)",
                   frame.DIM: " (dim)"}.get(code & 0xF0, "")
        out.append((code, "%s %s%s" % (g, name, pattern)))
    return out


def _bg(rgb):
    return "\x1b[48;2;%d;%d;%dm" % tuple(rgb)


def light_rgb(code):
    """Background colour of a lit point, readable on a dark or a light terminal.

    Prompts and steady lights show their palette colour at full strength;
    dim lights (territory, a placed handicap stone) a pale tint of it, so
    Black's territory is a light blue, apart from the deep blue of "put a
    black stone here"."""
    rgb = frame.PALETTE[code & 0x0F]
    peak = max(rgb) or 1
    full = tuple(v * 255 // peak for v in rgb)
    if code & 0xF0 == frame.DIM:
        return tuple((v + 2 * 255) // 3 for v in full)
    return full


def _fg(rgb, stone):
    """A stone or point character that stands out on that background."""
    if stone == BLACK:
        return "\x1b[1;30m"
    light = rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114 > 140000
    if stone == WHITE:
        return "\x1b[1;97m" if not light else "\x1b[1;37;4m"
    return "\x1b[30m" if light else "\x1b[97m"


def cell(sim, pl, stars, colour=True):
    """One point as two characters: the stone (or . / + for a star point) and
    its light's glyph, both on the light's colour.  Blinking lights are drawn
    in their "on" colour, so a still picture shows every prompt."""
    stone = sim.stones.cells[pl]
    ch = STONE_CHARS[stone]
    if stone == 0 and pl in stars:
        ch = "+"
    code = sim.leds.code(pl)
    g = glyph(code)
    if code & 0x0F == frame.DIGIT:
        # The result's digits as solid strokes, read at a glance: a block of
        # colour (or of '#' without colour), over an empty point's dot.
        if colour:
            g = " "
            ch = ch if stone else " "
        elif stone == 0:
            ch = g
        if colour:
            return _bg(light_rgb(code)) + _fg(light_rgb(code), stone) + ch + g + "\x1b[0m"
    if colour and g != " ":
        rgb = light_rgb(code)
        light = rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114 > 140000
        return (_bg(rgb) + _fg(rgb, stone) + ch + "\x1b[0;1m" + _bg(rgb)
                + ("\x1b[30m" if light else "\x1b[97m") + g + "\x1b[0m")
    return ch + g


def board_lines(sim, colour=True, footer=True):
    """The grid, rows from the top, with every light drawn on it."""
    size = sim.size
    stars = set(r * size + c for r, c in nextstep.star_points(size))
    head = "   " + " ".join(points.COLUMNS[:size])
    lines = [head]
    for row in range(size - 1, -1, -1):
        cells = "".join(cell(sim, row * size + col, stars, colour) for col in range(size))
        lines.append("%2d %s%d" % (row + 1, cells, row + 1))
    if footer:
        lines.append(head)
    return lines


def board_width(size):
    return 3 + 2 * size + 2


def status_words(sim):
    status = []
    for i, name in enumerate(STATUS_NAMES):
        code = sim.leds.status(i)
        status.append("%s=%s" % (name, code_name(code) if code else "off"))
    return " ".join(status)


def render(sim, colour=True):
    """The board as text (a log: a piped script, a GTP controller's terminal),
    with the lights on the grid and listed by name."""
    lines = board_lines(sim, colour)
    lit = sim.leds.lit()
    if lit:
        takeback = nextstep.takeback_waiting(sim, nextstep.lights(sim))
        lines.append("lights: " + ", ".join("%s %s%s" % (
            sim.vertex(pl), nextstep.light_name(c),
            " (take-back: press Confirm)" if sim.vertex(pl) in takeback else "")
            for pl, c in sorted(lit.items())))
        lines.append("key: " + ", ".join(text for _, text in legend(lit.values())))
    else:
        lines.append("lights: none")
    lines.append("status lights: " + status_words(sim))
    if sim.referee.phase == "over" and sim.referee.result:
        # The lights spell the score in digits; here it is in words.
        lines.append("result: %s (%s)" % (nextstep.result_words(sim.referee.result),
                                           sim.referee.result))
    lines.append("next: " + nextstep.next_step(sim))
    lines.append("referee: " + nextstep.detail(sim))
    return "\n".join(lines)


class Console:
    """Turns action lines into hand movements and button presses."""

    def __init__(self, sim, out=sys.stdout, colour=True):
        self.sim = sim
        self.out = out
        self.colour = colour
        # Events from before the first picture go unsaid, but a game resumed
        # at start (its folder named) is news to the person.
        news = nextstep.resume_news(sim.events)
        if news is None:
            # A new game over the resumed one (--new): what came after the
            # resume (the old game kept as NNNN.sgf, the new game) is news.
            resumed = [i for i, ev in enumerate(sim.events)
                       if ev[1] == "resume" and not ev[2].startswith("resumed 0 ")]
            news = resumed[-1] + 1 if resumed else len(sim.events)
        self.seen = news
        self.interactive = False
        self.match = None  # a host_sim.sim.session.Match when playing an engine
        self._log_seen = 0
        self.help_width = 79  # None: help one line per action (the reader wraps)

    def say(self, text):
        self.out.write(text + "\n")

    def settle(self):
        self.sim.until_quiet()
        match = self.match
        if match is not None:
            # The engine answers in real time: scan on until it is the
            # person's turn again and its move is lit.
            match.wait(self.sim.step)
            self.sim.until_quiet()
            if match.done:
                match.save()

    def report_events(self):
        for now, kind, text in self.sim.events[self.seen:]:
            self.say("event %s: %s" % (kind, text))
        self.seen = len(self.sim.events)
        if self.match is not None:
            log = self.match.log
            for text in log[self._log_seen:]:
                self.say("game: " + text)
            self._log_seen = len(log)

    def show(self):
        self.say(render(self.sim, self.colour))
        if self.match is not None:
            self.say("game: " + self.match.status())
        self.out.flush()  # a program driving the console reads it block by block

    def do(self, line):
        """Run one action line; False when the session should end."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        sim = self.sim
        try:
            if verb in ("quit", "exit", "q"):
                return False
            if verb in ("help", "?"):
                self.say(help_text(self.help_width))
                return True
            if verb == "put":
                if len(args) == 2:
                    colour = points.parse_colour(args[0])
                    where = args[1]
                elif len(args) == 1:
                    where = args[0]
                    colour = _prompted_colour(sim, where) or sim.referee.to_move()
                else:
                    raise ValueError("put [b|w] VERTEX")
                sim.stones.put(where, colour)
            elif verb == "lift":
                _need(args, 1, "lift VERTEX")
                sim.stones.lift(args[0])
            elif verb == "slide":
                _need(args, 2, "slide FROM TO")
                sim.stones.slide(args[0], args[1])
            elif verb in BUTTONS:
                _need(args, 0, verb)
                sim.press(verb)
            elif verb == "hand":
                sim.stones.hand(sim.clock.now_ms)
            elif verb == "wait":
                _need(args, 1, "wait MS")
                if not args[0].isdigit():
                    raise ValueError("wait takes milliseconds")
                sim.run(int(args[0]))
                self.report_events()
                return True
            elif verb == "show":
                self.show()
                return True
            elif verb == "sgf":
                self.say(sim.referee.sgf().rstrip())
                return True
            elif verb == "save":
                _need(args, 1, "save FILE")
                with open(args[0], "w") as f:
                    f.write(sim.referee.sgf())
                self.say("saved " + args[0])
                return True
            elif verb == "load":
                _need(args, 1, "load FILE")
                from host_sim.person.replay import load_into
                with open(args[0], "rb") as f:
                    load_into(sim, f.read())
            else:
                raise ValueError("unknown action %r (put, lift, slide, pass, confirm, new, resign,"
                                 " study, hand, wait, show, sgf, save, load, help, quit)" % verb)
        except (ValueError, OSError) as exc:
            self.say("error: %s" % exc)
            return True
        self.settle()
        self.report_events()
        self.show()
        return True

    def run(self, lines):
        lines = iter(lines)
        while True:
            if self.interactive:
                self.out.write(PROMPT)  # a person at the keyboard: ask
                self.out.flush()
            line = next(lines, None)
            if line is None:
                if self.interactive:
                    self.say("")
                break
            if not self.interactive:
                self.say("> " + line.rstrip("\n"))  # a piped script: echo it into the log
            if not self.do(line):
                break


def _prompted_colour(sim, where):
    """The colour a "place this stone" light asks for at where, if any."""
    code = sim.leds.code(sim.stones.place(where)) & 0x0F
    return PUT_CODES.get(code)


def _need(args, n, usage):
    if len(args) != n:
        raise ValueError("usage: " + usage)


def main(sim, stream=None, colour=None, match=None, out=None):
    stream = stream or sys.stdin
    if colour is None:
        colour = "NO_COLOR" not in os.environ
    console = Console(sim, out=out or sys.stdout, colour=colour)
    console.interactive = stream.isatty()
    console.match = match
    try:
        # The first picture is the board as it is: scanned until the lights
        # settle (handicap points lit), and the engine's first move if any.
        console.settle()
        console.report_events()
        console.show()
        if console.interactive:
            console.say("Type help for the actions.")
        console.run(stream)
    finally:
        if match is not None:
            match.save()
    return 0
