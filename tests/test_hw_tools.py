"""The hardware documents drawn from the pin map: the committed wiring
diagrams are what host_sim/tools/wiring.py draws today, and the BOM and
power tables of hardware/README.md agree with the wiring arithmetic."""
import xml.etree.ElementTree as ET

from host_sim.tools import hwdoc, wiring
from gogadget import signals
from gogadget.config import Config
from gogadget.hw import pins

SVG = "{http://www.w3.org/2000/svg}"


def em(c):
    """Advance of a DejaVu Sans character, in em (rounded up)."""
    if c in "iljtfr .,:;()[]'|!/-I1":
        return 0.40
    if c.isupper() or c in "mwMW%&@":
        return 0.78
    return 0.62


def drawing(text):
    """(texts, boxes, wires) of a diagram: text boxes as (x0, y0, x1, y1, words),
    part boxes as (x0, y0, x1, y1), wires as lists of (x0, y0, x1, y1) stretches.
    Text width is estimated from DejaVu Sans (a little over half the size a letter)."""
    texts, boxes, wires = [], [], []
    for el in ET.fromstring(text).iter():
        tag = el.tag.replace(SVG, "")
        if tag == "text":
            size, x, y = float(el.get("font-size")), float(el.get("x")), float(el.get("y"))
            width = sum(em(c) for c in el.text) * size
            if el.get("font-weight") == "bold":
                width *= 1.1
            x0 = {"start": x, "middle": x - width / 2, "end": x - width}[el.get("text-anchor")]
            texts.append((x0, y - 0.75 * size, x0 + width, y + 0.2 * size, el.text))
        elif tag == "rect" and (el.get("x"), el.get("y")) != ("0", "0"):
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            boxes.append((x, y, x + w, y + h))
        elif tag == "g" and el.get("class") == "wire":
            wires.append([tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
                          for line in el])
    return texts, boxes, wires


def overlap(a, b, margin=0.0):
    return a[0] < b[2] - margin and b[0] < a[2] - margin and \
        a[1] < b[3] - margin and b[1] < a[3] - margin


def crosses(seg, rect):
    """Does a horizontal or vertical stretch pass through the inside of rect?"""
    x0, y0, x1, y1 = seg
    if x0 == x1:
        return rect[0] < x0 < rect[2] and min(y0, y1) < rect[3] and rect[1] < max(y0, y1)
    return rect[1] < y0 < rect[3] and min(x0, x1) < rect[2] and rect[0] < max(x0, x1)


def shared_stretch(a, b):
    """Do two stretches lie on one line over more than a point (wires merging)?"""
    if a[0] == a[2] == b[0] == b[2]:
        return min(max(a[1], a[3]), max(b[1], b[3])) - max(min(a[1], a[3]), min(b[1], b[3])) > 0
    if a[1] == a[3] == b[1] == b[3]:
        return min(max(a[0], a[2]), max(b[0], b[2])) - max(min(a[0], a[2]), min(b[0], b[2])) > 0
    return False


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


def test_diagrams_labels_and_wires_are_apart():
    for name, draw in wiring.DIAGRAMS.items():
        texts, boxes, wires = drawing(draw())
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                assert not overlap(a, b, 0.5), "%s: labels overlap: %r / %r" % (name, a[4], b[4])
        inner = [(x0 + 1, y0 + 1, x1 - 1, y1 - 1) for x0, y0, x1, y1 in boxes]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlap(a, b), "%s: boxes overlap: %s %s" % (name, a, b)
        for i, wire in enumerate(wires):
            for seg in wire:
                for t in texts:
                    assert not crosses(seg, t[:4]), "%s: a wire runs through %r" % (name, t[4])
                for box in inner:
                    assert not crosses(seg, box), "%s: a wire runs through the box %s" % (name, box)
                for other in wires[i + 1:]:
                    for seg2 in other:
                        assert not shared_stretch(seg, seg2), \
                            "%s: two wires merge along %s / %s" % (name, seg, seg2)


