"""The firmware's MQTT publisher under the MicroPython unix port, with the
real umqtt.simple (build/lib, `make umqtt`) against a real Mosquitto: an
App on a fake board plays, a paho subscriber with the relay's credentials
checks what arrives (docs/ROOM.md)."""
import json
import os
import subprocess
import threading
import time

import pytest

from broadcast_view import View
from conftest import CI, FIRMWARE, ROOT, micropython_path, require
from host_sim.room.messages import parse
from host_sim.tools import mqttlib

MP = ROOT / "tests" / "mp"


def need_tools():
    require("mosquitto", "(apt-get install mosquitto; .ci/run does)") if not os.path.exists(
        "/usr/sbin/mosquitto") else None
    micropython_path()
    if not mqttlib.present():
        msg = "umqtt.simple is not in build/lib (make umqtt)"
        if CI:
            pytest.fail(msg)
        pytest.skip(msg)


def mp_env():
    return dict(os.environ, MICROPYPATH=":".join(
        [str(FIRMWARE), str(mqttlib.LIB), str(MP), ".frozen"]))


@pytest.fixture
def broker(tmp_path):
    need_tools()
    from host_sim.room.broker import Broker
    b = Broker(str(tmp_path / "broker"), boards=["b1", "b2"], readers=["checker", "late", "late2"])
    b.start()
    yield b
    b.stop()


class Subscriber:
    """The relay's view of the room: every message, in arrival order; a
    persistent session, so a broker restart loses nothing queued for it."""

    def __init__(self, broker, client_id="checker", clean=False):
        import paho.mqtt.client as mqtt
        self.messages = []
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                        clean_session=clean, protocol=mqtt.MQTTv311)
        # One reader user a subscriber: the broker ties client ids to users.
        c.username_pw_set(client_id, broker.creds[client_id])
        c.reconnect_delay_set(0.1, 0.5)
        c.on_connect = self._on_connect
        c.on_message = self._on_message
        c.on_subscribe = lambda *a: self.subscribed.set()
        c.connect(broker.host, broker.port, 30)
        c.loop_start()
        self.c = c
        assert self.subscribed.wait(10), "subscriber did not subscribe"

    def _on_connect(self, client, userdata, flags, rc, props=None):
        client.subscribe("gogadget/board/#", qos=1)

    def _on_message(self, client, userdata, msg):
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload), msg.retain))

    def view(self, board="b1"):
        v = View()
        with self.lock:
            msgs = list(self.messages)
        for topic, payload, _ in msgs:
            if topic.startswith("gogadget/board/%s/" % board):
                assert parse(topic, payload)[1] is None, (topic, payload)
                v.handle(topic, payload)
        return v

    def wait_for(self, pred, timeout=10):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return True
            time.sleep(0.05)
        return False

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


