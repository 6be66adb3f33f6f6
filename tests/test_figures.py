"""The on-target figures the docs quote come from the bench runs kept in
hardware/figures/ (issue 39: one run on the current release, written with
its banner and sha256), through host_sim/tools/figures.py and docgen."""
import re
import shutil

import pytest

from host_sim import docgen
from host_sim.tools import figures


def test_the_hardware_readme_shows_the_kept_runs_figures():
    text = docgen.HARDWARE_README.read_text()
    assert figures.table() in text
    assert docgen.check_hardware()
    for name in figures.runs():
        assert "`%s`" % name in text  # each run named with its command and firmware


def test_a_figure_changes_with_its_run_and_a_run_without_it_is_an_error(tmp_path):
    for p in figures.FOLDER.glob("*.txt"):
        shutil.copy(p, tmp_path / p.name)
    run = tmp_path / "rp2-pico.txt"
    text = run.read_text()
    m = re.search(r"LED lit .*?: (mean [\d.]+ ms, worst [\d.]+ ms)", text)
    assert m.group(1) in figures.table(tmp_path)
    run.write_text(text.replace(m.group(1), "mean 99.5 ms, worst 99.9 ms"))
    assert "| a stone put down to its light (main.py) | mean 99.5 ms, worst 99.9 ms |" in \
        figures.table(tmp_path)
    run.write_text(text.replace("stone put down -> LED lit", "stone down"))
    with pytest.raises(ValueError, match="rp2-pico.txt holds no figure for 'a stone put down"):
        figures.table(tmp_path)
    run.write_text(text.replace("sha256 4dbc", "sha 4dbc"))
    with pytest.raises(ValueError, match="rp2-pico.txt names no firmware"):
        figures.table(tmp_path)
