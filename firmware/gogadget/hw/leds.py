"""The WS2812B/SK6812 chain under the board, through the neopixel module.

Chain order is pins.led_index (LED 0 under A1, serpentine), then the frame's
status pixels.  show() writes the chain only when what is visible changed:
a new frame, a new brightness, or a blink phase that a shown code uses; a
WS2812 write of 364 LEDs takes 11 ms, half a scan period.

Two safety limits sit here, below the composer's own budget: the brightness
never exceeds max_brightness, and if the rendered frame would still draw
more than budget_ma the whole chain is scaled down before it is written.
"""
from array import array

from gogadget import frame as F
from gogadget.compat import const
from gogadget.hw import pins

_SLOW = const(1)  # blink phase bits of the visible-state key
_FAST = const(2)


class LedChain:
    def __init__(self, np, size, max_brightness=255, budget_ma=None):
        """np: a neopixel.NeoPixel (or anything with n, bpp, ORDER, buf, write)."""
        count = size * size + F.STATUS_PIXELS
        if np.n < count:
            raise ValueError("%dx%d needs %d LEDs, the chain has %d" % (size, size, count, np.n))
        self.np = np
        self.size = size
        self.max_brightness = max_brightness
        self.budget_ma = budget_ma
        bpp = np.bpp
        order = np.ORDER
        # Byte offsets of red, green and blue of the LED for each frame slot.
        self._off = array("H", [0] * (count * 3))
        for slot in range(count):
            led = pins.led_index(size, slot) if slot < size * size else slot
            for ch in range(3):
                self._off[slot * 3 + ch] = led * bpp + order[ch]
        # Full-brightness RGB per code for each blink phase (4 x 256 x 3).
        self._table = bytearray(4 * 256 * 3)
        for key in range(4):
            phase_ms = (500 if key & _SLOW else 0) + (125 if key & _FAST else 0)
            for code in range(256):
                r, g, b = F.rgb(code, 255, phase_ms)
                if code & 0xF0 == F.DIM:
                    r, g, b = F.PALETTE[code & 0x0F]  # DIM is applied with the brightness
                o = (key * 256 + code) * 3
                self._table[o] = r
                self._table[o + 1] = g
                self._table[o + 2] = b
        self._last = bytearray(1 + count)
        self._fresh = True  # the chain's content is unknown: write the next frame
        self._key = -1
        self._uses = 0  # which blink phases the last frame uses
        self.writes = 0
        self.current_ma = 0  # estimated draw of the last write
        self.count = count

    def _visible_key(self, now_ms):
        key = 0
        if self._uses & _SLOW and (now_ms // 500) & 1:
            key |= _SLOW
        if self._uses & _FAST and (now_ms // 125) & 1:
            key |= _FAST
        return key

    def show(self, frame, now_ms):
        """Display a frame (frame.py format); True if the chain was written."""
        last = self._last
        if frame == last and not self._fresh:
            key = self._visible_key(now_ms)
            if key == self._key:
                return False
        else:
            last[:] = frame
            uses = 0
            for i in range(1, len(frame)):
                pattern = frame[i] & 0xF0
                if pattern == F.BLINK:
                    uses |= _SLOW
                elif pattern == F.FAST:
                    uses |= _FAST
            self._uses = uses
            key = self._visible_key(now_ms)
        self._key = key
        self._fresh = False
        self._render(frame, key)
        self.np.write()
        self.writes += 1
        return True

    def _render(self, frame, key):
        bright = frame[0]
        if bright > self.max_brightness:
            bright = self.max_brightness
        dim = bright >> 2
        table = self._table
        base = key * 768
        off = self._off
        buf = self.np.buf
        total = 0
        for slot in range(self.count):
            code = frame[1 + slot]
            b = dim if code & 0xF0 == F.DIM else bright
            t = base + code * 3
            o = slot * 3
            r = table[t] * b // 255
            g = table[t + 1] * b // 255
            bl = table[t + 2] * b // 255
            buf[off[o]] = r
            buf[off[o + 1]] = g
            buf[off[o + 2]] = bl
            total += r + g + bl
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

    def clear(self):
        buf = self.np.buf
        for i in range(len(buf)):
            buf[i] = 0
        self.np.write()
        self._fresh = True
