"""The room end to end: the firmware's referee and publisher
(gogadget.broadcast.Broadcaster, on paho through host_sim.room.client)
for several boards, Mosquitto restarted mid-game, and the relay: every
board's archived SGF holds the same moves and result as the game the
board itself kept (its store's NNNN.sgf), read by sgfmill."""
import random
import time

import pytest
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
from room_boards import wait_for


class Board:
    """One board: a referee with its journal and store, and its publisher."""

    def __init__(self, broker, board_id, size, folder, seed):
        from host_sim.room.client import factory
        self.id = board_id
        self.store = folder / board_id
        self.store.mkdir(parents=True)
        self.ref = Referee(Config(size=size), jn.Journal(str(self.store)))
        self.ref.resume([], "", 0)
        self.pub = Broadcaster(factory(broker.url, board_id, broker.creds[board_id], timeout=2.0),
                               board_id, referee=self.ref, black="Black " + board_id,
                               white="White " + board_id)
        self.rng = random.Random(seed)

    def move(self):
        b = self.ref.board
        pts = b.points()
        self.rng.shuffle(pts)
        for pt in pts:
            if b.legal(self.ref.to_move(), pt) == OK:
                assert self.ref.external_move(self.ref.to_move(), pt) == OK
                return
        assert self.ref.external_move(self.ref.to_move(), PASS) == OK

    def idle(self):
        return self.pub.connected and not self.pub.pending()


def pump(boards, until, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        now = int(time.monotonic() * 1000) & 0x3FFFFFFF
        for b in boards:
            b.pub.poll(now)
        if until():
            return
        time.sleep(0.005)
    raise AssertionError("timed out: %s" % [(b.id, b.pub.connected, b.pub.pending(), b.pub.error)
                                            for b in boards])


def moves_and_result(data, size):
    game = sgfmill_sgf.Sgf_game.from_bytes(data)
    assert game.get_size() == size
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    return moves, game.get_root().get("RE")


def test_boards_publish_through_a_broker_restart_and_the_archive_equals_their_records(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    sizes = {"b1": 9, "b2": 13, "table-3": 19}
    broker = Broker(str(tmp_path / "broker"), boards=list(sizes)).start()
    archive = tmp_path / "archive"
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    boards = []
    try:
        assert relay.connected.wait(20)
        boards = [Board(broker, bid, size, tmp_path / "boards", seed=i)
                  for i, (bid, size) in enumerate(sizes.items())]
        pump(boards, lambda: all(b.idle() for b in boards))
        for k in range(30):
            for b in boards:
                b.move()
            if k == 12:
                for b in boards:
                    assert b.ref.undo()  # a take-back, retracted everywhere
            pump(boards, lambda: all(b.idle() for b in boards))
        # The broker restarts mid-game; the boards play on while it is away.
        broker.stop()
        for _ in range(6):
            for b in boards:
                b.move()
            pump(boards, lambda: True, 0.05)
        broker.start()
        pump(boards, lambda: all(b.idle() for b in boards), 60)
        for _ in range(10):
            for b in boards:
                b.move()
            pump(boards, lambda: all(b.idle() for b in boards))
        # Two passes, then the count confirmed at the board: the game is over.
        for b in boards:
            for _ in range(2):
                assert b.ref.external_move(b.ref.to_move(), PASS) == OK
            b.ref.press(BTN_CONFIRM, int(time.monotonic() * 1000))
            assert b.ref.phase == "over" and b.ref.result
        pump(boards, lambda: all(b.idle() for b in boards))
        for b in boards:
            wait_for(lambda: (archive / ("%s-%d.sgf" % (b.id, b.ref.log.game))).exists(),
                     what="%s archived" % b.id)
        for b in boards:
            kept = sorted(b.store.glob("[0-9][0-9][0-9][0-9].sgf"))
            assert len(kept) == 1, kept
            size = sizes[b.id]
            mine = moves_and_result((archive / ("%s-%d.sgf" % (b.id, b.ref.log.game))).read_bytes(),
                                    size)
            theirs = moves_and_result(kept[0].read_bytes(), size)
            assert mine == theirs and mine[1] == b.ref.result, b.id
            shown = relay.room.boards[b.id].game
            assert shown.seq == b.ref.log.seq and shown.phase == "over"
            assert list(shown.bd.cells) == list(b.ref.board.cells)  # the same position
        assert relay.room.counts["dropped"] == 0
    finally:
        for b in boards:
            b.pub.close()
        relay.stop()
        broker.stop()


if __name__ == "__main__":
    pytest.main([__file__, "-q"])
