"""A calibration's thresholds from its samples: the calibration
procedure's samples in (set_base, set_sample, set_near, on checkerboard's
places), the thresholds out (derive), and a calibration file read back
(load), which derives them again.  Boot and the calibration procedure use
it, a game never: hw/pico.py and hw/calibrate.py let go of it (and of
hw/calibfile.py) when done (compat.forget), so a game's heap holds only
what a scan needs (calib.py: the thresholds and the drift tracking).  The
method itself is told in calib.py's notes."""
from array import array

from gogadget.compat import const
from gogadget.hw.calib import Calibration
from gogadget.hw.calibfmt import DEFAULT_STEP, THRESHOLD_SHARE, CalibrationError
from gogadget.hw.calibfile import check
from gogadget.scan import S_BLACK, S_WHITE

# A board whose median step is below _MIN_STEP (u16 counts, ~32 mV) has
# magnets too weak or too far for its sensors; a place whose own step is
# below _BAD_SHARE / 256 of the median has no working sensor or no magnet.
_MIN_STEP = const(640)
_BAD_SHARE = const(31)
# The threshold share's bounds and the rank it is measured at
# (hw/calibfmt.py's THRESHOLD_SHARE says how).
_SHARE_MIN = const(40)
_SHARE_MAX = const(128)
_RANK_PER = const(64)
# A place's flags in the file: which stone samples were taken.
_HAVE_BLACK = const(1)
_HAVE_WHITE = const(2)


