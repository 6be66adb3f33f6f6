"""The relay against a real Mosquitto (host_sim/room/broker.py): boards
publishing spec messages (docs/ROOM.md) with paho, a broker restart and a
relay restart mid-game, the archive checked against sgfmill's reading of
the moves sent, the HTTP side, and the `gogadget relay` command."""
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, require
from host_sim.room.broker import find_mosquitto, free_port
from host_sim.room.games import Room
from host_sim.room.hub import Hub
from host_sim.room.relay import Relay
from room_boards import Publisher, SpecGame, encode, status, wait_for


@pytest.fixture
def broker_factory(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    from host_sim.room.broker import Broker
    made = []

    def make(boards):
        b = Broker(str(tmp_path / "broker"), boards=boards).start()
        made.append(b)
        return b
    yield make
    for b in made:
        b.stop()


def start_relay(broker, archive, port=0, **kw):
    relay = Relay(broker.url, ("127.0.0.1", port), str(archive), "relay", broker.creds["relay"],
                  **kw).start()
    assert relay.connected.wait(20), "the relay did not connect"
    # Connected is not subscribed yet: a move a board sent before the
    # relay's subscription is for no one (its snapshot, retained, says it).
    assert relay.subscribed.wait(20), "the relay did not subscribe"
    return relay


def get(url, method="GET"):
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def sgfmill_moves(data, size):
    game = sgfmill_sgf.Sgf_game.from_bytes(data)
    assert game.get_size() == size
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if move is None:
            out.append((colour.upper(), ""))
        else:
            r, c = move
            out.append((colour.upper(), chr(97 + c) + chr(97 + size - 1 - r)))
    return game.get_root(), out


def shown(relay, board):
    st = relay.room.boards.get(board)
    return st.game if st is not None else None


def plan(board, size, moves, rng, cancel_at=None):
    """A board's game as (event, snapshot after it, published?) steps:
    random legal moves, a take-back now and then, two passes.  At move
    cancel_at the board makes a move and takes it back while it cannot
    publish: neither event is ever sent (docs/ROOM.md: they cancel out), so
    the next event arrives after a gap and the snapshot covers it."""
    g = SpecGame(board, game=5, size=size, black="Black " + board, white="White " + board)
    steps = []
    while len(g.moves) < moves:
        if len(g.moves) == cancel_at:
            steps.append((g.play(g.random_move(rng)), g.snapshot(), False))
            steps.append((g.undo(), g.snapshot(), False))
            cancel_at = None
        steps.append((g.play(g.random_move(rng)), g.snapshot(), True))
        if rng.random() < 0.06:
            steps.append((g.undo(), g.snapshot(), True))
    for _ in range(2):
        steps.append((g.play(""), g.snapshot(), True))
    return steps


def test_a_room_over_mosquitto_survives_broker_and_relay_restarts(broker_factory, tmp_path):
    ids = ["b1", "b2", "table-3"]
    sizes = {"b1": 9, "b2": 13, "table-3": 19}
    broker = broker_factory(ids)
    archive = tmp_path / "archive"
    relay = start_relay(broker, archive)
    rng = random.Random(2024)
    pubs = {b: Publisher(broker, b, broker.creds[b]) for b in ids}
    plans = {b: plan(b, sizes[b], {9: 40, 13: 60, 19: 80}[sizes[b]], rng,
                     cancel_at=35 if b == "b2" else None) for b in ids}
    for b in ids:
        pubs[b].online()
        first = SpecGame(b, game=5, size=sizes[b], black="Black " + b, white="White " + b)
        pubs[b].send("game", first.snapshot())
    sent = {b: 0 for b in ids}

    def send(b, k):
        """Board b publishes its planned steps up to k (the event, then the
        snapshot), as the firmware's publisher does."""
        while sent[b] < min(k, len(plans[b])):
            ev, snap, published = plans[b][sent[b]]
            if published:
                pubs[b].send("move", ev)
                pubs[b].send("game", snap)
            sent[b] += 1

    def caught_up(r):
        return all(shown(r, b) is not None and shown(r, b).seq == plans[b][sent[b] - 1][0]["seq"]
                   for b in ids)

    for b in ids:
        send(b, len(plans[b]) // 3)
        pubs[b].flush()
    wait_for(lambda: caught_up(relay), what="the first third")

    # The broker goes away mid-game; the boards keep playing (paho queues
    # QoS 1 messages and sends them once the broker is back).
    broker.stop()
    wait_for(lambda: not relay.connected.is_set(), what="the relay to notice")
    for b in ids:
        send(b, sent[b] + 3)
    time.sleep(0.5)
    broker.start()
    for b in ids:
        pubs[b].flush(30)
        # The publisher resends from its last acknowledged state: duplicates.
        for ev, snap, published in plans[b][sent[b] - 3:sent[b]]:
            if published:
                pubs[b].send("move", ev)
                pubs[b].send("game", snap)
        pubs[b].flush()
    assert relay.connected.wait(20)
    wait_for(lambda: caught_up(relay), what="the relay after the broker's restart")

    # The relay goes away (a clean stop: its session stays on the broker)
    # while the boards play on, b2 through its cancelled move; a new relay
    # with the same client id gets everything that was queued for it.
    relay.stop()
    for b in ids:
        send(b, 2 * len(plans[b]) // 3)
        pubs[b].flush()
    relay = start_relay(broker, archive)
    wait_for(lambda: caught_up(relay), what="the new relay to catch up")

    # To the end: two passes (in the plan), then the board's count.
    results = {"b1": "B+3.5", "b2": "W+R", "table-3": "W+0.5"}
    for b in ids:
        send(b, len(plans[b]))
        last_snap = plans[b][-1][1]
        end_seq = last_snap["seq"] + 1
        pubs[b].send("move", {"v": 1, "game": 5, "seq": end_seq, "t": "end", "result": results[b]})
        pubs[b].send("game", dict(last_snap, seq=end_seq, phase="over", result=results[b]))
        pubs[b].flush()
    for b in ids:
        wait_for(lambda: (archive / ("%s-5.sgf" % b)).exists(), what="%s archived" % b)

    for b in ids:
        data = (archive / ("%s-5.sgf" % b)).read_bytes()
        root, moves = sgfmill_moves(data, sizes[b])
        final = plans[b][-1][1]
        sent_moves = [(node[0], node[2:-1]) for node in final["moves"].split(";")[1:]]
        assert moves == sent_moves, b
        assert root.get("RE") == results[b] and root.get("PB") == "Black " + b
        code, headers, body = get(relay.url + "/game/%s-5.sgf" % b)
        assert code == 200 and body == data
        # The relay's position is the rules core's; its prisoners match the board's.
        card = json.loads(relay.room.summary(relay.room.boards[b]))
        assert card["captures"] == final["prisoners"]
    assert relay.room.counts["dropped"] == 0

    # /games.json: every game with its state.
    code, headers, body = get(relay.url + "/games.json")
    assert code == 200 and headers["Content-Type"] == "application/json"
    listed = {g["id"]: g for g in json.loads(body)["games"]}
    assert set(listed) == {"b1-5", "b2-5", "table-3-5"}
    g = listed["table-3-5"]
    assert (g["board"], g["game"], g["size"], g["phase"], g["result"], g["online"]) == (
        "table-3", 5, 19, "over", "W+0.5", True)
    assert g["black"] == "Black table-3"
    assert g["moves"] == len(plans["table-3"][-1][1]["moves"].split(";")) - 1

    # A board that drops off the network: its last will says offline.
    pubs["b1"].c.loop_stop()
    pubs["b1"].c.socket().close()
    wait_for(lambda: relay.room.boards["b1"].status["online"] is False, timeout=40,
             what="b1's last will")
    for b in ids[1:]:
        pubs[b].close()
    relay.stop()


def test_http_is_read_only_and_sse_starts_with_the_full_state(broker_factory, tmp_path):
    broker = broker_factory(["b1"])
    relay = start_relay(broker, tmp_path / "archive")
    try:
        pub = Publisher(broker, "b1", broker.creds["b1"])
        g = SpecGame("b1", game=2)
        pub.online()
        pub.send("game", g.snapshot())
        pub.event(g, g.play("ee"))
        pub.flush()
        wait_for(lambda: shown(relay, "b1") and shown(relay, "b1").seq == 1
                 and relay.stats()["messages"] >= 4)

        def never(*args, **kw):
            raise AssertionError("the relay published %r" % (args,))
        relay.mqtt.publish = never  # nothing a browser does may reach MQTT
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FOO"):
            code, headers, _ = get(relay.url + "/games.json", method)
            assert code == 405 and headers["Allow"] == "GET", method
        for path in ("/nope", "/game/b1-3.sgf", "/game/..%2F..%2Fetc%2Fpasswd-1.sgf",
                     "/static/../relay.py", "/game/b1.sgf"):
            assert get(relay.url + path)[0] == 404, path
        code, headers, body = get(relay.url + "/")
        assert code == 200 and b"room.js" in body and "text/html" in headers["Content-Type"]
        assert get(relay.url + "/static/room.js")[0] == 200
        assert get(relay.url + "/static/room.css")[0] == 200
        code, headers, body = get(relay.url + "/stats.json")
        stats = json.loads(body)
        assert code == 200 and stats["boards"] == 1 and stats["online"] == 1 and stats["broker"]
        assert stats["messages"] >= 4 and stats["dropped"] == 0
        code, headers, body = get(relay.url + "/game/b1-2.sgf")
        assert code == 200 and b";B[ee]" in body and "RE[" not in body.decode()

        # /events: the state first, then an update when a move arrives.
        host, port = relay.httpd.server_address[:2]
        s = socket.create_connection((host, port), timeout=10)
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        f = s.makefile("rb")
        assert b"200" in f.readline()
        while f.readline() not in (b"\r\n", b""):
            pass
        events = read_events(f, 1)
        assert events[0][0] == "state"
        state = json.loads(events[0][1])
        assert state["relay"]["broker"] is True
        assert [b["id"] for b in state["boards"]] == ["b1"] and state["boards"][0]["n"] == 1
        pub.event(g, g.play("cc"))
        pub.flush()
        # An update of the room as it was (the board's presence, say) may
        # come first; the move's own must follow, and nothing else.
        moves = "Bee"
        while moves != "Bee,Wcc":
            name, data = read_events(f, 1)[0]
            if name == "update":
                moves = json.loads(data)["boards"][0]["moves"]
                assert moves in ("Bee", "Bee,Wcc"), moves
        s.close()
        pub.close()
    finally:
        relay.stop()


def read_events(f, count):
    out = []
    name, data = "message", []
    while len(out) < count:
        line = f.readline()
        if not line:
            raise AssertionError("the event stream ended")
        line = line.rstrip(b"\r\n").decode()
        if line == "":
            if data:
                out.append((name, "\n".join(data)))
            name, data = "message", []
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
    return out


def test_a_browser_that_stops_reading_is_dropped_not_buffered():
    """A slow client's queue is bounded: once it is that far behind it is
    dropped (its EventSource reconnects to a fresh state)."""
    room = Room()
    hub = Hub(room, coalesce=0.001, client_limit=20000)
    hub.start()
    try:
        stuck = hub.add()  # never reads
        g = SpecGame("b1", size=19)
        room.handle("gogadget/board/b1/game", encode(g.snapshot()))
        rng = random.Random(1)
        for _ in range(30):
            room.handle("gogadget/board/b1/move", encode(g.play(g.random_move(rng))))
        end = time.monotonic() + 20
        k = 0
        while not stuck.dropped and time.monotonic() < end:
            k += 1  # every status change is one more update for the stuck browser
            room.handle("gogadget/board/b1/status", encode(status(True, k % 1000)))
            hub.changed()
            time.sleep(0.003)
        assert stuck.dropped and stuck not in hub.clients and hub.drops == 1
        assert stuck.size == 0 and stuck.take(0) is None
    finally:
        hub.stop()


def test_the_relay_command(broker_factory, tmp_path):
    broker = broker_factory(["b1"])
    port = free_port()
    archive = tmp_path / "arch"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_sim.cli", "relay", "--broker", broker.url,
         "--http", "127.0.0.1:%d" % port, "--archive", str(archive),
         "--credentials", os.path.join(broker.folder, "credentials.csv")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
    try:
        line = proc.stdout.readline()
        assert "127.0.0.1:%d" % port in line, line + proc.stderr.read()
        pub = Publisher(broker, "b1", broker.creds["b1"])
        g = SpecGame("b1", game=9, black="Cho Chikun")
        pub.online()
        pub.send("game", g.snapshot())
        pub.flush()
        # the relay is subscribed once it shows the game (a message before that is not its)
        wait_for(lambda: "Cho Chikun" in str(get("http://127.0.0.1:%d/games.json" % port)[2]),
                 what="the relay showing the game")
        pub.event(g, g.play("ee"))
        pub.send("move", b'{"v":1,"game":9,"seq":"two"}')  # malformed: one log line, no crash
        pub.event(g, g.end("B+R"))
        pub.flush()
        wait_for(lambda: (archive / "b1-9.sgf").exists(), what="the archive")
        code, _, body = get("http://127.0.0.1:%d/games.json" % port)
        games = json.loads(body)["games"]
        assert code == 200 and games[0]["black"] == "Cho Chikun" and games[0]["result"] == "B+R"
        pub.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    drops = [l for l in err.splitlines() if "drop" in l]
    assert len(drops) == 1 and "seq is not an integer" in drops[0], err


def test_the_relay_command_refuses_a_bad_address(tmp_path):
    from host_sim.cli import main
    assert main(["relay", "--broker", "http://x", "--archive", str(tmp_path)]) == 2
    assert main(["relay", "--broker", "mqtt://127.0.0.1:1", "--http", "nowhere",
                 "--archive", str(tmp_path)]) == 2


def test_the_full_state_reaches_a_new_browser_however_large_the_room():
    room = Room()
    for i in range(20):
        room.handle("gogadget/board/b%d/game" % i, encode(SpecGame("b%d" % i).snapshot()))
    hub = Hub(room, client_limit=500)  # far less than the state
    c = hub.add()
    data = c.take(0)
    assert not c.dropped and data.count(b'"id":') == 20 and data.startswith(b"retry: ")
