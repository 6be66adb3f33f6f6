"""The board's MQTT 3.1.1 client (docs/ROOM.md): what the Broadcaster and
the pairing Follower use of umqtt.simple's API, in about half its heap
(umqtt.simple took 2.9 KB on the Pico W, and hw/net.py's wrapper giving
it a socket timeout and close() another few hundred bytes).

    c = Client(client_id, broker, broker_port, user, password, timeout_s)
    c.set_last_will(topic, data, retain, qos)  # before connect
    c.connect(clean)                           # CONNECT, CONNACK; MQTTException(code) if refused
    c.publish(topic, data, retain, 1)          # returns once the broker sent its PUBACK; data:
                                               # bytes, or len() and write_to(sock) (streams)
    # gogadget.mqttsub.Client, for a board paired with another (pairing.Follower):
    c.set_callback(f)                          # f(topic, msg): subscribed messages (msg a view
                                               # of its buffer, valid during the call: mqttsub)
    c.subscribe(topic, 1)                      # returns on its SUBACK
    c.check_msg()                              # one waiting message, if any (never waits)
    c.ping(); c.disconnect(); c.close()        # close: no DISCONNECT, so the will goes out

The keepalive is the room's (roomnames.KEEPALIVE_S).  The
connection's code (the socket, CONNECT) is gogadget.roomjoin's, with the
Broadcaster's (it joins the room; it is let go between connections).  Every
wait for the broker is bounded by timeout_s (the socket's timeout,
set before its connect): an answer that does not come is an OSError.
QoS 0 and 1 only.  A message published to the board while it waits for a
PUBACK or SUBACK goes to the callback (and is acknowledged) on the way.
Subscribing is mqttsub.py's (a board not paired holds none of its code).

socket: the socket module used; None is MicroPython's own (the tests and
the emulated Pico W's bench put tests/mp/mqtt_socket.py here).
"""

socket = None


class MQTTException(Exception):
    """The broker refused the connection: args[0] is CONNACK's code (5: not authorised)."""


class Client:
    streams = True  # publish takes a message that writes itself (len(msg), msg.write_to(sock))

    def __init__(self, client_id, broker, broker_port=1883, user=None, password=None, timeout=1):
        """The ids and the password: bytes or ASCII str (written as they are);
        a user needs a password."""
        self.client_id = client_id
        self.broker = broker
        self.broker_port = broker_port
        self.user = user
        self.password = password
        self.timeout = timeout
        self.sock = None
        self.seq = 0  # the last packet id
        self.will = None
        self.buf = bytearray(10)  # headers out, short answers in

    def set_last_will(self, topic, data, retain=False, qos=0):
        self.will = (topic, data, retain, qos)

    def _head(self, kind, size, extra=-1):
        """A fixed header (kind, remaining length) and, when extra >= 0, a
        16-bit number after it (a length, a packet id), in one write."""
        b = self.buf
        b[0] = kind
        i = 1
        while size > 0x7F:
            b[i] = size & 0x7F | 0x80
            size >>= 7
            i += 1
        b[i] = size
        i += 1
        if extra >= 0:
            b[i] = extra >> 8
            b[i + 1] = extra & 0xFF
            i += 2
        self._out(i)

    def _out(self, n):
        """The first n bytes of buf (a stream's write(buf, n): no slice made)."""
        self.sock.write(self.buf, n)  # pyright: ignore[reportCallIssue]

    def _str(self, s):
        b = self.buf
        b[0] = len(s) >> 8
        b[1] = len(s) & 0xFF
        self._out(2)
        self.sock.write(s)

    def _read(self, n):
        """n (<= 10) bytes into buf; the broker gone or silent is an OSError."""
        if self.sock.readinto(self.buf, n) != n:
            raise OSError(-1)
        return self.buf

    def wait_msg(self, kind=0):
        """Read one packet: a PUBLISH goes to the callback (its PUBACK
        sent, by mqttsub.Client); anything else returns its type, its body (<= 10 bytes)
        left in buf.  kind: its first byte when read already."""
        if not kind:
            kind = self._read(1)[0]
        size = 0
        shift = 0
        while True:
            c = self._read(1)[0]
            size |= (c & 0x7F) << shift
            shift += 7
            if c < 0x80:
                break
        if kind & 0xF0 != 0x30:
            self._read(size) if size <= 10 else self.sock.read(size)
            return kind & 0xF0
        return self._incoming(kind, size)

    def _incoming(self, kind, size):
        """A PUBLISH: none comes to a client that subscribed to nothing
        (mqttsub.Client's takes them); its bytes are skipped."""
        self.sock.read(size)
        return 0x30

    def _await(self, want):
        while self.wait_msg() != want or self.buf[0] << 8 | self.buf[1] != self.seq:
            pass
        return self.buf

    def connect(self, clean=True):
        """The socket, CONNECT, CONNACK (roomjoin.mqtt_connect: a
        connection's code, let go between connections); returns CONNACK's
        session-present flag."""
        from gogadget import roomjoin
        self.sock = roomjoin.mqtt_connect(self, clean, socket)
        b = self.buf
        if b[1]:
            raise MQTTException(b[1])
        return b[0] & 1

    def publish(self, topic, data, retain=False, qos=0):
        """QoS 1: returns once the broker acknowledged it."""
        self._head(0x30 | qos << 1 | retain, 2 + len(topic) + len(data) + (2 if qos else 0),
                   len(topic))
        self.sock.write(topic)
        if qos:
            self.seq = self.seq % 0xFFFF + 1
            b = self.buf
            b[0] = self.seq >> 8
            b[1] = self.seq & 0xFF
            self._out(2)
        w = getattr(data, "write_to", None)
        if w is None:
            self.sock.write(data)
        else:
            w(self.sock)  # (a message that writes itself: the room's snapshot)
        if qos:
            self._await(0x40)

    def ping(self):
        self.sock.write(b"\xc0\0")

    def disconnect(self):
        self.sock.write(b"\xe0\0")
        self.close()

    def close(self):
        """Drop the connection without DISCONNECT (the broker sends the will)."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