def _median(values):
    if not values:
        return 0
    s = sorted(values)
    return s[len(s) // 2]


def set_base(cal, readings):
    """Record the empty board's readings: the baseline."""
    for i in range(len(cal.base)):
        cal.base[i] = readings[i]


def set_sample(cal, colour, readings, places):
    """Record a stone sample of colour at each of places."""
    if cal.flags is None:
        cal.black, cal.white, cal.flags = cal.samples()
    target = cal.black if colour == S_BLACK else cal.white
    bit = _HAVE_BLACK if colour == S_BLACK else _HAVE_WHITE
    for p in places:
        target[p] = readings[p]
        cal.flags[p] |= bit


def set_near(cal, readings, places):
    """Record the readings of empty places among the black samples
    (the checkerboard's other half): what the neighbours' fields do."""
    cal.near = [(p, readings[p]) for p in places]


def _measure_share(cal, mb, mw, black, white, flags):
    # Fractions of the median step, x256: how far the neighbours push
    # an empty place (the black step's empty places, mirrored for white
    # by the magnets' ratio) and how short the weakest stones fall.
    xt = []
    for p, v in cal.near:
        if flags[p] & _HAVE_WHITE:
            xt.append(abs(v - cal.base[p]) * 256 // abs(mb))
    weak = []
    for i in range(len(cal.base)):
        f = flags[i]
        if f & _HAVE_BLACK:
            weak.append(abs(black[i] - cal.base[i]) * 256 // abs(mb))
        if f & _HAVE_WHITE:
            weak.append(abs(white[i] - cal.base[i]) * 256 // abs(mw))
    if not xt or not weak:
        return THRESHOLD_SHARE
    xt.sort()
    weak.sort()
    e = xt[len(xt) - 1 - len(xt) // _RANK_PER]
    w = weak[len(weak) // _RANK_PER]
    # Half way, but no further than 1.5 times the crosstalk seen: the
    # checkerboard shows four neighbours' fields, a game may put eight
    # around a point, and the weakest stone of the bowl, off centre, is
    # weaker than most samples.
    share = (e + w) // 2
    if share > e * 3 // 2:
        share = e * 3 // 2
    return _SHARE_MIN if share < _SHARE_MIN else _SHARE_MAX if share > _SHARE_MAX else share


def _measure_xshare(cal, mb, flags):
    # The median over the checkerboard's empty places of their reading's
    # distance from the baseline per black neighbour, x256 of mb.
    size = cal.size
    n = len(cal.base)
    per = []
    for p, v in cal.near:
        col = p % size
        k = 0
        for q in (p - 1 if col else -1, p + 1 if col < size - 1 else -1, p - size, p + size):
            if 0 <= q < n and flags[q] & _HAVE_BLACK:
                k += 1
        if k:
            per.append((v - cal.base[p]) * 256 // (k * mb))
    x = _median(per)
    return -127 if x < -127 else 127 if x > 127 else x


def derive(cal):
    """Compute the thresholds; returns the list of places that cannot be
    told apart (no step or black and white on the same side), which are
    also kept in cal.bad.  Raises CalibrationError if the board as a
    whole makes no sense (no samples, magnets the wrong way round)."""
    n = len(cal.base)
    black, white, flags = cal.samples()
    sampled = [f for f in flags if f]
    steps_b = [black[i] - cal.base[i] for i in range(n) if flags[i] & _HAVE_BLACK]
    steps_w = [white[i] - cal.base[i] for i in range(n) if flags[i] & _HAVE_WHITE]
    mb = _median(steps_b)
    mw = _median(steps_w)
    if sampled and (not steps_b or not steps_w):
        raise CalibrationError("calibration needs both black and white samples")
    if sampled and (mb > 0) == (mw > 0):
        raise CalibrationError("black and white stones move the sensors the same way: "
                               "check the magnet polarity (black N up, white S up)")
    if sampled and min(abs(mb), abs(mw)) < _MIN_STEP:
        raise CalibrationError("the stones barely move the sensors (median step %d, "
                               "%d needed): magnets too weak or too far"
                               % (min(abs(mb), abs(mw)), _MIN_STEP))
    ratio_num = abs(mw) if sampled else 1
    ratio_den = abs(mb) if sampled else 1
    if sampled and cal.near:
        cal.share = _measure_share(cal, mb, mw, black, white, flags)
        cal.xshare = _measure_xshare(cal, mb, flags)
        cal.near = None
    cal.xb = mb * cal.xshare // 256 if sampled else 0
    cal.xw = -cal.xb * abs(mw) // abs(mb) if sampled and mb else 0
    cal.xreach = 3 * max(abs(cal.xb), abs(cal.xw))
    # Distances of the thresholds from the baseline (uncalibrated: half
    # the default step).
    gap_b = abs(mb) * cal.share // 256 if sampled else DEFAULT_STEP // 2
    gap_w = abs(mw) * cal.share // 256 if sampled else DEFAULT_STEP // 2
    least_b = abs(mb) * _BAD_SHARE // 256 if sampled else _MIN_STEP
    least_w = abs(mw) * _BAD_SHARE // 256 if sampled else _MIN_STEP
    bad = []
    for i in range(n):
        base = cal.base[i]
        f = flags[i]
        db = black[i] - base
        dw = white[i] - base
        if sampled and not f & _HAVE_BLACK:
            db = -dw * ratio_den // ratio_num if ratio_num else 0
        if sampled and not f & _HAVE_WHITE:
            dw = -db * ratio_num // ratio_den if ratio_den else 0
        if abs(db) < least_b or abs(dw) < least_w or (db > 0) == (dw > 0):
            bad.append(i)
            # Never classify a stone here: thresholds beyond the rails.
            cal.lo[i], cal.loc[i], cal.hi[i] = 0, S_WHITE, 65535
            continue
        tb = _clamp(base + gap_b if db > 0 else base - gap_b)
        tw = _clamp(base + gap_w if dw > 0 else base - gap_w)
        if db > 0:
            cal.lo[i], cal.loc[i], cal.hi[i] = tw, S_WHITE, tb
        else:
            cal.lo[i], cal.loc[i], cal.hi[i] = tb, S_BLACK, tw
    cal.calibrated = bool(sampled)
    cal.bad = bad
    for i in range(n):  # new thresholds: the neighbours' fields are measured again
        cal.xt[i] = 0
        cal.ctx[i] = 0xFFFF
    cal.fresh = True
    cal.track_limit = min(gap_b, gap_w) // 2 if sampled else 0
    return bad


def load(path, size):
    """Read a calibration file; CalibrationError if it is damaged or for
    another board size (OSError if it is missing).  Read straight into
    the arrays that keep it: no buffer of the whole file."""
    length = check(path, size)
    n = size * size
    cal = Calibration(size)
    cal.black = array("H", cal.base)
    cal.white = array("H", cal.base)
    cal.flags = bytearray(n)
    with open(path, "rb") as f:
        f.seek(5)
        for a in (cal.base, cal.black, cal.white):
            f.readinto(a)  # little-endian u16, as the RP2040 keeps them
        f.readinto(cal.flags)
        tail = bytearray(2)
        got = f.readinto(tail)
    if got >= 1 and tail[0] != 0xFF:
        cal.share = tail[0]
    x = tail[1] if got == 2 else 0
    cal.xshare = x - 256 if x > 127 else x
    derive(cal)
    for i in range(n):
        cal.saved[i] = cal.base[i]
    cal.path = cal.file = path
    cal.black = cal.white = cal.flags = None  # the file holds them
    return cal


def _clamp(v):
    return 0 if v < 0 else 65535 if v > 65535 else v


def checkerboard(size, parity):
    """Places with (row + col) % 2 == parity: the calibration stone pattern
    (181 black on the even places of 19x19, 180 white on the odd ones)."""
    return [p for p in range(size * size) if (p // size + p % size) & 1 == parity]
