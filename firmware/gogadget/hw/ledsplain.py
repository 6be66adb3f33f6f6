"""The LED chain's passes over a frame as plain loops: what every board but
the Pico runs (the Pico runs their viper twins, hw/viperleds.uses and
render, line for line the same), so a Pico never holds this module's
bytecode.  hw/leds.py loads it when a chain is made without them."""
from gogadget.compat import const

_CODES = const(64)  # leds._CODES: the codes the tables hold


def uses(frame, phase, n):
    """The blink phases (leds._SLOW, _FAST) frame[1:n] uses."""
    u = 0
    for i in range(1, n):
        c = frame[i]
        if c >= _CODES:  # any other pattern is steady
            c &= 0x0F
        u |= phase[c]
    return u


def render(count, frame, table, key, phase, state, buf):
    """Copy the colour bytes of frame[1..count]'s codes from table to each
    LED's place in buf (code 0, frame.OFF, where the code's blink phase is
    off in key): -> the sum of the bytes written (the current,
    leds._render).  state: the board's size, the buffer's bytes per LED and
    where an LED's first colour byte sits in them; the board's LEDs run
    serpentine (pins.led_index: even rows left to right, odd rows right to
    left), a row at a time, then the status pixels."""
    size = state[0]
    bpp = state[1]
    lo = state[2]
    n = size * size
    total = 0
    i = 1
    row = 0
    while i <= count:
        if i <= n and row & 1:
            o = (i + size - 2) * bpp + lo  # the row's first slot is its last LED
            step = -bpp
        else:
            o = (i - 1) * bpp + lo
            step = bpp
        end = min(i + size, count + 1)
        while i < end:
            c = frame[i]
            if c >= _CODES:
                c &= 0x0F
            if key and phase[c] & key:
                c = 0
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
