"""The LED chain's passes over a frame as plain loops: what every board but
the Pico runs (the Pico runs their viper twins, hw/rp2viper.uses and
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


def render(count, frame, table, base, led, buf):
    """Copy the colour bytes of frame[1..count]'s codes from table (from
    base: the blink phases' table) to each LED's place in buf: -> the sum
    of the bytes written (the current, leds._limit)."""
    total = 0
    for i in range(1, count + 1):
        c = frame[i]
        if c >= _CODES:
            c &= 0x0F
        t = base + c * 3
        o = led[i]
        a = table[t]
        b = table[t + 1]
        c = table[t + 2]
        buf[o] = a
        buf[o + 1] = b
        buf[o + 2] = c
        total += a + b + c
    return total
