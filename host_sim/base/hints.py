"""Hints and territory from a GTP engine, lit on the board (issue 37).

The host reads the board's game (GTP gogadget-sgf), loads it into the
engine (loadsgf: set-up stones and moves as the board has them), asks, and
lights the answer on the board (gogadget-lights, firmware/gogadget/hintshow.py):

* GNU Go: `top_moves_black` / `top_moves_white` (moves with values, best
  first), the territory from `initial_influence COLOUR territory_value`
  (positive White's, negative Black's) and the score from `estimate_score`;
* KataGo: `kata-analyze` (and Leela Zero's `lz-analyze`): the `info` lines,
  ordered by `order`, with `ownership` for the territory (KataGo's default
  reportAnalysisWinratesAs: from the side to move's view).  The parsers are
  tested against a sample written from KataGo's GTP documentation
  (tests/study/kata-analyze.txt, lz-analyze.txt), not a recorded run: KataGo
  is not installable from a registry here.

The board refuses hints in a room game or a game with a remote opponent
(hintshow.py); `gogadget hint` refuses a game it is told is rated.
"""
import os
import sys
import tempfile

HINTS = 3  # candidates lit
OWNED = 0.5  # |territory_value| or |ownership| from which a point is lit as owned


class HintError(Exception):
    pass


# -- GNU Go ---------------------------------------------------------------------

def parse_top_moves(text):
    """GNU Go's top_moves answer -> [(vertex, value)], best first."""
    words = text.split()
    if len(words) % 2:
        raise HintError("top_moves: odd answer %r" % text)
    return [(words[i].upper(), float(words[i + 1])) for i in range(0, len(words), 2)]


def parse_influence(text, size):
    """initial_influence ... territory_value -> size rows of floats, from the top."""
    values = [float(v) for v in text.split()]
    if len(values) != size * size:
        raise HintError("territory_value: %d values for %dx%d" % (len(values), size, size))
    return [values[r * size:(r + 1) * size] for r in range(size)]


def territory_map(rows, stones, white_positive=True, owned=OWNED):
    """rows (from the top) of ownership values -> gogadget-lights' MAP (b w .
    per place, rows from the top); points with a stone are left dark, as
    the count shows only territory."""
    out = []
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if (r, c) in stones:
                out.append(".")
            elif v >= owned:
                out.append("w" if white_positive else "b")
            elif v <= -owned:
                out.append("b" if white_positive else "w")
            else:
                out.append(".")
    return "".join(out)


# -- KataGo / Leela Zero --------------------------------------------------------

def parse_analyze(text, size=None):
    """kata-analyze / lz-analyze output -> (candidates, ownership): the last
    complete report's info entries as dicts (move, visits, winrate, order,
    pv) sorted by order, and its ownership values (size*size floats, rows
    from the top) or None.  lz-analyze's winrate is in 1/10000ths."""
    report = None
    for line in text.splitlines():
        if line.startswith("info ") or line.startswith("ownership "):
            report = line  # each line of output is one whole report
    if report is None:
        raise HintError("no info lines in the analysis")
    ownership = None
    if " ownership " in " " + report:
        report, _, own = (" " + report).partition(" ownership ")
        ownership = [float(v) for v in own.split()]
        if size is not None and len(ownership) != size * size:
            raise HintError("ownership: %d values for %dx%d" % (len(ownership), size, size))
    out = []
    for chunk in report.split("info ")[1:]:
        words = chunk.split()
        entry = {}
        i = 0
        while i < len(words):
            key = words[i]
            if key == "pv":
                entry["pv"] = [w.upper() for w in words[i + 1:]]
                break
            if i + 1 < len(words):
                entry[key] = words[i + 1]
            i += 2
        if "move" not in entry:
            continue
        entry["move"] = entry["move"].upper()
        entry["order"] = int(entry.get("order", len(out)))
        entry["visits"] = int(entry.get("visits", 0))
        w = float(entry.get("winrate", 0))
        entry["winrate"] = w / 10000.0 if w > 1 else w
        out.append(entry)
    out.sort(key=lambda e: e["order"])
    return out, ownership


# -- the board and the engine ---------------------------------------------------

