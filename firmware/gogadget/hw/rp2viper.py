"""RP2040 viper loops (hw/rp2fast.py's table of them): scan, classify, the
LED render, the settler's pass, the referee's diff and want, the frame's
paint, the journal's CRC and the rules core's flood fill, capture and history
search.

Only the rp2 port imports this module (rp2fast.load).  `make mpy` compiles
it alone with `mpy-cross -march=armv6m`, so its .mpy holds Thumb machine
code that the stock firmware loads without running its compiler; nothing
else can import that .mpy, and CPython never imports the source (the
decorator and the ptr types exist only in MicroPython).  tests/test_rp2_fast.py
imports the source under the unix port, which compiles it for x64, to check
every twin against its plain loop.
"""
# pyright: reportUndefinedVariable=false, reportAttributeAccessIssue=false
import micropython

@micropython.viper
def scan(steps: int, plan: ptr8, raw: ptr16, regs: ptr32, settle: int, where: ptr16):
    # hw/muxscanplain.read_raw: a step byte is muxplan's _STEP_*; where: the
    # place of each read in turn; regs: SIO set, SIO clear, ADC CS addresses
    # and the select state the plan starts in, then each select line's GPIO mask (4..11) and each bank's ADC
    # input (12..)
    setr = ptr32(regs[0])
    clrr = ptr32(regs[1])
    adc = ptr32(regs[2])
    i = 0
    n = 0
    while i < steps:
        s = plan[i]
        if s & 16:  # STEP_SET
            p = s & 7  # STEP_LINE
            if s & 8:  # STEP_VALUE
                setr[0] = regs[4 + p]
            else:
                clrr[0] = regs[4 + p]
        if s & 128:  # STEP_READ
            b = (s >> 5) & 3  # STEP_BANK_SHIFT
            cs = 5 | (regs[12 + b] << 12)
            k = 0
            v = 0
            while k <= settle:
                adc[0] = cs
                while not (adc[0] & 0x100):
                    pass
                v = adc[1]
                k += 1
            raw[where[n]] = (v << 4) | (v >> 8)
            n += 1
        i += 1

@micropython.viper
def classify(n: int, raw: ptr16, fault: ptr8, lo: ptr16, hi: ptr16, loc: ptr8,
             scan: ptr8, rails: ptr16, changed: ptr16, most: int) -> int:
    # hw/muxscanplain.classify (the colour above hi is the other one: loc ^ 3;
    # a change is against what scan held, the last call's codes)
    rail_lo = rails[0]
    rail_hi = rails[1]
    fault_code = rails[2]
    empty = rails[3]
    count = 0
    i = 0
    while i < n:
        v = raw[i]
        if (fault[i >> 3] >> (i & 7)) & 1 or v < rail_lo or v > rail_hi:
            c = fault_code
        elif v >= hi[i]:
            c = loc[i] ^ 3
        elif v <= lo[i]:
            c = loc[i]
        else:
            c = empty
        if c != scan[i]:
            if count < most:
                changed[count] = i
            count += 1
        scan[i] = c
        i += 1
    return count

