"""The viper twins of hw/rp2fast.py give the plain loops' results.

On the board they come precompiled (hw/viperscan.py, viperleds.py and
vipergame.py, `make mpy` builds each
with mpy-cross -march=armv6m); the unix port here imports the same source
and compiles it for x64, so every twin but the
register-level scan (which the emulated Pico runs in tests/test_rp2_board.py)
is checked against the Python loop it replaces, on the same data."""
import subprocess
import sys

from conftest import FIRMWARE, run_micropython

CHECK = r"""
import random
from array import array
from gogadget.hw import rp2fast
ns = rp2fast.twins()

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
raw = array("H", [random.getrandbits(16) for _ in range(n)])
left_out = [random.getrandbits(4) == 0 for _ in range(n)]
fault = bytearray((n + 7) >> 3)  # a bit a place (hw/selftest.check)
for i in range(n):
    if left_out[i]:
        fault[i >> 3] |= 1 << (i & 7)
want = bytearray(n)
for i in range(n):
    v = raw[i]
    if left_out[i] or v < pins.RAIL_LOW or v > pins.RAIL_HIGH:
        want[i] = S_FAULT
    elif v >= cal.hi[i]:
        want[i] = cal.loc[i] ^ 3
    elif v <= cal.lo[i]:
        want[i] = cal.loc[i]
    else:
        want[i] = S_EMPTY
prev = bytearray(random.getrandbits(2) for _ in range(n))
got = bytearray(prev)  # the last call's codes: the changes are against them
changed = array("H", [0] * 24)
count = ns["classify"](n, raw, fault, cal.lo, cal.hi, cal.loc, got,
                       array("H", [pins.RAIL_LOW, pins.RAIL_HIGH, S_FAULT, S_EMPTY]),
                       changed, len(changed))
assert got == want
# the changed places: counted, and the first few listed in order
diff = [i for i in range(n) if want[i] != prev[i]]
assert count == len(diff) and list(changed) == diff[:24], (count, len(diff))
print("classify ok")

# calib.track's look at the places: the viper twin against _look, on two
# boards calibrated alike, through changes of stones, fields and drift
from gogadget.hw import calib as C
from gogadget.hw.calibderive import checkerboard, derive, set_base, set_near, set_sample
def calibrated(seed):
    random.seed(seed)
    c = C.Calibration(9)
    m = 81
    base = [30000 + random.getrandbits(10) for _ in range(m)]
    set_base(c, base)
    set_sample(c, 1, [b + 1500 + random.getrandbits(9) for b in base], checkerboard(9, 0))
    set_sample(c, 2, [b - 1500 - random.getrandbits(9) for b in base], checkerboard(9, 1))
    set_near(c, [b - 90 - random.getrandbits(6) for b in base], checkerboard(9, 1))
    derive(c)
    return c, base
plain, base = calibrated(9)
twin, _ = calibrated(9)
assert plain.xb and plain.track_limit
random.seed(11)
stones = bytearray(81)
for rnd in range(300):
    if rnd % 3 == 0:
        for _ in range(1 + random.getrandbits(2)):
            stones[random.getrandbits(8) % 81] = random.getrandbits(2) % 3
    def field(i):  # its own stone's, and its neighbours' pushing it the other way
        f = 1600 if stones[i] == 1 else -1600 if stones[i] == 2 else 0
        for j in (i - 1 if i % 9 else -1, i + 1 if i % 9 < 8 else -1, i - 9, i + 9):
            if 0 <= j < 81 and stones[j]:
                f += (-1 if stones[j] == 1 else 1) * (150 + 37 * (j % 7))
        return f
    raw = array("H", [base[i] + field(i) + random.getrandbits(7) - 64 + rnd for i in range(81)])
    scans = []
    for cal, look in ((plain, None), (twin, ns["track_look"])):
        sc = bytearray(81)
        for i in range(81):
            v = raw[i]
            sc[i] = cal.loc[i] ^ 3 if v >= cal.hi[i] else cal.loc[i] if v <= cal.lo[i] else 0
        cal.track(raw, sc, -1, look)
        scans.append(bytes(sc))
    assert scans[0] == scans[1], rnd
    for name in ("base", "lo", "hi", "held", "ctx", "xt", "black", "white"):
        assert list(getattr(plain, name)) == list(getattr(twin, name)), (rnd, name)
    assert plain.dirty == twin.dirty and plain.track_next == twin.track_next
assert any(plain.xt), "the neighbours' offset was never used"
print("track ok")

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
from gogadget import board, boardplain
from gogadget.board import Board
def game(fast, seed, ko):
    if fast:
        board.use_fast(ns["liberty"], ns["remove"], ns["superko_find"])
    else:
        board.use_fast(boardplain.liberty, boardplain.remove, boardplain.find)
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
# superko's history search: every start, present and absent keys (position
# keys are below 2**30, board.py)
hist = array("i", [random.getrandbits(30) for _ in range(300)])
hist[7] = hist[250] = hist[0]
for h in (hist[0], hist[120], hist[299], 12345, (1 << 30) - 1):
    for k in (-1, 0, 6, 7, 100, 249, 250, 299):
        assert ns["superko_find"](hist, k, h) == boardplain.find(hist, k, h), (h, k)
print("find ok", boardplain.find(hist, 299, hist[0]), ns["superko_find"](hist, 200, hist[0]))
"""


