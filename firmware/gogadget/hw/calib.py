"""Calibration of the linear Hall sensors: per-place thresholds from an
empty-board baseline and black and white stone samples.

Every sensor has its own offset (DRV5053 / SS49E parts vary by +-20 %), so
the baseline is per place.  The threshold's distance from it is not half of
that place's own stone sample: one sample mixes the sensor with one stone's
magnet (+-30 %) and where the maker happened to put it (up to 5 mm off
centre, which halves the field at the reference height), so it can be 4x
the weakest stone that place will see.  The distance is THRESHOLD_SHARE of
the board-wide median step of that colour (the median averages the magnets
and offsets out), on the side the place's own sample says (a sensor mounted
backwards reads the other way).  host_sim/sim/physics.py and
`make bench BENCH=sensors` measure the margins this leaves.  A place may
have been sampled with only one colour (the checkerboard procedure needs just
one set of stones); the other colour's step is then its own step mirrored
and scaled by the board-wide ratio of the white to black steps, which the
magnets (not the sensors) decide.

File: b"GGC1", size, then base, black, white as little-endian u16 arrays, a
flags byte per place (bit 0 black sampled, bit 1 white sampled) and the
threshold share (a byte; files without it use THRESHOLD_SHARE) and the
neighbour share (a signed byte; files without it: 0, nothing assumed).

The stone samples and flags (1.8 KB on 19x19) stay in RAM only while a
calibration is taken: once the file holds them (load, save) only the
thresholds derived from them and the baseline are kept, and what needs the
samples again (derive, span, the drift's write-back) reads them from the
file.  The samples drift with the sensor like the baseline (the steps stay),
so what the file holds is moved by the drift tracked since it was written.

This module holds what a game needs of a calibration: the thresholds a
scan classifies by and the drift tracking.  The thresholds are derived from
the samples by hw/calibderive.py (with the calibration procedure's steps
and the file's read-back), which boot and the procedure load and let go
of: a game's heap never holds it.  The file's write and the samples' read
are hw/calibfile.py's, loaded for each and let go of (a game writes its
drift back a few times at most).
"""
import sys
from array import array

from gogadget.compat import const, forget
from gogadget.hw.calibfmt import CalibrationError

# (The derivation's constants are hw/calibderive.py's, the file's defaults
# hw/calibfile.py's: private there, they are no names on the board.)
# Drift tracking: an empty place whose reading sits within half the
# threshold distance of its baseline moves baseline and thresholds by
# 1/2**4 of the difference (hw/calibplain.py's _TRACK_SHIFT and its viper
# twin's); _TRACK_PLACES places a scan.
_TRACK_PLACES = const(8)


