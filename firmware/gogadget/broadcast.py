"""The board's game on MQTT (docs/ROOM.md): topic names, the message format,
and the Broadcaster that publishes the referee's game.

The names and the format are defined once here; the relay and the host
tools import them.

Broadcaster(connect, board_id), attached to a referee (App does it:
App(..., broadcast=b) calls b.attach(app.referee)), publishes, QoS 1, under
gogadget/board/<board_id>/:

* status (retained): {"v":1,"online":true,"faults":N,"note":"..."} on every
  connection and whenever the faults or the journal report change; the last
  will, {"v":1,"online":false}, is retained too;
* move: one event per move, pass, take-back and end, with the game's number
  and the event's seq;
* game (retained): the snapshot of the whole game, after the events it
  includes.

What it needs from the referee (gogadget.referee.Referee has all of it; a
host-side stand-in needs the same attributes):

    ref.log.game, ref.log.seq   the game's number and its event count
                                (gamelog.GameLog: both survive a power cut)
    ref.board                   board.Board: size, moves, move(i),
                                last_move(), prisoners, setup_stones
    ref.phase, ref.resume_phase "setup" "resume" "play" "count" "over"
    ref.komi, ref.rules.name, ref.rules.changes, ref.handicap, ref.result
    ref.has_fault, ref.fault    (bytes, nonzero: a place whose sensor is out)
    ref.damage                  "" or what boot found wrong with the journal
    ref.clock                   None, or the clock.Clock (the snapshot's "clock")

`connect` is a factory: connect() returns a new, unconnected client with
umqtt.simple's API -- set_last_will(topic, msg, retain, qos),
connect(clean_session), publish(topic, msg, retain, qos) returning once
the broker acknowledged it (QoS 1: PUBACK) and raising OSError when the
connection fails, ping(), disconnect(), and close() (drop the socket
without DISCONNECT, so the broker sends the will; a plain umqtt client
without close() has its sock closed).  The client must be made with
keepalive=KEEPALIVE_S.  A new client is made for every connection.

    On the board (main.py):   gogadget.hw.net.mqtt_factory(config)
    On CPython:               host_sim.room.client.factory(url, user, password)

        from host_sim.room.client import factory
        b = Broadcaster(factory("mqtt://127.0.0.1:1883", "b1", pw), "b1")
        app = App(config, sensors, leds, buttons, store, broadcast=b)
        # or, on a referee of one's own: b.attach(referee); b.poll(now_ms)

App.step calls b.poll(now_ms) once per scan cycle.  With nothing new it
compares three numbers (seq, game, phase; moves, komi, rules, set-up stones
and faults every 10th poll) and allocates nothing; otherwise it does at most
one network operation (a connection attempt, one publish, or a ping), so the
scan loop never waits for more than one round trip.  A failed connection or
publish drops the client and retries after 1 s, doubling to 30 s.  What the
broker has not acknowledged is kept: the events (up to `backlog` of them,
oldest dropped first: the snapshot covers a gap) and the snapshot are
published after the next connection, in order.

The snapshot is never held: gogadget.mqtt's client (which says it
`streams`) is handed a message that knows its length (the head, six bytes
a move, four a pass, the tail) and writes itself into the socket, the head
and the tail from two small preallocated buffers, the moves from the
board's own move log through the event buffer, a few dozen at a time.  A
client that does not stream (the host's) gets the message as bytes
(snapshot()).  The last snapshot of a game that ended while the broker
was out of reach is kept as bytes, to go after that game's events once a
new game has replaced the board's moves.

What is done once a connection or once a game (connecting, the status
message, the snapshot's buffer from scratch) is in gogadget.roomjoin,
imported for it and let go again: the scan loop's publishing holds only
this module's code.

A peer (Broadcaster(..., peer=p), gogadget.pairing.Follower for a game
against another board) rides on the same connection: on every connection
p.connected(client) gives the client its callback and subscribes its
topics (QoS 1; the code for it is the Follower's, so that a board not
paired holds none of it), and the Broadcaster publishes p.hello, (topic, message), retained, after the status (and
again when p.hello_changed says the peer replaced it: an empty message
clears the pairing once its game is over); a poll with nothing to publish
lets p.check(client) take one waiting message (check_msg), and every poll
calls p.poll().  The client then needs umqtt.simple's set_callback,
subscribe and check_msg too.
"""
from gogadget.compat import const, forget, ticks_add, ticks_diff

