"""An engine's hints and territory shown on the board (issue 37): GTP
`gogadget-lights`, sent by the host (host_sim/base/hints.py) after it asked a
GTP engine; loaded by link.py for the command and let go of after it.

    gogadget-lights hint V1 [V2 ...]     V1, the engine's best, steady; the
                                         others dim (P_HINT_BEST, P_HINT)
    gogadget-lights territory MAP [SCORE]  MAP: one of b w . per place, rows
                                         from the top (GTP's first row last);
                                         SCORE the engine's estimate, said

Shown for SHOW_MS in place of the prompts (a stone or a button ends it at
once, as gogadget-show).  Refused while the board asks for a stone (it
never hides what it asks for), in a game with a remote opponent and on a
board publishing to a room: hints are for study, never for a room game.
A hint given is said as an event ("hint", ...) and written in the game's
record, the root's comment (board.hinted, sgf.write_record): "engine hints:
hint at move 12, territory at move 30".  (Not journalled: a record kept
after a power cut does not say it.)
"""
from gogadget import signals as sg
from gogadget.compat import const, ticks_add
from gogadget.gtp import GtpError
from gogadget.points import parse_vertex, vertex

SHOW_MS = const(10000)
_P_HINT = const(18)  # signals._P_HINT
_P_HINT_BEST = const(19)  # signals._P_HINT_BEST


def show(ref, args):
    """-> the GTP answer; GtpError with the reason it is refused."""
    if not args or args[0] not in ("hint", "territory"):
        raise GtpError("gogadget-lights hint V1 [V2 ...] | territory MAP [SCORE]")
    if ref.remote or getattr(ref, "room", False):
        raise GtpError("no hints in a room game")
    if ref.phase != "play" or ref.outstanding():
        raise GtpError("the board is showing what to do")
    size = ref.size
    grid = bytearray(ref.n)
    if args[0] == "hint":
        if len(args) < 2:
            raise GtpError("no moves given")
        for i in range(len(args) - 1, 0, -1):  # the best drawn last: it wins a duplicate
            pt = parse_vertex(size, args[i])
            grid[ref.place(pt)] = _P_HINT_BEST if i == 1 else _P_HINT
        _record(ref, "hint")
        ref.event("hint", "hint at move %d: %s" % (ref.board.moves + 1, " ".join(
            vertex(size, parse_vertex(size, v)) for v in args[1:])))
    else:
        if len(args) < 2 or len(args[1]) != ref.n:
            raise GtpError("the map needs %d places" % ref.n)
        m = args[1]
        for r in range(size):
            for c in range(size):
                k = m[(size - 1 - r) * size + c]
                if k == "b":
                    grid[r * size + c] = sg.P_TERRITORY_BLACK
                elif k == "w":
                    grid[r * size + c] = sg.P_TERRITORY_WHITE
                elif k != ".":
                    raise GtpError("the map is b, w and . only")
        _record(ref, "territory")
        ref.event("territory", "territory at move %d%s" % (
            ref.board.moves, ": estimated " + args[2] if len(args) > 2 else ""))
    ref.shown = grid
    ref.shown_until = ticks_add(ref.now, SHOW_MS)
    ref.paint()
    return ""


def _record(ref, what):
    b = ref.board
    said = getattr(b, "hinted", "")
    setattr(b, "hinted", (said + ", " if said else "engine hints: ")
            + "%s at move %d" % (what, b.moves + 1))
