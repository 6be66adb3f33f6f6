"""The relay's inbox: every board's messages in a queue of its own, taken
in turn, so one board's flood never delays another board's update by more
than one message of each busy board (docs/ROOM.md, "Security").

    inbox = Inbox(room.handle, on_done=hub.changed)
    inbox.put(topic, payload)     # MQTT's thread: O(1), never parses
    inbox.start() ... inbox.stop()

* put() files the message under its board (the topic's third part; a
  topic that names no board goes under "" and is dropped by the parser
  like any other) and returns at once.
* One worker thread takes one message from each board with something
  queued, in turn (round robin), and hands it to handle().  A board's
  message therefore waits for at most one message of every other busy
  board, each at most MAX_MESSAGE bytes to parse and apply.
* A snapshot with a newer one of the same board queued behind it is
  skipped (the newer one replaces whatever it would show): a board's
  backlog costs the relay the parse of its newest snapshot.
* A board sending faster than RATE messages a second (after a burst of
  BURST) has its `move` events dropped as they come, before any parsing
  (a token bucket keyed by the topic's board): the snapshot that follows
  every event carries it again, and the ordering rules wait for it.  A
  flood of events therefore costs the relay a dictionary look-up a
  message, and one log line a burst, with its count.
* A board's queue holds at most `limit` bytes: past that its oldest
  `game` and `move` messages are dropped (one log line per burst).  That
  loses nothing a board's later snapshot does not carry again: the
  ordering rules wait for it (a gap), and the newest snapshot is the
  message just queued.  Its status and pair messages are kept unless they
  alone fill the queue.
"""
import collections
import logging
import threading
import time

from gogadget.roomnames import TOPIC_ROOT
from host_sim.room.logs import Limited

log = logging.getLogger("gogadget.relay")

BOARD_QUEUE_BYTES = 256 * 1024  # a board's backlog; 32 full snapshots
# A board publishes an event and a snapshot a move, a status a connection:
# a few a second; after an outage, its 64 kept events and their snapshots.
RATE = 50.0  # messages a second a board, sustained
BURST = 400  # messages a board may send at once
_PREFIX = TOPIC_ROOT + "/"
_KEPT = ("status", "pair")
_GAME = "/game"
_MOVE = "/move"


def board_of(topic):
    if not topic.startswith(_PREFIX):
        return ""
    return topic[len(_PREFIX):].split("/", 1)[0]


class _Queue:
    __slots__ = ("items", "size", "dropped", "warned", "snapshots")

    def __init__(self):
        self.items = collections.deque()
        self.size = 0
        self.snapshots = 0  # `game` messages queued
        self.dropped = 0  # in the current burst (logged when it ends)
        self.warned = False


class _Bucket:
    """A board's token bucket: BURST tokens, RATE more a second."""
    __slots__ = ("tokens", "at", "over")

    def __init__(self, now):
        self.tokens = BURST
        self.at = now
        self.over = 0  # events dropped over the rate, this burst


