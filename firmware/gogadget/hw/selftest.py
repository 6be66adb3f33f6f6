"""Boot self-test of the sensors: find the ones that cannot be trusted,
name them (LEDs and USB), and leave them out of every scan (S_FAULT) rather
than let them invent or hide stones.

Colour sensors are read `samples` times.  A sensor is faulty if a reading
sits at a rail (open wire, short, dead part), jumps more than NOISE_MAX
between reads (loose contact, missing decoupling), lies outside what the
calibration saw it do, or showed no magnet step at calibration.  For the
occupancy chain the tail byte tells whether the chain itself is whole.
"""
from gogadget import frame as F
from gogadget.compat import const
from gogadget.hw import pins
from gogadget.points import vertex, place_point

NOISE_MAX = const(3000)  # u16 counts between the extremes of `samples` reads


def check(scanner, samples=8):
    """Test every sensor; returns a list of (place, reason) and marks the
    places in scanner.fault (a bit a place: bit p & 7 of byte p >> 3)."""
    n = scanner.size * scanner.size
    faults = []
    if not hasattr(scanner, "calibration"):  # occupancy chain
        if not scanner.read_raw():
            faults = [(p, "shift-register chain broken") for p in range(n)]
    else:
        lo = [65535] * n
        hi = [0] * n
        for _ in range(samples):
            scanner.read_raw()
            raw = scanner.raw
            for p in range(n):
                v = raw[p]
                if v < lo[p]:
                    lo[p] = v
                if v > hi[p]:
                    hi[p] = v
        cal = scanner.calibration
        bad = set(cal.bad)
        samples = cal.samples() if cal.calibrated else None  # read once, not per place
        for p in range(n):
            if lo[p] < pins.RAIL_LOW:
                faults.append((p, "stuck low (%d)" % lo[p]))
            elif hi[p] > pins.RAIL_HIGH:
                faults.append((p, "stuck high (%d)" % hi[p]))
            elif hi[p] - lo[p] > NOISE_MAX:
                faults.append((p, "noisy (%d..%d)" % (lo[p], hi[p])))
            elif p in bad:
                faults.append((p, "no magnet step at calibration"))
            elif cal.calibrated:
                a, b = span(cal, p, samples)
                if lo[p] < a or hi[p] > b:
                    faults.append((p, "out of calibrated range (%d..%d, expected %d..%d)"
                                   % (lo[p], hi[p], a, b)))
    fault = scanner.fault
    for i in range(len(fault)):
        fault[i] = 0
    for p, _ in faults:
        fault[p >> 3] |= 1 << (p & 7)
    return faults


def span(cal, place, samples=None):
    """(low, high) readings a working sensor can show at place: the stone
    samples widened by half a step either way.  samples: what samples()
    gave, for a caller that asks about every place (it reads the file)."""
    black, white, _ = samples or cal.samples()
    b = black[place]
    w = white[place]
    lo = min(b, w)
    hi = max(b, w)
    margin = (hi - lo) // 4
    return max(0, lo - margin), min(65535, hi + margin)


def describe(size, faults):
    """One line per faulty sensor, naming the point as GTP does (D4)."""
    return ["sensor fault at %s: %s" % (vertex(size, place_point(size, p)), why) for p, why in faults]


def show(frm, faults):
    """Mark the faulty places in an LED frame (fast-blinking FAULT)."""
    for p, _ in faults:
        frm[1 + p] = F.FAST | F.FAULT
    if faults:
        frm[len(frm) - F.STATUS_PIXELS + F.STATUS_ALERT] = F.FAST | F.FAULT
    return frm


def run(sensors, size=0, leds=None, brightness=0):
    """The self-test as the board runs it at boot and after a calibration:
    the faults named over USB (given size) and, given leds, shown on them
    for 2 s; True when a fault was found.  The caller lets this module go
    afterwards (compat.forget): it is needed at those times only."""
    import time
    faults = check(sensors)
    if size:
        for line in describe(size, faults):
            print(line)
    if faults and leds is not None:
        fault_frame = show(F.new_frame(size), faults)
        fault_frame[0] = brightness
        leds.show(fault_frame, time.ticks_ms())
        time.sleep_ms(2000)
    return bool(faults)
