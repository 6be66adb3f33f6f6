"""The GTP engine's rarer commands (gtp.py's Engine names them by
"gtpmore:NAME"): the board's heap holds this module only while one of them
runs (compat.forget), and `python -m gogadget.gtp`'s command line.

Every function takes the engine first, as its method would.
"""
import sys

from gogadget.board import Board, OK, REASONS
from gogadget.compat import forget
from gogadget.gtp import Engine, GtpError, _int

# KGS's kgs-rules names -> our presets.
KGS_RULES = {"chinese": "chinese", "japanese": "japanese", "aga": "aga",
             "new_zealand": "new-zealand"}
from gogadget.points import (BLACK, WHITE, EMPTY, PASS, COLUMNS, max_handicap, point, row_col,
                             handicap_points, star_points, vertex)
from gogadget.rules import DEFAULT_PRESET, KEYS, format_points


def vertices(self, pts):
    """Vertices in GNU Go's order: top row first, left to right."""
    size = self.board.size
    keyed = [((size - row_col(size, p)[0]) * 32 + row_col(size, p)[1], p) for p in pts]
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


def cmd_showboard(self, args):
    b = self.board
    size = b.size
    header = "   " + " ".join(COLUMNS[c] for c in range(size))
    stars = [point(size, r, c) for r, c in star_points(size)]
    lines = [header]
    for r in range(size - 1, -1, -1):
        row = []
        for c in range(size):
            pt = point(size, r, c)
            cell = b.cells[pt]
            row.append("X" if cell == BLACK else "O" if cell == WHITE else
                       "+" if pt in stars else ".")
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


def cmd_fixed_handicap(self, args):
    self._args(args, 1)
    count = _int(args[0])
    _board_empty(self)
    size = self.board.size
    if not 2 <= count <= max_handicap(size):
        raise GtpError("invalid number of stones")
    pts = [point(size, r, c) for r, c in handicap_points(size, count)]
    _place_handicap(self, pts)
    return vertices(self, pts)


def _place_handicap(self, pts):
    for p in pts:
        self.board.setup(BLACK, p)
    self.board.handicap = len(pts)
    self.board.first = WHITE


def free_handicap_points(self, args):
    """set_free_handicap's vertex list -> points; GtpError if it is bad."""
    if len(args) < 2 or len(args) >= self.board.size * self.board.size:
        raise GtpError("bad vertex list")
    pts = []
    for a in args:
        pt = self._vertex(a)
        if pt == PASS or pt in pts:
            raise GtpError("bad vertex list")
        pts.append(pt)
    return pts


def cmd_set_free_handicap(self, args):
    _board_empty(self)
    _place_handicap(self, free_handicap_points(self, args))
    return ""


def cmd_dead(self, args):
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
    return vertices(self, self.dead)


def cmd_loadsgf(self, args):
    self._args(args, 1, 2)
    limit = None
    if len(args) == 2:
        limit = _int(args[1])
        if limit < 1:
            raise GtpError("syntax error")
    path = _path(self, args[0])
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        raise GtpError("cannot load file")
    from gogadget import sgfread
    try:
        game = sgfread.parse(data)
    except ValueError as e:
        raise GtpError("cannot load file: " + str(e))
    finally:
        data = sgfread = None
        forget("sgfread", "sgf")  # rare: its bytecode need not stay on the heap
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


def cmd_printsgf(self, args):
    self._args(args, 0, 1)
    from gogadget import sgf
    text = sgf.record(self.board, self.rules, komi=self.current_komi())
    sgf = None
    forget("sgf")
    if not args:
        return text
    path = _path(self, args[0])
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError:
        raise GtpError("cannot save file")
    return ""


def cmd_list_stones(self, args):
    self._args(args, 1)
    colour = self._colour(args[0])
    cells = self.board.cells
    return vertices(self, [p for p in self.board.points() if cells[p] == colour])


def _load_preset(self, name):
    try:
        self.rules.load(name)
    except ValueError:
        raise GtpError("unknown rules " + name)
    self._apply_rules()


def cmd_kgs_rules(self, args):
    self._args(args, 1)
    preset = KGS_RULES.get(args[0].lower())
    if preset is None:
        raise GtpError("unknown rules " + args[0])
    _load_preset(self, preset)
    return ""


def cmd_rules(self, args):
    self._args(args, 0, 1)
    if args:
        _load_preset(self, args[0])
    return self.rules.name


def cmd_set_rule(self, args):
    if len(args) != 2:
        raise GtpError("syntax error (gogadget-set-rule KEY VALUE; keys: "
                       + " ".join(sorted(KEYS)) + ")")
    try:
        self.rules.set(args[0], args[1])
    except ValueError as e:
        raise GtpError(str(e))
    self._apply_rules()
    return ""


def cmd_rules_info(self, args):
    return (self.rules.describe().replace("komi=" + format_points(self.rules.komi),
                                          "komi=" + format_points(self.current_komi()))
            + "\n" + self.rules.source)


def _options(argv):
    opts = {"size": 19, "rules": DEFAULT_PRESET, "folder": "."}
    i = 0
    while i < len(argv):
        key = argv[i]
        if key in ("--size", "--rules", "--folder") and i + 1 < len(argv):
            opts[key[2:]] = argv[i + 1]
            i += 2
        else:
            raise ValueError("usage: gogadget.gtp [--size N] [--rules PRESET] [--folder DIR]")
    opts["size"] = int(opts["size"])
    return opts


def main(argv=None):
    """Serve GTP on stdin/stdout until quit or end of input."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        opts = _options(argv)
        engine = Engine(opts["size"], opts["rules"], opts["folder"])
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
