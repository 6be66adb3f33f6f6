"""A socket stand-in for gogadget.mqttsub's tests (CPython and the unix
port): the broker's bytes, given at most `piece` bytes a readinto, as a
TCP stream may give them; the largest read(n) asked for is kept (the
client may read only small things, the topic, in one block); what the
client writes is kept (its PUBACKs).

    sock = Sock(publish(b"t/x", b"payload", 7) + publish(...), piece=7)
"""


def publish(topic, payload, pid=1):
    """A QoS 1 PUBLISH packet as a broker sends it."""
    body = bytes((len(topic) >> 8, len(topic) & 255)) + topic + bytes((pid >> 8, pid & 255)) \
        + payload
    n = len(body)
    head = bytearray((0x32,))
    while True:
        b = n & 0x7F
        n >>= 7
        head.append(b | 0x80 if n else b)
        if not n:
            break
    return bytes(head) + body


class Sock:
    def __init__(self, data, piece=7):
        self.data = data
        self.at = 0
        self.piece = piece
        self.out = bytearray()
        self.largest_read = 0

    def readinto(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        n = min(n, self.piece, len(self.data) - self.at)
        for i in range(n):
            buf[i] = self.data[self.at + i]
        self.at += n
        return n

    def read(self, n):
        self.largest_read = max(self.largest_read, n)
        out = self.data[self.at:self.at + n]
        self.at += len(out)
        return out

    def write(self, data, n=-1):
        self.out.extend(bytes(data)[:n] if n >= 0 else bytes(data))
        return n

    def setblocking(self, flag):
        pass

    def settimeout(self, t):
        pass

    def close(self):
        pass


def node(i):
    """The i-th move of snapshot()'s game: (colour "B"/"W", SGF point, "" a pass)."""
    return "BW"[i % 2], "" if i % 50 == 49 else "abcdefghijklmnopqrs"[i * 7 % 19] + \
        "abcdefghijklmnopqrs"[i * 11 % 19]


def snapshot(moves, game=3, seq=None):
    """An opponent's snapshot of a 19x19 game of `moves` moves on byo-yomi
    as gogadget.broadcast writes it (compact; "times" last, each move's
    time), bytes: ~4.2 KB for 400 moves."""
    out = ['{"v":1,"game":%d,"size":19,"komi":6.5,"rules":"japanese","handicap":0,'
           '"black":"Black","white":"White","setup":"","moves":"' % game]
    for i in range(moves):
        c, p = node(i)
        out.append(";%s[%s]" % (c, p))
    out.append('","phase":"play","result":"","prisoners":[0,0],'
               '"clock":["byoyomi","B",0,5,30000,3],"seq":%d,"times":[' % (
                   moves if seq is None else seq))
    out.append(",".join(str(327710 - i) for i in range(moves)))
    out.append("]}")
    return "".join(out).encode()
