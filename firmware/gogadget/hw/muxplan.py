"""The mux scanner's plan: the order of its reads and the select lines to
flip before each, worked out once when the scanner is made, and the rest of
that set-up (setup; hw/muxscan.py lets go of this module then).  Level-1
channels are visited in Gray-code order, level-2 channels in Gray-code
order forwards and backwards in turn, so most reads need one GPIO write."""
from array import array

from gogadget.compat import const, zeros
from gogadget.hw import pins
from gogadget.hw.calib import Calibration
from gogadget.scan import S_EMPTY, S_FAULT

_NO_PIN = const(255)
NO_READ = const(255)
# A step as the scanner keeps it (steps_of()), one byte: the line set (0..3
# level 1, 4..7 level 2) and its value when _STEP_SET; the bank (0..3) that
# reads when _STEP_READ.  The places read are kept apart, one a read in
# order (the tile plan, pins.mux_place, is no arithmetic of the select state).
# Private (no names on the board): hw/muxscanplain.py keeps a copy and
# hw/viperscan.scan their values (tests/test_hw_scan.py checks they agree).
_STEP_LINE = const(7)
_STEP_VALUE = const(8)
_STEP_SET = const(16)
_STEP_BANK_SHIFT = const(5)
_STEP_READ = const(128)
# RP2040 registers (datasheet 2.3.1.7 SIO, 4.9.6 ADC) the viper scan
# drives: the select lines through SIO's GPIO_OUT_SET / _CLR, each
# conversion on the ADC's CS (EN | START_ONE = 5, AINSEL << 12; READY is
# bit 8; RESULT is the next word).
_SIO_OUT_SET = const(0xD0000014)
_SIO_OUT_CLR = const(0xD0000018)
_ADC_CS = const(0x4004C000)


def _walk(size, state, out=None):
    """Go through the plan from select state `state`: -> (its steps, the
    select state it ends in).  With out (pin, value, bank, place arrays of
    that many steps) each step is written there.  Level-1 channels in Gray
    order, level 2 in Gray order forwards and backwards in turn; a switch
    of several select lines is a step per line, the read on the last."""
    n = size * size
    banks = pins.bank_count(size)
    last = pins.MUX_CHANNELS - 1
    k = 0
    for i in range(pins.MUX_CHANNELS):
        c1 = i ^ (i >> 1)  # Gray code
        for j in range(pins.MUX_CHANNELS):
            c2 = j if i & 1 == 0 else last - j
            c2 ^= c2 >> 1
            for bank in range(banks):
                place = pins.mux_place(size, bank, c2, c1)
                if place >= n:  # a spare channel or slot
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
                    if out is not None:
                        out[0][k] = _NO_PIN if b < 0 else b
                        out[1][k] = 0 if b < 0 else want >> b & 1
                        out[2][k] = NO_READ if flip else bank
                        if not flip:
                            out[3][k] = place
                    k += 1
                    if not flip:
                        break
    return k, state


def build_plan(size):
    """-> (pin, value, bank, place, state): per step of the plan the select
    line to set (0..3 level 1, 4..7 level 2; 255: none) and its value,
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


def steps_of(size):
    """-> (steps, where, state): build_plan's steps as the scanner keeps
    them, a byte each (_STEP_*), the place of each read in turn, and the
    select state the plan starts in."""
    pin, val, bank, place, state = build_plan(size)
    out = bytearray(len(pin))
    where = zeros("H", size * size)
    st = state
    k = 0
    for i in range(len(out)):
        s = 0
        p = pin[i]
        if p != _NO_PIN:
            s = _STEP_SET | p | (_STEP_VALUE if val[i] else 0)
            st = st | 1 << p if val[i] else st & ~(1 << p)
        if bank[i] != NO_READ:
            if pins.mux_address(size, place[i]) != (bank[i], st >> 4, st & 15):  # what the scan reads
                raise ValueError("plan step %d reads bank %d state %d, not place %d" % (
                    i, bank[i], st, place[i]))
            s |= _STEP_READ | bank[i] << _STEP_BANK_SHIFT
            where[k] = place[i]
            k += 1
        out[i] = s
    if k != size * size:
        raise ValueError("plan reads %d places of %d" % (k, size * size))
    return out, where, state


def setup(sensors, size, select, bank, adcs, calibration, settle_reads, fast):
    """Set MuxScanner sensors up (its __init__'s arguments): the plan's steps and
    the arrays a scan runs on, the select lines in the state the plan starts
    in; -> its loops (scan, classify, track_look): the viper twins, or
    None where hw/muxscan.py is to load the plain loops' module."""
    if settle_reads is None:
        settle_reads = pins.SETTLE_READS
    if len(select) != 4 or len(bank) != 4:
        raise ValueError("a 4067 needs 4 select lines")
    if len(adcs) < pins.bank_count(size):
        raise ValueError("%dx%d needs %d ADC inputs" % (size, size, pins.bank_count(size)))
    sensors.size = size
    sensors.calibration = calibration or Calibration(size)
    sensors.settle_reads = settle_reads
    n = size * size
    sensors.raw = zeros("H", n)  # last readings, for calibration and self-test
    sensors.fault = bytearray((n + 7) >> 3)  # bit p & 7 of byte p >> 3: left out (self-test)
    lines = list(select) + list(bank)
    steps, where, state = steps_of(size)
    sensors._steps = steps
    sensors._where = where
    sensors.plan_len = len(steps)
    sensors._state = state
    for b in range(8):  # start in the state the plan ends in
        lines[b].value(state >> b & 1)
    # readings this close to a rail: a dead or shorted sensor
    sensors._rails = array("H", [pins.RAIL_LOW, pins.RAIL_HIGH, S_FAULT, S_EMPTY])
    if fast is None:
        # Every board but the Pico: the plain loops (muxscanplain, which
        # hw/muxscan.py loads), through the pins' and ADCs' methods.
        sensors._set = [p.value for p in lines]
        sensors._read = [a.read_u16 for a in adcs]
        return None
    # SIO set, SIO clear, ADC CS addresses; the select state; the Pico's
    # own wiring (pins.py): each select line's GPIO mask, each bank's ADC
    # input
    sensors._regs = array("I", [_SIO_OUT_SET, _SIO_OUT_CLR, _ADC_CS, state]
                          + [1 << g for g in pins.MUX_SELECT + pins.BANK_SELECT]
                          + [g - pins.ADC_PINS[0] for g in pins.ADC_PINS[:pins.bank_count(size)]])
    return fast["scan"], fast["classify"], fast["track_look"]
