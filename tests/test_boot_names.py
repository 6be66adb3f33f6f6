"""The names the board interns at its start stay within the budget of
host_sim/tools/memory.py (NAMES), counted by the unix port on the firmware's
.mpy files as `make mpy` builds them.

MicroPython interns every name and short string of a module it loads and
never frees one; its table of names grows by doubling, one block of the
heap each time.  On the emulated Pico W with the room, past the line the
next block was 7.7 KB of a heap the room needs (issue 26's target).  The
test fails when a change adds names beyond the budget: cut names
(docs/ARCHITECTURE.md, "Names"), or raise the budget knowing that line."""
import io
import re

import pytest

from conftest import ROOT, run_micropython
from host_sim.tools import memory, mpy

PROBE = str(ROOT / "tests" / "mp" / "boot_names.py")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("mpy")
    mpy.build(out=out, stream=io.StringIO())
    return out


def count(out, tag):
    m = re.search(tag + r" qstr pool: n_pool=\d+, n_qstr=(\d+)", out)
    assert m, out[-2000:]
    return int(m.group(1))


@pytest.mark.parametrize("config", sorted(memory.NAMES))
def test_the_names_learnt_at_the_start_stay_in_budget(built, config, micropython):
    res = run_micropython(args=[PROBE] + ([] if config == "plain" else [config]),
                          cwd=str(built), path=[built, ROOT / "tests" / "mp"])
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-3000:]
    names = count(out, "NAMES AFTER") - count(out, "NAMES BEFORE")
    assert names <= memory.NAMES[config], (
        "%s: %d names at the start, budget %d" % (config, names, memory.NAMES[config]))
    # A budget far above the count guards nothing: lower it as names are cut.
    assert names > memory.NAMES[config] - 100, (
        "%s: %d names, budget %d: lower the budget" % (config, names, memory.NAMES[config]))




def test_the_rooms_budget_is_under_the_line():
    """The room's budget, with what the emulated Pico W counts beyond the
    unix port (~140 names) and a margin for names made at run time, stays
    under the line where the table's next block (7.7 KB) is taken."""
    assert memory.NAMES["room"] + 140 + 40 <= memory.NAMES_LINE, memory.NAMES


def test_a_paired_boards_pairing_interns_no_name_after_the_start(built, micropython):
    """A board paired with a remote one (issue 35's heaviest board) loads
    pairing.py with the room's publisher and pairops.py for its rare jobs
    mid-game (the opponent's snapshot, the end taken from there): boot
    learns both modules' names first, so neither grows the table later."""
    res = run_micropython(args=[PROBE, "room", "clock", "pair"],
                          cwd=str(built), path=[built, ROOT / "tests" / "mp"])
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-3000:]
    assert count(out, "NAMES LATER") == count(out, "NAMES AFTER"), out[-2000:]
    # (and under the line, as the room's budget is: test_the_rooms_budget_is_under_the_line)
    assert count(out, "NAMES AFTER") - count(out, "NAMES BEFORE") + 140 + 40 <= memory.NAMES_LINE