def test_buttons_have_a_wire_each_into_their_own_line():
    texts, boxes, wires = drawing(wiring.colour_diagram())
    lines = {t[4]: t for t in texts}
    for gp in (pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        label = next(t for k, t in lines.items() if k.endswith(": GP%d" % gp) or
                     k.startswith(("pass: GP%d " % gp)))
        ends = [w[-1] for w in wires if w[-1][2] == label[0] - 8 and
                label[1] <= w[-1][3] <= label[3]]
        assert len(ends) == 1, label[4]


def test_diagrams_agree_with_the_bom_and_the_power_table():
    colour, occupancy = wiring.colour_diagram(), wiring.occupancy_diagram()
    # The Hall sensor as the BOM names it, nothing else.
    assert hwdoc.part_names("hall") == "Honeywell SS49E (alt. TI DRV5055A1QLPG)"
    assert hwdoc.part_names("hall") in colour and "DRV5053" not in colour
    # LED feeds: the figures of the power table, one source (hwdoc.feeds).
    table = hwdoc.power_table()
    nfeeds, every = hwdoc.feeds(wiring.SIZE)
    assert "%d (every %d rows)" % (nfeeds, every) in table
    for svg in (colour, occupancy):
        assert "every 64 LEDs" not in svg
        assert "fed in %d times, every %d rows" % (nfeeds, every) in svg
        assert "LED feeds: %d, every %d rows" % (nfeeds, every) in svg
        for row, led in hwdoc.feed_rows(wiring.SIZE):
            assert "row %d, LED %d" % (row, led) in svg
        # Supply, diode, from the BOM.
        assert hwdoc.part_names("diode") + " Schottky" in svg
    assert (hwdoc.feed_rows(19)[1][1] - hwdoc.feed_rows(19)[0][1]) <= hwdoc.LEDS_PER_FEED
    psu = hwdoc.chosen("colour", wiring.SIZE, "psu4", "psu6")
    assert "5 V %s A supply" % psu[3:] in colour
    buck = hwdoc.chosen("colour", wiring.SIZE, "buck28", "buck50")
    assert "3.3 V buck " + hwdoc.part_names(buck) in colour
    assert "ADC_VREF" in colour and "AGND" in colour
    assert "%d mA typ / %d max" % hwdoc.sensor_rail_ma("colour", wiring.SIZE) in colour
    assert "3V3 (pin 36) of the Pico" in occupancy


def test_makers_guide_answers_what_a_maker_asks_next():
    import math
    import re
    text = " ".join((wiring.ROOT / "hardware" / "README.md").read_text().split())
    # Where the MicroPython UF2 comes from and how it goes onto the Pico.
    assert "https://micropython.org/download/RPI_PICO/" in text
    for step in ("BOOTSEL", "RPI-RP2", ".uf2", "mpremote connect list", "flash_nuke.uf2"):
        assert step in text, step
    # The light through the wood: a recommendation with dimensions that hold
    # for the board geometry it names.
    light = text.split("### Getting the light through the wood", 1)[1].split(" ## ", 1)[0]
    grid = [float(v) for v in re.search(r"grid ([\d.]+) x ([\d.]+) mm", light).groups()]
    stone = float(re.search(r"stones up to ([\d.]+) mm", light).group(1))
    hole = float(re.search(r"\*\*Recommendation: a (\d+) mm hole", light).group(1))
    offset = float(re.search(r"([\d.]+) mm from the point along the diagonal", light).group(1))
    diag = math.hypot(*grid)
    led = (grid[0] * offset / diag, grid[1] * offset / diag)
    clear = [offset - hole / 2 - stone / 2, diag - offset - hole / 2 - stone / 2,
             math.hypot(grid[0] - led[0], led[1]) - hole / 2 - stone / 2,
             math.hypot(led[0], grid[1] - led[1]) - hole / 2 - stone / 2]
    assert min(clear) > 1.0, clear  # no stone around the square covers the light
    assert offset >= 10  # the LED stays 10 mm from the Hall sensor under the point
    assert (offset, hole) == (hwdoc.LED_OFFSET_MM, hwdoc.LIGHT_HOLE_MM)  # as the pictures say
    assert "each LED %d mm up-right of its point, under a %d mm hole" % (offset, hole) \
        in wiring.colour_diagram()
    assert "by %.2f mm, of the diagonal neighbour by %.1f mm and of the two other corners' " \
        "stones by %.1f mm" % (clear[0], clear[1], clear[2]) in light, clear
    assert "not measured" in light  # reasoning, said as such, with a test piece to make
    # First power-up: what to look for, with currents from the power table.
    power_up = text.split("## First power-up: faults to look for", 1)[1].split(" ## ", 1)[0]
    for fault in ("short", "diode", "3.25-3.35 V", "DIN", "feed point", "select lines swapped"):
        assert fault in power_up, fault
    limit = round(hwdoc.switch_on_ma("colour", 19) * 1.2 / 500) * 0.5
    assert "%.1f A for a 19x19 colour board" % limit in power_up
    assert "at switch-on" in hwdoc.power_table()
