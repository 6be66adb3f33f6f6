"""The board's game on MQTT (docs/ROOM.md): the message format, and the
Broadcaster that publishes the referee's game.

The format is defined once here, the topics' names in roomnames.py; the
relay and the host tools import them.

Longer than 500 lines because what is left here is one job, done on every
move in the room: looking at the referee, the backlog, the snapshot
streamed into the socket and the publishing share one state list and its
buffers, so a second module for any of them would be held by the room's
phase beside this one (a module object, its globals and names more); what
is done once a connection or once a game is roomjoin.py's already.

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
without DISCONNECT, so the broker sends the will).  The client must be made with
keepalive=roomnames.KEEPALIVE_S.  A new client is made for every connection.

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
a move, four a pass, the tail) and writes itself into the socket (the
Broadcaster itself: len(b), b.write_to(sock)): the head (the game's keys
and numbers up to the moves, as bytes, written again only when one of them
changes), the moves from the board's own move log through the event
buffer, 20 at a time, and the tail from a small preallocated buffer.  A
client that does not stream (the host's) gets the message as bytes
(snapshot()).  The last snapshot of a game that ended while the broker
was out of reach is kept as bytes, to go after that game's events once a
new game has replaced the board's moves.

What is done once a connection or once a game (connecting, the MQTT
CONNECT, the status message, a new game's start, the snapshot's head) is
in gogadget.roomjoin,
imported for it and let go again: the scan loop's publishing holds only
this module's code.

A peer (Broadcaster(..., peer=p), gogadget.pairing.Follower for a game
against another board) rides on the same connection: on every connection
p.connected(client) gives the client its callback and subscribes its
topics (QoS 1; the code for it is the Follower's, so that a board not
paired holds none of it), and the Broadcaster publishes p.hello, (topic, message), retained, after the status (and
again when the peer replaces it by a new tuple: an empty message
clears the pairing once its game is over); a poll with nothing to publish
lets p.check(client) take one waiting message (check_msg), and every poll
calls p.poll().  The client then needs umqtt.simple's set_callback,
subscribe and check_msg too.
"""
from gogadget.compat import const, forget, ticks_add, ticks_diff

_PING_MS = const(30000)  # idle this long: ping (half the keepalive)
_RETRY_MIN = const(1000)
_RETRY_MAX = const(30000)
_SLOW = const(10)  # polls between two looks at what changes rarely
_NODE = const(6)  # ;B[pd]

# The backlog: events not yet acknowledged, _ENTRY bytes each: 0-1 game,
# 2-3 seq, 4 kind | colour << 2 | the point's high bits << 4, 5-6 n, 7 the
# point's low byte.  An end's result is in the list at _ENDS (one a game,
# in order).
_ENTRY = const(8)
_E_MOVE = const(1)
_E_UNDO = const(2)
_E_END = const(3)