def load_position(board, engine):
    """The board's game (its SGF) into the engine; -> (size, colour to move
    as "black"/"white", stones {(row from the top, col)})."""
    from gogadget import sgf as sgfmod
    from gogadget.board import Board
    from gogadget.points import BLACK, row_col
    text = board.send("gogadget-sgf")
    game = sgfmod.parse(text)
    fd, path = tempfile.mkstemp(suffix=".sgf", prefix="gogadget-hint-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        engine.send("loadsgf %s" % path)
    finally:
        os.remove(path)
    b = Board(game.size)
    for colour, pt in game.setup:
        b.setup(colour, pt)
    for colour, pt in game.moves:
        if pt:
            b.play(colour, pt)
        else:
            b.pass_move(colour)
    stones = set()
    for pt in b.points():
        if b.cells[pt] in (1, 2):
            r, c = row_col(game.size, pt)
            stones.add((game.size - 1 - r, c))
    to_move = "black" if b.to_move() == BLACK else "white"
    return game.size, to_move, stones


def gnugo_hint(board, engine, n=HINTS):
    """GNU Go's top moves for the side to move, lit; -> [(vertex, value)]."""
    size, colour, _stones = load_position(board, engine)
    moves = [m for m in parse_top_moves(engine.send("top_moves_" + colour))
             if m[0] != "PASS"][:n]
    if not moves:
        raise HintError("GNU Go has no move to suggest")
    board.send("gogadget-lights hint " + " ".join(v for v, _ in moves))
    return moves


def gnugo_territory(board, engine):
    """GNU Go's territory estimate lit and its score said; -> (map, score)."""
    size, colour, stones = load_position(board, engine)
    rows = parse_influence(engine.send("initial_influence %s territory_value" % colour), size)
    score = engine.send("estimate_score").split()[0]
    m = territory_map(rows, stones)
    board.send("gogadget-lights territory %s %s" % (m, score))
    return m, score


def watch(board, engine, seconds, territory=False, clock=None, sleep=None, say=print):
    """Serve the board's gesture for seconds: Confirm with nothing to
    confirm in play (the board's event "prompt nothing to confirm") asks for
    a hint, answered with the engine's (territory: its territory view); the
    board itself refuses outside play.  Returns the answers given."""
    import time
    clock = clock or time.monotonic
    sleep = sleep or time.sleep
    end = clock() + seconds
    answered = 0
    while clock() < end:
        for line in board.send("gogadget-events").splitlines():
            if line.strip() == "prompt nothing to confirm":
                try:
                    if territory:
                        _m, score = gnugo_territory(board, engine)
                        say("territory lit on the board; estimated %s" % score)
                    else:
                        moves = gnugo_hint(board, engine)
                        say("hint lit: %s" % ", ".join("%s %.1f" % mv for mv in moves))
                    answered += 1
                except HintError as exc:
                    say("no hint: %s" % exc)
        sleep(0.2)
    return answered


# -- the moves where the evaluation drops most (review) ---------------------------

DROPS = "gogadget-drops:"  # the root's GC[...] review.py reads: the marked moves' numbers


def score_value(text):
    """estimate_score's "W+3.8 (upper ...)" -> Black's lead (-3.8); "0": 0."""
    word = text.split()[0] if text.split() else "0"
    if word[:2] in ("B+", "W+"):
        v = float(word[2:])
        return v if word[0] == "B" else -v
    return float(word)


def mark_drops(text, engine, n=3):
    """The record's main line evaluated after every move by GNU Go
    (loadsgf FILE K+1; estimate_score) -> (a new SGF: the main line, the
    n moves that lost their mover most marked with a comment, and their
    numbers in the root's GC[gogadget-drops: ...]; [(move, points lost)]).
    The record given is not changed; its nodes' other properties are not
    carried over (the root's are)."""
    from gogadget import sgf as sgfmod
    from gogadget.points import BLACK, PASS, sgf_coord
    game = sgfmod.parse(text)
    fd, path = tempfile.mkstemp(suffix=".sgf", prefix="gogadget-drops-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        scores = []
        for k in range(len(game.moves) + 1):
            engine.send("loadsgf %s %d" % (path, k + 1))
            scores.append(score_value(engine.send("estimate_score")))
    finally:
        os.remove(path)
    losses = []
    for k, (colour, _pt) in enumerate(game.moves, 1):
        delta = scores[k] - scores[k - 1]
        loss = -delta if colour == BLACK else delta
        if loss > 0:
            losses.append((loss, k))
    marked = sorted((k, loss) for loss, k in sorted(losses, reverse=True)[:n])
    at = dict(marked)
    out = ["(;"]
    for key, values in game.props.items():
        if key in ("B", "W", "GC"):
            continue
        out.append(key + "".join("[%s]" % v.replace("\\", "\\\\").replace("]", "\\]")
                                 for v in values))
    out.append("GC[%s %s]" % (DROPS, " ".join(str(k) for k, _ in marked)))
    for k, (colour, pt) in enumerate(game.moves, 1):
        out.append(";%s[%s]" % ("B" if colour == BLACK else "W",
                                "" if pt == PASS else sgf_coord(game.size, pt)))
        if k in at:
            out.append("C[drop: %.1f points for %s (GNU Go estimate_score %+.1f -> %+.1f)]"
                       % (at[k], "Black" if colour == BLACK else "White", scores[k - 1],
                          scores[k]))
    out.append(")\n")
    return "".join(out), marked


def command(args):
    """`gogadget hint`: once, the engine's advice on the board's position
    (args.connect: the command line's way to the board, cli.Connection)."""
    from host_sim.base.serialport import GtpError, engine as start_engine
    if args.rated:
        print("gogadget hint: no hints in a rated game", file=sys.stderr)
        return 2
    if args.drops:
        eng = start_engine(args.engine)
        try:
            with open(args.drops) as f:
                text, marked = mark_drops(f.read(), eng, args.count)
        except (OSError, ValueError, GtpError) as exc:
            print("gogadget hint: %s" % exc, file=sys.stderr)
            return 1
        finally:
            eng.close()
        out = args.drops[:-4] + "-drops.sgf" if args.drops.endswith(".sgf") else \
            args.drops + "-drops.sgf"
        with open(out, "w") as f:
            f.write(text)
        print("%s: the moves that lost most, %s; written to %s (%s unchanged)" % (
            args.drops, ", ".join("%d (%.1f points)" % m for m in marked) or "none", out,
            args.drops))
        return 0
    conn = args.connect(args)
    eng = None
    try:
        eng = start_engine(args.engine)
        if args.watch:
            print("asking %s whenever Confirm is pressed with nothing to confirm, for %d s"
                  % (args.engine, args.watch))
            watch(conn.board, eng, args.watch, args.territory)
        elif args.territory:
            _m, score = gnugo_territory(conn.board, eng)
            print("territory lit on the board; estimated %s" % score)
        else:
            moves = gnugo_hint(conn.board, eng, args.count)
            print("hint lit on the board: %s (best first)"
                  % ", ".join("%s %.1f" % mv for mv in moves))
    except (GtpError, HintError, KeyboardInterrupt) as exc:
        print("gogadget hint: %s" % exc, file=sys.stderr)
        return 1
    finally:
        if eng is not None:
            eng.close()
        conn.close()
    return 0


def add_parser(sub, add_board_options, connect):
    p = sub.add_parser("hint", help="an engine's best moves (or territory) lit on the board",
                       description="Load the board's game into a GTP engine (GNU Go's "
                       "top_moves, initial_influence and estimate_score) and light its top "
                       "candidates on the board, the best one brighter, or (--territory) each "
                       "point by the side the engine thinks owns it, with its score.  The board "
                       "refuses in a room game or against a remote opponent.")
    add_board_options(p, person=False)
    p.add_argument("--engine", default="gnugo --mode gtp",
                   help="the GTP engine's command line (default gnugo --mode gtp)")
    p.add_argument("--territory", action="store_true", help="the territory view instead")
    p.add_argument("--count", type=int, default=HINTS, help="candidates lit (default %d)" % HINTS)
    p.add_argument("--rated", action="store_true", help="the game is rated: refuse")
    p.add_argument("--drops", default=None, metavar="GAME.sgf",
                   help="no board: mark the --count moves of GAME.sgf where GNU Go's estimate "
                        "dropped most for the mover, in GAME-drops.sgf (review mode's Confirm "
                        "jumps to them)")
    p.add_argument("--watch", type=int, default=0, metavar="SECONDS",
                   help="for SECONDS, answer the board's gesture (Confirm pressed in play with "
                        "nothing to confirm) instead of once now")
    p.set_defaults(func=command, connect=connect)
    return p
