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

from gogadget.broadcast import TOPIC_ROOT

log = logging.getLogger("gogadget.relay")

BOARD_QUEUE_BYTES = 256 * 1024  # a board's backlog; 32 full snapshots
_PREFIX = TOPIC_ROOT + "/"
_KEPT = ("status", "pair")
_GAME = "/game"


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


class Inbox:
    def __init__(self, handle, on_done=None, limit=BOARD_QUEUE_BYTES):
        self.handle = handle
        self.on_done = on_done
        self.limit = limit
        self.queues = collections.OrderedDict()  # board -> _Queue, the busy ones, in turn
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
            q = self.queues.get(board)
            if q is None:
                q = self.queues[board] = _Queue()
            q.items.append((topic, payload))
            q.size += size
            if topic.endswith(_GAME):
                q.snapshots += 1
            if q.size > self.limit:
                self._shed(board, q)
            self.cond.notify()

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
            log.warning("%s sends faster than the relay takes: its oldest messages are dropped "
                        "(at most %d bytes queued a board; its next snapshot says all)",
                        board or "(not a board)", self.limit)

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
                log.warning("%s: %d messages dropped in that burst", board or "(not a board)",
                            q.dropped)
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

    def _run(self):
        while self.running:
            try:
                if not self.step():
                    with self.cond:
                        if not self.queues and self.running:
                            self.cond.wait(1.0)
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
