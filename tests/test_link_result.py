"""The link's commands for a game played across a link (`gogadget online`):
gogadget-marked (the stones lifted as dead while counting) and
gogadget-result (a result decided off the board), on the real App with its
journal: the result survives a power cut and lands in the kept record."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "mp"))
from fake_referee import FakeStream  # noqa: E402

from gogadget import events  # noqa: E402
from host_sim.sim.simboard import SimBoard  # noqa: E402
from test_link_app import drive  # noqa: E402


def settle(sim, steps=200):
    for _ in range(steps):
        sim.step()


def board(store):
    st = FakeStream()
    sim = SimBoard(size=9, stream=st, store_dir=str(store), colour=-1)  # follows prompts only
    sim.person.confirm_count = False  # the test lifts the dead and confirms
    return sim, st


def kept(store):
    return sorted(n for n in os.listdir(store) if n.endswith(".sgf") and n[:4].isdigit())


def test_a_result_told_by_the_host_is_journalled_and_kept(tmp_path):
    sim, st = board(tmp_path)
    try:
        for line in ("play b E5", "play w C3", "play b G7"):
            assert drive(sim, st, line) == "= \n\n"
        settle(sim)
        assert drive(sim, st, "gogadget-result W+Q").startswith("? bad margin Q")
        assert drive(sim, st, "gogadget-result X+R").startswith("? expected")
        assert drive(sim, st, "gogadget-result B+0").startswith("? bad margin")
        assert drive(sim, st, "gogadget-result W+T") == "= \n\n"
        status = drive(sim, st, "gogadget-status")
        assert "phase=over" in status and "result=W+T" in status
        assert "RE[W+T]" in drive(sim, st, "gogadget-sgf")
        assert "result W+T (told by the host)" in drive(sim, st, "gogadget-events")
        names = kept(tmp_path)
        assert len(names) == 1 and "RE[W+T]" in (tmp_path / names[0]).read_text()
    finally:
        sim.close()
    # Power back on: the journal replays the result (W+T is a code, no margin).
    again, st = board(tmp_path)
    try:
        settle(again, 20)
        assert "result=W+T" in drive(again, st, "gogadget-status")
        assert again.app.referee.result == "W+T"
    finally:
        again.close()


def test_a_resignation_told_by_the_host(tmp_path):
    sim, st = board(tmp_path)
    try:
        drive(sim, st, "play b E5")
        settle(sim)
        assert drive(sim, st, "gogadget-result B+R") == "= \n\n"
        assert "result=B+R" in drive(sim, st, "gogadget-status")
    finally:
        sim.close()
    again, st = board(tmp_path)
    try:
        settle(again, 20)
        assert again.app.referee.result == "B+R"
    finally:
        again.close()


def test_marked_dead_stones_and_the_agreed_count_replacing_the_boards(tmp_path):
    sim, st = board(tmp_path)
    try:
        for line in ("play b E5", "play w C3", "play b G7", "play w pass", "play b pass"):
            assert drive(sim, st, line) == "= \n\n", line
        settle(sim)
        assert "phase=count" in drive(sim, st, "gogadget-status")
        assert drive(sim, st, "gogadget-marked") == "= \n\n"
        sim.stones.lift("C3")  # the person lifts the white stone: dead
        settle(sim)
        assert drive(sim, st, "gogadget-marked") == "= C3\n\n"
        sim.buttons.press(events.BTN_CONFIRM)
        settle(sim)
        status = drive(sim, st, "gogadget-status")
        assert "phase=over" in status and "result=B+" in status, status
        assert drive(sim, st, "gogadget-marked") == "= C3\n\n"  # still known once over
        assert len(kept(tmp_path)) == 1
        # The server's agreed count differs (other rules): it replaces the
        # board's in place -- the same kept file, not a second one.
        assert drive(sim, st, "gogadget-result W+0.5") == "= \n\n"
        names = kept(tmp_path)
        assert len(names) == 1 and "RE[W+0.5]" in (tmp_path / names[0]).read_text()
        assert "result=W+0.5" in drive(sim, st, "gogadget-status")
    finally:
        sim.close()
    again, st = board(tmp_path)
    try:
        settle(again, 20)
        assert again.app.referee.result == "W+0.5"
    finally:
        again.close()


def test_show_draws_digits_for_a_while_and_never_hides_a_prompt(tmp_path):
    sim, st = board(tmp_path)
    try:
        drive(sim, st, "play b E5")
        settle(sim)
        normal = drive(sim, st, "gogadget-frame")
        assert drive(sim, st, "gogadget-show 12345").startswith("? too wide")
        assert drive(sim, st, "gogadget-show 59 2000", steps=1) == "= \n\n"
        shown = drive(sim, st, "gogadget-frame", steps=1)
        assert shown != normal and sim.app.referee.shown is not None
        settle(sim, 2100 // sim.period_ms)  # past the 2 s shown: the display has timed out
        assert sim.app.referee.shown is None
        assert drive(sim, st, "gogadget-frame") == normal
        # A stone to place: the board keeps asking for it.
        drive(sim, st, "play w C3", steps=1)
        assert drive(sim, st, "gogadget-show 59", steps=1).startswith("? the board is showing")
        settle(sim)
        # A stone put down ends a display at once.
        assert drive(sim, st, "gogadget-show 9 30000") == "= \n\n"
        sim.stones.put("G7", 1)
        settle(sim, 30)
        assert sim.app.referee.shown is None
    finally:
        sim.close()
