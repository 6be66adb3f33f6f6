"""RP2040 viper loops of the game: settler, referee, rules core, journal CRC.

The settler's per-place pass and adoption, the referee's diff and want,
the rules core's flood fill, capture and history search, and the
journal's CRC.

Only the rp2 port imports this module (hw/rp2fast.load, with the other
viper modules: hw/viperscan.py says how they are built and checked).
"""
# pyright: reportUndefinedVariable=false, reportAttributeAccessIssue=false
import micropython


@micropython.viper
def settle_places(st, scan: ptr8):
    # settleplain.places: runs, flickers and holds per place; counts in st._out
    _settle_pass(0, 0, st, scan)


@micropython.viper
def _settle_pass(pl: int, c: int, st, scan: ptr8):
    # settle_places's pass from place pl (0); pl and c come first: in
    # registers (hw/viperscan.py's notes), where st and scan held them and
    # every look at a place loaded pl from the stack
    cand = ptr8(st.last)
    run = ptr8(st._run)
    dev = ptr8(st._dev)
    calm = ptr8(st._calm)
    hold = ptr8(st._hold)
    fresh = ptr8(st.fresh)
    stable = ptr8(st.stable)
    out = ptr16(st._out)
    k = int(st._k)
    ks = int(st._k_slide)
    window = int(st._window)
    cap = int(st._cap)
    size = int(st.size)
    n = int(st.n)
    busy = 0
    ready = 0
    moving = 0
    recent = 0
    flick = 0
    coming = 0
    pending = 0
    lo = 0
    hi = 0
    col = 0
    while pl < n:
        s = scan[pl]
        c = cand[pl]
        r = run[pl]
        # A place settled and reading the same (most of them) changes nothing.
        if s != c or r < cap or dev[pl] != 255 or hold[pl] or calm[pl] < cap or c != stable[pl]:
            if s == c:
                if dev[pl] != 255:
                    dev[pl] = 255
                    flick += 1
                    calm[pl] = 0
                elif calm[pl] < cap:
                    calm[pl] = calm[pl] + 1
                if r < cap:
                    r += 1
                    run[pl] = r
            elif dev[pl] == 255 and r >= 2:
                dev[pl] = s
                calm[pl] = 0
                busy += 1
                if fresh[pl]:
                    coming += 1
            else:
                if c != stable[pl] and r >= 2 and c != 0:
                    if r >= 3:
                        hold[pl] = k
                    else:
                        hold[pl] = 2
                if dev[pl] == s:
                    r = 2
                else:
                    r = 1
                dev[pl] = 255
                calm[pl] = 0
                cand[pl] = s
                c = s
                run[pl] = r
            if hold[pl]:
                hold[pl] = hold[pl] - 1
                if c == stable[pl]:
                    coming += 1
            if r < cap or calm[pl] < cap:
                busy += 1
            was = stable[pl]
            if c != was:
                if fresh[pl]:
                    coming += 1
                ok = 0
                if r >= k and dev[pl] == 255:
                    ok = 1
                    # Settler._source: slid from a neighbour reading the same?
                    if r < ks and c != 0 and was == 0:
                        if col > 0 and stable[pl - 1] == c:
                            ok = 0
                        elif col < size - 1 and stable[pl + 1] == c:
                            ok = 0
                        elif pl >= size and stable[pl - size] == c:
                            ok = 0
                        elif pl + size < n and stable[pl + size] == c:
                            ok = 0
                if ok:
                    if not ready:
                        lo = pl
                    ready += 1
                    hi = pl + 1
                else:
                    pending += 1
                    if c != 0:
                        moving += 1
                        if was == 0:
                            coming += 1
                if 2 <= r and r <= window:
                    recent += 1
        pl += 1
        col += 1
        if col == size:
            col = 0
    out[0] = busy
    out[1] = ready
    out[2] = moving
    out[3] = recent
    out[4] = flick
    out[5] = coming
    out[6] = pending
    out[7] = lo
    out[8] = hi


