"""The relay's picture of the room: every board's status and game, kept by
the ordering rules of docs/ROOM.md ("Nothing lost, nothing doubled").

    room = Room(archive="archive/")
    room.handle(topic, payload)     # from the MQTT thread; returns what it did
    room.take_dirty()               # the boards changed since, as JSON texts
    room.full_state(), room.games(), room.sgf("board1-7")

* An event is applied only when its seq is one more than the last applied
  for that game; a lower one is a duplicate (dropped), a higher one a gap:
  the game waits, unchanged, for the snapshot that follows it.
* A snapshot replaces the game when it is the same game with a seq not
  lower, or a newer game, or the board's first snapshot after its status
  (its word on its current game, whatever the number: see _snapshot).
  The usual case (the snapshot that follows an event just applied) costs
  one list comparison.
* Positions, captures and prisoners come from the firmware's rules core
  (gogadget.board.Board, with its positions indexed so superko is O(1) a
  move: history.HashedBoard); the host never re-implements a rule.  Every move
  is checked against the game's own rules (its preset's ko and suicide
  rules, the players' turns): a move no board of that rule set would
  accept is refused.  A game under rules the relay cannot name ("custom",
  options changed one by one) is checked for turns and occupied points
  only, and its result is the board's claim.
* A result is checked where the relay can: a count needs the game over by
  its rules (two passes) and a margin that some choice of dead stones on
  the relay's own position gives, with that game's komi and rules; it is
  "checked" when the count without dead stones gives it exactly, else the
  board's claim (the dead stones are the players'); an impossible one is
  refused (the game waits, unarchived).  A resignation, time or forfeit is
  the board's claim.  The page and the archived record say which.
* A game that ends (the `end` event, or a snapshot in phase `over` with a
  result) after at least one move is written to ARCHIVE/<board>-<game>.sgf, atomically, under the
  board's own name (a paired game too: each board's record is its own);
  "archived" is said once the file is there.  No file is replaced by
  another record: a file already there with another record is kept, and
  this one written beside it (<name>.2.sgf...); archive_files() lists them all (this run's
  and earlier ones').  A game reopened by a take-back after its end is
  archived again when it ends again.  Each board may add QUOTA_GAMES files
  and QUOTA_BYTES a day (UTC); past that its games are shown, not archived.
* A board's game number may move on by at most MAX_GAME_JUMP at a time (a
  board numbers its kept games one by one); a bigger jump is refused with a
  log line.  Whoever publishes a number ahead of the board's has its
  password and throws it off (one client id a user): the board's first
  snapshot when it is back is taken whatever its number.
* Two paired boards' records show as one card only while nothing of
  either is hidden (lead()).

Games are named `<board>-<game>` (board id, then the board's game number;
the number is the part after the last "-", so ids with dashes are fine).
"""
import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict

from gogadget import score, sgf
from gogadget.roomnames import valid_board_id
from gogadget.board import OK, REASONS
from gogadget.points import BLACK, EMPTY, PASS, WHITE, parse_sgf_coord
from gogadget.rules import KO_NONE, PRESETS, SUICIDE_ALLOWED, Rules
from gogadget.pairing import T_PAIR
from host_sim.room.history import board_for
from host_sim.room.messages import parse, parse_topic
from host_sim.room.logs import Limited

log = logging.getLogger("gogadget.relay")

KEEP_PAST = 20  # finished or abandoned games kept in memory per board
# What one board may add to the archive in a day (UTC): a tournament board
# plays a few dozen games a day, each record a few KB (8 KB of moves at most).
QUOTA_GAMES = 100
QUOTA_BYTES = 4 << 20
MAX_GAME_JUMP = 1000  # how far a board's game number may move on at once
_COUNTED = re.compile(r"([BW])\+(\d+(?:\.\d+)?)|0|Draw")
_COLOUR = {"B": BLACK, "W": WHITE}
_STONES = bytes.maketrans(bytes([EMPTY, BLACK, WHITE]), b".bw")
_GAME_ID = re.compile(r"(.+)-(\d{1,10})")
_FILE = re.compile(r"(.+-\d{1,10})(?:\.\d{1,2})?\.sgf")  # an archive file: <board>-<game>[.k].sgf


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
        setup = [(_COLOUR[c], parse_sgf_coord(size, p)) for c, p in self.setup]
        handicap = ()
        if self.handicap and len(setup) == self.handicap and all(c == BLACK for c, _ in setup):
            handicap, setup = [pt for _, pt in setup], ()
        moves = [(_COLOUR[c], parse_sgf_coord(size, p)) for c, p in self.moves]
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


