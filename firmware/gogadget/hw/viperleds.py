"""RP2040 viper loops of the LED frame: its paint, blink phases and render.

signals.paint's pass from the prompts, and hw/ledsplain.uses and render.

Only the rp2 port imports this module (hw/rp2fast.load, with the other
viper modules: hw/viperscan.py says how they are built and checked).
"""
# pyright: reportUndefinedVariable=false, reportAttributeAccessIssue=false
import micropython


@micropython.viper
def paint_places(frame: ptr8, prompt: ptr8, codes: ptr8, n: int):
    # signals.paint: the frame code of every place's prompt
    i = 0
    while i < n:
        frame[1 + i] = codes[prompt[i]]
        i += 1


@micropython.viper
def uses(frame: ptr8, phase: ptr8, n: int) -> int:
    # hw/ledsplain.uses: the blink phases the frame's codes use
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
    return int(_render_from(1, 0, count, frame, table, key, phase, state, buf))


@micropython.viper
def _render_from(i: int, o: int, count: int, frame: ptr8, table: ptr8, key: int, phase: ptr8,
                 state: ptr16, buf: ptr8) -> int:
    # render's rows from LED i (1); i and o first: in registers (hw/viperscan.py's notes)
    size = state[0]
    bpp = state[1]
    lo = state[2]
    n = size * size
    total = 0
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
