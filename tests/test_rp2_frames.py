"""No heap frames on the rules core's hot path.

MicroPython gives a call a heap-allocated frame when its locals plus working
stack exceed 11 words (py/objfun.c, VM_MAX_STATE_ON_STACK); on a fragmented
heap that allocation costs more than the move itself.  heap_lock() hides it
(the call falls back to the C stack), so this test measures it instead: a
probe put in place of a method the hot path calls reads gc.mem_alloc() from
inside the call chain, with the collector off, and any frame on the heap
shows as bytes held above the caller's.  The bound is counted in words, so
the unix port (the same compiler as the .mpy files for the board) gives the
same answer as the rp2 port; the flood fill and capture loops themselves
are viper code on the RP2040 (hw/rp2fast.py) and are left out here, as are
the settler's and the diff's per-place passes, whose callers are checked below.
"""
from conftest import run_micropython

PROBE = r"""
import gc
from gogadget.board import Board
from gogadget.rules import KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL, KO_PREVIOUS

held = {}
base = [0]

def watch(board, name):
    orig = getattr(board, name)
    def p0():
        held[name] = max(held.get(name, 0), gc.mem_alloc() - base[0])
        return orig()
    def p1(a):
        held[name] = max(held.get(name, 0), gc.mem_alloc() - base[0])
        return orig(a)
    def p2(a, b):
        held[name] = max(held.get(name, 0), gc.mem_alloc() - base[0])
        return orig(a, b)
    def p3(a, b, c):
        held[name] = max(held.get(name, 0), gc.mem_alloc() - base[0])
        return orig(a, b, c)
    return (p0, p1, p2, p3)

SIGS = {"_next_gen": 0, "_flip": 2,
        "_same_position": 1, "_count": 2, "_suicide": 2, "_unmake": 0}

# The capture (board._FAST[1]: boardplain.remove here, its viper twin on
# the RP2040) is reached through a slot, not a method: probed there.
from gogadget import board as core
def _remove_probe(orig):
    def remove_probed(board, n, top):
        held["_remove"] = max(held.get("_remove", 0), gc.mem_alloc() - base[0])
        return orig(board, n, top)
    return remove_probed

# The position keys are module functions (board.key, board.point_key):
# probed where _flip looks them up, in board's globals.  (A probe sees the
# frames above it: point_key's checks key's and _flip's; point_key itself
# is a leaf, its frame an argument, a local and three words of stack.)
def _key_probes():
    key, point_key = core.key, core.point_key
    def key_probed(pt, colour):
        held["key"] = max(held.get("key", 0), gc.mem_alloc() - base[0])
        return key(pt, colour)
    def point_key_probed(pt):
        held["point_key"] = max(held.get("point_key", 0), gc.mem_alloc() - base[0])
        return point_key(pt)
    core.key = key_probed
    core.point_key = point_key_probed

def probed(ko):
    b = Board(9, ko, 0)  # the first Board puts the plain loops in place
    if not core._FAST[1].__name__ == "remove_probed":
        core._FAST[1] = _remove_probe(core._FAST[1])
        _key_probes()
    for name, n in SIGS.items():
        setattr(b, name, watch(b, name)[n])
    return b

def run(ko, moves):
    b = probed(ko)
    for name in tuple(SIGS) + ("_remove", "key", "point_key"):
        held[name] = -1  # every key in place first: storing into held then allocates nothing
    results = []
    for colour, pt in moves:
        gc.collect()
        gc.disable()
        base[0] = gc.mem_alloc()
        results.append(b.play(colour, pt))
        gc.enable()
    return results

# 9x9: points are (row + 1) * 10 + col.  Black A1 B1, White A2 B2, then
# White C1 captures both (the flood fill and the removal run); then a ko.
W = 10
def pt(col, row):
    return (row + 1) * W + col
moves = [(1, pt(0, 0)), (2, pt(0, 1)), (1, pt(1, 0)), (2, pt(1, 1)), (1, pt(5, 5)),
         (2, pt(2, 0)),
         # a ko shape at D5/E5: B C5 D4 D6, W F5 E4 E6, B E5, W D5 takes, B E5 retakes
         (1, pt(2, 4)), (2, pt(5, 4)), (1, pt(3, 3)), (2, pt(4, 3)), (1, pt(3, 5)),
         (2, pt(4, 5)), (1, pt(4, 4)), (2, pt(3, 4)), (1, pt(4, 4))]
for ko in (KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL, KO_PREVIOUS):
    res = run(ko, moves)
    print("KO", ko, res, sorted(held.items()))
"""



def test_play_takes_no_heap_frames():
    res = run_micropython(PROBE)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = [line for line in res.stdout.splitlines() if line.startswith("KO")]
    assert len(lines) == 4, res.stdout
    for line in lines:
        held = eval(line.split(" ", 2)[2].split("] ", 1)[1])
        probes = {k: v for k, v in held if v >= 0}
        # every probe on the path was reached ...
        for name in ("_next_gen", "_flip", "key", "point_key", "_remove", "_count"):
            assert name in probes, (line, name)
        # ... and found nothing on the heap above the move's caller
        assert all(v == 0 for v in probes.values()), line


# The per-scan path (Referee.update -> Settler.feed -> _debounce -> the
# per-place pass, and -> _adopt -> the adoption) and the referee's look at a
# settled batch (update -> refresh -> play.refresh -> view.diff -> its pass):
# probes put in place of the passes (the viper twins' slots, settle.use_fast
# and view.use_fast) read the heap from inside the chain while stones are put
# down, settle and become moves.
SETTLE_PROBE = r"""
import gc
from gogadget import settle, settleplain, view, viewplain
from gogadget.config import Config
from gogadget.settle import WARM_MS
from gogadget.referee import Referee

held = {}
base = [0]
first = [True]

def note(name):
    d = gc.mem_alloc() - base[0]
    if d > held.get(name, -1):
        held[name] = d

def places(st, scan):
    note("settle._places")
    settleplain.places(st, scan)

def mark(st, lo, hi):
    note("settle._mark")
    settleplain.mark(st, lo, hi)

def diff_places(ref):
    if first[0]:
        first[0] = False
        note("view._places")
    viewplain.places(ref)
    return 0

for name in ("settle._places", "settle._mark", "view._places"):
    held[name] = -1
settle.use_fast(places, mark)
view.use_fast(diff_places)
size = 9
ref = Referee(Config(size=size))
ref.resume([], "", 0)
scan = bytearray(size * size)
now = 0
def step():
    global now
    gc.collect()
    gc.disable()
    first[0] = True
    base[0] = gc.mem_alloc()
    ref.update(scan, now)
    gc.enable()
    now += ref.config.scan_period_ms()
for _ in range(ref.config.scans(WARM_MS + 200)):  # past the boot warm-up
    step()
for name in held:
    held[name] = -1
for i, pl in enumerate((40, 41, 30, 50, 10)):
    scan[pl] = 1 + (i & 1)
    for _ in range(ref.config.scans(300)):  # 50 lands beside 41: slide_ms
        step()
print("MOVES", ref.board.moves)
print("HELD", sorted(held.items()))
"""


def test_settle_and_diff_take_no_heap_frames():
    res = run_micropython(SETTLE_PROBE)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "MOVES 5" in res.stdout, res.stdout
    held = dict(eval(res.stdout.split("HELD ", 1)[1]))
    assert set(held) == {"settle._places", "settle._mark", "view._places"}, held
    # every probe was reached, and found nothing on the heap above update()'s caller
    assert all(v == 0 for v in held.values()), held
