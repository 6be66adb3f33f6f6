"""SGF FF[4] records: the writer (and parse(), the reader's door).

MicroPython has no SGF library, so the board writes and reads its own
records: the writer when a game is kept, the reader (sgfread.py) for a GTP
loadsgf or gogadget-replay.  On the official firmware a module's bytecode
is heap, so the save at a game's end loads the writer only; parse() loads
the reader when something is read, and whoever let go of sgf lets go of it.
"""
from gogadget import VERSION
from gogadget.compat import const
from gogadget.points import BLACK, WHITE, EMPTY, PASS, sgf_coord
from gogadget.rules import RU_NAMES, format_points

_MOVES_PER_LINE = const(10)  # short lines keep records readable and diff-friendly


def rules_to_ru(name):
    for preset, ru in RU_NAMES:
        if preset == name:
            return ru
    return name


def escape(text):
    """Text for inside [...]: SGF only needs \\ and ] escaped."""
    for ch in "\\]":  # the backslash first
        text = text.replace(ch, "\\" + ch)
    return text


def write(size, moves, komi=0, handicap=(), rules="", result="", date="",
          black="", white="", comment="", setup=()):
    """One game as SGF text.

    moves: (colour, point) pairs, point PASS for a pass.  handicap: points of
    Black's handicap stones (AB with HA).  setup: other (colour, point) set-up
    stones (AB/AW without HA), e.g. a position loaded from elsewhere."""
    out = []
    emit(out.append, size, moves, komi, handicap, rules, result, date, black, white, comment,
         setup)
    return "".join(out)


def emit(put, size, moves, komi=0, handicap=(), rules="", result="", date="",
         black="", white="", comment="", setup=(), clock=None):
    """The SGF of write(), handed to put(text) a few bytes at a time: a
    writer to a file never holds the record in memory.  clock: a
    clock.Clock, for TM/OT in the root and BL/WL, OB/OW after each move."""
    put("(;GM[1]FF[4]CA[UTF-8]AP[GoGadget:%s]SZ[%d]KM[%s]" % (VERSION, size,
                                                                format_points(komi)))
    handicap = list(handicap)
    # The root's text properties, named by one string (each short name
    # would be interned for good; the split's pieces are let go).
    for name, value in zip("HA RU RE DT PB PW C".split(), (
            str(len(handicap)) if handicap else "", rules, result, date, black, white, comment)):
        if value:
            put(name)
            put("[")
            put(escape(value))
            put("]")
    if clock is not None:
        from gogadget import clockio
        clockio.sgf_root(clock, put)
    for colour, name in ((BLACK, "AB"), (WHITE, "AW")):
        first = True
        if colour == BLACK:
            for pt in handicap:
                if first:
                    put(name)
                    first = False
                put("[" + sgf_coord(size, pt) + "]")
        for c, pt in setup:
            if c == colour:
                if first:
                    put(name)
                    first = False
                put("[" + sgf_coord(size, pt) + "]")
    n = 0
    for colour, pt in moves:
        if n % _MOVES_PER_LINE == 0:
            put("\n")
        put(";")  # constants: nothing allocated
        put("B" if colour == BLACK else "W")
        put("[")
        put(sgf_coord(size, pt))
        put("]")
        if clock is not None:
            clockio.sgf_move(clock, put, n, colour)  # pyright: ignore[reportPossiblyUnbound]
        n += 1
    put(")\n")
    if clock is not None:
        from gogadget.compat import forget
        clockio = None
        forget("clockio")  # (written at the game's end: not kept on the heap)


def initial_stones(board):
    """(colour, point) of the stones the board started from (set-up and
    handicap), in point order."""
    stones = getattr(board, "setup_stones", None)
    if stones is not None:
        return sorted(stones, key=lambda s: s[1])
    # A board without its own list: take every move back and replay it (the
    # board ends exactly as it was; only public Board calls are used).
    log = [board.move(i) for i in range(board.moves)]
    while board.undo():
        pass
    cells = board.cells
    stones = [(cells[pt], pt) for pt in board.points() if cells[pt] != EMPTY]
    for colour, pt in log:
        if pt == PASS:
            board.pass_move(colour)
        elif board.play(colour, pt):
            raise RuntimeError("replay refused")  # same history, same rules: cannot happen
    return stones


def write_record(f, board, rules, komi=None, result="", date="", clock=None):
    """record() written to an open text file piece by piece; the heap only
    ever holds a few bytes of it."""
    name = getattr(rules, "name", rules) or ""
    if komi is None:
        komi = getattr(rules, "komi", 0)
    stones = initial_stones(board)
    handicap = ()
    setup = stones
    if board.handicap and len(stones) == board.handicap and all(c == BLACK for c, _ in stones):
        handicap = [pt for _, pt in stones]
        setup = ()
    # The board's moves as (colour, point), read from its log one at a time.
    moves = (board.move(i) for i in range(board.moves))
    # (board.hinted: the moves an engine's hint was shown at, hintshow.py)
    emit(f.write, board.size, moves, komi, handicap, rules_to_ru(name), result, date, "", "",
         getattr(board, "hinted", ""), setup, clock)


def record(board, rules, komi=None, result="", date="", clock=None):
    """The game on `board` as SGF text.  rules: a rules.Rules (or a preset
    name); komi None means the rules' komi.  A long game's text is tens of KB:
    on the board, save it with save_game(), which streams it to flash."""
    import io
    out = io.StringIO()  # one buffer that grows, not a list of every piece
    write_record(out, board, rules, komi, result, date, clock)
    return out.getvalue()  # pyright: ignore[reportAttributeAccessIssue]  (the stubs' StringIO lacks it)


def save_game(store_dir, board, rules, komi=None, result="", date="", clock=None):
    """Keep the finished game on `board` as the store's next NNNN.sgf, as
    journal.save_game does with a text, but streamed (write_record): written
    to game.tmp, then renamed, so a power cut leaves no half game under a
    game name.  Returns the name."""
    from gogadget import journal
    journal.ensure_dir(store_dir)
    names = journal.game_names(store_dir)
    n = int(names[-1][:4]) + 1 if names else 1
    # (Formats over 10 characters: not interned as names.)
    path = "%s/%04d.sgf" % (store_dir, n)
    tmp = "%s/game.tmp" % store_dir
    with open(tmp, "w") as f:
        write_record(f, board, rules, komi, result, date, clock)
        f.flush()
    journal._sync()
    journal._replace(tmp, path)
    journal._sync()
    return path[len(store_dir) + 1:]


# -- the reader ---------------------------------------------------------------


def parse(text):
    """SGF text -> sgfread.Game (the main line of the first game tree);
    ValueError with the position for what cannot be read."""
    from gogadget import sgfread
    return sgfread.parse(text)
