"""What the Broadcaster (gogadget.broadcast) does when it joins the room
and when a game starts: the connection (the client, its socket and MQTT
CONNECT, its last will, the peer's subscriptions), the status message
(when what it says changed), a new game's start and the snapshot's head
(when one of its numbers changes), and the whole snapshot as bytes for a
client that does not stream.

A board does these once a connection or once a game, so the Broadcaster
imports this module for them and lets it go again (compat.forget): on
the official firmware a module's bytecode is heap, and the scan loop's
publishing needs none of this.  What it shares with the Broadcaster (the
snapshot's writers, its state) it takes from the Broadcaster it is
handed, never by importing gogadget.broadcast (which imports this module:
no circle).  The
Broadcaster's state is one list (b._st); the indices below are
broadcast.py's, the same numbers (tests/test_broadcast.py checks)."""
from gogadget.compat import const, forget

# The event message (at most ~80 bytes: an end with its result); the moves
# go through it on their way to the socket, 20 a write.
_EV = const(128)
# After the moves: ","phase":"count","result":"W+1000.5","prisoners":[361,361],
# "clock":["canadian","B",65000000,255,65000000,255,65000000,65000000,255,65000000],
# "seq":65535 (the times and the brace follow from the event message's buffer)
_TAIL = const(200)
_KEEPALIVE_S = const(60)  # roomnames.KEEPALIVE_S (the same: tests/test_broadcast.py checks)

# broadcast.py's indices into b._st (the same numbers):
_S_GAME = const(0)
_S_SEQ = const(1)
_S_MOVES = const(2)
_S_ENDED = const(7)
_S_FAULT = const(8)
_S_SNAP_DIRTY = const(17)
_S_STATUS_DIRTY = const(18)
_S_HELLO_DIRTY = const(19)
_S_FROZEN = const(20)
_S_FROZEN_GAME = const(21)
_S_LAST = const(22)
_S_FAULTS = const(23)
_S_SAID_DAMAGE = const(24)
_S_PEER_NOTE = const(25)
_S_STATUS = const(26)
_S_SETUP = const(29)  # the snapshot's head
_S_NAMES = const(30)
_S_TOPICS = const(35)


def init(b, size, black, white, peer, referee):
    """The Broadcaster's state, its id checked and its topics named (as
    bytes: the publishing holds no names of roomnames.py's, loaded for
    this and let go); Broadcaster.__init__ sets the backoff; size: the
    backlog's bytes."""
    from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic, valid_board_id
    board_id = b.board_id
    try:
        if not valid_board_id(board_id):
            raise ValueError("bad board id %r (1-32 of a-z A-Z 0-9 - _)" % (board_id,))
        topics = (topic(board_id, T_STATUS).encode(), topic(board_id, T_GAME).encode(),
                  topic(board_id, T_MOVE).encode())
    finally:
        topic = valid_board_id = None
        forget("roomnames")
    names = (b'"Black"' if black is None else json_string(black)) + b',"white":' + (
        b'"White"' if white is None else json_string(white))
    # Figures for the host, the tests and the bench.
    b.connects = 0
    b.failures = 0
    b.published = 0
    b.dropped = 0  # events dropped from a full backlog
    b.error = ""  # the last failure, as text
    if peer is not None and referee is not None:
        peer.attach(referee)
    b._st = [
        # What was last looked at (poll compares these, nothing else):
        -1, 0, 0, "", None, -1, -1, False, None, None, -1,
        # The connection: retry at (None: at the first poll), backoff (set
        # by the Broadcaster), ping at, polls to the next slow look:
        None, 0, 0, 0,
        # The backlog ring's head and count:
        0, 0,
        # Not acknowledged: the snapshot, the status, the hello, the frozen
        # snapshot and its game, the last snapshot kept:
        False, False, False, None, -1, None,
        # What the status said, and the message:
        -1, None, "", b"",
        # The peer's hello as last seen, the snapshot's tail length, its head
        # (setup), the names:
        None, 0, b"", names,
        # The backlog ring, the ends' results; one event message (also the
        # snapshot's moves on their way to the socket); the snapshot's tail:
        bytearray(size), [], bytearray(_EV), bytearray(_TAIL),
        # The topics (status, game, move):
        topics]


def close(b):
    """Say offline (retained), then disconnect (Broadcaster.close)."""
    client = b._client
    b._client = None
    if client is None:
        return
    try:
        client.publish(b._st[_S_TOPICS][0], b'{"v":1,"online":false}', True, 1)
        client.disconnect()
    except Exception:  # noqa: BLE001  (leaving anyway)
        try:
            client.close()
        except Exception:  # noqa: BLE001
            pass


def connect(b):
    """A new client (b._client from its making on), its last will set,
    connected, its peer subscribed (returned); a failure raises
    (Broadcaster._fail drops it)."""
    st = b._st
    peer = b.peer
    client = b._client = b.factory()
    # The last will, retained: the broker says it when the board is gone.
    client.set_last_will(st[_S_TOPICS][0], b'{"v":1,"online":false}', True, 1)
    client.connect(True)
    if peer is not None:
        peer.connected(client)  # its callback, its subscriptions
    b.connects += 1
    if st[_S_FAULT] is None:
        b._observe_status()
    st[_S_STATUS_DIRTY] = True  # online again (the will may have said otherwise)
    st[_S_HELLO_DIRTY] = peer is not None
    return client


