"""The host link's rarer commands (link.py's Link names them by
"linkmore:NAME"): the board's heap holds this module only while one of them
runs (compat.forget).  Every function takes the Link first, as its method
would; Replay guides the person through a stored game (gogadget-replay).
"""
from gogadget import journal
from gogadget.compat import forget
from gogadget.gtp import GtpError, _int
from gogadget.gtpmore import free_handicap_points, vertices
from gogadget.link import valid_game_name
from gogadget.points import BLACK, PASS, handicap_points, max_handicap, point


def cmd_fixed_handicap(self, args):
    self._args(args, 1)
    count = _int(args[0])
    if not self._empty():
        raise GtpError("board not empty")
    size = self.referee.board.size
    if not 2 <= count <= max_handicap(size):
        raise GtpError("invalid number of stones")
    # As a set-up position, so presets with free placement get the
    # GTP fixed points too.
    pts = [point(size, r, c) for r, c in handicap_points(size, count)]
    self._set_position([(BLACK, pt) for pt in pts])
    return vertices(self, pts)


def cmd_set_free_handicap(self, args):
    if not self._empty():
        raise GtpError("board not empty")
    pts = free_handicap_points(self, args)
    self._set_position([(BLACK, pt) for pt in pts])
    return ""


def cmd_loadsgf(self, args):
    raise GtpError("the board cannot jump to a position: use gogadget-replay or gogadget-setup")


def cmd_printsgf(self, args):
    self._args(args, 0, 1)
    if args:
        raise GtpError("cannot save file: the board keeps its own records (gogadget-games)")
    return self.referee.sgf()


def cmd_sgf(self, args):
    return _no_blank_lines(self.referee.sgf())


def cmd_games(self, args):
    if not self.store:
        return ""
    return "\n".join(journal.game_names(self.store))


def _game_path(self, args):
    self._args(args, 1)
    name = args[0]
    if not valid_game_name(name):
        raise GtpError("bad game name (expected NNNN.sgf)")
    if not self.store:
        raise GtpError("no game folder")
    return self.store + "/" + name


def _read_game(self, args):
    path = _game_path(self, args)
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        raise GtpError("no such game " + args[0])


def cmd_fetch(self, args):
    return _no_blank_lines(_read_game(self, args))


def cmd_new(self, args):
    """gogadget-new [size=N] [komi=K] [handicap=H] [rules=PRESET]"""
    opts = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep or key not in ("size", "komi", "handicap", "rules"):
            raise GtpError("expected size=N komi=K handicap=H rules=PRESET, got " + a)
        try:
            opts[key] = value if key == "rules" else (
                float(value) if key == "komi" else int(value))
        except ValueError:
            raise GtpError("bad value for " + key)
    self._new_game(size=opts.get("size"), komi=opts.get("komi"),
                   handicap=opts.get("handicap"), preset=opts.get("rules"))
    return ""


def cmd_setup(self, args):
    """gogadget-setup [b V V ...] [w V V ...]: a position for the person to
    set up by LED prompts (no arguments: the empty board)."""
    colour = 0
    stones = []
    seen = set()
    for a in args:
        if a.lower() in ("b", "black", "w", "white"):
            colour = self._colour(a)
            continue
        if not colour:
            raise GtpError("colour expected before " + a)
        pt = self._vertex(a)
        if pt == PASS or pt in seen:
            raise GtpError("bad vertex " + a)
        seen.add(pt)
        stones.append((colour, pt))
    self._set_position(stones)
    return ""


def cmd_replay(self, args):
    """gogadget-replay NAME | stop: guide the person through a stored game."""
    if args and args[0] == "stop":
        self.replay = None
        return ""
    text = _read_game(self, args)
    from gogadget import sgfread
    try:
        game = sgfread.parse(text)
    except ValueError as e:
        raise GtpError("cannot load " + args[0] + ": " + str(e))
    finally:
        text = sgfread = None
        forget("sgfread", "sgf")  # rare: its bytecode need not stay on the heap
    self._new_game(size=game.size, komi=game.komi)
    if game.setup:
        self._set_position(game.setup)
    self.replay = Replay(self, game)
    return str(len(game.moves))


class Replay:
    """Guides the person through a recorded game: each recorded move is
    prompted on the LEDs (as an external move) once the previous one has
    been placed, and a warning event is raised when the board departs."""

    def __init__(self, link, game):
        self.link = link
        self.moves = game.moves
        self.next = 0
        self.base = link.referee.board.moves
        self.warned = False

    def progress(self):
        return str(self.next) + "/" + str(len(self.moves))

    def step(self):
        referee = self.link.referee
        if self.next >= len(self.moves) or referee.outstanding():
            return
        board = referee.board
        if board.moves != self.base + self.next:
            if not self.warned:
                self.warned = True
                self.link.note("replay", "board departs from the record at move " + str(self.next + 1))
            return
        colour, pt = self.moves[self.next]
        code = referee.external_move(colour, pt)
        if code:
            self.link.note("replay", "recorded move " + str(self.next + 1) + " is illegal here")
            self.next = len(self.moves)
            return
        self.next += 1
        self.warned = False
        if self.next == len(self.moves):
            self.link.note("replay", "end of the record")

    def event(self, ev):
        if ev[0] in ("illegal", "fault", "error") and not self.warned:
            self.warned = True
            self.link.note("replay", "board departs from the record at move " + str(self.next) + ": " + ev[1])


def cmd_remote(self, args):
    """gogadget-remote colour B|W|none | ask-undo N | resign B|W | count |
    confirm-count: a remote opponent played through the host (`gogadget
    remote`, gogadget.pairing.Remote on the host): its moves come as `play`."""
    self._args(args, 1, 2)
    ref = self.referee
    what = args[0]
    if what == "colour":
        self._args(args, 2)
        ref.remote = 0 if args[1] == "none" else self._colour(args[1])
        return ""
    if what == "ask-undo":
        self._args(args, 2)
        n = _int(args[1])
        if n and n == ref.board.moves and ref.ask_undo != n:
            ref.event("prompt", "opponent takes back move %d: press Confirm" % n)
        ref.ask_undo = n
        return ""
    if what == "resign":
        self._args(args, 2)
        if ref.phase not in ("play", "count"):
            raise GtpError("no game to resign")
        ref.resign(self._colour(args[1]))
        return ""
    if what == "count":
        if ref.phase != "count":
            raise GtpError("not counting")
        return ref.count_result()
    if what == "confirm-count":
        if ref.phase != "count":
            raise GtpError("not counting")
        ref.confirm_count()
        return ref.result
    raise GtpError("expected colour, ask-undo, resign, count or confirm-count")


def _no_blank_lines(text):
    # A GTP response ends at the first empty line.
    return "\n".join(line for line in text.strip().split("\n") if line.strip())
