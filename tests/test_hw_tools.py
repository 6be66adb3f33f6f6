"""The hardware documents drawn from the pin map: the committed wiring
diagrams are what host_sim/tools/wiring.py draws today, and the BOM and
power tables of hardware/README.md agree with the wiring arithmetic."""
from host_sim.tools import hwdoc, wiring
from gogadget import signals
from gogadget.config import Config
from gogadget.hw import pins


def test_committed_wiring_diagrams_are_current():
    for name, draw in wiring.DIAGRAMS.items():
        path = wiring.OUT / name
        assert path.read_text() == draw(), \
            "%s is stale: run python -m host_sim.tools.wiring" % name
        assert path.with_suffix(".png").exists()


def test_diagrams_name_every_used_gpio_of_the_pin_map():
    text = "".join(draw() for draw in wiring.DIAGRAMS.values())
    for gp, phys, name, _, _ in hwdoc.gpio_rows():
        assert "GP%d (pin %d)" % (gp, phys) in text
        assert name.replace("&", "&amp;") in text or name.split(" (")[0] in text


def test_bom_quantities_follow_the_wiring():
    # Independent arithmetic: 16 channels a 4067, 8 inputs a 165.
    expect = {9: (6, 1, 11), 13: (11, 1, 22), 19: (23, 2, 46)}
    for size, (level1, level2, chips) in expect.items():
        colour = dict(hwdoc.bom("colour", size))
        occupancy = dict(hwdoc.bom("occupancy", size))
        assert colour["mux"] == level1 + level2 == pins.mux_count(size) + pins.bank_count(size)
        assert colour["hall"] == occupancy["reed"] == size * size
        assert occupancy["sr"] == chips
        assert colour["led"] == occupancy["led"] == size * size + 3
    # 19x19 needs both ADC banks, the smaller boards one.
    assert pins.bank_count(19) == 2 <= len(pins.ADC_PINS) and pins.bank_count(13) == 1


def test_power_budget_stays_within_the_configured_cap():
    cfg = Config()
    for size in (9, 13, 19):
        cap, worst, idle = hwdoc.led_budget(size)
        assert cap == signals.brightness_cap(size * size + 3, cfg.budget_ma, cfg.max_brightness)
        assert idle < worst <= cfg.budget_ma
        # The supply in the BOM covers the worst case of each variant.
        for variant in ("colour", "occupancy"):
            psu = dict(hwdoc.bom(variant, size))
            rating = 4000 if "psu4" in psu else 6000
            assert hwdoc.supply_ma(variant, size) <= rating
        # The Hall rail's regulator covers its maximum.
        buck = dict(hwdoc.bom("colour", size))
        assert hwdoc.sensor_rail_ma("colour", size)[1] <= (2600 if "buck28" in buck else 5500)
