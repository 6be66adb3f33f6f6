"""What the Broadcaster (gogadget.broadcast) does when it joins the room
and when it writes a game's snapshot from scratch: the connection (the
client, its last will, the peer's subscriptions), the status message (when
what it says changed), and the snapshot's buffer (sized for the game, its
moves from the board; grown past the referee's capacity; an earlier game's
last snapshot kept for after its events).

A board does these once a connection or once a game, so the Broadcaster
imports this module for them and lets it go again (compat.forget): on
the official firmware a module's bytecode is heap, and the scan loop's
publishing needs none of this.  What it shares with the Broadcaster (the
last will, the ping period, the snapshot's head and node sizes, the node
writer) it takes from the Broadcaster it is handed, never by importing
gogadget.broadcast (which imports this module: no circle)."""
from gogadget.compat import const, ticks_add

# After the moves: ","phase":"count","result":"W+1000.5","prisoners":[361,361],
# "clock":["canadian","B",65000000,255,65000000,255],"seq":65535}
_TAIL = const(160)
_SETUP = const(76)  # AB[aa]... AW[aa]...: nine stones each


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


def rebuild(b, moves=-1):
    """The snapshot buffer for the current game, its moves (the first
    `moves` of them) from the board: a new game, a power cut, a look
    that could not tell the events apart."""
    board = b.ref.board
    if moves < 0:
        moves = board.moves
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
    # (room for nine stones of each colour's set-up: a handicap game's
    # snapshot needs no new buffer)
    h = b.head + len(b._names) + max(len(b._setup), _SETUP)
    chunk = size * size + size * size // 8  # the referee's whole-game capacity
    nodes = chunk
    while nodes < board.moves:
        nodes += chunk
    if b._h < h or nodes > b._nodes or b._nodes > nodes + chunk:
        b._snap_ok = False
        b._buf = bytearray(0)  # the old one may go first
        if h > len(b._ev):
            b._ev = bytearray(0)
            b._ev = bytearray(h)
        b._buf = bytearray(h + nodes * b.node_bytes + _TAIL)
        b._nodes = nodes
        b._h = h
    b._head_dirty = True
    b._mend = b._h  # (the head is written right-aligned before it)
    for i in range(moves):
        colour, pt = board.move(i)
        b._mend = b.node(b._buf, b._mend, size, colour, pt)
    b._snap_ok = True


def grow(b):
    """Room for another whole game's moves in the snapshot."""
    size = b.ref.board.size
    nodes = b._nodes + size * size + size * size // 8
    old = b._buf
    buf = bytearray(b._h + nodes * b.node_bytes + _TAIL)
    buf[:b._mend] = memoryview(old)[:b._mend]
    b._buf = buf
    b._nodes = nodes


def freeze(b):
    """A copy of the old game's last snapshot (b._freeze: the broker lacks it)."""
    try:
        b._frozen = bytes(memoryview(b._buf)[b._start:b._end])
        b._frozen_game = b._game
    except MemoryError:
        b._frozen = None  # lost: the old game's events still say how it ended


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
