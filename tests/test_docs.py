"""The README's generated sections match their single source of truth."""
from host_sim import docgen
from gogadget import rules


def test_readme_preset_table_is_current():
    assert docgen.check(), "README preset table is stale: run python -m host_sim.docgen"


def test_every_rule_text_has_a_preset():
    # Each rule text in ../shared/rules is a preset (issue: "every rule text a preset").
    for doc in ("000", "001", "002", "003", "004"):
        assert doc in rules.PRESETS
        assert rules.PRESETS[doc][0].startswith(doc)


def test_readme_shows_the_two_setup_commands():
    text = docgen.README.read_text()
    assert "make sim" in text and "make test" in text


def test_hardware_readme_tables_are_current():
    # Pin map, BOM, power budget and LED order come from hw/pins.py,
    # frame.py, signals.py and config.py (host_sim/tools/hwdoc.py).
    assert docgen.check_hardware(), \
        "hardware/README.md or hardware/bom.csv is stale: run python -m host_sim.docgen"