class Heard(bytes):
    """A message's payload and when the relay had it (relay.py wraps each):
    at is time.time() then, or None for a retained message, which the broker
    may have held for any time (a relay restarted)."""

    at: "float | None"


def heard(payload, retained):
    h = Heard(payload)
    h.at = None if retained else time.time()
    return h


VERDICTS = {"checked": "Result checked by the room's relay: its own count of this position.",
            "claim": "Result as the board claimed it: the room's relay could not check it "
                     "(a resignation, time, dead stones it cannot see, or rules it cannot name)."}


def game_rules(name):
    """The firmware's Rules for a snapshot's `rules` (a preset's name), or
    None when the relay cannot name them ("custom", unknown)."""
    return Rules(name) if name in PRESETS else None


def build_board(size, setup, moves, rules="", handicap=0):
    """A rules-core Board after setup and moves, with the game's own ko and
    suicide rules (anything goes under rules it cannot name); ValueError
    naming the first move it refuses.  (Under superko a HashedBoard: the
    firmware's Board with its positions indexed, so superko is O(1) a move.)"""
    r = game_rules(rules)
    ko = r.ko if r else KO_NONE
    bd = board_for(ko)(size, ko=ko, suicide=r.suicide if r else SUICIDE_ALLOWED,
                       capacity=max(64, 2 * len(moves)))
    for c, p in setup:
        bd.setup(_COLOUR[c], parse_sgf_coord(size, p))
    if handicap and len(setup) == handicap and all(c == "B" for c, _ in setup):
        bd.handicap = handicap
        bd.first = WHITE
    elif setup:
        bd.first = EMPTY  # a set-up position: either side may begin
    for i, (c, p) in enumerate(moves):
        _play(bd, c, p, i + 1)
    return bd


def _play(bd, c, p, n):
    pt = parse_sgf_coord(bd.size, p)  # ValueError if off this board
    colour = _COLOUR[c]
    turn = bd.to_move()
    if turn == EMPTY and bd.moves == 0:
        bd.first = colour  # a set-up position: the first move says who began
    elif colour != turn:
        raise ValueError("move %d %s[%s] is out of turn (%s to play)" % (n, c, p, "?BW"[turn]))
    if pt == PASS:
        bd.pass_move(colour)
        return
    why = bd.play(colour, pt)
    if why != OK:
        raise ValueError("move %d %s[%s] is %s" % (n, c, p, REASONS[why]))


def check_result(g):
    """The verdict on g's result: "checked" or "claim"; ValueError when no
    position and rules could give it (see the module notes)."""
    m = _COUNTED.fullmatch(g.result)
    if m is None:
        return "claim"  # R, T, F, Void, ?: nothing on the board says
    rules = game_rules(g.rules)
    if rules is None:
        return "claim"
    bd = g.bd
    if not score.game_over(bd, rules):
        raise ValueError("a count (%s) before the game is over by its rules (two passes)"
                         % g.result)
    claimed = 0.0 if m.group(1) is None else float(m.group(2)) * (1 if m.group(1) == "B" else -1)
    own = score.count(bd, rules, None, g.komi)
    if own.result == g.result or (claimed == 0 and own.black == own.white):
        return "checked"
    # Dead stones (the players') move the margin between these two ends.
    stones = [[], [], []]
    for pt in bd.points():
        if bd.cells[pt] in (BLACK, WHITE):
            stones[bd.cells[pt]].append(pt)
    best = score.count(bd, rules, stones[WHITE], g.komi)
    worst = score.count(bd, rules, stones[BLACK], g.komi)
    lo, hi = worst.black - worst.white, best.black - best.white
    frac = (own.black - own.white) % 1
    if not lo - 1e-9 <= claimed <= hi + 1e-9 or abs((claimed - frac) % 1) > 1e-9:
        raise ValueError("%s is not a count of this position with komi %s (between %s and %s)"
                         % (g.result, g.komi, _margin(lo), _margin(hi)))
    return "claim"


def _margin(v):
    return "B+%g" % v if v > 0 else "W+%g" % -v if v < 0 else "0"