# The Broadcaster's state: one list, self._st, indexed by these (a name an
# attribute would be a name the board interns for ever, and a slot in the
# instance's dict).  roomjoin.init makes it, in this order, and roomjoin
# uses the same numbers (tests/test_broadcast.py holds the two to it).
# What poll compares with the referee (what was last looked at):
_GAME = const(0)
_SEQ = const(1)
_MOVES = const(2)
_PHASE = const(3)
_KOMI = const(4)
_RULES = const(5)
_SETUPS = const(6)
_ENDED = const(7)
_FAULT = const(8)
_DAMAGE = const(9)
_CLOCK = const(10)  # whose time runs | flagged << 2, as last published; -1: no clock
# The connection:
_RETRY_AT = const(11)  # None: connect at the next poll
_BACKOFF = const(12)
_PING_AT = const(13)
_TICK = const(14)  # polls to the next look at what changes rarely
# The backlog ring: its oldest entry, its entries:
_HEAD = const(15)
_COUNT = const(16)
# What the broker has not acknowledged yet:
_SNAP_DIRTY = const(17)  # the snapshot
_STATUS_DIRTY = const(18)
_HELLO_DIRTY = const(19)  # the peer's hello (not on this connection yet)
_FROZEN = const(20)  # the last snapshot of an earlier game, as bytes
_FROZEN_GAME = const(21)
_LAST = const(22)  # the ended game's snapshot as bytes, while the broker is out of reach
# What the status says: faulty places, the journal's report, the peer's note; the message:
_FAULTS = const(23)
_SAID_DAMAGE = const(24)
_PEER_NOTE = const(25)
_STATUS = const(26)
# The snapshot: its tail's bytes as measured, its head (the game's keys and
# numbers up to the moves, as bytes: roomjoin.setup writes it when one of
# them changes), the players' names; the buffers (the ring, the ends'
# results, the event message / the moves on their way to the socket, the
# snapshot's tail); the topics.  And the peer's hello as last seen.
_HELLO = const(27)  # the peer's hello as last seen
_TN = const(28)
_SETUP = const(29)  # the head
_NAMES = const(30)
_RING = const(31)
_ENDS = const(32)
_EV = const(33)
_TAIL = const(34)
_TOPICS = const(35)  # (status, game, move), bytes


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


