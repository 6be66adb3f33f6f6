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

from gogadget.compat import const, zeros
from gogadget.hw import pins
from gogadget.hw.calib import Calibration
from gogadget.scan import S_EMPTY, S_FAULT, SENSOR_COLOUR

NO_PIN = const(255)
NO_READ = const(255)


def gray(i):
    return i ^ (i >> 1)


def _walk(size, state, plan=None):
    """Go through the plan from select state `state`: -> (its steps, the
    select state it ends in).  With plan (pin, value, bank, place arrays of
    that many steps) each step is written there.  Level-1 channels in Gray
    order, level 2 in Gray order forwards and backwards in turn; a switch
    of several select lines is a step per line, the read on the last."""
    n = size * size
    nmux = pins.mux_count(size)
    banks = pins.bank_count(size)
    last = pins.MUX_CHANNELS - 1
    k = 0
    for i in range(pins.MUX_CHANNELS):
        c1 = gray(i)
        for j in range(pins.MUX_CHANNELS):
            c2 = gray(j if i & 1 == 0 else last - j)
            for bank in range(banks):
                place = pins.mux_place(bank, c2, c1)
                if bank * pins.MUX_CHANNELS + c2 >= nmux or place >= n:
                    continue
                want = c1 | c2 << 4
                flip = want ^ state
                state = want
                b = -1  # the line set in this step (none: no line changes)
                while True:  # every changed line, the lowest first
                    if flip:
                        b += 1
                        while not flip >> b & 1:
                            b += 1
                        flip ^= 1 << b
                    if plan is not None:
                        plan[0][k] = NO_PIN if b < 0 else b
                        plan[1][k] = 0 if b < 0 else want >> b & 1
                        plan[2][k] = NO_READ if flip else bank
                        if not flip:
                            plan[3][k] = place
                    k += 1
                    if not flip:
                        break
    return k, state


def build_plan(size):
    """-> (pin, value, bank, place, state): per step of the plan the select
    line to set (0..3 level 1, 4..7 level 2; NO_PIN: none) and its value,
    the bank whose ADC then reads (NO_READ: none) and the place it reads;
    and the select state the plan ends in.  The plan is cyclic: it starts
    from that state.  Walked three times rather than built as a list: no
    step needs a block of the heap bigger than its own array (a list of the
    steps, 2 KB, raised a MemoryError at boot on a fragmented Pico W)."""
    _, state = _walk(size, 0)
    count, _ = _walk(size, state)
    plan = (bytearray(count), bytearray(count), bytearray(count), zeros("H", count))
    _walk(size, state, plan)
    return plan + (state,)


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
        self.raw = zeros("H", n)  # last readings, for calibration and self-test
        self.fault = bytearray(n)  # 1: left out (self-test)
        lines = list(select) + list(bank_select)
        self._pin, self._val, bank, self._place, state = build_plan(size)
        self.plan_len = len(self._pin)
        for b in range(8):  # start in the state the plan ends in
            lines[b].value(state >> b & 1)
        self._fast = None
        self._fast_look = None
        if fast is None or gpios is None or channels is None:
            # Every board but the Pico: the plain loops (muxscanplain), which
            # call the pins' and ADCs' methods; the plan's bank per step.
            from gogadget.hw import muxscanplain
            self._plain = muxscanplain
            self._set = [p.value for p in lines]
            self._read = [a.read_u16 for a in adcs]
            self._bank = bank
        else:
            from gogadget.hw import rp2fast
            self._fast = fast["scan"]
            self._fast_classify = fast["classify"]
            self._fast_look = fast["track_look"]
            for i in range(len(bank)):  # the ADC input each step reads
                if bank[i] != NO_READ:
                    bank[i] = channels[bank[i]]
            self._chan = bank
            self._masks = array("I", [1 << g for g in gpios])
            self._regs = array("I", [rp2fast.SIO_OUT_SET, rp2fast.SIO_OUT_CLR, rp2fast.ADC_CS])
            self._rails = array("H", [pins.RAIL_LOW, pins.RAIL_HIGH, S_FAULT, S_EMPTY])

    def read_raw(self):
        """One pass over every sensor into self.raw."""
        if self._fast is None:
            self._plain.read_raw(self)
            return
        self._fast(self.plan_len, self._pin, self._val, self._chan, self._place, self.raw,
                   self._masks, self._regs, self.settle_reads)

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
        if self._fast is None:
            return self._plain.classify(self, scan)
        return self._fast_classify(len(self.raw), self.raw, self.fault, cal.lo, cal.hi,
                                   cal.loc, cal.hic, scan, self._rails, cal.prev,
                                   cal.changed, len(cal.changed))
