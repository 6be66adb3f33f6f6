"""gogadget.mqtt's client with subscriptions: what a board paired with
another (pairing.Follower: the opponent's moves on the same connection)
needs beyond publishing -- a callback, SUBSCRIBE, the messages that come
(acknowledged, QoS 1) and a look for one without waiting.  hw/net.py's
factory makes this client only when the config names an opponent: a board
that only publishes holds none of this code."""
from gogadget.mqtt import Client as _Client
from gogadget.mqtt import MQTTException


class Client(_Client):
    cb = None

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
        size -= n + 2
        if kind & 6:
            size -= 2
            pid = self._read(2)
            pid = pid[0] << 8 | pid[1]
        msg = self.sock.read(size)
        if len(topic) != n or len(msg) != size:
            raise OSError(-1)
        if self.cb is not None:
            self.cb(topic, msg)
        if kind & 6:
            self._head(0x40, 2, pid)  # PUBACK (QoS 1: nothing of QoS 2 is subscribed)
        return 0x30
