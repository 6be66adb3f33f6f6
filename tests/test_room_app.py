"""The room with the unmodified firmware: App on virtual boards (the
simulator's Simulator), a simulated person putting the stones down and
lifting the prisoners the lights ask for (host_sim.person.replay.Person), the
firmware's Broadcaster on paho, Mosquitto restarted mid-game, and the
relay: every board's archived SGF equals the record the board itself kept."""
import copy
import random
import time

from sgfmill import sgf as sgfmill_sgf

from conftest import require
from gogadget import sgf
from gogadget.broadcast import Broadcaster
from gogadget.points import BLACK, WHITE, parse_sgf_coord
from host_sim.person.replay import Person, load_game
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.relay import Relay
from host_sim.sim.virtual import Simulator, make_config
from room_boards import SpecGame, wait_for

SIZES = {"b1": 9, "b2": 9, "table-3": 13}


def planned_game(board_id, size, moves, seed):
    """A random game with captures, as replay's Game (places, None for a pass)."""
    g = SpecGame(board_id, size=size)
    rng = random.Random(seed)
    for _ in range(moves):
        g.play(g.random_move(rng, fight=True))
    g.play("")
    g.play("")
    record = [(BLACK if c == "B" else WHITE, parse_sgf_coord(size, p)) for c, p in g.moves]
    return load_game(sgf.write(size, record, 6.5, rules="Japanese"))


def part(game, start, end):
    piece = copy.copy(game)
    piece.moves = game.moves[start:end]
    return piece


def test_apps_on_virtual_boards_through_a_broker_restart(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    from host_sim.room.client import factory
    broker = Broker(str(tmp_path / "broker"), boards=list(SIZES)).start()
    archive = tmp_path / "archive"
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    boards = {}
    try:
        assert relay.connected.wait(20)
        for i, (bid, size) in enumerate(SIZES.items()):
            store = tmp_path / bid
            store.mkdir()
            sim = Simulator(make_config(size=size, preset="japanese", komi=6.5), seed=i,
                            store_dir=str(store))
            pub = Broadcaster(factory(broker.url, bid, broker.creds[bid], timeout=2.0), bid,
                              black="Black " + bid, white="White " + bid)
            sim.app.broadcast = pub  # what App(broadcast=) does, on the simulator's App
            pub.attach(sim.app.referee)
            person = Person(sim, random.Random(i), late=0.0, bump=0.0, max_delay_ms=sim.period_ms)
            game = planned_game(bid, size, {9: 36, 13: 60}[size], seed=10 + i)
            boards[bid] = (sim, pub, person, game)

        def play(start, end):
            for sim, pub, person, game in boards.values():
                assert person.play_game(part(game, start, end)), sim.referee.status()

        def drain(timeout=60):
            end = time.monotonic() + timeout
            while not all(pub.connected and not pub.pending() for _, pub, _, _ in boards.values()):
                assert time.monotonic() < end, [(b, p.connected, p.pending(), p.error)
                                                for b, (_, p, _, _) in boards.items()]
                for sim, _, _, _ in boards.values():
                    sim.step()

        play(0, 15)
        drain()
        broker.stop()  # mid-game: the boards play on
        play(15, 25)
        broker.start()
        drain()
        play(25, None)  # to the end, the two passes included
        for sim, _, _, _ in boards.values():
            assert sim.referee.phase == "count", sim.referee.status()
            sim.press("confirm")
            sim.run(200)
            assert sim.referee.phase == "over" and sim.referee.result
        drain()
        for bid, (sim, pub, person, game) in boards.items():
            name = "%s-%d.sgf" % (bid, sim.referee.log.game)
            wait_for(lambda: (archive / name).exists(), what=name)
            kept = sorted((tmp_path / bid).glob("[0-9][0-9][0-9][0-9].sgf"))
            assert len(kept) == 1, kept
            mine = sgfmill_sgf.Sgf_game.from_bytes((archive / name).read_bytes())
            theirs = sgfmill_sgf.Sgf_game.from_bytes(kept[0].read_bytes())
            assert [n.get_move() for n in mine.get_main_sequence()[1:]] == \
                [n.get_move() for n in theirs.get_main_sequence()[1:]], bid
            assert mine.get_root().get("RE") == theirs.get_root().get("RE") == sim.referee.result
            assert len(mine.get_main_sequence()) - 1 == len(game.moves)
            shown = relay.room.boards[bid].game
            assert list(shown.bd.cells) == list(sim.referee.board.cells), bid
        assert relay.room.counts["dropped"] == 0
        assert all(pub.connects >= 2 for _, pub, _, _ in boards.values())  # the restart was felt
        assert sum(sum(sim.referee.board.prisoners) for sim, _, _, _ in boards.values()) > 0
    finally:
        for sim, pub, _, _ in boards.values():
            pub.close()
            sim.close()
        relay.stop()
        broker.stop()
