"""The mux scanner's pass over the sensors and its classification as plain
loops, through the pins' and ADCs' own methods: what every board but the
Pico runs (the Pico runs their viper twins on the SIO and ADC registers,
hw/viperscan.scan and classify), so a Pico never holds this module's
bytecode.  hw/muxscan.py loads it when a scanner is made without them."""
from gogadget.compat import const
from gogadget.scan import S_EMPTY, S_FAULT

# muxplan's _STEP_* (tests/test_hw_scan.py checks they agree)
_STEP_LINE = const(7)
_STEP_VALUE = const(8)
_STEP_SET = const(16)
_STEP_BANK_SHIFT = const(5)
_STEP_READ = const(128)


def read_raw(sensors):
    """One pass of the MuxScanner sensors' plan over every sensor into
    sensors.raw (muxplan's _STEP_* bytes; the places read, in turn, in
    sensors._where)."""
    setters = sensors._set
    reads = sensors._read
    steps = sensors._steps
    where = sensors._where
    k = 0
    raw = sensors.raw
    settle = sensors.settle_reads
    for i in range(sensors.plan_len):
        s = steps[i]
        if s & _STEP_SET:
            p = s & _STEP_LINE
            setters[p](1 if s & _STEP_VALUE else 0)
        if not s & _STEP_READ:
            continue
        b = s >> _STEP_BANK_SHIFT & 3
        r = reads[b]
        for _ in range(settle):
            r()
        raw[where[k]] = r()
        k += 1


def classify(sensors, scan):
    """Fill scan from sensors.raw by the calibration's thresholds: -> how many
    places read other than at the last calib.track (the first
    len(calibration.changed) of them are listed there)."""
    cal = sensors.calibration
    lo = cal.lo
    hi = cal.hi
    loc = cal.loc
    changed = cal.changed
    most = len(changed)
    count = 0
    raw = sensors.raw
    fault = sensors.fault
    rail_lo = sensors._rails[0]
    rail_hi = sensors._rails[1]
    for i in range(len(raw)):
        v = raw[i]
        if (fault[i >> 3] >> (i & 7)) & 1 or v < rail_lo or v > rail_hi:
            c = S_FAULT
        elif v >= hi[i]:
            c = loc[i] ^ 3  # the other colour (calib: S_BLACK ^ S_WHITE == 3)
        elif v <= lo[i]:
            c = loc[i]
        else:
            c = S_EMPTY
        if c != scan[i]:  # scan holds the last call's codes (calib.track's)
            if count < most:
                changed[count] = i
            count += 1
        scan[i] = c
    return count
