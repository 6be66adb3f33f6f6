"""The emulated Pico's heap bench (`python -m host_sim.bench.rp2 heap`)
without the emulator: its script, compiled with mpy-cross as it goes onto
the flash, plays a short game's tail under the MicroPython unix port from
the data file and the journal the bench makes, measures its own part before
it imports the firmware, and its report gives the lowest free heap with and
without that part."""
import contextlib
import io

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
    assert sorted(files) == ["heapbench.bin", "heapbench.mpy"]
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
