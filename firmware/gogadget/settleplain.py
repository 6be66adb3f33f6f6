"""The settler's per-place pass and its adoption as plain loops: what every
board but the Pico runs (the Pico runs their viper twins,
hw/vipergame.settle_places and settle_mark, line for line the same), so a
Pico never holds this module's bytecode.  settle.py loads it when a
Settler is made and no twin was installed (hw/rp2fast.install)."""
from gogadget.compat import const
from gogadget.scan import S_EMPTY

_NO_DEV = const(255)  # settle._NO_DEV: no reading is off by one scan


def places(st, scan):
    """One pass over every place: runs, flickers, holds; counts into
    st._out (by settle's _O_* indexes) what Settler._debounce decides on."""
    cand = st.last
    run = st._run
    dev = st._dev
    calm = st._calm
    hold = st._hold
    fresh = st.fresh
    stable = st.stable
    k = st._k
    window = st._window
    cap = st._cap
    busy = ready = moving = recent = flick = coming = pending = 0
    lo = hi = 0  # the places ready to be adopted lie in lo..hi-1
    for pl in range(st.n):
        s = scan[pl]
        c = cand[pl]
        r = run[pl]
        if s == c:
            if dev[pl] != _NO_DEV:
                dev[pl] = _NO_DEV
                flick += 1  # off for one scan only: a flicker
                calm[pl] = 0
            elif calm[pl] < cap:
                calm[pl] += 1
            if r < cap:
                r += 1
                run[pl] = r
        elif dev[pl] == _NO_DEV and r >= 2:
            dev[pl] = s  # one scan off: forgiven, unless it lasts
            calm[pl] = 0
            busy += 1
            if fresh[pl]:
                coming += 1  # just adopted, and already off: wait and see
        else:
            if c != stable[pl] and r >= 2 and c != S_EMPTY:
                # A stone on its way, cut short: long enough for one that
                # read 3+ scans, a moment for what may be a double flicker.
                hold[pl] = k if r >= 3 else 2
            r = 2 if dev[pl] == s else 1
            dev[pl] = _NO_DEV
            calm[pl] = 0
            cand[pl] = c = s
            run[pl] = r
        if hold[pl]:
            hold[pl] -= 1
            if c == stable[pl]:
                coming += 1
        if r < cap or calm[pl] < cap:
            busy += 1
        if c != stable[pl]:
            if fresh[pl]:
                coming += 1  # just adopted, and already changing: wait and see
            if r >= k and dev[pl] == _NO_DEV and (r >= st._k_slide or not st._source(pl)):
                if not ready:
                    lo = pl
                ready += 1
                hi = pl + 1
            else:
                pending += 1
                if c != S_EMPTY:
                    moving += 1  # a stone on its way (a lift alone need not wait)
                    if stable[pl] == S_EMPTY:
                        coming += 1  # a new one
            if 2 <= r <= window:
                recent += 1
    out = st._out
    out[0] = busy
    out[1] = ready
    out[2] = moving
    out[3] = recent
    out[4] = flick
    out[5] = coming
    out[6] = pending
    out[7] = lo
    out[8] = hi


def mark(st, lo, hi):
    """The adoption itself: fresh restarts when the board was clean, the
    places ready in lo..hi go into stable."""
    cand = st.last
    stable = st.stable
    fresh = st.fresh
    if st.clean:  # batches before the board is clean again count as one
        for pl in range(st.n):
            fresh[pl] = 0
    # The whole batch is decided on the view before it (a place adopted
    # first must not make its neighbour look slid from it).
    for pl in range(lo, hi):
        if st._ready(pl):
            fresh[pl] = 2
    for pl in range(lo, hi):
        if fresh[pl] == 2:
            stable[pl] = cand[pl]
            fresh[pl] = 1
