"""A calibration's file (hw/calib.py's notes give its layout): the write
and the stone samples' read-back, each a few places at a time (the file,
2.5 KB on 19x19, is never one block of the heap); and an uncalibrated
board's arrays (blank: what a missing file means).  calib.Calibration loads
this module when it is made, for a save or a read of the samples, and lets
it go afterwards: a game writes its drift back a few times at most."""
import sys
from array import array

from gogadget.compat import const, zeros
from gogadget.hw.calibfmt import (DEFAULT_STEP, MAGIC, THRESHOLD_SHARE, CalibrationError,
                                  filled)
from gogadget.scan import S_WHITE

_PIECE = const(32)  # places read or written at a time
# Changed places one call looks at with their neighbours (a capture of
# more waits for its turn), and the places one call may look at.
_CHANGED = const(24)
_TODO = const(128)  # 5 * _CHANGED + calib.py's _TRACK_PLACES
_DEFAULT_BASE = const(32768)  # uncalibrated: a mid-rail baseline


def blank(cal, size):
    """Set Calibration cal up for a board of size uncalibrated (its
    __init__): the defaults."""
    n = size * size
    cal.size = size
    cal.base = filled("H", n, _DEFAULT_BASE)
    # The stone samples and which were taken (calibderive._HAVE_*): arrays while a
    # calibration is taken, else None (the file at `file` holds them, or
    # nothing is sampled: the defaults); samples() has them either way.
    cal.black = None
    cal.white = None
    cal.flags = None
    cal.file = None
    # Classification table used by the scanner's hot loop: a reading
    # <= lo is colour loc, >= hi the other colour (loc ^ 3: S_BLACK and
    # S_WHITE are 1 and 2; a table of it cost 361 bytes), otherwise
    # empty.
    # Uncalibrated: half the default step either side of the baseline
    # (what calibderive.derive gives with no samples).
    cal.lo = filled("H", n, _DEFAULT_BASE - DEFAULT_STEP // 2)
    cal.hi = filled("H", n, _DEFAULT_BASE + DEFAULT_STEP // 2)
    cal.loc = bytearray(n)
    for i in range(n):
        cal.loc[i] = S_WHITE
    cal.fresh = True  # calib.track looks at every place first
    cal.calibrated = False
    cal.bad = []
    cal.track_limit = 0
    cal.track_next = 0
    # Per place: what it and its four neighbours held when it was last
    # seen change, and its reading then (calib.track).
    cal.ctx = filled("H", n, 0xFFFF)
    cal.held = zeros("H", n)
    # Per place: the offset the neighbours' fields give its thresholds.
    cal.xt = zeros("h", n)
    # The scan codes of the last call, for a caller that does not say
    # which places changed (count -1: the tests', the host's benches);
    # the Pico's scanner always does (its classify compares with what
    # the scan buffer held), and keeps no copy.
    cal.prev = None if sys.platform == "rp2" else bytearray(n)
    cal.changed = zeros("H", _CHANGED)
    cal.todo = zeros("H", _TODO)
    # The baseline as the file holds it, and where drift goes (None: not
    # written back): drift tracked further than track_limit from it at
    # any place is written back (save_drift), so a power cut in a warm
    # game does not bring back the cold baseline under the resumed stones.
    cal.saved = array("H", cal.base)
    cal.path = None
    cal.dirty = False
    cal.share = THRESHOLD_SHARE
    # What one black neighbour moves a sensor, x256 of the median black
    # step (negative: towards white), measured on the checkerboard; a
    # place first looked at among stones (after a power cut, a new
    # calibration) starts from it rather than from no field at all.
    cal.xshare = 0
    cal.xb = 0  # that, in counts, for a black and a white neighbour
    cal.xw = 0
    cal.xreach = 0  # how far one neighbour's field may stray from it
    cal.near = None  # readings of the empty places beside the black samples


def samples(cal):
    """(black, white, flags): the stone samples as arrays, and which
    were taken.  In RAM while a calibration is taken; else read from
    the file, moved by the drift tracked since it was written (the
    defaults when nothing was sampled)."""
    n = len(cal.base)
    black = filled("H", n, _DEFAULT_BASE + DEFAULT_STEP)
    white = filled("H", n, _DEFAULT_BASE - DEFAULT_STEP)
    flags = bytearray(n)
    if cal.file is not None:
        check(cal.file, cal.size)
        with open(cal.file, "rb") as f:
            f.seek(5 + 2 * n)
            f.readinto(black)  # little-endian u16, as the RP2040 keeps them
            f.readinto(white)
            f.readinto(flags)
            for k, a in ((1, black), (2, white)):
                _drift(cal, f, k, a)
    return black, white, flags


def _drift(cal, f, k, samples, start=0, count=-1, old=None):
    """Move samples[0:count] (the file's sample array k, 1 black or 2
    white, from place start) by the drift tracked since the file was
    written: the file's baseline is read a few places at a time (into
    old, _PIECE places: save's, one for all its pieces)."""
    n = len(cal.base)
    m = n if count < 0 else count
    base = cal.base
    lim = cal.track_limit
    if old is None:
        old = zeros("H", _PIECE)
    done = 0
    while done < m:
        c = min(_PIECE, m - done)
        f.seek(5 + 2 * (start + done))
        f.readinto(memoryview(old)[:c])
        for j in range(c):
            drift = base[start + done + j] - old[j]
            v = samples[done + j]
            # as the sensor drifts, but a sample within a tracking band
            # of a rail stays (the u16 never wraps)
            if drift and lim < v < 65535 - lim:
                v += drift
                v = lim + 1 if v <= lim else 65534 - lim if v >= 65535 - lim else v
                samples[done + j] = v
        done += c
    f.seek(5 + 2 * (k * n + start + m))  # where a reader of array k goes on


def save(cal, path):
    """Write atomically: a power cut leaves the old file or the new one.
    Written in pieces: the file is never one block of the heap."""
    n = len(cal.base)
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        out.write(MAGIC)
        out.write(bytes((cal.size,)))
        out.write(cal.base)  # little-endian u16, as the RP2040 keeps them
        if cal.flags is None and cal.file is not None:
            # the file's, moved by the drift, a piece at a time
            n = len(cal.base)
            check(cal.file, cal.size)
            # Two buffers for all the pieces (each _drift call made its own
            # from a list: two allocations a piece).
            piece = zeros("H", _PIECE)
            old = zeros("H", _PIECE)
            with open(cal.file, "rb") as f:
                for k in (1, 2):
                    done = 0
                    while done < n:
                        c = min(_PIECE, n - done)
                        f.seek(5 + 2 * (k * n + done))
                        f.readinto(memoryview(piece)[:c])
                        _drift(cal, f, k, piece, done, c, old)
                        out.write(memoryview(piece)[:c])
                        done += c
                f.seek(5 + 6 * n)
                piece = bytearray(2 * _PIECE)  # the flags
                done = 0
                while done < n:
                    c = f.readinto(memoryview(piece)[:min(len(piece), n - done)])
                    if not c:
                        raise CalibrationError("calibration file %s is damaged" % cal.file)
                    out.write(memoryview(piece)[:c])
                    done += c
            piece = old = None
        else:  # a calibration just taken (or the defaults)
            black, white, flags = ((cal.black, cal.white, cal.flags) if cal.flags is not None
                                   else samples(cal))
            out.write(black)
            out.write(white)
            out.write(flags)
            black = white = flags = None
        out.write(bytes((cal.share, cal.xshare & 0xFF)))
    import os
    try:
        os.remove(path)
    except OSError:
        pass
    os.rename(tmp, path)
    cal.path = cal.file = path
    cal.dirty = False
    for i in range(n):
        cal.saved[i] = cal.base[i]
    cal.black = cal.white = cal.flags = None  # the file holds them


def check(path, size):
    """The length of a calibration file for this size; CalibrationError if
    it is damaged or for another size (OSError if it is missing)."""
    import os
    n = size * size
    length = os.stat(path)[6]
    head = bytearray(5)
    with open(path, "rb") as f:
        got = f.readinto(head)
    if got == 5 and head[:3] == MAGIC[:3] and head[3] > MAGIC[3]:
        raise CalibrationError("calibration file %s is of a newer firmware (format %s), kept"
                               % (path, chr(head[3])))
    if got == 5 and head[:4] == MAGIC and head[4] != size:
        raise CalibrationError("calibration file %s is for %dx%d" % (path, head[4], head[4]))
    if length not in (5 + 7 * n, 6 + 7 * n, 7 + 7 * n) or got != 5 or head[:4] != MAGIC:
        raise CalibrationError("calibration file %s is damaged" % path)
    return length
