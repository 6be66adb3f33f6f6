"""The journal read back at boot, and set aside whole: loaded for the job
and let go of after it (app.boot, gameops.keep_unsaved): on MicroPython a
module's bytecode is heap, and a game in progress only writes its journal
(journal.py).  See journal.py for the records and what a cut leaves."""
import os

from gogadget.compat import const
from gogadget.journal import FORMAT, RECORD, K_NEW, crc8, _exists, _replace, _sync

_KINDS = const(11)  # record kinds are 1..journal.K_CLOCK


def decode(data, pos):
    """(kind, arg, value, b4, b5, b6) of the record at pos, or None if bad."""
    if pos + RECORD > len(data):
        return None
    if data[pos] & 0xF0 != 0xA0:
        return None
    if crc8(data if pos == 0 else memoryview(data)[pos:pos + RECORD], 7) != data[pos + 7]:
        return None
    kind = data[pos] & 0x0F
    if kind == 0 or kind >= _KINDS:
        return None
    return (kind, data[pos + 1], data[pos + 2] | (data[pos + 3] << 8),
            data[pos + 4], data[pos + 5], data[pos + 6])


def _size(path):
    return os.stat(path)[6]


def _good_length(path, rec):
    """Bytes of the good part of a journal file, read a record at a time
    into rec (RECORD bytes, allocated once): a long game's journal is never
    one block of the heap, which a fragmented heap may not have."""
    good = 0
    with open(path, "rb") as f:
        while f.readinto(rec) == RECORD:
            if decode(rec, 0) is None or (good == 0 and rec[0] & 0x0F != K_NEW):
                break
            good += RECORD
    return good


def _copy(src, dst, n):
    """The first n bytes of src as the file dst (on flash when this returns),
    through a small buffer."""
    buf = bytearray(64)
    with open(src, "rb") as f, open(dst, "wb") as g:
        while n > 0:
            got = f.readinto(buf)
            if not got:
                break
            got = min(got, n)
            g.write(memoryview(buf)[:got] if got < len(buf) else buf)
            n -= got
        g.flush()
    _sync()


def load(journal):
    """Read the journal: (records, report).  records is a Records (a
    sequence of the file's good records, each read from flash and decoded
    when it is asked for: neither the file nor its 400 records are ever
    in the heap at once), empty if there is no journal; report is "" or
    what was wrong and what was kept aside."""
    journal.close()
    report = ""
    rec = bytearray(RECORD)
    if _exists(journal.tmp):
        size = _size(journal.tmp)
        good = _good_length(journal.tmp, rec)
        if good and good == size:
            # A new game was written but the cut came before the rename.
            _replace(journal.tmp, journal.path)
        else:
            os.remove(journal.tmp)  # a header cut short: no move was in it
    if not _exists(journal.path):
        journal.size = 0
        return Records(None, 0, rec), report
    with open(journal.path, "rb") as f:
        f.readinto(rec)
    if decode(rec, 0) is not None and rec[6] >> 4 > FORMAT:
        # A newer firmware's game: its records may be of kinds this one does
        # not know, which would read as damage; kept whole, never cut.
        journal.size = 0
        name = set_aside(journal, "new")
        return Records(None, 0, rec), (
            "journal of a newer firmware (format %d, this one reads %d): kept as %s, "
            "not resumed" % (rec[6] >> 4, FORMAT, name))
    size = _size(journal.path)
    good = _good_length(journal.path, rec)
    if good < size:
        bad = _aside_name(journal)
        _copy(journal.path, journal.dir + "/" + bad, size)
        report = "journal damaged at byte %d of %d: kept as %s, %d records recovered" % (
            good, size, bad, good // RECORD)
        _copy(journal.path, journal.tmp, good)
        _replace(journal.tmp, journal.path)
        _sync()
    journal.size = good
    return Records(journal.path, good // RECORD, rec), report


def _aside_name(journal, ext="bad"):
    n = 1
    while _exists(journal.dir + "/journal-%d.%s" % (n, ext)):
        n += 1
    return "journal-%d.%s" % (n, ext)

def set_aside(journal, ext="bad"):
    """Move the journal aside whole (as journal-N.bad, without reading
    it: a game that could not be saved as SGF is kept this way; a newer
    firmware's as journal-N.new); returns the name, or "" when there was
    no journal or it could not be moved."""
    journal.close()
    name = _aside_name(journal, ext)
    try:
        os.rename(journal.path, journal.dir + "/" + name)
    except OSError:
        return ""
    _sync()
    return name



class Records:
    """The good records of a journal file, each read and decoded when it is
    asked for (len, indexing, iteration), into one buffer of RECORD bytes.
    Read before the game writes to the journal again (the referee replays
    them at boot)."""

    def __init__(self, path, n, rec=None):
        self._path = path
        self._n = n
        self._rec = rec if rec is not None else bytearray(RECORD)

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("record index out of range")
        with open(self._path, "rb") as f:
            f.seek(i * RECORD)
            f.readinto(self._rec)
        return decode(self._rec, 0)

    def __iter__(self):
        if not self._n:
            return
        rec = self._rec
        with open(self._path, "rb") as f:
            for _ in range(self._n):
                f.readinto(rec)
                yield decode(rec, 0)