def setup(b, game, seq):
    """A new game (game, seq: the referee's), a power cut, new set-up
    stones, komi or rules (Broadcaster._observe): a new game's start, and
    the snapshot's head, {"v":1,"game":... up to "moves":", as bytes."""
    st = b._st
    ref = b.ref
    board = ref.board
    if game != st[_S_GAME] and st[_S_GAME] >= 0:
        # A new game: keep the old one's last snapshot if the broker lacks
        # it, to go after that game's events; the new game's events so far
        # (if they can be told apart) go out after the old game's.
        if st[_S_SNAP_DIRTY] and st[_S_LAST] is not None:
            st[_S_FROZEN] = st[_S_LAST]
            st[_S_FROZEN_GAME] = st[_S_GAME]
            st[_S_SNAP_DIRTY] = False
        st[_S_LAST] = None
        st[_S_GAME] = game
        st[_S_ENDED] = False
        st[_S_SEQ] = st[_S_MOVES] = 0
        if seq:
            b._events(seq, board.moves)
    st[_S_GAME] = game
    size = board.size
    w = size + 1
    out = []
    for colour in (1, 2):
        pts = [pt for c, pt in board.setup_stones if c == colour]
        if pts:
            out.append("AB" if colour == 1 else "AW")
            for pt in pts:
                out.append("[" + chr(97 + pt % w) + chr(97 + size - pt // w) + "]")
    halves = int(ref.komi * 2)  # komi is a multiple of 0.5: 13 -> 6.5, -1 -> -0.5
    komi = (b"-" if halves < 0 else b"") + str(abs(halves) >> 1).encode() + (
        b".5" if halves & 1 else b"")
    st[_S_SETUP] = None  # (the old one may go first)
    st[_S_SETUP] = (
        b'{"v":1,"game":%d,"size":%d,"komi":%s,"rules":"%s","handicap":%d,"black":%s,'
        b'"setup":"%s","moves":"' % (game, size, komi, ref.rules.name.encode()[:16],
                                      ref.handicap, st[_S_NAMES], "".join(out).encode()))


def mqtt_connect(c, clean, socket):
    """gogadget.mqtt's Client.connect (c): its socket (socket: the module,
    None for MicroPython's), with its timeout set before the connect (an
    unreachable broker costs timeout_s), CONNECT with the last will, the
    user and password, CONNACK read into c.buf; returns the socket (c.sock
    from its making on).  An answer that is not a CONNACK is an OSError."""
    if socket is None:
        import socket  # noqa: PLC0415  (MicroPython's, when no stand-in is set)
    addr = socket.getaddrinfo(c.broker, c.broker_port)[0][-1]
    sock = c.sock = socket.socket()
    sock.settimeout(c.timeout)
    sock.connect(addr)
    flags = 2 if clean else 0
    size = 12 + len(c.client_id)
    will = c.will
    if will:
        size += 4 + len(will[0]) + len(will[1])
        flags |= 4 | will[3] << 3 | will[2] << 5
    if c.user is not None:
        size += 4 + len(c.user) + len(c.password or b"")
        flags |= 0xC0
    c._head(0x10, size)
    b = c.buf
    b[0:7] = b"\0\4MQTT\4"
    b[7] = flags
    b[8] = _KEEPALIVE_S >> 8
    b[9] = _KEEPALIVE_S & 0xFF
    c._out(10)
    c._str(c.client_id)
    if will:
        c._str(will[0])
        c._str(will[1])
    if c.user is not None:
        c._str(c.user)
        c._str(c.password)
    if c.wait_msg() != 0x20:
        raise OSError(-1)  # not a CONNACK
    return sock


class _Into:
    """A socket's write(buf, n) into a bytearray of the message's length."""

    def __init__(self, n):
        self.buf = bytearray(n)
        self.n = 0

    def write(self, data, n):
        self.buf[self.n:self.n + n] = memoryview(data)[:n]
        self.n += n


def snapshot(b):
    """The snapshot as bytes (Broadcaster.snapshot)."""
    out = _Into(len(b))
    b.write_to(out)
    return bytes(out.buf)


def status(b):
    """The status message (b._observe_status: what it says changed)."""
    st = b._st
    note = b.note
    if b.ref.damage:
        note = (note + "; " if note else "") + b.ref.damage
    if st[_S_PEER_NOTE]:
        note = (note + "; " if note else "") + st[_S_PEER_NOTE]
    faults = str(st[_S_FAULTS]).encode()
    try:
        msg = b'{"v":1,"online":true,"faults":%s,"note":%s}' % (faults, json_string(note[:200]))
    except MemoryError:
        msg = b'{"v":1,"online":true,"faults":%s,"note":""}' % faults
    if msg != st[_S_STATUS]:
        st[_S_STATUS] = msg
        st[_S_STATUS_DIRTY] = True


def json_string(text):
    """text as a JSON string literal (quotes included), UTF-8 bytes."""
    out = ['"']
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ord(ch) < 32:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out).encode()

