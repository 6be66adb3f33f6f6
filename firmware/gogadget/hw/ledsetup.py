"""LedChain's set-up (hw/leds.py): the chain's layout and byte order, the
blink phases per code and the buffers.  leds.LedChain loads this module when
a chain is made and lets go of it: its bytecode is needed once."""
from array import array

from gogadget import frame as F
from gogadget.compat import const

_SLOW = const(1)  # leds._SLOW, _FAST, _CODES (tests/test_hw_ws2812.py checks they agree)
_FAST = const(2)
_CODES = const(64)


def setup(chain, np, size, fast):
    """Set LedChain chain up (its __init__'s arguments) -> its passes over
    a frame (uses, render): the viper twins on the RP2040, elsewhere the
    plain loops of hw/ledsplain.py (which a Pico never loads)."""
    count = size * size + F.STATUS_PIXELS
    if np.n < count:
        raise ValueError("%dx%d needs %d LEDs, the chain has %d" % (size, size, count, np.n))
    bpp = np.bpp
    order = np.ORDER
    # The three colour bytes of an LED are adjacent in the chain's buffer
    # (G R B for neopixel and hw/ws2812pio.py): LED k's first is at
    # k * bpp + lo; then where red, green, blue sit from there.
    lo = min(order[0], order[1], order[2])
    pos = [order[0] - lo, order[1] - lo, order[2] - lo]
    if sorted(pos) != [0, 1, 2]:
        raise ValueError("colour bytes of an LED must be adjacent, ORDER %r" % (order,))
    # leds.py's state: the render's layout (the board's LEDs: size, bpp,
    # lo; then the status pixels), pos, and show()'s: the blink phases the
    # last frame uses, fresh (the chain's content is unknown: write the
    # next frame), the key last written and the brightness the table holds
    # (none yet)
    chain.state = array("H", [size, bpp, lo] + pos + [0, 1, 0xFFFF, 0xFFFF])
    # Which blink phases a code uses (show() ORs these over the frame).
    chain.phase = bytearray(_CODES)
    for code in range(_CODES):
        pattern = code & 0xF0
        chain.phase[code] = _SLOW if pattern == F.BLINK else _FAST if pattern == F.FAST else 0
    # RGB per code (_CODES x 3) at the brightness in use (DIM codes at a
    # quarter of it), laid out in the chain's byte order, so a render
    # only copies bytes (and writes 0 for a code whose blink phase is
    # off: a table per phase cost 576 bytes more); rebuilt from the
    # palette when that brightness changes (_scale).  No full-brightness
    # copy is kept: it cost 3 KB of heap for a rebuild that comes once a
    # game or less.
    chain.table = bytearray(_CODES * 3)
    chain.last = bytearray(1 + count)
    chain.writes = 0
    chain.current_ma = 0  # estimated draw of the last write
    chain.count = count
    if fast:
        return fast["uses"], fast["render"]
    from gogadget.hw.ledsplain import render, uses
    return uses, render
