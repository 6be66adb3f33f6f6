"""What a paired game (gogadget.pairing) does seldom, imported for the job
and let go (pairing._job): the Follower's start, a connection's
subscriptions, the opponent's pair message and snapshot, their board gone,
the stops with their notes, a resignation or a time-out taken from the
other board, and the prompt of a count that differs.  pairing.py keeps
what runs on every move (an event, the sync, the clock): on the official
firmware a module's bytecode is heap, and a board paired in the room is
the heaviest there is (issue 35).  boot.learn_names learns this module's
names at the start, so loading it mid-game interns none."""
import json

from gogadget.compat import const
from gogadget.points import BLACK, PASS, WHITE, point

# pairing's, not imported (pairing imports this module; tests/test_pairing.py
# holds the copies to pairing's own)
_WAITING = const(1)
_ASKED = const(3)
_ENDED = const(4)
_COLOURS = "?BW"
_T_PAIR = "pair"
_DOC_MAX = const(1024)  # a snapshot without its moves and times: ~300 bytes


def init(f, board_id, opponent, pair_id, colour, remote, pair_message):
    """Follower.__init__'s work (see there): the ids checked, the state;
    remote and pair_message are pairing's Remote and pair_message."""
    # (imported here: boot.learn_names loads this module before the room's)
    from gogadget.roomnames import topic, valid_board_id
    for name in (board_id, opponent, pair_id):
        if not valid_board_id(name):
            raise ValueError("bad id %r (1-32 of a-z A-Z 0-9 - _)" % (name,))
    if board_id == opponent:
        raise ValueError("a board cannot play itself")
    f.board_id = board_id
    f.opponent = opponent
    f.pair_id = pair_id
    f.remote = remote(3 - colour)
    f.hello = (topic(board_id, _T_PAIR).encode(), pair_message(pair_id, colour, opponent))
    # Replaced once the paired game is over at both boards (or a new
    # game was started here): the retained pair message is then cleared,
    # so it names no later game of this board's (the Broadcaster
    # publishes a new hello when it sees one).
    f.done = False
    f.agreed = False  # their pair message names this game, the other colour, us
    f.game = -1  # the opponent board's game number (-1: no snapshot yet)
    f.seq = 0  # the last event or snapshot applied
    f.size = 0
    f.komi = 0.0
    f.rules = ""
    f.moves = bytearray(0)  # theirs, 2 bytes a move: colour << 12 | point
    f.count = 0
    f.result = ""
    f.dropped = 0  # duplicates and gaps (figures)
    f.outcome = _WAITING
    f._changed = False
    f._recount = 0
    f._local = -1  # the local seq at the last sync
    f.clock = None  # their snapshot's clock (docs/ROOM.md), not yet taken
    f._turn_at = -1  # when their turn began here (ref.now), -1: not their turn
    f._their_ms = -1  # their player's ms left when their turn began
    f.clock_note = ""  # the last disagreement of the two boards' clocks
    f._ipoll = None  # the connection's socket, polled without allocating


def connected(f, client):
    """A new connection: the Follower's callback and subscriptions on it
    (the opponent's topics made here, not held between connections)."""
    from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
    client.set_callback(f.message)
    for leaf in (_T_PAIR, T_GAME, T_MOVE, T_STATUS):
        client.subscribe(topic(f.opponent, leaf).encode(), 1)
    f._ipoll = _socket_poll(client)


def _socket_poll(client):
    """The client socket's ipoll (MicroPython: allocation-free), or None
    (a client without a socket, or a port without ipoll: check_msg alone)."""
    sock = getattr(client, "sock", None)
    if sock is None:
        return None
    try:
        import select
        p = select.poll()
        p.register(sock, select.POLLIN)
        return getattr(p, "ipoll", None)
    except (ImportError, AttributeError, OSError, TypeError):
        return None


def pair(f, m):
    ok = (m.get("pair") == f.pair_id and m.get("opponent") == f.board_id
          and m.get("colour") == _COLOURS[f.remote.colour])
    if ok != f.agreed:
        f.agreed = ok
        f._changed = True


def gone(f):
    """Their board is gone (its will): their figure stands, no longer
    counted down here (docs/CLOCK.md: the owner gone).  Their next
    snapshot, on their next connection, says more."""
    ref = f.remote.ref
    clock = ref.clock if ref is not None else None
    if clock is not None:
        c = f.remote.colour  # (told as theirs: a host tells its USB board)
        clock.theirs(ref, clock.left(c), clock.overtime(c), False)


