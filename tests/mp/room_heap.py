"""Run under MicroPython: the Broadcaster's heap.  poll() with nothing new
allocates nothing (heap locked), connected or waiting to reconnect; and the
figures: the heap a Broadcaster takes on a 19x19 board, after a long game,
and the snapshot's bytes.  Prints one JSON line.

    micropython room_heap.py [SIZE [MOVES [pair]]]

With "pair" the Broadcaster carries a pairing.Follower (a game against
board02), which has agreed the pairing and is level with the opponent's
record (board02's snapshot is this board's own game): its per-poll look and
the client's check_msg are inside the locked polls too."""
import gc
import json
import sys

import micropython

from gogadget.board import OK
from gogadget.broadcast import Broadcaster
from gogadget.config import Config
from gogadget.points import PASS
from gogadget.referee import Referee

SIZE = int(sys.argv[1]) if len(sys.argv) > 1 else 19
MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 250
PAIR = len(sys.argv) > 3 and sys.argv[3] == "pair"


class Null:
    """A socket that takes everything (write(buf, n))."""

    @staticmethod
    def write(buf, n=-1):
        pass


class Client:
    """gogadget.mqtt's API; the broker acknowledges everything."""

    streams = True
    up = True
    sent = 0
    nbytes = 0

    def set_last_will(self, topic, msg, retain=False, qos=0):
        pass

    def connect(self, clean_session=True):
        if not Client.up:
            raise OSError(111)
        return 0

    def publish(self, topic, msg, retain=False, qos=0):
        if not Client.up:
            raise OSError(104)
        Client.sent += 1
        Client.nbytes = len(msg)
        w = getattr(msg, "write_to", None)
        if w is not None:
            w(Null)  # the snapshot writes itself

    def ping(self):
        pass

    def set_callback(self, f):
        pass

    def subscribe(self, topic, qos=0):
        pass

    def check_msg(self):
        pass

    def disconnect(self):
        pass

    def close(self):
        pass


def settle(b, t):
    for _ in range(20):
        b.poll(t)
        t += 20
    return t


ref = Referee(Config(size=SIZE))
ref.resume([], "", 0)
gc.collect()
before = gc.mem_alloc()
peer = None
if PAIR:
    from gogadget.pairing import Follower, pair_message
    peer = Follower("board01", "board02", 1, "g1")
b = Broadcaster(Client, "board01", referee=ref, peer=peer)
t = settle(b, 1000)
gc.collect()
empty = gc.mem_alloc() - before
assert b.connected and not b.pending()

# A long game: a move, a poll or two, as the scan loop does.
pts = [pt for pt in ref.board.points()]
k = 0
played = 0
while played < MOVES:
    colour = ref.to_move()
    pt = PASS
    for _ in range(len(pts)):
        k = (k + 97) % len(pts)
        if ref.board.legal(colour, pts[k]) == OK:
            pt = pts[k]
            break
    assert ref.external_move(colour, pt) == OK
    played += 1
    t = settle(b, t)
assert not b.pending()
snapshot = len(b.snapshot())
passes = ref.board.passes[1] + ref.board.passes[2]
buffers = sum(len(v) for v in b._st if isinstance(v, bytearray))  # the ring, the event's, the tail's

if PAIR:
    peer.message(b"gogadget/board/board02/pair", pair_message("g1", 2, "board01"))
    peer.message(b"gogadget/board/board02/game", bytes(b.snapshot()))
    t = settle(b, t)
    assert peer.agreed and peer.count == ref.board.moves and peer.outcome == 0, (
        peer.agreed, peer.count, peer.outcome, peer.note)

# Idle: connected, nothing new; then disconnected, waiting to retry.
locked = 0
micropython.heap_lock()
try:
    for _ in range(500):
        b.poll(t)
        t += 20
        locked += 1
finally:
    micropython.heap_unlock()
Client.up = False
ref.external_move(ref.to_move(), PASS)
while b.connected:  # the publish fails: waiting to reconnect (1 s)
    b.poll(t)
    t += 20
failures = b.failures
gc.collect()
micropython.heap_lock()
try:
    for _ in range(40):  # under the first second of backoff
        b.poll(t)
        t += 20
        locked += 1
finally:
    micropython.heap_unlock()
# (poll catches what fails inside, a MemoryError too: it must not have had one)
assert b.failures == failures, b.error
print(json.dumps({"size": SIZE, "moves": played, "passes": passes,
                  "broadcaster_bytes": empty, "buffers_after_game": buffers,
                  "snapshot_bytes": snapshot, "published": b.published, "acked": Client.sent,
                  "locked_polls": locked, "paired": PAIR}))
