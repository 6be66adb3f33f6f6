"""The memory budget of every phase of the board, with no firmware image:
main.py's whole app plays a game under the unix port (tests/mp/phase_game.py),
which records the firmware modules loaded in each phase (idle, playing,
counting, saving, over, a new game, a resume after a power cut, a host over
GTP, the room link); their .mpy files, compiled as `make mpy` compiles them
for the RP2040, must add up to no more than host_sim/tools/memory.py's
budget, and a phase may hold no module it does not need.  The heap itself
is measured on the emulated Pico (`python -m host_sim.bench.rp2 heap`)."""
import json
import re
import shutil

import pytest

from conftest import ROOT, run_micropython
from host_sim.tools import memory

SCRIPT = str(ROOT / "tests" / "mp" / "phase_game.py")


def play(mode, cwd, *more):
    res = run_micropython(args=[SCRIPT, mode, *more], cwd=str(cwd), timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def phases(tmp_path_factory):
    game = tmp_path_factory.mktemp("game")
    room = tmp_path_factory.mktemp("room")
    clocked = tmp_path_factory.mktemp("clocked")
    assert play("calibrate", game) == {"calibration": "ok"}
    shutil.copy(game / "calib.bin", room / "calib.bin")
    shutil.copy(game / "calib.bin", clocked / "calib.bin")
    seen = {}
    seen.update(play("game", game)["phases"])
    seen.update(play("resume", game)["phases"])  # the same flash after a power cut
    seen.update(play("clock", clocked)["phases"])  # a game on a time control
    out = play("room", room)
    seen.update(out["phases"])
    assert out["published"][0] > 6  # every move went out through gogadget.mqtt
    return {phase: memory.as_on_the_board(mods) for phase, mods in seen.items()}


@pytest.fixture(scope="module")
def sizes(phases):
    mods = set(memory.CORE)
    for held in phases.values():
        mods |= held
    return memory.mpy_sizes(mods)


def violations(phases, sizes):
    """What breaks the budget: a phase holding a module it does not need, or
    more bytes of .mpy than its budget."""
    out = []
    for phase in memory.PHASES:
        if phase not in phases:
            out.append("%s: the game never reached it" % phase)
            continue
        extra = sorted(phases[phase] - memory.allowed(phase))
        if extra:
            out.append("%s: does not need %s" % (phase, ", ".join(extra)))
        total = sum(sizes[m] for m in phases[phase])
        if total > memory.budget(phase):
            out.append("%s: %d bytes of .mpy, budget %d" % (phase, total, memory.budget(phase)))
    return out


def test_every_phase_holds_what_it_needs_within_its_budget(phases, sizes):
    assert violations(phases, sizes) == []


def test_a_module_the_phase_does_not_need_fails_the_guard(tmp_path, sizes, phases):
    # As if the play phase imported the SGF module at the top (a small
    # module: the guard names it even where the bytes would still fit).
    shutil.copy(_calibrated(tmp_path), tmp_path / "calib.bin")
    seen = play("game", tmp_path, "gogadget.font")["phases"]
    seen = {phase: memory.as_on_the_board(mods) for phase, mods in seen.items()}
    more = dict(sizes)
    more.update(memory.mpy_sizes({"gogadget.font"}))
    bad = violations(seen, more)
    assert "playing: does not need gogadget.font" in bad, bad
    assert not [b for b in bad if b.startswith("idle")], bad  # imported after idle


def _calibrated(tmp_path):
    d = tmp_path / "cal"
    d.mkdir()
    assert play("calibrate", d) == {"calibration": "ok"}
    return d / "calib.bin"


def test_architecture_quotes_the_memory_map(sizes):
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\| ([a-z ]+) \| ([^|]*) \| (\d+) \| (\d+) \|$", line)
        if m:
            rows[m.group(1)] = (m.group(2).strip(), int(m.group(4)))
    want = {}
    for phase, (extra, limit) in memory.PHASES.items():
        want[phase] = (", ".join(memory.short(m) for m in extra) or "-", limit)
    assert rows == want, "docs/ARCHITECTURE.md: paste `python -m host_sim.tools.memory`"


def test_the_referee_names_plays_idle_take_back_as_play_does():
    # The referee loads play.py only while a game is played, so it keeps
    # the one constant it needs before that: it must be play's.
    from gogadget import gameops, play, referee
    assert referee._TB_NONE == gameops._TB_NONE == play._TB_NONE


def test_the_phase_modules_use_the_referees_state_slots():
    # Referee._state's slots are private consts (no names on the board):
    # the phase modules' copies must be the referee's.
    from gogadget import counting, ending, gameops, play, referee, takeback
    assert (play._MULTI, play._REPORTED, play._RESUMED, play._TB_CONFIRMED,
            play._TB_CONFIRMED_MS) == (referee._MULTI, referee._REPORTED, referee._RESUMED,
                                       referee._TB_CONFIRMED, referee._TB_CONFIRMED_MS)
    assert (takeback._TB_CONFIRMED, takeback._TB_CONFIRMED_MS) == (
        referee._TB_CONFIRMED, referee._TB_CONFIRMED_MS)
    assert gameops._TB_CONFIRMED == referee._TB_CONFIRMED
    assert counting._RESUMED == referee._RESUMED
    assert (ending._OVER_MS, ending._CLEARED) == (referee._OVER_MS, referee._CLEARED)
    assert referee._CLEARED < referee._STATE_SLOTS


def test_the_plain_diff_names_marks_and_faults_as_view_does():
    # viewplain is loaded by view.diff, so it cannot import view's constants
    # back: its copies must be view's.
    from gogadget import view, viewplain
    assert (viewplain._M_REMOVE, viewplain._M_STRAY, viewplain._M_CONTRA, viewplain._F_IGNORED,
            viewplain._F_DRIVER, viewplain._TICK_SHIFT) == (
        view.M_REMOVE, view.M_STRAY, view.M_CONTRA, view.F_IGNORED, view._F_DRIVER,
        view._TICK_SHIFT)


def test_the_take_back_names_its_stages_as_play_does():
    # takeback is loaded by play, so it cannot import play's stages back.
    from gogadget import play, takeback
    assert (takeback._TB_NONE, takeback._TB_LIFTED, takeback._TB_RETURNING,
            takeback._TB_AMBIGUOUS) == (play._TB_NONE, play._TB_LIFTED, play._TB_RETURNING,
                                        play._TB_AMBIGUOUS)


# The second pass ends the game: the count's modules come, and play's must
# be gone first (the lowest heap of a game was there when both were held).
# And the confirmed count lets counting and score go before the record is
# kept.  Looked at from inside the moves, under the unix port (forget works
# there as on the board).
HANDOVER = r"""
import sys
from gogadget.config import Config
from gogadget.events import BTN_PASS, BTN_CONFIRM
from gogadget.referee import Referee
ref = Referee(Config(size=9))
ref.resume([], "", 0)
now = 0
for _ in range(20):
    ref.update(bytearray(81), now)
    now += 20
ref.press(BTN_PASS, now)
# Loaded now, as the referee would load them (it lets them go when play
# resumes, which it has), and watched.
from gogadget import counting, ending
seen = []
start = counting.start
def watch_start(ref):
    seen.append(("start", "gogadget.play" in sys.modules))
    start(ref)
counting.start = watch_start
keep = ending.keep
def watch_keep(ref, kind):
    seen.append(("keep", "gogadget.counting" in sys.modules or "gogadget.score" in sys.modules))
    return keep(ref, kind)
ending.keep = watch_keep
ref.press(BTN_PASS, now)
print("PHASE", ref.phase)
ref.press(BTN_CONFIRM, now)
print("PHASE", ref.phase)
print("SEEN", seen)
"""


def test_play_goes_before_the_count_comes_and_the_count_before_the_record():
    res = run_micropython(HANDOVER)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "PHASE count" in res.stdout and "PHASE over" in res.stdout, res.stdout
    assert "SEEN [('start', False), ('keep', False)]" in res.stdout, res.stdout
