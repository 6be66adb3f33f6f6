"""The `cycle` part: the App's scan cycles timed on the Pico (idle, a stone settling, the move), on a calibrated board."""
import asyncio

# The App as main.py builds it, on the real pins (hw/pico.py), the link on a
# stream with nothing to read.  Times one cycle with a frame change forced
# every cycle, so the LED chain is rendered and written each time.
CYCLE = r"""
import gc, time
from gogadget.hw import rp2fast
rp2fast.install()  # as main.py does
from gogadget.config import Config
from gogadget.hw import pico
from gogadget.app import App
cfg = Config(size=19)
cal, how = pico.load_calibration(19)  # the flash's, as main.py loads it
print("CAL", repr((how, cal.track_limit)))
sensors = pico.make_sensors(cfg, calibration=cal)
leds = pico.make_leds(cfg)
buttons = pico.make_buttons(cfg)
class Quiet:
    def readinto(self, buf):
        return 0
    def write(self, data):
        pass
app = App(cfg, sensors, leds, buttons, "games", Quiet())
app.boot(time.ticks_ms())
ref = app.referee
now = 0
for _ in range(4):
    app.step(now); now += 20
scan = app.scan
for _ in range(3 * 361 // 8):
    # calib.track visits 8 places a scan: after a few turns of the board each
    # has its reference, and a scan costs what it costs in play.
    sensors.read(scan)
alt = bytearray(ref.frame)
def parts(n, change, stone=-1):
    global now
    tr = tu = tl = tk = 0
    for i in range(n):
        t0 = time.ticks_us()
        sensors.read(scan)
        if stone >= 0:
            scan[stone] = 1  # a stone put down: the settler works on every scan until it has settled
        t1 = time.ticks_us()
        ref.update(scan, now)
        t2 = time.ticks_us()
        if change:
            alt[:] = ref.frame
            alt[1 + i % 361] = 0x16  # blinking put-black: a new frame each cycle
            leds.show(alt, now)
        else:
            leds.show(ref.frame, now)
        t3 = time.ticks_us()
        app.poll_host(now)
        t4 = time.ticks_us()
        tr += time.ticks_diff(t1, t0); tu += time.ticks_diff(t2, t1)
        tl += time.ticks_diff(t3, t2); tk += time.ticks_diff(t4, t3)
        now += 20
    return tr / n, tu / n, tl / n, tk / n
w0 = leds.writes
r, u, l, k = parts(6, True)
assert leds.writes - w0 == 6
print("CHANGE", r, u, l, k)
r, u, l, k = parts(6, False)
print("IDLE", r, u, l, k)
w0 = ref.settler.resting
r, u, l, k = parts(6, True, 3 * 19 + 3)
print("SETTLING", r, u, l, k, int(w0), int(ref.settler.resting))
# Another stone, as long (neither is taken: the warm-up's debounce is longer
# than 6 scans, and both are gone again by the move below).
r, u, l, k = parts(6, False, 9 * 19 + 9)
print("SETTLING_QUIET", r, u, l, k)
# The cycle that takes a move, as main.py runs it: past the settler's boot
# warm-up, a stone read until the referee takes it (journal write
# included), then its frame rendered and handed to the DMA.
period = cfg.scan_period_ms()
for _ in range(cfg.scans(2000)):
    app.step(now); now += period
down = []
def read():
    sensors.read(scan)
    for p in down:
        scan[p] = 1 + down.index(p) % 2  # black, then white
for pl in (15 * 19 + 15, 3 * 19 + 15):
    m0 = ref.board.moves
    down.append(pl)
    for _ in range(cfg.scans(2000)):
        if ref.board.moves != m0:
            break
        t0 = time.ticks_us()
        read()
        t1 = time.ticks_us()
        ref.update(scan, now)
        t2 = time.ticks_us()
        leds.show(ref.frame, now)
        t3 = time.ticks_us()
        app.poll_host(now)
        now += period
    if ref.board.moves == m0:
        raise SystemExit("the stone at %d was never taken: %s" % (pl, ref.status()))
    print("MOVE", len(down) - 1, time.ticks_diff(t1, t0), time.ticks_diff(t2, t1),
          time.ticks_diff(t3, t2))
    for _ in range(cfg.scans(500)):
        read(); ref.update(scan, now); leds.show(ref.frame, now); now += period
t0 = time.ticks_us()
leds.np.write(); leds.np.write()
print("WRITE_WAIT", time.ticks_diff(time.ticks_us(), t0) / 2)
"""


def run(d, files, dirs, blocks, firmware):
    """CYCLE on a Pico whose ADC reads host_sim.sim.physics's calibrated board;
    the report's figures of the move's cycle (the latency part quotes them)."""
    from host_sim import rp2
    from host_sim.bench.rp2.report import report_cycle
    from host_sim.bench.rp2.target import on_pico, physical_board, physics_attach
    board, cal_files = physical_board(d, files)
    cyc = rp2.flash_image(d / "cycle.img", None, cal_files, dirs=dirs, blocks=blocks)
    return report_cycle(asyncio.run(on_pico(cyc, CYCLE, firmware=firmware,
                                            attach=physics_attach(board))))
