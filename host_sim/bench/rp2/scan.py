"""The `scan` part: MuxScanner.read's parts timed on the Pico, on an empty and a late game's board."""
import asyncio

from host_sim.bench.rp2 import SIZE
from host_sim.bench.rp2.target import LATE_STONES, SCAN_SEED, on_pico, physical_board, physics_attach

# MuxScanner.read's parts on 19x19, as hw/pico.py builds the scanner (viper
# read_raw, classify and track's look at the places), on the physical
# model's sensors with the calibration the flash holds: time per scan and
# bytes allocated per call of each part, track under heap_lock, and
# save_drift's write (forced: in play it writes when a place's tracked
# baseline has moved a tracking band from the file's).
SCAN = r"""
import gc, time, micropython
from gogadget.hw import rp2fast
rp2fast.install()  # as main.py does
from gogadget.config import Config
from gogadget.hw import pico
cfg = Config(size=19)
cal, how = pico.load_calibration(19)
print("CAL", repr((how, cal.calibrated, cal.track_limit, len(cal.bad))))
sensors = pico.make_sensors(cfg, calibration=cal)
scan = bytearray(361)
raw = sensors.raw
for _ in range(60):  # every place has had its turn: the tracking's steady state
    sensors.read(scan)
N = 50
tr = tc = tt = wt = 0
for _ in range(N):
    t0 = time.ticks_us()
    sensors.read_raw()
    t1 = time.ticks_us()
    c = sensors.classify(scan)
    t2 = time.ticks_us()
    cal.track(raw, scan, c, sensors._fast_look)
    t3 = time.ticks_us()
    tr += time.ticks_diff(t1, t0); tc += time.ticks_diff(t2, t1)
    d = time.ticks_diff(t3, t2); tt += d
    if d > wt:
        wt = d
t0 = time.ticks_us()
for _ in range(N):
    sensors.read(scan)
tw = time.ticks_diff(time.ticks_us(), t0)
print("TIMES", repr((tr / N, tc / N, tt / N, wt, tw / N)))
def alloc(f, n):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(n):
        f()
    a = gc.mem_alloc() - a
    gc.enable()
    return a / n
print("ALLOC", repr((alloc(sensors.read_raw, N), alloc(lambda: sensors.classify(scan), N),
                     alloc(lambda: cal.track(raw, scan, 0, sensors._fast_look), N),
                     alloc(lambda: sensors.read(scan), N))))
locked = "ok"
micropython.heap_lock()
try:
    for _ in range(3 * 361 // 16):
        cal.track(raw, scan, 0, sensors._fast_look)
except MemoryError:
    locked = "MemoryError"
micropython.heap_unlock()
print("LOCKED", repr(locked))
ts = []
allocs = []
for _ in range(5):
    cal.dirty = True
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    t0 = time.ticks_us()
    cal.save_drift()
    ts.append(time.ticks_diff(time.ticks_us(), t0))
    allocs.append(gc.mem_alloc() - a)
    gc.enable()
print("SAVE", repr((ts, allocs, cal.path, cal.dirty)))
"""


def scan_positions():
    """(name, {place: colour}): the empty board and a late game's board
    (LATE_STONES stones at seeded places, the colours alternating)."""
    import random
    rng = random.Random(SCAN_SEED)
    late = {pl: 1 + k % 2 for k, pl in enumerate(rng.sample(range(SIZE * SIZE), LATE_STONES))}
    return (("empty board", {}), ("%d stones" % LATE_STONES, late))


def scan_on_pico(d, files, dirs, blocks, firmware, stones):
    """SCAN's output on a Pico whose ADC reads host_sim.sim.physics's board
    (host_sim/rp2/physics_adc.py) with stones on it, the board's calibration
    (made on the host) in the flash as calib.bin."""
    from host_sim import rp2
    board, scan_files = physical_board(d, files)
    for pl, colour in stones.items():
        board.stones.put(pl, colour)
    img = rp2.flash_image(d / "scan.img", None, scan_files, dirs=dirs, blocks=blocks)
    return asyncio.run(on_pico(img, SCAN, firmware=firmware, attach=physics_attach(board)))


def run(d, files, dirs, blocks, firmware):
    """Each of scan_positions() read on the Pico, reported."""
    from host_sim.bench.rp2.report import report_scan
    for name, stones in scan_positions():
        out = scan_on_pico(d, files, dirs, blocks, firmware, stones)
        report_scan(name, out)
