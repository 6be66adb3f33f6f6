"""gogadget.mqtt's client with subscriptions: what a board paired with
another (pairing.Follower: the opponent's moves on the same connection)
needs beyond publishing -- a callback, SUBSCRIBE, the messages that come
(acknowledged, QoS 1) and a look for one without waiting.  hw/net.py's
factory makes this client only when the config names an opponent: a board
that only publishes holds none of this code.

A message's payload is read, in pieces as the socket gives them, into one
buffer of MESSAGE_MAX bytes made when this module is loaded (hw/net.py's
factory, at boot, while the heap is in one piece), never into a new block:
the opponent's snapshot is ~4 KB late in a game, and mid-game the heap may
have no free block that size (issue 35: a MemoryError "allocating 4188
bytes" with 68 KB free).  The callback, f(topic, msg), gets msg as a
memoryview of that buffer, valid until it returns (it parses it there and
keeps none of it: pairing.Follower.message).  A payload longer than the
buffer is read off the socket and dropped whole, acknowledged, never
handed on in part: Client.too_big counts them (over all connections) and
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
_payload = memoryview(bytearray(MESSAGE_MAX))


class Client(_Client):
    cb = None
    too_big = 0  # payloads over MESSAGE_MAX, dropped (kept on the class: a client a connection)
    why = ""

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
            while size > 0:  # read off in bufferfuls: the next message is read as ever
                size -= self._fill(size if size < MESSAGE_MAX else MESSAGE_MAX)
        else:
            self._fill(size)
            if self.cb is not None:
                self.cb(topic, _payload[:size])
        if kind & 6:
            self._head(0x40, 2, pid)  # PUBACK (QoS 1: nothing of QoS 2 is subscribed)
        return 0x30

    def _fill(self, size):
        """The payload buffer's first size bytes from the socket, read in
        the pieces it gives; the broker gone or silent is an OSError."""
        got = 0
        while got < size:
            k = self.sock.readinto(_payload[got:size])
            if not k:
                raise OSError(-1)
            got += k
        return size
