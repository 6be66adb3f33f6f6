"""The relay's lanes (host_sim/room/lanes.py): one MQTT connection a board;
the main connection narrows to finding boards once a lane is up; a broker
config without lane users (written before them) leaves every board on the
main connection, with one log line, and the room works as before."""
import logging
import os

import pytest

from conftest import require
from gogadget.roomnames import T_GAME
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.relay import ALL_TOPICS, Relay
from room_boards import Publisher, SpecGame, wait_for


def shown_seq(relay, board):
    st = relay.room.boards.get(board)
    return st.game.seq if st is not None and st.game is not None else None


@pytest.mark.parametrize("lane_users", [True, False])
def test_every_board_is_shown_with_lanes_or_without(tmp_path, caplog, lane_users):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    caplog.set_level(logging.WARNING, logger="gogadget.relay")
    boards = ["table-1", "table-2", "table-3", "table-4"]
    broker = Broker(str(tmp_path / "broker"), boards=boards)
    if not lane_users:  # a config written before lanes
        path = os.path.join(broker.folder, "passwd")
        with open(path) as f:
            kept = [line for line in f if not line.startswith("relay.")]
        with open(path, "w") as f:
            f.writelines(kept)
    broker.start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "a"), "relay",
                  broker.creds["relay"]).start()
    pubs = []
    try:
        assert relay.connected.wait(20)
        # Each board says only its snapshot (no status first), one after the
        # other: a board that comes after the main connection narrowed is
        # found by its snapshot.
        for i, board in enumerate(boards):
            pub = Publisher(broker, board, broker.creds[board], clean=True)
            pubs.append(pub)
            g = SpecGame(board, game=i + 1)
            pub.send(T_GAME, g.snapshot())
            for p in ("cc", "gg"):
                pub.event(g, g.play(p))
            wait_for(lambda: shown_seq(relay, board) == 2, what=board + " on the page")
        stats = relay.stats()
        if lane_users:
            wait_for(lambda: relay.stats()["lanes"] == len(boards), what="every lane")
            assert relay.stats()["main"] != ALL_TOPICS
            assert not [r for r in caplog.records if "lane users" in r.getMessage()]
        else:
            assert stats["lanes"] == 0 and stats["main"] == ALL_TOPICS
            lines = [r.getMessage() for r in caplog.records if "lane users" in r.getMessage()]
            assert len(lines) == 1, lines
    finally:
        for pub in pubs:
            pub.close()
        relay.stop()
        broker.stop()
