"""The chips' pinouts with what every pin is soldered to, drawn from the pin
map (firmware/gogadget/hw/pins.py) and the datasheets' pin tables: the
CD74HC4067 (both levels), the 74HC165 and the 74AHCT125.

The pin numbers are the DIP/SOIC ones from the manufacturers' datasheets
(TI SCHS209, SCLS116, SCLS256); the connections come from pins.py and the
power design (hwdoc), so a pin map change redraws the schematic.
"""
from gogadget.hw import pins
from host_sim.tools import hwdoc
from host_sim.tools.hwdoc import PHYSICAL
from host_sim.tools.svg import ROW_H, Svg

# Datasheet pin tables: pin number -> pin name.
CD4067 = dict(enumerate(["COM", "I7", "I6", "I5", "I4", "I3", "I2", "I1", "I0", "S0", "S1", "GND",
                         "S3", "S2", "/E", "I15", "I14", "I13", "I12", "I11", "I10", "I9", "I8",
                         "VCC"], 1))
HC165 = dict(enumerate(["SH/LD", "CLK", "E (D4)", "F (D5)", "G (D6)", "H (D7)", "/QH", "GND",
                        "QH", "SER", "A (D0)", "B (D1)", "C (D2)", "D (D3)", "CLK INH", "VCC"], 1))
AHCT125 = dict(enumerate(["1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y",
                          "4A", "4OE", "VCC"], 1))


def gpio(gp):
    return "GP%d (Pico pin %d)" % (gp, PHYSICAL[gp])


def level1(name):
    """What pin name of level-1 mux m (any m) connects to."""
    if name.startswith("I"):
        k = int(name[1:])
        return "sensor at place 16m + %d" % k
    if name.startswith("S"):
        i = int(name[1])
        return "%s %s" % (gpio(pins.MUX_SELECT[i]), hwdoc.GPIO_NAMES[pins.MUX_SELECT[i]])
    return {"COM": "bank m // 16, channel I(m % 16)", "/E": "GND", "GND": "GND",
            "VCC": "3.3 V sensor rail, 100 nF"}[name]


def level2(name):
    """Level-2 mux of bank b."""
    if name.startswith("I"):
        return "COM of level-1 mux 16b + %d" % int(name[1:])
    if name.startswith("S"):
        i = int(name[1])
        return "%s %s" % (gpio(pins.BANK_SELECT[i]), hwdoc.GPIO_NAMES[pins.BANK_SELECT[i]])
    if name == "COM":
        return "bank 0: %s; bank 1: %s" % tuple(gpio(g) for g in pins.ADC_PINS)
    return {"/E": "GND", "GND": "GND", "VCC": "3.3 V sensor rail, 100 nF"}[name]


def shift(name):
    """74HC165 number k of the chain."""
    if "(D" in name:
        n = int(name.split("(D")[1].rstrip(")"))
        return "place 8k + %d: switch to GND, 10k to 3V3" % n
    return {"SH/LD": gpio(pins.SHIFT_LOAD) + " SH/LD", "CLK": gpio(pins.SPI_SCK) + " SPI SCK",
            "/QH": "not connected", "GND": "GND",
            "QH": "k = 0: %s MISO; else SER of k - 1" % gpio(pins.SPI_MISO),
            "SER": "QH of chip k + 1; last chip: GND", "CLK INH": "GND",
            "VCC": "Pico 3V3 (pin 36), 100 nF"}[name]


def buffer(name):
    """The 74AHCT125 level shifter (gate 1 used)."""
    return {"1OE": "GND (gate 1 on)", "1A": gpio(pins.LED_DATA) + " LED DATA",
            "1Y": "330 Ohm -> DIN of LED 0", "GND": "GND", "VCC": "5 V bus, 100 nF",
            "2OE": "GND", "3OE": "GND", "4OE": "GND", "2A": "GND (unused)",
            "3A": "GND (unused)", "4A": "GND (unused)", "2Y": "not connected",
            "3Y": "not connected", "4Y": "not connected"}[name]


CHIPS = (
    ("CD74HC4067, level 1 (mux m; %d of them at 19x19)" % pins.mux_count(19), CD4067, level1,
     "colour"),
    ("CD74HC4067, level 2 (bank b; %d at 19x19)" % pins.bank_count(19), CD4067, level2, "colour"),
    ("74HC165, chip k of the chain (%d at 19x19)" % pins.shift_chips(19), HC165, shift,
     "occupancy"),
    ("74AHCT125 level shifter (one)", AHCT125, buffer, "both"),
)


def connections():
    """[(chip title, pin number, pin name, goes to)] of every pin drawn."""
    return [(title, n, name, to(name)) for title, table, to, _ in CHIPS
            for n, name in sorted(table.items())]


def chip(svg, x, y, title, table, to, variant, label_w):
    """A DIP outline, pin 1 top left, counting down the left side and up the
    right, each pin's number and name inside and its connection outside."""
    n = len(table)
    half = n // 2
    w = 150
    h = 30 + ROW_H * half
    bx = x + label_w
    svg.add_text(bx + w // 2, y - 8, "%s  [%s]" % (title, variant), 12, "middle", "bold")
    svg.parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#f0f0f0" '
                     'stroke="black"/>' % (bx, y, w, h))
    svg.parts.append('<circle cx="%d" cy="%d" r="5" fill="none" stroke="black"/>'
                     % (bx + w // 2, y + 8))
    for i in range(half):
        yy = y + 26 + ROW_H * i
        left, right = i + 1, n - i
        svg.add_text(bx + 6, yy, "%d %s" % (left, table[left]), 11)
        svg.add_text(bx + w - 6, yy, "%s %d" % (table[right], right), 11, "end")
        svg.parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                         % (bx - 12, yy - 4, bx, yy - 4))
        svg.parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                         % (bx + w, yy - 4, bx + w + 12, yy - 4))
        svg.add_text(bx - 16, yy, to(table[left]), 11, "end")
        svg.add_text(bx + w + 16, yy, to(table[right]), 11)
    return y + h


def pinouts_diagram():
    label_w = 300
    col_w = label_w * 2 + 150 + 30
    svg = Svg(2 * col_w + 20, 100, "Go Gadget chips: every pin and what it is soldered to "
              "(from gogadget/hw/pins.py; pin numbers from the datasheets, top view)")
    svg.add_text(20, 52, "Bypass: a 100 nF from VCC to GND at every chip. Sensor places: "
                 "place = row * size + column, row 0 nearest Black (hardware/README.md).", 12)
    y = 100
    bottom = y
    for i, (title, table, to, variant) in enumerate(CHIPS):
        x = 20 + (i % 2) * col_w
        if i % 2 == 0:
            y = bottom + 30 if i else y
        bottom = max(bottom, chip(svg, x, y, title, table, to, variant, label_w))
    svg.h = bottom + 30
    return svg.render()


if __name__ == "__main__":
    import sys
    sys.stdout.write(pinouts_diagram())
