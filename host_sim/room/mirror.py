"""The board's game as the host reads it over GTP: its SGF parsed, and the referee stand-in."""
import re

from gogadget.board import Board
from gogadget.points import BLACK, WHITE, parse_sgf_coord
from gogadget.rules import KO_NONE, SUICIDE_ALLOWED

_PROP = re.compile(r"([A-Z]{1,2})((?:\[(?:[^\]\\]|\\.)*\])+)")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")
_MOVE = re.compile(r";([BW])\[([a-s]{0,2})\]")
# A move node with its properties: the clock's BL/WL, OB/OW (gogadget.clockio).
_NODE = re.compile(r";([BW])\[[a-s]{0,2}\]((?:[A-Z]{1,2}\[(?:[^\]\\]|\\.)*\])*)")
_OT = re.compile(r"(\d+)x(\d+) byo-yomi|(\d+)/(\d+) Canadian|(\d+) fischer")
UNKNOWN_TIME = 0xFFFF  # (gogadget.clock's: a move's time left not known)
_COLOUR = {"B": BLACK, "W": WHITE}


def read_record(text):
    """The board's own SGF (gogadget.sgf's writer) -> dict: size, komi,
    handicap, result, setup [(colour, point)], moves [(colour, point)]."""
    text = text.strip()
    cut = text.find("\n;")
    root = text if cut < 0 else text[:cut]
    props = {}
    for m in _PROP.finditer(root):
        props[m.group(1)] = _VALUE.findall(m.group(2))
    size = int(props.get("SZ", ["19"])[0])
    setup = []
    for key, colour in (("AB", BLACK), ("AW", WHITE)):
        for p in props.get(key, []):
            setup.append((colour, parse_sgf_coord(size, p)))
    moves = [] if cut < 0 else [(_COLOUR[c], parse_sgf_coord(size, p))
                                for c, p in _MOVE.findall(text[cut:])]
    return {"size": size, "komi": float(props.get("KM", ["0"])[0] or 0),
            "handicap": int(props.get("HA", ["0"])[0] or 0),
            "result": props.get("RE", [""])[0], "setup": setup, "moves": moves,
            "clock": _record_clock(props, "" if cut < 0 else text[cut:])}


def _record_clock(props, nodes):
    """The record's time control (TM, OT: main, period ms, periods or
    stones, increment ms) and each move's time left (BL/WL s, OB/OW), as
    the board's SGF writer puts them (gogadget.clockio); None without TM."""
    try:
        main = int(props["TM"][0]) * 1000
    except (KeyError, ValueError):
        return None
    period = periods = inc = 0
    m = _OT.fullmatch(props.get("OT", [""])[0])
    if m and m.group(1):
        periods, period = int(m.group(1)), int(m.group(2)) * 1000
    elif m and m.group(3):
        periods, period = int(m.group(3)), int(m.group(4)) * 1000
    elif m and m.group(5):
        inc = int(m.group(5)) * 1000
    secs, counts = [], []
    for c, rest in _NODE.findall(nodes):
        p = {k: v for k, v in _PROP.findall(rest)}
        left = _VALUE.findall(p.get(c + "L", ""))
        over = _VALUE.findall(p.get("O" + c, ""))
        secs.append(int(left[0]) if left and left[0].isdigit() else UNKNOWN_TIME)
        counts.append(int(over[0]) if over and over[0].isdigit() else 0)
    return {"settings": (main, period, periods, inc), "secs": secs, "counts": counts}


class _Log:
    def __init__(self):
        self.game = 0
        self.seq = 0


class _Rules:
    def __init__(self, name):
        self.name = name
        self.changes = 0


class MirrorClock:
    """The board's clock as its gogadget-status says it (`clock=`: system,
    running, B ms, B n, W ms, W n, flagged, paused): what the Broadcaster
    reads of a clock.Clock for the room's snapshot, and what
    pairing.Follower reads of it for `gogadget remote` (remote.py)."""

    # What the status word does not say: the time control's settings and
    # each move's time, from the board's SGF when the host reads it
    # (Mirror.set_record_clock); until then not known: the snapshot's clock
    # leaves the settings out and has no "times".
    main_ms = -1
    period_ms = periods = inc_ms = 0
    secs = counts = ()

    def __init__(self, system):
        self.word = system.encode()
        # Fischer's increment is not in the status: "not 0" is all the
        # Follower asks (a move's time is then not compared).
        self.inc_ms = 1 if system == "fischer" else 0
        self.running = self.flagged = 0
        self.paused = False
        self.ms = [0, 0, 0]
        self.n = [0, 0, 0]
        self.remote_turn = False  # set by the reader (remote.LinkReferee)

    def update(self, fields):
        """fields: the status word's values after the system."""
        self.running = "-BW".index(fields[0])
        self.ms[1], self.n[1], self.ms[2], self.n[2] = (int(v) for v in fields[1:5])
        self.flagged = "-BW".index(fields[5])
        self.paused = fields[6] == "1"

    def left(self, c):
        return self.ms[c]

    def overtime(self, c):
        return self.n[c]


class Mirror:
    """The board's game as the Broadcaster reads a referee (see the list in
    gogadget.broadcast's notes), kept from what the link says."""

    def __init__(self):
        self.log = _Log()
        self.board = Board(9)
        self.phase = "setup"
        self.resume_phase = "play"
        self.komi = 0.0
        self.rules = _Rules("")
        self.handicap = 0
        self.result = ""
        self.has_fault = False
        self.fault = b""
        self.damage = ""  # the Broadcaster compares it by identity: replaced only on change
        self.clock = None  # MirrorClock while the board's status names one
        self.record_clock = None  # read_record's "clock": the settings, each move's time
        self.known = False  # has read the board at least once

    def new_board(self, rec):
        bd = Board(rec["size"], ko=KO_NONE, suicide=SUICIDE_ALLOWED,
                   capacity=max(64, 2 * len(rec["moves"])))
        for colour, pt in rec["setup"]:
            bd.setup(colour, pt)
        return bd

    def moves(self):
        bd = self.board
        return [bd.move(i) for i in range(bd.moves)]

    def play(self, colour, pt):
        if pt == 0:
            self.board.pass_move(colour)
        else:
            self.board.play(colour, pt)

    def set_faults(self, n):
        self.has_fault = n > 0
        self.fault = b"\x01" * n

    def set_note(self, note):
        if note != self.damage:
            self.damage = note

    def set_record_clock(self, rec):
        """The time control and each move's time in the board's record
        (read_record's "clock"), for the snapshot (the archive's TM/OT, BL/WL)."""
        self.record_clock = rec.get("clock")
        self._clock_record()

    def _clock_record(self):
        c, r = self.clock, self.record_clock
        if c is not None and r is not None:
            c.main_ms, c.period_ms, c.periods, c.inc_ms = r["settings"]
            c.secs, c.counts = r["secs"], r["counts"]

    def set_clock(self, word):
        """The status's clock= word ("" without one); a malformed one is
        taken as no clock (ValueError from a board that says nonsense would
        be a lost link)."""
        fields = word.split(",") if word else ()
        try:
            if len(fields) != 8:
                raise ValueError(word)
            if self.clock is None or self.clock.word != fields[0].encode():
                self.clock = MirrorClock(fields[0])
                self._clock_record()
            self.clock.update(fields[1:])
        except ValueError:
            self.clock = None
