"""gogadget.mqtt's client with subscriptions: what a board paired with
another (pairing.Follower: the opponent's moves on the same connection)
needs beyond publishing -- a callback, SUBSCRIBE, the messages that come
(acknowledged, QoS 1) and a look for one without waiting.  hw/net.py's
factory makes this client only when the config names an opponent: a board
that only publishes holds none of this code.

A message's payload is read, in pieces as the socket gives them, into one
window of WINDOW bytes made when this module is loaded (hw/net.py's
factory, at boot), never into a new block nor into a buffer of the whole
payload: the opponent's snapshot is ~5 KB late in a game, and a buffer
that size held all game was most of what a paired board lacked of its
heap (issue 35).  The callback, f(topic, msg), gets a payload that fits
the window as a memoryview of it, valid until it returns; a longer one
(up to MESSAGE_MAX) as this client, a stream: msg.readinto(buf) gives
the payload's next bytes (0 at its end), msg.window is the window to read
them into (pairops.snapshot parses the snapshot as it streams through).
What the callback leaves of it is read off after.  A payload over
MESSAGE_MAX is read off and dropped whole, acknowledged, never handed on
in part: Client.too_big counts them (over all connections) and
Client.why says the last one."""
from gogadget.compat import const
from gogadget.mqtt import Client as _Client
from gogadget.mqtt import MQTTException

# The largest message the board takes: the opponent's snapshot
# (gogadget.broadcast) of a 19x19 game of ~400 moves on byo-yomi, every
# move in overtime (six bytes a move, up to eight its time), its head and
# tail (~400 bytes).  (The relay's limit, host_sim/room/messages.py, is
# 8 KB: the room's page reads games longer than a board pairs.)
MESSAGE_MAX = const(6144)
# The window: the small messages (pair, move, status: ~100 bytes) whole,
# a snapshot a piece at a time.
WINDOW = const(512)
_window = memoryview(bytearray(WINDOW))


class Client(_Client):
    cb = None
    too_big = 0  # payloads over MESSAGE_MAX, dropped (kept on the class: a client a connection)
    why = ""
    window = _window  # (a stream's: see the module notes)
    left = 0  # of the payload handed on as a stream, the bytes not yet read

    def set_callback(self, f):
        self.cb = f

    def subscribe(self, topic, qos=0):
        self.seq = self.seq % 0xFFFF + 1
        self._head(0x82, 5 + len(topic), self.seq)
        self._str(topic)
        b = self.buf
        b[0] = qos
        self._out(1)
        if self._await(0x90)[2] == 0x80:
            raise MQTTException(0x80)  # refused (the broker's ACL)

    def check_msg(self):
        """One message if one is waiting; returns at once when none is."""
        sock = self.sock
        sock.setblocking(False)
        try:
            got = sock.readinto(self.buf, 1)
        finally:
            sock.settimeout(self.timeout)
        if got == 0:
            raise OSError(-1)  # the broker closed the connection
        return got and self.wait_msg(self.buf[0])

    def _incoming(self, kind, size):
        """A PUBLISH (wait_msg): to the callback, its PUBACK sent."""
        n = self._read(2)
        n = n[0] << 8 | n[1]
        topic = self.sock.read(n)
        if len(topic) != n:
            raise OSError(-1)
        size -= n + 2
        if kind & 6:
            size -= 2
            pid = self._read(2)
            pid = pid[0] << 8 | pid[1]
        if size < 0:
            raise OSError(-1)  # not MQTT
        if size > MESSAGE_MAX:
            Client.too_big += 1
            Client.why = "a message of %d bytes on %s: over the board's %d, dropped" % (
                size, topic, MESSAGE_MAX)
            self.left = size
        elif size > WINDOW:
            self.left = size
            if self.cb is not None:
                self.cb(topic, self)  # (a stream: the snapshot parsed as it comes)
        else:
            got = 0
            while got < size:
                got += self._piece(_window[got:size])
            if self.cb is not None:
                self.cb(topic, _window[:size])
        while self.left:  # what is left of a stream, or all of one dropped: read off
            self.readinto(_window)
        if kind & 6:
            self._head(0x40, 2, pid)  # PUBACK (QoS 1: nothing of QoS 2 is subscribed)
        return 0x30

    def readinto(self, buf):
        """The streamed payload's next bytes into buf, as many as the
        socket gives (up to len(buf)); 0 at the payload's end."""
        n = self.left
        if n > len(buf):
            n = len(buf)
        if n:
            n = self._piece(buf[:n])
            self.left -= n
        return n

    def _piece(self, buf):
        """What the socket gives into buf (1 byte or more); the broker
        gone or silent is an OSError."""
        k = self.sock.readinto(buf)
        if not k:
            raise OSError(-1)
        return k
