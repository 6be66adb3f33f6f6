"""The physical scenarios of tests/mp/referee_scenarios.py and the defect
regressions of tests/mp/defect_scenarios.py and the game clock of
tests/mp/clock_scenarios.py under CPython (one case each)
and all of them under the MicroPython unix port.

Each defect scenario (D1-D13, issue 10) was run against the referee as it
was before its fix and failed there, each for its own reason:

    git worktree add /tmp/old 73e807f
    cd /tmp && PYTHONPATH=/tmp/old/firmware:/tmp/old/tests/mp:$OLDPWD/tests/mp \
        $OLDPWD/.venv/bin/python -m defect_scenarios
"""
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import clock_scenarios  # noqa: E402
import defect_scenarios  # noqa: E402
import referee_scenarios  # noqa: E402

MODULES = {"referee_scenarios": referee_scenarios, "defect_scenarios": defect_scenarios,
           "clock_scenarios": clock_scenarios}
CASES = [(mod, name) for mod, m in MODULES.items() for name, _ in
         referee_scenarios.scenarios(vars(m))]


@pytest.mark.parametrize("module,name", CASES, ids=["%s" % n for _, n in CASES])
def test_scenario_cpython(module, name, tmp_path):
    getattr(MODULES[module], name)(str(tmp_path))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_scenarios_micropython(micropython, tmp_path, module):
    code = ("import sys, referee_scenarios, %s\n"
            "sys.exit(referee_scenarios.run_all(%r, %s.__dict__))\n"
            % (module, str(tmp_path / "mp"), module))
    proc = micropython(code=code, timeout=300)
    out = proc.stdout + proc.stderr
    names = [n for mod, n in CASES if mod == module]
    passed = [line.split()[1] for line in out.splitlines() if line.startswith("PASS ")]
    assert proc.returncode == 0, out
    assert sorted(passed) == sorted(names), out
    assert "DONE %d scenarios, 0 failed" % len(names) in out


def test_run_all_reports_a_failing_scenario(tmp_path, monkeypatch, capsys):
    def scenario_zz_broken(tmp):
        assert False, "deliberately broken"
    monkeypatch.setattr(referee_scenarios, "scenario_zz_broken", scenario_zz_broken, raising=False)
    failed = referee_scenarios.run_all(str(tmp_path / "all"))
    out = capsys.readouterr().out
    assert failed == 1 and "FAIL scenario_zz_broken" in out
