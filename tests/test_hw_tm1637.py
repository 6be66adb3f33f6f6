"""The optional clock display (hw/tm1637.py) against a TM1637 modelled at
the pin level: it decodes start, bytes LSB first, its own ACK and stop,
as the chip's datasheet has them, and shows what it was sent."""
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
from fakehand import Hand  # noqa: E402
from gogadget.hw import tm1637  # noqa: E402
from gogadget.hw.tm1637 import TM1637, ClockDisplay, clock_segments, DIGITS, COLON  # noqa: E402
from gogadget.points import WHITE  # noqa: E402


class Chip:
    """A TM1637 on two open-drain lines (wired AND of the host and the chip)."""

    def __init__(self, present=True):
        self.present = present
        self.host = {"clk": 1, "dio": 1}
        self.pull_dio = 0  # the chip holding DIO low (its ACK)
        self.bits = []
        self.frames = []  # bytes between a start and a stop
        self.display = [0, 0, 0, 0]
        self.on = False
        self.brightness = None
        self.started = False

    def level(self, line):
        v = self.host[line]
        if line == "dio" and self.pull_dio:
            v = 0
        return v

    def set(self, line, v):
        before = {k: self.level(k) for k in ("clk", "dio")}
        self.host[line] = v
        if not self.present:
            return
        clk, dio = self.level("clk"), self.level("dio")
        if line == "dio" and before["clk"] and clk:
            if before["dio"] and not dio:  # start
                self.started = True
                self.bits = []
                self.bytes = []
            elif not before["dio"] and dio and self.started:  # stop
                self.started = False
                self._frame(self.bytes)
        elif line == "clk" and self.started:
            if not before["clk"] and clk:  # rising: sample
                if len(self.bits) < 8:
                    self.bits.append(dio)
            elif before["clk"] and not clk:  # falling
                if self.pull_dio:
                    self.pull_dio = 0  # the ACK clock is over
                    self.bits = []
                elif len(self.bits) == 8:
                    self.bytes.append(sum(b << i for i, b in enumerate(self.bits)))
                    self.pull_dio = 1  # ACK during the ninth clock

    def _frame(self, data):
        self.frames.append(bytes(data))
        cmd = data[0]
        if cmd & 0xC0 == 0xC0:
            for i, b in enumerate(data[1:]):
                self.display[(cmd & 3) + i] = b
        elif cmd & 0xF0 == 0x80:
            self.on = bool(cmd & 8)
            self.brightness = cmd & 7


class Line:
    def __init__(self, chip, name):
        self.chip = chip
        self.name = name

    def value(self, v=None):
        if v is None:
            return self.chip.level(self.name)
        self.chip.set(self.name, 1 if v else 0)


def wired(present=True):
    chip = Chip(present)
    return chip, TM1637(Line(chip, "clk"), Line(chip, "dio"), brightness=3)


def test_write_follows_the_protocol_and_is_acknowledged():
    chip, tm = wired()
    assert tm.write(b"\x3f\x06\x5b\x4f")
    assert chip.frames == [b"\x40", b"\xc0\x3f\x06\x5b\x4f", b"\x8b"]
    assert chip.display == [0x3F, 0x06, 0x5B, 0x4F] and chip.on and chip.brightness == 3


def test_no_module_no_ack():
    chip, tm = wired(present=False)
    assert not tm.probe()
    chip, tm = wired()
    assert tm.probe() and chip.display == [0, 0, 0, 0]


def test_clock_digits():
    seg = bytearray(4)
    assert list(clock_segments(seg, 305000)) == [0, DIGITS[5] | COLON, DIGITS[0], DIGITS[5]]
    assert list(clock_segments(seg, 59001)) == [0, DIGITS[1] | COLON, DIGITS[0], DIGITS[0]]
    assert list(clock_segments(seg, 12 * 60000)) == [DIGITS[1], DIGITS[2] | COLON, DIGITS[0],
                                                   DIGITS[0]]
    assert list(clock_segments(seg, 2 * 3600000 + 5 * 60000)) == [0, DIGITS[2] | COLON,
                                                                  DIGITS[0], DIGITS[5]]
    assert list(clock_segments(seg, 0, flagged=True)) == [tm1637.MINUS] * 4


def test_display_shows_the_running_clock_and_writes_only_changes():
    h = Hand(9, time_control="absolute", main_time=300)
    h.settle()
    chip, tm = wired()
    disp = ClockDisplay(tm)
    disp.show(h.ref)
    assert chip.display == [0, DIGITS[5] | COLON, DIGITS[0], DIGITS[0]]  # black to move, 5:00
    n = len(chip.frames)
    disp.show(h.ref)
    assert len(chip.frames) == n, "nothing changed: nothing written"
    h.moves("E5")
    h.wait_ms(2000)
    assert h.ref.clock.running == WHITE
    disp.show(h.ref)
    assert chip.display == [0, DIGITS[4] | COLON, DIGITS[5], DIGITS[8]]  # white 4:58


def test_board_without_a_module_runs_without_it():
    import machine as fake_machine  # tests/mp/machine.py: pins with no chip on them
    from gogadget.config import Config
    from gogadget.hw import pico
    assert pico.make_clock_display(Config(), fake_machine) is None, "no clock: nothing loaded"
    timed = Config(time_control="absolute", main_time=600)
    assert pico.make_clock_display(timed, fake_machine) is None, "pulled up, never acknowledged"
