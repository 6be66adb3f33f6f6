"""The physical scenarios of tests/mp/referee_scenarios.py under CPython
(one case each) and all of them under the MicroPython unix port."""
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_micropython

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import referee_scenarios  # noqa: E402

NAMES = [name for name, _ in referee_scenarios.scenarios()]


@pytest.mark.parametrize("name", NAMES)
def test_scenario_cpython(name, tmp_path):
    dict(referee_scenarios.scenarios())[name](str(tmp_path))


def test_scenarios_micropython(micropython, tmp_path):
    code = ("import sys, referee_scenarios\n"
            "sys.exit(referee_scenarios.run_all(%r))\n" % str(tmp_path / "mp"))
    proc = micropython(code=code, timeout=300)
    out = proc.stdout + proc.stderr
    passed = [line.split()[1] for line in out.splitlines() if line.startswith("PASS ")]
    assert proc.returncode == 0, out
    assert sorted(passed) == sorted(NAMES), out
    assert "DONE %d scenarios, 0 failed" % len(NAMES) in out


def test_run_all_reports_a_failing_scenario(tmp_path, monkeypatch, capsys):
    def scenario_zz_broken(tmp):
        assert False, "deliberately broken"
    monkeypatch.setattr(referee_scenarios, "scenario_zz_broken", scenario_zz_broken, raising=False)
    failed = referee_scenarios.run_all(str(tmp_path / "all"))
    out = capsys.readouterr().out
    assert failed == 1 and "FAIL scenario_zz_broken" in out
