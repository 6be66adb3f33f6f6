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
from gogadget.compat import const, ticks_diff
from gogadget.points import EMPTY, BLACK, PASS, colour_name, vertex
from gogadget.rules import game_over
from gogadget.scan import S_EMPTY, S_STONE
from gogadget.view import M_REMOVE, M_STRAY, diff

_CONFIRM_GRACE_MS = const(1000)  # a Confirm just before the last prisoner settles still counts
_ILLEGAL_PROMPT = (sg.P_NONE, sg.P_ILLEGAL, sg.P_ILLEGAL, sg.P_KO, sg.P_SUPERKO, sg.P_ILLEGAL)

# Referee.takeback: how far a take-back has come (Referee.tb_ready: the
# board shows the position before the last move).
TB_NONE = const(0)
_TB_LIFTED = const(1)  # the last stone was lifted on its own
_TB_RETURNING = const(2)  # ...and a prisoner is back: surely a take-back
# Lifted with one prisoner back beside it in the same motion: that reads the
# same as the opponent taking the last stone in one motion by playing there
# (or, with occupancy sensors, the stone slid onto the prisoner's point), so
# the lights ask to restore the record; Confirm still takes the move back.
_TB_AMBIGUOUS = const(3)


def refresh(ref):
    diff(ref)
    resumed = ref.resumed
    if ref.settler.clean:
        ref.resumed = -1  # decided now, one way or the other
    if _takeback(ref):
        return
    if ref.extras == 1 and ref.wrong == 0 and ref.settler.clean:
        if _try_move(ref, resumed):
            diff(ref)
    elif ref.extras >= 2 and not ref.missings and not ref.wrong:
        if ref.multi != ref.extras:
            ref.multi = ref.extras
            ref.event("prompt", "%d new stones: lift all but one" % ref.extras)
    if ref.extras < 2:
        ref.multi = 0
    if ref.extras and (ref.missings or ref.wrong) and ref.settler.clean:
        _mark_strays(ref, resumed)
    if ref.reported >= 0 and (ref.extras != 1 or ref.extra != ref.reported):
        ref.reported = -1
    last = ref.board.last_move()
    if not ref.last_seen and last is not None and (
            last[1] == PASS or ref.prompt[ref.place(last[1])] == sg.P_NONE):
        ref.last_seen = last[1] != PASS
    mark_last(ref)


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
            return False  # a stray (see _mark_strays), not a stone to turn over
        ref.prompt[pl] = sg.P_WRONG_COLOUR
        _report(ref, pl, "%s stone at %s: %s to play" % (colour_name(s), vertex(ref.size, pt),
                                                          colour_name(colour)))
        return False
    if ref.missings and pl != resumed and s == S_STONE and ref.missings == 1 \
            and _beside(ref, pl, ref.missing):
        return False  # a capture in one motion or a slide: cannot tell (see above)
    code = board.play(colour, pt)
    if code != core.OK:
        ref.prompt[pl] = _ILLEGAL_PROMPT[code]
        _report(ref, pl, "%s %s %s" % (colour_name(colour), vertex(ref.size, pt),
                                       core.REASONS[code]))
        return False
    if ref.missings and pl != resumed and not _missing_captured(ref, 3 - colour):
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
    ref.event("move", colour_name(colour) + " " + vertex(ref.size, pt))
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


def _missing_captured(ref, opp):
    """Did the move just played take every stone missing from the board, as
    prisoners?  (Its own stones are not lifted with a move: a slide.)"""
    scan = ref.stable
    want = ref.want
    cells = ref.board.cells
    for pl in range(ref.n):
        w = want[pl]
        if w != EMPTY and scan[pl] == S_EMPTY and not ref.fault[pl] \
                and (w != opp or cells[ref.pt(pl)] != EMPTY):
            return False
    return True


def _beside(ref, a, b):
    size = ref.size
    d = a - b
    return (d == 1 or d == -1) and a // size == b // size or d == size or d == -size


def _mark_strays(ref, resumed):
    """Stones put down while the position is not right are strays."""
    prompt = ref.prompt
    mark = ref.mark
    for pl in range(ref.n):
        if prompt[pl] == sg.P_REMOVE and not mark[pl] & M_REMOVE and pl != resumed:
            mark[pl] |= M_STRAY


def _report(ref, pl, text):
    if ref.reported != pl:
        ref.reported = pl
        ref.event("illegal", text)


def mark_last(ref):
    last = ref.board.last_move()
    if last is not None and last[1] != PASS:
        pl = ref.place(last[1])
        if ref.prompt[pl] == sg.P_NONE:
            ref.prompt[pl] = sg.P_LAST


# -- take-back ------------------------------------------------------------


