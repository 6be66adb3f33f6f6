"""diff()'s pass over every place, plain: hw/vipergame.py's diff_places is
its viper twin (tests/test_rp2_fast.py), and hands this pass the rare
places (a sensor fault that came or went, a blind place beside a stone
that went); where no viper code runs, this is the pass.  The notes on
faults and blind places are view.py's."""
from gogadget import signals as sg
from gogadget.compat import const
from gogadget.points import EMPTY, BLACK, vertex
from gogadget.scan import S_EMPTY, S_STONE, S_FAULT

# view.py's (tests/test_memory_budget.py checks they are the same): this
# module is loaded by view's diff, which it cannot import back.
_M_REMOVE = const(1)  # view.M_REMOVE
_M_STRAY = const(2)  # view.M_STRAY
_M_CONTRA = const(8)  # view.M_CONTRA
_F_IGNORED = const(1)  # view's F_IGNORED
_F_DRIVER = const(2)  # view.F_DRIVER
_TICK_SHIFT = const(7)  # view._TICK_SHIFT


def places(ref):
    """diff's pass over every place (hw/rp2fast.py's diff_places is its
    viper twin: tests/test_rp2_fast.py).  True when a blind place beside a
    stone that went is no longer ignored (see the notes): the places before
    it in this pass need doing again."""
    scan = ref.stable
    want = ref.want
    prompt = ref.prompt
    mark = ref.mark
    fault = ref.fault
    since = ref.since
    now = (ref.now >> _TICK_SHIFT) & 0xFFFF
    extras = missing = wrong = pending = 0
    ncontra = 0
    oldest = now
    age = 0
    ref.has_fault = False
    ref.extra = -1
    ref.missing = -1
    again = False
    for pl in range(ref.n):
        s = scan[pl]
        w = want[pl]
        if s == S_FAULT:
            if fault[pl] != _F_DRIVER:
                fault[pl] = _F_DRIVER
                ref.event("fault", "sensor %s faulty" % vertex(ref.size, ref.pt(pl)))
            prompt[pl] = sg.P_FAULT
            ref.has_fault = True
            mark[pl] &= ~_M_CONTRA
            continue
        if fault[pl] == _F_DRIVER or (fault[pl] and (s == S_EMPTY) == (w == EMPTY)):
            # The driver's fault cleared, or an ignored place agrees with the
            # game again: trust it.
            fault[pl] = 0
            ref.event("fault", "sensor %s ok" % vertex(ref.size, ref.pt(pl)))
        if fault[pl]:
            prompt[pl] = sg.P_FAULT
            ref.has_fault = True
            mark[pl] &= ~_M_CONTRA
            continue
        m = mark[pl]
        p = sg.P_NONE
        if w == EMPTY:
            if s == S_EMPTY:
                m &= ~(_M_REMOVE | _M_STRAY)
            elif m & _M_REMOVE:
                p = sg.P_REMOVE
                pending += 1
            else:
                p = sg.P_REMOVE
                extras += 1
                ref.extra = pl
        elif s == S_EMPTY:
            p = sg.P_PUT_BLACK if w == BLACK else sg.P_PUT_WHITE
            missing += 1
            ref.missing = pl
            if not m & _M_CONTRA:
                # The stone at pl just went: a blind (ignored) empty place
                # beside it may have got it; one is asked about now (_unblind).
                size = ref.size
                col = pl % size
                if pl >= size and _unblind(ref, pl - size, pl):
                    again = True
                if pl + size < ref.n and _unblind(ref, pl + size, pl):
                    again = True
                if col > 0 and _unblind(ref, pl - 1, pl):
                    again = True
                if col < size - 1 and _unblind(ref, pl + 1, pl):
                    again = True
        elif s != S_STONE and s != w:
            p = sg.P_WRONG_COLOUR
            wrong += 1
        prompt[pl] = p
        # A prisoner still down counts too: a switch held closed by the
        # neighbours' field looks just like one (hardware/README, the reed).
        if p != sg.P_NONE:
            if not m & _M_CONTRA:
                m |= _M_CONTRA
                since[pl] = now
            elif (now - since[pl]) & 0xFFFF > age:
                age = (now - since[pl]) & 0xFFFF
                oldest = since[pl]
            ncontra += 1
        else:
            m &= ~_M_CONTRA
        mark[pl] = m
    ref.extras = extras
    ref.missings = missing
    ref.wrong = wrong
    ref.pending = pending
    ref.ncontra = ncontra
    ref.oldest = oldest
    ref.unresolved = extras + missing + wrong + pending
    return again


def _unblind(ref, nb, pl):
    """Stop ignoring nb if it is blind and should be empty, and ask about it."""
    if ref.fault[nb] != _F_IGNORED or ref.want[nb] != EMPTY or ref.stable[nb] == S_EMPTY \
            or ref.phase != "play":
        return False  # (one that reads empty agrees: the pass clears it)
    ref.fault[nb] = 0
    ref.mark[nb] |= _M_STRAY  # whatever it reads is not a move
    ref.ask_stuck = nb
    size = ref.size
    there = vertex(size, ref.pt(nb))
    ref.event("fault", "check %s (its sensor is ignored): the stone at %s went, and one slid "
              "onto %s is not seen; lift any stone there, or press Confirm to ignore the "
              "sensor again" % (there, vertex(size, ref.pt(pl)), there))
    return True
