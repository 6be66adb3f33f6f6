"""The viper twins of hw/rp2fast.py give the plain loops' results.

On the board they are compiled by MicroPython's own compiler at boot; the
unix port here compiles the same source for x64, so every twin but the
register-level scan (which the emulated Pico runs in tests/test_rp2_board.py)
is checked against the Python loop it replaces, on the same data."""
from conftest import run_micropython

CHECK = r"""
import random
from array import array
from gogadget.hw import rp2fast
ns = {}
exec(rp2fast._SRC, ns)

# classify: random readings, faults and thresholds
from gogadget.hw.calib import Calibration
from gogadget.hw import pins
from gogadget.scan import S_FAULT, S_EMPTY
random.seed(5)
n = 361
cal = Calibration(19)
for i in range(n):
    cal.lo[i] = 20000 + random.getrandbits(12)
    cal.hi[i] = 40000 + random.getrandbits(12)
    cal.loc[i] = 2
    cal.hic[i] = 1
raw = array("H", [random.getrandbits(16) for _ in range(n)])
fault = bytearray(random.getrandbits(4) == 0 for _ in range(n))
want = bytearray(n)
for i in range(n):
    v = raw[i]
    if fault[i] or v < pins.RAIL_LOW or v > pins.RAIL_HIGH:
        want[i] = S_FAULT
    elif v >= cal.hi[i]:
        want[i] = cal.hic[i]
    elif v <= cal.lo[i]:
        want[i] = cal.loc[i]
    else:
        want[i] = S_EMPTY
got = bytearray(n)
ns["classify"](n, raw, fault, cal.lo, cal.hi, cal.loc, cal.hic, got,
               array("H", [pins.RAIL_LOW, pins.RAIL_HIGH, S_FAULT, S_EMPTY]))
assert got == want
print("classify ok")

# LedChain: show() with and without the twins, every code and blink phase
from gogadget.hw.leds import LedChain
from gogadget import frame as F
class Np:
    ORDER = (1, 0, 2, 3)
    bpp = 3
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
    def write(self):
        pass
for budget in (None, 300):
    a = LedChain(Np(364), 19, 200, budget)
    b = LedChain(Np(364), 19, 200, budget, fast=ns)
    frame = F.new_frame(19)
    for step in range(6):
        frame[0] = 60 + 20 * step
        for p in range(1, len(frame)):
            frame[p] = random.getrandbits(8)
        for t in (0, 130, 510, 640):
            assert a.show(frame, t) == b.show(frame, t)
            assert a.np.buf == b.np.buf and a.current_ma == b.current_ma
print("leds ok")

# Board: the flood fill and capture twins
from gogadget import board
from gogadget.board import Board
def game(fast, seed, ko):
    board._FAST[0] = ns["liberty"] if fast else None
    board._FAST[1] = ns["remove"] if fast else None
    random.seed(seed)
    b = Board(19, ko, 0)
    out = []
    for i in range(700):
        out.append(b.play(1 + (i & 1), random.getrandbits(9) % len(b.cells)))
    return out, bytes(b.cells), b.hash, b.prisoners, b.moves
for seed in range(3):
    for ko in (1, 3):
        assert game(True, seed, ko) == game(False, seed, ko), (seed, ko)
print("board ok", game(True, 0, 3)[4])
"""


def test_viper_twins_match_the_plain_loops():
    res = run_micropython(CHECK, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "classify ok" in res.stdout and "leds ok" in res.stdout and "board ok" in res.stdout