def snapshot(f, msg):
    """Their snapshot (Follower.message), parsed as it streams: msg is
    bytes, a view of the MQTT client's window, or (longer than that: ~5 KB
    late in a game) the client itself, read a window at a time
    (gogadget.mqttsub): no buffer of the whole message is ever held (the
    heap may have no block that size mid-game, and one held all game is
    what a paired board lacks: issue 35).  The moves go, checked as they
    come, into a new record (2 bytes a move); the rest, without the moves
    and their times (~300 bytes), becomes a JSON object once all is in.
    The snapshot as the boards write it (gogadget.broadcast: compact,
    "moves":"...", then "times":[...] when on a clock); anything else, or
    a message cut short, is a ValueError (or the socket's OSError) and
    nothing of it is applied (Follower.message counts it): their record is
    replaced by the new one only when all of it is in and checked."""
    s = _Scan(msg)
    doc = bytearray()
    if not s.to(b'"moves":"', doc):
        raise ValueError("not a snapshot")
    doc.extend(b'"moves":""')
    # The moves, size unknown yet (it may come after them): each node
    # checked and kept as its SGF letters, colour << 12 | x << 5 | y, 31, 31
    # a pass ;B[]; made points once the size is known.
    new = bytearray(len(f.moves) or 128)
    n = 0
    while True:
        if s.e - s.i < 6:
            s.need(6)
        w = s.w
        i = s.i
        e = s.e
        if i >= e:
            raise ValueError("cut short")
        if w[i] == 34:  # ": the moves' end
            s.i = i + 1
            break
        if w[i] != 59 or i + 4 > e or w[i + 2] != 91:  # ; [
            raise ValueError("bad move")
        c = w[i + 1]
        c = BLACK if c == 66 else WHITE if c == 87 else 0  # B W
        if not c:
            raise ValueError("bad move")
        if w[i + 3] == 93:  # ]
            v = 1023
            i += 4
        else:
            if i + 6 > e or w[i + 5] != 93:
                raise ValueError("bad move")
            x = w[i + 3] - 97  # a..z
            y = w[i + 4] - 97
            if not (0 <= x < 26 and 0 <= y < 26):
                raise ValueError("bad move")
            v = x << 5 | y
            i += 6
        s.i = i
        k = 2 * n
        if k + 2 > len(new):
            grown = bytearray(k + 256)  # (128 moves more: a copy seldom, never per move)
            grown[:k] = new
            new = grown
            grown = None
        v |= c << 12
        new[k] = v & 0xFF
        new[k + 1] = v >> 8
        n += 1
    while s.to(b',"times":[', doc):  # (the tail, without each move's time)
        if not s.to(b"]", None):
            raise ValueError("not a snapshot")
    s = None
    m = json.loads(doc)  # pyright: ignore[reportArgumentType]  (both read a bytearray)
    doc = None
    game = m["game"]
    seq = m["seq"]
    if game == f.game and seq < f.seq:
        f.dropped += 1
        return
    size = m["size"]
    for k in range(0, 2 * n, 2):  # the letters made points, each checked
        v = new[k] | new[k + 1] << 8
        x = v >> 5 & 31
        y = v & 31
        if x == 31 or x == y == 19 and size <= 19:
            pt = PASS  # ;B[] or tt (points.parse_sgf_coord)
        else:
            y = size - 1 - y
            if not (x < size and 0 <= y < size):
                raise ValueError("bad move")
            pt = point(size, y, x)
        v = v & 0x3000 | pt
        new[k] = v & 0xFF
        new[k + 1] = v >> 8
    if f.game >= 0 and game != f.game:
        f.remote.stop("the opponent's board started another game")
    if m["setup"]:
        f.remote.stop("set-up stones are not played remotely")
    f.komi = m["komi"]
    f.rules = m["rules"]
    # The record, with room for 64 moves more (Follower._put grows it: a
    # copy every few dozen moves, never per move).
    need = 2 * (n + 64)
    if len(new) < need:
        grown = bytearray(need)
        grown[:2 * n] = new[:2 * n]
        new = grown
    f.moves = new
    f.game = game
    f.size = size
    f.count = n
    f.result = m["result"]
    f.seq = seq
    f.clock = m.get("clock")
    f._changed = True


class _Scan:
    """A message read through a window (snapshot): w[i:e] the bytes at
    hand; need() moves what is left to the front and reads more."""

    def __init__(s, msg):
        s.i = 0
        s.src = getattr(msg, "readinto", None)  # a stream (mqttsub.Client)
        if s.src is None:
            s.w = msg
            s.e = len(msg)
        else:
            s.w = msg.window
            s.e = 0

    def need(s, k):
        """At least k bytes at hand?  (False: the message ends first.)"""
        w = s.w
        i = s.i
        e = s.e
        if e - i >= k:
            return True
        if s.src is None:
            return False
        for j in range(e - i):
            w[j] = w[i + j]
        e -= i
        s.i = 0
        while e < k:
            got = s.src(w[e:])
            if not got:
                break
            e += got
        s.e = e
        return e >= k

    def to(s, pat, doc):
        """On to just after pat; the bytes passed over (not pat) added to
        doc if not None.  False: the message ended first (all of it added)."""
        k = len(pat)
        c = pat[0]
        while True:
            more = s.need(k)
            w = s.w
            i = s.i
            j = i if more else s.e  # (at the end: no room for pat, all passed over)
            stop = s.e - k + 1
            while j < stop:
                if w[j] == c and bytes(w[j:j + k]) == pat:
                    break
                j += 1
            if doc is not None:
                doc.extend(w[i:j])
                if len(doc) > _DOC_MAX:
                    raise ValueError("not a snapshot")
            if more and j < stop:
                s.i = j + k
                return True
            s.i = j
            if not more:
                return False


