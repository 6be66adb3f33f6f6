"""A calibration's file (hw/calib.py's notes give its layout): the write
and the stone samples' read-back, each a few places at a time (the file,
2.5 KB on 19x19, is never one block of the heap).  calib.Calibration loads
this module for a save or a read of the samples and lets it go afterwards:
a game writes its drift back a few times at most."""
from array import array

from gogadget.compat import const
from gogadget.hw.calib import DEFAULT_BASE, DEFAULT_STEP, MAGIC, CalibrationError, _filled

_PIECE = const(32)  # places read or written at a time


def samples(cal):
    """(black, white, flags): the stone samples as arrays, and which
    were taken.  In RAM while a calibration is taken; else read from
    the file, moved by the drift tracked since it was written (the
    defaults when nothing was sampled)."""
    n = len(cal.base)
    black = _filled("H", n, DEFAULT_BASE + DEFAULT_STEP)
    white = _filled("H", n, DEFAULT_BASE - DEFAULT_STEP)
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


def _drift(cal, f, k, samples, start=0, m=-1):
    """Move samples[0:m] (the file's sample array k, 1 black or 2 white,
    from place start) by the drift tracked since the file was written:
    the file's baseline is read a few places at a time."""
    n = len(cal.base)
    if m < 0:
        m = n
    base = cal.base
    lim = cal.track_limit
    old = array("H", [0] * _PIECE)
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
            _copy_samples(cal, out, cal.file)  # the file's, moved by the drift
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


def _copy_samples(cal, out, path):
    n = len(cal.base)
    check(path, cal.size)
    piece = array("H", [0] * _PIECE)
    with open(path, "rb") as f:
        for k in (1, 2):
            done = 0
            while done < n:
                c = min(_PIECE, n - done)
                f.seek(5 + 2 * (k * n + done))
                f.readinto(memoryview(piece)[:c])
                _drift(cal, f, k, piece, done, c)
                out.write(memoryview(piece)[:c])
                done += c
        f.seek(5 + 6 * n)
        flags = bytearray(2 * _PIECE)
        done = 0
        while done < n:
            c = f.readinto(memoryview(flags)[:min(len(flags), n - done)])
            if not c:
                raise CalibrationError("calibration file %s is damaged" % path)
            out.write(memoryview(flags)[:c])
            done += c


def check(path, size):
    """The length of a calibration file for this size; CalibrationError if
    it is damaged or for another size (OSError if it is missing)."""
    import os
    n = size * size
    length = os.stat(path)[6]
    head = bytearray(5)
    with open(path, "rb") as f:
        got = f.readinto(head)
    if got == 5 and head[:4] == MAGIC and head[4] != size:
        raise CalibrationError("calibration file %s is for %dx%d" % (path, head[4], head[4]))
    if length not in (5 + 7 * n, 6 + 7 * n, 7 + 7 * n) or got != 5 or head[:4] != MAGIC:
        raise CalibrationError("calibration file %s is damaged" % path)
    return length
