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
  either is hidden (pairs.lead()).

Games are named `<board>-<game>` (board id, then the board's game number;
the number is the part after the last "-", so ids with dashes are fine).
"""
import logging
import os
import threading
import time
from collections import OrderedDict

from gogadget.pairing import T_PAIR
from host_sim.room.archive import QUOTA_BYTES, QUOTA_GAMES, Archive
from host_sim.room.cards import Cards
from host_sim.room.game import Game
from host_sim.room.judge import build_board, check_result, play_move
from host_sim.room.logs import Limited
from host_sim.room.messages import parse, parse_topic
from host_sim.room.pairs import Pairs

log = logging.getLogger("gogadget.relay")

KEEP_PAST = 20  # finished or abandoned games kept in memory per board
MAX_GAME_JUMP = 1000  # how far a board's game number may move on at once


class Heard(bytes):
    """A message's payload and when the relay had it (relay.py wraps each):
    at is time.time() then, or None for a retained message, which the broker
    may have held for any time (a relay restarted)."""

    at: "float | None"


def heard(payload, retained):
    h = Heard(payload)
    h.at = None if retained else time.time()
    return h


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


class Room(Archive, Pairs, Cards):
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
            # A status the board publishes now (a new connection of its own)
            # makes its next snapshot its word on its game; a retained one
            # sent again on a new subscription (a lane coming up) is not news
            # once the board's status is known: the snapshot that follows it
            # may be older than the events already taken (m["at"] is None
            # for a retained message: games.heard).
            if m.get("at") is not None or st.status is None:
                st.fresh = True
            st.status = {"online": m["online"], "faults": m["faults"], "note": m["note"]}
            self._touch(st)
            return "applied"
        if kind == "game":
            return self._snapshot(st, m)
        if kind == "pair":
            if m["pair"] in st.ended_pairs:
                return "stale"  # that paired game is over: its retained message stays behind
            if st.pair is not None and (st.pair["pair"], st.pair["opponent"], st.pair["colour"]) \
                    == (m["pair"], m["opponent"], m["colour"]):
                # The same word again (retained, on a new subscription: a lane
                # coming up): the pairing stays bound to its two games.
                # Taken as new, it unbound this side only, for good.
                return "duplicate"
            old = self.boards.get(st.pair["opponent"]) if st.pair else None
            st.pair = {"pair": m["pair"], "opponent": m["opponent"], "colour": m["colour"],
                       "game": None}
            self._touch(st)
            for other in (old, self.boards.get(m["opponent"])):
                if other is not None:
                    self._touch(other)
            return "applied"
        return self._event(st, m)

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
                play_move(g.bd, m["c"], m["p"], m["n"])
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
                    play_move(bd, c, p, i + 1)
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
