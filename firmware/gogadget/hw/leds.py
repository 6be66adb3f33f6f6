"""The WS2812B/SK6812 chain under the board, through the neopixel module.

Chain order is pins.led_index (LED 0 under A1, serpentine: even rows left
to right, odd rows right to left), then the frame's status pixels; the
render walks it row by row (a table of each slot's LED cost 730 bytes of
heap on 19x19; tests/test_hw_ws2812.py holds the render to pins.led_index).
show() writes the chain only when what is visible changed:
a new frame, a new brightness, or a blink phase that a shown code uses; a
WS2812 bitstream of 364 LEDs takes 11 ms, half a scan period (on the RP2040
ws2812pio.py sends it by DMA while the next scan runs).

Two safety limits sit here, below the composer's own budget: the brightness
never exceeds max_brightness, and if the rendered frame would still draw
more than budget_ma the whole chain is scaled down before it is written.
"""
from array import array

from gogadget import frame as F
from gogadget.compat import const, forget

_SLOW = const(1)  # blink phase bits of the visible-state key
_FAST = const(2)
# Codes the tables hold: the four patterns of frame.py (STEADY, BLINK, FAST,
# DIM) times the palette.  Any other pattern shows its colour steady, which
# is what code & 0x0F holds (a quarter of the tables a byte index would need:
# 2.5 KB less heap).
_CODES = const(64)
# The chain's state (one array, where each attribute took a slot and an
# interned name): the render's layout (the board's size, bytes per LED,
# where an LED's first colour byte sits), where red, green and blue sit
# from there, then what show() last did.  hw/ledsetup.py fills it.
_P0 = const(3)
_USES = const(6)  # which blink phases the last frame uses
_FRESH = const(7)  # the chain's content is unknown: write the next frame
_KEY = const(8)  # the visible-state key last written (0xFFFF: none)
_SCALED_FOR = const(9)  # the brightness table holds (0xFFFF: none)


class LedChain:
    # Set by hw/ledsetup.py (for the checker only: no code is compiled for these).
    count: int
    state: array
    phase: bytearray
    table: bytearray
    last: bytearray

    def __init__(self, np, size, max_brightness=255, budget_ma=None, fast=None):
        """np: a neopixel.NeoPixel (or anything with n, bpp, ORDER, buf, write);
        fast: hw/rp2fast.load() on an RP2040 (the loops of show and render
        as viper code, same results).  The set-up is hw/ledsetup.py's,
        loaded for it and let go of: its bytecode is needed once."""
        self.np = np
        self.size = size
        self.max_brightness = max_brightness
        self.budget_ma = budget_ma
        from gogadget.hw import ledsetup
        # the passes over a frame: the viper twins or hw/ledsplain.py's
        self.uses, self.render = ledsetup.setup(self, np, size, fast)
        ledsetup = None
        forget("hw.ledsetup")

    def show(self, frame, now_ms):
        """Display a frame (frame.py format); True if the chain was written."""
        st = self.state
        if frame != self.last or st[_FRESH]:
            self.last[:] = frame
            st[_USES] = self.uses(frame, self.phase, len(frame))
            st[_KEY] = 0xFFFF  # (written whatever the key)
        # Bits of the blink patterns the frame uses that are off now
        # (frame.on: the rhythms are defined there only).
        key = 0
        if st[_USES] & _SLOW and not F.on(F.BLINK, now_ms):
            key |= _SLOW
        if st[_USES] & _FAST and not F.on(F.FAST, now_ms):
            key |= _FAST
        if key == st[_KEY]:
            return False
        st[_KEY] = key
        st[_FRESH] = 0
        self._render(frame, key)
        return True

    def _scale(self, brightness):
        dim = brightness >> 2
        table = self.table
        st = self.state
        p0 = st[_P0]
        p1 = st[_P0 + 1]
        p2 = st[_P0 + 2]
        palette = F.PALETTE
        for code in range(_CODES):
            t = code * 3
            if code & 0x0F != F.OFF:
                r, g, b = palette[code & 0x0F]
                k = dim if code & 0xF0 == F.DIM else brightness
                table[t + p0] = r * k // 255
                table[t + p1] = g * k // 255
                table[t + p2] = b * k // 255
            else:
                table[t + p0] = table[t + p1] = table[t + p2] = 0
        st[_SCALED_FOR] = brightness

    def _render(self, frame, key):
        # (a frame of its own: show's stays on the C stack, py/objfun.c)
        bright = frame[0]
        if bright > self.max_brightness:
            bright = self.max_brightness
        if bright != self.state[_SCALED_FOR]:
            self._scale(bright)
        buf = self.np.buf  # looked up each time: the PIO driver hands it out once free
        total = self.render(self.count, frame, self.table, key, self.phase, self.state, buf)
        idle = self.np.n * F.MA_IDLE
        ma = idle + total * F.MA_PER_CHANNEL // 255
        budget = self.budget_ma
        if budget and ma > budget:
            # Scale every channel so the chain stays inside the supply.
            room = budget - idle
            if room < 0:
                room = 0
            limit = room * 255 // F.MA_PER_CHANNEL
            for i in range(len(buf)):
                buf[i] = buf[i] * limit // total
            ma = idle + limit * F.MA_PER_CHANNEL // 255
        self.current_ma = ma
        self.np.write()
        self.writes += 1

    def clear(self):
        buf = self.np.buf
        for i in range(len(buf)):
            buf[i] = 0
        self.np.write()
        self.state[_FRESH] = 1
