"""The relay's lanes (host_sim/room/lanes.py): one MQTT connection a board;
the main connection narrows to finding boards once a lane is up; a broker
config without lane users (written before them) leaves every board on the
main connection, with one log line, and the room works as before."""
import logging
import os
import threading

import pytest

from conftest import require
from gogadget.roomnames import T_GAME, T_MOVE
from host_sim.room.broker import Broker, find_mosquitto, free_port
from host_sim.room.lanes import Lanes
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


def test_an_event_sent_to_the_main_connection_before_the_lane_subscribed_is_read(tmp_path):
    """The broker sends a board's event to the main connection before its
    lane subscribes (the lane never gets it); the main connection's thread
    reads it after the lane is up.  It is read, not dropped as a copy of
    the lane's: a move the room would otherwise learn only from the
    snapshot after it (and in a loaded room, seen as a gap)."""
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=["b1"]).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "a"), "relay",
                  broker.creds["relay"]).start()
    pub = None
    try:
        assert relay.connected.wait(20) and relay.subscribed.wait(20)
        # The lane opens when the test says, and the main connection's
        # thread reads its messages once the lane is up: the order the
        # flaky run took, made certain.
        wanted, open_lane = [], relay.lanes.wanted
        relay.lanes.wanted = wanted.append
        lane_up = threading.Event()
        read = relay._on_message

        def late(client, userdata, msg):
            lane_up.wait(20)
            read(client, userdata, msg)
        relay.mqtt.on_message = late
        filed, file = [], relay._file

        def noted(topic, payload, retained):
            filed.append(topic.rsplit("/", 1)[-1])
            file(topic, payload, retained)
        relay._file = relay.lanes.put = noted
        pub = Publisher(broker, "b1", broker.creds["b1"])
        g = SpecGame("b1", game=2)
        pub.online()
        pub.send(T_GAME, g.snapshot())
        pub.event(g, g.play("ee"))
        pub.flush()  # acknowledged: the broker has queued all four for the main connection
        open_lane("b1")
        wait_for(lambda: relay.lanes.live("b1"), what="b1's lane")
        lane_up.set()
        wait_for(lambda: shown_seq(relay, "b1") == 1 and filed.count(T_MOVE) == 1,
                 what="the move read from the main connection")
        assert relay.room.counts["dropped"] == 0
    finally:
        if pub is not None:
            pub.close()
        relay.stop()
        broker.stop()


def test_the_main_connection_narrows_once_a_lane_is_subscribed_not_connected():
    """Narrowed at the lane's CONNACK, the main connection's unsubscribe
    could reach the broker before the lane's subscribe: an event sent in
    between would go to neither.  At its SUBACK, the broker has the lane's
    subscription before it reads the unsubscribe."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode
    changes = []
    lanes = Lanes("127.0.0.1", free_port(), "relay", "pw", put=lambda *a: None,
                  on_change=lambda up, refused: changes.append((up, refused)))
    try:
        lanes.wanted("b1")
        c = lanes.clients["b1"]
        c.on_connect(c, None, None, ReasonCode(PacketTypes.CONNACK, "Success"))
        assert changes == [] and not lanes.live("b1")
        c.on_subscribe(c, None, 1, [ReasonCode(PacketTypes.SUBACK, "Granted QoS 1")])
        assert changes == [(True, False)] and lanes.live("b1")
    finally:
        lanes.stop()


def test_a_retained_status_sent_again_to_a_lane_does_not_undo_events_taken():
    """A lane coming up gets the board's retained status and snapshot again,
    while the main connection has already taken a newer move: the retained
    status is not the board's new word (it was heard before), so the older
    snapshot after it is stale and the move is not applied twice."""
    from gogadget.roomnames import T_STATUS, topic
    from host_sim.room.games import Room, heard
    from room_boards import SpecGame, encode, status

    room = Room()
    g = SpecGame("b1")
    assert room.handle(topic("b1", T_STATUS), encode(status())) == "applied"
    old_snapshot = encode(g.snapshot())
    assert room.handle(topic("b1", T_GAME), old_snapshot) == "applied"
    move = encode(g.play("cc", "B"))
    assert room.handle(topic("b1", T_MOVE), move) == "applied"
    # The lane's subscription: the retained status and snapshot, sent again.
    assert room.handle(topic("b1", T_STATUS), heard(encode(status()), True)) == "applied"
    assert room.handle(topic("b1", T_GAME), heard(old_snapshot, True)) == "stale"
    assert room.handle(topic("b1", T_MOVE), move) == "duplicate"  # the lane's copy of the move
    assert room.boards["b1"].game.seq == g.seq and len(room.boards["b1"].game.moves) == 1
    # A status the board publishes now still makes its next snapshot its word.
    assert room.handle(topic("b1", T_STATUS), encode(status())) == "applied"
    assert room.handle(topic("b1", T_GAME), old_snapshot) == "applied"
    assert room.boards["b1"].game.seq == g.seq - 1
