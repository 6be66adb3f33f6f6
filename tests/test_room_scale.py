"""A room of 100 boards at human speed, compressed (issue 13, scale).

Each board is the firmware's referee (gogadget.referee.Referee, journalled
to its own store) with the firmware's publisher (gogadget.broadcast.
Broadcaster) on its own MQTT connection (host_sim.room.client, paho), as its
own MQTT user under the ACL the project generates: 100 connections to one
Mosquitto, one relay subscribed to all of them.  The boards are lighter
than a full App: no scan path (100 Apps scanning at 50 Hz do not fit in two
shared cores); the moves reach the referee as a remote player's do
(Referee.external_move), random legal ones, one per board every 1-2 s of
wall time, a take-back now and then, and at the end the two passes and the
count confirmed.  Every board's game at the relay must be exactly what it
sent: the same moves, seq and position, every event applied once and in
order (no gap, no duplicate), and the archived SGF equal to the game the
board kept.
"""
import json
import random
import time

from sgfmill import sgf as sgfmill_sgf

from conftest import require
from gogadget import journal as jn
from gogadget.board import OK
from gogadget.broadcast import Broadcaster
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM
from gogadget.points import PASS
from gogadget.referee import Referee
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.relay import Relay
from room_boards import close_room, wait_for

import os
BOARDS = int(os.environ.get('ROOM_BOARDS', 100))
PLAY_S = float(os.environ.get('ROOM_PLAY_S', 36))  # wall time of play
PERIOD_S = (1.0, 2.0)  # a board's time between two moves
SIZES = (9, 13, 19)


class Board:
    def __init__(self, broker, board_id, size, folder, rng):
        from host_sim.room.client import factory
        self.id = board_id
        self.store = folder / board_id
        self.store.mkdir(parents=True)
        self.ref = Referee(Config(size=size), jn.Journal(str(self.store)))
        self.ref.resume([], "", 0)
        self.pub = Broadcaster(factory(broker.url, board_id, broker.creds[board_id], timeout=10.0),
                               board_id, referee=self.ref)
        self.rng = rng
        self.next = time.monotonic() + rng.uniform(0, PERIOD_S[1])
        self.undos = 0

    def move(self):
        ref = self.ref
        if self.undos < 1 and ref.board.moves > 4 and self.rng.random() < 0.08:
            assert ref.undo()
            self.undos += 1
            return
        b = ref.board
        pts = b.points()
        self.rng.shuffle(pts)
        for pt in pts[:40]:
            if b.cells[pt] == 0 and b.legal(ref.to_move(), pt) == OK:
                assert ref.external_move(ref.to_move(), pt) == OK
                return
        assert ref.external_move(ref.to_move(), PASS) == OK

    def end(self):
        ref = self.ref
        while ref.phase != "count":
            assert ref.external_move(ref.to_move(), PASS) == OK
        ref.press(BTN_CONFIRM, int(time.monotonic() * 1000))
        assert ref.phase == "over" and ref.result

    def idle(self):
        return self.pub.connected and not self.pub.pending()


def moves_and_result(data):
    game = sgfmill_sgf.Sgf_game.from_bytes(data)
    return [n.get_move() for n in game.get_main_sequence()[1:]], game.get_root().get("RE")