def differ(f):
    """Set the two boards alike (size, rules, komi): the board does not
    pick one side's settings for the person."""
    return f.remote.stop("the games differ: %dx%d %s komi %s there" % (
        f.size, f.size, f.rules, f.komi))


def clock_note(f, ref, rep, c, took, seen):
    """The two boards' clocks disagree: shown (an event, clock_note), never
    corrected.  took < 0: their time controls differ."""
    if took < 0:
        f.clock_note = "the boards' time controls differ: %s there" % rep[0]
    else:
        f.clock_note = "%s's board says the move took %d s; %d s passed here" % (
            _COLOURS[c], took // 1000, seen // 1000)
    ref.event("clock", f.clock_note)


def remote(r, colour, referee):
    """Remote.__init__'s work (see there)."""
    if colour != BLACK and colour != WHITE:
        raise ValueError("a remote opponent plays black or white")
    r.colour = colour  # the remote player's
    r.ref = None
    r.note = ""  # why the pairing stopped ("" while it goes on)
    r.asked_back = -1  # we took back our move: they may still show this many moves
    r._back_seq = 0  # their record's seq when we took it back
    r._back_from = 0  # our moves after the take-back (theirs may differ from here on)
    r._asked = 0  # their take-back of move N asked here (Confirm accepts it)
    r.lit = 0  # opponent moves lit (figures for the host and the tests)
    r._seen = -1  # local moves at the last look (a local take-back)
    r.game = -1  # the local game's number, from the first look on
    r.counting = ""  # their count's result, not yet this board's
    if referee is not None:
        r.attach(referee)


def differs(r, k, count, mine, move):
    """The two records part at move k + 1 (Remote.sync): a take-back on its
    way, or a stop."""
    ref = r.ref
    if r.asked_back >= 0 and k >= r._back_from and count <= r.asked_back:
        # Our take-back, and a move played here since, before their
        # confirmation arrived: their record still shows the move
        # taken back.  It goes when they confirm.
        return _WAITING
    if r._asked == mine and ref.ask_undo == mine and k == mine - 1 and count == mine:
        # Their take-back and their next move, before the person
        # here confirmed the take-back: still asked; Confirm, and
        # the new move is lit.
        return _ASKED
    board = ref.board
    return r.stop("move %d differs: %s here, %s there" % (
        k + 1, _say(board, board.move(k)), _say(board, move(k))))


def _say(board, m):
    from gogadget.points import vertex
    c, p = m
    return _COLOURS[c] + " " + vertex(board.size, p)


def stop(r, why, n):
    """A stop whose note names a move (n)."""
    return r.stop(why % n)


def back(r, moves, seq):
    """A take-back here (Remote.local_changed): theirs, confirmed; or ours,
    a request to them until their record shows it too."""
    if r._asked == r._seen:
        r._asked = 0  # theirs, confirmed here
    elif r.asked_back < 0:
        r.asked_back = r._seen
        r._back_from = moves
        r._back_seq = seq


def says(r, what, here="", there=""):
    """A stop of Remote.sync's, its note by number."""
    return r.stop(("a new game was started here: pair the boards again",
                   "they play on after the result",
                   "results differ: %s here, %s there" % (here, there))[what])


def took_back(r, count, mine):
    """We are ahead with a move of theirs they no longer show: their last
    move, taken back there, is asked of the person (Confirm takes it back
    here); an earlier one stops the pairing."""
    ref = r.ref
    if count == mine - 1:
        if ref.ask_undo != mine:
            ref.ask_undo = r._asked = mine
            ref.event("prompt", "opponent takes back move %d: press Confirm" % mine)
        return _ASKED
    return r.stop("they no longer show their move %d" % (count + 1))


def counting(r, result):
    """Their count is in and this board's gives another result: the person
    here may still be marking dead stones (asked, and looked at again); a
    Confirm here that gives another result stops the pairing."""
    r.counting = result
    r.ref.event("prompt", "the other board counts %s: mark the same dead stones" % result)


def end(r, result):
    """A resignation, or their flag: each board calls only its own
    player's (docs/CLOCK.md: the clock's owner calls its flag)."""
    ref = r.ref
    loser = WHITE if result[0] == "B" else BLACK
    if loser != r.colour:
        return r.stop("they say we lost: " + result)
    if result[-1] == "R":
        ref.resign(loser)
        return _ENDED
    # c's board says c's time ran out: the same end here, journalled as a
    # time-out of this board's own is (clockio.time_out), so a cut keeps it.
    tell = getattr(ref, "told_result", None)
    if tell is not None:
        tell(result)  # a host's stand-in for the board's referee (`gogadget remote`)
        return _ENDED
    from gogadget import ending
    from gogadget.journal import K_RESULT
    clock = ref.clock
    if clock is not None:
        clock.flagged = clock.told = loser
        clock.remote_run = clock.running = 0
    ref.log.append(ref, K_RESULT, 3 - loser, 0xFFFF)  # gamelog.RESULT_WORDS: T
    ref.event("time", result)
    ending.finish(ref, 3 - loser, result)
    return _ENDED

