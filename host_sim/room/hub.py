"""The page's live side: each browser's bounded event queue, the room's changes in batches."""
import json
import logging
import socket
import threading
import time

log = logging.getLogger("gogadget.relay")

COALESCE_S = 0.05  # SSE pushes are batched this long: one write per client per batch
CLIENT_QUEUE_BYTES = 4 << 20  # a browser further behind than this is dropped


class Client:
    """One browser on /events: a queue of byte chunks, bounded in bytes."""

    def __init__(self, limit):
        self.limit = limit
        self.chunks = []
        self.size = 0
        self.dropped = False
        self.cond = threading.Condition()
        self.sock = None

    def offer(self, data, first=False):
        """Queue data; False (and the client dropped) past the limit.  The
        first chunk, the full state, always fits: a room larger than the
        limit must not shut every browser out."""
        with self.cond:
            if self.dropped:
                return False
            if self.size + len(data) > self.limit and not first:
                self.dropped = True
                self.chunks, self.size = [], 0
                self.cond.notify()
                return False
            self.chunks.append(data)
            self.size += len(data)
            self.cond.notify()
            return True

    def drop(self):
        with self.cond:
            self.dropped = True
            self.chunks, self.size = [], 0
            self.cond.notify()

    def take(self, timeout):
        """Everything queued as one bytes (b"" after a timeout); None once dropped."""
        with self.cond:
            if not self.chunks and not self.dropped:
                self.cond.wait(timeout)
            if self.dropped:
                return None
            data, self.chunks, self.size = b"".join(self.chunks), [], 0
            return data


class Hub:
    """The SSE side: coalesces the room's changes into one push per batch."""

    def __init__(self, room, coalesce=COALESCE_S, client_limit=CLIENT_QUEUE_BYTES):
        self.room = room
        self.coalesce = coalesce
        self.client_limit = client_limit
        self.clients = set()
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.running = False
        self.thread = None
        self.broker = {"connected": False, "since": time.time()}
        self.pushes = 0
        self.drops = 0

    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, name="relay-sse", daemon=True)
        self.thread.start()

    def stop(self):
        self.running = False
        self.wake.set()
        with self.lock:
            for c in list(self.clients):
                self._drop(c)
        if self.thread:
            self.thread.join(5)

    def changed(self):
        self.wake.set()

    def _relay_json(self):
        return json.dumps({"broker": self.broker["connected"]}, separators=(",", ":"))

    def _state_json(self):
        """Every board's state (under the lock the batches take)."""
        return '{"relay":%s,"boards":[%s]}' % (self._relay_json(), ",".join(self.room.full_state()))

    def state_now(self):
        """The state a page draws before its event stream opens (/state.js)."""
        with self.lock:
            return self._state_json()

    def add(self):
        """A new browser: its full state goes first, under the lock the
        batches take, so it misses nothing and sees nothing twice out of order."""
        c = Client(self.client_limit)
        with self.lock:
            text = self._state_json()
            c.offer(b"retry: 2000\nevent: state\ndata: " + text.encode() + b"\n\n", first=True)
            self.clients.add(c)
        return c

    def remove(self, c):
        with self.lock:
            self.clients.discard(c)

    def _drop(self, c):
        self.clients.discard(c)
        c.drop()  # wakes its thread, which ends the response
        if c.sock is not None:
            try:
                c.sock.shutdown(socket.SHUT_RDWR)  # unblocks a write stuck on a full socket
            except OSError:
                pass

    def push_relay_status(self):
        with self.lock:
            self._send(b"event: relay\ndata: " + self._relay_json().encode() + b"\n\n")

    def _send(self, data):
        for c in list(self.clients):
            if not c.offer(data):
                self.drops += 1
                log.info("SSE client fell %d bytes behind: dropped (it reconnects)", c.limit)
                self._drop(c)

    def _run(self):
        while self.running:
            self.wake.wait()
            if not self.running:
                break
            time.sleep(self.coalesce)
            self.wake.clear()
            with self.lock:
                boards = self.room.take_dirty()
                if boards:
                    self.pushes += 1
                    self._send(b"event: update\ndata: {\"boards\":[" +
                               ",".join(boards).encode() + b"]}\n\n")
