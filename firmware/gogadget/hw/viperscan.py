"""RP2040 viper loops of the sensors: the mux scan, classify, drift tracking.

The viper twins of hw/muxscanplain.read_raw and classify and of
hw/calibplain.look (hw/rp2fast.py's table of them).  Only the rp2 port
imports this module and the other two, hw/viperleds.py and
hw/vipergame.py (rp2fast.load).  `make mpy` compiles each alone with
`mpy-cross -march=armv6m`, so its .mpy holds Thumb machine code that the
stock firmware loads without running its compiler; nothing else can import
that .mpy, and CPython never imports the source (the decorator and the ptr
types exist only in MicroPython).  tests/test_rp2_fast.py imports the
sources under the unix port, which compiles them for x64, to check every
twin against its plain loop.

Viper keeps a function's first two locals (its first arguments) in
registers on the RP2040 (r4, r5) and every other one on the stack, so a
long pass runs in a function of its own whose first two arguments are its
hottest locals (_classify_from here; _render_from, _settle_pass): the
twin's public signature stays the plain loop's.
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
    return int(_classify_from(0, 0, n, raw, fault, lo, hi, loc, scan, rails, changed, most))


@micropython.viper
def _classify_from(i: int, v: int, n: int, raw: ptr16, fault: ptr8, lo: ptr16, hi: ptr16, loc: ptr8,
                   scan: ptr8, rails: ptr16, changed: ptr16, most: int) -> int:
    # classify's pass from place i (0); i and v first: in registers (see above)
    rail_lo = rails[0]
    rail_hi = rails[1]
    fault_code = rails[2]
    empty = rails[3]
    count = 0
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
