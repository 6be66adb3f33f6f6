"""The play phase: a new stone becomes a move, or the lights say why not.

A move is accepted only when the settled difference from the game is
exactly one new stone, of the colour to move (any stone with occupancy
sensors), in a clean batch (settle.py: nothing else on its way), with
nothing missing or of the wrong colour -- except stones the move itself
captures, which may come off in the same motion.  Everything else is
prompted until the person has put it right:

* prisoners still to lift (REMOVE); they do not hold up the next move;
* several new stones at once: "lift all but one"; the one left is the move;
* strays: a new stone that appeared while the position was not right (the
  far end of a slid stone, a stone put down while another was missing) is
  never a move until its place has read empty again;
* illegal stones (suicide, ko, superko) blink with the reason.

A capture in one motion with occupancy sensors, one stone taken off right
beside the one put down, reads exactly like a stone knocked onto the next
point.  The board cannot tell, so it does not guess: the lights ask for the
prisoner back and the new stone off, and the capture is made again.

Take-back.  Lifting the last move's stone on its own, or with its prisoners
put back in the same motion (no other stone appearing: that is a slide),
starts a take-back, and its prisoners put back are part of it, not new
stones.  Confirm takes the
move back once the board shows the position before it.  Until a prisoner
is back, a lifted last stone looks just like a knocked-off one, so its
light asks to put it back (Confirm still takes it back); from then on it
shows the take-back light and the prisoners still to return are lit.  One
prisoner back beside it in the very motion of the lift reads exactly like
the opponent capturing the last stone in one motion by playing on that
point (and, with occupancy sensors, like the stone slid there): the board
cannot tell, so the lights ask to restore the record, and Confirm still
takes the move back.
"""
from gogadget import board as core
from gogadget import journal as jn
from gogadget import signals as sg
from gogadget.compat import const, forget
from gogadget.points import EMPTY, PASS, colour_name, vertex
from gogadget.rules import game_over
from gogadget.scan import S_EMPTY, S_STONE
from gogadget.view import M_REMOVE, M_STRAY, beside, diff, mark_strays


# Referee.takeback: how far a take-back has come (Referee.tb_ready: the
# board shows the position before the last move).  Private: no other module
# reads them by name (takeback, gameops and referee hold copies), so they
# are no names the board interns.
_TB_NONE = const(0)
_TB_LIFTED = const(1)  # the last stone was lifted on its own
_TB_RETURNING = const(2)  # ...and a prisoner is back: surely a take-back
# Lifted with one prisoner back beside it in the same motion: that reads the
# same as the opponent taking the last stone in one motion by playing there
# (or, with occupancy sensors, the stone slid onto the prisoner's point), so
# the lights ask to restore the record; Confirm still takes the move back.
_TB_AMBIGUOUS = const(3)
_TB = [None]  # type: list  # takeback.py while a take-back may be under way
# Referee._state's slots (referee.py's; tests/test_memory_budget.py).
_MULTI = const(6)
_REPORTED = const(7)
_RESUMED = const(8)
_TB_CONFIRMED = const(9)
_TB_CONFIRMED_MS = const(10)


def refresh(ref):
    diff(ref)
    st = ref._state
    resumed = st[_RESUMED]
    if ref.settler.clean:
        st[_RESUMED] = -1  # decided now, one way or the other
    if _takeback(ref):
        return
    if ref.extras == 1 and ref.wrong == 0 and ref.settler.clean:
        if _try_move(ref, resumed):
            diff(ref)
    elif ref.extras >= 2 and not ref.missings and not ref.wrong:
        if st[_MULTI] != ref.extras:
            st[_MULTI] = ref.extras
            ref.event("prompt", "%d new stones: lift all but one" % ref.extras)
    if ref.extras < 2:
        st[_MULTI] = 0
    if ref.extras and (ref.missings or ref.wrong) and ref.settler.clean:
        mark_strays(ref, resumed)
    if st[_REPORTED] >= 0 and (ref.extras != 1 or ref.extra != st[_REPORTED]):
        st[_REPORTED] = -1
    last = ref.board.last_move()
    if not ref.last_seen and last is not None and (
            last[1] == PASS or ref.prompt[ref.place(last[1])] == sg.P_NONE):
        ref.last_seen = last[1] != PASS
    if last is not None and last[1] != PASS:  # the last move's light
        pl = ref.place(last[1])
        if ref.prompt[pl] == sg.P_NONE:
            ref.prompt[pl] = sg.P_LAST


