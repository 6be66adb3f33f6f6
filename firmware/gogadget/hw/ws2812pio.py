"""WS2812 chain on the RP2040: a PIO state machine clocks the bits out and a
DMA channel feeds it, so write() returns at once and the 11 ms bitstream of
a 19x19 chain overlaps the next scan instead of blocking it (neopixel.write
busy-waits for the whole stream).

Same seam as neopixel.NeoPixel for LedChain: n, bpp, ORDER, buf, write().
Each LED is one little-endian 32-bit word G<<24 | R<<16 | B<<8 (what an
array('I') of GRB << 8 holds): the state machine shifts left and autopulls
24 bits.  The words are kept in bytearrays so LedChain renders bytes straight
into them (ORDER below); building G<<24 as an int would make a long int on
the RP2040 (small ints stop at 2**30) and allocate on every write.

One buffer (1.5 KB of heap on 19x19; a second one, rendered into while DMA
read the first, cost as much again for frames that seldom come 11 ms
apart): `buf` hands it out only once the last transfer has gone out, so a
frame never changes under a running transfer.  A frame that comes within
11 ms of the last waits for it there, before LedChain renders, where two
buffers made write() wait after the render; write() always leaves the line
low 100 us before the next frame so the chain latches the last one.
"""
import time

from gogadget.compat import const

_sleep_us = getattr(time, "sleep_us", None)  # MicroPython; the CPython fakes need no latch

_FREQ = const(8000000)  # 10 PIO cycles per bit (T1 + T2 + T3) at 800 kHz
_DREQ_PIO0_TX0 = const(0)  # RP2040 DREQ numbers: PIO0 TX0..TX3 = 0..3,
_DREQ_PIO1_TX0 = const(8)  # PIO1 TX0..TX3 = 8..11
# After the FIFO drains, the last word (30 us) still shifts out and the line
# must then stay low >= 50 us for the chain to latch the frame.
_LATCH_US = const(100)


def program(rp2):
    """The ws2812 program of MicroPython's examples/rp2/pio_ws2812.py."""
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=24)
    def ws2812():
        # asm_pio runs this body with the PIO instructions as globals.
        T1 = 2
        T2 = 5
        T3 = 3
        wrap_target()  # pyright: ignore[reportUndefinedVariable]
        label("bitloop")  # pyright: ignore[reportUndefinedVariable]
        out(x, 1).side(0)[T3 - 1]  # pyright: ignore[reportUndefinedVariable]
        jmp(not_x, "do_zero").side(1)[T1 - 1]  # pyright: ignore[reportUndefinedVariable]
        jmp("bitloop").side(1)[T2 - 1]  # pyright: ignore[reportUndefinedVariable]
        label("do_zero")  # pyright: ignore[reportUndefinedVariable]
        nop().side(0)[T2 - 1]  # pyright: ignore[reportUndefinedVariable]
        wrap()  # pyright: ignore[reportUndefinedVariable]
    return ws2812


class PioChain:
    ORDER = (2, 3, 1, 0)  # byte of R, G, B (and the unused 4th) in a LE word
    bpp = 4

    def __init__(self, rp2, pin, n, sm_id=0):
        self.n = n
        self._buf = bytearray(n * 4)
        self.sm = rp2.StateMachine(sm_id, program(rp2), freq=_FREQ, sideset_base=pin)
        self.sm.active(1)
        self.dma = rp2.DMA()
        dreq = (_DREQ_PIO0_TX0 if sm_id < 4 else _DREQ_PIO1_TX0) + (sm_id & 3)
        self._ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=dreq)
        self.waits = 0  # frames that found the previous transfer still running

    def busy(self):
        """True while the last frame is still going out."""
        return bool(self.dma.active() or self.sm.tx_fifo())

    @property
    def buf(self):
        """The words of the next frame, once the last one has gone out."""
        self._wait()
        return self._buf

    def _wait(self):
        dma = self.dma
        sm = self.sm
        if dma.active() or sm.tx_fifo():
            self.waits += 1
            while dma.active() or sm.tx_fifo():
                pass

    def write(self):
        self._wait()
        if _sleep_us:
            _sleep_us(_LATCH_US)
        self.dma.config(read=self._buf, write=self.sm, count=self.n,
                        ctrl=self._ctrl, trigger=True)