def lead(a, ca, b, cb):
    """Of two boards' records of one paired game (a played as colour ca, b
    as cb), the one whose card shows it: the same moves (Black's), or the
    one a move ahead with its own player's move (the move its board just
    took, which the other board has still to place).  None when they are not
    one game so: a board can then neither hide another's moves behind its
    own record nor show moves on its behalf (docs/ROOM.md, Threat model)."""
    x, y = a.moves, b.moves
    if len(x) == len(y):
        return (a if ca == "B" else b) if x == y else None
    if len(x) == len(y) + 1 and x[-1][0] == ca and x[:-1] == y:
        return a
    if len(y) == len(x) + 1 and y[-1][0] == cb and y[:-1] == x:
        return b
    return None


class BoardState:
    __slots__ = ("id", "status", "game", "past", "json", "pair", "ended_pairs", "fresh")

    def __init__(self, board_id):
        self.id = board_id
        self.status = None  # {"online", "faults", "note"}
        self.game = None
        self.past = OrderedDict()  # game number -> Game (no Board kept)
        self.json = None  # cached summary text; None when it must be rebuilt
        self.pair = None  # its pair message (two boards, one game), or None
        self.ended_pairs = set()  # pair ids whose game is over: never counted again
        # A status came (the board's new connection, or its will): its next
        # snapshot is its word on its current game, whatever the number.
        self.fresh = False