def _try_move(ref, resumed):
    """The one new stone: a move if it may be; True if accepted."""
    pl = ref.extra
    s = ref.stable[pl]
    board = ref.board
    colour = board.to_move()
    pt = ref.pt(pl)
    if ref.mark[pl] & M_STRAY:
        _report(ref, pl, "stray stone at %s: lift it" % vertex(ref.size, pt))
        return False
    if colour == ref.remote:
        # The remote opponent's turn: their move comes over the link and is
        # lit; a stone put down here now is not a move.
        ref.mark[pl] |= M_STRAY
        _report(ref, pl, "the opponent's turn: lift the stone at %s" % vertex(ref.size, pt))
        return False
    if s != S_STONE and s != colour:
        if ref.missings:
            return False  # a stray (see view.mark_strays), not a stone to turn over
        ref.prompt[pl] = sg.P_WRONG_COLOUR
        _report(ref, pl, "%s stone at %s: %s to play" % (colour_name(s), vertex(ref.size, pt),
                                                          colour_name(colour)))
        return False
    if ref.missings and pl != resumed and s == S_STONE and ref.missings == 1 \
            and beside(ref, pl, ref.missing):
        return False  # a capture in one motion or a slide: cannot tell (see above)
    code = board.play(colour, pt)
    if code != core.OK:
        # The board's reason (core.OCCUPIED ... core.OFF_BOARD) as a prompt.
        ref.prompt[pl] = (sg.P_NONE, sg.P_ILLEGAL, sg.P_ILLEGAL, sg.P_KO, sg.P_SUPERKO,
                          sg.P_ILLEGAL)[code]
        _report(ref, pl, colour_name(colour) + " " + vertex(ref.size, pt) + " "
                + core.REASONS[code])
        return False
    if ref.missings and pl != resumed:
        # Did the move just played take every stone missing from the board,
        # as prisoners?  (Its own stones are not lifted with a move: a slide.)
        scan = ref.stable
        want = ref.want
        cells = board.cells
        opp = 3 - colour
        for p in range(ref.n):
            w = want[p]
            if w != EMPTY and scan[p] == S_EMPTY and not ref.fault[p] \
                    and (w != opp or cells[ref.pt(p)] != EMPTY):
                board.undo()  # a stone is missing that this move does not take
                return False
    accept(ref, colour, pt)
    ref.last_seen = True
    return True


def accept(ref, colour, pt):
    """A move is in the rules core: journal it, then show it."""
    ref.log.append(ref, jn.K_MOVE, colour, pt)
    if ref.clock is not None:
        ref.clock.made(ref, colour)
    ref.sync_want()
    if ref.board.cells[pt] == EMPTY:
        # It took itself off (suicide allowed): it must be lifted too.
        ref.mark[ref.place(pt)] |= M_REMOVE
    # Its text ("B D4") is made when the event is collected (poll_event),
    # after the light: each new string is a look through the board's table
    # of names, 0.7 ms of the move's cycle on the emulated Pico.
    ref.event("move", (pt << 7) | (ref.size << 2) | colour)
    if ref.board.last_captures:
        caps = ref.board.captured_stones()
        ref.event("capture", "%s captured %d: %s" % (
            colour_name(colour), len(caps), " ".join(vertex(ref.size, p) for p in caps)))


def pass_move(ref, colour):
    """A pass: True when it ends the game (two in a row, White's last where
    the rules say so): the referee then lets this module go before the
    count's is loaded (the two are never on the heap at once)."""
    ref.board.pass_move(colour)
    ref.log.append(ref, jn.K_MOVE, colour, PASS)
    if ref.clock is not None:
        ref.clock.made(ref, colour)
    ref.event("pass", colour_name(colour))
    return game_over(ref.board, ref.rules)


def _report(ref, pl, text):
    if ref._state[_REPORTED] != pl:
        ref._state[_REPORTED] = pl
        ref.event("illegal", text)


# -- take-back ------------------------------------------------------------


def _takeback(ref):
    """Follow a take-back in progress; True while it decides the lights.
    The cheap looks are here; what follows a lifted last stone is in
    takeback.py, loaded while a take-back may be under way."""
    board = ref.board
    last = board.last_move()
    if last is None or last[1] == PASS or not ref.last_seen or last[0] == ref.remote:
        # (A remote opponent's move is taken back only at their board.)
        _no_takeback(ref)
        return False
    lp = ref.place(last[1])
    if ref.stable[lp] != S_EMPTY or ref.fault[lp] or ref.want[lp] == EMPTY:
        # Back on the board (or never there to lift: it took itself off).
        if ref.takeback >= _TB_RETURNING:
            _tb().prisoners_again(ref, board)
        _no_takeback(ref)
        return False
    if ref.takeback == _TB_NONE and (ref.missings != 1 or ref.missing != lp or ref.wrong
                                    or not ref.settler.fresh[lp]):
        return False  # not lifted on its own: no take-back starts
    return _tb().follow(ref, board, last, lp)


def _tb():
    m = _TB[0]
    if m is None:
        from gogadget import takeback as m
        _TB[0] = m
    return m


def _no_takeback(ref):
    ref.takeback = _TB_NONE
    ref.tb_ready = False
    ref._state[_TB_CONFIRMED] = 0
    if _TB[0] is not None:
        _TB[0] = None
        forget("takeback")


def take_back(ref):
    """Confirm during a take-back: undo the last move, or say what is
    missing (and do it if the board shows it within takeback._CONFIRM_GRACE_MS)."""
    if not ref.tb_ready:
        ref._state[_TB_CONFIRMED] = 1
        ref._state[_TB_CONFIRMED_MS] = ref.now
        ref.event("prompt", "take-back: put back the captured stones, then Confirm")
        return False
    ref.undo()
    return True
