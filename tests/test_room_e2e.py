"""The room end to end: the firmware's referee and publisher
(gogadget.broadcast.Broadcaster, on paho through host_sim.room.client)
for several boards, Mosquitto restarted mid-game, and the relay: every
board's archived SGF holds the same moves and result as the game the
board itself kept (its store's NNNN.sgf), read by sgfmill."""
import random
import time

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, require
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
        close_room(boards, relay, broker)


# -- the unmodified App on virtual boards, a hand at each -------------------------

GAMES = {  # board id -> a real game (host_sim/games), replayed at the board by a hand
    "t9": "gnugo-selfplay-9x9-seed2.sgf",
    "t9b": "aya-gnugo-olympiad-2006-9x9.sgf",
    "t13": "crazystone-gnugo-kgs-2006-13x13.sgf",
    "t19": "shusaku-castle-game-1861.sgf",
}


class AppBoard:
    """The firmware's App on the virtual board (host_sim.sim.virtual.Simulator:
    its scan path reads the stones a hand puts down) with a Broadcaster, as
    main.py gives it one (App(broadcast=b) is what App.__init__ does with
    it), and host_sim.person.replay's person playing a recorded game at it, with
    human habits (prisoners lifted late, stones bumped and put right)."""

    def __init__(self, broker, board_id, folder, seed):
        from host_sim.person.replay import Person, load_game, preset_for
        from host_sim.room.client import factory
        from host_sim.sim.virtual import Simulator, make_config
        self.id = board_id
        self.game = load_game((ROOT / "host_sim" / "games" / GAMES[board_id]).read_bytes())
        moves = list(self.game.moves)
        while len(moves) < 2 or moves[-1][1] is not None or moves[-2][1] is not None:
            moves.append((3 - moves[-1][0], None))  # the game ends in two passes and a count
        self.moves = moves
        self.store = folder / board_id
        self.store.mkdir(parents=True)
        cfg = make_config(size=self.game.size, preset=preset_for(self.game),
                          komi=float(self.game.komi))
        self.sim = Simulator(cfg, seed=seed, store_dir=str(self.store))
        self.pub = Broadcaster(factory(broker.url, board_id, broker.creds[board_id], timeout=2.0),
                               board_id, black="Black " + board_id, white="White " + board_id)
        self.sim.app.broadcast = self.pub
        self.pub.attach(self.sim.app.referee)
        self.person = Person(self.sim, random.Random(seed), late=0.2, bump=0.03)
        self.took_back = 0
        self.error = None

    def play(self, start, end):
        """The record's moves start..end-1, as the hand plays them."""
        g = self.game
        g.moves = self.moves[start:end]
        assert self.person.play_game(g), "%s: the hand got stuck" % self.id

    def take_back(self):
        """Lift the last stone (one that captured nothing), press Confirm;
        the hand then plays it again (the record stays the game's)."""
        from gogadget.points import place
        sim, ref = self.sim, self.sim.referee
        n = ref.board.moves
        assert not ref.board.captured_stones(), "pick a move that captured nothing"
        colour, pt = ref.board.last_move()
        sim.stones.lift(place(ref.board.size, pt))
        sim.settle()
        sim.press("confirm")
        sim.settle()
        assert self.person.tidy()
        assert ref.board.moves == n - 1, "%s: the take-back was not taken" % self.id
        self.took_back += 1

    def count(self):
        sim = self.sim
        assert sim.referee.phase == "count", sim.referee.status()
        sim.run(600)
        sim.press("confirm")
        sim.run(200)
        assert sim.referee.phase == "over" and sim.referee.result, sim.referee.status()

    def idle(self):
        return self.pub.connected and not self.pub.pending()


