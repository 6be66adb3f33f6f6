"""Wiring diagrams of the reference design, drawn from the firmware's pin
map (firmware/gogadget/hw/pins.py), so the drawing cannot disagree with
the code.  `python -m host_sim.tools.wiring` rewrites hardware/wiring-*.svg
(and .png next to them when ImageMagick's `convert` is installed);
tests/test_hw_tools.py checks the committed SVGs are up to date.
"""
import shutil
import subprocess
import sys
from pathlib import Path

from gogadget import frame as F
from gogadget.hw import pins

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hardware"
SIZE = 19  # the diagrams show the full-size board

# Physical pin of each GPIO on the Pico's 40-pin header.
PHYSICAL = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
POWER = (("VBUS", 40, "5 V in (USB) / out"), ("VSYS", 39, "5 V in via Schottky"),
         ("3V3", 36, "165s + pull-ups (occupancy)"), ("GND", 38, "common ground"),
         ("AGND", 33, "ADC ground"),
         # Hall sensors draw ~6 mA each: their own 3.3 V buck (hardware/README.md).
         ("ADC_VREF", 35, "Hall sensor 3.3 V rail (colour)"))


class Svg:
    def __init__(self, w, h, title):
        self.w, self.h = w, h
        self.parts = ['<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (w, h),
                      self.text(20, 30, title, 20, weight="bold")]

    @staticmethod
    def text(x, y, s, size=12, anchor="start", weight="normal", fill="black"):
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return ('<text x="%d" y="%d" font-family="DejaVu Sans, Arial, sans-serif" font-size="%d" '
                'text-anchor="%s" font-weight="%s" fill="%s">%s</text>' % (x, y, size, anchor, weight, fill, s))

    def add_text(self, *a, **kw):
        self.parts.append(self.text(*a, **kw))

    def box(self, x, y, w, h, title, lines=(), fill="#eef4ff"):
        self.parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="black"/>'
                          % (x, y, w, h, fill))
        self.add_text(x + w // 2, y + 18, title, 13, "middle", "bold")
        for i, line in enumerate(lines):
            self.add_text(x + 8, y + 38 + 16 * i, line, 11)

    def wire(self, points, label="", colour="#1f5fbf"):
        d = " ".join("%d,%d" % p for p in points)
        self.parts.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' % (d, colour))
        if label:
            (x0, y0), (x1, y1) = points[-2], points[-1]
            self.add_text((x0 + x1) // 2, min(y0, y1) - 4, label, 10, "middle", fill=colour)

    def render(self):
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\n'
                % (self.w, self.h, self.w, self.h) + "\n".join(self.parts) + "\n</svg>\n")


def pico_box(svg, used, x=20, y=60):
    """The Pico with its used pins; returns {gpio: (x, y) of its wire end}."""
    rows = sorted(used)
    h = 60 + 18 * (len(rows) + len(POWER))
    svg.box(x, y, 250, h, "Raspberry Pi Pico", fill="#e8f6e8")
    ends = {}
    for i, gp in enumerate(rows):
        yy = y + 44 + 18 * i
        name = "GP%d (pin %d)" % (gp, PHYSICAL[gp]) if isinstance(gp, int) else str(gp)
        svg.add_text(x + 8, yy, name, 11)
        svg.add_text(x + 242, yy, used[gp], 11, "end", "bold")
        ends[gp] = (x + 250, yy - 4)
    for j, (name, pin, what) in enumerate(POWER):
        yy = y + 44 + 18 * (len(rows) + j)
        svg.add_text(x + 8, yy, "%s (pin %d): %s" % (name, pin, what), 11, fill="#a03000")
    return ends


def common(svg, ends, y0):
    """LED chain, level shifter and buttons: the same in both variants."""
    n = SIZE * SIZE + F.STATUS_PIXELS
    svg.box(560, y0, 200, 70, "74AHCT125", ["3.3 V -> 5 V, VCC 5 V", "1OE to GND, 1A <- GP%d" % pins.LED_DATA])
    svg.wire([ends[pins.LED_DATA], (560, ends[pins.LED_DATA][1]), (560, y0 + 40)], "LED DATA")
    svg.box(820, y0, 330, 150, "WS2812B chain: %d LEDs" % n, [
        "LED 0 under A1 (bottom left, Black's side)",
        "even rows left->right, odd rows right->left",
        "then %d status pixels" % F.STATUS_PIXELS,
        "330 R in series with DIN of LED 0",
        "5 V + GND injected every 64 LEDs",
        "1000 uF across 5 V at the chain input"], fill="#fff4e0")
    svg.wire([(760, y0 + 40), (820, y0 + 40)], "DIN")
    # Serpentine sketch.
    ox, oy, step = 1180, y0 + 130, 12
    pts = []
    for r in range(6):
        cols = range(6) if r % 2 == 0 else range(5, -1, -1)
        for c in cols:
            pts.append((ox + c * step, oy - r * step))
    svg.wire(pts, colour="#d08000")
    svg.add_text(ox - 4, oy + 16, "LED 0 (A1)", 10)
    by = y0 + 190
    svg.box(560, by, 200, 90, "Buttons to GND", ["pass: GP%d (hold: resign)" % pins.BUTTON_PASS,
                                                  "confirm: GP%d" % pins.BUTTON_CONFIRM,
                                                  "new game: GP%d" % pins.BUTTON_NEW,
                                                  "pass + new held: calibrate"], fill="#f4f4f4")
    for gp in (pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        svg.wire([ends[gp], (520, ends[gp][1]), (520, by + 40), (560, by + 40)], colour="#606060")


def colour_diagram():
    used = {g: pins.GPIO_NAMES[g] for g in pins.MUX_SELECT + pins.BANK_SELECT + pins.ADC_PINS}
    for g in (pins.LED_DATA, pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        used[g] = pins.GPIO_NAMES[g]
    svg = Svg(1300, 760, "Go Gadget colour variant (linear Hall sensors), %dx%d: wiring from gogadget/hw/pins.py"
              % (SIZE, SIZE))
    ends = pico_box(svg, used)
    nmux = pins.mux_count(SIZE)
    banks = pins.bank_count(SIZE)
    for b in range(banks):
        y = 80 + 150 * b
        k = min(pins.MUX_CHANNELS, nmux - b * pins.MUX_CHANNELS)
        svg.box(560, y, 240, 120, "Level 2: 4067 bank %d" % b, [
            "S0..S3 <- BANK S0..S3 (shared)", "COM -> ADC%d (GP%d)" % (b, pins.ADC_PINS[b]),
            "C0..C%d <- COM of level-1 mux %d..%d" % (k - 1, b * 16, b * 16 + k - 1),
            "/E to GND, VCC 3.3 V"])
        adc = pins.ADC_PINS[b]
        svg.wire([ends[adc], (420 + 20 * b, ends[adc][1]), (420 + 20 * b, y + 60), (560, y + 60)], "ADC%d" % b)
    for i, g in enumerate(pins.BANK_SELECT):
        svg.wire([ends[g], (380 + 8 * i, ends[g][1]), (380 + 8 * i, 100), (560, 100)], colour="#7f3fbf")
    y1 = 80 + 150 * banks
    svg.box(860, 80, 290, 160, "Level 1: %d x CD74HC4067" % nmux, [
        "S0..S3 of all <- MUX S0..S3 (shared)",
        "mux m channel c: sensor at place 16m + c",
        "place = row * %d + col, row 0 = row 1" % SIZE,
        "/E to GND, VCC 3.3 V, 100 nF each",
        "spare channels: to GND"])
    for b in range(banks):
        svg.wire([(800, 140 + 150 * b), (860, 140 + 20 * b)], colour="#1f5fbf")
    for i, g in enumerate(pins.MUX_SELECT):
        svg.wire([ends[g], (340 + 8 * i, ends[g][1]), (340 + 8 * i, 60 + 2 * i), (900 + 8 * i, 60 + 2 * i),
                  (900 + 8 * i, 80)], colour="#bf3f3f")
    svg.add_text(900, 56, "MUX S0..S3", 10, fill="#bf3f3f")
    svg.box(860, 270, 290, 110, "%d linear Hall sensors" % (SIZE * SIZE), [
        "DRV5053VA / SS49E, 3.3 V, 100 nF each",
        "OUT -> level-1 mux channel",
        "black stone: magnet N up (S face down)",
        "white stone: magnet S up (N face down)"], fill="#fff8f0")
    svg.wire([(1005, 240), (1005, 270)], colour="#1f5fbf")
    svg.add_text(560, y1 + 20, "Settling: %d discarded conversion(s) after every switch" % pins.SETTLE_READS, 12)
    common(svg, ends, y1 + 60)
    return svg.render()


def occupancy_diagram():
    used = {g: pins.GPIO_NAMES[g] for g in (pins.SPI_SCK, pins.SPI_MOSI, pins.SPI_MISO, pins.SHIFT_LOAD)}
    for g in (pins.LED_DATA, pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        used[g] = pins.GPIO_NAMES[g]
    svg = Svg(1300, 640, "Go Gadget occupancy variant (reed switches), %dx%d: wiring from gogadget/hw/pins.py"
              % (SIZE, SIZE))
    ends = pico_box(svg, used)
    chips = pins.shift_chips(SIZE)
    spare = chips * 8 - SIZE * SIZE
    svg.box(560, 80, 360, 150, "%d x 74HC165 chain (SPI%d, %d Hz)" % (chips, pins.SPI_ID, pins.SHIFT_BAUD), [
        "chip 0 QH -> MISO; chip k SER <- chip k+1 QH",
        "last chip SER to GND (tail byte 0x00)",
        "%d spare inputs of the last chip: 3V3, GND, ..." % spare,
        "CLK <- SCK, SH/LD <- GP%d, CLK INH to GND" % pins.SHIFT_LOAD,
        "input Dn of chip k: place 8k + n"])
    svg.wire([ends[pins.SPI_MISO], (560, ends[pins.SPI_MISO][1])], "MISO")
    svg.wire([ends[pins.SPI_SCK], (540, ends[pins.SPI_SCK][1]), (540, 120), (560, 120)], "SCK")
    svg.wire([ends[pins.SHIFT_LOAD], (520, ends[pins.SHIFT_LOAD][1]), (520, 140), (560, 140)], "SH/LD")
    svg.box(980, 80, 290, 110, "%d reed switches" % (SIZE * SIZE), [
        "switch to GND, 10k pull-up to 3.3 V",
        "(8-resistor SIP network per chip)",
        "stone: any magnet closes it",
        "or DRV5032 open-drain digital Hall"], fill="#fff8f0")
    svg.wire([(920, 140), (980, 140)], colour="#1f5fbf")
    common(svg, ends, 300)
    return svg.render()


DIAGRAMS = {"wiring-colour.svg": colour_diagram, "wiring-occupancy.svg": occupancy_diagram}


def main(argv=()):
    OUT.mkdir(exist_ok=True)
    convert = shutil.which("convert")
    for name, draw in DIAGRAMS.items():
        path = OUT / name
        path.write_text(draw())
        print("wrote", path.relative_to(ROOT))
        if convert and "--no-png" not in argv:
            png = path.with_suffix(".png")
            subprocess.run([convert, "-density", "96", str(path), str(png)], check=True)
            print("wrote", png.relative_to(ROOT))


if __name__ == "__main__":
    main(sys.argv[1:])