# The settler, the referee's diff and want, and the frame's paint: random
# boards and scan sequences (stones put, lifted, slid, hands, flicker,
# faults) through the plain pass and the viper twin, state compared after
# every call.
SETTLE = r"""
import random
from gogadget.hw import rp2fast
ns = rp2fast.twins()
from gogadget import settle, settleplain, view, signals, refereeplain
from gogadget.config import Config
from gogadget.settle import Settler

PLAIN = [settleplain.places, settleplain.mark]
FAST = [ns["settle_places"], ns["settle_mark"]]

def state(st):
    return (bytes(st.stable), bytes(st.last), bytes(st.fresh), bytes(st._run), bytes(st._dev),
            bytes(st._calm), bytes(st._hold), bytes(st._out), st.clean, st.resting,
            st._k, tuple(st._state))

def scans(seed, size, count):
    random.seed(seed)
    n = size * size
    board = bytearray(n)
    for _ in range(random.getrandbits(5)):
        board[random.getrandbits(9) % n] = 1 + random.getrandbits(1)
    noise = (0, 3, 20, 60)[seed % 4]  # flickers per 1000 readings
    hand = 0
    lo = 0
    for t in range(count):
        r = random.getrandbits(8)
        pl = random.getrandbits(9) % n
        if r < 14:
            board[pl] = (1, 2, 3)[random.getrandbits(8) % 3] if seed % 5 else 3
        elif r < 22:
            board[pl] = 0
        elif r < 30 and board[pl]:
            nb = pl + (1, -1, size, -size)[random.getrandbits(2)]
            if 0 <= nb < n and not board[nb]:
                board[nb] = board[pl]
                if random.getrandbits(1):
                    board[pl] = 0  # the near end lifts now, or later
        elif r < 32 and board[pl]:
            board[pl] = 0
        elif r < 34:
            hand = 4 + random.getrandbits(3)
            lo = random.getrandbits(9) % n
        scan = bytearray(board)
        if noise:
            for q in range(n):
                if random.getrandbits(10) < noise:
                    scan[q] = random.getrandbits(8) % 5
        if hand:
            hand -= 1
            for q in range(lo, min(n, lo + 3 * size)):
                if random.getrandbits(1):
                    scan[q] = 3
        yield scan

count = 0
for seed in range(24):
    size = (9, 13, 19)[seed % 3]
    cfg = Config(size=size, stable_ms=(20, 40, 60)[seed % 3], slide_ms=(60, 160, 400)[seed % 3],
                 scan_hz=50)
    a = Settler(size, cfg)
    b = Settler(size, cfg)
    now = 0
    for scan in scans(seed, size, 160):
        settle._FAST[:] = PLAIN
        ra = a.feed(scan, now)
        settle._FAST[:] = FAST
        rb = b.feed(scan, now)
        assert ra == rb and state(a) == state(b), (seed, now)
        if a.clean and random.getrandbits(4) == 0:
            a.restart()
            b.restart()
        count += ra
        now += 20
settle._FAST[:] = PLAIN
print("settle ok", count)

# view.diff, Referee.sync_want, signals.paint
class Ref:
    pass
class Board:
    pass
def refs(seed, size):
    random.seed(seed)
    n = size * size
    r = Ref()
    r.size = size
    r.n = n
    r.phase = "play"
    r.now = random.getrandbits(29)
    r.stable = bytearray(random.getrandbits(8) % 5 if random.getrandbits(2) else 0 for _ in range(n))
    r.want = bytearray(random.getrandbits(8) % 3 for _ in range(n))
    r.prompt = bytearray(n)
    r.mark = bytearray(random.getrandbits(5) for _ in range(n))
    r.fault = bytearray((0, 0, 0, 0, 0, 0, 1, 2)[random.getrandbits(3)] if seed % 2 else 0
                        for _ in range(n))
    for q in range(n):  # faults as diff leaves them: no event due
        if r.stable[q] == 4:
            r.fault[q] = 2
        elif r.fault[q] == 2 or (r.fault[q] and (r.stable[q] == 0) == (r.want[q] == 0)):
            r.fault[q] = 0
    if seed % 4 == 3:  # a fault state that changes: an event
        q = random.getrandbits(9) % n
        r.stable[q] = 4
        r.fault[q] = 0
    r.since = bytearray(2 * n)
    r.since = __import__("array").array("H", [random.getrandbits(16) for _ in range(n)])
    r.ask_stuck = random.getrandbits(9) % n if seed % 3 else -1
    r.events = []
    r.event = lambda kind, text: r.events.append((kind, text))
    r.pt = lambda pl: (pl // size + 1) * (size + 1) + pl % size
    r.board = Board()
    r.board.cells = bytearray(random.getrandbits(8) % 3 for _ in range((size + 1) * (size + 2) + 1))
    return r
def rstate(r):
    return (bytes(r.prompt), bytes(r.mark), bytes(r.fault), list(r.since), r.events, r.has_fault,
            r.extra, r.missing, r.extras, r.missings, r.wrong, r.pending, r.ncontra, r.oldest,
            r.unresolved, r.ask_stuck, bytes(r.want))
fast = 0
blind = 0  # passes that asked about an ignored place beside a stone that went
for seed in range(40):
    size = (9, 13, 19)[seed % 3]
    a = refs(seed, size)
    b = refs(seed, size)
    view._FAST[0] = None
    view.diff(a)
    view._FAST[0] = ns["diff_places"]
    view.diff(b)
    view._FAST[0] = None
    assert rstate(a) == rstate(b), seed
    refereeplain.sync_want(a)
    ns["sync_want"](b)
    assert rstate(a) == rstate(b), seed
    fa = bytearray(size * size + 4)
    fb = bytearray(size * size + 4)
    prompt = bytearray(random.getrandbits(4) for _ in range(size * size))
    signals.paint(fa, prompt, 1 + seed % 2, "play", seed % 4, 200)
    signals.use_fast(ns["paint_places"])
    signals.paint(fb, prompt, 1 + seed % 2, "play", seed % 4, 200)
    signals._FAST[0] = None
    assert fa == fb, seed
    fast += not a.events
    blind += any("its sensor is ignored" in t for _, t in a.events)
from gogadget import journal
for seed in range(200):
    data = bytearray(random.getrandbits(8) for _ in range(1 + seed % 9))
    journal._FAST[0] = None
    a = journal.crc8(data, len(data))
    journal.use_fast(ns["crc8"])
    b = journal.crc8(data, len(data))
    journal._FAST[0] = None
    assert a == b, (seed, a, b)
print("diff ok", fast, blind)
"""


