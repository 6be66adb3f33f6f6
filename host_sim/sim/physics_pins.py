"""The pins the firmware's scanners drive: the colour board's muxes and ADC, the occupancy board's 165 chain."""
import math
import random

from gogadget.hw import pins
from host_sim.sim.physics_parts import (ADC_FULL, CONVERSION_US, E11_CODES, E11_WIDTH,
                                    HALL_SENS_MV_MT, LSB_MV)

# --- colour board: the pins the mux scanner drives ------------------------

class _Line:
    """A select line: value(v) sets one bit of the analog path's address."""

    def __init__(self, path, bit):
        self.path = path
        self.bit = bit

    def value(self, v=None):
        if v is None:
            return self.path.sel >> self.bit & 1
        if v:
            self.path.sel |= 1 << self.bit
        else:
            self.path.sel &= ~(1 << self.bit)
        return None


class _Adc:
    def __init__(self, path, bank):
        self.path = path
        self.bank = bank

    def read_u16(self):
        return self.path.convert(self.bank)


def _e11_table():
    # Ideal code -> reported code: each of the four E11 codes swallows the
    # codes around it (a bin E11_WIDTH LSB wide, its neighbours missing).
    table = list(range(ADC_FULL))
    half = E11_WIDTH // 2
    for k in E11_CODES:
        for c in range(k - half, k + half + 1):
            table[c] = k
    return table


E11_TABLE = _e11_table()


class AnalogPath:
    """Two mux levels, the ADC input mux and the ADC itself."""

    def __init__(self, board):
        self.board = board
        s = board.s
        size = board.size
        n = size * size
        self.sel = 0  # S0..S3 of level 1 in bits 0..3, of level 2 in 4..7
        self.select = [_Line(self, b) for b in range(4)]
        self.bank_select = [_Line(self, 4 + b) for b in range(4)]
        self.adcs = [_Adc(self, b) for b in range(pins.bank_count(size))]
        # (bank, select) -> place (-1: a spare channel, tied to ground)
        self.place_of = {}
        for bank in range(len(self.adcs)):
            for c2 in range(pins.MUX_CHANNELS):
                for c1 in range(pins.MUX_CHANNELS):
                    p = pins.mux_place(size, bank, c2, c1)
                    self.place_of[bank << 8 | c2 << 4 | c1] = p if p < n else -1
        # Share of the old voltage left at the k-th conversion after a switch.
        self.level = [0.0] * (n + 1)  # settled input of each place, in LSB (+ spare at -1)
        self.retime()
        self.node = 0.0
        self.start = 0.0
        self.key = -1
        self.since = 0
        self.rng = random.Random(board.rng.random())
        self.conversions = 0

    def retime(self):
        s = self.board.s
        # Share of the old voltage left at the k-th conversion after a switch.
        self.resid = [math.exp(-(s.first_sample_us + k * CONVERSION_US) / s.tau_us)
                      for k in range(8)]
        self.noise = math.hypot(s.hall_noise_mt * HALL_SENS_MV_MT / LSB_MV, s.adc_noise_lsb)

    def begin_pass(self):
        b = self.board
        b.begin_pass()
        g = b.ground_lsb()
        scale = 1000.0 / LSB_MV
        level = self.level
        for p in range(len(level) - 1):
            level[p] = b.hall_volts(p) * scale + g
        level[-1] = g

    def convert(self, bank):
        key = bank << 8 | self.sel
        if key != self.key:
            self.key = key
            self.since = 0
            self.start = self.node
        elif self.since < 7:
            self.since += 1
        t = self.level[self.place_of[key]]
        v = t + (self.start - t) * self.resid[self.since]
        self.node = v
        x = v + self.rng.gauss(0.0, self.noise)
        c = int(x) if x > 0 else 0
        if c >= ADC_FULL:
            c = ADC_FULL - 1
        c = E11_TABLE[c]
        self.conversions += 1
        return c << 4 | c >> 8  # MicroPython's read_u16 scaling


# --- occupancy board: the 74HC165 chain -----------------------------------

class _LoadPin:
    def __init__(self, chain):
        self.chain = chain
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        if self.level and not v:
            self.chain.latch()
        self.level = 1 if v else 0
        return None


class ShiftChain:
    """Reed switches (or digital Hall switches) behind a 165 chain on SPI."""

    def __init__(self, board, period_ms=20):
        self.board = board
        size = board.size
        self.n = size * size
        self.chips = pins.shift_chips(size)
        self.load = _LoadPin(self)
        self.bits = bytearray(self.chips + 1)
        self.rng = random.Random(board.rng.random())
        self.latches = 0
        # The stone lands at a random moment of the scan period: the next
        # latch falls inside the bounce that often.
        self.bounce_share = min(1.0, board.s.bounce_ms / period_ms)

    def begin_pass(self):
        self.board.begin_pass()

    def latch(self):
        b = self.board
        s = b.s
        field = b.field
        closed = b.closed
        bounce = b.bounce
        pull = b.pull
        rng = self.rng
        on = 0 if pins.SHIFT_ACTIVE_LOW else 1
        bits = self.bits
        for i in range(len(bits)):
            bits[i] = 0
        for p in range(self.n):
            f = abs(field[p])
            was = closed[p]
            if f >= pull[p]:
                closed[p] = 1
            elif f < pull[p] * s.drop_share:
                closed[p] = 0
            if closed[p] != was and rng.random() < self.bounce_share:
                bounce[p] = 1  # the contact is still settling at this latch
            level = closed[p]
            if bounce[p]:
                bounce[p] = 0
                level = rng.random() < 0.5
            bit = on if level else 1 - on
            if bit:
                bits[p >> 3] |= 1 << (p & 7)
        for p in range(self.n, self.chips * 8):
            if pins.shift_spare_level(b.size, p):
                bits[p >> 3] |= 1 << (p & 7)
        bits[self.chips] = 0  # the last chip's SER is tied to GND
        self.latches += 1

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self.bits[i] if i < len(self.bits) else 0
