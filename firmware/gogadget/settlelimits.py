"""The settler's noise limits (settle.py's notes: noisy sensors, the hand),
worked out in floating point whenever its timing is (Settler.restart: a
boot, a new game): loaded for that and let go of, so a game in progress
holds none of this bytecode."""
from math import exp, log

from gogadget.compat import const

# Accepted chance a second that flickers pass the debounce as a change
# (1e-6 a scan at the 50 scans/s this was first set for).
_FALSE_PER_S = 5e-5
_HAND_EXTRA = const(6)  # places the hand count may add for noisy sensors


def limits(n, period, k, extra, hp):
    """(flicker limits, hand limits), x1024, for n places scanned every
    period ms: the most flickers a scan each debounce k .. k + extra - 1
    allows, and each hand count from hp - 1 up."""
    # Noisy sensors: with f single-scan flickers a scan over n places, a
    # false reading lasts k scans about n * (f / n) ** k times a scan.
    # Keep that under _FALSE_PER_S: the largest f (x1024) each k allows
    # (in logarithms: n ** k overflows a single-precision float).
    rate = log(_FALSE_PER_S * period / 1000)
    k_limits = tuple(int(1024 * exp((rate + (kk - 1) * log(n)) / kk))
                     for kk in range(k, k + extra))
    # The hand: with f flickers a scan (the limits are x1024), two-scan
    # misreadings start about n * (f / n) ** 2 times a scan and count
    # for 2 scans, so about lam = 2 * f * f / n of them count at once
    # (Poisson).  A hand is hand_places places, one of them maybe a real
    # change: j chance ones happen about lam ** j / j! of the scans.
    # Keep that under _FALSE_PER_S: the largest f (x1024) each count
    # allows, j from hand_places - 1 up.
    hand_limits = tuple(
        int(1024 * exp(0.5 * (log(n / 2) + (rate + _log_factorial(j)) / j)))
        for j in range(hp - 1, hp - 1 + _HAND_EXTRA))
    return k_limits, hand_limits


def _log_factorial(j):
    out = 0.0
    for i in range(2, j + 1):
        out += log(i)
    return out