TOPIC_ROOT = "gogadget/board"
T_STATUS = "status"  # retained: online, faults; the last will says offline
T_GAME = "game"  # retained: the snapshot of the whole current game
T_MOVE = "move"  # events: move, pass, take-back, end; each with its seq
FORMAT = 1  # "v" in every message
MAX_MESSAGE = 8192  # bytes; the relay drops bigger ones
_MAX_ID = const(32)

KEEPALIVE_S = 60  # the MQTT keepalive the client is made with
_PING_MS = const(30000)  # idle this long: ping (half the keepalive)
_RETRY_MIN = const(1000)
_RETRY_MAX = const(30000)
WILL = b'{"v":1,"online":false}'
PHASES = ("setup", "play", "count", "over")  # as the snapshot names them
_PHASE = {"setup": b"setup", "play": b"play", "count": b"count", "over": b"over"}

# The backlog: events not yet acknowledged, _ENTRY bytes each: 0-1 game,
# 2-3 seq, 4 kind | colour << 2 | the point's high bits << 4, 5-6 n, 7 the
# point's low byte.  An end's result is in _ends (one a game, in order).
_ENTRY = const(8)
_E_MOVE = const(1)
_E_UNDO = const(2)
_E_END = const(3)
_KIND = (b"", b"move", b"undo", b"end")
_COLOUR = b"?BW"
_NODE = const(6)  # ;B[pd]
_HEAD = const(176)  # the snapshot's keys and numbers before "setup", names apart
# After the moves: ","phase":"count","result":"W+1000.5","prisoners":[361,361],
# "clock":["canadian","B",65000000,255,65000000,255],"seq":65535}
_TAIL = const(160)
_SLOW = const(10)  # polls between two looks at what changes rarely


def valid_board_id(name):
    """1-32 characters of a-z A-Z 0-9 - _ (a board's id is its MQTT user)."""
    if not name or len(name) > _MAX_ID:
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_") or ord(ch) > 127:
            return False
    return True


def topic(board_id, leaf):
    return "%s/%s/%s" % (TOPIC_ROOT, board_id, leaf)


def _clock_state(clock):
    """What the room's snapshot must follow: whose time runs, who is out of it."""
    return clock.running | clock.flagged << 2


# -- writing into a bytearray (no strings built) -------------------------------


def _put(buf, pos, data):
    n = len(data)
    buf[pos:pos + n] = data
    return pos + n


def _int(buf, pos, value):
    if value < 0:
        buf[pos] = 45  # -
        pos += 1
        value = -value
    digits = 1
    v = value
    while v >= 10:
        v //= 10
        digits += 1
    end = pos + digits
    i = end
    while True:
        i -= 1
        buf[i] = 48 + value % 10
        value //= 10
        if i == pos:
            return end


def _half(buf, pos, halves):
    """A multiple of 0.5 given as a count of halves: 13 -> 6.5, -2 -> -1."""
    if halves < 0:
        buf[pos] = 45
        pos += 1
        halves = -halves
    pos = _int(buf, pos, halves >> 1)
    if halves & 1:
        pos = _put(buf, pos, b".5")
    return pos


def _node(buf, pos, size, colour, pt):
    """One SGF move node, ;B[pd] (a pass: ;B[])."""
    buf[pos] = 59  # ;
    buf[pos + 1] = _COLOUR[colour]
    buf[pos + 2] = 91  # [
    if pt == 0:
        buf[pos + 3] = 93  # ]
        return pos + 4
    w = size + 1
    buf[pos + 3] = 97 + pt % w
    buf[pos + 4] = 97 + size - pt // w
    buf[pos + 5] = 93
    return pos + 6


def _close(client):
    """Drop a client's connection without DISCONNECT (the broker then
    publishes the last will)."""
    try:
        close = getattr(client, "close", None)
        if close is not None:
            close()
        elif getattr(client, "sock", None) is not None:
            client.sock.close()
    except Exception:  # noqa: BLE001  (it is broken already)
        pass