class Broadcaster:
    """Publishes a referee's game over MQTT; see the module notes.  It is
    its own snapshot message for a client that streams: len(b), then
    b.write_to(sock)."""

    _st: list  # the state (roomjoin.init makes it; its indices above)

    def __bool__(self):
        return True  # (not its snapshot's length)

    def __init__(self, connect, board_id, referee=None, note="", ready=None, backlog=32,
                 black=None, white=None, peer=None):
        """connect: the client factory; board_id: the board's name and MQTT
        user; note: said in the status; ready: None or a function telling
        whether the network is up (no connection is tried while it is not);
        backlog: how many events are kept for the broker (32: half an hour
        of a game out of reach; the snapshot covers more); black, white: the
        players' names in the snapshot (None: "Black", "White"); peer: see
        the module notes."""
        self.ref = referee
        self.factory = connect
        self.board_id = board_id
        self.note = note  # said in the status (with the journal's report)
        self.ready = ready  # None, or a function: is the network up?
        self.peer = peer
        self._client = None
        from gogadget import roomjoin
        roomjoin.init(self, backlog * _ENTRY, black, white, peer, referee)  # (the id checked)
        forget("roomjoin")
        self._st[_BACKOFF] = _RETRY_MIN

    def attach(self, referee):
        """Publish this referee's game (from the next poll on)."""
        self.ref = referee
        referee.room = True  # a room game: no engine hints (hintshow.py)
        st = self._st
        st[_GAME] = -1
        st[_FAULT] = st[_DAMAGE] = None
        if self.peer is not None:
            self.peer.attach(referee)

    # -- the scan loop's call ----------------------------------------------

    def poll(self, now_ms):
        """Once per scan cycle: look at the referee, then do at most one
        network operation.  Allocates nothing when nothing changed."""
        ref = self.ref
        st = self._st
        if ref.log.seq != st[_SEQ] or ref.log.game != st[_GAME] or ref.phase != st[_PHASE]:
            self._observe()
        st[_TICK] -= 1
        if st[_TICK] <= 0:
            # What changes rarely and need not go out within a scan: a few
            # times a second (an idle poll stays a handful of comparisons).
            st[_TICK] = _SLOW
            board = ref.board
            clock = ref.clock
            if board.moves != st[_MOVES] or ref.komi != st[_KOMI] \
                    or ref.rules.changes != st[_RULES] \
                    or len(board.setup_stones) != st[_SETUPS] \
                    or clock is not None and clock.running | clock.flagged << 2 != st[_CLOCK]:
                self._observe()  # (the clock: a snapshot when whose time runs changes)
            if ref.has_fault != st[_FAULT] or ref.damage is not st[_DAMAGE] \
                    or self.peer is not None and self.peer.note is not st[_PEER_NOTE]:
                self._observe_status()
            if self._client is not None and not st[_STATUS_DIRTY] and not st[_COUNT] \
                    and not st[_SNAP_DIRTY] and st[_FROZEN] is None \
                    and ticks_diff(now_ms, st[_PING_AT]) >= 0:
                self._net(now_ms, 0)  # a ping
                return
        if self._client is None:
            if st[_RETRY_AT] is None or ticks_diff(now_ms, st[_RETRY_AT]) >= 0:
                self._net(now_ms, 1)  # a connection
        elif st[_STATUS_DIRTY] or st[_HELLO_DIRTY] or st[_COUNT] or st[_SNAP_DIRTY] \
                or st[_FROZEN] is not None:
            self._publish_next(now_ms)
        elif self.peer is not None:
            self._net(now_ms, 2)  # a message for the peer
        if self.peer is not None:
            self.peer.poll()
            if self.peer.hello is not st[_HELLO]:  # (a new one: published)
                st[_HELLO] = self.peer.hello
                st[_HELLO_DIRTY] = self._client is not None  # else at the next connection

    @property
    def connected(self):
        return self._client is not None

    def pending(self):
        """Messages waiting for the broker (events, snapshots, status)."""
        st = self._st
        return st[_COUNT] + (1 if st[_SNAP_DIRTY] else 0) + (
            1 if st[_FROZEN] is not None else 0) + (1 if st[_STATUS_DIRTY] else 0) + (
            1 if st[_HELLO_DIRTY] else 0)

    def snapshot(self):
        """The current snapshot message as bytes (a client that does not
        stream, tests, the host); None before the first look."""
        if self._st[_GAME] < 0:
            return None
        from gogadget import roomjoin
        snap = roomjoin.snapshot(self)
        forget("roomjoin")
        return snap

    def close(self, now_ms=0):
        """Leave the broker: say offline (retained), then disconnect
        (roomjoin.close)."""
        from gogadget import roomjoin
        roomjoin.close(self)
        forget("roomjoin")

    # -- looking at the referee ------------------------------------------------

    def _observe(self):
        ref = self.ref
        board = ref.board
        st = self._st
        game = ref.log.game
        seq = ref.log.seq
        try:
            new = game != st[_GAME] or seq < st[_SEQ] or st[_SETUPS] != len(board.setup_stones)
            if not new and (seq != st[_SEQ] or board.moves != st[_MOVES]):
                self._events(seq - st[_SEQ], board.moves - st[_MOVES])
            if new or ref.komi != st[_KOMI] or ref.rules.changes != st[_RULES]:
                # A new game, a power cut, new set-up stones, komi, rules:
                # the snapshot's head (roomjoin.setup).
                from gogadget import roomjoin
                roomjoin.setup(self, game, seq)
                forget("roomjoin")
            self._seen(game, seq)
            if ref.has_fault:
                self._observe_status()  # the number of faulty places may have changed
            if st[_ENDED] and self._client is None:
                self._keep_last()
        except MemoryError:
            self._seen(game, seq)  # (an end's result not kept: its event says the end)
            self.error = "out of memory"
        st[_SNAP_DIRTY] = True

    def _seen(self, game, seq):
        """Remember what poll compares."""
        ref = self.ref
        board = ref.board
        clock = ref.clock
        st = self._st
        st[_GAME] = game
        st[_SEQ] = seq
        st[_MOVES] = board.moves
        st[_ENDED] = bool(ref.result)
        st[_PHASE] = ref.phase
        st[_KOMI] = ref.komi
        st[_RULES] = ref.rules.changes
        st[_SETUPS] = len(board.setup_stones)
        st[_CLOCK] = -1 if clock is None else clock.running | clock.flagged << 2

    def _events(self, n, moves):
        """The referee's seq went up by n and its moves by `moves` since the
        last look: the events, into the backlog and the snapshot's moves."""
        ref = self.ref
        board = ref.board
        st = self._st
        ended = bool(ref.result) and not st[_ENDED]
        seq = st[_SEQ]
        if moves >= 0 and n == moves + (1 if ended else 0):
            for i in range(st[_MOVES], board.moves):
                colour, pt = board.move(i)
                seq += 1
                self._push(seq, _E_MOVE | colour << 2, i + 1, pt)
            if ended:
                self._push(seq + 1, _E_END, 0, 0)
        elif moves < 0 and n == -moves and not ended:
            for i in range(st[_MOVES], board.moves, -1):
                seq += 1
                self._push(seq, _E_UNDO, i, 0)
        # (else more happened than one look can tell apart: no events, a
        # gap in seq, and the snapshot that follows has it all)

    def _push(self, seq, kind, n, pt):
        """One event into the backlog; kind: its kind | colour << 2."""
        st = self._st
        ring = st[_RING]
        cap = len(ring) // _ENTRY
        if cap == 0:
            return
        if st[_COUNT] == cap:
            self._next()
            self.dropped += 1
        e = ((st[_HEAD] + st[_COUNT]) % cap) * _ENTRY
        game = st[_GAME]
        ring[e] = game & 0xFF
        ring[e + 1] = (game >> 8) & 0xFF
        ring[e + 2] = seq & 0xFF
        ring[e + 3] = (seq >> 8) & 0xFF
        ring[e + 4] = kind | (pt >> 8) << 4
        ring[e + 5] = n & 0xFF
        ring[e + 6] = (n >> 8) & 0xFF
        ring[e + 7] = pt & 0xFF
        if kind == _E_END:
            st[_ENDS].append(self.ref.result.encode()[:16])  # (a game's end: allocates)
        st[_COUNT] += 1

    def _next(self):
        """The oldest event is gone (published, or dropped from a full backlog)."""
        st = self._st
        ring = st[_RING]
        if ring[st[_HEAD] * _ENTRY + 4] & 3 == _E_END:
            st[_ENDS].pop(0)
        st[_HEAD] = (st[_HEAD] + 1) % (len(ring) // _ENTRY)
        st[_COUNT] -= 1

    def _observe_status(self):
        """The status message again when what it says changed (the number
        of faulty places, the journal's report, the peer's note)."""
        ref = self.ref
        st = self._st
        st[_FAULT] = ref.has_fault
        st[_DAMAGE] = ref.damage
        faults = 0
        if ref.has_fault:
            fault = ref.fault
            for i in range(len(fault)):
                if fault[i]:
                    faults += 1
        note = self.peer.note if self.peer is not None else ""
        if faults == st[_FAULTS] and ref.damage is st[_SAID_DAMAGE] and note is st[_PEER_NOTE]:
            return  # (a fault that stays: no message built a move)
        st[_FAULTS] = faults
        st[_SAID_DAMAGE] = ref.damage
        st[_PEER_NOTE] = note
        from gogadget import roomjoin
        roomjoin.status(self)
        forget("roomjoin")

    # -- the snapshot ------------------------------------------------------------

    def __len__(self):
        """The snapshot's length: its tail written (into the tail's buffer),
        the moves counted, six bytes a move and four a pass; the head is
        written already (roomjoin.setup)."""
        ref = self.ref
        board = ref.board
        st = self._st
        buf = st[_TAIL]
        phase = ref.phase
        if phase == "resume":
            phase = ref.resume_phase
        if phase not in ("setup", "count", "over"):
            phase = "play"
        q = _put(buf, 0, b'","phase":"')
        for ch in phase:
            buf[q] = ord(ch)
            q += 1
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
            if clock.main_ms >= 0:  # (-1: a host's mirror of a board's status, which lacks them)
                # The time control (ms: main, period, periods or stones,
                # increment), for the room's record (TM/OT).
                for v in (clock.main_ms, clock.period_ms, clock.periods, clock.inc_ms):
                    buf[q] = 44
                    q = _int(buf, q + 1, v)
        q = _put(buf, q, b'],"seq":')
        q = _int(buf, q, st[_SEQ])
        st[_TN] = q
        passes = board.passes
        return len(st[_SETUP]) + _NODE * board.moves - 2 * (passes[1] + passes[2]) + q \
            + self._times(None)

    def _times(self, out):
        """The end of the snapshot, after its tail: "times", each move's
        time left as the record has it (its BL/WL: whole s, 65535 not
        known; in overtime + 65536 times its OB/OW, the periods or stones
        left), and the closing brace; written to out as write_to writes
        (out None: only counted).  Allocates nothing."""
        clock = self.ref.clock
        ev = self._st[_EV]
        n = k = 0
        if clock is not None and len(clock.secs):
            secs = clock.secs
            counts = clock.counts
            k = _put(ev, 0, b',"times":[')
            for i in range(min(self.ref.board.moves, len(secs))):
                if i:
                    ev[k] = 44  # ,
                    k += 1
                k = _int(ev, k, secs[i] | counts[i] << 16)
                if k > len(ev) - 16:
                    if out is not None:
                        out.write(ev, k)
                    n += k
                    k = 0
            ev[k] = 93
            k += 1
        ev[k] = 125  # }
        k += 1
        if out is not None:
            out.write(ev, k)
        return n + k

    def write_to(self, out):
        """The snapshot len() measured, into out (a socket: its write(buf,
        n) takes the first n bytes of buf): the head, the moves from the
        board's move log (read in place: a move's (colour, point) would be
        a new tuple each) a bufferful at a time, each an SGF node (;B[pd],
        a pass ;B[]), the tail."""
        st = self._st
        out.write(st[_SETUP], len(st[_SETUP]))
        ev = st[_EV]
        board = self.ref.board
        size = board.size
        w = size + 1
        info = board._log_info
        pts = board._log_pt
        full = len(ev) - _NODE
        k = 0
        for i in range(board.moves):
            pt = pts[i]
            ev[k] = 59  # ;
            ev[k + 1] = 66 if info[i] & 3 == 1 else 87  # B W
            ev[k + 2] = 91  # [
            if pt:
                ev[k + 3] = 97 + pt % w
                ev[k + 4] = 97 + size - pt // w
                k += 2
            ev[k + 3] = 93  # ]
            k += 4
            if k > full:
                out.write(ev, k)
                k = 0
        if k:
            out.write(ev, k)
        out.write(st[_TAIL], st[_TN])
        self._times(out)

    def _keep_last(self):
        """The ended game's snapshot as bytes while the broker is out of
        reach: a new game would replace its moves on the board before it
        could go out (_observe freezes it then)."""
        self._st[_LAST] = None
        try:
            self._st[_LAST] = self.snapshot()
        except MemoryError:
            pass  # (lost: the game's events still say how it ended)

    # -- the broker --------------------------------------------------------------

    def _net(self, now_ms, kind):
        """One network operation that may fail (outside poll's frame: its
        handler would make that too big for the stack): 0 a ping, 1 a
        connection (roomjoin.connect), 2 one message for the peer, if one
        is waiting (its callback runs)."""
        try:
            if kind == 0:
                self._client.ping()
            elif kind == 2:
                self.peer.check(self._client)
            elif self.ready is not None and not self.ready():
                self._st[_RETRY_AT] = ticks_add(now_ms, _RETRY_MIN)  # the network is not up
                return
            else:
                from gogadget import roomjoin
                self._client = roomjoin.connect(self)  # (self._client from its making on)
                forget("roomjoin")
            self._st[_PING_AT] = ticks_add(now_ms, _PING_MS)
        except Exception as exc:  # noqa: BLE001  OSError, MQTTException (refused), MemoryError
            self._fail(exc, now_ms)

    def _fail(self, error, now_ms):
        """The connection failed (error: the exception): the client dropped,
        tried again after the backoff, which doubles."""
        forget("roomjoin")  # (if the failure came inside it)
        st = self._st
        client = self._client
        self._client = None
        if client is not None:
            try:
                client.close()  # no DISCONNECT: the broker publishes the last will
            except Exception:  # noqa: BLE001  (it is broken already)
                pass
        self.failures += 1
        if st[_ENDED] and st[_SNAP_DIRTY]:
            self._keep_last()
        try:
            self.error = "%s: %r" % (type(error).__name__, error)
        except MemoryError:
            self.error = "out of memory"
        st[_RETRY_AT] = ticks_add(now_ms, st[_BACKOFF])
        st[_BACKOFF] = min(2 * st[_BACKOFF], _RETRY_MAX)

    def _publish_next(self, now_ms):
        """One message, in order: the status, the events (an earlier game's
        last snapshot after that game's events), then the snapshot."""
        client = self._client
        st = self._st
        ring = st[_RING]
        if st[_STATUS_DIRTY]:
            what, msg = _STATUS_DIRTY, st[_STATUS]
        elif st[_HELLO_DIRTY]:
            what, msg = _HELLO_DIRTY, self.peer.hello[1]
        elif st[_COUNT] and (st[_FROZEN] is None or st[_FROZEN_GAME] == ring[
                st[_HEAD] * _ENTRY] | ring[st[_HEAD] * _ENTRY + 1] << 8):
            what, msg = _COUNT, self._event_message()
        elif st[_FROZEN] is not None:
            what, msg = _FROZEN, st[_FROZEN]
        elif st[_COUNT]:
            what, msg = _COUNT, self._event_message()
        else:
            what, msg = _SNAP_DIRTY, self
            if not getattr(client, "streams", False):
                try:
                    msg = self.snapshot()
                except MemoryError:
                    self.error = "out of memory for the snapshot"
                    return
        try:
            client.publish(self.peer.hello[0] if what == _HELLO_DIRTY else st[_TOPICS][
                0 if what == _STATUS_DIRTY else 2 if what == _COUNT else 1],
                msg, what != _COUNT, 1)  # (retained: all but the events)
        except Exception as exc:  # noqa: BLE001
            self._fail(exc, now_ms)
            return
        if what == _COUNT:
            self._next()
        elif what == _FROZEN:
            st[_FROZEN] = None
        else:
            st[what] = False  # (the status, the hello, the snapshot: acknowledged)
            if what == _SNAP_DIRTY:
                st[_LAST] = None
        self.published += 1
        st[_BACKOFF] = _RETRY_MIN
        st[_PING_AT] = ticks_add(now_ms, _PING_MS)

    def _event_message(self):
        """The oldest backlog entry as its JSON message (a memoryview)."""
        st = self._st
        ring = st[_RING]
        e = st[_HEAD] * _ENTRY
        ev = st[_EV]
        p = _put(ev, 0, b'{"v":1,"game":')
        p = _int(ev, p, ring[e] | ring[e + 1] << 8)
        p = _put(ev, p, b',"seq":')
        p = _int(ev, p, ring[e + 2] | ring[e + 3] << 8)
        kind = ring[e + 4] & 3
        if kind == _E_END:
            p = _put(ev, p, b',"t":"end","result":"')
            p = _put(ev, p, st[_ENDS][0])
        else:
            p = _put(ev, p, b',"t":"move","n":' if kind == _E_MOVE else b',"t":"undo","n":')
            p = _int(ev, p, ring[e + 5] | ring[e + 6] << 8)
            if kind == _E_UNDO:
                ev[p] = 125  # }
                return memoryview(ev)[:p + 1]
            p = _put(ev, p, b',"c":"')
            ev[p] = 66 if ring[e + 4] >> 2 & 3 == 1 else 87  # B W
            p = _put(ev, p + 1, b'","p":"')
            pt = (ring[e + 4] >> 4) << 8 | ring[e + 7]
            if pt:  # (a pass: "")
                size = self.ref.board.size
                ev[p] = 97 + pt % (size + 1)
                ev[p + 1] = 97 + size - pt // (size + 1)
                p += 2
        return memoryview(ev)[:_put(ev, p, b'"}')]

