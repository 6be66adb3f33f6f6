"""The relay's message parser: one MQTT message -> a validated dict, or the
reason it is refused (docs/ROOM.md, "Topics").

    msg, reason = parse(topic, payload)

Exactly one of the two is None.  Nothing here raises on any input: every
topic and payload a broker can deliver (malformed JSON, wrong types, bad
coordinates, oversized, deeply nested, not UTF-8) comes back as a reason,
which the relay logs in one line before dropping the message.

The returned dict holds only the fields the format defines, with their
types checked (unknown extra fields are ignored, so a board one format
revision ahead still shows; free text, such as names and the note, is cut
to its limit and its control characters become spaces).  Coordinates are checked here as far as a
message alone allows: a snapshot's moves and set-up against its own size; an
event's point only as an SGF letter pair (its board's size is known to the
relay's game, which checks the rest).
"""
import json
import math
import re

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, TOPIC_ROOT, valid_board_id
from gogadget.pairing import T_PAIR
from gogadget.points import MAX_SIZE, MIN_SIZE, SGF_LETTERS

FORMAT = 1  # "v" in every message the board writes (gogadget/broadcast.py's literals)
MAX_MESSAGE = 8192  # bytes; the relay drops bigger ones
PHASES = ("setup", "play", "count", "over")
MAX_TEXT = 64  # player names, rules, note
MAX_NUMBER = 2 ** 31 - 1  # game numbers, seq, move numbers
MAX_MOVES = 2000  # more than any real game; 8 KB holds about 1600 anyway
# SGF RE: B+3.5, W+R, B+Resign, W+T, B+F, 0 (a draw), Draw, Void, ?
_RESULT = re.compile(r"(?:[BW]\+(?:\d{1,4}(?:\.\d{1,2})?|R|Resign|T|Time|F|Forfeit)?|0|Draw|Void|\?)")
_MOVE = re.compile(r";([BW])\[([a-s]{2}|)\]")
_MOVES = re.compile(r"(?:;[BW]\[(?:[a-s]{2}|)\])*")
_SETUP = re.compile(r"(?:A[BW](?:\[[a-s]{2}\])+)*")
_SETUP_PROP = re.compile(r"A([BW])((?:\[[a-s]{2}\])+)")
_POINT = re.compile(r"[a-s]{2}|")
_TOPIC_PREFIX = TOPIC_ROOT + "/"
_LEAVES = (T_STATUS, T_GAME, T_MOVE, T_PAIR)


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def _int(d, key, lo=0, hi=MAX_NUMBER):
    v = d.get(key)
    if type(v) is not int:  # bool is an int to Python, not to the format
        raise ValueError("%s is not an integer" % key)
    if not lo <= v <= hi:
        raise ValueError("%s out of range" % key)
    return v


def _text(d, key, required=True, limit=MAX_TEXT):
    if key not in d and not required:
        return ""
    v = d.get(key)
    if type(v) is not str:
        raise ValueError("%s is not a string" % key)
    # A long name or a tab in it is no reason to hide a board's game: free
    # text is cut to its limit and control characters become spaces.
    v = v[:limit]
    if not v.isprintable():
        v = "".join(ch if ch.isprintable() else " " for ch in v)
    return v


def _result(d, key):
    v = _text(d, key, limit=16)
    if v and not _RESULT.fullmatch(v):
        raise ValueError("%s is not an SGF result" % key)
    return v


def _colour(d):
    v = d.get("c")
    if v not in ("B", "W") or type(v) is not str:
        raise ValueError("c is not B or W")
    return v


def _on_board(size, coord):
    return coord == "" or (SGF_LETTERS.index(coord[0]) < size and SGF_LETTERS.index(coord[1]) < size)


def parse_topic(topic):
    """'gogadget/board/<id>/<leaf>' -> (id, leaf), or None."""
    if type(topic) is not str or not topic.startswith(_TOPIC_PREFIX):
        return None
    parts = topic[len(_TOPIC_PREFIX):].split("/")
    if len(parts) != 2 or not valid_board_id(parts[0]) or parts[1] not in _LEAVES:
        return None
    return parts[0], parts[1]


