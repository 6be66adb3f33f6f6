"""Fake of MicroPython's `neopixel` module (rp2 port): same attributes (buf,
ORDER, bpp, n) and a write() that records what the chain would show."""


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # WS2812B takes green, red, blue

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.shown = bytes(n * bpp)  # what the LEDs show after the last write()
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for j in range(self.bpp):
            self.buf[off + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.writes += 1
        self.shown = bytes(self.buf)

    def rgb(self, i):
        """(r, g, b) LED i shows."""
        off = i * self.bpp
        return tuple(self.shown[off + self.ORDER[j]] for j in range(3))
