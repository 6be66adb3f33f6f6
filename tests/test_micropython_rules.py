"""The rules core under the real MicroPython: same checks, same answers.

tests/mp/rules_checks.py and score_checks.py run under CPython (here) and
under `micropython`; every check's output line (diagram, Zobrist key,
prisoners, results) must be identical, so the firmware behaves the same on
the board as in the simulator.
"""
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "mp"))
import rules_checks  # noqa: E402
import score_checks  # noqa: E402

MP = Path(__file__).resolve().parent / "mp"


def cpython_lines(module):
    buf = io.StringIO()
    with redirect_stdout(buf):
        module.run_all()
    return buf.getvalue().splitlines()


def test_rules_checks_match_under_micropython(micropython):
    want = cpython_lines(rules_checks)
    assert len(want) >= 25 and not any("FAIL" in line for line in want)
    got = micropython(code="import rules_checks; rules_checks.run_all()")
    assert got.returncode == 0, got.stdout + got.stderr
    assert got.stdout.splitlines() == want


def test_score_checks_match_under_micropython(micropython):
    want = cpython_lines(score_checks)
    assert len(want) >= 10 and not any("FAIL" in line for line in want)
    got = micropython(code="import score_checks; score_checks.run_all()")
    assert got.returncode == 0, got.stdout + got.stderr
    assert got.stdout.splitlines() == want


def test_play_and_legal_allocate_nothing(micropython):
    """With the heap locked (micropython.heap_lock), a normal move, a
    capture, legal() and a ko refusal under simple, positional and
    situational ko must run: any allocation raises MemoryError."""
    got = micropython(args=[str(MP / "heap_board.py")])
    assert got.returncode == 0, got.stdout + got.stderr
    lines = got.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        # (normal OK, capture OK, suicide, OK, OK, ko, undo, 2 moves, 1 prisoner)
        assert line.split(" ", 1)[1] == "[(0, 0, 2, 0, 0, 3, True, 2, 1)]", line


def test_heap_lock_really_catches_allocation(micropython):
    """The heap test can fail: an allocating call under heap_lock errors."""
    got = micropython(code="import micropython\nmicropython.heap_lock()\nx = [1, 2]\n")
    assert got.returncode != 0 and "MemoryError" in got.stdout + got.stderr


def test_zeros_allocates_its_buffer_once(micropython):
    """compat.zeros: a zeroed array whose construction holds no second
    buffer (the board's tables are built when the heap is fullest, at boot).
    The same measurement shows array(t, bytes(k)) needing twice the room."""
    code = (
        "import gc\nfrom array import array\nfrom gogadget.compat import zeros\n"
        "gc.collect(); gc.disable()\n"
        "a = gc.mem_alloc(); z = zeros('i', 840); once = gc.mem_alloc() - a\n"
        "a = gc.mem_alloc(); y = array('i', bytes(3360)); twice = gc.mem_alloc() - a\n"
        "print(len(z), z.typecode if hasattr(z, 'typecode') else 'i', sum(z), once, twice)\n")
    got = micropython(code=code)
    assert got.returncode == 0, got.stdout + got.stderr
    n, typecode, total, once, twice = got.stdout.split()
    assert (n, typecode, total) == ("840", "i", "0")
    assert 3360 <= int(once) < 3360 + 256, got.stdout
    assert int(twice) >= 2 * 3360, got.stdout  # what zeros() avoids
