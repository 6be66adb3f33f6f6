"""`make typecheck`: pyright over firmware/ against the MicroPython rp2 stubs
(pyrightconfig.json) reports no errors.  One run takes a few seconds."""
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, require
from gogadget import config, configfile


def test_pyright_finds_no_errors_in_firmware():
    exe = Path(sys.executable).parent / "pyright"
    pyright = require(str(exe) if exe.exists() else "pyright", "(pip: pyright)")
    res = subprocess.run([pyright, "-p", "pyrightconfig.json"], capture_output=True,
                         text=True, cwd=str(ROOT), timeout=240)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "0 errors" in out, out
    # It really looked at the firmware with the board's stubs: the hardware
    # modules import `machine`, which only the stubs (or the fakes) provide.
    assert "Import \"machine\" could not be resolved" not in out


def test_config_declares_every_setting_for_the_checker():
    # Config's annotations exist only for pyright; they must name exactly
    # the settings in configfile.DEFAULTS (the one source of truth).
    assert set(config.Config.__annotations__) == {name for name, _ in configfile.DEFAULTS}
