"""The WS2812 chain as the host sees it: the bitstream the Pico's PIO drives, decoded into frames."""

WS2812_ONE_NS = 560  # a high pulse longer than this is a 1 (T0H 250-400 ns, T1H 700-875 ns)
WS2812_LATCH_NS = 50000


class LedTap:
    """Decodes the WS2812 bitstream the PIO program drives on a GPIO into
    frames of (r, g, b) per LED.

    Bits are told apart by where the state machine is when the line rises
    (hw/ws2812pio.py's program: `jmp not_x` sends a 1 on to `jmp bitloop`,
    a 0 to `nop`), not by pulse widths: rp2040py steps PIO one instruction
    per CPU instruction or idle jump, so while the core sleeps the emulated
    pulses stretch and shrink in ways the real chip's do not (its PIO runs
    on its own clock; hardware/README.md).  A frame is `count` LEDs of 24
    bits; frames follow each other bit-exactly from the first rising edge.
    `started_ns` is when a frame's first bit went out and `ended_ns` when it
    ends on a real chain: that plus count x 24 x 1.25 us (800 kHz)."""

    BIT_NS = 1250

    def __init__(self, dev, gpio, count, sm=0):
        self.clock = dev.simulator.clock
        self.sm = dev.mcu.pio[sm // 4].machines[sm % 4]
        self.count = count
        self.bits = []
        self.frames = 0  # complete frames seen
        self.last = None  # the last complete frame: list of (r, g, b)
        self.started_ns = 0  # first bit of the frame being received
        self.last_started_ns = 0  # ... of the last complete frame
        self.ended_ns = 0  # when the last complete frame ends on a real chain
        self.glitches = 0
        self.bad = 0
        dev.mcu.gpio[gpio].add_listener(self._edge)

    def _edge(self, value, last_value):
        try:
            high = int(value) == 1
        except (TypeError, ValueError):
            high = str(value) in ("1", "High", "GPIOPinState.High")
        if not high:
            return
        sm = self.sm
        # after `jmp not_x` the pc is at bitloop's `jmp` (a 1) or at `nop` (a 0)
        step = sm.pc - sm.wrap_bottom
        if step != 2 and step != 3:
            self.glitches += 1  # a rise not from the bit loop
            return
        bit = 1 if step == 2 else 0
        bits = self.bits
        if not bits:
            self.started_ns = self.clock.nanos
        bits.append(bit)
        if len(bits) == 24 * self.count:
            self._close()

    def _close(self):
        bits = self.bits
        self.bits = []
        leds = []
        for k in range(0, len(bits), 24):
            v = 0
            for b in bits[k:k + 24]:
                v = v << 1 | b
            g, r, b = v >> 16, (v >> 8) & 255, v & 255
            leds.append((r, g, b))
        self.last = leds
        self.last_started_ns = self.started_ns
        self.ended_ns = self.started_ns + 24 * self.count * self.BIT_NS
        self.frames += 1

    def poll(self):
        """The last complete frame (None before the first)."""
        return self.last
