"""Counting: dead stones marked by lifting them, territory shown, Confirm
counts.

Counting ("count").  A chain with any stone lifted is dead; putting its
stones back revives it.  Territory shows dim in its owner's colour, and
Confirm counts and ends the game.  A new stone put down on its own, of the
colour to move (any stone with occupancy sensors), means the players play
on (001, 003): counting ends, the dead marks are cleared, and the stone is
the next move if it is legal.  A stone knocked onto the next point is none
of that: when a stone goes and another comes in the same batch (settle.py),
the one that went is lit to be put back (it is not marked dead) and the one
that came to be lifted.

The game's end (the result journalled, shown and kept, the "over"
phase) is ending.py's: finish() and over() here load it for the callers
that end a game from elsewhere (the host, the clock, a resume).
"""
from gogadget import signals as sg
from gogadget.compat import const, forget
from gogadget.points import EMPTY, BLACK, WHITE, vertex
from gogadget.scan import S_EMPTY, S_STONE, S_FAULT
from gogadget.view import M_REMOVE, M_STRAY, M_DEAD, M_SLID

_RESUMED = const(8)  # a slot of Referee._state (referee.py's)

def start(ref):
    """Two passes: counting starts.  Stones already standing where none
    belongs are strays: only a stone put down from now on can end it."""
    ref.phase = "count"
    ref.counted = None
    for pl in range(ref.n):
        if ref.want[pl] == EMPTY and ref.stable[pl] not in (S_EMPTY, S_FAULT) \
                and not ref.mark[pl] & M_REMOVE and not ref.fault[pl]:
            ref.mark[pl] |= M_STRAY
    ref.event("count", "two passes: lift dead stones, then Confirm")


def count(ref):
    """The count of the position now, the dead stones marked (score.count).

    score is loaded for each count (a stone lifted or put back, Confirm)
    and let go after it: counting is the game's lowest point of heap on a
    paired Pico W (docs/CLOCK.md), and a count is a few a minute, not one
    a scan.  The Count returned holds score's class only until the caller
    drops it (ref.counted keeps the result's text)."""
    from gogadget import score
    dead = []
    for pl in range(ref.n):
        if ref.mark[pl] & M_DEAD:
            dead.append(ref.pt(pl))
    c = score.count(ref.board, ref.rules, dead, ref.komi)
    forget("score")
    return c


def refresh(ref):
    scan = ref.stable
    want = ref.want
    mark = ref.mark
    fault = ref.fault
    fresh = ref.settler.fresh
    board = ref.board
    colour = board.to_move()
    # Did the last batch take a stone of the game away and put a stone down
    # where none belongs?  Then it was a slide, a bump (knocked).
    gone = came = False
    for pl in range(ref.n):
        if fresh[pl]:
            if want[pl] == EMPTY:
                came = came or scan[pl] != S_EMPTY
            else:
                gone = gone or scan[pl] == S_EMPTY
    knocked = gone and came
    ref.has_fault = False
    new = -1
    for pl in range(ref.n):
        m = mark[pl] & ~M_DEAD
        s = scan[pl]
        if fault[pl] and s != S_FAULT and (s == S_EMPTY) == (want[pl] == EMPTY):
            # A sensor the person said was stuck (gameops.ignore_sensor) is
            # ignored through the count until it agrees with the game: a
            # reed held closed by its neighbours' field must neither block
            # the count nor end it as a new stone.
            fault[pl] = 0
            ref.event("fault", "sensor %s ok" % vertex(ref.size, ref.pt(pl)))
        if s == S_FAULT or fault[pl]:
            pass
        elif want[pl] == EMPTY:
            if s == S_EMPTY:
                m &= ~(M_REMOVE | M_STRAY)
            elif not m & (M_REMOVE | M_STRAY):
                if knocked or not fresh[pl] or new >= 0 or (s != S_STONE and s != colour):
                    m |= M_STRAY
                    if new >= 0:
                        mark[new] |= M_STRAY  # two at once: neither is a move
                else:
                    new = pl
        elif s != S_EMPTY:
            m &= ~M_SLID
        elif knocked and fresh[pl]:
            m |= M_SLID
        mark[pl] = m
    if new >= 0 and not mark[new] & M_STRAY:
        # 001/003: players who cannot agree on the count play on.  The
        # lifted dead stones are prompted back.
        ref.phase = "play"
        ref.counted = None
        ref._state[_RESUMED] = new
        ref.event("count", "new stone at %s: counting ends, play resumes"
                  % vertex(ref.size, ref.pt(new)))
        ref.refresh_phase()
        return
    # A chain with any stone lifted is dead; put them all back to revive it.
    for pl in range(ref.n):
        if want[pl] != EMPTY and scan[pl] == S_EMPTY and not fault[pl] \
                and not mark[pl] & (M_DEAD | M_SLID):
            for pt in board.chain(ref.pt(pl)):
                mark[ref.place(pt)] |= M_DEAD
    c = count(ref)
    owner = c.owner
    outstanding = 0
    for pl in range(ref.n):
        s = scan[pl]
        w = want[pl]
        terr = owner[ref.pt(pl)]
        t = sg.P_TERRITORY_BLACK if terr == BLACK else sg.P_TERRITORY_WHITE if terr == WHITE \
            else sg.P_NONE
        if s == S_FAULT or fault[pl]:
            p = sg.P_FAULT
            ref.has_fault = True
        elif w != EMPTY:
            if mark[pl] & M_SLID:
                p = sg.P_PUT_BLACK if w == BLACK else sg.P_PUT_WHITE
                outstanding += 1
            elif mark[pl] & M_DEAD:
                p = sg.P_DEAD if s != S_EMPTY else t
            else:
                p = sg.P_WRONG_COLOUR if s != S_STONE and s != w else sg.P_NONE
        elif s != S_EMPTY:
            p = sg.P_REMOVE
            outstanding += 1
        else:
            p = t
        ref.prompt[pl] = p
    ref.unresolved = outstanding
    if ref.counted != c.result:
        ref.counted = c.result
        ref.event("count", c.result)


def finish(ref, winner, result, margin=None):
    """The game ends with a result (ending.finish)."""
    from gogadget import ending
    ending.finish(ref, winner, result, margin)


def over(ref, winner):
    """The game has a result: show it (ending.over)."""
    from gogadget import ending
    ending.over(ref, winner)
