"""The Broadcaster on CPython through host_sim.room.client (umqtt.simple's
API on paho-mqtt) against a real Mosquitto, and gogadget.hw.net's Wi-Fi
with a fake `network` module."""
import sys
import time
import types

import pytest

from broadcast_view import sgf_moves
from gogadget.board import OK
from gogadget.broadcast import Broadcaster
from gogadget.config import Config
from gogadget.hw import net
from gogadget.points import PASS, parse_vertex
from gogadget.referee import Referee
from test_room_publisher_mp import Subscriber, need_tools


@pytest.fixture
def broker(tmp_path):
    need_tools()
    from host_sim.room.broker import Broker
    b = Broker(str(tmp_path / "broker"), boards=["b1"], readers=["checker"])
    b.start()
    yield b
    b.stop()


def pump(b, until, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        b.poll(int(time.monotonic() * 1000) & 0x3FFFFFFF)
        if until():
            return True
        time.sleep(0.01)
    return False


def test_paho_adapter_publishes_and_survives_a_broker_restart(broker):
    from host_sim.room.client import factory
    sub = Subscriber(broker)
    ref = Referee(Config(size=9))
    ref.resume([], "", 0)
    b = Broadcaster(factory(broker.url, "b1", broker.creds["b1"], timeout=2.0), "b1",
                    referee=ref)
    idle = lambda: b.connected and not b.pending()  # noqa: E731
    try:
        assert pump(b, idle)
        for v in ("D4", "E5"):
            assert ref.external_move(ref.to_move(), parse_vertex(9, v)) == OK
            assert pump(b, idle)
        broker.stop()
        for v in ("C3", "pass"):
            pt = PASS if v == "pass" else parse_vertex(9, v)
            assert ref.external_move(ref.to_move(), pt) == OK
            pump(b, lambda: not b.connected, 5)
        assert ref.undo()
        pump(b, lambda: False, 0.2)
        assert not b.connected and b.pending() >= 3
        broker.start()
        assert pump(b, idle, 40), b.error
        assert sub.wait_for(lambda: sub.view().seq == ref.log.seq, 20)
        view = sub.view()
        assert [s for _, s, _ in view.shown] == [1, 2, 3, 4, 5] and view.gaps == 0
        assert view.moves == sgf_moves(ref.board)
        b.close()  # says offline itself, then DISCONNECT
        assert sub.wait_for(lambda: sub.view().status == {"v": 1, "online": False})
    finally:
        b.close()
        sub.close()


def test_paho_adapter_refusal_and_will(broker):
    from host_sim.room.client import MQTTException, PahoClient
    bad = PahoClient("b1", broker.host, broker.port, "b1", "wrong", timeout=5)
    with pytest.raises(MQTTException) as exc:
        bad.connect(True)
    assert exc.value.args[0] == 5  # not authorised, as umqtt.simple says it
    sub = Subscriber(broker)
    c = PahoClient("b1", broker.host, broker.port, "b1", broker.creds["b1"])
    c.set_last_will(b"gogadget/board/b1/status", b'{"v":1,"online":false}', True, 1)
    c.connect(True)
    c.publish(b"gogadget/board/b1/status", memoryview(b'{"v":1,"online":true}'), True, 1)
    c.close()  # gone without DISCONNECT: the broker sends the will
    assert sub.wait_for(lambda: [p for t, p, _ in sub.messages] == [
        b'{"v":1,"online":true}', b'{"v":1,"online":false}'], 10), sub.messages
    with pytest.raises(OSError):
        c.publish(b"gogadget/board/b1/status", b"{}", True, 1)
    sub.close()


class FakeWlan:
    def __init__(self):
        self.joins = []
        self.connected = False
        self.state = 1

    def active(self, on):
        self.on = on

    def connect(self, ssid, password):
        self.joins.append((ssid, password))
        self.state = 1

    def isconnected(self):
        return self.connected

    def status(self):
        return self.state

    def ifconfig(self):
        return ("192.168.1.23", "255.255.255.0", "192.168.1.1", "192.168.1.1")


def test_wifi_joins_without_waiting_and_again_after_a_failure(monkeypatch):
    wlan = FakeWlan()
    fake = types.SimpleNamespace(STA_IF=0, WLAN=lambda i: wlan, STAT_IDLE=0, STAT_CONNECTING=1,
                                 STAT_WRONG_PASSWORD=-3, STAT_NO_AP_FOUND=-2,
                                 STAT_CONNECT_FAIL=-1, STAT_GOT_IP=3,
                                 hostname=lambda name: None)
    monkeypatch.setitem(sys.modules, "network", fake)
    wifi = net.Wifi("room", "secret", "b1").start()
    assert wlan.joins == [("room", "secret")] and wlan.on is True
    assert not wifi.ready() and len(wlan.joins) == 1  # joining: not again
    wlan.state = -2  # no access point found: join again, still no wait
    assert not wifi.ready() and len(wlan.joins) == 2
    wlan.connected, wlan.state = True, 3
    assert wifi.ready() and len(wlan.joins) == 2


def test_config_keeps_the_passwords_apart(tmp_path):
    path = str(tmp_path / "config.json")
    secrets = str(tmp_path / "secrets.json")
    c = Config(board_id="b1", broker="10.0.0.5", wifi_ssid="room", wifi_password="w",
               mqtt_password="m")
    c.save(path)
    text = open(path).read()
    assert "10.0.0.5" in text and '"w"' not in text and '"m"' not in text
    back = Config.load(path)
    assert back.mqtt_password == "" and back.broker == "10.0.0.5"
    with open(secrets, "w") as f:
        f.write('{"mqtt_password": "m", "wifi_password": "w"}')
    back.load_secrets(secrets)
    assert (back.mqtt_password, back.wifi_password) == ("m", "w")
    with open(secrets, "w") as f:
        f.write('{"broker": "evil"}')
    with pytest.raises(ValueError, match="may hold only"):
        Config.load(path).load_secrets(secrets)
    with pytest.raises(ValueError, match="board_id"):
        Config(board_id="a/b", broker="10.0.0.5").validate()
    with pytest.raises(ValueError, match="needs a board_id"):
        Config(broker="x").validate()
