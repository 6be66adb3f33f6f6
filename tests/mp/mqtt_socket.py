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
bytes of answers waiting to be read.  On the emulated Pico it is part of
the heap bench's own part, so it is kept small: its state is one list."""

published = [0, 0]  # publishes, their bytes (topic and message)


_RX = 16


class Sock:
    def __init__(self, *args):
        self.rx = bytearray(_RX)  # answers waiting, a ring
        # state (0 first byte, 1 remaining length, 2 body), op, QoS, body
        # length, its shift, body bytes seen, topic length, packet id, the
        # answers' first byte in rx, their length
        self.s = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        self.blocking = True

    def settimeout(self, t):
        self.blocking = True

    def setblocking(self, flag):
        self.blocking = flag

    def connect(self, addr):
        pass

    def close(self):
        pass

    def write(self, data, n=-1):
        if n < 0:
            n = len(data)
        s = self.s
        i = 0
        while i < n:
            c = data[i]
            if s[0] == 0:
                s[0] = 1
                s[1] = c & 0xF0
                s[2] = (c >> 1) & 3
                s[3] = s[4] = s[5] = s[6] = s[7] = 0
                i += 1
                continue
            if s[0] == 1:
                s[3] |= (c & 0x7F) << s[4]
                s[4] += 7
                i += 1
                if c & 0x80:
                    continue
                s[0] = 2
            else:
                at = s[5]
                pub = s[1] == 0x30
                if at < 2 or pub and s[2] and 2 + s[6] <= at < 4 + s[6]:
                    # a PUBLISH's topic length and QoS 1 packet id, a SUBSCRIBE's packet id
                    k = 6 if pub and at < 2 else 7
                    s[k] = s[k] << 8 | c
                    skip = 1
                else:  # the rest skipped at once
                    stop = 2 + s[6] if pub and s[2] and at < 2 + s[6] else s[3]
                    skip = min(n - i, stop - at)
                s[5] = at + skip
                i += skip
            if s[5] == s[3]:
                self._done(s)
        return n

    def _answer(self, s, data):
        for x in data:
            self.rx[(s[8] + s[9]) % _RX] = x
            s[9] += 1

    def _done(self, s):
        op = s[1]
        if op == 0x10:
            self._answer(s, b"\x20\x02\x00\x00")  # CONNACK: no session, accepted
        elif op == 0x30:
            published[0] += 1
            published[1] += s[3] - 2 - (2 if s[2] else 0)  # topic and message
            if s[2]:
                self._answer(s, (0x40, 2, s[7] >> 8, s[7] & 255))
        elif op == 0x80:
            self._answer(s, (0x90, 3, s[7] >> 8, s[7] & 255, 1))
        elif op == 0xC0:
            self._answer(s, b"\xd0\x00")
        s[0] = 0

    def readinto(self, buf, n=-1):
        s = self.s
        if n < 0:
            n = len(buf)
        if not s[9]:
            if not self.blocking:
                return None
            raise OSError(110)  # ETIMEDOUT: the broker said nothing
        n = min(n, s[9])
        for i in range(n):
            buf[i] = self.rx[s[8]]
            s[8] = (s[8] + 1) % _RX
        s[9] -= n
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