class Calibration:
    # Set by hw/calibfile.py's blank, which tells them (for the checker
    # only: MicroPython compiles no code for these).
    size: int
    base: array
    lo: array
    hi: array
    loc: bytearray
    ctx: array
    held: array
    xt: array
    saved: array
    prev: "bytearray | None"
    changed: array
    todo: array
    black: "array | None"
    white: "array | None"
    flags: "bytearray | None"
    file: "str | None"
    path: "str | None"
    fresh: bool
    calibrated: bool
    dirty: bool
    bad: list
    track_limit: int
    track_next: int
    share: int
    xshare: int
    xb: int
    xw: int
    xreach: int
    near: "list | None"

    def __init__(self, size):
        """An uncalibrated board's (the defaults): its arrays and what they
        hold are set and told in hw/calibfile.py's blank, loaded for it and
        let go of (a calibration is made at boot and by the procedure)."""
        from gogadget.hw import calibfile
        calibfile.blank(self, size)
        calibfile = None
        forget("hw.calibfile")
        if sys.platform != "rp2":
            _plain_look()  # loaded now, not in the first scan (the Pico has its viper twin)

    def track(self, raw, scan, count=-1, look=None):
        """Follow what moves a reading while the stones on it stay: the
        sensor's slow drift (temperature, the supply) and the neighbours'
        fields.  Every place whose own or a neighbour's code changed since
        the last call is looked at now; _TRACK_PLACES more a call, in turn,
        so a scan pays for a few.  count: how many places the scanner's
        classify found changed (listed in self.changed); -1: find them here
        (a plain loop over the board, 20 ms on a Pico's 19x19).  look: the
        viper twin of calibplain.look on the Pico (hw/viperscan.track_look).

        Drift moves the baseline (base), a little at a time, and only while
        the stones around a place stay the same: an empty place among empty
        neighbours is pulled to its baseline, any other place follows the
        change of its reading since it or a neighbour last changed.  In RAM
        only, but written back (save_drift) once it is a tracking band's
        width from the file, so a power cut in a warm game does not bring
        back the cold baseline under the resumed stones.

        A neighbour's field is kept apart (xt), as an offset of the place's
        thresholds: it comes and goes with the neighbour's stone.  A magnet
        reaches its neighbours (stress --physics worst seed 1200167: white
        stones pushed an empty A3 past its black threshold), and a threshold
        alone cannot separate the weakest stone among strong ones of its
        own colour from an empty point among strong ones of the other.  So
        when only the neighbours of an empty place changed, its offset
        becomes its reading's distance from its baseline (a fresh measure,
        never a sum of jumps), unless the reading jumped by a threshold's
        distance (a stone or a hand, never a neighbour's field).  A place
        looked at for the first time (after a power cut: seed 1400917) or
        under a stone starts from the neighbours' typical field, measured
        on the calibration's checkerboard (a stone's reading cannot tell its
        neighbours' field from its own magnet's: seed 1400078, an offset
        followed under a stone read its empty place as black once it was
        lifted).  A place the neighbours' field pushed over its threshold is
        read again at once (seed 1100019: a baseline that once followed a
        neighbour read a stone when the neighbour was lifted)."""
        lim = self.track_limit
        if not lim:
            return
        n = len(self.base)
        size = self.size
        prev = self.prev
        todo = self.todo
        # The places to look at, in one list (one frame: a call per place
        # would take a heap frame each, py/objfun.c): every changed place and
        # its neighbours first, then the next _TRACK_PLACES in turn.
        changed = self.changed
        if count > len(changed):  # the rest wait for their turn
            count = len(changed)
        elif count < 0:
            count = 0
            if prev is not None and scan != prev:
                for i in range(n):
                    if scan[i] != prev[i] and count < len(changed):
                        changed[count] = i
                        count += 1
        k = 0
        for c in range(count):
            i = changed[c]
            todo[k] = i
            k += 1
            if i % size:
                todo[k] = i - 1
                k += 1
            if i % size < size - 1:
                todo[k] = i + 1
                k += 1
            if i >= size:
                todo[k] = i - size
                k += 1
            if i + size < n:
                todo[k] = i + size
                k += 1
        count = k
        i = self.track_next
        for _ in range(_TRACK_PLACES):
            todo[count] = i
            count += 1
            i += 1
            if i >= n:
                i = 0
        self.track_next = i
        fresh = self.fresh  # the first call looks at every place at once
        if fresh:
            count = n
            self.fresh = False
        if look is None:
            look = _plain_look()
        if look(self, raw, scan, todo, count, 1 if fresh else 0):
            self.dirty = True
        if prev is not None:
            prev[:] = scan

    def samples(self):
        """(black, white, flags): the stone samples as arrays, and which
        were taken.  In RAM while a calibration is taken; else read from
        the file, moved by the drift tracked since it was written (the
        defaults when nothing was sampled: hw/calibfile.py)."""
        if self.flags is not None:
            return self.black, self.white, self.flags
        from gogadget.hw import calibfile
        try:
            return calibfile.samples(self)
        finally:
            calibfile = None
            forget("hw.calibfile")

    # --- flash -----------------------------------------------------------
    def save_drift(self):
        """Write the tracked baseline back to the file it came from (once
        some place drifted a tracking band's width from what it holds)."""
        if self.dirty and self.path:
            try:
                self.save(self.path)
            except (OSError, CalibrationError):  # flash full or gone, the file damaged:
                self.path = None  # go on with the RAM copy, stop trying
                try:  # and keep the samples in RAM, the file may go next
                    self.black, self.white, self.flags = self.samples()
                except (OSError, CalibrationError):
                    pass  # gone: samples() says so if a self-test asks

    def save(self, path):
        """Write atomically: a power cut leaves the old file or the new one
        (hw/calibfile.py, loaded for the write and let go of: a game writes
        its drift back a few times at most)."""
        from gogadget.hw import calibfile
        try:
            calibfile.save(self, path)
        finally:
            calibfile = None
            forget("hw.calibfile")


def _plain_look():
    """calibplain.look, the plain loop the Pico replaces with its viper
    twin (hw/viperscan.track_look): loaded only where there is none."""
    if not _PLAIN:
        from gogadget.hw.calibplain import look
        _PLAIN.append(look)
    return _PLAIN[0]


_PLAIN = []