@micropython.viper
def settle_mark(st, lo: int, hi: int):
    # settleplain.mark: the ready places in lo..hi adopted into stable
    cand = ptr8(st.last)
    run = ptr8(st._run)
    dev = ptr8(st._dev)
    fresh = ptr8(st.fresh)
    stable = ptr8(st.stable)
    k = int(st._k)
    ks = int(st._k_slide)
    size = int(st.size)
    n = int(st.n)
    pl = 0
    if st.clean:
        while pl < n:
            fresh[pl] = 0
            pl += 1
    pl = lo
    col = lo % size
    while pl < hi:
        c = cand[pl]
        was = stable[pl]
        r = run[pl]
        if r >= k and c != was and dev[pl] == 255:
            ok = 1
            if r < ks and c != 0 and was == 0:
                if col > 0 and stable[pl - 1] == c:
                    ok = 0
                elif col < size - 1 and stable[pl + 1] == c:
                    ok = 0
                elif pl >= size and stable[pl - size] == c:
                    ok = 0
                elif pl + size < n and stable[pl + size] == c:
                    ok = 0
            if ok:
                fresh[pl] = 2
        pl += 1
        col += 1
        if col == size:
            col = 0
    pl = lo
    while pl < hi:
        if fresh[pl] == 2:
            stable[pl] = cand[pl]
            fresh[pl] = 1
        pl += 1


@micropython.viper
def diff_places(ref) -> int:
    # viewplain.places: prompts and counts per place; -1 when a sensor fault
    # appears or clears, which the plain pass reports (it then runs from the
    # start: the places done here come out the same when done twice)
    pl = 0  # first: in a register (hw/viperscan.py's notes)
    scan = ptr8(ref.stable)
    want = ptr8(ref.want)
    prompt = ptr8(ref.prompt)
    mark = ptr8(ref.mark)
    fault = ptr8(ref.fault)
    since = ptr16(ref.since)
    n = int(ref.n)
    now = (int(ref.now) >> 7) & 0xFFFF  # view._TICK_SHIFT
    oldest = now
    age = 0
    extras = 0
    missing = 0
    wrong = 0
    pending = 0
    ncontra = 0
    faulty = 0
    extra = -1
    miss = -1
    while pl < n:
        s = scan[pl]
        f = fault[pl]
        w = want[pl]
        if s == 4:  # S_FAULT
            if f != 2:  # F_DRIVER
                return -1
            prompt[pl] = 9  # P_FAULT
            faulty = 1
            mark[pl] = mark[pl] & 0xF7  # ~M_CONTRA
        elif f:
            if f == 2:
                return -1
            if s == 0:
                if w == 0:
                    return -1
            elif w != 0:
                return -1
            prompt[pl] = 9
            faulty = 1
            mark[pl] = mark[pl] & 0xF7
        else:
            m = mark[pl]
            p = 0
            if w == 0:
                if s == 0:
                    m = m & 0xFC  # ~(M_REMOVE | M_STRAY)
                elif m & 1:  # M_REMOVE
                    p = 4  # P_REMOVE
                    pending += 1
                else:
                    p = 4
                    extras += 1
                    extra = pl
            elif s == 0:
                if w == 1:
                    p = 2  # P_PUT_BLACK
                else:
                    p = 3  # P_PUT_WHITE
                missing += 1
                miss = pl
                if not (m & 8):
                    # a stone just went: an ignored place beside it that
                    # reads a stone where none belongs (viewplain._blind_beside)
                    # is the plain pass's to ask about
                    size = int(ref.size)
                    col = pl % size
                    q = pl - size
                    if q >= 0 and fault[q] == 1 and want[q] == 0 and scan[q] != 0:
                        return -1
                    q = pl + size
                    if q < n and fault[q] == 1 and want[q] == 0 and scan[q] != 0:
                        return -1
                    q = pl - 1
                    if col > 0 and fault[q] == 1 and want[q] == 0 and scan[q] != 0:
                        return -1
                    q = pl + 1
                    if col < size - 1 and fault[q] == 1 and want[q] == 0 and scan[q] != 0:
                        return -1
            elif s != 3 and s != w:  # S_STONE
                p = 8  # P_WRONG_COLOUR
                wrong += 1
            prompt[pl] = p
            if p != 0:
                if not (m & 8):  # M_CONTRA
                    m = m | 8
                    since[pl] = now
                else:
                    a = (now - since[pl]) & 0xFFFF
                    if a > age:
                        age = a
                        oldest = since[pl]
                ncontra += 1
            else:
                m = m & 0xF7
            mark[pl] = m
        pl += 1
    if faulty:
        ref.has_fault = True
    else:
        ref.has_fault = False
    ref.extra = extra
    ref.missing = miss
    ref.extras = extras
    ref.missings = missing
    ref.wrong = wrong
    ref.pending = pending
    ref.ncontra = ncontra
    ref.oldest = oldest
    ref.unresolved = extras + missing + wrong + pending
    return 0


