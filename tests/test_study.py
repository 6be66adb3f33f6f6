"""Study mode (issue 37): the scenarios of tests/mp/study_scenarios.py
under CPython (one case each) and under the MicroPython unix port, and
the problem reader (firmware/gogadget/tsumego.py) fed what it must refuse.
"""
import sys

import pytest

from conftest import FIRMWARE, ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
sys.path.insert(0, str(FIRMWARE))
import referee_scenarios  # noqa: E402
import study_scenarios  # noqa: E402
from gogadget import tsumego  # noqa: E402

PROBLEMS = ROOT / "host_sim" / "problems"
CASES = [name for name, _ in referee_scenarios.scenarios(vars(study_scenarios))]


def _scratch(tmp_path):
    study_scenarios.SOURCE[0] = str(PROBLEMS)
    return str(tmp_path)


@pytest.mark.parametrize("name", CASES)
def test_study_scenario_cpython(name, tmp_path):
    getattr(study_scenarios, name)(_scratch(tmp_path))


def test_study_scenarios_micropython(micropython, tmp_path):
    code = ("import sys, referee_scenarios, study_scenarios\n"
            "study_scenarios.SOURCE[0] = %r\n"
            "sys.exit(referee_scenarios.run_all(%r, study_scenarios.__dict__))\n"
            % (str(PROBLEMS), str(tmp_path)))
    proc = micropython(code=code, timeout=300)
    out = proc.stdout + proc.stderr
    passed = [line.split()[1] for line in out.splitlines() if line.startswith("PASS ")]
    assert proc.returncode == 0, out
    assert sorted(passed) == sorted(CASES), out


def _tree(n):
    """A problem whose tree has n moves: one correct line and n-1 wrong
    first moves, each a node of its own (19x19 has room for 360)."""
    letters = "abcdefghijklmnopqrs"
    parts = ["(;GM[1]FF[4]SZ[19]AB[aa]AW[ba](;B[ss]C[RIGHT])"]
    k = 1
    while k < n:
        x, y = letters[(k // 19) % 19], letters[k % 19]
        parts.append("(;B[%s%s]C[Wrong])" % (x, y) if (x, y) != ("s", "s") else "(;B[]C[x])")
        k += 1
    return "".join(parts) + ")"


@pytest.mark.parametrize("text,message", [
    ("", "no game tree"),
    ("no tree here", "no game tree"),
    ("(;SZ[9]AB[aa];B[bb]C[RIGHT]", "the file ends inside the tree"),
    ("(;SZ[9]AB[aa];B[bb]C[RIGHT]) junk", None),  # text after the first tree is not read
    ("(;SZ[9]AB[aa];B[zz]C[RIGHT])", "off the 9x9 board"),
    ("(;SZ[9]AB[aa];B[bb]C[Wrong])", "no correct line"),
    ("(;SZ[9]AB[aa];B[bb]C[Incorrect])", "no correct line"),
    ("(;SZ[9]AB[aa];B[bb]C[COPYRIGHT 2026])", "no correct line"),
    ("(;SZ[9]AB[aa];B[bb]C[Correct!])", None),
    ("(;SZ[9]AB[aa];B[bb]C[ + ])", None),
    ("(;SZ[9]AB[aa];B[bb];C[that is RIGHT])", None),  # a comment-only node marks the move
    ("(;SZ[19]AB[aa];B[bb]C[RIGHT])", "a 19x19 problem: larger than the 9x9 board"),
    ("(;SZ[7]AB[aa];B[bb]C[RIGHT])", "a 7x7 problem: the board is 9x9"),
    ("(;SZ[9]AB[aa])", "no moves"),
    ("(;SZ[9]B[aa];W[bb]C[RIGHT])", "the first node has a move"),
    ("(;SZ[9]AB[aa];B[bb]AW[cc]C[RIGHT])", "set-up stones after the first node"),
    ("(;SZ[9]AB[aa];B[bb]W[cc]C[RIGHT])", "two moves in one node"),
    ("(;SZ[9]AB[aa]];B[bb]C[RIGHT])", "unexpected"),
])
def test_reader_messages(tmp_path, text, message):
    f = tmp_path / "p.sgf"
    f.write_text(text)
    if message is None:
        p = tsumego.read(str(f), 9)
        assert p.flags[0] & tsumego.F_LINE
    else:
        with pytest.raises(ValueError, match=message):
            tsumego.read(str(f), 9)
    assert f.read_text() == text  # nothing lost


def test_reader_refuses_a_5000_node_tree_and_reads_a_bounded_one(tmp_path):
    f = tmp_path / "big.sgf"
    f.write_text(_tree(5000))
    with pytest.raises(ValueError, match="more than %d moves" % tsumego.MAX_NODES):
        tsumego.read(str(f), 19)
    f.write_text(_tree(tsumego.MAX_NODES - 1))
    p = tsumego.read(str(f), 19)
    assert p.n == tsumego.MAX_NODES
    assert p.child(0, 1, p.pt(1)) == 1 and p.flags[1] & tsumego.F_RIGHT


def test_reader_5000_nodes_on_the_unix_port_in_a_small_heap(micropython, tmp_path):
    """The Pico's heap is ~200 KB: the reader refuses the big tree with its
    message and no MemoryError in a 64 KB heap, and reads the composed
    problems there."""
    f = tmp_path / "big.sgf"
    f.write_text(_tree(5000))
    code = ("from gogadget import tsumego\n"
            "try:\n tsumego.read(%r, 19)\nexcept ValueError as e:\n print('REFUSED', e)\n"
            "p = tsumego.read(%r, 9)\nprint('READ', p.n)\n"
            % (str(f), str(PROBLEMS / "p02-straight-three.sgf")))
    proc = micropython(code=code, heapsize="64k")
    out = proc.stdout + proc.stderr
    assert "REFUSED more than %d moves" % tsumego.MAX_NODES in proc.stdout, out
    assert "READ 10" in proc.stdout


def test_study_code_is_let_go_after_study_mode_on_the_unix_port(micropython, tmp_path):
    """A game never holds study.py or tsumego.py: not before study mode,
    and not after it is left (their bytecode is heap on the board)."""
    code = ("import sys, gc, study_scenarios as s\n"
            "from gogadget.events import BTN_STUDY\n"
            "s.SOURCE[0] = %r\n"
            "h = s._hand(s._folder(%r, 'mem'))\n"
            "h.moves('E5 D5')\n"
            "print('BEFORE', [m for m in sys.modules if m.startswith('gogadget.') and "
            "('study' in m or 'tsumego' in m)])\n"
            "h.press(BTN_STUDY); s._set_up(h)\n"
            "print('DURING', sorted(m for m in sys.modules if m in "
            "('gogadget.study', 'gogadget.tsumego')))\n"
            "h.press(BTN_STUDY); h.press(BTN_STUDY)\n"
            "for pl in range(81): h.scan[pl] = 0\n"
            "h.wait_ms(2000); h.moves('E5 D5')\n"
            "print('AFTER', [m for m in sys.modules if m.startswith('gogadget.') and "
            "('study' in m or 'tsumego' in m or 'review' in m)], h.ref.study)\n"
            % (str(PROBLEMS), str(tmp_path)))
    proc = micropython(code=code)
    out = proc.stdout + proc.stderr
    assert "BEFORE []" in out, out
    assert "DURING ['gogadget.study', 'gogadget.tsumego']" in out, out
    assert "AFTER [] None" in out, out
