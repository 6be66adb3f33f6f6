"""The `latency` part: main.py running on the Pico, a stone put down to its LED lit, timed from the host."""
import asyncio

from host_sim.bench.rp2 import SIZE
from host_sim.bench.rp2.target import physical_board, rp2_place

async def latency(image, stones, firmware=None, board=None):
    """main.py on a 19x19 board: put each stone on the virtual board and time
    until the LED frame that shows it has gone out (its first bit on the pin
    plus the bitstream's 800 kHz length), in emulated ms.  Also the scans per second of the
    running loop, from the ADC conversions it made.  board: a physics.Board
    (calibrated_board's, its calibration on the flash) under the sensors
    instead of the ideal ones."""
    from host_sim import rp2
    from gogadget.hw import pins
    pico = rp2.Pico(image, size=SIZE, firmware=firmware, board=rp2.uf2_board(firmware))
    put = pico.put
    if board is not None:
        from host_sim.rp2 import physics_adc
        put = physics_adc.PhysicsAdc(pico, board=board).put
    await pico.start()
    assert await pico.run_until(lambda: pico.leds.poll() is not None, 50, 20000), pico.console()
    await pico.run_ms(100)
    c0, t0 = pico.conversions, pico.now_ms
    await pico.run_ms(300)
    per_scan = SIZE * SIZE * (1 + pins.SETTLE_READS)
    idle_hz = (pico.conversions - c0) / per_scan / ((pico.now_ms - t0) / 1000)
    # The settler's first second after boot uses its longest debounce while
    # it measures the sensors' flicker (settle.WARM_MS): a board in
    # play is past that, so the stones go down a second later.
    await pico.run_ms(1000)
    lat = []
    parts = []
    colour = 1
    for k, pl in enumerate(stones):
        before = pico.leds.frames
        reads = []  # when the stone's place was read
        convs = []  # every conversion since the stone went down

        def on_read(place, nanos, pl=pl, reads=reads, convs=convs):
            convs.append(nanos)
            if place == pl and (not reads or nanos - reads[-1] > 1e6):
                reads.append(nanos)  # one scan's reads of the place (1 + SETTLE_READS)

        pico.on_read = on_read
        put(pl, colour)
        start = pico.clock.nanos
        i = pins.led_index(SIZE, pl)

        def lit():
            f = pico.leds.poll()
            return pico.leds.frames > before and f is not None and f[i] != (0, 0, 0)

        assert await pico.run_until(lit, 2, 2000), "stone %d never lit" % pl
        pico.on_read = None
        first_bit = pico.leds.last_started_ns
        ended = pico.leds.ended_ns
        lat.append((ended - start) / 1e6)
        # The scan that took the move: the last to read the place before the
        # frame's first bit; its read ends at the last conversion before it.
        taken = max(t for t in reads if t < first_bit)
        read_end = max(t for t in convs if t < first_bit)
        parts.append(tuple(x / 1e6 for x in (reads[0] - start, taken - reads[0],
                                             read_end - taken, first_bit - read_end,
                                             ended - first_bit)))
        colour = 3 - colour
        await pico.run_ms(60 + 7 * k)  # the next stone lands at another point of the scan period (7k mod 10: each once in ten)
    console = pico.console()
    pico.stop()
    return idle_hz, lat, parts, console


def run(d, files, dirs, blocks, firmware, build, move):
    """main.py booted from the flash (a calibrated board's), ten stones put
    down, reported (move: the cycle part's figures of the move, or None)."""
    from host_sim import rp2
    from host_sim.bench.rp2.report import report_latency
    board, boot_files = physical_board(d, files)
    boot_files["main.py"] = (build / "main.py").read_bytes()  # a frozen one runs first
    boot_files["config.json"] = b'{"size": 19}'
    boot = rp2.flash_image(d / "boot.img", None, boot_files,
                           dirs=[x for x in dirs if x != "games"], blocks=blocks)
    # Ten stones: the gaps between them (60 + 7k ms) then fall at every
    # millisecond of the 10 ms scan period once, so the wait to a
    # stone's first scan averages out; with six its mean moved by 2-3
    # ms with the length of the start (issue 26's notes).
    stones = [rp2_place(c, r) for c, r in ((3, 3), (15, 15), (9, 9), (3, 15), (15, 3),
                                           (9, 3), (3, 9), (15, 9), (9, 15), (5, 5))]
    report_latency(*asyncio.run(latency(boot, stones, firmware, board)), move=move)
