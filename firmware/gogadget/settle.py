"""Settling raw scans into the stable view of the board the referee reads.

Debouncing, per place.  A place's reading counts (is adopted into `stable`)
once the sensor has given the same value for config.stable_scans scans in a
row, so a single-scan flicker never counts, however noisy the rest of the
board is.  While the sensors flicker a lot (measured: flickers per scan over
the last second or so), up to _MAX_EXTRA scans are added so that chance runs
of equal misreadings stay below _FALSE_RATE a scan.

Adopted changes are handed on together: not while another place is still
settling (a change seen for 2 or more scans but fewer than stable_scans),
nor while a neighbour of an adopted place changed fewer than stable_scans
scans ago (a flicker on the near end of a slid stone must not let the far
end through alone), for at most hand_settle_ms.  A hand or sleeve over the
board shows as many places changing at once: when hand_places or more
places have a change that has lasted 2 or more scans and began within the
last hand_window_ms, nothing is adopted until hand_settle_ms after that
stops.  Single-scan flickers never count towards it, so sensor noise spread
over the board is not a hand.

An unchanged scan with every place settled costs one buffer comparison and
allocates nothing; while places settle, one pass over the board per scan
(no allocation either).  So that the idle scan stays one comparison, the
caller may skip feed() while `resting` is true and the scan equals `last`.
"""
from gogadget.compat import const, ticks_add, ticks_diff
from gogadget.scan import new_scan

_MAX_EXTRA = const(3)  # scans the debounce may add for noisy sensors
_FALSE_RATE = 1e-6  # accepted chance per scan that flickers pass the debounce


class Settler:
    """Raw scans in (feed), the settled reading of every place out (stable).
    `last` and `resting` are read-only for callers."""

    def __init__(self, size, config):
        n = size * size
        self.size = size
        self.n = n
        self.config = config
        self.stable = new_scan(size)  # the adopted reading of every place
        self.last = new_scan(size)  # the last reading of every place
        self._run = bytearray(n)  # scans in a row `last` has read so (saturates)
        self.restart()

    def restart(self):
        """Fresh timing for a new game; what the places read is kept (the
        stones on the board have not moved)."""
        config = self.config
        hz = config.scan_hz
        k = config.stable_scans
        # Hand window in scans; run counters saturate just past it (and past
        # the longest debounce, stable_scans + _MAX_EXTRA).
        self._window = max(k + _MAX_EXTRA + 1, config.hand_window_ms * hz // 1000)
        if self._window > 250:
            self._window = 250
        self._k = k
        self._flick = 0
        # Noisy sensors: with f single-scan flickers a scan over n places, a
        # false reading lasts k scans about n * (f / n) ** k times a scan.
        # Keep that under _FALSE_RATE: the largest f (x1024) each k allows.
        n = self.n
        self._k_limits = tuple(int(1024 * (_FALSE_RATE * n ** (kk - 1)) ** (1.0 / kk))
                               for kk in range(k, k + _MAX_EXTRA))
        # A place part-way through settling must still be looked at on the
        # next scan, even if that scan equals the last one.
        self._busy = 0 if self.last == self.stable else 1
        self._waiting = False
        self._wait_from = 0
        self._quiet = False
        self._quiet_until = 0
        self.resting = True  # no place settling, no flicker rate decaying

    def feed(self, scan, now_ms):
        """Take one raw scan; True when a settled reading changed.
        Allocates nothing."""
        changed = False
        if self._busy or scan != self.last:
            if len(scan) != self.n:
                raise ValueError("scan is not %dx%d" % (self.size, self.size))
            changed = self._debounce(scan, now_ms)
        elif self._flick:
            self._noise(0)
        else:
            return False
        self.resting = not (self._busy or self._flick)
        return changed

    def _debounce(self, scan, now):
        """Per-place debouncing and the hand detector (see the module notes)."""
        cand = self.last
        run = self._run
        stable = self.stable
        k = self._k
        window = self._window
        cap = window + 1
        busy = ready = moving = recent = flick = 0
        lo = hi = 0  # the places ready to be adopted lie in lo..hi-1
        for pl in range(self.n):
            s = scan[pl]
            c = cand[pl]
            if s != c:
                if c != stable[pl] and run[pl] == 1:
                    flick += 1  # read for one scan only: a flicker
                cand[pl] = s
                run[pl] = r = 1
            else:
                r = run[pl]
                if r < cap:
                    r += 1
                    run[pl] = r
            if r < cap:
                busy += 1
            if s != stable[pl]:
                if r >= k:
                    if not ready:
                        lo = pl
                    ready += 1
                    hi = pl + 1
                elif r >= 2:
                    moving += 1
                if 2 <= r <= window:
                    recent += 1
        # Places waiting to be adopted keep the loop going after they settle.
        self._busy = busy + ready
        self._noise(flick)
        settle = self.config.hand_settle_ms
        if recent >= self.config.hand_places:
            self._quiet = True
            self._quiet_until = ticks_add(now, settle)
        if not ready:
            self._waiting = False
            return False
        if self._quiet:
            if ticks_diff(now, self._quiet_until) < 0:
                return False
            self._quiet = False
        if moving or self._beside_unsettled(k, lo, hi):
            # Another place is on its way: hand both on together (a slid
            # stone's two ends), unless it never settles.
            if not self._waiting:
                self._waiting = True
                self._wait_from = now
            if ticks_diff(now, self._wait_from) < settle:
                return False
        self._waiting = False
        for pl in range(lo, hi):
            if run[pl] >= k and cand[pl] != stable[pl]:
                stable[pl] = cand[pl]
        self._busy = busy
        return True

    def _noise(self, flick):
        """Track the flicker rate (a leaky sum over about 64 scans, x1024 per
        flicker a scan) and lengthen the debounce while it is high."""
        f = self._flick
        # Round the leak up so the sum really returns to 0 (and the settler
        # to rest) once the flicker stops.
        f += (flick << 4) - ((f + 63) >> 6)
        self._flick = f
        limits = self._k_limits
        extra = 0
        while extra < len(limits) and f > limits[extra]:
            extra += 1
        self._k = self.config.stable_scans + extra

    def _beside_unsettled(self, k, lo, hi):
        """Is a place about to be adopted next to one that changed less than
        k scans ago?  A flicker on the near end of a slid stone must not let
        the far end through alone, where it would read as a new stone."""
        run = self._run
        cand = self.last
        stable = self.stable
        size = self.size
        n = self.n
        for pl in range(lo, hi):
            if run[pl] >= k and cand[pl] != stable[pl]:
                c = pl % size
                if (c > 0 and run[pl - 1] < k) or (c < size - 1 and run[pl + 1] < k) \
                        or (pl >= size and run[pl - size] < k) \
                        or (pl + size < n and run[pl + size] < k):
                    return True
        return False
