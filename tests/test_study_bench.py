"""The study bench (host_sim/bench/study.py, `make bench BENCH=study`)
without the emulator: its problem is a legal 200-move tree the firmware's
reader takes, and its script, compiled as it goes onto the flash, solves it
under the MicroPython unix port through a wrong try and the right line,
and its report gives the lowest free heap with and without its own part."""
import contextlib
import io

from conftest import run_micropython
from host_sim.bench import rp2 as bench
from host_sim.bench import study as study_bench


def test_the_bench_problem_is_a_200_move_tree_the_board_reads(tmp_path):
    from gogadget import tsumego
    f = tmp_path / "bench.sgf"
    f.write_bytes(study_bench.problem_sgf())
    p = tsumego.read(str(f), 19)
    assert p.n - 1 == study_bench.NODES and len(p.stones) == 38


def test_the_study_script_solves_the_problem_and_measures_its_own_part(tmp_path):
    flash = tmp_path / "flash"
    (flash / "games").mkdir(parents=True)
    (flash / "problems").mkdir()
    for name, data in study_bench.bench_files(tmp_path, 30).items():
        (flash / name).write_bytes(data)
    res = run_micropython(code=bench.REPL_FREE + "import studybench\n", cwd=str(flash),
                          timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "STUDY " in out, out[-3000:]
    low, where, setup, wrong, back, solved, reviewed, off = eval(bench.parse("STUDY", out))
    assert reviewed == ("0001.sgf", 30, 30, 30), out[-2000:]
    assert setup == ("play", 2, 38, 201), out[-2000:]
    assert wrong == 4 and back == (2, 0), out[-2000:]
    assert solved == (3, 20, 1, 2) and off, out[-2000:]
    boot = int(bench.parse("REPL_FREE", out))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        study_bench.report(out, boot)
    text = buf.getvalue()
    assert "lowest free %d bytes" % low in text and "the bench's own part" in text, text
