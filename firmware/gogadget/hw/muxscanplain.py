"""The mux scanner's pass over the sensors and its classification as plain
loops, through the pins' and ADCs' own methods: what every board but the
Pico runs (the Pico runs their viper twins on the SIO and ADC registers,
hw/rp2viper.scan and classify), so a Pico never holds this module's
bytecode.  hw/muxscan.py loads it when a scanner is made without them."""
from gogadget.compat import const
from gogadget.hw import pins
from gogadget.scan import S_EMPTY, S_FAULT

NO_PIN = const(255)  # muxplan.NO_PIN: no select line set in this step
NO_READ = const(255)  # muxplan.NO_READ: no conversion in this step


def read_raw(sc):
    """One pass of the scanner sc's plan over every sensor into sc.raw."""
    setters = sc._set
    reads = sc._read
    pin = sc._pin
    val = sc._val
    bank = sc._bank
    place = sc._place
    raw = sc.raw
    settle = sc.settle_reads
    for i in range(sc.plan_len):
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


def classify(sc, scan):
    """Fill scan from sc.raw by the calibration's thresholds: -> how many
    places read other than at the last calib.track (the first
    len(calibration.changed) of them are listed there)."""
    cal = sc.calibration
    lo = cal.lo
    hi = cal.hi
    loc = cal.loc
    hic = cal.hic
    prev = cal.prev
    changed = cal.changed
    most = len(changed)
    count = 0
    raw = sc.raw
    fault = sc.fault
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
