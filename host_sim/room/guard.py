"""The page's guards against a visitor who holds it (docs/ROOM.md,
"Security"): connections and event streams counted per client address, and
a deadline on the whole request rather than on each read.

    counts = PerAddress(limit)
    if counts.take(addr): ... counts.give(addr)
    rfile = deadline_reader(sock, handler)   # reads end at handler.deadline
"""
import io
import socket
import threading
import time


class PerAddress:
    """How many of something each client address holds, capped."""

    def __init__(self, limit):
        self.limit = limit
        self.held = {}
        self.lock = threading.Lock()
        self.refused = 0

    def take(self, addr):
        """One more for addr; False (nothing taken) at its cap."""
        with self.lock:
            n = self.held.get(addr, 0)
            if n >= self.limit:
                self.refused += 1
                return False
            self.held[addr] = n + 1
            return True

    def give(self, addr):
        with self.lock:
            n = self.held.get(addr, 0) - 1
            if n > 0:
                self.held[addr] = n
            else:
                self.held.pop(addr, None)


class _DeadlineRaw(io.RawIOBase):
    """A socket's reads, each waiting at most until owner.deadline (a
    monotonic time) and at most owner.timeout: a client that sends its
    request a byte at a time is cut at the deadline, not served forever."""

    def __init__(self, sock, owner):
        io.RawIOBase.__init__(self)
        self.sock = sock
        self.owner = owner

    def readable(self):
        return True

    def readinto(self, b):
        left = self.owner.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took longer than %g s" % self.owner.request_s)
        self.sock.settimeout(min(left, self.owner.timeout or left))
        try:
            return self.sock.recv_into(b)
        except socket.timeout:
            raise TimeoutError("the request took longer than %g s" % self.owner.request_s) \
                from None


def deadline_reader(sock, owner):
    return io.BufferedReader(_DeadlineRaw(sock, owner))


def gone(sock):
    """True when the client closed its end (EOF or reset), without blocking."""
    import select
    try:
        readable = select.select([sock], [], [], 0)[0]
        if not readable:
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):
        return True
