"""A socket stand-in for the board's MQTT client on a board without a
network (the unix port, the emulated Pico W, whose radio the emulator
cannot bring up): an MQTT broker that acknowledges everything.  It answers
CONNECT with CONNACK, a QoS 1 PUBLISH with its PUBACK, SUBSCRIBE with
SUBACK and PINGREQ with PINGRESP, and counts what was published.

    from gogadget import mqtt
    import mqtt_socket
    mqtt.socket = mqtt_socket   # socket(), getaddrinfo()

The bytes written are parsed as MQTT packets however the client splits
its writes (fixed header, remaining length, the PUBLISH's topic length and
packet id), looked at, never kept: the board's heap holds only the few
bytes of answers waiting to be read."""

published = [0, 0]  # publishes, their bytes (topic and message)
_RX = 16


class Sock:
    def __init__(self, *args):
        self._rx = bytearray(_RX)
        self._head = 0
        self._len = 0
        self._state = 0  # 0: a packet's first byte; 1: its remaining length; 2: its body
        self._op = 0
        self._size = 0  # the body's length
        self._shift = 0
        self._at = 0  # bytes of the body seen
        self._topic = 0  # a PUBLISH's topic length
        self._pid = 0  # a PUBLISH's or SUBSCRIBE's packet id
        self.blocking = True

    def settimeout(self, t):
        self.blocking = True

    def setblocking(self, flag):
        self.blocking = flag

    def connect(self, addr):
        pass

    def close(self):
        pass

    def _answer(self, data):
        rx = self._rx
        n = self._head + self._len
        for x in data:
            rx[n % _RX] = x
            n += 1
        self._len += len(data)

    def _body(self, i, c):
        """Byte i of the current packet's body is c (only those looked at)."""
        op = self._op
        if op == 0x30:
            if i < 2:
                self._topic = self._topic << 8 | c
            else:  # (QoS 1: the packet id after the topic)
                self._pid = self._pid << 8 | c
        elif op == 0x80 and i < 2:
            self._pid = self._pid << 8 | c

    def _done(self):
        op = self._op
        if op == 0x10:
            self._answer(b"\x20\x02\x00\x00")  # CONNACK: no session, accepted
        elif op == 0x30:
            published[0] += 1
            published[1] += self._size - 2 - (2 if self._qos else 0)  # topic and message
            if self._qos:
                self._answer((0x40, 2, self._pid >> 8, self._pid & 255))
        elif op == 0x80:
            self._answer((0x90, 3, self._pid >> 8, self._pid & 255, 1))
        elif op == 0xC0:
            self._answer(b"\xd0\x00")
        self._state = 0

    def write(self, data, n=-1):
        if n < 0:
            n = len(data)
        i = 0
        while i < n:
            state = self._state
            if state == 0:
                c = data[i]
                self._op = c & 0xF0
                self._qos = (c >> 1) & 3
                self._size = self._shift = self._at = self._topic = self._pid = 0
                self._state = 1
                i += 1
            elif state == 1:
                c = data[i]
                self._size |= (c & 0x7F) << self._shift
                self._shift += 7
                i += 1
                if not c & 0x80:
                    self._state = 2
                    if not self._size:
                        self._done()
            else:
                # The body: the bytes looked at one by one, the rest skipped at once.
                pub = self._op == 0x30
                pid_at = 2 + self._topic
                while i < n and self._at < self._size:
                    at = self._at
                    if at < 2 or pub and self._qos and pid_at <= at < pid_at + 2:
                        self._body(at, data[i])
                        self._at += 1
                        i += 1
                        pid_at = 2 + self._topic
                    else:
                        stop = pid_at if pub and self._qos and at < pid_at else self._size
                        skip = min(n - i, stop - at)
                        self._at += skip
                        i += skip
                if self._at == self._size:
                    self._done()
        return n

    def readinto(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        if not self._len:
            if not self.blocking:
                return None
            raise OSError(110)  # ETIMEDOUT: the broker said nothing
        n = min(n, self._len)
        for i in range(n):
            buf[i] = self._rx[self._head]
            self._head = (self._head + 1) % _RX
        self._len -= n
        return n

    def read(self, n):
        out = bytearray(n)
        got = self.readinto(out, n)
        if got is None:
            return None
        return bytes(out[:got])


def socket(*args):
    return Sock()


def getaddrinfo(host, port, *args):
    return [(2, 1, 0, "", (host, port))]