@micropython.viper
def sync_want(ref):
    # refereeplain.sync_want: want <- the board; places that lost their stone: M_REMOVE
    pl = 0  # first: in a register (diff_places)
    cells = ptr8(ref.board.cells)
    want = ptr8(ref.want)
    mark = ptr8(ref.mark)
    size = int(ref.size)
    n = int(ref.n)
    pt = size + 1
    col = 0
    while pl < n:
        c = cells[pt]
        if c == 0:
            if want[pl] != 0:
                mark[pl] = mark[pl] | 1
        else:
            mark[pl] = mark[pl] & 0xFC
        want[pl] = c
        pl += 1
        pt += 1
        col += 1
        if col == size:
            col = 0
            pt += 1


@micropython.viper
def crc8(data: ptr8, n: int) -> int:
    # journal.crc8: CRC-8, polynomial 0x07
    crc = 0
    i = 0
    while i < n:
        crc ^= data[i]
        b = 0
        while b < 8:
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
            b += 1
        i += 1
    return crc


@micropython.viper
def liberty(board, start: int, gen: int) -> int:
    # boardplain.liberty: 1 at the chain's first liberty, else -(its size)
    cells = ptr8(board.cells)
    mark = ptr8(board._mark)
    stack = ptr16(board._stack)
    w = int(board.stride)
    colour = cells[start]
    mark[start] = gen
    stack[0] = start
    n = 1
    k = 0
    while k < n:
        p = stack[k]
        k += 1
        q = p - 1
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + 1
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p - w
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + w
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
    return 0 - n


@micropython.viper
def remove(board, n: int, top: int) -> int:
    # boardplain.remove: the filled chain off the board; returns the new hash
    cells = ptr8(board.cells)
    stack = ptr16(board._stack)
    captured = ptr16(board._captured)
    h = int(board.hash)
    k = 0
    while k < n:
        p = stack[k]
        x = (p * 7907 + 1031) & 0x7FFF  # board.point_key(p), in machine words
        y = (p * 4099 + 2719) & 0x7FFF
        kk = (((x * x) >> 7) & 0x7FFF) << 15 | (((y * y) >> 11) & 0x7FFF)
        if cells[p] == 2:  # white: board.key()'s rotation by 7 within 30 bits
            kk = ((kk & 0x7FFFFF) << 7) | (kk >> 23)
        h ^= kk
        cells[p] = 0
        captured[top + k] = p
        k += 1
    return h


@micropython.viper
def superko_find(history, k: int, h: int) -> int:
    # boardplain.find: the last index <= k where history (array "i") holds h, else -1
    hist = ptr32(history)
    while k >= 0:
        if hist[k] == h:
            return k
        k -= 1
    return -1
