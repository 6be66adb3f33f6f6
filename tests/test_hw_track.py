"""calib.track allocates nothing (issue 17): it runs in every scan, so on
the MicroPython unix port it is driven under micropython.heap_lock through
every case it has (empty places among empties, stones, a neighbour put
down, readings drifting within and jumping past the tracking band, the
baseline drifting far enough from the file's to want a save), over many
turns of the board.  The emulated Pico's figure is `python -m host_sim.bench.rp2 scan`.
"""
import pytest

from conftest import ROOT

# The harness allocates all it needs before the lock; inside it only small
# ints move, in place (`for x in range(...)` compiles to a counter).
MP_TRACK = r"""
import micropython
from array import array
from gogadget.hw import calibderive
from gogadget.hw.calib import Calibration
from gogadget.hw.calibderive import checkerboard, derive, set_base, set_sample
from gogadget.scan import S_BLACK, S_EMPTY, S_WHITE
size = %d
CALLS = %d
n = size * size
cal = Calibration(size)
base = array("H", [30000 + (p * 37) %% 2000 for p in range(n)])
set_base(cal, base)
set_sample(cal, S_BLACK, array("H", [b + 6000 for b in base]), checkerboard(size, 0))
set_sample(cal, S_WHITE, array("H", [b - 6000 for b in base]), checkerboard(size, 1))
print("bad", derive(cal), cal.track_limit > 0)
cal.save("calib.bin")  # as the Calibrator leaves it: the file's baseline is the one tracked from
cal = calibderive.load("calib.bin", size)
lim = cal.track_limit
raw = array("H", base)
scan = bytearray(n)
for p in range(0, n, 5):  # stones: black on every 5th place, white on every 7th
    scan[p] = S_BLACK
    raw[p] = base[p] + 6000
for p in range(3, n, 7):
    if not scan[p]:
        scan[p] = S_WHITE
        raw[p] = base[p] - 6000
before = array("H", cal.base)
turns = CALLS
put = n // 2 + 1
calls = 0
micropython.heap_lock()
for k in range(turns):
    for p in range(n):  # the sensors warm: every reading drifts up a count a scan
        raw[p] += 1
    if k == turns // 3:  # a stone put down beside others: new references
        scan[put] = S_BLACK
        raw[put] += 6000
    if k == turns // 2:  # a hand's field: readings jump past the band
        for p in range(0, n, 11):
            raw[p] += 2 * lim
    cal.track(raw, scan)
    calls += 1
micropython.heap_unlock()
moved = 0
for p in range(n):
    if cal.base[p] != before[p]:
        moved += 1
print("calls", calls, "moved", moved, "dirty", cal.dirty)
micropython.heap_lock()
try:
    x = [calls]  # the lock is real: this allocates
    print("lock", "off")
except MemoryError:
    print("lock", "on")
micropython.heap_unlock()
"""


# Scans the test tracks: the drift (a count a scan) outruns the tracking
# band well before the end, so the baseline has moved far enough to ask for
# a save from the file's.
CALLS = 1500


@pytest.mark.parametrize("size", [9, 19])
def test_track_allocates_nothing_under_heap_lock(micropython, size, tmp_path):
    r = micropython(code=MP_TRACK % (size, CALLS), cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr + r.stdout  # a MemoryError inside the lock lands here
    out = r.stdout
    assert "bad [] True" in out, out
    assert "lock on" in out, out
    words = out.split()
    calls = int(words[words.index("calls") + 1])
    moved = int(words[words.index("moved") + 1])
    assert calls == CALLS, out
    # the drift was followed at most places, far enough to ask for a save
    assert moved > size * size // 2, out
    assert "dirty True" in out, out


def test_the_plain_look_shifts_as_its_viper_twin_does():
    # calibplain.py's private constant (no name on the board) and the
    # viper twin's literal shift must agree.
    import re
    from gogadget.hw import calibplain
    src = (ROOT / "firmware" / "gogadget" / "hw" / "viperscan.py").read_text()
    look = src[src.index("def track_look"):]
    assert set(re.findall(r"step = .*>> (\d+)\)?\n", look)) == {str(calibplain._TRACK_SHIFT)}
