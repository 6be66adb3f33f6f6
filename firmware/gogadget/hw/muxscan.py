"""Colour sensors: linear Hall sensors behind two levels of CD74HC4067
analog multiplexers, read by the RP2040 ADC (wiring in pins.py).

At start the scanner works out a plan (hw/muxplan.py, let go of once the
plan is made): the order of reads and the select lines to flip before
each, so most reads need one GPIO write.  Every switch is followed by
SETTLE_READS thrown away conversions: the mux outputs and the ADC's sample
capacitor still hold the previous sensor's voltage.  A scan then runs the
plan from a preallocated array and allocates nothing.

The plan is kept as one byte a step (muxplan._STEP_*): the line to set and
its value, and the bank whose ADC reads; and the place of each read in turn
(_where, 2 bytes a place: the PCB tiles' mux order, pins.mux_place, is not
the place order).
"""
from array import array

from gogadget.compat import forget
from gogadget.hw.calib import Calibration
from gogadget.scan import SENSOR_COLOUR


class MuxScanner:
    kind = SENSOR_COLOUR
    # Set by muxplan.setup (for the checker only: no code is compiled for these).
    size: int
    calibration: Calibration
    settle_reads: int
    raw: array
    fault: bytearray
    plan_len: int
    _steps: bytearray
    _where: array
    _state: int
    _rails: array
    _regs: array
    _set: list
    _read: list

    def __init__(self, size, select, bank, adcs, calibration=None, settle_reads=None, fast=None):
        """select, bank: 4 Pin objects each (S0..S3 of level 1 and 2); adcs:
        one ADC object per bank (ADC0, ADC1).

        fast: hw/rp2fast.load() on an RP2040 wired as pins.py says: the scan
        then drives the SIO and ADC registers of those GPIOs and ADC inputs
        from viper code, the same plan in the same order."""
        from gogadget.hw import muxplan  # boot only: the plan and the set-up leave the heap
        self._plain = None
        # the viper twins' scan, classify and track_look, or None
        self.fast = muxplan.setup(self, size, select, bank, adcs, calibration, settle_reads, fast)
        self._fast_look = None if self.fast is None else self.fast[2]
        if self.fast is None:  # every board but the Pico: the plain loops
            from gogadget.hw import muxscanplain
            self._plain = muxscanplain
        muxplan = None
        forget("hw.muxplan")

    def read_raw(self):
        """One pass over every sensor into self.raw."""
        fast = self.fast
        if fast is None:
            self._plain.read_raw(self)
            return
        fast[0](self.plan_len, self._steps, self.raw, self._regs, self.settle_reads, self._where)

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
        first len(calibration.changed) of them are listed there): scan
        holds what the last read left in it, no copy is kept."""
        cal = self.calibration
        fast = self.fast
        if fast is None:
            return self._plain.classify(self, scan)
        return fast[1](len(self.raw), self.raw, self.fault, cal.lo, cal.hi, cal.loc, scan,
                       self._rails, cal.changed, len(cal.changed))