class Room:
    def __init__(self, archive=None, keep_past=KEEP_PAST, quota_games=QUOTA_GAMES,
                 quota_bytes=QUOTA_BYTES):
        self.archive = archive
        self.keep_past = keep_past
        self.quota_games, self.quota_bytes = quota_games, quota_bytes
        self.now = time.time  # the day a quota counts in (tests move it)
        self.boards = {}
        self.dirty = set()
        # One line a topic every 10 s at most, with the count of the others:
        # a board's flood of bad messages cannot flood the log (issue 36).
        self.drop_log = Limited(log)
        self.lock = threading.RLock()
        self.counts = {"messages": 0, "dropped": 0, "applied": 0, "archived": 0,
                       "over_quota": 0}
        self.on_log = None  # tests: called with each drop's log line
        self.files = {}  # archive file name -> board id
        self.quotas = {}  # board id -> _quota_of()'s list
        if archive:
            os.makedirs(archive, exist_ok=True)
            self._scan_archive()

    # -- messages -------------------------------------------------------------

    def handle(self, topic, payload):
        """One MQTT message; returns a word for what happened (tests read it):
        applied, duplicate, gap, stale, waiting, dropped."""
        msg, reason = parse(topic, payload)
        if msg is not None:
            msg["at"] = payload.at if isinstance(payload, Heard) else time.time()  # (tests: live)
        with self.lock:
            self.counts["messages"] += 1
            if msg is None:
                where = parse_topic(topic) if not payload else None
                if where is not None and where[1] == T_PAIR:
                    return self._unpair(where[0])  # a board cleared its pair message
                return self._drop(topic, reason)
            try:
                what = self.apply(msg)
            except ValueError as e:
                return self._drop(topic, str(e))
            if what == "applied":
                self.counts["applied"] += 1
            return what

    def _drop(self, topic, reason):
        self.counts["dropped"] += 1
        line = "drop %s: %s" % (str(topic)[:120], reason)
        self.drop_log.warning("drop " + str(topic)[:120], "%s", line)
        if self.on_log:
            self.on_log(line)
        return "dropped"

    def _state(self, board_id):
        st = self.boards.get(board_id)
        if st is None:
            st = self.boards[board_id] = BoardState(board_id)
        return st

    def _touch(self, st):
        st.json = None
        self.dirty.add(st.id)
        if st.pair is not None:
            # Which of two paired cards shows their game turns on both records.
            other = self.boards.get(st.pair["opponent"])
            if other is not None:
                other.json = None
                self.dirty.add(other.id)

    def apply(self, m):
        st = self._state(m["board"])
        kind = m["kind"]
        if kind == "status":
            st.status = {"online": m["online"], "faults": m["faults"], "note": m["note"]}
            st.fresh = True
            self._touch(st)
            return "applied"
        if kind == "game":
            return self._snapshot(st, m)
        if kind == "pair":
            if m["pair"] in st.ended_pairs:
                return "stale"  # that paired game is over: its retained message stays behind
            old = self.boards.get(st.pair["opponent"]) if st.pair else None
            st.pair = {"pair": m["pair"], "opponent": m["opponent"], "colour": m["colour"],
                       "game": None}
            self._touch(st)
            for other in (old, self.boards.get(m["opponent"])):
                if other is not None:
                    self._touch(other)
            return "applied"
        return self._event(st, m)

    def _unpair(self, board_id):
        st = self.boards.get(board_id)
        if st is None or st.pair is None:
            return "duplicate"
        other = self.boards.get(st.pair["opponent"])
        st.pair = None
        self._touch(st)
        if other is not None:
            self._touch(other)
        return "applied"

    def paired(self, st):
        """The opponent's BoardState while the two boards play one game: both
        pair messages agree (the same game id, each naming the other, the
        two colours) and both boards show the same game (size, komi, rules,
        set-up, and the same moves, or one board a move ahead with its own
        player's move: lead()).  The pairing belongs to the two games it
        was first seen on (neither of them over), and ends with either (see
        _end_pair); else None.  So no board can hide another's card by
        naming it, and a pair message left from an earlier game counts for
        nothing."""
        p = st.pair
        if p is None or st.game is None:
            return None
        other = self.boards.get(p["opponent"])
        q = other.pair if other is not None else None
        if q is None or q["pair"] != p["pair"] or q["opponent"] != st.id \
                or q["colour"] == p["colour"] or other.game is None:
            return None
        a, b = st.game, other.game
        if p["game"] is not None or q["game"] is not None:
            if p["game"] != a.game or q["game"] != b.game:
                return None  # bound to two other games
        elif a.phase == "over" or b.phase == "over":
            return None  # a finished game takes up no pairing
        if (a.size, a.komi, a.rules, a.setup, a.handicap) \
                != (b.size, b.komi, b.rules, b.setup, b.handicap) \
                or (a.phase == "over" and b.phase == "over"):
            return None  # two games, or one game over (its pairing with it)
        if lead(a, p["colour"], b, q["colour"]) is None:
            return None
        if p["game"] is None:
            p["game"], q["game"] = a.game, b.game  # bound to these two games
        return other

    def _end_pair(self, st, g):
        """st's game g is over or replaced: the pairing bound to it is spent,
        and so is the opponent's pair message if it named st for the same
        game; neither id is taken from them again.  (A pair message not yet
        bound to a game -- one that came before its game's first snapshot --
        is the next game's, and stays.)"""
        p = st.pair
        if p is None or p["game"] != g.game:
            return
        other = self.boards.get(p["opponent"])
        for b in (st, other):
            if b is not None and b.pair is not None and b.pair["pair"] == p["pair"] \
                    and (b is st or b.pair["opponent"] == st.id):
                b.ended_pairs.add(b.pair["pair"])
                b.pair = None
                self._touch(b)

    def _event(self, st, m):
        g = st.game
        if g is None or m["game"] > g.game:
            return "waiting"  # a game whose header we have not seen: its snapshot follows
        if m["game"] < g.game or m["seq"] <= g.seq:
            return "duplicate" if m["game"] == g.game else "stale"
        if m["seq"] > g.seq + 1 or g.waiting:
            g.waiting = True
            return "gap"
        t = m["t"]
        if t == "move":
            if m["n"] != len(g.moves) + 1:
                g.waiting = True
                raise ValueError("move number %d after %d moves" % (m["n"], len(g.moves)))
            try:
                _play(g.bd, m["c"], m["p"], m["n"])
            except ValueError:
                g.waiting = True
                raise
            g.moves.append((m["c"], m["p"]))
        elif t == "undo":
            if m["n"] != len(g.moves) or not g.bd.undo():
                g.waiting = True
                raise ValueError("take-back of move %d after %d moves" % (m["n"], len(g.moves)))
            g.moves.pop()
            if g.phase == "over":
                # The game reopens (the board takes a take-back after the
                # end, as its referee does): archived again, in a file of
                # its own, when it ends again.
                g.phase, g.result, g.verdict = "play", "", ""
                g.archived = False
        else:  # end
            result = m["result"]
            g.result, g.phase = result, "over"
            try:
                verdict = check_result(g)
            except ValueError as e:
                g.result, g.phase = "", "count"
                g.seq = m["seq"]  # taken in order; only its result refused
                self._touch(st)
                raise ValueError("%s: result %s refused: %s" % (g.name, result, e))
            g.verdict = verdict
        g.seq = m["seq"]
        g.changed = time.time()
        self._touch(st)
        if t != "end" or g.clock is None:
            # (A game on a clock is archived from the snapshot that follows
            # its end: it has every move's time, a remote move's figure too.)
            self._maybe_archive(g)
        return "applied"

    def _snapshot(self, st, m):
        g = st.game
        # The first snapshot after a status (a new connection of the board's,
        # or its will) is the board's word on its current game, whatever its
        # number and seq: who publishes under the board's id throws the board
        # off (one client id a user), and the board says its game again when
        # it is back.  So no number or seq published ahead of the board's --
        # 9 -> 1009, or game 10 at seq 500 before the real game 10 -- hides
        # its real game for longer than its reconnection.
        fresh, st.fresh = st.fresh, False
        same = g is not None and m["game"] == g.game
        if not fresh and g is not None and (m["game"] < g.game or (same and m["seq"] < g.seq)):
            return "stale"
        if g is None or not same or m["seq"] < g.seq:
            if not fresh and g is not None and m["game"] > g.game + MAX_GAME_JUMP:
                raise ValueError("game number jumps from %d to %d (at most %d at once): refused"
                                 % (g.game, m["game"], MAX_GAME_JUMP))
            new = Game(st.id, m)
            new.bd = build_board(m["size"], m["setup"], m["moves"], m["rules"],
                                 m["handicap"])  # ValueError: dropped
            new.moves = m["moves"]
            if g is not None:
                # Another game, or another record under this one's number
                # (not kept in memory then: a file it was archived as stays,
                # listed in /games.json).
                self._retire(st, g, keep=not same)
            st.past.pop(new.game, None)  # the board's word on that game now
            st.game = new
            g = new
        else:
            self._adopt(g, m)
        refused = self._judge(g)
        g.waiting = False
        g.changed = time.time()
        self._touch(st)
        self._maybe_archive(g)
        if refused:
            raise ValueError(refused)  # logged; the game is shown, without the result
        return "applied"

    def _judge(self, g):
        """A snapshot's result checked (check_result); a refused one is taken
        off the game, and the reason returned."""
        if g.phase != "over" or not g.result:
            g.verdict = ""
            return None
        try:
            g.verdict = check_result(g)
        except ValueError as e:
            why = "%s: result %s refused: %s" % (g.name, g.result, e)
            g.result, g.phase, g.verdict = "", "count", ""
            return why
        return None

    def _adopt(self, g, m):
        """The same game's snapshot, seq not lower: bring the Board to it with
        as few undos and plays as the common start of the two move lists allows."""
        new = m["moves"]
        if m["size"] != g.size or m["setup"] != g.setup or m["rules"] != g.rules \
                or m["handicap"] != g.handicap:
            bd = build_board(m["size"], m["setup"], new, m["rules"], m["handicap"])
        else:
            old = g.moves
            if new == old:
                k = len(old)
            elif new[:len(old)] == old:
                k = len(old)
            else:
                k = 0
                for a, b in zip(old, new):
                    if a != b:
                        break
                    k += 1
            bd = g.bd
            for _ in range(len(old) - k):
                bd.undo()
            try:
                for i in range(k, len(new)):
                    c, p = new[i]
                    _play(bd, c, p, i + 1)
            except ValueError:
                g.bd = build_board(g.size, g.setup, g.moves[:k], g.rules, g.handicap)
                g.moves = g.moves[:k]
                g.waiting = True
                self._touch(self.boards[g.board])
                raise
        if new != g.moves or m["result"] != g.result or m["phase"] != g.phase:
            g.archived = False  # another record: the file is written again when it is over
        g.bd = bd
        g.moves = new
        g.header(m)

    def _retire(self, st, g, keep=True):
        self._end_pair(st, g)
        g.bd = None
        if not keep:
            return
        st.past[g.game] = g
        while len(st.past) > self.keep_past:
            st.past.popitem(last=False)

    # -- archive --------------------------------------------------------------

    def _maybe_archive(self, g):
        if g.phase != "over" or not g.result:
            return
        st = self.boards.get(g.board)
        if st is not None and st.game is g:
            self._end_pair(st, g)  # the paired game is over: so is the pairing
        if g.archived or not self.archive:
            return
        if not g.moves:
            # A game not started (a resignation before any move, or a board
            # announcing results ahead): shown, never written to the archive.
            return
        if self._spent(g.board):
            return  # over its quota today: not even its record is made
        text = g.sgf()
        base = os.path.join(self.archive, g.name)
        try:
            # (A game reopened by a take-back after its end and ended again
            # gets a file of its own: no file is replaced by another record.)
            path = self._write_new(base, text, g.board)
        except OSError as e:
            log.error("cannot archive %s: %s", base + ".sgf", e)
            return  # the game's next message tries again
        if path is None:
            return  # over the board's quota: shown, not archived
        g.archived = True  # said only now: the file is there
        g.archive_name = os.path.basename(path)
        self.files[g.archive_name] = g.board
        if st is not None:
            self._touch(st)

    def _write_new(self, base, text, board=None):
        """base.sgf holding text: written atomically, unless it holds it
        already (a relay restarted).  No file is replaced by another record:
        a base.sgf with another record (a record published ahead for that
        game number, or the game's own before a take-back after its end) is
        kept, and text goes beside it (base.2.sgf, ...), so a
        fake game cannot take a real one's place, and every file is listed
        in /games.json.  None when the board's quota for the day is spent."""
        data = text.encode("utf-8")
        for k in range(1, 100):
            path = base + (".sgf" if k == 1 else ".%d.sgf" % k)
            try:
                with open(path, "rb") as f:
                    if f.read() == data:
                        return path
                continue
            except FileNotFoundError:
                pass
            if board is not None and not self._quota(board, len(data)):
                return None
            if k > 1:
                log.warning("%s.sgf holds another record: this one is %s", base, path)
            tmp = path + ".tmp"
            try:
                with open(tmp, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except OSError:
                try:
                    os.remove(tmp)
                except OSError:
                    pass
                raise
            self.counts["archived"] += 1
            log.info("archived %s", path)
            return path
        raise OSError("%s.sgf: too many different records" % base)

    def _quota(self, board, nbytes):
        """May the board have one more file of nbytes archived
        today (UTC)?  Counted when yes; when no, one log line a board a day
        says so (issue 36: one board filled the archive with 300 one-move
        games in 6 s)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(self.now()))
        q = self._quota_of(board, day)
        if q[1] + 1 > self.quota_games or q[2] + nbytes > self.quota_bytes:
            self.counts["over_quota"] += 1
            if q[3] != day:
                q[3] = day  # said once a board a day
                line = ("%s: archive quota reached (%d games, %d bytes a board a day): its "
                        "further games today are shown, not archived" % (
                            board, self.quota_games, self.quota_bytes))
                log.warning(line)
                if self.on_log:
                    self.on_log(line)
            return False
        q[1] += 1
        q[2] += nbytes
        return True

    def _spent(self, board):
        """Was the board's quota reached today (and said)?  Then nothing more
        of it is archived today.  (Cheap: every message of a finished game
        tries to archive it until it is.)"""
        q = self.quotas.get(board)
        return q is not None and q[3] == time.strftime("%Y-%m-%d", time.gmtime(self.now()))

    def _quota_of(self, board, day):
        """[day, files, bytes, the day it was said] for the board, today's."""
        q = self.quotas.get(board)
        if q is None:
            q = self.quotas[board] = [day, 0, 0, None]
        elif q[0] != day:
            q[:3] = [day, 0, 0]
        return q

    def _scan_archive(self):
        """The files already in the archive (earlier runs): listed in
        /games.json and served, and today's counted against their boards'
        quotas."""
        today = time.strftime("%Y-%m-%d", time.gmtime(self.now()))
        for name in sorted(os.listdir(self.archive)):
            m = _FILE.fullmatch(name)
            parts = split_game_id(m.group(1)) if m else None
            if parts is None:
                continue
            path = os.path.join(self.archive, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            self.files[name] = parts[0]
            if time.strftime("%Y-%m-%d", time.gmtime(info.st_mtime)) == today:
                q = self._quota_of(parts[0], today)
                q[1] += 1
                q[2] += info.st_size

    def archive_files(self):
        """Every file in the archive, this run's and earlier ones', by name:
        each is served as /archive/<name> (archive_file)."""
        with self.lock:
            return sorted(self.files)

    # -- what the web side reads -----------------------------------------------

    def summary(self, st):
        """A board's card for the page, as JSON text (cached until it changes)."""
        if st.json is not None:
            return st.json
        s = st.status or {"online": False, "faults": 0, "note": ""}
        d = {"id": st.id, "online": s["online"], "faults": s["faults"], "note": s["note"]}
        other = self.paired(st)
        if other is not None:
            # One game on two boards: the page shows it once, on Black's card.
            d["pair"] = st.pair["pair"]
            d["opponent"] = other.id
            d["mirror"] = lead(st.game, st.pair["colour"], other.game,
                               other.pair["colour"]) is not st.game
        g = st.game
        if g is not None:
            bd = g.bd
            size = g.size
            w = size + 1
            cells = bd.cells
            stones = b"".join(cells[(r + 1) * w:(r + 1) * w + size]
                              for r in range(size - 1, -1, -1)).translate(_STONES)
            last = g.moves[-1] if g.moves else None
            d.update(game=g.game, seq=g.seq, size=size, komi=g.komi, rules=g.rules,
                     handicap=g.handicap, black=g.black, white=g.white, phase=g.phase,
                     result=g.result, claim=g.verdict == "claim", n=len(g.moves),
                     moves=",".join(c + p for c, p in g.moves),
                     stones=stones.decode("ascii"),
                     last=(last[0] + last[1]) if last else "",
                     lastcap=len(bd.captured_stones()) if bd.moves else 0,
                     captures=[bd.prisoners[BLACK], bd.prisoners[WHITE]],
                     waiting=g.waiting, sgf="/game/%s.sgf" % g.name,
                     at=int(g.changed * 1000))
            if g.clock is not None:
                d.update(self._clocks(st, g, other))
        st.json = json.dumps(d, separators=(",", ":"))
        return st.json

    def _clocks(self, st, g, other):
        """The card's clocks, each player's from the board that owns it
        (docs/CLOCK.md): a board alone owns both; of two paired boards, each
        its own player's.  clock: [system, running, B ms, B n, W ms, W n] as
        the snapshot's, running only if its owner says so; clock_at: when
        each figure was true (ms since the epoch; None: not known, a retained
        copy after a relay restart); clock_online: is each owner online.
        The page counts a figure down only while it is known and its owner
        online, and marks it stale otherwise."""
        owners = [st, st]
        if other is not None and other.game is not None and other.game.clock is not None:
            owners = [st, other] if st.pair["colour"] == "B" else [other, st]
        clock = list(g.clock[:6])
        clock[1] = ""
        at, online = [], []
        for i, b in enumerate(owners):
            c = b.game.clock
            colour = "BW"[i]
            clock[2 + 2 * i:4 + 2 * i] = c[2 + 2 * i:4 + 2 * i]
            if c[1] == colour:
                clock[1] = colour
            at.append(int(b.game.clock_at * 1000) if b.game.clock_at else None)
            online.append(bool(b.status and b.status["online"]))
        return {"clock": clock, "clock_at": at, "clock_online": online}

    def take_dirty(self):
        """The summaries of the boards changed since the last call."""
        with self.lock:
            ids, self.dirty = self.dirty, set()
            return [self.summary(self.boards[i]) for i in sorted(ids)]

    def full_state(self):
        with self.lock:
            return [self.summary(self.boards[i]) for i in sorted(self.boards)]

    def games(self):
        with self.lock:
            out = []
            for i in sorted(self.boards):
                st = self.boards[i]
                for g in st.past.values():
                    out.append(g.info(st.status))
                if st.game is not None:
                    out.append(st.game.info(st.status))
            return out

    def find(self, name):
        """The Game called `<board>-<game>`, current or kept; None if unknown."""
        parts = split_game_id(name)
        if parts is None:
            return None
        with self.lock:
            st = self.boards.get(parts[0])
            if st is None:
                return None
            if st.game is not None and st.game.game == parts[1]:
                return st.game
            return st.past.get(parts[1])

    def sgf(self, name):
        """SGF text of a game, live or final (an archived game from an earlier
        run is read from the archive); None if unknown, or if the archive
        holds several records under that name (a record published ahead of
        the board's): the relay does not choose one, /games.json lists them
        all (archive_files)."""
        with self.lock:
            g = self.find(name)
            if g is not None:
                return g.sgf()
            if not split_game_id(name) or name + ".2.sgf" in self.files:
                return None
        return self.archive_file(name + ".sgf")

    def archive_file(self, name):
        """The text of an archive file by its name (one archive_files()
        lists, this run's or earlier ones'), as written; None for any other
        name: nothing else of the disk is read."""
        with self.lock:
            known = self.archive and name in self.files
        if not known:
            return None
        try:
            with open(os.path.join(self.archive, name), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return None
