"""gogadget room boards --port: each board plugged in on one port in turn,
its config and secrets written through mpremote and checked after its
restart (issue 38).  The board is a flash folder of this checkout's
firmware run by the MicroPython unix port with its GTP link on a TCP
console (tests/mp/port_board.py), as the emulated Pico's socket://
console; mpremote is tests/fake_mpremote.py on that folder.  The firmware
answers name, gogadget-maintenance, version and gogadget-config itself,
and restarts into maintenance (switch.py reads "maint") as a board does."""
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT, micropython_path
from host_sim import cli
from host_sim.tools import update as up


@pytest.fixture(scope="module")
def firmware_files():
    return up.build_files(stream=io.StringIO())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Port:
    """One port with a board plugged in on it: its flash folder run under the
    unix port, restarted when the firmware writes "maint" (the board's own
    restart) or mpremote asks for a reset."""

    def __init__(self, tmp_path):
        self.number = free_port()
        self.url = "socket://127.0.0.1:%d" % self.number
        self.control = tmp_path / "plugged"
        self.flash = None
        self.proc = None
        self.lock = threading.Lock()
        self.restarts = 0
        self.dead_after_reset = False  # (a test's board that does not come back)
        self.stopping = threading.Event()
        self.watch = threading.Thread(target=self._watch, daemon=True)
        self.watch.start()
        self.env = dict(os.environ, FAKE_PLUGGED=str(self.control),
                        FAKE_MICROPYTHON=micropython_path(),
                        MPREMOTE=str(tmp_path / "mpremote"))
        script = tmp_path / "mpremote"
        script.write_text("#!/bin/sh\nexec %s %s \"$@\"\n"
                          % (sys.executable, ROOT / "tests" / "fake_mpremote.py"))
        script.chmod(0o755)

    def plug(self, flash):
        with self.lock:
            self._stop()
            self.flash = flash
            self.control.write_text(str(flash))
            self._start()

    def _start(self):
        self.started = time.time()
        env = dict(os.environ, MICROPYPATH=":".join([str(self.flash),
                                                     str(ROOT / "tests" / "mp")]))
        self.proc = subprocess.Popen([micropython_path(), str(ROOT / "tests" / "mp" /
                                                              "port_board.py"),
                                      str(self.number)], cwd=str(self.flash), env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # its console open, as a board's after boot
            try:
                socket.create_connection(("127.0.0.1", self.number), 0.2).close()
                return
            except OSError:
                assert self.proc.poll() is None, "the board on the port stopped at its start"
                time.sleep(0.05)
        raise AssertionError("the board's console did not open")

    def _stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _watch(self):
        reset = str(self.control) + ".reset"
        while not self.stopping.wait(0.05):
            with self.lock:
                if self.flash is None:
                    continue
                restart = reset_asked = os.path.exists(reset)
                if restart:
                    os.remove(reset)
                # The firmware's maintenance restart: the app that wrote "maint"
                # restarts half a second later, its answer gone out.
                maint = self.flash / "maint"
                restart = restart or (maint.exists() and self.started < maint.stat().st_mtime
                                      < time.time() - 0.5)  # (restart.soon(500)'s wait)
                if restart:
                    self.restarts += 1
                    self._stop()
                    if not (reset_asked and self.dead_after_reset):
                        self._start()
                    else:  # a board that does not come back: its port gone
                        self.flash = None

    def close(self):
        self.stopping.set()
        self.watch.join()
        with self.lock:
            self._stop()


@pytest.fixture
def port(tmp_path, monkeypatch):
    p = Port(tmp_path)
    for k in ("FAKE_PLUGGED", "FAKE_MICROPYTHON", "MPREMOTE"):
        monkeypatch.setenv(k, p.env[k])
    yield p
    p.close()


def board_flash(tmp_path, name, files):
    flash = tmp_path / name
    for rel, data in files.items():
        (flash / rel).parent.mkdir(parents=True, exist_ok=True)
        (flash / rel).write_bytes(data)
    (flash / "config.json").write_text('{"size": 9}')
    return flash


@pytest.fixture
def room(tmp_path):
    from conftest import require
    from host_sim.room.broker import Broker, find_mosquitto
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    b = Broker(str(tmp_path / "room"), boards=["table-1", "table-2"]).start()
    yield b
    b.stop()


def template(tmp_path, room):
    tmpl = tmp_path / "room.json"
    tmpl.write_text(json.dumps({"broker": "127.0.0.1", "broker_port": room.port, "size": 9,
                                "preset": "japanese"}))
    return str(tmpl)


def _with_ask(tmp_path, room, port, ask, tmpl):
    from host_sim.room import boards as room_boards
    args = cli.parser().parse_args(["room", "boards", "--credentials",
                                    os.path.join(room.folder, "credentials.csv"),
                                    "--template", tmpl, "--boards", "table-1,table-2",
                                    "--port", port.url])
    out = io.StringIO()
    code = room_boards.cmd_boards(args, stream=out, ask=ask)
    return code, out.getvalue()


def test_each_board_plugged_in_in_turn_is_set_up_and_checked(room, port, tmp_path,
                                                             firmware_files):
    flashes = [board_flash(tmp_path, "board-%d" % i, firmware_files) for i in (1, 2)]
    plugged = []

    def ask(prompt):  # the organiser plugs in the next board, then Enter
        assert port.url in prompt
        port.plug(flashes[len(plugged)])
        plugged.append(prompt)
        return ""
    code, out = _with_ask(tmp_path, room, port, ask, template(tmp_path, room))
    assert code == 0, out
    assert "2 boards set up" in out and len(plugged) == 2, out
    for flash, bid in zip(flashes, ("table-1", "table-2")):
        config = json.loads((flash / "config.json").read_text())
        secrets = json.loads((flash / "secrets.json").read_text())
        assert config["board_id"] == bid and config["broker_port"] == room.port
        assert secrets["mqtt_password"] == room.creds[bid]
        assert not (flash / "config.json.tmp").exists() and not (flash / "maint").exists()
        assert "%s: firmware 0.2.0" % bid in out and "%s: ready (%s)" % (bid, port.url) in out
    assert port.restarts >= 4  # each: its maintenance restart, then the reset after the files


def test_a_board_that_is_not_a_go_gadget_is_refused_and_left_as_it_was(room, port, tmp_path,
                                                                      capsys):
    flash = tmp_path / "plain"
    flash.mkdir()
    (flash / "boot.py").write_text("# a plain MicroPython board\n")
    before = sorted(p.name for p in flash.iterdir())

    def ask(prompt):
        port.plug(flash)
        return ""
    code, out = _with_ask(tmp_path, room, port, ask, template(tmp_path, room))
    assert code == 1 and "ready" not in out
    assert "is not a Go Gadget (no main.py and gogadget/)" in capsys.readouterr().err
    assert sorted(p.name for p in flash.iterdir()) == before  # nothing written on it


def test_a_board_unknown_to_the_room_stops_before_any_board_is_plugged(room, port, tmp_path,
                                                                      capsys):
    asked = []
    args = cli.parser().parse_args(["room", "boards", "--credentials",
                                    os.path.join(room.folder, "credentials.csv"),
                                    "--template", template(tmp_path, room),
                                    "--boards", "table-1,table-9", "--port", port.url])
    from host_sim.room import boards as room_boards
    assert room_boards.cmd_boards(args, stream=io.StringIO(), ask=asked.append) == 1
    assert asked == [] and "table-9: no user table-9 in the credentials" in capsys.readouterr().err