def test_settle_diff_and_paint_twins_match_the_plain_passes():
    res = run_micropython(SETTLE, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "settle ok" in res.stdout and "diff ok" in res.stdout, res.stdout
    adopted = int(res.stdout.split("settle ok")[1].split()[0])
    assert adopted > 100, res.stdout  # the sequences do adopt batches
    fast, blind = res.stdout.split("diff ok")[1].split()[:2]
    assert int(fast) >= 20, res.stdout  # the fast pass ran
    assert int(blind) >= 1, res.stdout  # ...and handed a blind place to the plain pass


def test_viper_twins_match_the_plain_loops():
    res = run_micropython(CHECK, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "track ok" in res.stdout, res.stdout + res.stderr
    assert "classify ok" in res.stdout and "leds ok" in res.stdout and "board ok" in res.stdout
    assert "find ok 250 7" in res.stdout, res.stdout


def test_rp2viper_compiles_to_thumb_code_for_the_rp2040(tmp_path):
    """What `make mpy` ships: the .mpy of hw/viperscan.py carries armv6m
    machine code (the header's arch field), so the board runs no compiler."""
    from test_hw_mpy import mpy_cross
    from host_sim.tools import mpy
    rel = "gogadget/hw/viperscan.py"
    assert "-march=armv6m" in mpy.cross_args(rel)
    out = tmp_path / "viperscan.mpy"
    res = subprocess.run([mpy_cross(), *mpy.cross_args(rel), "-o", str(out),
                          str(FIRMWARE / rel)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    head = out.read_bytes()[:4]
    assert head[:2] == b"M\x06" and head[2] >> 2 == 4, head  # mpy v6, MP_NATIVE_ARCH_ARMV6M (4)
    from gogadget.hw import rp2fast
    assert rp2fast.load() is None  # CPython: never imported
    assert "gogadget.hw.viperscan" not in sys.modules


# With the twins installed (as rp2fast.install does on the Pico) a game's
# modules load none of the plain loops: the Pico never holds their bytecode.
NO_PLAIN = r"""
import sys
from gogadget.hw import rp2fast
ns = rp2fast.twins()
rp2fast.install(ns)
from gogadget.config import Config
from gogadget.referee import Referee
from gogadget.frame import new_frame
ref = Referee(Config(size=9))
ref.resume([], "", 0)
from gogadget.settle import WARM_MS
scan = bytearray(81)
now = 0
for _ in range(ref.config.scans(WARM_MS + 200)):  # past the boot warm-up
    ref.update(scan, now)
    now += ref.config.scan_period_ms()
for i, pl in enumerate((40, 41, 30, 31)):
    scan[pl] = 1 + (i & 1)
    for _ in range(ref.config.scans(600)):
        ref.update(scan, now)
        now += ref.config.scan_period_ms()
print("MOVES", ref.board.moves)
class Np:
    ORDER = (1, 0, 2, 3)
    bpp = 3
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
    def write(self):
        pass
class Pin:
    def value(self, v=None):
        return 0
class Adc:
    def read_u16(self):
        return 0
from gogadget.hw.leds import LedChain
from gogadget.hw.muxscan import MuxScanner
LedChain(Np(85), 9, fast=ns).show(new_frame(9), 0)
MuxScanner(9, [Pin() for _ in range(4)], [Pin() for _ in range(4)], [Adc(), Adc()], fast=ns)
# (calib's plain look is left out by sys.platform, which is not rp2 here)
print("PLAIN", sorted(m for m in sys.modules if m.endswith("plain") and m != "gogadget.hw.calibplain"))
"""


def test_with_the_twins_installed_no_plain_loop_is_loaded():
    res = run_micropython(NO_PLAIN, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "MOVES 4" in res.stdout, res.stdout
    assert "PLAIN []" in res.stdout, res.stdout
