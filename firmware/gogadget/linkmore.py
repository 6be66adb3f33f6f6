"""The host link's rarer commands (link.py's Link names them by
"linkmore:NAME"): the board's heap holds this module only while one of them
runs (compat.forget).  Every function takes the Link first, as its method
would; Replay guides the person through a stored game (gogadget-replay).
"""
from gogadget import journal
from gogadget.compat import forget, ticks_add
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
    """gogadget-new [size=N] [komi=K] [handicap=H] [rules=PRESET]
    [placement=free|fixed] (free: Black places the handicap where it likes,
    whatever the preset says, as an online game's free handicap)."""
    opts = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep or key not in ("size", "komi", "handicap", "rules", "placement"):
            raise GtpError("expected size=N komi=K handicap=H rules=PRESET placement=free, got "
                           + a)
        if key == "placement" and value not in ("free", "fixed"):
            raise GtpError("placement is free or fixed")
        try:
            opts[key] = value if key in ("rules", "placement") else (
                float(value) if key == "komi" else int(value))
        except ValueError:
            raise GtpError("bad value for " + key)
    self._new_game(size=opts.get("size"), komi=opts.get("komi"),
                   handicap=opts.get("handicap"), preset=opts.get("rules"),
                   free=opts.get("placement") == "free")
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


def cmd_marked(self, args):
    """gogadget-marked: the stones marked dead by lifting them while
    counting (kept once the count is confirmed), so a host can propose them
    as an online game's removed stones."""
    self._args(args, 0)
    from gogadget.view import M_DEAD
    ref = self.referee
    if ref.phase != "count" and ref.phase != "over":
        return ""
    mark = ref.mark
    return vertices(self, [ref.pt(pl) for pl in range(ref.n) if mark[pl] & M_DEAD])


def cmd_result(self, args):
    """gogadget-result RESULT: the game ended off the board -- the opponent
    resigned or a clock ran out on an online server, or the server's agreed
    count differs from the board's.  RESULT is B+R, W+T, B+F, B+3.5 or 0.
    Journalled first, so a power cut keeps it; a game already over gets the
    new result in its kept record."""
    self._args(args, 1)
    from gogadget import counting
    from gogadget import journal as jn
    from gogadget.gamelog import RESULT_WORDS
    text = args[0].upper()
    ref = self.referee
    if ref.phase not in ("play", "count", "over"):
        raise GtpError("no game to end")
    if text == "0":
        winner = 0
        value = 0
    else:
        if len(text) < 3 or text[0] not in "BW" or text[1] != "+":
            raise GtpError("expected B+R, W+T, B+F, B+3.5 or 0, got " + args[0])
        winner = BLACK if text[0] == "B" else 3 - BLACK
        word = text[2:]
        value = -1
        for code in RESULT_WORDS:
            if RESULT_WORDS[code] == word:
                value = code
        if word == "R":
            value = 0
        elif value < 0:
            try:
                value = int(float(word) * 2 + 0.5)
            except ValueError:
                raise GtpError("bad margin " + word)
            if not 0 < value < 0xFF00:
                raise GtpError("bad margin " + word)
    if ref.result == text:
        return ""
    if text[2:] == "R":
        ref.log.append(ref, jn.K_RESIGN, 3 - winner)
    else:
        ref.log.append(ref, jn.K_RESULT, winner, value)
    if ref.phase != "over":
        ref.event("result", text + " (told by the host)")
        counting.finish(ref, winner, text)
        return ""
    # Already counted at the board: the told result replaces the board's
    # own, on the LEDs and in the game's kept record.
    ref.result = text
    counting.over(ref, winner)
    ref.event("result", text + " (told by the host)")
    if self.store and journal._exists(self.store + "/%04d.sgf" % ref.log.game):
        from gogadget import sgf
        path = self.store + "/%04d.sgf" % ref.log.game
        try:
            with open(self.store + "/game.tmp", "w") as f:
                sgf.write_record(f, ref.board, ref.rules, ref.komi, text, ref.date())
            journal._replace(self.store + "/game.tmp", path)
            journal._sync()
        finally:
            sgf = None
            forget("sgf")
    ref.refresh()
    return ""


def cmd_show(self, args):
    """gogadget-show TEXT [MS]: TEXT (digits, B W R + - . ; a clock, a
    count) drawn across the board in the result's font for MS ms (default
    3000) in place of the prompts; a stone or a button ends it at once.
    Refused while a stone is waiting to be placed or lifted: the board never
    hides what it asks for."""
    self._args(args, 1, 2)
    ref = self.referee
    ms = _int(args[1]) if len(args) > 1 else 3000
    if not 0 < ms <= 60000:
        raise GtpError("MS must be 1..60000")
    if ref.phase != "play" or ref.outstanding():
        raise GtpError("the board is showing what to do")
    from gogadget import font
    from gogadget.signals import draw_text
    cols = font.render(args[0].upper())
    font = None
    forget("font")
    size = ref.size
    if len(cols) > size:
        raise GtpError("too wide for a %dx%d board" % (size, size))
    grid = bytearray(ref.n)
    draw_text(grid, size, cols, -((size - len(cols)) // 2))
    ref.shown = grid
    ref.shown_until = ticks_add(ref.now, ms)
    ref.paint()
    return ""
