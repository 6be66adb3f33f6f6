"""The heap on a small board (issue 11): a long game's journal is decoded a
record at a time, the modules needed only now and then (the SGF writer and
reader, the score, the font) leave the heap after use on MicroPython, and a
game that cannot be saved at its end (out of memory, flash full) is never
lost: it stays in the journal, is saved at the next new game, or is moved
aside whole.  The figures themselves come from the emulated Pico:
`python -m host_sim.bench.rp2 heap`."""
from conftest import run_micropython

from gogadget import journal as jn

from gogadget import journalread as jr
from gogadget import sgf
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM, BTN_PASS
from gogadget.points import parse_vertex
from gogadget.referee import Referee


def _boot(store, size=9):
    j = jn.Journal(store)
    ref = Referee(Config(size=size), j)
    records, report = jr.load(j)
    ref.resume(records, report, 0)
    return ref, j


def _play_to_the_end(ref):
    for v in ("D4", "E5", "C3", "F6"):
        assert ref.external_move(ref.to_move(), parse_vertex(ref.size, v)) == 0
    ref.press(BTN_PASS, 0)
    ref.press(BTN_PASS, 0)
    assert ref.phase == "count"
    ref.press(BTN_CONFIRM, 0)
    assert ref.phase == "over"


def _events(ref):
    out = []
    while True:
        ev = ref.poll_event()
        if ev is None:
            return out
        out.append(ev)


def test_journal_records_are_decoded_when_asked_for(tmp_path):
    store = str(tmp_path / "g")
    ref, j = _boot(store)
    for v in ("D4", "E5", "C3"):
        ref.external_move(ref.to_move(), parse_vertex(9, v))
    j.close()
    records, report = jr.load(jn.Journal(store))
    assert report == "" and not isinstance(records, list)
    data = open(store + "/" + jn.NAME, "rb").read()
    want = [jr.decode(data, pos) for pos in range(0, len(data), jn.RECORD)]
    assert len(records) == len(want) and list(records) == want
    assert records[0] == want[0] and records[-1] == want[-1] and records[-1][0] == jn.K_MOVE
    assert not jr.load(jn.Journal(str(tmp_path / "empty")))[0]


def test_a_game_that_cannot_be_saved_is_saved_at_the_next_new_game(tmp_path, monkeypatch):
    store = str(tmp_path / "g")
    ref, _ = _boot(store)
    real = sgf.save_game

    def no_memory(*args, **kw):
        raise MemoryError("memory allocation failed")

    monkeypatch.setattr(sgf, "save_game", no_memory)
    _play_to_the_end(ref)
    errors = [t for k, t in _events(ref) if k == "error"]
    assert errors and "out of memory" in errors[0] and "journal" in errors[0]
    assert ref.unsaved and jn.game_names(store) == []
    monkeypatch.setattr(sgf, "save_game", real)
    result = ref.result
    ref.new_game()
    assert jn.game_names(store) == ["0001.sgf"] and not ref.unsaved
    game = sgf.parse(open(store + "/0001.sgf").read())
    assert len(game.moves) == 6 and game.result == result  # 4 stones, 2 passes


def test_a_game_that_cannot_be_saved_twice_is_kept_as_its_journal(tmp_path, monkeypatch):
    store = str(tmp_path / "g")
    ref, _ = _boot(store)

    def flash_full(*args, **kw):
        raise OSError(28)

    monkeypatch.setattr(sgf, "save_game", flash_full)
    _play_to_the_end(ref)
    ref.new_game()
    assert not ref.unsaved and jn.game_names(store) == []
    kept = [t for k, t in _events(ref) if k == "error" and "journal-1.bad" in t]
    assert kept, "the person is told where the game went"
    aside = open(store + "/journal-1.bad", "rb").read()
    moves = [jr.decode(aside, p) for p in range(0, len(aside), jn.RECORD)]
    assert sum(1 for m in moves if m[0] == jn.K_MOVE) == 6  # 4 stones, 2 passes
    # The new game has a journal of its own.
    assert jr.load(jn.Journal(store))[0][0][0] == jn.K_NEW


