"""The firmware on an emulated Raspberry Pi Pico (rp2040py's RP2040).

The on-board game runs on the file a maker flashes: `make image` of the
official MicroPython UF2 you supply (GOGADGET_UF2, or the cache folder: see
conftest.need_emulator) booted alone, its filesystem the only files on flash:
main.py boots as on a board, a short game is played through the real scan
path (mux select GPIOs -> ADC), the LED chain is read back from the pin the
PIO + DMA program drives, and GTP goes over the emulated USB console.

The developer's quick loop stays tested too, but lean: `make deploy` with
the real mpremote onto the official UF2 alone, then that flash booted and
asked its version.

The emulator runs at about 1/14-1/25 of real time, so the board is deployed
once per session and the game is short.  Without a UF2 these tests skip,
under CI=true too (no registry ships one); without rp2040py they skip, and
fail under CI=true.
"""
import asyncio
import io
import socket
import subprocess
import sys
import time

import pytest

from conftest import ROOT, need_emulator

from host_sim import rp2

pytestmark = pytest.mark.timeout(900)

SIZE = 9


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def deployed(tmp_path_factory):
    """`make deploy PORT=socket://127.0.0.1:N` against an emulated Pico with
    empty flash; the flash it leaves behind (dumped when the emulator stops)
    and mpremote's output."""
    firmware = need_emulator()
    tmp = tmp_path_factory.mktemp("rp2")
    port = _free_port()
    dump = tmp / "flash.img"
    log = open(tmp / "serve.log", "w+")
    emu = subprocess.Popen([sys.executable, "-m", "host_sim.rp2.serve", "--tcp-port", str(port),
                            "--image", str(firmware), "--dump-fs", str(dump)],
                           cwd=str(ROOT), stdout=log,
                           stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while "listening" not in (tmp / "serve.log").read_text():
            assert emu.poll() is None, (tmp / "serve.log").read_text()
            assert time.time() < deadline, "emulator did not come up"
            time.sleep(0.2)
        url = "socket://127.0.0.1:%d" % port
        from host_sim.tools import mpy
        mpy.manifest_path(url).unlink(missing_ok=True)  # a port number used before
        first = subprocess.run(["make", "deploy", "PORT=" + url], cwd=str(ROOT),
                               capture_output=True, text=True, timeout=600)
        built = mpy.file_hashes()
        again = subprocess.run(["make", "deploy", "PORT=" + url], cwd=str(ROOT),
                               capture_output=True, text=True, timeout=600)
        rebuilt = mpy.file_hashes()
        snapshot = {rel: (mpy.BUILD / rel).read_bytes() for rel in rebuilt}
    finally:
        emu.terminate()
        try:
            emu.wait(60)
        except subprocess.TimeoutExpired:
            emu.kill()
            emu.wait()
        mpy.manifest_path("socket://127.0.0.1:%d" % port).unlink(missing_ok=True)
        log.close()
    return {"first": first, "again": again, "flash": dump, "port": port, "firmware": firmware,
            "built": built, "rebuilt": rebuilt, "snapshot": snapshot,
            "log": (tmp / "serve.log").read_text()}


def test_make_deploy_with_real_mpremote(deployed):
    first, again = deployed["first"], deployed["again"]
    assert first.returncode == 0, first.stdout + first.stderr
    built, rebuilt = deployed["built"], deployed["rebuilt"]
    assert "%d copied, 0 removed" % len(built) in first.stdout, first.stdout
    assert again.returncode == 0, again.stdout + again.stderr
    changed = sorted(rel for rel in rebuilt if built.get(rel) != rebuilt[rel])
    gone = sorted(rel for rel in built if rel not in rebuilt)
    if not changed and not gone:
        # Nothing changed: the second deploy does not even start mpremote.
        assert "up to date (%d files)" % len(built) in again.stdout, again.stdout
    else:  # firmware/ changed in between (a shared tree): exactly that is sent
        assert "%d copied, %d removed" % (len(changed), len(gone)) in again.stdout, again.stdout
    assert "flash written" in deployed["log"], deployed["log"]
    on_flash = rp2.read_image(deployed["flash"])
    for rel, data in deployed["snapshot"].items():
        assert on_flash.get(rel) == data, rel
    for rel in gone:
        assert rel not in on_flash


def _game_image(tmp_path, flash):
    """The deployed files of a dumped flash, with a config for a 9x9 board."""
    files = rp2.read_image(flash)
    files["config.json"] = b'{"size": %d}' % SIZE
    dirs = sorted({"/".join(p.split("/")[:k]) for p in files for k in range(1, p.count("/") + 1)},
                  key=lambda d: d.count("/"))
    return rp2.flash_image(tmp_path / "game.img", None, files, dirs=dirs)


@pytest.mark.timeout(600)
def test_deployed_mpy_boots_on_the_official_uf2(deployed, tmp_path):
    """The .mpy files boot on the official MicroPython and say they are a dev build."""
    assert deployed["first"].returncode == 0
    from gogadget import VERSION
    pico = rp2.Pico(_game_image(tmp_path, deployed["flash"]), size=SIZE,
                    firmware=deployed["firmware"])

    async def run():
        await pico.start()
        assert await pico.run_until(lambda: pico.leds.poll() is not None, 50, 6000), \
            pico.console()
        assert "gogadget %s (dev)" % VERSION in pico.console(), pico.console()
        pico.skip_output()
        reply = await pico.gtp("version")
        pico.stop()
        return reply

    assert asyncio.run(run()) == "= %s (dev)" % VERSION


def _frame_from_hex(text):
    return bytes.fromhex(text.split(None, 1)[1].strip())


class Game:
    def __init__(self, pico):
        self.pico = pico

    async def status(self):
        reply = await self.pico.gtp("gogadget-status")
        assert reply.startswith("="), reply
        return dict(w.split("=", 1) for w in reply[2:].split("|")[0].split() if "=" in w)

    async def frame(self):
        reply = await self.pico.gtp("gogadget-frame")
        assert reply.startswith("="), reply
        return _frame_from_hex(reply)

    async def leds_match(self):
        """The chain read from the pin equals what LedChain makes of the
        referee's frame (either blink phase)."""
        frame = await self.frame()
        await self.pico.run_ms(40)  # at least one more cycle: a changed frame is written
        shown = self.pico.leds.poll()
        assert shown is not None, "no LED frame decoded"
        options = [rp2.expected_leds(SIZE, frame, t) for t in (0, 125, 500, 625)]
        assert shown in options, self._diff(shown, options[0])
        return frame

    @staticmethod
    def _diff(shown, want):
        return "LEDs differ at %s" % [(i, shown[i], want[i]) for i in range(len(want))
                                      if shown[i] != want[i]][:8]

    async def play(self, place, colour, moves_after):
        self.pico.put(place, colour)
        deadline = self.pico.now_ms + 1500
        while True:
            await self.pico.run_ms(60)
            st = await self.status()
            if int(st["moves"]) == moves_after:
                return st
            assert self.pico.now_ms < deadline, st


def _place(col, row):
    return row * SIZE + col


@pytest.mark.timeout(900)
def test_game_on_the_image_a_maker_flashes(mpy_build, tmp_path):
    """`make image` of the official UF2, booted alone (the flash is the
    merged file, nothing else): its filesystem mounts, main.py boots, play
    through sensors, read the LEDs from the pin, talk GTP; the boot line and
    GTP version name the build."""
    firmware = need_emulator()
    from gogadget import VERSION
    from gogadget import frame as F
    from gogadget.scan import S_BLACK as B, S_WHITE as W
    from host_sim.tools import uf2
    merged = uf2.make_image(firmware, "pico", mpy_build, tmp_path / "gogadget-pico.uf2",
                            config=b'{"size": %d}' % SIZE, stream=io.StringIO())
    pico = rp2.Pico(None, size=SIZE, firmware=merged)
    build = "%s (%s, pico image)" % (VERSION, uf2.commit_id())

    async def run():
        await pico.start()
        g = Game(pico)
        # Boot: config, calibration, self-test, resume, then the scan loop.
        assert await pico.run_until(lambda: pico.leds.poll() is not None, 50, 6000), pico.console()
        text = pico.console()
        assert "gogadget: config config.json" in text, text
        assert "gogadget " + build in text, text
        pico.skip_output()
        assert await pico.gtp("version") == "= " + build
        st = await g.status()
        assert st["phase"] == "play" and st["moves"] == "0" and st["size"] == str(SIZE), st
        await g.leds_match()
        conv = pico.conversions
        await pico.run_ms(200)
        # The real scan path: every sensor read through the mux selects
        # (plus the settle conversion thrown away after each switch).
        per_scan = SIZE * SIZE * 2
        scans = (pico.conversions - conv) / per_scan
        assert scans >= 0.8 * 200 / 20, "%.1f scans in 200 ms" % scans

        # A capture: White E5 surrounded by Black D5, F5, E4 and E6.
        e5, d5, f5, e4, e6 = _place(4, 4), _place(3, 4), _place(5, 4), _place(4, 3), _place(4, 5)
        await g.play(d5, B, 1)
        frame = await g.leds_match()
        assert frame[1 + d5] & 0x0F == F.LAST
        await g.play(e5, W, 2)
        await g.play(f5, B, 3)
        await g.play(_place(0, 0), W, 4)
        await g.play(e4, B, 5)
        await g.play(_place(8, 0), W, 6)
        st = await g.play(e6, B, 7)  # captures E5
        frame = await g.leds_match()
        assert frame[1 + e5] & 0x0F == F.REMOVE, "the prisoner lights 'remove'"
        pico.put(e5, 0)  # lift the prisoner
        await pico.run_ms(150)
        frame = await g.leds_match()
        assert frame[1 + e5] & 0x0F == F.OFF
        # An illegal move: White back into E5 is suicide; nothing is recorded.
        pico.put(e5, W)
        await pico.run_ms(200)
        st = await g.status()
        assert st["moves"] == "7", st
        frame = await g.leds_match()
        assert frame[1 + e5] & 0x0F == F.ILLEGAL, "the illegal stone blinks"
        events = await pico.gtp("gogadget-events")
        assert "illegal" in events and "suicide" in events, events
        pico.put(e5, 0)
        await pico.run_ms(150)
        # GTP: the controller plays White; the LEDs prompt it, the person puts it.
        reply = await pico.gtp("play w G7")
        assert reply == "=", reply
        frame = await g.leds_match()
        g7 = _place(6, 6)
        assert frame[1 + g7] & 0x0F == F.PUT_WHITE
        await g.play(g7, W, 8)
        # genmove is answered when the person at the board has moved.
        pico.send("genmove b\n")
        await pico.run_ms(60)
        pico.put(_place(2, 2), B)
        reply = await pico.read_reply(2000)
        assert reply == "= C3", reply
        board = await pico.gtp("showboard")
        assert board.startswith("=")
        await g.leds_match()
        assert pico.leds.glitches == 0, vars(pico.leds)
        pico.stop()

    asyncio.run(run())