# Per board size: the move list's pattern with that size's letters only, so
# one regular-expression match checks every coordinate.
_MOVES_BY_SIZE = {n: re.compile(r"(?:;[BW]\[(?:[a-%s]{2}|)\])*" % SGF_LETTERS[n - 1])
                  for n in range(MIN_SIZE, MAX_SIZE + 1)}
# Every (colour, point) pair once: a long game's move list holds references,
# not a tuple and a string per move.
_PAIRS = {(c, p): (c, p) for c in "BW"
          for p in [""] + [x + y for x in SGF_LETTERS[:MAX_SIZE] for y in SGF_LETTERS[:MAX_SIZE]]}


def parse_moves(text, size):
    """SGF move nodes (';B[pd];W[]') -> [("B", "pd"), ("W", "")], checked
    against size; ValueError if anything else is in the text."""
    if type(text) is not str:
        raise ValueError("moves are not SGF move nodes")
    if not _MOVES_BY_SIZE[size].fullmatch(text):
        if _MOVES.fullmatch(text):
            raise ValueError("a move is off a %dx%d board" % (size, size))
        raise ValueError("moves are not SGF move nodes")
    moves = _MOVE.findall(text)
    if len(moves) > MAX_MOVES:
        raise ValueError("too many moves")
    pairs = _PAIRS
    return [pairs[m] for m in moves]


def parse_setup(text, size):
    """'AB[pd][dp]AW[dd]' -> [("B", "pd"), ("B", "dp"), ("W", "dd")]."""
    if type(text) is not str or not _SETUP.fullmatch(text):
        raise ValueError("setup is not SGF AB/AW")
    stones = []
    seen = set()
    for colour, values in _SETUP_PROP.findall(text):
        for i in range(1, len(values), 4):
            p = values[i:i + 2]
            if not _on_board(size, p):
                raise ValueError("setup stone %s is off a %dx%d board" % (p, size, size))
            if p in seen:
                raise ValueError("setup stone %s given twice" % p)
            seen.add(p)
            stones.append((colour, p))
    return stones


def _status(d):
    online = d.get("online")
    if type(online) is not bool:
        raise ValueError("online is not true or false")
    faults = _int(d, "faults", 0, 1 << 20) if "faults" in d else 0
    return {"online": online, "faults": faults, "note": _text(d, "note", required=False, limit=200)}


def _snapshot(d):
    size = _int(d, "size", MIN_SIZE, MAX_SIZE)
    komi = d.get("komi", 0)
    if type(komi) not in (int, float) or not math.isfinite(komi) or abs(komi) > 1000:
        raise ValueError("komi is not a number")
    phase = d.get("phase")
    if phase not in PHASES or type(phase) is not str:
        raise ValueError("phase is not one of " + ", ".join(PHASES))
    prisoners = d.get("prisoners", [0, 0])
    if (type(prisoners) is not list or len(prisoners) != 2
            or any(type(p) is not int or not 0 <= p <= size * size * 10 for p in prisoners)):
        raise ValueError("prisoners is not two counts")
    m = {"game": _int(d, "game"), "seq": _int(d, "seq"), "size": size, "komi": float(komi),
         "rules": _text(d, "rules", required=False, limit=32),
         "handicap": _int(d, "handicap", 0, 9) if "handicap" in d else 0,
         "black": _text(d, "black", required=False), "white": _text(d, "white", required=False),
         "setup": parse_setup(d.get("setup", ""), size),
         "moves": parse_moves(d.get("moves", ""), size),
         "phase": phase, "result": _result(d, "result") if "result" in d else "",
         "prisoners": list(prisoners)}
    if "clock" in d:
        m["clock"] = _clock(d["clock"])
    if "times" in d:
        m["times"] = _times(d["times"], len(m["moves"]))
    return m


CLOCK_SYSTEMS = ("absolute", "fischer", "byoyomi", "canadian")  # gogadget.clock.SYSTEMS but none


