"""The README's generated sections match their single source of truth."""
from host_sim import docgen
from gogadget import rules, ruleopts


def test_readme_preset_table_is_current():
    assert docgen.check(), "README preset table is stale: run python -m host_sim.docgen"


def test_every_rule_text_has_a_preset():
    # Each rule text (000-004) is a preset (issue: "every rule text a preset").
    for doc in ("000", "001", "002", "003", "004"):
        assert doc in rules.PRESETS
        assert ruleopts.SOURCES[doc].startswith(doc)


def test_readme_shows_the_two_setup_commands():
    text = docgen.README.read_text()
    assert "make sim" in text and "make test" in text


def test_hardware_readme_tables_are_current():
    # Pin map, BOM, power budget and LED order come from hw/pins.py,
    # frame.py, signals.py and config.py (host_sim/tools/hwdoc.py).
    assert docgen.check_hardware(), \
        "hardware/README.md or hardware/bom.csv is stale: run python -m host_sim.docgen"


MACHINE_PATH = "/" + "work/"  # spelled apart so this file does not find itself


def test_readme_cites_every_preset_and_points_nowhere_outside_the_project():
    text = docgen.README.read_text()
    assert "../shared" not in text and MACHINE_PATH not in text
    for name in rules.PRESETS:
        line = next(l for l in text.splitlines() if l.startswith("* `%s`: " % name))
        assert "](http" in line or "the same text" in line, line


def test_no_code_or_test_points_at_a_machine_path():
    from conftest import ROOT
    hits = []
    for folder in ("host_sim", "firmware", "tests", ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".js", "") and \
                    "node_modules" not in path.parts:
                if MACHINE_PATH in path.read_text(errors="replace"):
                    hits.append(str(path.relative_to(ROOT)))
    for name in ("Makefile", "README.md", "pyproject.toml"):
        if MACHINE_PATH in (ROOT / name).read_text():
            hits.append(name)
    assert hits == []


def test_readme_names_the_test_tools():
    text = " ".join(docgen.README.read_text().split())
    for tool in ("gnugo", "Xvfb", "xdotool", "x11-apps (for xwd", "tmux", "Node.js"):
        assert tool in text, tool


def test_readme_links_every_screenshot_the_tooling_makes():
    import re
    from host_sim.faces import screenshot
    text = docgen.README.read_text()
    linked = set(re.findall(r"\(docs/([\w.-]+\.png)\)", text))
    assert set(screenshot.SHOTS) <= linked, set(screenshot.SHOTS) - linked
    for name in linked:
        assert (docgen.README.parent / "docs" / name).stat().st_size > 10000, name
