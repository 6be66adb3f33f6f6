"""What the Broadcaster (gogadget.broadcast) does when it joins the room
and when it writes a game's snapshot from scratch: the connection (the
client, its last will, the peer's subscriptions), the status message (when
what it says changed), the snapshot's set-up stones' text, and the whole
snapshot as bytes for a client that does not stream.

A board does these once a connection or once a game, so the Broadcaster
imports this module for them and lets it go again (compat.forget): on
the official firmware a module's bytecode is heap, and the scan loop's
publishing needs none of this.  What it shares with the Broadcaster (the
last will, the ping period, the snapshot's head size and its writers) it
takes from the Broadcaster it is handed, never by importing
gogadget.broadcast (which imports this module: no circle)."""
from gogadget.compat import ticks_add

SETUP = 76  # AB[aa]... AW[aa]...: nine stones each (the event buffer's room for them)


def init(b, backlog, black, white, peer, referee):
    """The Broadcaster's state (Broadcaster.__init__ checked the id and made
    the topics)."""
    b._names = json_string(black) + b',"white":' + json_string(white)
    b._client = None
    b._retry_at = None  # None: connect at the first poll
    b._backoff = b.retry_ms
    b._ping_at = 0
    b._tick = 0
    # Figures for the host, the tests and the bench.
    b.connects = 0
    b.failures = 0
    b.published = 0
    b.dropped = 0  # events dropped from a full backlog
    b.error = ""  # the last failure, as text
    # The backlog ring of events not acknowledged.
    b._cap = backlog
    b._ring = bytearray(backlog * b.entry)
    b._ends = []  # the results of the ends in the backlog, oldest first
    b._head = 0
    b._count = 0
    # One event message; also the snapshot's head, then the moves on their
    # way to the socket (never two at once): as long as a head with nine
    # set-up stones of each colour (rebuild makes it longer for more).
    b._ev = bytearray(b.head + len(b._names) + SETUP)
    b._tail = bytearray(b.tail)  # the snapshot's tail
    b._hn = b._tn = 0  # the head's and the tail's bytes, as measured
    b._setup = b""
    b._snap_dirty = False  # a snapshot the broker has not acknowledged
    b._last = None  # the ended game's snapshot as bytes, while the broker is out of reach
    b._frozen = None  # the last snapshot of an earlier game, not acknowledged
    b._frozen_game = -1
    b._status = b""
    b._status_dirty = False
    b._faults = -1  # what the status said: faulty places, the journal's report
    b._said_damage = None
    b._hello_dirty = False  # the peer's hello is not on this connection yet
    b._peer_note = ""
    if peer is not None and referee is not None:
        peer.attach(referee)
    # What was last looked at (poll compares these, nothing else).
    b._game = -1
    b._seq = 0
    b._moves = 0
    b._phase = ""
    b._komi = None
    b._rules = -1
    b._setups = -1
    b._ended = False
    b._fault = None
    b._damage = None
    b._clock = -1  # the clock's running colour, flag and pause, as last published


def leave(b):
    """Say offline (retained), then disconnect (Broadcaster.close)."""
    client = b._client
    b._client = None
    if client is None:
        return
    try:
        client.publish(b.t_status, b.will, True, 1)
        client.disconnect()
    except Exception:  # noqa: BLE001  (leaving anyway)
        b.drop(client)


def connect(b, now_ms):
    """A new client, connected, its peer subscribed (returned); or None,
    the failure noted (b._fail: retried after the backoff)."""
    client = None
    peer = b.peer
    try:
        client = b.factory()
        client.set_last_will(b.t_status, b.will, True, 1)
        client.connect(True)
        if peer is not None:
            peer.connected(client)  # its callback, its subscriptions
    except Exception as exc:  # noqa: BLE001  OSError, MQTTException (refused), MemoryError
        b._fail(client, exc, now_ms)
        return None
    b._client = client
    b.connects += 1
    if b._fault is None:
        b._observe_status()
    b._status_dirty = True  # online again (the will may have said otherwise)
    b._hello_dirty = peer is not None
    b._ping_at = ticks_add(now_ms, b.ping_ms)
    return client


def rebuild(b):
    """The set-up stones' text for the snapshot's head (a new game, a power
    cut, new set-up stones); the event buffer made longer if they need it."""
    board = b.ref.board
    size = board.size
    out = []
    for want in (1, 2):
        pts = [pt for c, pt in board.setup_stones if c == want]
        if pts:
            out.append("AB" if want == 1 else "AW")
            w = size + 1
            for pt in pts:
                out.append("[" + chr(97 + pt % w) + chr(97 + size - pt // w) + "]")
    b._setup = "".join(out).encode()
    h = b.head + len(b._names) + max(len(b._setup), SETUP)
    if h > len(b._ev):
        b._ev = bytearray(0)  # the old one may go first
        b._ev = bytearray(h)


class _Into:
    """A socket's write(buf, n) into a bytearray of the message's length."""

    def __init__(self, n):
        self.buf = bytearray(n)
        self.at = 0

    def write(self, data, n):
        self.buf[self.at:self.at + n] = memoryview(data)[:n]
        self.at += n


def whole(b):
    """The snapshot as bytes (Broadcaster.snapshot)."""
    out = _Into(b._measure())
    b._write(out)
    return bytes(out.buf)


def status(b, faults):
    """The status message (b._observe_status: what it says changed)."""
    ref = b.ref
    note = b.note
    if ref.damage:
        note = (note + "; " if note else "") + ref.damage
    if b._peer_note:
        note = (note + "; " if note else "") + b._peer_note
    try:
        msg = status_message(faults, note)
    except MemoryError:
        msg = status_message(faults)
    if msg != b._status:
        b._status = msg
        b._status_dirty = True


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


def status_message(faults=0, note=""):
    return b'{"v":1,"online":true,"faults":%s,"note":%s}' % (
        str(faults).encode(), json_string(note[:200]))
