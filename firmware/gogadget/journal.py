"""The move journal: an append-only file that survives a power cut at any byte.

Every accepted event of the game (new game, rules, its number, set-up stone,
move, pass, undo, resignation, result) is one fixed-size record of RECORD bytes:

    0     0xA0 | kind          (the high nibble marks a record start)
    1     arg                  (colour, board size, ko rule ...)
    2-3   value, little endian (point, komi * 2 + 32768 ...)
    4-6   extra bytes
    7     CRC-8 of bytes 0-6

A cut leaves at worst a partial last record, and flash that was being
written may read back as garbage: either way the first record whose length,
marker or CRC is wrong ends the good part.  journalread.load() keeps the
whole damaged file aside (journal-N.bad), rewrites the good part and says what it did.

K_NEW carries the journal's FORMAT (b6's high nibble).  A new game replaces the journal: the header is written to journal.tmp and
renamed over the old one, so a cut leaves either game, never neither.
Finished games are kept beside it as NNNN.sgf.
"""
import os

from gogadget.compat import const

RECORD = const(8)
K_NEW = const(1)  # arg size, value komi*2+32768, b4 handicap, b5 preset index, b6 flags | FORMAT << 4
K_RULES = const(2)  # arg ko, value packed options (see referee)
K_SETUP = const(3)  # arg colour, value point
K_MOVE = const(4)  # arg colour, value point (0: pass)
K_UNDO = const(5)
K_RESIGN = const(6)  # arg colour that resigned
K_RESULT = const(7)  # arg winner (0 draw), value margin*2
K_KOMI = const(8)  # value komi*2+32768
K_GAME = const(9)  # value the game's number (the NNNN.sgf it will be kept as)
K_CLOCK = const(10)  # arg colour (+4 in overtime, +16 the time left after its move: BL/WL), value+b4+b5 ms left, b6 periods/stones left; arg 8+system: a time control set over GTP (clockgtp)

# The journal's format, in K_NEW's high nibble of b6: 0 before it was
# marked, 1 with every move's time left in its K_CLOCK record (arg 16).  A
# newer firmware reads every older one; this one sets a newer one's journal
# aside whole, unread (journalread.load), and says so.
FORMAT = const(1)

NAME = "journal.bin"
TMP = "journal.tmp"


# crc8 as viper code on the RP2040 (hw/rp2fast.py installs it): every
# record a move writes, and every record read back at boot, is checked.
_FAST = [None]


def use_fast(crc8):
    _FAST[0] = crc8


def crc8(data, n):
    """CRC-8 (polynomial 0x07) of data[0:n]."""
    if _FAST[0] is not None:
        return _FAST[0](data, n)
    crc = 0
    for i in range(n):
        crc ^= data[i]
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode(kind, arg=0, value=0, b4=0, b5=0, b6=0):
    rec = bytearray(RECORD)
    rec[0] = 0xA0 | kind
    rec[1] = arg
    rec[2] = value & 0xFF
    rec[3] = (value >> 8) & 0xFF
    rec[4] = b4
    rec[5] = b5
    rec[6] = b6
    rec[7] = crc8(rec, 7)
    return rec


def _sync():
    sync = getattr(os, "sync", None)
    if sync is not None:
        sync()


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _replace(tmp, path):
    # Unix rename replaces; some flash file systems refuse, so remove first
    # (journalread.load() finishes the job if the cut falls between the two).
    try:
        os.rename(tmp, path)
    except OSError:
        os.remove(path)
        os.rename(tmp, path)


def ensure_dir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # exists (or cannot be made: the first write will say so)


class Journal:
    """The journal file of one store directory."""

    def __init__(self, store_dir):
        self.dir = store_dir
        self.path = store_dir + "/" + NAME
        self.tmp = store_dir + "/" + TMP
        self.file = None  # open for appending from the first record on
        self.size = 0  # bytes in the journal file
        ensure_dir(store_dir)

    def close(self):
        if self.file is not None:
            self.file.close()
            self.file = None

    def start(self, records):
        """Begin a new game: the journal becomes exactly these records."""
        self.close()
        data = b"".join(records)
        with open(self.tmp, "wb") as f:
            f.write(data)
            f.flush()
        _sync()
        _replace(self.tmp, self.path)
        _sync()
        self.size = len(data)

    def append(self, record):
        """Add one record; it is on flash when this returns."""
        if self.file is None:
            self.file = open(self.path, "ab")
        self.file.write(record)
        self.file.flush()
        _sync()
        self.size += len(record)

# -- finished games ----------------------------------------------------------


def game_names(store_dir):
    """NNNN.sgf names in the store, oldest first."""
    try:
        names = os.listdir(store_dir)
    except OSError:
        return []
    out = [n for n in names if len(n) == 8 and n.endswith(".sgf") and n[:4].isdigit()]
    out.sort()
    return out


def save_game(store_dir, text):
    """Keep a finished game as the next NNNN.sgf; returns its name."""
    ensure_dir(store_dir)
    names = game_names(store_dir)
    n = int(names[-1][:4]) + 1 if names else 1
    name = "%04d.sgf" % n
    tmp = store_dir + "/game.tmp"
    with open(tmp, "wb") as f:
        f.write(text.encode())
        f.flush()
    _sync()
    _replace(tmp, store_dir + "/" + name)
    _sync()
    return name
