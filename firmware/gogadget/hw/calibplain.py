"""calib.track's look at the places as a plain loop: what every board but
the Pico runs (the Pico runs its viper twin, hw/viperscan.track_look, line
for line the same), so a Pico never holds this module's bytecode."""
from gogadget.compat import const
from gogadget.scan import S_BLACK, S_EMPTY, S_FAULT, S_WHITE

# A baseline moves by 1/2**_TRACK_SHIFT of its drift a look (calib.py;
# viperscan.track_look's >> 4: tests/test_hw_track.py checks they agree).
_TRACK_SHIFT = const(4)


def look(cal, raw, scan, todo, count, fresh):
    """calib.track's look at count places (todo's, or with fresh every place
    from 0):
    -> whether some baseline moved a tracking band's width from the file."""
    lim = cal.track_limit
    size = cal.size
    dirty = False
    base = cal.base
    lo = cal.lo
    hi = cal.hi
    held = cal.held
    ctx = cal.ctx
    xt = cal.xt
    for k in range(count):
        i = k if fresh else todo[k]
        v = raw[i]
        s = scan[i]
        if lo[i] <= lim or hi[i] >= 65535 - lim or s == S_FAULT:
            continue
        # the four neighbours' scan codes, 2 bits each (0: empty or off
        # the board), and its own above them
        near = s << 8
        c = i % size
        if c:
            near |= scan[i - 1] & 3
        if c < size - 1:
            near |= (scan[i + 1] & 3) << 2
        if i >= size:
            near |= (scan[i - size] & 3) << 4
        if i + size < len(scan):
            near |= (scan[i + size] & 3) << 6
        was = ctx[i]
        if near != was:  # the place or a neighbour changed: a new reference
            ctx[i] = near
            d = v - held[i]  # the jump since the last look
            held[i] = v
            own = (was >> 8) & 0xF
            if was != 0xFFFF and own == S_EMPTY and not (near ^ was) & 0xFF:
                continue  # a stone put here: the offset it had stays
            # the neighbours' typical field, and how far a real one strays
            # from it (three times the typical, per stone, and the noise)
            p = 0
            c = lim >> 1
            m = near
            for _ in range(4):
                if m & 3 == S_BLACK:
                    p += cal.xb
                    c += cal.xreach
                elif m & 3 == S_WHITE:
                    p += cal.xw
                    c += cal.xreach
                m >>= 2
            if was != 0xFFFF and own == S_EMPTY:
                if not -2 * lim < d < 2 * lim:
                    continue  # a stone put here (or a hand): the offset stays
                # only the neighbours changed: the offset is the reading's
                # distance from the baseline, as far as a neighbour's field
                # reaches (a hand's may be further: seed 1500904)
                d = v - base[i]
                if d > p + c:
                    d = p + c
                elif d < p - c:
                    d = p - c
            elif was != 0xFFFF and s == own and -2 * lim < d < 2 * lim:
                # a stone still there, only its neighbours changed: its
                # reading moved by their field's change, and its offset with
                # it (the typical field raised a weak black stone's
                # threshold over it among white stones whose field was
                # small: seed 3200213), as far as a neighbour's field reaches
                d += xt[i]
                if d > p + c:
                    d = p + c
                elif d < p - c:
                    d = p - c
            else:  # a first look, a stone's place jolted, or lifted: the typical field
                d = p
                if was == 0xFFFF or s != own:
                    own = 0xFF
            d -= xt[i]
            if lo[i] + d < 0 or hi[i] + d > 65535:
                continue
            xt[i] += d
            lo[i] += d
            hi[i] += d
            if s != own:  # the neighbours' field had pushed it over: read it again
                s = cal.loc[i] ^ 3 if v >= hi[i] else cal.loc[i] if v <= lo[i] else S_EMPTY
                scan[i] = s
                ctx[i] = (near & 0xFF) | s << 8
            continue
        band = lim
        if near == 0:  # empty among empties: back to the baseline itself,
            # from anywhere short of a threshold (after a power cut the file's
            # baseline may lag by a band, and the diagonals' field adds to
            # it: seed 2100504, an edge point stuck just short of black)
            band = 2 * lim
            d = v - base[i]
            if xt[i]:  # no neighbour's field left to offset
                lo[i] -= xt[i]
                hi[i] -= xt[i]
                xt[i] = 0
        elif s == S_EMPTY:  # empty among the same stones: the offset holds their
            # field, the rest is drift (after a power cut the offset is their
            # typical field, and the real one may differ from it by most of
            # a threshold: seed 3400616, a black eye read as a black stone)
            band = 2 * lim
            d = v - base[i] - xt[i]
        else:  # a stone among the same stones: only drift moves the reading
            d = v - held[i]
            if not -lim < d < lim:
                held[i] = v
                d = 0
        if -band < d < band and d:
            step = d >> _TRACK_SHIFT if d > 0 else -((-d) >> _TRACK_SHIFT)
            if not step:
                step = 1 if d > 0 else -1
            base[i] += step
            lo[i] += step
            hi[i] += step
            if held[i]:
                held[i] += step
            # (the stone samples drift with it: the file's are moved at the
            # write-back, samples())
            d = base[i] - cal.saved[i]
            if d > lim or d < -lim:
                dirty = True
    return dirty