class Broadcaster:
    """Publishes a referee's game over MQTT; see the module notes."""

    # What roomjoin shares with the scan loop's publishing, handed to it
    # through the Broadcaster (it may not import this module: a circle).
    will = WILL
    drop = staticmethod(_close)
    ping_ms = _PING_MS
    head = _HEAD
    entry = _ENTRY
    tail = _TAIL
    retry_ms = _RETRY_MIN

    # Set by roomjoin.init (what each is: there); annotations cost nothing
    # on the board.
    _names: bytes
    _ring: bytearray
    _cap: int
    _ends: list
    _ev: bytearray
    _tail: bytearray
    _setup: bytes
    _status: bytes

    def __init__(self, connect, board_id, referee=None, note="", ready=None, backlog=32,
                 black="Black", white="White", peer=None):
        """connect: the client factory; board_id: the board's name and MQTT
        user; note: said in the status; ready: None or a function telling
        whether the network is up (no connection is tried while it is not);
        backlog: how many events are kept for the broker (32: half an hour
        of a game out of reach; the snapshot covers more); black, white: the
        players' names in the snapshot; peer: see the module notes."""
        if not valid_board_id(board_id):
            raise ValueError("bad board id %r (1-32 of a-z A-Z 0-9 - _)" % (board_id,))
        self.ref = referee
        self.factory = connect
        self.board_id = board_id
        self.note = note  # said in the status (with the journal's report)
        self.ready = ready  # None, or a function: is the network up?
        self.peer = peer
        self.t_status = topic(board_id, T_STATUS).encode()
        self.t_game = topic(board_id, T_GAME).encode()
        self.t_move = topic(board_id, T_MOVE).encode()
        _join().init(self, backlog, black, white, peer, referee)
        self._msg = _Snapshot(self)
        forget("roomjoin")

    def attach(self, referee):
        """Publish this referee's game (from the next poll on)."""
        self.ref = referee
        self._game = -1
        self._fault = self._damage = None
        if self.peer is not None:
            self.peer.attach(referee)

    # -- the scan loop's call ----------------------------------------------

    def poll(self, now_ms):
        """Once per scan cycle: look at the referee, then do at most one
        network operation.  Allocates nothing when nothing changed."""
        ref = self.ref
        log = ref.log
        if log.seq != self._seq or log.game != self._game or ref.phase != self._phase:
            self._observe(now_ms)
        self._tick -= 1
        if self._tick <= 0:
            # What changes rarely and need not go out within a scan: a few
            # times a second (an idle poll stays a handful of comparisons).
            self._tick = _SLOW
            board = ref.board
            if board.moves != self._moves or ref.komi != self._komi \
                    or ref.rules.changes != self._rules \
                    or len(board.setup_stones) != self._setups \
                    or ref.clock is not None and _clock_state(ref.clock) != self._clock:
                self._observe(now_ms)  # (the clock: a snapshot when whose time runs changes)
            if ref.has_fault != self._fault or ref.damage is not self._damage \
                    or self.peer is not None and self.peer.note is not self._peer_note:
                self._observe_status()
            if self._client is not None and not self._status_dirty and not self._count \
                    and not self._snap_dirty and self._frozen is None \
                    and ticks_diff(now_ms, self._ping_at) >= 0:
                self._ping(now_ms)
                return
        if self._client is None:
            if self._retry_at is None or ticks_diff(now_ms, self._retry_at) >= 0:
                self._connect(now_ms)
        elif self._status_dirty or self._hello_dirty or self._count or self._snap_dirty \
                or self._frozen is not None:
            self._publish_next(now_ms)
        elif self.peer is not None:
            self._check_msg(now_ms)
        if self.peer is not None:
            self.peer.poll()
            if self.peer.hello_changed:
                self.peer.hello_changed = False
                self._hello_dirty = self._client is not None  # else at the next connection

    @property
    def connected(self):
        return self._client is not None

    def pending(self):
        """Messages waiting for the broker (events, snapshots, status)."""
        return self._count + (1 if self._snap_dirty else 0) + (
            1 if self._frozen is not None else 0) + (1 if self._status_dirty else 0) + (
            1 if self._hello_dirty else 0)

    def snapshot(self):
        """The current snapshot message as bytes (a client that does not
        stream, tests, the host); None before the first look."""
        if self._game < 0:
            return None
        snap = _join().whole(self)
        forget("roomjoin")
        return snap

    def close(self, now_ms=0):
        """Leave the broker: say offline (retained), then disconnect
        (roomjoin.leave)."""
        _join().leave(self)
        forget("roomjoin")

    # -- looking at the referee ------------------------------------------------

    def _observe(self, now_ms):
        ref = self.ref
        log = ref.log
        board = ref.board
        game = log.game
        seq = log.seq
        try:
            if game != self._game or seq < self._seq or self._setups != len(board.setup_stones):
                if game != self._game and self._game >= 0:
                    # A new game: its events so far (if they can be told
                    # apart) go out after the old game's.
                    self._freeze()
                    self._game = game
                    self._ended = False
                    self._seq = self._moves = 0
                    if seq:
                        self._events(seq, board.moves)
                self._game = game
                self._rebuild()
            elif seq != self._seq or board.moves != self._moves:
                self._events(seq - self._seq, board.moves - self._moves)
            self._seen(game, seq)
            if ref.has_fault:
                self._observe_status()  # the number of faulty places may have changed
            if self._ended and self._client is None:
                self._keep_last()
        except MemoryError:
            self._seen(game, seq)  # (an end's result not kept: its event says the end)
            self.error = "out of memory"
        self._snap_dirty = True

    def _seen(self, game, seq):
        """Remember what poll compares."""
        ref = self.ref
        board = ref.board
        self._game = game
        self._seq = seq
        self._moves = board.moves
        self._ended = bool(ref.result)
        self._phase = ref.phase
        self._komi = ref.komi
        self._rules = ref.rules.changes
        self._setups = len(board.setup_stones)
        self._clock = -1 if ref.clock is None else _clock_state(ref.clock)

    def _events(self, d, dm):
        """The referee's seq went up by d and its moves by dm since the last
        look: the events, into the backlog and the snapshot's moves."""
        ref = self.ref
        board = ref.board
        ended = bool(ref.result) and not self._ended
        seq = self._seq
        if dm >= 0 and d == dm + (1 if ended else 0):
            for i in range(self._moves, board.moves):
                colour, pt = board.move(i)
                seq += 1
                self._push(seq, _E_MOVE, colour, i + 1, pt)
            if ended:
                self._push(seq + 1, _E_END, 0, 0, 0)
        elif dm < 0 and d == -dm and not ended:
            for n in range(self._moves, board.moves, -1):
                seq += 1
                self._push(seq, _E_UNDO, 0, n, 0)
        # (else more happened than one look can tell apart: no events, a
        # gap in seq, and the snapshot that follows has it all)

    def _push(self, seq, kind, colour, n, pt):
        cap = self._cap
        if cap == 0:
            return
        ring = self._ring
        if self._count == cap:
            self._next()
            self.dropped += 1
        e = ((self._head + self._count) % cap) * _ENTRY
        game = self._game
        ring[e] = game & 0xFF
        ring[e + 1] = (game >> 8) & 0xFF
        ring[e + 2] = seq & 0xFF
        ring[e + 3] = (seq >> 8) & 0xFF
        ring[e + 4] = kind | colour << 2 | (pt >> 8) << 4
        ring[e + 5] = n & 0xFF
        ring[e + 6] = (n >> 8) & 0xFF
        ring[e + 7] = pt & 0xFF
        if kind == _E_END:
            self._ends.append(self.ref.result.encode()[:16])  # (a game's end: allocates)
        self._count += 1

    def _next(self):
        """The oldest event is gone (published, or dropped from a full backlog)."""
        if self._ring[self._head * _ENTRY + 4] & 3 == _E_END:
            self._ends.pop(0)
        self._head = (self._head + 1) % self._cap
        self._count -= 1

    def _observe_status(self):
        """The status message again when what it says changed (the number
        of faulty places, the journal's report, the peer's note)."""
        ref = self.ref
        self._fault = ref.has_fault
        self._damage = ref.damage
        faults = 0
        if ref.has_fault:
            fault = ref.fault
            for i in range(len(fault)):
                if fault[i]:
                    faults += 1
        peer_note = self.peer.note if self.peer is not None else ""
        if faults == self._faults and ref.damage is self._said_damage \
                and peer_note is self._peer_note:
            return  # (a fault that stays: no message built a move)
        self._faults = faults
        self._said_damage = ref.damage
        self._peer_note = peer_note
        _join().status(self, faults)
        forget("roomjoin")

    # -- the snapshot ------------------------------------------------------------

    def _rebuild(self):
        """A new game, a power cut, new set-up stones: the set-up's text
        (roomjoin.rebuild)."""
        _join().rebuild(self)
        forget("roomjoin")

    def _measure(self):
        """The snapshot's length: its head and tail written (into _ev and
        _tail), the moves counted, six bytes a move and four a pass."""
        ref = self.ref
        board = ref.board
        hs = self._ev
        p = _put(hs, 0, b'{"v":1,"game":')
        p = _int(hs, p, self._game)
        p = _put(hs, p, b',"size":')
        p = _int(hs, p, board.size)
        p = _put(hs, p, b',"komi":')
        p = _half(hs, p, int(ref.komi * 2))
        p = _put(hs, p, b',"rules":"')
        p = _put(hs, p, ref.rules.name.encode()[:16])
        p = _put(hs, p, b'","handicap":')
        p = _int(hs, p, ref.handicap)
        p = _put(hs, p, b',"black":')
        p = _put(hs, p, self._names)
        p = _put(hs, p, b',"setup":"')
        p = _put(hs, p, self._setup)
        self._hn = _put(hs, p, b'","moves":"')
        buf = self._tail
        phase = ref.phase
        if phase == "resume":
            phase = ref.resume_phase
        q = _put(buf, 0, b'","phase":"')
        q = _put(buf, q, _PHASE.get(phase, b"play"))
        q = _put(buf, q, b'","result":"')
        if ref.result:
            q = _put(buf, q, ref.result.encode()[:16])
        q = _put(buf, q, b'","prisoners":[')
        q = _int(buf, q, board.prisoners[1])
        buf[q] = 44  # ,
        q = _int(buf, q + 1, board.prisoners[2])
        clock = ref.clock
        if clock is not None:
            # docs/ROOM.md: the clock as it stands now; the page counts the
            # running one down from the moment the relay got it.
            q = _put(buf, q, b'],"clock":["')
            q = _put(buf, q, clock.word)
            q = _put(buf, q, b'","')
            if clock.running:
                buf[q] = 66 if clock.running == 1 else 87  # B W
                q += 1
            buf[q] = 34  # "
            q += 1
            for c in (1, 2):
                buf[q] = 44  # ,
                q = _int(buf, q + 1, clock.left(c))
                buf[q] = 44
                q = _int(buf, q + 1, clock.overtime(c))
        q = _put(buf, q, b'],"seq":')
        q = _int(buf, q, self._seq)
        buf[q] = 125  # }
        self._tn = q + 1
        passes = board.passes
        return self._hn + _NODE * board.moves - 2 * (passes[1] + passes[2]) + self._tn

    def _write(self, out):
        """The snapshot _measure measured, into out (a socket: its
        write(buf, n) takes the first n bytes of buf): the head, the moves
        from the board's move log (read in place: a move's (colour, point)
        would be a new tuple each) a bufferful at a time, the tail."""
        ev = self._ev
        out.write(ev, self._hn)
        board = self.ref.board
        size = board.size
        info = board._log_info
        pts = board._log_pt
        full = len(ev) - _NODE
        k = 0
        for i in range(board.moves):
            k = _node(ev, k, size, info[i] & 3, pts[i])
            if k > full:
                out.write(ev, k)
                k = 0
        if k:
            out.write(ev, k)
        out.write(self._tail, self._tn)

    def _keep_last(self):
        """The ended game's snapshot as bytes while the broker is out of
        reach: a new game would replace its moves on the board before it
        could go out (_freeze)."""
        self._last = None
        try:
            self._last = self.snapshot()
        except MemoryError:
            pass  # (lost: the game's events still say how it ended)

    def _freeze(self):
        """A new game while the broker lacks the last snapshot of the old
        one: keep that message to publish after the old game's events."""
        if self._snap_dirty and self._last is not None:
            self._frozen = self._last
            self._frozen_game = self._game
            self._snap_dirty = False
        self._last = None

    # -- the broker --------------------------------------------------------------

    def _connect(self, now_ms):
        if self.ready is not None and not self.ready():
            self._retry_at = ticks_add(now_ms, _RETRY_MIN)  # the network is not up
            return
        try:
            join = _join()
        except MemoryError as exc:
            self._fail(None, exc, now_ms)
            return
        self._client = join.connect(self, now_ms)
        forget("roomjoin")

    def _fail(self, client, exc, now_ms):
        self._client = None
        if client is not None:
            _close(client)
        self.failures += 1
        if self._ended and self._snap_dirty:
            self._keep_last()
        try:
            self.error = "%s: %r" % (type(exc).__name__, exc)
        except MemoryError:
            self.error = "failed"
        self._retry_at = ticks_add(now_ms, self._backoff)
        self._backoff = min(2 * self._backoff, _RETRY_MAX)

    def _check_msg(self, now_ms):
        """One message for the peer, if one is waiting (its callback runs)."""
        client = self._client
        try:
            self.peer.check(client)
        except Exception as exc:  # noqa: BLE001
            self._fail(client, exc, now_ms)

    def _ping(self, now_ms):
        client = self._client
        try:
            client.ping()
        except Exception as exc:  # noqa: BLE001
            self._fail(client, exc, now_ms)
            return
        self._ping_at = ticks_add(now_ms, _PING_MS)

    def _publish_next(self, now_ms):
        """One message, in order: the status, the events (an earlier game's
        last snapshot after that game's events), then the snapshot."""
        client = self._client
        what = 0
        if self._status_dirty:
            topic_, msg, retain, what = self.t_status, self._status, True, 1
        elif self._hello_dirty:
            topic_, msg = self.peer.hello
            retain, what = True, 5
        elif self._count and (self._frozen is None or self._ring_game() == self._frozen_game):
            topic_, msg, retain, what = self.t_move, self._event_message(), False, 2
        elif self._frozen is not None:
            topic_, msg, retain, what = self.t_game, self._frozen, True, 3
        elif self._count:
            topic_, msg, retain, what = self.t_move, self._event_message(), False, 2
        else:
            msg = self._msg
            if not getattr(client, "streams", False):
                try:
                    msg = self.snapshot()
                except MemoryError:
                    self.error = "out of memory for the snapshot"
                    return
            topic_, retain, what = self.t_game, True, 4
        try:
            client.publish(topic_, msg, retain, 1)
        except Exception as exc:  # noqa: BLE001
            self._fail(client, exc, now_ms)
            return
        if what == 1:
            self._status_dirty = False
        elif what == 2:
            self._next()
        elif what == 3:
            self._frozen = None
        elif what == 5:
            self._hello_dirty = False
        else:
            self._snap_dirty = False
            self._last = None
        self.published += 1
        self._backoff = _RETRY_MIN
        self._ping_at = ticks_add(now_ms, _PING_MS)

    def _ring_game(self):
        e = self._head * _ENTRY
        return self._ring[e] | self._ring[e + 1] << 8

    def _event_message(self):
        """The oldest backlog entry as its JSON message (a memoryview)."""
        ring = self._ring
        e = self._head * _ENTRY
        ev = self._ev
        p = _put(ev, 0, b'{"v":1,"game":')
        p = _int(ev, p, ring[e] | ring[e + 1] << 8)
        p = _put(ev, p, b',"seq":')
        p = _int(ev, p, ring[e + 2] | ring[e + 3] << 8)
        kind = ring[e + 4] & 3
        p = _put(ev, p, b',"t":"')
        p = _put(ev, p, _KIND[kind])
        if kind == _E_END:
            p = _put(ev, p, b'","result":"')
            p = _put(ev, p, self._ends[0])
        else:
            p = _put(ev, p, b'","n":')
            p = _int(ev, p, ring[e + 5] | ring[e + 6] << 8)
            if kind == _E_UNDO:
                ev[p] = 125  # }
                return memoryview(ev)[:p + 1]
            p = _put(ev, p, b',"c":"')
            ev[p] = _COLOUR[ring[e + 4] >> 2 & 3]
            p = _put(ev, p + 1, b'","p":"')
            pt = (ring[e + 4] >> 4) << 8 | ring[e + 7]
            if pt:  # (a pass: "")
                size = self.ref.board.size
                ev[p] = 97 + pt % (size + 1)
                ev[p + 1] = 97 + size - pt // (size + 1)
                p += 2
        return memoryview(ev)[:_put(ev, p, b'"}')]


class _Snapshot:
    """The snapshot as a message that writes itself, for a client that
    streams (gogadget.mqtt): len(), then write_to(sock)."""

    def __init__(self, b):
        self.b = b

    def __len__(self):
        return self.b._measure()

    def write_to(self, sock):
        self.b._write(sock)


def _join():
    """gogadget.roomjoin: what the Broadcaster does when it (re)joins the
    room or starts a game's snapshot, imported for that and let go again
    (compat.forget): on the board its bytecode is heap the game needs."""
    from gogadget import roomjoin
    return roomjoin
