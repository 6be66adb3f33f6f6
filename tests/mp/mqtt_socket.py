"""A socket stand-in for umqtt.simple on a board without a network (the
unix port, the emulated Pico W, whose radio the emulator cannot bring up):
an MQTT broker that acknowledges everything.  It answers CONNECT with
CONNACK and a QoS 1 PUBLISH with its PUBACK, and counts what was published.

    from umqtt import simple
    import mqtt_socket
    simple.socket = mqtt_socket   # socket(), getaddrinfo()

Writes are looked at, never kept: the board's heap holds only the few
bytes of answers waiting to be read."""

published = [0, 0]  # publishes, their bytes (topic and message)


class Sock:
    def __init__(self, *args):
        self._rx = bytearray(8)
        self._head = 0
        self._len = 0
        self._step = 0  # writes into the current PUBLISH (its pid is the 4th)
        self._qos = 0
        self.blocking = True

    def settimeout(self, t):
        pass

    def setblocking(self, flag):
        self.blocking = flag

    def connect(self, addr):
        pass

    def close(self):
        pass

    def _answer(self, a, b, c, d):
        rx = self._rx
        n = self._head + self._len
        for x in (a, b, c, d):
            rx[n % 8] = x
            n += 1
        self._len += 4

    def write(self, data, n=-1):
        if n < 0:
            n = len(data)
        if self._step:
            self._step += 1
            if self._step == 3:
                published[1] += n  # the topic
            elif self._step == 4 and self._qos:
                self._answer(0x40, 0x02, data[0], data[1])  # PUBACK
            elif self._step >= 4:
                published[1] += n  # the message
                self._step = 0
            return n
        if isinstance(data, str):
            return n  # a string of CONNECT's (client id, user)
        op = data[0] & 0xF0
        if op == 0x10:
            self._answer(0x20, 0x02, 0, 0)  # CONNACK, session absent, accepted
        elif op == 0x30:
            published[0] += 1
            self._qos = (data[0] >> 1) & 3
            self._step = 1
        elif op == 0x80:
            self._answer(0x90, 0x03, 0, 0)  # (SUBACK: pairing only; its pid unchecked)
        return n

    def read(self, n):
        if not self._len:
            if not self.blocking:
                return None
            raise OSError(110)  # ETIMEDOUT: the broker said nothing
        n = min(n, self._len)
        out = bytearray(n)
        for i in range(n):
            out[i] = self._rx[self._head]
            self._head = (self._head + 1) % 8
        self._len -= n
        return bytes(out)


def socket(*args):
    return Sock()


def getaddrinfo(host, port, *args):
    return [(2, 1, 0, "", (host, port))]