def _clock(c):
    """["byoyomi", "B", 598000, 0, 600000, 0]: the time control, whose time
    runs ("" nobody's), each player's ms left and periods/stones left; then,
    from a board that knows them (not a host's mirror of a USB board), the
    settings: main time, period time (ms), periods or stones, increment (ms)."""
    if (type(c) is not list or len(c) not in (6, 10) or c[0] not in CLOCK_SYSTEMS
            or c[1] not in ("", "B", "W") or type(c[0]) is not str or type(c[1]) is not str
            or any(type(v) is not int or not 0 <= v < 1 << 31 for v in c[2:])
            or c[3] > 255 or c[5] > 255 or len(c) == 10 and c[8] > 255):
        raise ValueError("clock is not [system, running, ms, n, ms, n(, main, period, n, inc)]")
    return list(c)


UNKNOWN_TIME = 0xFFFF  # a move's time left the board does not know (gogadget.clock's)


def _times(t, moves):
    """Each move's time left, as the board's record has it: its BL/WL (whole
    s, UNKNOWN_TIME not known) + 65536 times its OB/OW (periods or stones
    left, in overtime); at most one per move; -> [(s, n)]."""
    if type(t) is not list or len(t) > moves:
        raise ValueError("times is not a list of at most one time a move")
    if any(type(v) is not int or not 0 <= v < 256 << 16 for v in t):
        raise ValueError("times holds a value that is not s + 65536 n")
    return [(v & 0xFFFF, v >> 16) for v in t]


def _event(d):
    t = d.get("t")
    m = {"game": _int(d, "game"), "seq": _int(d, "seq"), "t": t}
    if t == "move":
        p = d.get("p")
        if type(p) is not str or not _POINT.fullmatch(p):
            raise ValueError("p is not an SGF point")
        m.update(n=_int(d, "n", 1), c=_colour(d), p=p)
    elif t == "undo":
        m["n"] = _int(d, "n", 1)
    elif t == "end":
        m["result"] = _result(d, "result")
        if not m["result"]:
            raise ValueError("end without a result")
    else:
        raise ValueError("t is not move, undo or end")
    return m


def _pair(d):
    """A board's pairing (gogadget.pairing): which game, as which colour, against whom."""
    pair, opponent, colour = d.get("pair"), d.get("opponent"), d.get("colour")
    if type(pair) is not str or not valid_board_id(pair):
        raise ValueError("pair is not a game id")
    if type(opponent) is not str or not valid_board_id(opponent):
        raise ValueError("opponent is not a board id")
    if colour not in ("B", "W") or type(colour) is not str:
        raise ValueError("colour is not B or W")
    return {"pair": pair, "opponent": opponent, "colour": colour}


_KINDS = {T_STATUS: _status, T_GAME: _snapshot, T_MOVE: _event, T_PAIR: _pair}


def parse(topic, payload):
    """(topic, payload bytes) -> (message, None) or (None, reason).

    message: {"board": id, "kind": "status" | "game" | "move" | "pair", ...the
    kind's fields}; see _status, _snapshot, _event and _pair for each kind."""
    try:
        where = parse_topic(topic)
        if where is None:
            return None, "not a board topic"
        if type(payload) is str:
            payload = payload.encode("utf-8", "surrogatepass")
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            return None, "payload is not bytes"
        if len(payload) > MAX_MESSAGE:
            return None, "oversized (%d bytes, at most %d)" % (len(payload), MAX_MESSAGE)
        if not payload:
            return None, "empty payload (a cleared retained message)"
        try:
            text = bytes(payload).decode("utf-8")
        except UnicodeError:
            return None, "not UTF-8"
        try:
            d = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            return None, "not JSON: nested too deeply"
        except ValueError as e:
            return None, "not JSON: %s" % str(e).split("\n")[0][:80]
        if type(d) is not dict:
            return None, "not a JSON object"
        v = d.get("v")
        if type(v) is not int or v != FORMAT:
            return None, "not format v=%d" % FORMAT
        board, leaf = where
        msg = _KINDS[leaf](d)
        msg["board"] = board
        msg["kind"] = leaf
        return msg, None
    except ValueError as e:
        return None, str(e)[:120]
    except Exception as e:  # the parser must never take the relay down
        return None, "unreadable (%s)" % type(e).__name__