def test_a_room_of_100_boards(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    ids = ["hall-%03d" % (i + 1) for i in range(BOARDS)]
    broker = Broker(str(tmp_path / "broker"), boards=ids).start()
    archive = tmp_path / "archive"
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    outcomes = {}  # board -> [(kind, seq, what)]
    handle = relay.room.handle

    def spy(topic, payload):
        what = handle(topic, payload)
        parts = topic.split("/")
        if parts[-1] == "move":
            outcomes.setdefault(parts[2], []).append((json.loads(payload)["seq"], what))
        return what

    relay.room.handle = spy
    boards = []
    try:
        assert relay.connected.wait(20)
        rng = random.Random(13)
        boards = [Board(broker, bid, SIZES[i % len(SIZES)], tmp_path / "boards",
                        random.Random(rng.random())) for i, bid in enumerate(ids)]
        # The room is switched on before play starts: every board's empty game is shown.
        deadline = time.monotonic() + 60
        while not all(b.idle() for b in boards):
            assert time.monotonic() < deadline, "the boards did not all connect"
            ms = int(time.monotonic() * 1000) & 0x3FFFFFFF
            for b in boards:
                b.pub.poll(ms)
            time.sleep(0.002)
        wait_for(lambda: all(relay.room.boards.get(b.id) is not None
                             and relay.room.boards[b.id].game is not None for b in boards),
                 30, "every board at the relay")
        start = time.monotonic()
        end = start + PLAY_S
        moves = 0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            ms = int(now * 1000) & 0x3FFFFFFF
            for b in boards:
                if now >= b.next:
                    b.move()
                    moves += 1
                    b.next = now + b.rng.uniform(*PERIOD_S)
                b.pub.poll(ms)
            time.sleep(0.002)
        ms = int(time.monotonic() * 1000) & 0x3FFFFFFF
        for b in boards:
            b.end()
            b.pub.poll(ms)  # it looks at the referee: the passes and the end are pending
        deadline = time.monotonic() + 60
        while not all(b.idle() for b in boards):
            assert time.monotonic() < deadline, [(b.id, b.pub.pending(), b.pub.error)
                                                 for b in boards if not b.idle()][:5]
            ms = int(time.monotonic() * 1000) & 0x3FFFFFFF
            for b in boards:
                b.pub.poll(ms)
        drained = time.monotonic() - end
        wait_for(lambda: all(relay.room.boards.get(b.id) is not None
                             and relay.room.boards[b.id].game is not None
                             and relay.room.boards[b.id].game.seq == b.ref.log.seq
                             and relay.room.boards[b.id].game.phase == "over" for b in boards),
                 30, "every board's last event at the relay: %s" % [
                     (b.id, b.ref.log.seq, b.ref.phase, relay.room.boards[b.id].game.seq,
                      relay.room.boards[b.id].game.phase, outcomes.get(b.id, [])[-3:])
                     for b in boards if relay.room.boards.get(b.id) is None
                     or relay.room.boards[b.id].game is None
                     or relay.room.boards[b.id].game.seq != b.ref.log.seq
                     or relay.room.boards[b.id].game.phase != "over"][:4])
        wait_for(lambda: len(list(archive.glob("*.sgf"))) == BOARDS, 30, "every game archived")
        print("%d boards, %d moves in %.0f s (%.1f moves/s), published %.2f s after the last"
              % (BOARDS, moves, PLAY_S, moves / PLAY_S, drained))
        assert moves > BOARDS * PLAY_S / PERIOD_S[1] * 0.8  # human speed, compressed, kept up
        for b in boards:
            ref = b.ref
            g = relay.room.boards[b.id].game
            assert g.moves == [("B" if c == 1 else "W", _sgf(ref.board.size, pt))
                               for c, pt in (ref.board.move(i) for i in range(ref.board.moves))]
            assert list(g.bd.cells) == list(ref.board.cells)
            seqs = [seq for seq, what in outcomes[b.id] if what == "applied"]
            assert seqs == list(range(1, ref.log.seq + 1)), (b.id, outcomes[b.id])  # in order
            assert [what for _, what in outcomes[b.id]].count("applied") == len(outcomes[b.id]), \
                (b.id, outcomes[b.id])  # nothing doubled, no gap, nothing stale
            kept = sorted(b.store.glob("[0-9][0-9][0-9][0-9].sgf"))
            assert len(kept) == 1
            mine = moves_and_result((archive / ("%s-%d.sgf" % (b.id, ref.log.game))).read_bytes())
            assert mine == moves_and_result(kept[0].read_bytes()) and mine[1] == ref.result
        assert sum(b.undos for b in boards) > BOARDS // 10  # take-backs were among the events
        assert relay.room.counts["dropped"] == 0
        assert all(b.pub.failures == 0 and b.pub.dropped == 0 for b in boards)
    finally:
        close_room(boards, relay, broker)


def _sgf(size, pt):
    from gogadget.points import sgf_coord
    return "" if pt == PASS else sgf_coord(size, pt)
