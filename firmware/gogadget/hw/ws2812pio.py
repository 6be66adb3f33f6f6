"""WS2812 chain on the RP2040: a PIO state machine clocks the bits out and a
DMA channel feeds it, so write() returns at once and the 11 ms bitstream of
a 19x19 chain overlaps the next scan instead of blocking it (neopixel.write
busy-waits for the whole stream).

Same seam as neopixel.NeoPixel for LedChain: n, bpp, ORDER, buf, write().
Each LED is three bytes, G R B, as neopixel keeps them: DMA moves one byte
at a time into the state machine's FIFO, and the RP2040 repeats a narrow
write on all four byte lanes of the bus (datasheet 2.1.4), so the state
machine, shifting left with autopull at 8 bits, sends each byte's bits from
its top.  A 32-bit word an LED (G<<24 | R<<16 | B<<8, autopull at 24) kept a
fourth byte an LED that is never sent: 365 bytes of heap on 19x19.  LedChain
renders bytes straight into the buffer (ORDER below).

One buffer (1.1 KB of heap on 19x19; a second one, rendered into while DMA
read the first, cost as much again for frames that seldom come 11 ms
apart): `buf` hands it out only once the last transfer has gone out, so a
frame never changes under a running transfer.  A frame that comes within
11 ms of the last waits for it there, before LedChain renders, where two
buffers made write() wait after the render; write() always leaves the line
low 100 us before the next frame so the chain latches the last one.
"""
import time

from gogadget.compat import const, forget

_sleep_us = getattr(time, "sleep_us", None)  # MicroPython; the CPython fakes need no latch

_FREQ = const(8000000)  # 10 PIO cycles per bit (T1 + T2 + T3) at 800 kHz
_DREQ_PIO0_TX0 = const(0)  # RP2040 DREQ numbers: PIO0 TX0..TX3 = 0..3,
_DREQ_PIO1_TX0 = const(8)  # PIO1 TX0..TX3 = 8..11
# After the FIFO drains, the last word (30 us) still shifts out and the line
# must then stay low >= 50 us for the chain to latch the frame.
_LATCH_US = const(100)


class PioChain:
    ORDER = (1, 0, 2, 3)  # byte of R, G, B of an LED (neopixel's GRB)
    bpp = 3

    def __init__(self, rp2, pin, n, sm_id=0):
        self.n = n
        self._buf = bytearray(n * 3)
        from gogadget.hw import ws2812prog  # its bytecode is needed once: let go of
        self.sm = rp2.StateMachine(sm_id, ws2812prog.program(rp2), freq=_FREQ,
                                   sideset_base=pin)
        ws2812prog = None
        forget("hw.ws2812prog")
        self.sm.active(1)
        self.dma = rp2.DMA()
        dreq = (_DREQ_PIO0_TX0 if sm_id < 4 else _DREQ_PIO1_TX0) + (sm_id & 3)
        self._ctrl = self.dma.pack_ctrl(size=0, inc_write=False, treq_sel=dreq)  # bytes
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
        self.dma.config(read=self._buf, write=self.sm, count=3 * self.n,
                        ctrl=self._ctrl, trigger=True)
