"""One board's flood never delays another's (host_sim/room/inbox.py): each
board's messages in a queue of its own, taken in turn, each queue bounded
in bytes.  The bound is in messages (one of each busy board), not seconds:
what a message costs is the bench's business (make bench)."""
import json
import random

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from host_sim.room.games import Room
from host_sim.room.inbox import BOARD_QUEUE_BYTES, Inbox
from host_sim.room.messages import MAX_MESSAGE
from room_boards import SpecGame, encode, status


def big_snapshot(board, seq, rng):
    """A valid snapshot near the 8 KB limit: some moves, then a long run of
    passes (what costs the relay most: every move applied on a new game)."""
    g = SpecGame(board, size=19)
    for _ in range(60):
        g.play(g.random_move(rng))
    while len(encode(g.snapshot())) < MAX_MESSAGE - 300:
        g.moves.append((g.to_move(), ""))
        g.bd.pass_move(1 if g.to_move() == "B" else 2)
    g.seq = seq
    return encode(g.snapshot())


def test_a_flood_from_one_board_waits_behind_one_message_of_each_other():
    room = Room()
    inbox = Inbox(room.handle)
    inbox.order = []
    rng = random.Random(3)
    flood = big_snapshot("table-1", 1, rng)
    assert len(flood) > 7000
    for seq in range(2000):
        inbox.put(topic("table-1", T_GAME), flood.replace(b'"seq":1,', b'"seq":%d,' % seq, 1))
    # Its queue is bounded: the oldest went (shed, or replaced unread by the
    # next once the board is over its rate), the newest stays.
    assert inbox.dropped + inbox.skipped > 1900
    assert inbox.pending() <= BOARD_QUEUE_BYTES // 7000 + 1
    other = SpecGame("table-2")
    inbox.put(topic("table-2", T_STATUS), encode(status()))
    inbox.put(topic("table-2", T_GAME), encode(other.snapshot()))
    inbox.put(topic("table-2", T_MOVE), encode(other.play("ee")))
    steps = 0
    while inbox.step():
        steps += 1
        if room.boards.get("table-2") and room.boards["table-2"].game \
                and room.boards["table-2"].game.seq == 1:
            break
    # table-2's three messages, each behind at most one of table-1's.
    assert steps <= 6, inbox.order
    assert inbox.order[:6] == ["table-1", "table-2"] * 3
    while inbox.step():
        pass
    shown = json.loads(room.summary(room.boards["table-1"]))
    assert shown["seq"] == 1999  # the flood's newest snapshot is what shows


def test_a_flooding_boards_status_is_kept_and_other_boards_lose_nothing():
    room = Room()
    inbox = Inbox(room.handle, limit=20000)
    rng = random.Random(4)
    flood = big_snapshot("table-1", 1, rng)
    inbox.put(topic("table-1", T_STATUS), encode(status(True, 2, "a sensor")))
    for _ in range(50):
        inbox.put(topic("table-1", T_GAME), flood)
    quiet = SpecGame("table-2")
    sent = [(T_GAME, quiet.snapshot())] + [(T_MOVE, quiet.play(p)) for p in ("cc", "gg", "cg")]
    for leaf, m in sent:
        inbox.put(topic("table-2", leaf), encode(m))
    while inbox.step():
        pass
    assert room.boards["table-1"].status["faults"] == 2
    assert room.boards["table-2"].game.seq == 3 and inbox.dropped >= 45