RARE = """
import sys, gc
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM, BTN_PASS
from gogadget.points import parse_vertex
from gogadget.referee import Referee
j = jn.Journal(%r)
ref = Referee(Config(size=9), j)
ref.resume(*jr.load(j), 0)
for v in ("D4", "E5", "C3", "F6"):
    ref.external_move(ref.to_move(), parse_vertex(9, v))
ref.press(BTN_PASS, 0)
print("after one pass", "gogadget.score" in sys.modules)
ref.press(BTN_PASS, 0)
print("counting", ref.phase, "gogadget.score" in sys.modules, repr(ref.counted))
ref.press(BTN_CONFIRM, 0)
print("over", ref.phase, jn.game_names(%r))
print("loaded", [m for m in ("gogadget.sgf", "gogadget.font",
                             "gogadget.score") if m in sys.modules or hasattr(sys.modules["gogadget"], m[9:])])
print("sgf", len(ref.sgf()) > 50, "gogadget.sgf" in sys.modules)
"""


def test_rare_modules_leave_the_heap_on_micropython(tmp_path):
    store = str(tmp_path / "g")
    res = run_micropython(RARE % (store, store))
    out = res.stdout
    assert res.returncode == 0, out + res.stderr
    assert "after one pass False" in out
    # score is loaded for each count and let go after it (counting.count):
    # the count is made, its module not held through the counting.
    assert "counting count False 'B+" in out or "counting count False 'W+" in out, out
    assert "over over ['0001.sgf']" in out
    assert "loaded []" in out
    assert "sgf True False" in out


DRIFT_IN_A_FRAGMENTED_HEAP = r"""
import gc
from gogadget.hw import calibderive
cal = calibderive.load(%r, 19)  # at boot, before the game fragments the heap
gc.collect()
hold = [None] * 400
big = [None] * 40
n = k = b = 0  # every global made before the heap is full (a new one grows the dict)
try:
    while n < len(hold):
        hold[n] = bytearray(1100)
        n += 1
except MemoryError:
    pass
while k < n:  # every other block free (no allocation): no piece of 2 KB
    hold[k] = None
    k += 2
gc.collect()
while b < len(big):  # and any piece of 2 KB left is taken too
    try:
        big[b] = bytearray(2048)
    except MemoryError:
        break
    b += 1
try:
    bytearray(2048)
    print("a 2 KB block is free")
except MemoryError:
    print("no 2 KB block")
for i in range(361):
    cal.base[i] += 300  # the sensors drifted a tracking band and more
cal.dirty = True
cal.save_drift()
print("saved", cal.dirty, cal.path, "from", calibderive.__file__)
"""


def test_a_calibration_drift_is_written_back_in_a_fragmented_heap(tmp_path, micropython,
                                                                  mpy_build):
    # The file (2.5 KB on 19x19) is copied a few places at a time, never
    # read whole: mid-game, a fragmented heap may have no block that big.
    # The write's module (hw/calibfile.py) is loaded then, from its .mpy as
    # on the board (from source the unix port's compiler would want more).
    from gogadget.hw import calibderive
    from gogadget.hw.calib import Calibration
    path = str(tmp_path / "calib.bin")
    Calibration(19).save(path)
    before = open(path, "rb").read()
    code = "import sys\nsys.path.insert(0, %r)\n" % str(mpy_build) + DRIFT_IN_A_FRAGMENTED_HEAP % path
    res = micropython(code=code, heapsize="96k")
    out = res.stdout + res.stderr
    assert "no 2 KB block" in out and "saved False " + path in out, out
    assert "from " + str(mpy_build) in out, out
    back = calibderive.load(path, 19)
    assert [back.base[i] for i in range(3)] == [32768 + 300] * 3
    assert open(path, "rb").read() != before
