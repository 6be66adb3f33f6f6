"""What a calibration's file and its derivation share: the file's mark,
the uncalibrated step, the threshold share and the error a bad file
raises.  hw/calib.py (a game's) and hw/calibfile.py (loaded for a
save or a read and let go of) both import it, neither the other's
constants, so the two never import each other (tests/test_imports.py)."""
from gogadget.compat import const, zeros

# The file's mark; its last byte is the format ("1": the only one shipped).
# A newer firmware reads every older format; this one leaves a newer one's
# file as it is (calibfile.check says so; nothing writes it back).
MAGIC = b"GGC1"
# Threshold at share / 256 of the median step from the baseline: half way
# between an empty point's worst (the neighbours' fields the black step
# shows on the empty places between its stones: 1 in RANK_PER of them are
# worse) and the weakest stone (1 in RANK_PER of the samples are weaker),
# at most 1.5 times that crosstalk, within calibderive.py's _SHARE_MIN..
# _SHARE_MAX;
# THRESHOLD_SHARE before that is measured
# (make bench BENCH=sensors gives the margins this leaves).
THRESHOLD_SHARE = const(56)
# Uncalibrated guess: steps of a typical 3 mm N52 magnet 4 mm above a
# DRV5053VA (hw/calibfile.py's _DEFAULT_BASE: mid-rail baseline).
DEFAULT_STEP = const(8000)


class CalibrationError(ValueError):
    pass


def filled(typecode, n, value):
    """An array of n items of value, in one allocation (compat.zeros)."""
    a = zeros(typecode, n)
    for i in range(n):
        a[i] = value
    return a