@micropython.viper
def track_look(cal, raw: ptr16, scan: ptr8, todo: ptr16, count: int, fresh: int) -> int:
    # hw/calibplain.look, line for line (xt is signed: ptr16 reads it as 0..65535)
    lim = int(cal.track_limit)
    size = int(cal.size)
    xb = int(cal.xb)
    xw = int(cal.xw)
    reach = int(cal.xreach)
    base = ptr16(cal.base)
    lo = ptr16(cal.lo)
    hi = ptr16(cal.hi)
    held = ptr16(cal.held)
    ctx = ptr16(cal.ctx)
    xt = ptr16(cal.xt)
    saved = ptr16(cal.saved)
    loc = ptr8(cal.loc)
    n = size * size
    top = 65535 - lim
    dirty = 0
    k = 0
    while k < count:
        if fresh:
            i = k
        else:
            i = int(todo[k])
        k += 1
        v = int(raw[i])
        s = int(scan[i])
        if int(lo[i]) <= lim or int(hi[i]) >= top or s == 4:
            continue
        col = i % size
        near = 0
        if col:
            near = int(scan[i - 1]) & 3
        if col < size - 1:
            near |= (int(scan[i + 1]) & 3) << 2
        if i >= size:
            near |= (int(scan[i - size]) & 3) << 4
        if i + size < n:
            near |= (int(scan[i + size]) & 3) << 6
        near |= s << 8
        was = int(ctx[i])
        x = int(xt[i])
        if x > 32767:
            x -= 65536
        if near != was:
            ctx[i] = near
            d = v - int(held[i])
            held[i] = v
            own = (was >> 8) & 0xF
            if was != 0xFFFF and own == 0 and not ((near ^ was) & 0xFF):
                continue
            p = 0
            c = lim >> 1
            m = near
            j = 0
            while j < 4:
                if m & 3 == 1:
                    p += xb
                    c += reach
                elif m & 3 == 2:
                    p += xw
                    c += reach
                m >>= 2
                j += 1
            if was != 0xFFFF and own == 0:
                if not (0 - 2 * lim < d and d < 2 * lim):
                    continue
                d = v - int(base[i])
                if d > p + c:
                    d = p + c
                elif d < p - c:
                    d = p - c
            elif was != 0xFFFF and s == own and 0 - 2 * lim < d and d < 2 * lim:
                d += x
                if d > p + c:
                    d = p + c
                elif d < p - c:
                    d = p - c
            else:
                d = p
                if was == 0xFFFF or s != own:
                    own = 0xFF
            d -= x
            l = int(lo[i]) + d
            h = int(hi[i]) + d
            if l < 0 or h > 65535:
                continue
            xt[i] = (x + d) & 0xFFFF
            lo[i] = l
            hi[i] = h
            if s != own:
                if v >= h:
                    s = int(loc[i]) ^ 3
                elif v <= l:
                    s = int(loc[i])
                else:
                    s = 0
                scan[i] = s
                ctx[i] = (near & 0xFF) | (s << 8)
            continue
        band = lim
        if near == 0:
            band = 2 * lim
            d = v - int(base[i])
            if x:
                lo[i] = int(lo[i]) - x
                hi[i] = int(hi[i]) - x
                xt[i] = 0
        elif s == 0:
            band = 2 * lim
            d = v - int(base[i]) - x
        else:
            d = v - int(held[i])
            if not (0 - lim < d and d < lim):
                held[i] = v
                d = 0
        if 0 - band < d and d < band and d != 0:
            if d > 0:
                step = d >> 4
                if step == 0:
                    step = 1
            else:
                step = 0 - ((0 - d) >> 4)
                if step == 0:
                    step = -1
            base[i] = int(base[i]) + step
            lo[i] = int(lo[i]) + step
            hi[i] = int(hi[i]) + step
            if held[i]:
                held[i] = int(held[i]) + step
            dd = int(base[i]) - int(saved[i])
            if dd > lim or dd < 0 - lim:
                dirty = 1
    return dirty

@micropython.viper
def uses(frame: ptr8, phase: ptr8, n: int) -> int:
    u = 0
    i = 1
    while i < n:
        c = frame[i]
        if c >= 64:  # hw/leds.py's _CODES: any other pattern is steady
            c &= 0x0F
        u |= phase[c]
        i += 1
    return u

@micropython.viper
def render(count: int, frame: ptr8, table: ptr8, key: int, phase: ptr8, state: ptr16,
           buf: ptr8) -> int:
    # hw/ledsplain.render: a row at a time (serpentine), then the status pixels
    size = state[0]
    bpp = state[1]
    lo = state[2]
    n = size * size
    total = 0
    i = 1
    row = 0
    while i <= count:
        if i <= n and row & 1:
            o = (i + size - 2) * bpp + lo
            step = 0 - bpp
        else:
            o = (i - 1) * bpp + lo
            step = bpp
        end = i + size
        if end > count + 1:
            end = count + 1
        while i < end:
            c = frame[i]
            if c >= 64:  # hw/leds.py's _CODES
                c &= 0x0F
            if key:
                if phase[c] & key:
                    c = 0  # frame.OFF: dark in this blink phase
            t = c * 3
            a = table[t]
            b = table[t + 1]
            c = table[t + 2]
            buf[o] = a
            buf[o + 1] = b
            buf[o + 2] = c
            total += a + b + c
            o += step
            i += 1
        row += 1
    return total

@micropython.viper
def settle_places(st, scan: ptr8):
    # settleplain.places: runs, flickers and holds per place; counts in st._out
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
    pl = 0
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
    pl = 0
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
    cells = ptr8(ref.board.cells)
    want = ptr8(ref.want)
    mark = ptr8(ref.mark)
    size = int(ref.size)
    n = int(ref.n)
    pt = size + 1
    col = 0
    pl = 0
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
def paint_places(frame: ptr8, prompt: ptr8, codes: ptr8, n: int):
    # signals.paint: the frame code of every place's prompt
    i = 0
    while i < n:
        frame[1 + i] = codes[prompt[i]]
        i += 1

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
    keys = ptr32(board._keys)
    stack = ptr16(board._stack)
    captured = ptr16(board._captured)
    h = int(board.hash)
    k = 0
    while k < n:
        p = stack[k]
        kk = keys[p]
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
