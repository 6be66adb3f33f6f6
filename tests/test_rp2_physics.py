"""The firmware on the emulated Pico against the physical sensor model (issue 17).

host_sim.sim.physics's magnets, Hall parts and analog path feed the emulated
Pico's ADC (host_sim/rp2/physics_adc.py): the select GPIOs the firmware
drives decide which sensor's voltage the conversion sees, the LED chain's
decoded frames set the ground shift.  The firmware's own MuxScanner (viper
scan and classify), Calibrator and Calibration run unchanged: the board is
calibrated the maker's way (hold pass + new, empty board, black on the
blinking points, white on the others, each step confirmed), then a short
game with a capture is played by putting stones, and the record the board
keeps (GTP printsgf, read with sgfmill) holds exactly the moves made.

9x9 to keep it cheap: about 45 s of CPU on the emulator (the wall time
grows with the machine's load).
"""
import asyncio

import pytest

from conftest import need_emulator

from host_sim import rp2

pytestmark = pytest.mark.timeout(600)

SIZE = 9
SEED = 17


def _place(col, row):
    return row * SIZE + col


def test_calibrate_and_play_on_the_physical_model(mpy_build, tmp_path):
    firmware = need_emulator()
    calibrate_and_play(firmware, mpy_build, tmp_path, "nominal", SEED)


def calibrate_and_play(firmware, build, tmp_path, physics_setting, seed):
    """The maker's calibration and a game with a capture on the model's
    board of that setting and seed: the official UF2 with `make mpy`'s
    files (build) on its flash."""
    import sgfmill.sgf

    from gogadget.hw import pins
    from gogadget.hw import calibderive
    from gogadget.hw.calibderive import checkerboard
    from gogadget.points import BLACK, WHITE
    from gogadget.scan import S_BLACK, S_EMPTY, S_WHITE
    from host_sim.sim import physics, virtual
    from host_sim.rp2.physics_adc import PhysicsAdc

    image = rp2.flash_image(tmp_path / "game.img", build, {"config.json": b'{"size": %d}' % SIZE})
    pico = rp2.Pico(image, size=SIZE, firmware=firmware)
    stones = virtual.Stones(SIZE)
    adc = PhysicsAdc(pico, stones, physics_setting, seed=seed)

    async def press(*buttons, ms=80):
        for b in buttons:
            pico.press(b, True)
        await pico.run_ms(ms)
        for b in buttons:
            pico.press(b, False)
        await pico.run_ms(60)

    async def said(text, limit_ms=3000):
        assert await pico.run_until(lambda: text in pico.console(), 20, limit_ms), \
            pico.console()[-600:]

    async def status():
        reply = await pico.gtp("gogadget-status")
        assert reply.startswith("="), reply
        return dict(w.split("=", 1) for w in reply[2:].split("|")[0].split() if "=" in w)

    async def quiet(limit_ms):
        """Run until the board asks the person for nothing, looking every
        60 ms: no longer than needed, since a calibrated board's scan (the
        drift tracking in) costs the emulator twice an uncalibrated one's."""
        deadline = pico.now_ms + limit_ms
        while True:
            st = await status()
            if st["outstanding"] == "0":
                return st
            assert pico.now_ms < deadline, (st, pico.console()[-400:])
            await pico.run_ms(60)

    made = []

    async def play(place, colour):
        stones.put(place, colour)
        made.append((colour, place))
        deadline = pico.now_ms + 1500
        while True:
            await pico.run_ms(60)
            st = await status()
            if int(st["moves"]) == len(made):
                return st
            assert pico.now_ms < deadline, (st, pico.console()[-400:])

    async def run():
        await pico.start()
        assert await pico.run_until(lambda: pico.leds.poll() is not None, 50, 6000), \
            pico.console()
        assert "not calibrated yet" in pico.console(), pico.console()
        # The scan loop answers (a GTP reply after the boot's lines): it
        # polls the buttons now (the first frame comes from the boot's
        # self-test, before the loop runs).
        assert "= phase=" in await pico.gtp("gogadget-status")
        # The maker's calibration (hardware/README), through main.py's own loop.
        await press(pins.BUTTON_PASS, pins.BUTTON_NEW, ms=900)
        await said("calibration: empty the board")
        await press(pins.BUTTON_CONFIRM)
        await said("calibration: black stones on the blinking points")
        for p in checkerboard(SIZE, 0):
            stones.put(p, BLACK)
        await pico.run_ms(100)
        await press(pins.BUTTON_CONFIRM)
        await said("calibration: white stones on the blinking points")
        for p in checkerboard(SIZE, 1):
            stones.put(p, WHITE)
        await pico.run_ms(100)
        await press(pins.BUTTON_CONFIRM)
        await said("calibration: ok")
        # The maker lifts the stones once the board says ok; main.py's loop
        # may already be back (the 1.5 s of the result pass at once in
        # emulation while the core sleeps), see the checkerboard as new
        # stones and ask for them off: done.
        for p in range(SIZE * SIZE):
            stones.lift(p)
        pico.skip_output()
        await quiet(2000)
        st = await status()
        assert st["phase"] == "play" and st["moves"] == "0", st
        # A capture: White E5 surrounded by Black D5, F5, E4 and E6 (the
        # neighbours' fields at their strongest round one point).
        e5, d5, f5, e4, e6 = _place(4, 4), _place(3, 4), _place(5, 4), _place(4, 3), _place(4, 5)
        await play(d5, BLACK)
        await play(e5, WHITE)
        await play(f5, BLACK)
        await play(_place(0, 0), WHITE)
        await play(e4, BLACK)
        await play(_place(8, 8), WHITE)
        await play(e6, BLACK)
        stones.lift(e5)  # the prisoner, which the LEDs ask for
        st = await quiet(1000)
        assert st["moves"] == str(len(made)), st
        await play(_place(6, 6), WHITE)
        await play(_place(2, 2), BLACK)
        record = await pico.gtp("printsgf")
        pico.stop()
        pico.dev.dump_flash_image(str(tmp_path / "after.img"))
        return record

    record = asyncio.run(run())
    assert record.startswith("= ("), record
    game = sgfmill.sgf.Sgf_game.from_string(record[2:])
    assert game.get_size() == SIZE
    got = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        row, col = move  # sgfmill: row 0 is the bottom line, as place // SIZE
        got.append((BLACK if colour == "b" else WHITE, row * SIZE + col))
    assert got == made, (got, made)
    # The calibration the board wrote and played on, read back from its
    # flash by the firmware's own loader: every place sampled, and its
    # thresholds tell the model's noiseless readings of the final position
    # (neighbours' fields, drift, the LEDs' ground shift included) apart.
    files = rp2.read_image(tmp_path / "after.img")
    assert "calib.bin" in files, sorted(files)
    (tmp_path / "calib.bin").write_bytes(files["calib.bin"])
    cal = calibderive.load(str(tmp_path / "calib.bin"), SIZE)
    assert cal.calibrated and not cal.bad
    board = adc.board
    truth = (S_EMPTY, S_BLACK, S_WHITE)
    for p in range(SIZE * SIZE):
        c = int(board.hall_volts(p) * 1000 / physics.LSB_MV + board.ground_lsb())
        v = c << 4 | c >> 8
        read = cal.loc[p] ^ 3 if v >= cal.hi[p] else cal.loc[p] if v <= cal.lo[p] else S_EMPTY
        assert read == truth[stones.cells[p]], (p, stones.cells[p], cal.lo[p], v, cal.hi[p])
    assert adc.passes > 0 and pico.conversions > 0
