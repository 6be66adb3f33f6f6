"""GTP version 2 engine on the rules core.

The engine is a referee, not a player: it keeps the position, checks
legality, counts and reads/writes SGF, so programs and people can drive the
board with the Go Text Protocol.  `python -m gogadget.gtp` and
`micropython -m gogadget.gtp` run the same file on stdin/stdout.

The command table is a dict (`Engine.commands`, name -> the name of the
method that answers it, taking the argument list and returning the response
text or raising GtpError), so link.py can subclass Engine and add or replace
commands for the physical board.  A command whose name is a Python name is
answered by the method of that name: on the board every name is interned
once and kept (docs/ARCHITECTURE.md), and the command's name is then the
method's too.
"""
import os
import sys

from gogadget import describe
from gogadget.points import (BLACK, WHITE, EMPTY, PASS, MIN_SIZE, MAX_SIZE, COLUMNS, handicap_points,
                             max_handicap, parse_colour, parse_vertex, point, row_col, star_points,
                             vertex)
from gogadget.rules import Rules, DEFAULT_PRESET
from gogadget.ruleopts import KEYS, SOURCES, describe_rules, set_rule
from gogadget.board import Board, OK, REASONS
from gogadget.compat import forget


class GtpError(Exception):
    """A command failed; the message is the GTP error text."""


