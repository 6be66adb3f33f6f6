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
  lower, or a newer game.  The usual case (the snapshot that follows an
  event just applied) costs one list comparison.
* Positions, captures and prisoners come from the firmware's rules core
  (gogadget.board.Board); the host never re-implements a rule.  The board
  already judged every move, so the relay's Board allows what any rule set
  allows (no ko check, suicide allowed): it never refuses a move a board
  accepted, and computes the captures the same way.
* A game that ends (the `end` event, or a snapshot in phase `over` with a
  result) is written once to ARCHIVE/<board>-<game>.sgf, atomically.

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

from gogadget import sgf
from gogadget.broadcast import valid_board_id
from gogadget.board import OK, REASONS, Board
from gogadget.points import BLACK, EMPTY, PASS, WHITE, parse_sgf_coord
from gogadget.rules import KO_NONE, SUICIDE_ALLOWED
from host_sim.room.messages import parse

log = logging.getLogger("gogadget.relay")

KEEP_PAST = 20  # finished or abandoned games kept in memory per board
_COLOUR = {"B": BLACK, "W": WHITE}
_STONES = bytes.maketrans(bytes([EMPTY, BLACK, WHITE]), b".bw")
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
                 "clock", "clock_at")

    def __init__(self, board, m):
        self.board = board
        self.bd = None
        self.archived = False
        self.waiting = False  # a gap or an event that did not fit: the snapshot will say
        self.moves = []
        self.header(m)
        self.changed = time.time()

    def header(self, m):
        for key in ("game", "seq", "size", "komi", "rules", "handicap", "black", "white", "setup",
                    "phase", "result"):
            setattr(self, key, m[key])
        # The clock as it stood in the snapshot, and when the relay had it:
        # the page counts the running one down from then (docs/ROOM.md).
        self.clock = m.get("clock")
        self.clock_at = time.time()

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
        return sgf.write(size, moves, self.komi, handicap=handicap,
                         rules=sgf.rules_to_ru(self.rules), result=self.result,
                         black=self.black, white=self.white, setup=setup)

    def info(self, status):
        """The /games.json entry."""
        return {"id": self.name, "board": self.board, "game": self.game, "black": self.black,
                "white": self.white, "size": self.size, "komi": self.komi, "rules": self.rules,
                "handicap": self.handicap, "moves": len(self.moves), "seq": self.seq,
                "phase": self.phase, "result": self.result,
                "online": bool(status["online"]) if status else False,
                "current": self.bd is not None, "archived": self.archived,
                "sgf": "/game/%s.sgf" % self.name}


def build_board(size, setup, moves):
    """A rules-core Board after setup and moves; ValueError naming the first
    move it refuses."""
    bd = Board(size, ko=KO_NONE, suicide=SUICIDE_ALLOWED, capacity=max(64, 2 * len(moves)))
    for c, p in setup:
        bd.setup(_COLOUR[c], parse_sgf_coord(size, p))
    for i, (c, p) in enumerate(moves):
        _play(bd, c, p, i + 1)
    return bd


def _play(bd, c, p, n):
    pt = parse_sgf_coord(bd.size, p)  # ValueError if off this board
    if pt == PASS:
        bd.pass_move(_COLOUR[c])
        return
    why = bd.play(_COLOUR[c], pt)
    if why != OK:
        raise ValueError("move %d %s[%s] is %s" % (n, c, p, REASONS[why]))


class BoardState:
    __slots__ = ("id", "status", "game", "past", "json", "pair")

    def __init__(self, board_id):
        self.id = board_id
        self.status = None  # {"online", "faults", "note"}
        self.game = None
        self.past = OrderedDict()  # game number -> Game (no Board kept)
        self.json = None  # cached summary text; None when it must be rebuilt
        self.pair = None  # its pair message (two boards, one game), or None


