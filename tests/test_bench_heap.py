"""The emulated Pico's heap bench (`python -m host_sim.bench.rp2 heap`)
without the emulator: its script, compiled with mpy-cross as it goes onto
the flash, plays a short game's tail under the MicroPython unix port from
the data file and the journal the bench makes, measures its own part before
it imports the firmware, and its report gives the lowest free heap with and
without that part."""
import contextlib
import io
import re

import pytest

from conftest import run_micropython
from host_sim.bench import rp2 as bench
from host_sim.bench import rules as rules_bench


@pytest.mark.parametrize("clock", [False, True], ids=["untimed", "byoyomi"])
def test_the_heap_script_plays_the_game_and_measures_its_own_part(tmp_path, clock):
    """`heap` and `heap-clock` (the game on byo-yomi: the clock is loaded,
    resumed from the journal and runs)."""
    from gogadget.journal import NAME as JOURNAL
    store = tmp_path / "store"
    final, tail = bench.journal_of_game(store, rules_bench.random_game(0, 30), 4, clock)
    flash = tmp_path / "flash"
    (flash / "games").mkdir(parents=True)
    (flash / "games" / JOURNAL).write_bytes((store / JOURNAL).read_bytes())
    files = bench.bench_files(tmp_path, tail, final, False, clock)
    assert sorted(files) == ["heapbench.bin", "heapbench.mpy", "heapbuild.mpy", "heapend.mpy",
                            "heapreport.mpy", "heaptail.mpy"]
    for name, data in files.items():
        (flash / name).write_bytes(data)
    res = run_micropython(code=bench.REPL_FREE + "import heapbench\n", cwd=str(flash),
                          timeout=300)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "HEAP " in out, out[-3000:]
    low, where, resumed, moves, counting, phase, result, saved = eval(bench.parse("HEAP", out))
    assert (resumed, moves, counting, phase) == (26, 30, "count", "over"), out[-2000:]
    assert saved, out[-2000:]
    boot = int(bench.parse("REPL_FREE", out))
    harness = boot - int(bench.parse("HARNESS_FREE", out))
    assert 0 < harness < boot and low < boot - harness
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        bench.report_heap(out)
    text = buf.getvalue()
    assert "the bench's own part" in text and "(%d bytes added back" % harness in text, text
    assert "lowest %d bytes" % low in text and "lowest %d bytes" % (low + harness) in text, text
    if clock:
        word, black, white = eval(bench.parse("CLOCKED", out))
        assert word == b"byoyomi" and 0 < black < 600000 and 0 < white < 600000, out[-2000:]
        assert "the game on a clock: byoyomi" in text, text
    else:
        assert "CLOCKED" not in out


def test_the_paired_part_plays_a_paired_game_on_byoyomi_publishing_to_the_room(tmp_path):
    """`heap-paired` (issue 35: the heaviest board a user runs): the room's
    Broadcaster on the socket stand-in, a pairing.Follower for board02
    agreed from its pair message and its snapshot, White's moves coming as
    board02's events (lit, then placed), Black's through the scan, both
    passes, the count confirmed here and agreed there: the game is kept,
    the pairing ends at both boards, the clock ran, and the report says so
    against the 35% target."""
    from gogadget.journal import NAME as JOURNAL
    store = tmp_path / "store"
    final, tail = bench.journal_of_game(store, rules_bench.random_game(0, 30), 6, True)
    flash = tmp_path / "flash"
    (flash / "games").mkdir(parents=True)
    (flash / "games" / JOURNAL).write_bytes((store / JOURNAL).read_bytes())
    files = bench.bench_files(tmp_path, tail, final, True, True, True)
    for name, data in files.items():
        (flash / name).write_bytes(data)
    res = run_micropython(code=bench.REPL_FREE + "import heapbench\n", cwd=str(flash),
                          timeout=300)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "HEAP " in out and "HEAP_FAIL" not in out, out[-3000:]
    low, where, resumed, moves, counting, phase, result, saved = eval(bench.parse("HEAP", out))
    assert (resumed, moves, counting, phase) == (24, 30, "count", "over"), out[-2000:]
    assert saved, "the game is kept: " + out[-2000:]
    agreed, count, outcome, note, done = eval(bench.parse("PAIRED", out))
    assert agreed and note == "" and count == 32 and done, out[-2000:]
    # board02's snapshot came through the client's socket: at the start and
    # after each of the three Black moves played through the scan.
    got, nbytes, left, dropped = eval(bench.parse("INBOX", out))
    assert got == 4 and nbytes > 4 * 190 and left == 0, out[-2000:]
    sent, nbytes, error = eval(bench.parse("ROOM", out))
    assert sent > 10 and not error, out[-2000:]
    word, black, white = eval(bench.parse("CLOCKED", out))
    assert word == b"byoyomi" and 0 < black < 600000, out[-2000:]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        bench.report_heap(out, wireless=True, share=bench.HEAP_SHARE_PAIRED)
    text = buf.getvalue()
    assert "paired with board02 (pairing.Follower): agreed, its record 32 moves, over at both" \
        in text, text
    assert "the game kept (%s) and no MemoryError: met" % saved[0] in text, text
    assert "board02's snapshots read by the client from the socket" in text, text
    assert "never below 35% of the heap free at boot" in text, text
    # the names interned (the table of names that grows by doubling), from the unix port here
    assert re.search(r"names interned at the end, the firmware's and the bench's: \d+ in \d+ pools", text), text
