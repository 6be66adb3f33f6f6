"""mqtt_socket's broker stand-in with messages for the board: the heap
bench's heap-paired part (board02's snapshot), kept out of mqtt_socket so
that the other parts' own share of the heap does not grow.

    import mqtt_inbox
    mqtt.socket = mqtt_inbox           # socket(), getaddrinfo()
    client.sock.incoming(topic, msg)   # read by the client after the answers waiting

A message comes as a broker sends it (a PUBLISH, QoS 0).  msg: bytes, or a
message that writes itself (len(m), m.write_to(out): a Broadcaster), written
straight into the client's window as the client reads the payload, a piece
at a time (gogadget.mqttsub streams a snapshot through its window): each
piece writes the message again up to the piece's end, keeping only the
piece, so that none of it is held here; its length is taken when its header
is first read."""
import mqtt_socket
from mqtt_socket import getaddrinfo  # noqa: F401  (this module is the socket module)

received = [0, 0]  # messages read by the board, their payloads' bytes


class Sock(mqtt_socket.Sock):
    def __init__(self, *args):
        super().__init__()
        self.inbox = []  # [topic, message, its header (made when first read), read of it, length]

    def incoming(self, topic, msg):
        self.inbox.append([topic, msg, None, 0])

    def readinto(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        if not self.s[9] and self.inbox:
            return self._incoming(buf, n)
        return super().readinto(buf, n)

    def _incoming(self, buf, n):
        m = self.inbox[0]
        if m[2] is None:
            k = len(m[0])
            m.append(len(m[1]))
            size = 2 + k + m[4]
            head = bytearray((0x30,))
            while size > 0x7F:
                head.append(size & 0x7F | 0x80)
                size >>= 7
            head.append(size)
            head.append(k >> 8)
            head.append(k & 255)
            m[2] = head + m[0]
        head = m[2]
        at = m[3]
        if at < len(head):
            n = min(n, len(head) - at)
            for i in range(n):
                buf[i] = head[at + i]
            m[3] = at + n
            return n
        at -= len(head)  # of the payload
        size = m[4]
        if n > size - at:
            n = size - at
        msg = m[1]
        if isinstance(msg, bytes):
            buf[:n] = msg[at:at + n]
        else:
            try:
                msg.write_to(_Into(buf, at, n))
            except StopIteration:  # (the piece is in)
                pass
        m[3] += n
        if at + n == size:
            del self.inbox[0]
            received[0] += 1
            received[1] += size
        return n


class _Into:
    """A write(buf, n) of the whole message whose bytes [at, at + want)
    go into the reader's buffer; StopIteration once they are in (a class
    of the stand-in's own would be more of the bench's part)."""

    def __init__(self, buf, at, want):
        self.buf = buf
        self.at = at  # the message's bytes still to pass over
        self.want = want
        self.n = 0

    def write(self, data, n):
        skip = self.at
        if skip >= n:
            self.at = skip - n
            return
        self.at = 0
        k = n - skip
        if k > self.want - self.n:
            k = self.want - self.n
        self.buf[self.n:self.n + k] = memoryview(data)[skip:skip + k]
        self.n += k
        if self.n == self.want:
            raise StopIteration


def socket(*args):
    return Sock()
