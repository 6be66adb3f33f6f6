"""One game as the relay shows it: its header, its SGF record and its /games.json entry."""
import re
import time

from gogadget import sgf
from gogadget.roomnames import valid_board_id
from gogadget.points import BLACK, WHITE, parse_sgf_coord

COLOUR = {"B": BLACK, "W": WHITE}
_GAME_ID = re.compile(r"(.+)-(\d{1,10})")


def game_id(board, game):
    return "%s-%d" % (board, game)


def split_game_id(name):
    """'table-3-7' -> ('table-3', 7), or None."""
    m = _GAME_ID.fullmatch(name or "")
    if not m or not valid_board_id(m.group(1)):
        return None
    return m.group(1), int(m.group(2))


class Game:
    """One board's game as the relay shows it."""

    __slots__ = ("board", "game", "seq", "size", "komi", "rules", "handicap", "black", "white",
                 "setup", "moves", "phase", "result", "bd", "waiting", "archived", "changed",
                 "verdict", "archive_name", "clock", "clock_at", "times")

    def __init__(self, board, m):
        self.board = board
        self.bd = None
        self.archived = False
        self.archive_name = None
        self.verdict = ""  # the result: "" (none yet), "checked" or "claim"
        self.waiting = False  # a gap or an event that did not fit: the snapshot will say
        self.moves = []
        self.clock = self.clock_at = None
        self.header(m)
        self.changed = time.time()

    def header(self, m):
        for key in ("game", "seq", "size", "komi", "rules", "handicap", "black", "white", "setup",
                    "phase", "result"):
            setattr(self, key, m[key])
        # The clock as it stood in the snapshot, and when that was true: when
        # the relay had it live; None for a retained copy (a relay restarted:
        # its age is not known until the board speaks again), unless it is
        # the figure the relay already had live (docs/CLOCK.md, the owners).
        clock = m.get("clock")
        at = m["at"] if "at" in m else time.time()
        if at is not None or clock != self.clock or not self.clock_at:
            self.clock_at = at
        self.clock = clock
        self.times = m.get("times")  # each move's (s, n) left, as the board's record has it

    @property
    def name(self):
        return game_id(self.board, self.game)

    def sgf(self):
        """The game as SGF, by the firmware's writer."""
        size = self.size
        setup = [(COLOUR[c], parse_sgf_coord(size, p)) for c, p in self.setup]
        handicap = ()
        if self.handicap and len(setup) == self.handicap and all(c == BLACK for c, _ in setup):
            handicap, setup = [pt for _, pt in setup], ()
        moves = [(COLOUR[c], parse_sgf_coord(size, p)) for c, p in self.moves]
        note = VERDICTS.get(self.verdict, "") if self.result else ""
        out = []
        sgf.emit(out.append, size, moves, self.komi, handicap, sgf.rules_to_ru(self.rules),
                 self.result, "", self.black, self.white, note, setup, self._record_clock())
        return "".join(out)

    def _record_clock(self):
        """The board's time control and each move's time as the firmware's
        SGF writer reads a clock (TM/OT, BL/WL, OB/OW); None without them
        (no clock, or a host's mirror of a USB board, which does not say its
        settings)."""
        c = self.clock
        if c is None or len(c) < 10:
            return None
        times = self.times or []
        return RecordClock(c[0], c[6], c[7], c[8], c[9], [s for s, _ in times],
                           [n for _, n in times])

    def info(self, status):
        """The /games.json entry."""
        return {"id": self.name, "board": self.board, "game": self.game, "black": self.black,
                "white": self.white, "size": self.size, "komi": self.komi, "rules": self.rules,
                "handicap": self.handicap, "moves": len(self.moves), "seq": self.seq,
                "phase": self.phase, "result": self.result, "claim": self.verdict == "claim",
                "online": bool(status["online"]) if status else False,
                "current": self.bd is not None, "archived": self.archived,
                "file": self.archive_name,
                "sgf": "/game/%s.sgf" % self.name}


class RecordClock:
    """What gogadget.clockio's SGF writer reads of a clock.Clock."""

    unknown = 0xFFFF  # (messages.UNKNOWN_TIME, gogadget.clock's)

    def __init__(self, system, main_ms, period_ms, periods, inc_ms, secs, counts):
        self.word = system.encode()
        self.main_ms, self.period_ms, self.periods, self.inc_ms = main_ms, period_ms, periods, \
            inc_ms
        self.secs, self.counts = secs, counts


VERDICTS = {"checked": "Result checked by the room's relay: its own count of this position.",
            "claim": "Result as the board claimed it: the room's relay could not check it "
                     "(a resignation, time, dead stones it cannot see, or rules it cannot name)."}