def _clean(line):
    """GTP 3.1 preprocessing: control characters go (except HT and LF),
    comments go, tabs become spaces.  Bytes are accepted; bytes that are not
    UTF-8 become '?' so junk can never raise."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = line.decode("utf-8")
        except UnicodeError:
            line = "".join(chr(b) if b < 128 else "?" for b in line)
    out = []
    for ch in line:
        o = ord(ch)
        if ch == "#":
            break
        if ch == "\t":
            out.append(" ")
        elif o >= 32 and o != 127:
            out.append(ch)
    return "".join(out).strip()


def _int(text):
    t = text[1:] if text[:1] in "+-" else text
    if not t.isdigit():
        raise GtpError("syntax error")
    return int(text)


class Engine:
    """GTP engine state: one board, its rules, komi and dead-stone marks."""

    def __init__(self, size=19, preset=DEFAULT_PRESET, folder="."):
        self.rules = Rules(preset)
        self.komi = None  # None: the preset's komi; set by the komi command
        if not folder.startswith("/"):
            # Absolute, so an absolute file name inside the folder is accepted.
            cwd = os.getcwd().rstrip("/")
            folder = cwd if folder in (".", "./", "") else cwd + "/" + folder
        self.folder = folder.rstrip("/") or "/"
        self.dead = []  # points marked dead for final_score
        self.done = False
        self.board = None
        self._new_board(size)
        # GTP name -> the name of the method that answers it (a name, not a
        # bound method: a bound method is an object on the heap).
        self.commands = {
            "protocol_version": "protocol_version",
            "name": "name",
            "version": "version",
            "known_command": "known_command",
            "list_commands": "list_commands",
            "quit": "quit",
            "boardsize": "boardsize",
            "clear_board": "clear_board",
            "komi": "set_komi",  # (self.komi is the value)
            "play": "play",
            "undo": "undo",
            "showboard": "showboard",
            "fixed_handicap": "fixed_handicap",
            "set_free_handicap": "set_free_handicap",
            "final_score": "final_score",
            "loadsgf": "loadsgf",
            "printsgf": "printsgf",
            "is_legal": "is_legal",
            "captures": "captures",
            "list_stones": "list_stones",
            "genmove": "genmove",
            "kgs-rules": "kgs_rules",
            "gogadget-rules": "preset",
            "gogadget-set-rule": "set_rule",
            "gogadget-rules-info": "describe_rules",
            "gogadget-dead": "mark",  # (self.dead is the marks)
        }

    # -- protocol -----------------------------------------------------------

    def handle(self, line):
        """One command line -> the full response text ("" for blank lines)."""
        words = _clean(line).split()
        if not words:
            return ""
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
        if not words:
            return "?" + ident + " syntax error\n\n"
        handler = self.commands.get(words[0])
        if handler is None:
            return "?" + ident + " unknown command\n\n"
        try:
            result = self._run(handler, words[1:])
        except GtpError as e:
            return "?" + ident + " " + str(e) + "\n\n"
        except (ValueError, IndexError) as e:
            # A handler's own check missed something: still answer, never die.
            if str(e):
                return "?%s syntax error: %s\n\n" % (ident, e)
            return "?" + ident + " syntax error\n\n"
        # An empty line would end the response early: never send one inside.
        result = (result or "").rstrip()
        while "\n\n" in result:
            result = result.replace("\n\n", "\n")
        return "=" + ident + " " + result + "\n\n"

    # -- helpers for handlers -------------------------------------------------

    def _run(self, handler, args):
        # (link.Link answers some of its commands from another module)
        return getattr(self, handler)(args)

    def _new_board(self, size):
        self.board = Board(size, ko=self.rules.ko, suicide=self.rules.suicide)
        self.dead = []

    def current_komi(self):
        return self.rules.komi if self.komi is None else self.komi

    def _args(self, args, low, high=None):
        if len(args) < low or len(args) > (low if high is None else high):
            raise GtpError("syntax error")

    def _colour(self, text):
        try:
            return parse_colour(text)
        except ValueError:
            raise GtpError("syntax error")

    def _vertex(self, text):
        try:
            return parse_vertex(self.board.size, text)
        except ValueError:
            raise GtpError("syntax error")

    # -- commands -------------------------------------------------------------

    def protocol_version(self, args):
        return "2"

    def name(self, args):
        return "GoGadget"

    def version(self, args):
        return describe()

    def known_command(self, args):
        self._args(args, 1)
        return str(args[0] in self.commands).lower()  # true, false

    def list_commands(self, args):
        # Sorted: dict order differs between interpreters.
        return "\n".join(sorted(self.commands))

    def quit(self, args):
        self.done = True
        return ""

    def boardsize(self, args):
        self._args(args, 1)
        size = _int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self._new_board(size)
        return ""

    def clear_board(self, args):
        self._new_board(self.board.size)
        return ""

    def set_komi(self, args):
        self._args(args, 1)
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpError("syntax error")
        if komi - komi:  # (not a number, or infinite)
            raise GtpError("syntax error")
        self.komi = komi
        return ""

    def play(self, args):
        self._args(args, 2)
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        if pt == PASS:
            self.board.pass_move(colour)
        else:
            reason = self.board.play(colour, pt)
            if reason != OK:
                raise GtpError("illegal move: " + REASONS[reason])
        self.dead = []
        return ""

    def undo(self, args):
        if not self.board.undo():
            raise GtpError("cannot undo")
        self.dead = []
        return ""

    def final_score(self, args):
        try:
            from gogadget import score
        except ImportError:
            raise GtpError("cannot score")
        return score.count(self.board, self.rules, dead=self.dead, komi=self.current_komi()).result

    def is_legal(self, args):
        self._args(args, 2)
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        return str(int(pt == PASS or self.board.legal(colour, pt) == OK))

    def captures(self, args):
        self._args(args, 1)
        return str(self.board.prisoners[self._colour(args[0])])

    def genmove(self, args):
        raise GtpError("cannot generate moves")

    def vertices(self, points):
        """Vertices in GNU Go's order: top row first, left to right."""
        size = self.board.size
        keyed = [((size - row_col(size, p)[0]) * 32 + row_col(size, p)[1], p) for p in points]
        keyed.sort()
        return " ".join(vertex(size, p) for _, p in keyed)

    def _path(self, name):
        """A file name inside the game folder, or GtpError: GTP may come
        from another machine, so it must not reach files elsewhere."""
        parts = name.replace("\\", "/").split("/")
        if ".." in parts or ":" in name:
            raise GtpError("file name must stay inside the game folder")
        if name.startswith("/") or name.startswith("\\"):
            if not name.startswith(self.folder.rstrip("/") + "/"):
                raise GtpError("file name must stay inside the game folder")
            return name
        return self.folder + "/" + name

    def showboard(self, args):
        b = self.board
        size = b.size
        header = "   " + " ".join(COLUMNS[c] for c in range(size))
        stars = [point(size, r, c) for r, c in star_points(size)]
        lines = [header]
        for r in range(size - 1, -1, -1):
            row = []
            for c in range(size):
                pt = point(size, r, c)
                cell = b.cells[pt]  # EMPTY 0, BLACK 1, WHITE 2 on the board
                row.append("+" if cell == EMPTY and pt in stars else ".XO"[cell])
            label = str(r + 1)
            text = (" " if len(label) < 2 else "") + label + " " + " ".join(row) + " " + label
            if r == 1:
                text += "     WHITE (O) has captured %d stones" % b.prisoners[WHITE]
            elif r == 0:
                text += "     BLACK (X) has captured %d stones" % b.prisoners[BLACK]
            lines.append(text)
        lines.append(header)
        return "\n" + "\n".join(lines)

    def _board_empty(self):
        if self.board.moves or any(self.board.cells[p] != EMPTY for p in self.board.points()):
            raise GtpError("board not empty")

    def fixed_handicap(self, args):
        self._args(args, 1)
        count = _int(args[0])
        self._board_empty()
        size = self.board.size
        if not 2 <= count <= max_handicap(size):
            raise GtpError("invalid number of stones")
        pts = [point(size, r, c) for r, c in handicap_points(size, count)]
        self._place_handicap(pts)
        return self.vertices(pts)

    def _place_handicap(self, points):
        for p in points:
            self.board.setup(BLACK, p)
        self.board.handicap = len(points)
        self.board.first = WHITE

    def set_free_handicap(self, args):
        self._board_empty()
        if len(args) < 2 or len(args) >= self.board.size * self.board.size:
            raise GtpError("bad vertex list")
        pts = []
        for a in args:
            pt = self._vertex(a)
            if pt == PASS or pt in pts:
                raise GtpError("bad vertex list")
            pts.append(pt)
        self._place_handicap(pts)
        return ""

    def mark(self, args):
        """Mark the chains at the given vertices dead (no vertices: clear the
        marks); answers every dead stone so the person can check."""
        if not args:
            self.dead = []
            return ""
        pts = []
        for a in args:
            pt = self._vertex(a)
            if pt == PASS or self.board.cells[pt] == EMPTY:
                raise GtpError("no stone at " + a)
            pts.append(pt)
        for pt in pts:
            for p in self.board.chain(pt):
                if p not in self.dead:
                    self.dead.append(p)
        return self.vertices(self.dead)

    def loadsgf(self, args):
        self._args(args, 1, 2)
        limit = None
        if len(args) == 2:
            limit = _int(args[1])
            if limit < 1:
                raise GtpError("syntax error")
        path = self._path(args[0])
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            raise GtpError("cannot load file")
        from gogadget import sgf
        try:
            game = sgf.parse(data)
        except ValueError as e:
            raise GtpError("cannot load file: " + str(e))
        finally:
            data = sgf = None
            forget("sgf", "sgfread")  # rare: on the .mpy path its bytecode need not stay on the heap
        # Built aside and swapped in only when the whole record is legal.
        board = Board(game.size, ko=self.rules.ko, suicide=self.rules.suicide)
        for colour, pt in game.setup:
            board.setup(colour, pt)
        if game.handicap and game.setup and all(c == BLACK for c, _ in game.setup):
            board.handicap = len(game.setup)
            board.first = WHITE
        moves = game.moves if limit is None else game.moves[:limit - 1]
        for n, (colour, pt) in enumerate(moves):
            if pt == PASS:
                board.pass_move(colour)
                continue
            reason = board.play(colour, pt)
            if reason != OK:
                raise GtpError("cannot load file: move %d (%s %s) is illegal: %s" % (
                    n + 1, "B" if colour == BLACK else "W", vertex(game.size, pt), REASONS[reason]))
        self.board = board
        self.dead = []
        if "KM" in game.props:
            self.komi = game.komi
        return ""

    def printsgf(self, args):
        self._args(args, 0, 1)
        from gogadget import sgf
        text = sgf.record(self.board, self.rules, komi=self.current_komi())
        sgf = None
        forget("sgf")
        if not args:
            return text
        path = self._path(args[0])
        try:
            with open(path, "w") as f:
                f.write(text)
        except OSError:
            raise GtpError("cannot save file")
        return ""

    def list_stones(self, args):
        self._args(args, 1)
        colour = self._colour(args[0])
        cells = self.board.cells
        return self.vertices([p for p in self.board.points() if cells[p] == colour])

    def kgs_rules(self, args):
        self._args(args, 1)
        name = args[0].lower()  # KGS's names: our presets but for new_zealand
        if name not in ("chinese", "japanese", "aga", "new_zealand"):
            raise GtpError("unknown rules " + args[0])
        self.preset(["new-zealand" if name == "new_zealand" else name])
        return ""

    def preset(self, args):
        """gogadget-rules [PRESET]: the preset's name, after loading PRESET."""
        self._args(args, 0, 1)
        if args:
            try:
                self.rules.load(args[0])
            except ValueError:
                raise GtpError("unknown rules " + args[0])
            self.board.ko = self.rules.ko
            self.board.suicide = self.rules.suicide
        return self.rules.name

    def set_rule(self, args):
        if len(args) != 2:
            raise GtpError("syntax error (gogadget-set-rule KEY VALUE; keys: "
                           + " ".join(sorted(KEYS)) + ")")
        try:
            set_rule(self.rules, args[0], args[1])
        except ValueError as e:
            raise GtpError(str(e))
        self.board.ko = self.rules.ko
        self.board.suicide = self.rules.suicide
        return ""

    def describe_rules(self, args):
        return describe_rules(self.rules, self.current_komi()) + "\n" + SOURCES[self.rules.preset]


def main(argv=None):
    """Serve GTP on stdin/stdout until quit or end of input."""
    if argv is None:
        argv = sys.argv[1:]
    opts = {"size": 19, "rules": DEFAULT_PRESET, "folder": "."}
    try:
        i = 0
        while i < len(argv):
            key = argv[i]
            if key in ("--size", "--rules", "--folder") and i + 1 < len(argv):
                opts[key[2:]] = argv[i + 1]
                i += 2
            else:
                raise ValueError("usage: gogadget.gtp [--size N] [--rules PRESET] [--folder DIR]")
        engine = Engine(int(opts["size"]), opts["rules"], opts["folder"])
    except ValueError as e:
        sys.stderr.write(str(e) + "\n")
        return 2
    stdin = getattr(sys.stdin, "buffer", sys.stdin)  # bytes: junk cannot raise
    write = sys.stdout.write
    while not engine.done:
        line = stdin.readline()
        if not line:
            break
        response = engine.handle(line)
        if response:
            write(response)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
