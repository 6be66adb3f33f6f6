"""A take-back under way (play.py's notes): the last move's stone lifted,
its prisoners coming back, the lights, Confirm's grace.  Loaded by play.py
when the last stone is lifted on its own, let go of when that is over: a
game in progress seldom takes a move back.  (It cannot import play.py,
which loads it: the stages are play's, copied; tests/test_memory_budget.py
checks them.)"""
from gogadget import board as core
from gogadget import signals as sg
from gogadget.compat import const, ticks_diff
from gogadget.points import BLACK
from gogadget.scan import S_EMPTY, S_STONE
from gogadget.view import M_REMOVE, M_STRAY, beside, diff, mark_strays

_CONFIRM_GRACE_MS = const(1000)  # a Confirm just before the last prisoner settles still counts
_TB_NONE = const(0)  # play._TB_NONE
_TB_LIFTED = const(1)  # play._TB_LIFTED
_TB_RETURNING = const(2)  # play._TB_RETURNING
_TB_AMBIGUOUS = const(3)  # play._TB_AMBIGUOUS
_TB_CONFIRMED = const(9)  # Referee._state's slots (referee.py's)
_TB_CONFIRMED_MS = const(10)


def follow(ref, board, last, pl):
    """The last move's stone at place pl is off the board (play._takeback):
    is this a take-back, how far has it come, what do the lights ask?"""
    caps = board.captured_stones()
    opp = 3 - last[0]
    scan = ref.stable
    mark = ref.mark
    if ref.takeback == _TB_NONE:
        # Lifted on its own, or with prisoners put back in the same motion;
        # nothing else out of place (play._takeback looked at the rest): is
        # every new stone on the board a prisoner of the last move, back in
        # a colour it could be?
        n = 0
        for pt in caps:
            p = ref.place(pt)
            s = scan[p]
            if not mark[p] & M_REMOVE and s != S_EMPTY:
                if s != S_STONE and s != opp:
                    return False
                n += 1
        if n != ref.extras:
            return False
        if not ref.extras:
            ref.takeback = _TB_LIFTED
        elif ref.extras == 1 and beside(ref, pl, ref.extra):
            ref.takeback = _TB_AMBIGUOUS
        else:
            ref.takeback = _TB_RETURNING
    present = returned = 0
    back = 0
    for pt in caps:
        p = ref.place(pt)
        s = scan[p]
        if s == S_STONE or s == opp:
            present += 1
            if not mark[p] & M_REMOVE:
                returned += 1  # lifted as a prisoner, now put back
                back = pt
    if returned >= 2:
        ref.takeback = _TB_RETURNING  # no single move puts two stones down
    elif returned and ref.takeback == _TB_LIFTED:
        # One prisoner back after the last stone was lifted: a take-back,
        # unless a stone there is the opponent's move taking the last stone
        # (its prisoner lifted first): then it cannot tell, as in one motion.
        # Would opp at back be a legal move that captures the last move's
        # stone and nothing else?  (Tried on the rules core, then undone.)
        retakes = False
        if board.play(opp, back) == core.OK:
            retakes = board.last_captures == 1 and board.captured_stones()[0] == last[1]
            board.undo()
        ref.takeback = _TB_AMBIGUOUS if retakes else _TB_RETURNING
    # The position before the last move: its stone off, every prisoner
    # back, nothing else out of place.
    ready = present == len(caps) and ref.missings == 1 and not ref.wrong \
        and ref.extras + ref.pending == present
    st = ref._state
    if ready and st[_TB_CONFIRMED] and ticks_diff(ref.now, st[_TB_CONFIRMED_MS]) < _CONFIRM_GRACE_MS:
        st[_TB_CONFIRMED] = 0
        ref.tb_ready = True
        ref.undo()  # Confirm came just before the last prisoner had settled
        return True
    if ready and not ref.tb_ready:
        ref.event("prompt", "take-back ready: press Confirm (or put the stone back)")
    ref.tb_ready = ready
    if ref.extras > returned or ref.wrong:
        mark_strays(ref, -1)
        for pt in caps:
            mark[ref.place(pt)] &= ~M_STRAY
    if ref.takeback == _TB_RETURNING:
        # The last stone's point shows the take-back; prisoners still to
        # come back are lit in their colour.
        prompt = ref.prompt
        prompt[pl] = sg.P_TAKEBACK
        put = sg.P_PUT_BLACK if opp == BLACK else sg.P_PUT_WHITE
        for pt in caps:
            p = ref.place(pt)
            s = scan[p]
            if s == S_STONE or s == opp:
                prompt[p] = sg.P_NONE
            elif s == S_EMPTY:
                prompt[p] = put
            else:
                prompt[p] = sg.P_WRONG_COLOUR
    return True


def prisoners_again(ref, board):
    """The last stone is back: prisoners already returned must come off again."""
    scan = ref.stable
    mark = ref.mark
    for pt in board.captured_stones():
        pl = ref.place(pt)
        if scan[pl] != S_EMPTY:
            mark[pl] = (mark[pl] | M_REMOVE) & ~M_STRAY
    diff(ref)