class MpBoard:
    """The room_board.py process: one command, one JSON answer."""

    def __init__(self, broker, board_id, store, password=None, size=9, pairing=()):
        """pairing: (opponent, colour, pair id) for a game against another board."""
        self.proc = subprocess.Popen(
            [micropython_path(), str(MP / "room_board.py"), broker.host, str(broker.port),
             board_id, password or broker.creds[board_id], str(store), str(size)]
            + list(pairing),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=mp_env())
        first = self.proc.stdout.readline()
        assert json.loads(first or "{}").get("ready"), first + self.proc.stderr.read()

    def __call__(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise AssertionError("board process died: " + self.proc.stderr.read())
        out = json.loads(answer)
        assert "error" not in out, (line, out, self.proc.stderr.read())
        return out["ok"]

    def close(self):
        if self.proc.poll() is None:
            try:
                self("quit")
            except (AssertionError, OSError, ValueError):
                pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def expect_current(view, state):
    assert view.game == state["game"] and view.seq == state["seq"], (view.seq, state)
    assert [list(m) for m in view.moves] == state["moves"]
    assert view.result == state["result"]


def test_firmware_publishes_a_game_to_mosquitto(broker, tmp_path):
    sub = Subscriber(broker)
    board = MpBoard(broker, "b1", tmp_path / "store")
    try:
        assert board("flush")
        for v in ("D4", "E5", "C3"):
            assert board("play " + v)
        assert board("takeback")  # C3 taken back
        assert board("play G7")
        assert board("pass") and board("pass")
        assert board("confirm")  # the count: the game is over
        assert board("flush")
        state = board("state")
        assert state["phase"] == "over" and state["result"] and state["failures"] == 0
        assert sub.wait_for(lambda: sub.view().seq == state["seq"])
        view = sub.view()
        assert [k for _, _, k in view.shown] == ["move"] * 3 + ["undo"] + ["move"] * 3 + ["end"]
        assert [s for _, s, _ in view.shown] == list(range(1, 9))
        assert view.gaps == view.duplicates == 0
        expect_current(view, state)
        assert view.status == {"v": 1, "online": True, "faults": 0, "note": ""}
        # A late subscriber gets the board's game and status at once (retained).
        late = Subscriber(broker, "late", clean=True)
        assert late.wait_for(lambda: late.view().snapshot is not None and late.view().status)
        lv = late.view()
        expect_current(lv, state)
        assert lv.snapshot["phase"] == "over" and lv.snapshot["size"] == 9
        late.close()
        # The board leaves without DISCONNECT (its process ends): the will.
        board.proc.kill()
        board.proc.wait()
        assert sub.wait_for(lambda: sub.view().status == {"v": 1, "online": False}, 120)
    finally:
        board.close()
        sub.close()


def test_broker_restart_and_a_dropped_connection_lose_and_double_nothing(broker, tmp_path):
    sub = Subscriber(broker)
    board = MpBoard(broker, "b1", tmp_path / "store")
    try:
        assert board("play D4") and board("flush")
        broker.stop()  # mid-game: the board plays on, its publishes fail
        assert board("play E5")
        assert board("play C3")
        assert board("takeback")
        state = board("state")
        assert not state["connected"] and state["pending"] >= 3
        broker.start()
        assert board("flush"), board("state")
        assert board("play G7") and board("flush")
        # A Wi-Fi drop: the socket goes; the next publish fails and is redone.
        assert board("drop")
        assert board("play H8")
        assert board("play J9")
        assert board("flush")
        state = board("state")
        assert state["failures"] >= 2 and state["connects"] >= 3
        assert sub.wait_for(lambda: sub.view().seq == state["seq"], 20), sub.view().seq
        view = sub.view()
        assert [s for _, s, _ in view.shown] == list(range(1, state["seq"] + 1))
        assert view.gaps == 0
        expect_current(view, state)
        assert view.status["online"] is True
    finally:
        board.close()
        sub.close()


ACL_SCRIPT = r"""
import sys
from gogadget.config import Config
from gogadget.hw import net
host, port, pw = sys.argv[1], int(sys.argv[2]), sys.argv[3]
make = net.mqtt_factory(Config(board_id="b1", broker=host, broker_port=port, mqtt_password=pw))
c = make()
c.connect(True)
c.publish(b"gogadget/board/b2/game", b'{"v":1,"forged":true}', True, 1)  # b2's topic
c.publish(b"gogadget/board/b1/status", b'{"v":1,"online":true,"faults":0,"note":"acl"}', True, 1)
c.disconnect()
bad = net.mqtt_factory(Config(board_id="b1", broker=host, broker_port=port,
                              mqtt_password=pw + "x"))()
try:
    bad.connect(True)
    print("wrong password accepted")
except Exception as exc:
    print("refused", type(exc).__name__, exc.args[0] if exc.args else "")
"""


def test_acl_keeps_a_board_to_its_own_topic_and_passwords_count(broker, tmp_path):
    sub = Subscriber(broker)
    script = tmp_path / "acl.py"
    script.write_text(ACL_SCRIPT)
    res = subprocess.run([micropython_path(), str(script), broker.host, str(broker.port),
                          broker.creds["b1"]], capture_output=True, text=True, env=mp_env(),
                         timeout=60)
    assert res.returncode == 0, res.stderr
    # umqtt.simple raises MQTTException(5): not authorised.
    assert res.stdout.strip() == "refused MQTTException 5", res.stdout
    assert sub.wait_for(lambda: any(t == "gogadget/board/b1/status" for t, _, _ in sub.messages))
    time.sleep(0.5)
    topics = [t for t, _, _ in sub.messages]
    assert "gogadget/board/b2/game" not in topics  # Mosquitto dropped it
    late = Subscriber(broker, "late2", clean=True)
    time.sleep(0.5)
    assert [t for t, _, _ in late.messages] == ["gogadget/board/b1/status"]
    late.close()
    sub.close()


def test_idle_poll_allocates_nothing_and_the_heap_figures():
    """Under the unix port with the Pico W's heap: 540 polls with nothing
    new, heap locked (connected; and waiting to reconnect) -- any
    allocation would raise MemoryError -- and what the Broadcaster costs."""
    micropython_path()
    res = subprocess.run([micropython_path(), "-X", "heapsize=230k", str(MP / "room_heap.py"),
                          "19", "250"], capture_output=True, text=True, env=mp_env(), timeout=300)
    assert res.returncode == 0, res.stderr
    fig = json.loads(res.stdout.strip().splitlines()[-1])
    assert fig["locked_polls"] == 540 and fig["moves"] == 250
    assert fig["published"] == 2 + 2 * 250  # status, snapshot; then an event and a snapshot a move
    # 19x19: the snapshot is its head plus 6 bytes a move, streamed from
    # the board: no buffer grows with the game (the backlog's 512 bytes, the
    # event buffer, the tail's), and the Broadcaster stays under 3 KB.
    assert fig["snapshot_bytes"] <= 200 + 6 * 250
    assert fig["broadcaster_bytes"] < 3072 and fig["buffers_after_game"] < 1024
    print(fig)


def test_main_publishes_when_the_config_names_a_broker(broker, tmp_path):
    """firmware/main.py itself (pin-level fakes, tests/test_hw_main.py's
    script): config.json names the broker, secrets.json holds the password;
    the game goes out from the first scans, the move after them too."""
    from conftest import run_micropython
    from test_hw_main import SCRIPT
    sub = Subscriber(broker)
    before = ("sys.path.append(%r)\n" % str(mqttlib.LIB)
              + "f = open('config.json', 'w'); f.write(json.dumps({'size': size, 'scan_hz': 50, "
              "'board_id': 'b2', 'broker': %r, 'broker_port': %d})); f.close()\n"
              % (broker.host, broker.port)
              + "f = open('secrets.json', 'w'); f.write(json.dumps({'mqtt_password': %r})); "
              "f.close()\n" % broker.creds["b2"])
    r = run_micropython(code=SCRIPT % dict(fw=str(FIRMWARE), before=before), cwd=str(tmp_path))
    try:
        assert r.returncode == 0, r.stdout + r.stderr
        assert "publishing as b2 to 127.0.0.1:%d" % broker.port in r.stdout
        assert "moves ['D4']" in r.stdout
        assert sub.wait_for(lambda: sub.view("b2").seq == 1), sub.messages
        view = sub.view("b2")
        assert view.moves == [("B", "df")] and view.shown == [(1, 1, "move")]
        statuses = [json.loads(p)["online"] for t, p, _ in sub.messages
                    if t == "gogadget/board/b2/status"]
        assert statuses[0] is True  # (then the will, once the process has ended)
    finally:
        sub.close()
