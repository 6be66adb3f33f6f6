"""gogadget update on the emulated Pico (rp2040py, the official MicroPython
UF2) through the real mpremote over its console (socket://): a board with
a game under way, running the firmware, is asked to restart for
maintenance (GTP gogadget-maintenance: main.py's switch then starts no
game once, the REPL free), gets this checkout's firmware, restarts on it
and goes on with its game over GTP.

The console copies about 2.6 KB/s of wall time: the update takes ~8
minutes here.  Without a UF2 these tests skip with the reason, CI
included (conftest.need_emulator)."""
import io
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, need_emulator, run_micropython
from host_sim import rp2
from host_sim.tools import formats as fm
from host_sim.tools import update as up

import test_update

pytestmark = pytest.mark.timeout(1800)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def board_flash(tmp_path):
    """The flash of a Pico running this firmware as version 0.1.9, with a
    game of 6 moves under way (played by the unix port on the same files)."""
    files = up.build_files(stream=io.StringIO())
    files[fm.MANIFEST] = json.dumps(dict(json.loads(fm.manifest("pico", "abc")),
                                         version="0.1.9")).encode()
    flash = tmp_path / "flash"
    for rel, data in files.items():
        (flash / rel).parent.mkdir(parents=True, exist_ok=True)
        (flash / rel).write_bytes(data)
    (flash / "config.json").write_text('{"size": 9}')
    r = run_micropython(code=test_update.GAME, args=["x", "6"], cwd=str(flash),
                        path=[flash, ROOT / "tests" / "mp"])
    assert "MOVES 6" in r.stdout, r.stdout + r.stderr
    found = {p.relative_to(flash).as_posix(): p.read_bytes() for p in flash.rglob("*")
             if p.is_file()}
    dirs = []
    for rel in sorted(found):
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.append(d)
    return rp2.flash_image(tmp_path / "flash.img", files=found, dirs=dirs), found


def gtp(url, *commands, timeout=420):
    """The answers to commands over the console (each with its id: the
    board's boot text and late answers are passed over)."""
    t = up.transport_for(url)
    try:
        out = []
        for c in commands:
            got = up.ask(t, c, timeout, every=20)
            assert got is not None, "no answer to %s in %d s" % (c, timeout)
            out.append(got)
        return out
    finally:
        t.close()


def test_update_on_the_emulated_pico_keeps_the_game(tmp_path):
    firmware = need_emulator()
    image, before = board_flash(tmp_path)
    port = _free_port()
    log = open(tmp_path / "serve.log", "w+")
    dump = tmp_path / "after.img"
    emu = subprocess.Popen([sys.executable, "-m", "host_sim.rp2.serve", "--tcp-port", str(port),
                            "--image", str(firmware), "--flash", str(image),
                            "--dump-fs", str(dump)], cwd=str(ROOT), stdout=log,
                           stderr=subprocess.STDOUT)
    url = "socket://127.0.0.1:%d" % port
    try:
        deadline = time.time() + 120
        while "listening" not in (tmp_path / "serve.log").read_text():
            assert emu.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.time() < deadline, "emulator did not come up"
            time.sleep(0.2)
        status, = gtp(url, "gogadget-status")
        assert "moves=6" in status, status
        res = subprocess.run([sys.executable, "-m", "host_sim.cli", "update", "--port", url,
                              "--wait", "420"],  # (the emulated Pico boots slowly)
                             cwd=str(ROOT), capture_output=True, text=True, timeout=1500)
        out = res.stdout + res.stderr
        assert res.returncode == 0, out
        assert "restarting for the update" in out, out
        assert "firmware 0.1.9" in out and "-> 0.2.0" in out, out
        assert "now runs 0.2.0" in out and "kept config.json, games/journal.bin" in out, out
        assert "back, running 0.2.0" in out, out
        version, status = gtp(url, "version", "gogadget-status")
        assert version.startswith("0.2.0"), version
        assert "moves=6" in status, status  # the game goes on, on the new firmware
    finally:
        emu.terminate()
        try:
            emu.wait(60)
        except subprocess.TimeoutExpired:
            emu.kill()
            emu.wait()
        log.close()
    after = rp2.read_image(dump)
    assert after["config.json"] == before["config.json"]
    assert after["games/journal.bin"] == before["games/journal.bin"]
    assert json.loads(after[fm.MANIFEST])["version"] == "0.2.0"
    assert not any(k.startswith(("gogadget.new/", "gogadget.old/")) for k in after)
    assert "maint" not in after
