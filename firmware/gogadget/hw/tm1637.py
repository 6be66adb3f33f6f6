"""An optional 4-digit clock display (a TM1637 module, two GPIOs: hw/pins.py
DISPLAY_CLK and DISPLAY_DIO; hardware/README.md, "Clock display").

The TM1637 speaks a two-wire protocol like I2C without addresses: start
(DIO falls while CLK is high), bytes LSB first with an ACK bit the chip
pulls low, stop (DIO rises while CLK is high).  Both lines are driven
open-drain: the module has its own pull-ups, so writing 1 releases a line,
and the ACK is read back on DIO.  A board without the module reads no ACK:
probe() says so and the firmware runs without it.

ClockDisplay shows the clock of the player whose time runs, else of the
player to move: M:SS, H:MM from an hour up, blank without a time control,
"----" when that player is out of time.  It writes only when a digit
changes, from buffers allocated once.
"""
from gogadget.compat import const, forget

CMD_DATA = const(0x40)  # write display data, address auto-increment
CMD_ADDRESS = const(0xC0)  # from digit 0
CMD_ON = const(0x88)  # display on, | brightness 0..7
COLON = const(0x80)  # digit 1's point is the colon on clock modules
MINUS = const(0x40)
# Segments gfedcba of 0-9.
DIGITS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"


class TM1637:
    """The chip on two open-drain pins (machine.Pin(n, Pin.OPEN_DRAIN,
    value=1) on the board; pin-level fakes in tests).  delay() waits half a
    clock (the chip takes up to 250 kHz; MicroPython's pin writes are
    slower than that, so the default waits nothing)."""

    def __init__(self, clk, dio, brightness=4, delay=None):
        self.clk = clk
        self.dio = dio
        self.brightness = brightness & 7
        self._delay = delay
        self.acked = True  # every byte of the last write was acknowledged
        clk.value(1)
        dio.value(1)

    def _wait(self):
        if self._delay is not None:
            self._delay()

    def _start(self):
        self.dio.value(0)
        self._wait()
        self.clk.value(0)
        self._wait()

    def _stop(self):
        self.dio.value(0)
        self._wait()
        self.clk.value(1)
        self._wait()
        self.dio.value(1)
        self._wait()

    def _byte(self, b):
        clk = self.clk
        dio = self.dio
        for _ in range(8):
            dio.value(b & 1)
            self._wait()
            clk.value(1)
            self._wait()
            clk.value(0)
            b >>= 1
        dio.value(1)  # released: the chip pulls it low to acknowledge
        self._wait()
        clk.value(1)
        self._wait()
        if dio.value():
            self.acked = False
        clk.value(0)
        self._wait()

    def write(self, segments):
        """Show 4 segment bytes (digit 0 at the left); False when the
        chip did not answer (no module fitted)."""
        self.acked = True
        self._start()
        self._byte(CMD_DATA)
        self._stop()
        self._start()
        self._byte(CMD_ADDRESS)
        for i in range(4):
            self._byte(segments[i])
        self._stop()
        self._start()
        self._byte(CMD_ON | self.brightness)
        self._stop()
        return self.acked

    def probe(self):
        """Is a module there?  (Blanks it.)"""
        return self.write(b"\x00\x00\x00\x00")


def find(clk, dio):
    """-> a ClockDisplay on the TM1637 on these lines, or None when no
    module answers; then this module leaves the heap (hw/pico.py names
    none of its names: a board without a clock interns none of them)."""
    chip = TM1637(clk, dio)
    if chip.probe():
        return ClockDisplay(chip)
    forget("hw.tm1637")  # no module fitted: its driver leaves the heap
    return None


def clock_segments(out, ms, flagged=False):
    """Fill out (4 bytes) with the digits of ms left: M:SS, H:MM from an
    hour up (seconds rounded up, as the clock's text is)."""
    if flagged:
        for i in range(4):
            out[i] = MINUS
        return out
    s = (ms + 999) // 1000
    if s >= 3600:
        a, b = s // 3600, s // 60 % 60
    else:
        a, b = s // 60, s % 60
    if a > 99:
        a = 99
    out[0] = DIGITS[a // 10] if a >= 10 else 0
    out[1] = DIGITS[a % 10] | COLON
    out[2] = DIGITS[b // 10]
    out[3] = DIGITS[b % 10]
    return out


class ClockDisplay:
    """The referee's clock on a TM1637; show() once per scan cycle."""

    def __init__(self, chip):
        self.chip = chip
        self._seg = bytearray(4)
        self._shown = bytearray(4)
        self._blank = True

    def show(self, referee):
        clock = referee.clock
        seg = self._seg
        if clock is None:
            if self._blank:
                return
            for i in range(4):
                seg[i] = 0
        else:
            c = clock.running or referee.board.to_move()
            # (a remote player's clock counts down here for the eye: display)
            clock_segments(seg, clock.display(c, referee.now), clock.flagged == c)
        if seg == self._shown and not self._blank:
            return
        self._blank = clock is None
        for i in range(4):
            self._shown[i] = seg[i]
        self.chip.write(seg)
