"""What a calibration and its file share: the file's mark, the
uncalibrated defaults, the tracking's table sizes and the error a bad
file raises.  hw/calib.py (a game's) and hw/calibfile.py (loaded for a
save or a read and let go of) both import it, neither the other's
constants, so the two never import each other (tests/test_imports.py)."""
from gogadget.compat import const, zeros

MAGIC = b"GGC1"
# Threshold at share / 256 of the median step from the baseline: half way
# between an empty point's worst (the neighbours' fields the black step
# shows on the empty places between its stones: 1 in RANK_PER of them are
# worse) and the weakest stone (1 in RANK_PER of the samples are weaker),
# at most 1.5 times that crosstalk, within calib.py's SHARE_MIN..SHARE_MAX;
# THRESHOLD_SHARE before that is measured
# (make bench BENCH=sensors gives the margins this leaves).
THRESHOLD_SHARE = const(56)
# Changed places one call looks at with their neighbours (a capture of
# more waits for its turn), and the places one call may look at.
CHANGED = const(24)
TODO = const(128)  # 5 * CHANGED + calib.py's TRACK_PLACES
# Uncalibrated guess: mid-rail baseline, steps of a typical 3 mm N52 magnet
# 4 mm above a DRV5053VA.
DEFAULT_BASE = const(32768)
DEFAULT_STEP = const(8000)


class CalibrationError(ValueError):
    pass


def filled(typecode, n, value):
    """An array of n items of value, in one allocation (compat.zeros)."""
    a = zeros(typecode, n)
    for i in range(n):
        a[i] = value
    return a
