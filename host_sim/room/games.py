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
  (gogadget.board.Board); the host never re-implements a rule.  Every move
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
  "archived" is said once the file is there.  A file already there with
  another record is kept, and this one written beside it (<name>.2.sgf...).
* A board's game number may move on by at most MAX_GAME_JUMP at a time (a
  board numbers its kept games one by one); a bigger jump is refused with a
  log line, so a board (or whoever has its password) cannot hide its next
  games behind a huge number.

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
from gogadget.broadcast import valid_board_id
from gogadget.board import OK, REASONS, Board
from gogadget.points import BLACK, EMPTY, PASS, WHITE, parse_sgf_coord
from gogadget.rules import KO_NONE, PRESETS, SUICIDE_ALLOWED, Rules
from gogadget.pairing import T_PAIR
from host_sim.room.messages import parse, parse_topic
from host_sim.room.logs import Limited

log = logging.getLogger("gogadget.relay")

KEEP_PAST = 20  # finished or abandoned games kept in memory per board
MAX_GAME_JUMP = 1000  # how far a board's game number may move on at once
_COUNTED = re.compile(r"([BW])\+(\d+(?:\.\d+)?)|0|Draw")
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
                 "verdict", "archive_name", "clock", "clock_at")

    def __init__(self, board, m):
        self.board = board
        self.bd = None
        self.archived = False
        self.archive_name = None
        self.verdict = ""  # the result: "" (none yet), "checked" or "claim"
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
        note = VERDICTS.get(self.verdict, "") if self.result else ""
        return sgf.write(size, moves, self.komi, handicap=handicap,
                         rules=sgf.rules_to_ru(self.rules), result=self.result,
                         black=self.black, white=self.white, setup=setup, comment=note)

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
    naming the first move it refuses."""
    r = game_rules(rules)
    bd = Board(size, ko=r.ko if r else KO_NONE, suicide=r.suicide if r else SUICIDE_ALLOWED,
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


class BoardState:
    __slots__ = ("id", "status", "game", "past", "json", "pair", "ended_pairs")

    def __init__(self, board_id):
        self.id = board_id
        self.status = None  # {"online", "faults", "note"}
        self.game = None
        self.past = OrderedDict()  # game number -> Game (no Board kept)
        self.json = None  # cached summary text; None when it must be rebuilt
        self.pair = None  # its pair message (two boards, one game), or None
        self.ended_pairs = set()  # pair ids whose game is over: never counted again


class Room:
    def __init__(self, archive=None, keep_past=KEEP_PAST):
        self.archive = archive
        if archive:
            os.makedirs(archive, exist_ok=True)
        self.keep_past = keep_past
        self.boards = {}
        self.dirty = set()
        # One line a topic every 10 s at most, with the count of the others:
        # a board's flood of bad messages cannot flood the log (issue 36).
        self.drop_log = Limited(log)
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
        set-up, one's moves the start of the other's).  The pairing belongs
        to the two games it was first seen on, and ends with either (see
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
        if p["game"] is not None and (p["game"] != st.game.game or q["game"] != other.game.game):
            return None
        a, b = st.game, other.game
        if (a.size, a.komi, a.rules, a.setup) != (b.size, b.komi, b.rules, b.setup) \
                or (a.phase == "over" and b.phase == "over"):
            return None  # two games, or one game over (its pairing with it)
        short, long_ = (a.moves, b.moves) if len(a.moves) <= len(b.moves) else (b.moves, a.moves)
        if long_[:len(short)] != short:
            return None
        if p["game"] is None:
            p["game"], q["game"] = a.game, b.game  # bound to these two games
        return other

    def _end_pair(self, st):
        """st's game is over or replaced: its pair message is spent, and so
        is the opponent's if it named st for the same game; neither id is
        taken from them again."""
        p = st.pair
        if p is None:
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
                g.phase, g.result, g.verdict = "play", "", ""
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
        self._maybe_archive(g)
        return "applied"

    def _snapshot(self, st, m):
        g = st.game
        if g is not None and (m["game"] < g.game or (m["game"] == g.game and m["seq"] < g.seq)):
            return "stale"
        if g is None or m["game"] != g.game:
            if g is not None and m["game"] > g.game + MAX_GAME_JUMP:
                raise ValueError("game number jumps from %d to %d (at most %d at once): refused"
                                 % (g.game, m["game"], MAX_GAME_JUMP))
            new = Game(st.id, m)
            new.bd = build_board(m["size"], m["setup"], m["moves"], m["rules"],
                                 m["handicap"])  # ValueError: dropped
            new.moves = m["moves"]
            if g is not None:
                self._retire(st, g)
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
        g.bd = bd
        g.moves = new
        g.header(m)

    def _retire(self, st, g):
        self._end_pair(st)
        g.bd = None
        st.past[g.game] = g
        while len(st.past) > self.keep_past:
            st.past.popitem(last=False)

    # -- archive --------------------------------------------------------------

    def _maybe_archive(self, g):
        if g.phase != "over" or not g.result:
            return
        st = self.boards.get(g.board)
        if st is not None and st.game is g:
            self._end_pair(st)  # the paired game is over: so is the pairing
        if g.archived or not self.archive:
            return
        if not g.moves:
            # A game not started (a resignation before any move, or a board
            # announcing results ahead): shown, never written to the archive.
            return
        text = g.sgf()
        base = os.path.join(self.archive, g.name)
        try:
            path = self._write_new(base, text)
        except OSError as e:
            log.error("cannot archive %s: %s", base + ".sgf", e)
            return  # the game's next message tries again
        g.archived = True  # said only now: the file is there
        g.archive_name = os.path.basename(path)
        if st is not None:
            self._touch(st)

    def _write_new(self, base, text):
        """base.sgf holding text: written atomically, unless it holds it
        already (a relay restarted).  A base.sgf with another record is
        kept, and text goes beside it (base.2.sgf, ...): a file written
        ahead for a game number cannot take the real game's place."""
        for k in range(1, 100):
            path = base + (".sgf" if k == 1 else ".%d.sgf" % k)
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() == text:
                        return path
                continue
            except FileNotFoundError:
                pass
            if k > 1:
                log.warning("%s.sgf holds another record: this one is %s", base, path)
            tmp = path + ".tmp"
            try:
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
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
                     result=g.result, claim=g.verdict == "claim", n=len(g.moves),
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
