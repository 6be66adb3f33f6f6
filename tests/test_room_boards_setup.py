"""gogadget room boards against a generated room on Mosquitto: each board
set up from credentials.csv and a template publishes with the firmware's
own publisher and the files written for it; a wrong password or board id,
a template that does not parse, an unknown key or a value out of range is
caught with the reason before anything of that board is written; the
secrets are 0600 from the first byte; a per-board image holds them."""
import json
import os
import stat
import threading
import time

import pytest

from conftest import require
from host_sim import cli
from host_sim.room.broker import Broker, find_mosquitto

BOARDS = ["table-1", "table-2", "table-3"]


@pytest.fixture
def room(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    b = Broker(str(tmp_path / "room"), boards=BOARDS).start()
    yield b
    b.stop()


def template(tmp_path, broker, **more):
    path = tmp_path / "room.json"
    path.write_text(json.dumps(dict({"broker": "127.0.0.1", "broker_port": broker.port,
                                     "size": 9, "preset": "japanese"}, **more)))
    return str(path)


def setup(tmp_path, broker, *extra, creds=None, tmpl=None):
    return cli.main(["room", "boards", "--credentials",
                     creds or os.path.join(broker.folder, "credentials.csv"),
                     "--template", tmpl or template(tmp_path, broker), "--boards",
                     "table-1..table-3"] + list(extra))


def test_each_board_set_up_publishes(room, tmp_path, capsys):
    stores = tmp_path / "stores"
    assert setup(tmp_path, room, "--sim-stores", str(stores)) == 0
    out = capsys.readouterr().out
    assert "3 boards set up" in out and "table-2: logged in at the broker" in out, out
    from gogadget.config import Config
    seen = {}
    got = threading.Event()
    import paho.mqtt.client as mqtt
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="check")
    sub.username_pw_set("relay", room.creds["relay"])

    def on_message(c, u, msg):
        seen.setdefault(msg.topic.split("/")[2], []).append(msg.topic)  # gogadget/board/ID/...
        if len(seen) == len(BOARDS):
            got.set()
    sub.on_message = on_message
    sub.connect("127.0.0.1", room.port)
    sub.subscribe("gogadget/#")
    sub.loop_start()
    from gogadget.broadcast import Broadcaster
    from host_sim.room import client
    from host_sim.sim.simboard import SimBoard
    sims = []
    try:
        for board in BOARDS:
            folder = stores / board
            for name in ("config.json", "secrets.json"):
                assert stat.S_IMODE(os.stat(folder / name).st_mode) == 0o600
            # the board's start: its files, read by the firmware
            config = Config.load(str(folder / "config.json")).load_secrets(
                str(folder / "secrets.json"))
            assert config.board_id == board and config.mqtt_password == room.creds[board]
            sim = SimBoard(size=config.size, store_dir=str(folder))
            url = "mqtt://%s:%d" % (config.broker, config.broker_port)
            cast = Broadcaster(client.factory(url, config.board_id, config.mqtt_password),
                               config.board_id)
            cast.attach(sim.app.referee)
            sims.append((sim, cast))
        deadline = time.time() + 20
        while not got.is_set() and time.time() < deadline:
            for sim, cast in sims:
                cast.poll(int(time.monotonic() * 1000))
            time.sleep(0.05)
        assert sorted(seen) == BOARDS, seen
    finally:
        sub.loop_stop()
        sub.disconnect()
        for sim, cast in sims:
            cast.close()
            sim.close()


def test_a_wrong_password_is_caught_before_the_board_leaves(room, tmp_path, capsys):
    creds = tmp_path / "stale.csv"
    text = open(os.path.join(room.folder, "credentials.csv")).read()
    creds.write_text(text.replace(room.creds["table-2"], "not-the-password"))
    stores = tmp_path / "stores"
    assert setup(tmp_path, room, "--sim-stores", str(stores), creds=str(creds)) == 1
    err = capsys.readouterr().err
    assert "table-2: the broker at mqtt://127.0.0.1:%d refused table-2's login" % room.port in err
    assert "a wrong password or board id" in err
    assert not (stores / "table-2").exists() and not (stores / "table-3").exists()


def test_a_wrong_board_id_and_bad_templates_write_nothing(room, tmp_path, capsys):
    stores = tmp_path / "stores"
    creds = os.path.join(room.folder, "credentials.csv")
    assert cli.main(["room", "boards", "--credentials", creds, "--template",
                     template(tmp_path, room), "--boards", "table-1,table-9",
                     "--sim-stores", str(stores)]) == 1
    assert "table-9: no user table-9 in the credentials (a wrong board id?)" in \
        capsys.readouterr().err
    bad = tmp_path / "bad.json"
    for text, why in (('{"broker": "127.0.0.1",', "is not valid JSON"),
                      ('{"broker": "127.0.0.1", "colour": 1}', "unknown setting colour"),
                      ('{"broker": "127.0.0.1", "max_brightness": 999}',
                       "max_brightness must be a whole number 1..255"),
                      ('{"size": 9}', "the template names no broker")):
        bad.write_text(text)
        assert setup(tmp_path, room, "--sim-stores", str(stores), tmpl=str(bad)) == 1
        assert why in capsys.readouterr().err, text
    assert not stores.exists()  # every board checked before the first is written


def test_a_board_image_holds_its_config_and_secrets(room, tmp_path, capsys):
    import test_uf2
    from host_sim.tools import update
    firmware = test_uf2.fake_firmware(tmp_path / "RPI_PICO_W.uf2", board="pico-w")
    out = tmp_path / "images"
    assert setup(tmp_path, room, "--images", str(firmware), "--out", str(out)) == 0
    for board in BOARDS:
        path = out / (board + ".uf2")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        files, kind = update.image_files(path)
        assert kind == "pico-w"
        assert json.loads(files["config.json"])["board_id"] == board
        assert json.loads(files["secrets.json"])["mqtt_password"] == room.creds[board]