class Inbox:
    def __init__(self, handle, on_done=None, limit=BOARD_QUEUE_BYTES, rate=RATE, burst=BURST,
                 on_idle=None):
        self.handle = handle
        self.on_done = on_done
        self.on_idle = on_idle  # called about once a second (the relay's held log lines)
        self.limit = limit
        self.rate, self.burst = rate, burst
        self.buckets = {}  # board -> _Bucket
        self.over_rate = 0  # events dropped over a board's rate (stats)
        self.queues = collections.OrderedDict()  # board -> _Queue, the busy ones, in turn
        self.log = Limited(log)  # a line a board and kind every 10 s at most, with counts
        self.cond = threading.Condition()
        self.running = False
        self.thread = None
        self.dropped = 0  # messages dropped for a full queue (stats)
        self.skipped = 0  # snapshots a newer one in the queue made needless
        self.order = None  # tests: a list, the boards in the order handled

    def put(self, topic, payload):
        board = board_of(topic)
        size = len(payload) + len(topic)
        with self.cond:
            within = self._within_rate(board, topic)
            if within is False:
                return
            q = self.queues.get(board)
            if q is None:
                q = self.queues[board] = _Queue()
            if within is None and q.items and q.items[-1][0] == topic:
                # Over the rate: the newest of a run on one topic replaces
                # the one before it, unread (a retained topic's newest says all).
                old = q.items.pop()
                q.size -= len(old[0]) + len(old[1])
                if topic.endswith(_GAME):
                    q.snapshots -= 1
                self.skipped += 1
            q.items.append((topic, payload))
            q.size += size
            if topic.endswith(_GAME):
                q.snapshots += 1
            if q.size > self.limit:
                self._shed(board, q)
            self.cond.notify()

    def _within_rate(self, board, topic):
        """The token bucket (under the lock): True within the rate; over it,
        False for an event (dropped), None for the others (kept)."""
        now = time.monotonic()
        b = self.buckets.get(board)
        if b is None:
            if len(self.buckets) > 100000:  # boards are the ACL's; junk ids are dropped later
                self.buckets.clear()
            b = self.buckets[board] = _Bucket(now)
            b.tokens = self.burst
        else:
            b.tokens = min(self.burst, b.tokens + (now - b.at) * self.rate)
            b.at = now
        if b.tokens >= 1:
            b.tokens -= 1
            if b.over and b.tokens >= self.burst / 2:  # the burst is over
                self.log.warning("%s rate" % board, "%s: %d events dropped over its rate "
                                 "(%g messages a second, %d at once)", board or "(not a board)",
                                 b.over, self.rate, self.burst)
                b.over = 0
            return True
        if not topic.endswith(_MOVE):
            return None  # snapshots, status, pair: the queue keeps the newest
        if not b.over:
            self.log.warning("%s rate" % board, "%s sends over its rate (%g messages a second, "
                             "%d at once): its events are dropped unread until it slows down "
                             "(its snapshots say all)", board or "(not a board)", self.rate,
                             self.burst)
        b.over += 1
        self.over_rate += 1
        return False

    def _shed(self, board, q):
        """The oldest game and move messages out until the queue fits (then,
        if status and pair messages alone fill it, the oldest of those)."""
        items = list(q.items)
        last = len(items) - 1  # the newest always stays
        for only_bulk in (True, False):
            for i in range(last):
                if q.size <= self.limit:
                    break
                item = items[i]
                if item is None or (only_bulk and item[0].rsplit("/", 1)[-1] in _KEPT):
                    continue
                q.size -= len(item[0]) + len(item[1])
                if item[0].endswith(_GAME):
                    q.snapshots -= 1
                items[i] = None
                q.dropped += 1
                self.dropped += 1
        q.items = collections.deque(x for x in items if x is not None)
        if q.dropped and not q.warned:
            q.warned = True
            self.log.warning("%s shed" % board, "%s sends faster than the relay takes: its "
                             "oldest messages are dropped (at most %d bytes queued a board; "
                             "its next snapshot says all)", board or "(not a board)", self.limit)

    def step(self):
        """One message of the next busy board; False when none is queued."""
        with self.cond:
            if not self.queues:
                return False
            board, q = self.queues.popitem(last=False)
            topic, payload = q.items.popleft()
            q.size -= len(payload) + len(topic)
            superseded = False
            if topic.endswith(_GAME):
                q.snapshots -= 1
                # A newer snapshot of this board is queued behind it: that one
                # replaces whatever this one would show (events in between
                # that do not fit wait for it: a gap), so a backlog costs the
                # parse of its newest snapshot only.
                superseded = q.snapshots > 0
            if q.items:
                self.queues[board] = q  # to the back of the line
            elif q.dropped:
                self.log.warning("%s shed" % board, "%s: %d messages dropped in that burst",
                                 board or "(not a board)", q.dropped)
        if self.order is not None:
            self.order.append(board)
        if superseded:
            self.skipped += 1
            return True
        what = self.handle(topic, payload)
        if self.on_done is not None and what in ("applied", "dropped"):
            self.on_done()
        return True

    def pending(self):
        with self.cond:
            return sum(len(q.items) for q in self.queues.values())

    def _flush_rates(self):
        """A line for each board whose burst over the rate has ended."""
        now = time.monotonic()
        with self.cond:
            ended = [(board, b) for board, b in self.buckets.items()
                     if b.over and now - b.at >= 1.0]
            for board, b in ended:
                self.log.warning("%s rate" % board, "%s: %d events dropped over its rate "
                                 "(%g messages a second, %d at once)", board or "(not a board)",
                                 b.over, self.rate, self.burst)
                b.over = 0
        self.log.flush()

    def _run(self):
        last = time.monotonic()
        while self.running:
            try:
                if not self.step():
                    with self.cond:
                        if not self.queues and self.running:
                            self.cond.wait(1.0)
                if time.monotonic() - last >= 1.0:
                    last = time.monotonic()
                    self._flush_rates()
                    if self.on_idle is not None:
                        self.on_idle()
            except Exception:  # noqa: BLE001  the parser never raises; a bug must not stop the room
                log.exception("a message could not be handled")

    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, name="relay-inbox", daemon=True)
        self.thread.start()
        return self

    def stop(self):
        with self.cond:
            self.running = False
            self.cond.notify_all()
        if self.thread is not None:
            self.thread.join(5)
