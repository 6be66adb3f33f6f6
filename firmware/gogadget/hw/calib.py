"""Calibration of the linear Hall sensors: per-place thresholds from an
empty-board baseline and black and white stone samples.

Every sensor has its own offset and sensitivity (DRV5053 / SS49E parts vary
by +-20 %), so thresholds are per place: half way between the empty reading
and the stone reading.  A place may have been sampled with only one colour
(the checkerboard procedure needs just one set of stones); the other colour's
step is then its own step mirrored and scaled by the board-wide ratio of the
white to black steps, which the magnets (not the sensors) decide.

File: b"GGC1", size, then base, black, white as little-endian u16 arrays and
a flags byte per place (bit 0 black sampled, bit 1 white sampled).
"""
import struct
from array import array

from gogadget.compat import const
from gogadget.scan import S_BLACK, S_WHITE

MAGIC = b"GGC1"
MIN_STEP = const(1500)  # u16 counts, ~75 mV: less than this is no magnet
HAVE_BLACK = const(1)
HAVE_WHITE = const(2)
# Uncalibrated guess: mid-rail baseline, steps of a typical 3 mm N52 magnet
# 4 mm above a DRV5053VA.
DEFAULT_BASE = const(32768)
DEFAULT_STEP = const(8000)


class CalibrationError(ValueError):
    pass


def _median(values):
    if not values:
        return 0
    s = sorted(values)
    return s[len(s) // 2]


class Calibration:
    def __init__(self, size):
        n = size * size
        self.size = size
        self.base = array("H", [DEFAULT_BASE] * n)
        self.black = array("H", [DEFAULT_BASE + DEFAULT_STEP] * n)
        self.white = array("H", [DEFAULT_BASE - DEFAULT_STEP] * n)
        self.flags = bytearray(n)
        # Classification table used by the scanner's hot loop: a reading
        # >= hi is colour hic, <= lo is colour loc, otherwise empty.
        self.lo = array("H", [0] * n)
        self.hi = array("H", [0] * n)
        self.loc = bytearray(n)
        self.hic = bytearray(n)
        self.calibrated = False
        self.bad = []
        self.derive()

    # --- taking samples --------------------------------------------------
    def set_base(self, readings):
        for i in range(len(self.base)):
            self.base[i] = readings[i]

    def set_sample(self, colour, readings, places):
        """Record a stone sample of colour at each of places."""
        target = self.black if colour == S_BLACK else self.white
        bit = HAVE_BLACK if colour == S_BLACK else HAVE_WHITE
        for p in places:
            target[p] = readings[p]
            self.flags[p] |= bit

    # --- thresholds ------------------------------------------------------
    def derive(self):
        """Compute the thresholds; returns the list of places that cannot be
        told apart (no step or black and white on the same side), which are
        also kept in self.bad.  Raises CalibrationError if the board as a
        whole makes no sense (no samples, magnets the wrong way round)."""
        n = len(self.base)
        sampled = [f for f in self.flags if f]
        steps_b = [self.black[i] - self.base[i] for i in range(n) if self.flags[i] & HAVE_BLACK]
        steps_w = [self.white[i] - self.base[i] for i in range(n) if self.flags[i] & HAVE_WHITE]
        mb = _median(steps_b)
        mw = _median(steps_w)
        if sampled and (not steps_b or not steps_w):
            raise CalibrationError("calibration needs both black and white samples")
        if sampled and (mb > 0) == (mw > 0):
            raise CalibrationError("black and white stones move the sensors the same way: "
                                   "check the magnet polarity (black N up, white S up)")
        ratio_num = abs(mw) if sampled else 1
        ratio_den = abs(mb) if sampled else 1
        bad = []
        for i in range(n):
            base = self.base[i]
            f = self.flags[i]
            db = self.black[i] - base
            dw = self.white[i] - base
            if sampled and not f & HAVE_BLACK:
                db = -dw * ratio_den // ratio_num if ratio_num else 0
            if sampled and not f & HAVE_WHITE:
                dw = -db * ratio_num // ratio_den if ratio_den else 0
            if abs(db) < MIN_STEP or abs(dw) < MIN_STEP or (db > 0) == (dw > 0):
                bad.append(i)
                # Never classify a stone here: thresholds beyond the rails.
                self.lo[i], self.loc[i], self.hi[i], self.hic[i] = 0, S_WHITE, 65535, S_BLACK
                continue
            tb = _clamp(base + db // 2)
            tw = _clamp(base + dw // 2)
            if db > 0:
                self.lo[i], self.loc[i], self.hi[i], self.hic[i] = tw, S_WHITE, tb, S_BLACK
            else:
                self.lo[i], self.loc[i], self.hi[i], self.hic[i] = tb, S_BLACK, tw, S_WHITE
        self.calibrated = bool(sampled)
        self.bad = bad
        return bad

    def span(self, place):
        """(low, high) readings a working sensor can show at place: the stone
        samples widened by half a step either way."""
        b = self.black[place]
        w = self.white[place]
        lo = min(b, w)
        hi = max(b, w)
        margin = (hi - lo) // 4
        return max(0, lo - margin), min(65535, hi + margin)

    # --- flash -----------------------------------------------------------
    def save(self, path):
        """Write atomically: a power cut leaves the old file or the new one."""
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(MAGIC + struct.pack("<B", self.size))
            for a in (self.base, self.black, self.white):
                f.write(struct.pack("<%dH" % len(a), *a))
            f.write(self.flags)
        import os
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(tmp, path)

    @classmethod
    def load(cls, path, size):
        """Read a calibration file; CalibrationError if it is damaged or for
        another board size (OSError if it is missing)."""
        with open(path, "rb") as f:
            data = f.read()
        n = size * size
        if len(data) > 4 and data[:4] == MAGIC and data[4] != size:
            raise CalibrationError("calibration file %s is for %dx%d" % (path, data[4], data[4]))
        if len(data) != 5 + 7 * n or data[:4] != MAGIC:
            raise CalibrationError("calibration file %s is damaged" % path)
        cal = cls(size)
        off = 5
        for a in (cal.base, cal.black, cal.white):
            vals = struct.unpack_from("<%dH" % n, data, off)
            for i in range(n):
                a[i] = vals[i]
            off += 2 * n
        cal.flags[:] = data[off:off + n]
        cal.derive()
        return cal


def _clamp(v):
    return 0 if v < 0 else 65535 if v > 65535 else v


def checkerboard(size, parity):
    """Places with (row + col) % 2 == parity: the calibration stone pattern
    (181 black on the even places of 19x19, 180 white on the odd ones)."""
    return [p for p in range(size * size) if (p // size + p % size) & 1 == parity]