def _takeback(ref):
    """Follow a take-back in progress; True while it decides the lights."""
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
            _prisoners_again(ref, board)
        _no_takeback(ref)
        return False
    caps = board.captured_stones()
    opp = 3 - last[0]
    scan = ref.stable
    mark = ref.mark
    if ref.takeback == TB_NONE:
        # Lifted on its own, or with prisoners put back in the same motion;
        # nothing else out of place.
        if ref.missings != 1 or ref.missing != lp or ref.wrong or not ref.settler.fresh[lp] \
                or not _only_prisoners_back(ref, caps, opp):
            return False
        if not ref.extras:
            ref.takeback = _TB_LIFTED
        elif ref.extras == 1 and _beside(ref, lp, ref.extra):
            ref.takeback = _TB_AMBIGUOUS
        else:
            ref.takeback = _TB_RETURNING
    present = returned = 0
    back = 0
    for pt in caps:
        pl = ref.place(pt)
        s = scan[pl]
        if s == S_STONE or s == opp:
            present += 1
            if not mark[pl] & M_REMOVE:
                returned += 1  # lifted as a prisoner, now put back
                back = pt
    if returned >= 2:
        ref.takeback = _TB_RETURNING  # no single move puts two stones down
    elif returned and ref.takeback == _TB_LIFTED:
        # One prisoner back after the last stone was lifted: a take-back,
        # unless a stone there is the opponent's move taking the last stone
        # (its prisoner lifted first): then it cannot tell, as in one motion.
        ref.takeback = _TB_AMBIGUOUS if _retakes(board, opp, back, last[1]) else _TB_RETURNING
    # The position before the last move: its stone off, every prisoner
    # back, nothing else out of place.
    ready = present == len(caps) and ref.missings == 1 and not ref.wrong \
        and ref.extras + ref.pending == present
    if ready and ref.tb_confirmed and ticks_diff(ref.now, ref.tb_confirmed_ms) < _CONFIRM_GRACE_MS:
        ref.tb_confirmed = False
        ref.tb_ready = True
        ref.undo()  # Confirm came just before the last prisoner had settled
        return True
    if ready and not ref.tb_ready:
        ref.event("prompt", "take-back ready: press Confirm (or put the stone back)")
    ref.tb_ready = ready
    if ref.extras > returned or ref.wrong:
        _mark_strays(ref, -1)
        for pt in caps:
            mark[ref.place(pt)] &= ~M_STRAY
    if ref.takeback == _TB_RETURNING:
        _takeback_lights(ref, lp, caps, opp)
    return True


def _retakes(board, colour, pt, last):
    """Would colour at pt be a legal move that captures the last move's
    stone and nothing else?  (Tried on the rules core, then undone.)"""
    if board.play(colour, pt) != core.OK:
        return False
    took = board.last_captures == 1 and board.captured_stones()[0] == last
    board.undo()
    return took


def _only_prisoners_back(ref, caps, opp):
    """Is every new stone on the board a prisoner of the last move, back in
    a colour it could be?"""
    scan = ref.stable
    mark = ref.mark
    n = 0
    for pt in caps:
        pl = ref.place(pt)
        s = scan[pl]
        if not mark[pl] & M_REMOVE and s != S_EMPTY:
            if s != S_STONE and s != opp:
                return False
            n += 1
    return n == ref.extras


def _no_takeback(ref):
    ref.takeback = TB_NONE
    ref.tb_ready = False
    ref.tb_confirmed = False


def _takeback_lights(ref, lp, caps, opp):
    """The last stone's point shows the take-back; prisoners still to come
    back are lit in their colour."""
    prompt = ref.prompt
    scan = ref.stable
    prompt[lp] = sg.P_TAKEBACK
    put = sg.P_PUT_BLACK if opp == BLACK else sg.P_PUT_WHITE
    for pt in caps:
        pl = ref.place(pt)
        s = scan[pl]
        if s == S_STONE or s == opp:
            prompt[pl] = sg.P_NONE
        elif s == S_EMPTY:
            prompt[pl] = put
        else:
            prompt[pl] = sg.P_WRONG_COLOUR


def _prisoners_again(ref, board):
    """The last stone is back: prisoners already returned must come off again."""
    scan = ref.stable
    mark = ref.mark
    for pt in board.captured_stones():
        pl = ref.place(pt)
        if scan[pl] != S_EMPTY:
            mark[pl] = (mark[pl] | M_REMOVE) & ~M_STRAY
    diff(ref)


def take_back(ref):
    """Confirm during a take-back: undo the last move, or say what is
    missing (and do it if the board shows it within _CONFIRM_GRACE_MS)."""
    if not ref.tb_ready:
        ref.tb_confirmed = True
        ref.tb_confirmed_ms = ref.now
        ref.event("prompt", "take-back: put back the captured stones, then Confirm")
        return False
    ref.undo()
    return True
