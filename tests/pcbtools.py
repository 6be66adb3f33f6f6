"""Helpers for the tests of the boards: KiCad's pcbnew lives in Debian's own
Python (/usr/bin/python3, package kicad), not in the venv, so the checks run
there as subprocesses from the project root."""
import json
import subprocess

import pytest

from conftest import CI, ROOT

SYSTEM_PYTHON = "/usr/bin/python3"
BOARDS = sorted((ROOT / "hardware" / "pcb").glob("**/*.kicad_pcb"))
FIXTURE = ROOT / "tests" / "pcb_fixture.py"


def need_pcbnew():
    """Skip (fail under CI=true) when Debian's python3 cannot import pcbnew."""
    why = None
    try:
        r = subprocess.run([SYSTEM_PYTHON, "-c", "import pcbnew"], capture_output=True, text=True, timeout=120)
        if r.returncode:
            why = "%s cannot import pcbnew (apt-get install --no-install-recommends kicad): %s" % (
                SYSTEM_PYTHON, r.stderr.strip().splitlines()[-1:] or "")
    except FileNotFoundError:
        why = "no %s (Debian's python3, for KiCad's pcbnew)" % SYSTEM_PYTHON
    if why:
        if CI:
            pytest.fail(why)
        pytest.skip(why)


def system_python(*args, timeout=600):
    """Run a module or script under Debian's python3 from the project root."""
    return subprocess.run([SYSTEM_PYTHON] + [str(a) for a in args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def fixture_board(tmp_path, kind):
    """One of tests/pcb_fixture.py's small boards, written by pcbnew."""
    path = tmp_path / ("%s.kicad_pcb" % kind)
    r = system_python(FIXTURE, path, kind, timeout=120)
    assert r.returncode == 0, r.stderr
    return path


def drc(*boards):
    """host_sim.tools.fab.drc's JSON for the boards, and its exit status."""
    r = system_python("-m", "host_sim.tools.fab.drc", *boards)
    assert r.returncode in (0, 1), "the DRC runner failed (%d): %s" % (r.returncode, r.stderr)
    return json.loads(r.stdout), r.returncode