class Room:
    def __init__(self, archive=None, keep_past=KEEP_PAST):
        self.archive = archive
        if archive:
            os.makedirs(archive, exist_ok=True)
        self.keep_past = keep_past
        self.boards = {}
        self.dirty = set()
        self.lock = threading.RLock()
        self.counts = {"messages": 0, "dropped": 0, "applied": 0, "archived": 0}
        self.on_log = None  # tests: called with each drop's log line

    # -- messages -------------------------------------------------------------

    def handle(self, topic, payload):
        """One MQTT message; returns a word for what happened (tests read it):
        applied, duplicate, gap, stale, waiting, dropped."""
        msg, reason = parse(topic, payload)
        with self.lock:
            self.counts["messages"] += 1
            if msg is None:
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
        log.warning(line)
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

    def apply(self, m):
        st = self._state(m["board"])
        kind = m["kind"]
        if kind == "status":
            st.status = {"online": m["online"], "faults": m["faults"], "note": m["note"]}
            self._touch(st)
            return "applied"
        if kind == "game":
            return self._snapshot(st, m)
        if kind == "pair":
            st.pair = {"pair": m["pair"], "opponent": m["opponent"], "colour": m["colour"]}
            self._touch(st)
            other = self.boards.get(m["opponent"])
            if other is not None:
                self._touch(other)
            return "applied"
        return self._event(st, m)

    def paired(self, st):
        """The opponent's BoardState when both pair messages agree (the same
        game id, each naming the other, the two colours), else None."""
        p = st.pair
        if p is None:
            return None
        other = self.boards.get(p["opponent"])
        q = other.pair if other is not None else None
        if q is None or q["pair"] != p["pair"] or q["opponent"] != st.id \
                or q["colour"] == p["colour"]:
            return None
        return other

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
                g.phase, g.result = "play", ""
        else:  # end
            g.result = m["result"]
            g.phase = "over"
        g.seq = m["seq"]
        g.changed = time.time()
        self._touch(st)
        self._maybe_archive(g)
        return "applied"

    def _snapshot(self, st, m):
        g = st.game
        if g is not None and (m["game"] < g.game or (m["game"] == g.game and m["seq"] < g.seq)):
            return "stale"
        if g is None or m["game"] != g.game:
            new = Game(st.id, m)
            new.bd = build_board(m["size"], m["setup"], m["moves"])  # ValueError: dropped
            new.moves = m["moves"]
            if g is not None:
                self._retire(st, g)
            st.game = new
            g = new
        else:
            self._adopt(g, m)
        g.waiting = False
        g.changed = time.time()
        self._touch(st)
        self._maybe_archive(g)
        return "applied"

    def _adopt(self, g, m):
        """The same game's snapshot, seq not lower: bring the Board to it with
        as few undos and plays as the common start of the two move lists allows."""
        new = m["moves"]
        if m["size"] != g.size or m["setup"] != g.setup:
            bd = build_board(m["size"], m["setup"], new)
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
                g.bd = build_board(g.size, g.setup, g.moves[:k])
                g.moves = g.moves[:k]
                g.waiting = True
                self._touch(self.boards[g.board])
                raise
        g.bd = bd
        g.moves = new
        g.header(m)

    def _retire(self, st, g):
        g.bd = None
        st.past[g.game] = g
        while len(st.past) > self.keep_past:
            st.past.popitem(last=False)

    # -- archive --------------------------------------------------------------

    def _maybe_archive(self, g):
        if g.archived or g.phase != "over" or not g.result or not self.archive:
            return
        g.archived = True
        st = self.boards.get(g.board)
        other = self.paired(st) if st is not None else None
        if other is not None and st.pair["colour"] == "W":
            # Two boards, one game: both publish the same record; it is
            # archived as Black's board's game (whatever order the two come
            # in, a relay restarted included), White's is the same game.
            return
        path = os.path.join(self.archive, g.name + ".sgf")
        if os.path.exists(path):
            return  # written before (a relay restarted): once is enough
        tmp = path + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(g.sgf())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            self.counts["archived"] += 1
            log.info("archived %s (%s)", path, g.result)
        except OSError as e:
            g.archived = False  # the game's next message tries again
            log.error("cannot archive %s: %s", path, e)
            try:
                os.remove(tmp)
            except OSError:
                pass

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
            d["mirror"] = st.pair["colour"] == "W"
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
                     result=g.result, n=len(g.moves),
                     moves=",".join(c + p for c, p in g.moves),
                     stones=stones.decode("ascii"),
                     last=(last[0] + last[1]) if last else "",
                     lastcap=len(bd.captured_stones()) if bd.moves else 0,
                     captures=[bd.prisoners[BLACK], bd.prisoners[WHITE]],
                     waiting=g.waiting, sgf="/game/%s.sgf" % g.name,
                     at=int(g.changed * 1000))
            if g.clock is not None:
                d.update(clock=g.clock, clock_at=int(g.clock_at * 1000))
        st.json = json.dumps(d, separators=(",", ":"))
        return st.json

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
        run is read from the archive); None if unknown."""
        with self.lock:
            g = self.find(name)
            if g is not None:
                return g.sgf()
        if self.archive and split_game_id(name):
            try:
                with open(os.path.join(self.archive, name + ".sgf"), encoding="utf-8") as f:
                    return f.read()
            except OSError:
                return None
        return None
