"""Problems onto the board (issue 37): `gogadget push` and `make image
PROBLEMS=folder` (host_sim/sim/study.py, host_sim/tools/uf2.py) check a folder
with the board's own reader and refuse it whole when one file is bad."""
import io
import subprocess
import sys

import pytest

from conftest import ROOT
from host_sim.sim import study
from host_sim.tools import uf2
from test_uf2 import fake_firmware, parse, read_fs

NINE = ROOT / "host_sim" / "problems"
NINETEEN = ROOT / "tests" / "problems19"


def test_push_to_a_folder_copies_every_problem(tmp_path):
    names = study.push(NINE, 9, dest=str(tmp_path / "sim"), stream=io.StringIO())
    assert names == sorted(p.name for p in NINE.glob("*.sgf")) and len(names) == 3
    for n in names:
        assert (tmp_path / "sim" / n).read_bytes() == (NINE / n).read_bytes()


def test_push_sim_puts_them_beside_the_simulators_game_folder(tmp_path):
    res = subprocess.run([sys.executable, "-m", "host_sim.cli", "push", str(NINE), "--sim",
                          "--sim-store", str(tmp_path / "store")], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "problems").iterdir()) == \
        sorted(p.name for p in NINE.glob("*.sgf"))


def test_a_bad_file_refuses_the_folder_and_names_it(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "good.sgf").write_text("(;SZ[9]AB[aa];B[ba]C[RIGHT])")
    (src / "open.sgf").write_text("(;SZ[9]AB[aa];B[ba]C[RIGHT]")
    (src / "none.sgf").write_text("(;SZ[9]AB[aa];B[ba])")
    dest = tmp_path / "dest"
    res = subprocess.run([sys.executable, "-m", "host_sim.cli", "push", str(src), "--size", "9",
                          "--dest", str(dest)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 2
    assert "open.sgf: SGF: the file ends inside the tree" in res.stderr, res.stderr
    assert "none.sgf: no correct line" in res.stderr and "nothing copied" in res.stderr
    assert not dest.exists()
    with pytest.raises(study.ProblemError, match="a 9x9 problem: the board is 19x19"):
        study.problem_files(NINE, 19)


def test_push_to_a_board_is_one_mpremote_command(tmp_path):
    seen = []

    class Done:
        returncode = 0

    def run(cmd):
        seen.append(cmd)
        return Done()

    study.push(NINETEEN, 19, port="socket://127.0.0.1:1", run=run, stream=io.StringIO())
    cmd = seen[0]
    assert cmd[1:4] == ["connect", "socket://127.0.0.1:1", "exec"]
    assert "os.mkdir('problems')" in cmd[4]
    assert cmd[5:] == ["+", "fs", "cp", str(NINETEEN / "corner-three.sgf"),
                       ":problems/corner-three.sgf"]


def test_make_image_puts_the_problems_on_the_flash(mpy_build, tmp_path):
    fw = fake_firmware(tmp_path / "RPI_PICO-20260101-v1.29.0.uf2")
    out = uf2.make_image(fw, "pico", mpy_build, tmp_path / "o.uf2", stream=io.StringIO(),
                         extra=study.image_files(NINETEEN, 19))
    files = read_fs(parse(out.read_bytes()), "pico")
    assert files["problems/corner-three.sgf"] == (NINETEEN / "corner-three.sgf").read_bytes()
    # a folder of 9x9 problems for the default 19x19 board: refused, nothing written
    res = subprocess.run([sys.executable, "-m", "host_sim.tools.uf2", "image", "--firmware",
                          str(fw), "--out", str(tmp_path / "x.uf2"), "--no-build",
                          "--problems", str(NINE)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 2 and "a 9x9 problem: the board is 19x19" in res.stderr, res.stderr
    assert "nothing written" in res.stderr and not (tmp_path / "x.uf2").exists()