def test_apps_on_virtual_boards_play_real_games_through_a_broker_restart(tmp_path):
    """Done means (issue 13): Mosquitto and the relay; four boards, each the
    unmodified App on a virtual board with a hand playing a real game at it
    (GNU Go self-play and two human games, 9x9 to 19x19: captures, a
    take-back, the passes, the count confirmed at the board); the broker
    restarts mid-game while the boards play on; every board's archived SGF
    equals the game its App kept (sgfmill reads both: moves and RE), the
    relay's position is the App's, and every event it applied came once, in
    order (the take-backs included)."""
    import json
    import threading
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=list(GAMES)).start()
    archive = tmp_path / "archive"
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    seen = []
    handle = relay.room.handle

    def spy(topic, payload):
        what = handle(topic, payload)
        seen.append((topic, bytes(payload), what))
        return what

    relay.room.handle = spy
    boards = []
    try:
        assert relay.connected.wait(20)
        boards = [AppBoard(broker, bid, tmp_path / "boards", seed=i + 1)
                  for i, bid in enumerate(GAMES)]
        # Each board's hand in a thread of its own; the room waits for all
        # of them at each stage (the broker goes away between two).
        stages = threading.Barrier(len(boards) + 1, timeout=120)

        def script(b):
            try:
                n = len(b.moves)
                half = n // 2
                b.play(0, half // 2)
                stages.wait()  # 1: a quarter played, all published
                for k in range(half // 2, half):
                    b.play(k, k + 1)
                    if k > half // 2 + 3 and not b.took_back and not b.sim.referee.board.captured_stones() \
                            and b.moves[k][1] is not None:
                        b.take_back()
                        b.play(k, k + 1)
                stages.wait()  # 2: half played; the broker stops now
                stages.wait()  # 3: stopped
                b.play(half, half + 8)  # played while the broker is away
                stages.wait()  # 4: the broker restarts now
                b.play(half + 8, n)
                b.count()
                while not b.idle():
                    b.sim.step()
            except Exception as exc:  # noqa: BLE001  (reported below)
                b.error = exc
                stages.abort()

        threads = [threading.Thread(target=script, args=(b,), daemon=True) for b in boards]
        for t in threads:
            t.start()
        stages.wait()
        wait_for(lambda: all(relay.room.boards.get(b.id) and relay.room.boards[b.id].game
                             and relay.room.boards[b.id].game.seq == b.sim.referee.log.seq
                             for b in boards), 30, "the first quarter at the relay")
        stages.wait()
        broker.stop()
        stages.wait()
        stages.wait()
        broker.start()
        for t in threads:
            t.join(180)
        for b in boards:
            assert b.error is None, "%s: %r" % (b.id, b.error)
            assert b.took_back == 1, b.id
        for b in boards:
            wait_for(lambda: (archive / ("%s-%d.sgf" % (b.id, b.sim.referee.log.game))).exists(),
                     30, "%s archived" % b.id)
        for b in boards:
            ref = b.sim.referee
            kept = sorted(b.store.glob("[0-9][0-9][0-9][0-9].sgf"))
            assert len(kept) == 1, kept
            mine = moves_and_result((archive / ("%s-%d.sgf" % (b.id, ref.log.game))).read_bytes(),
                                    b.game.size)
            theirs = moves_and_result(kept[0].read_bytes(), b.game.size)
            assert mine == theirs and mine[1] == ref.result, b.id
            assert len(mine[0]) == len(b.moves), b.id
            shown = relay.room.boards[b.id].game
            assert shown.seq == ref.log.seq and shown.phase == "over"
            assert list(shown.bd.cells) == list(ref.board.cells)
            assert shown.bd.prisoners[1] + shown.bd.prisoners[2] > 0, b.id  # captures
            applied = [json.loads(p) for t, p, what in seen
                       if t.endswith("/%s/move" % b.id) and what == "applied"]
            seqs = [m["seq"] for m in applied]
            assert seqs == sorted(set(seqs)), (b.id, seqs)
            assert [m["t"] for m in applied].count("undo") == 1, b.id
            # The end reaches the relay as the board's end event, or as a
            # snapshot of the ended game: after the broker's restart a board's
            # retained snapshot can come on the relay's main connection before
            # its lane is up again (lanes.py), and the end event is then a
            # duplicate.  Either way it is the last thing applied.
            last_topic, last = [(t, json.loads(p)) for t, p, what in seen
                                if what == "applied" and t.rsplit("/", 2)[-2] == b.id
                                and t.rsplit("/", 1)[-1] in ("move", "game")][-1]
            if last_topic.endswith("/move"):
                assert last["t"] == "end", b.id
            else:
                assert last["phase"] == "over" and last["result"] == ref.result, b.id
            assert b.pub.failures > 0, b.id  # it did see the broker go
        assert relay.room.counts["dropped"] == 0
    finally:
        close_room(boards, relay, broker)


if __name__ == "__main__":
    pytest.main([__file__, "-q"])
