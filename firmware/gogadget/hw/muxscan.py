"""Colour sensors: linear Hall sensors behind two levels of CD74HC4067
analog multiplexers, read by the RP2040 ADC (wiring in pins.py).

At start the scanner works out a plan: the order of reads and the select
lines to flip before each.  Level-1 channels are visited in Gray-code order,
level-2 channels in Gray-code order forwards and backwards in turn, so most
reads need one GPIO write.  Every switch is followed by SETTLE_READS thrown
away conversions: the mux outputs and the ADC's sample capacitor still hold
the previous sensor's voltage.  A scan then runs the plan from preallocated
arrays and allocates nothing.
"""
from array import array

from gogadget.compat import const
from gogadget.hw import pins
from gogadget.hw.calib import Calibration
from gogadget.scan import S_EMPTY, S_FAULT, SENSOR_COLOUR

NO_PIN = const(255)
NO_READ = const(255)


def gray(i):
    return i ^ (i >> 1)


def build_plan(size):
    """-> list of (pin index or None, value, bank or None, place).

    Pin index 0..3 are the level-1 selects, 4..7 the level-2 selects.  The
    plan is cyclic: it starts from the select state it ends in."""
    n = size * size
    nmux = pins.mux_count(size)
    visits = []  # (select value of level 1, of level 2, bank, place)
    forward = True
    for i in range(pins.MUX_CHANNELS):
        c1 = gray(i)
        order = [gray(k) for k in range(pins.MUX_CHANNELS)]
        if not forward:
            order.reverse()
        forward = not forward
        for c2 in order:
            for bank in range(pins.bank_count(size)):
                mux = bank * pins.MUX_CHANNELS + c2
                place = pins.mux_place(bank, c2, c1)
                if mux < nmux and place < n:
                    visits.append((c1, c2, bank, place))
    state = (visits[-1][0] | visits[-1][1] << 4) if visits else 0
    steps = []
    for c1, c2, bank, place in visits:
        want = c1 | c2 << 4
        changed = [b for b in range(8) if (want ^ state) >> b & 1]
        for b in changed[:-1]:
            steps.append((b, want >> b & 1, None, 0))
        if changed:
            b = changed[-1]
            steps.append((b, want >> b & 1, bank, place))
        else:
            steps.append((None, 0, bank, place))
        state = want
    return steps, state


class MuxScanner:
    kind = SENSOR_COLOUR

    def __init__(self, size, select, bank_select, adcs, calibration=None,
                 settle_reads=pins.SETTLE_READS, fast=None, gpios=None, channels=None):
        """select, bank_select: 4 Pin objects each (S0..S3 of level 1 and 2);
        adcs: one ADC object per bank (ADC0, ADC1).

        fast: hw/rp2fast.load() on an RP2040, with gpios (the GPIO numbers of
        select + bank_select) and channels (the ADC input of each bank): the
        scan then drives the SIO and ADC registers from viper code, the same
        plan in the same order."""
        if len(select) != 4 or len(bank_select) != 4:
            raise ValueError("a 4067 needs 4 select lines")
        if len(adcs) < pins.bank_count(size):
            raise ValueError("%dx%d needs %d ADC inputs" % (size, size, pins.bank_count(size)))
        self.size = size
        self.calibration = calibration or Calibration(size)
        self.settle_reads = settle_reads
        n = size * size
        self.raw = array("H", [0] * n)  # last readings, for calibration and self-test
        self.fault = bytearray(n)  # 1: left out (self-test)
        lines = list(select) + list(bank_select)
        self._set = [p.value for p in lines]
        self._read = [a.read_u16 for a in adcs]
        steps, state = build_plan(size)
        self.plan_len = len(steps)
        self._pin = bytearray(NO_PIN if s[0] is None else s[0] for s in steps)
        self._val = bytearray(s[1] for s in steps)
        self._place = array("H", [s[3] for s in steps])
        for b in range(8):  # start in the state the plan ends in
            self._set[b](state >> b & 1)
        self._fast = None
        self._fast_look = None
        self._bank = None  # the plain loop's bank per step (the viper scan reads _chan)
        if fast is None or gpios is None or channels is None:
            self._bank = bytearray(NO_READ if s[2] is None else s[2] for s in steps)
        else:
            from gogadget.hw import rp2fast
            self._fast = fast["scan"]
            self._fast_classify = fast["classify"]
            self._fast_look = fast["track_look"]
            self._chan = bytearray(NO_READ if s[2] is None else channels[s[2]] for s in steps)
            self._masks = array("I", [1 << g for g in gpios])
            self._regs = array("I", [rp2fast.SIO_OUT_SET, rp2fast.SIO_OUT_CLR, rp2fast.ADC_CS])
            self._rails = array("H", [pins.RAIL_LOW, pins.RAIL_HIGH, S_FAULT, S_EMPTY])

    def read_raw(self):
        """One pass over every sensor into self.raw."""
        if self._fast is not None:
            self._fast(self.plan_len, self._pin, self._val, self._chan, self._place, self.raw,
                       self._masks, self._regs, self.settle_reads)
            return
        setters = self._set
        reads = self._read
        pin = self._pin
        val = self._val
        bank = self._bank
        place = self._place
        raw = self.raw
        settle = self.settle_reads
        for i in range(self.plan_len):
            p = pin[i]
            if p != NO_PIN:
                setters[p](val[i])
            b = bank[i]
            if b == NO_READ:
                continue
            r = reads[b]
            for _ in range(settle):
                r()
            raw[place[i]] = r()

    def read(self, scan):
        """Fill scan (scan.py format) from one pass over the sensors, then
        let the calibration follow the drift and the neighbours' fields at
        the changed places and a few more."""
        self.read_raw()
        count = self.classify(scan)
        cal = self.calibration
        cal.track(self.raw, scan, count, self._fast_look)
        if cal.dirty:  # rare: a few times as a board warms up by 30 C
            cal.save_drift()

    def classify(self, scan):
        """-> how many places read other than at the last calib.track (the
        first len(calibration.changed) of them are listed there)."""
        cal = self.calibration
        if self._fast is not None:
            return self._fast_classify(len(self.raw), self.raw, self.fault, cal.lo, cal.hi,
                                       cal.loc, cal.hic, scan, self._rails, cal.prev,
                                       cal.changed, len(cal.changed))
        lo = cal.lo
        hi = cal.hi
        loc = cal.loc
        hic = cal.hic
        prev = cal.prev
        changed = cal.changed
        most = len(changed)
        count = 0
        raw = self.raw
        fault = self.fault
        rail_lo = pins.RAIL_LOW
        rail_hi = pins.RAIL_HIGH
        for i in range(len(raw)):
            v = raw[i]
            if fault[i] or v < rail_lo or v > rail_hi:
                c = S_FAULT
            elif v >= hi[i]:
                c = hic[i]
            elif v <= lo[i]:
                c = loc[i]
            else:
                c = S_EMPTY
            scan[i] = c
            if c != prev[i]:
                if count < most:
                    changed[count] = i
                count += 1
        return count
