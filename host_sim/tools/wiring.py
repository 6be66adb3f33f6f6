"""Wiring diagrams of the reference design, drawn from the firmware's pin
map (firmware/gogadget/hw/pins.py) and the power budget of the maker's
guide (host_sim/tools/hwdoc.py: parts, regulator, supply and the LED feed
points), so the drawing cannot disagree with the code or the tables.

`python -m host_sim.tools.wiring` rewrites hardware/wiring-*.svg (and .png
next to them with ImageMagick's `convert`); tests/test_hw_tools.py checks
the committed SVGs are current and that no two labels overlap, no wire
runs through a label or a box and no two wires share a stretch of line.

Every wire has its own vertical lane and its own horizontal runs: signals
that leave the Pico upwards take lanes left to right from the top pin
down, signals going down take them right to left, so they never cross each
other; a wire to a box enters at the box line that names it.
"""
import shutil
import subprocess
import sys
from pathlib import Path

from gogadget import frame as F
from gogadget.hw import pins
from host_sim.tools import hwdoc
from host_sim.tools.hwdoc import PHYSICAL
from host_sim.tools.layout import layout_diagram
from host_sim.tools.pinouts import pinouts_diagram
from host_sim.tools.svg import ROW_H, Svg

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "hardware"
SIZE = 19  # the diagrams show the full-size board

POWER = (("VBUS", 40, "USB 5 V: the Pico only"), ("VSYS", 39, "5 V via Schottky"),
         ("3V3", 36, "165s, pull-ups"), ("GND", 38, "common ground"),
         ("AGND", 33, "sensor ground"),
         # Hall sensors draw ~6 mA each: their own 3.3 V buck (hardware/README.md).
         ("ADC_VREF", 35, "sensor 3.3 V"))
# The power pins each variant wires (the pictures show no others).
POWER_USED = {"colour": ("VBUS", "VSYS", "GND", "AGND", "ADC_VREF"),
              "occupancy": ("VBUS", "VSYS", "3V3", "GND")}

# Wire colours, one per kind of signal (the legend under each picture).
SELECT = "#8a3fbf"  # outputs that address a part: mux selects, SH/LD, SPI clock
SELECT1 = SELECT2 = SELECT
ANALOG = "#1f5fbf"  # a sensor's voltage on its way to the ADC
DATA = "#0a8a3a"  # serial data: the LED data line, the 165 chain's QH -> MISO
BUTTON = "#606060"  # an input a button pulls to GND
DIGITAL = BUTTON
V5 = "#d00000"  # the 5 V supply
V33 = "#e07000"  # the 3.3 V sensor rail
GROUND = "#000000"
CHAIN = DATA  # LED data along the chain
LEGEND = ((SELECT, "select / clock / load"), (ANALOG, "analog sensor signal"),
          (DATA, "serial data"), (BUTTON, "button input"), (V5, "5 V"), (V33, "3.3 V"),
          (GROUND, "GND"))
def entry(y):
    """Where a wire meets a box line whose text baseline is y (mid-height of the text)."""
    return y - 4


def pico_box(svg, used, variant, x=20, y=60):
    """The Pico with the pins this variant uses; returns ({gpio or power name:
    (x, y) at the right edge}, {power name: (x, y) at the left edge}, bottom)."""
    rows = sorted(used)
    power = [p for p in POWER if p[0] in POWER_USED[variant]]
    h = 60 + ROW_H * (len(rows) + len(power))
    svg.box(x, y, 250, h, "Raspberry Pi Pico", fill="#e8f6e8")
    ends, left = {}, {}
    for i, gp in enumerate(rows):
        yy = y + 44 + ROW_H * i
        svg.add_text(x + 8, yy, "GP%d (pin %d)" % (gp, PHYSICAL[gp]), 11)
        svg.add_text(x + 242, yy, used[gp], 11, "end", "bold")
        ends[gp] = (x + 250, entry(yy))
    for j, (name, pin, what) in enumerate(power):
        yy = y + 44 + ROW_H * (len(rows) + j)
        svg.add_text(x + 8, yy, "%s (pin %d): %s" % (name, pin, what), 11, fill="#a03000")
        ends[name] = (x + 250, entry(yy))
        left[name] = (x, entry(yy))
    return ends, left, y + h


def buttons(svg, ends, lanes, x, y):
    """The three buttons: one wire each, into the line that names it."""
    gps = (pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW)
    ys = svg.box(x, y, 220, 104, "Buttons to GND", [
        "pass: GP%d (hold: resign)" % pins.BUTTON_PASS, "confirm: GP%d" % pins.BUTTON_CONFIRM,
        "new game: GP%d" % pins.BUTTON_NEW, "pass + new held: calibrate"], fill="#f4f4f4")
    # Going down: the top pin takes the rightmost lane, so no two cross.
    for gp, lane, yy in zip(gps, sorted(lanes, reverse=True), ys):
        svg.wire([ends[gp], (lane, ends[gp][1]), (lane, entry(yy)), (x, entry(yy))], BUTTON)


def leds(svg, ends, lane, x, y):
    """Level shifter and the WS2812B chain; returns the bottom of the part."""
    n = SIZE * SIZE + F.STATUS_PIXELS
    nfeeds, every = hwdoc.feeds(SIZE)
    ys = svg.box(x, y, 220, 72, "74AHCT125 (VCC 5 V)",
                 ["1A <- GP%d, 1OE to GND" % pins.LED_DATA, "1Y -> 330 R -> DIN of LED 0"])
    svg.wire([ends[pins.LED_DATA], (lane, ends[pins.LED_DATA][1]), (lane, entry(ys[0])),
              (x, entry(ys[0]))], DATA)
    cx = x + 300
    chain = svg.box(cx, y, 360, 120, "WS2812B chain: %d LEDs" % n, [
        "LED 0 under A1 (bottom left, Black's side)",
        "even rows left->right, odd rows right->left",
        "then %d status pixels after the last board LED" % F.STATUS_PIXELS,
        "5 V + GND fed in %d times, every %d rows (Power)" % (nfeeds, every),
        "each LED %d mm up-right of its point, under a %d mm hole"
        % (hwdoc.LED_OFFSET_MM, hwdoc.LIGHT_HOLE_MM)], fill="#fff4e0")
    svg.wire([(x + 220, entry(ys[1])), (cx, entry(ys[1]))], DATA)
    svg.add_text(x + 226, entry(ys[1]) - 6, "DIN", 10, fill=DATA)
    return y + 120, chain


def power(svg, ends, left, variant, top, lanes):
    """Supply, Schottky diode, sensor regulator, LED feeds and bulk capacitors,
    from the BOM and the power table of hwdoc.  lanes: x of the vertical
    lanes the Pico's power pins come down in, left to right."""
    psu = hwdoc.chosen(variant, SIZE, "psu4", "psu6")
    worst = hwdoc.supply_ma(variant, SIZE)
    nfeeds, every = hwdoc.feeds(SIZE)
    bus5 = top + 20  # the 5 V bus runs along here
    gnd = top + 250  # the ground bus
    svg.add_text(20, top, "Power", 14, weight="bold")
    svg.add_text(450, top, "parts from the BOM, currents from the power budget table "
                 "(hardware/README.md)", 11)
    ys = svg.box(20, top + 40, 250, 92, "5 V %s A supply" % psu[3:], [
        "DC jack (%d A); worst case %d mA" % (hwdoc.JACK_RATED_A, worst),
        "20 AWG to every feed point", "GND: star point at the jack"], fill="#ffe8e8")
    svg.wire([(270, entry(ys[0])), (300, entry(ys[0])), (300, bus5), (1110, bus5)], V5, 3)
    svg.add_text(306, bus5 - 6, "5 V bus", 11, fill=V5, weight="bold")
    svg.wire([(145, top + 132), (145, gnd), (1350, gnd)], GROUND, 3)
    svg.add_text(152, gnd - 6, "GND bus (every GND below joins it)", 11, weight="bold")
    # Pico: VSYS through the diode; GND out of the left edge to the ground bus.
    dx = lanes["VSYS"] + 40
    ys = svg.box(dx, top + 60, 190, 56, hwdoc.part_names("diode") + " Schottky",
                 ["anode 5 V bus, cathode VSYS"], fill="#ffe8e8")
    svg.wire([ends["VSYS"], (lanes["VSYS"], ends["VSYS"][1]), (lanes["VSYS"], entry(ys[0])),
              (dx, entry(ys[0]))], V5)
    svg.wire([(dx + 150, bus5), (dx + 150, top + 60)], V5)
    svg.dot(dx + 150, bus5, V5)
    gx = 8
    svg.wire([left["GND"], (gx, left["GND"][1]), (gx, gnd), (145, gnd)], GROUND)
    x = dx + 230
    if variant == "colour":
        buck = hwdoc.chosen(variant, SIZE, "buck28", "buck50")
        typ, peak = hwdoc.sensor_rail_ma(variant, SIZE)
        ys = svg.box(x, top + 60, 300, 124, "3.3 V buck " + hwdoc.part_names(buck), [
            "IN <- 5 V bus, GND -> GND bus", "OUT: sensor rail, %d mA typ / %d max" % (typ, peak),
            "rail -> ADC_VREF (pin 35) of the Pico", "rail GND -> AGND (pin 33), one point",
            "rail -> every Hall sensor and 4067 VCC"], fill="#fff0dc")
        svg.wire([(x + 150, bus5), (x + 150, top + 60)], V5)
        svg.dot(x + 150, bus5, V5)
        svg.wire([(x + 270, top + 184), (x + 270, gnd)], GROUND)
        svg.dot(x + 270, gnd, GROUND)
        # Going down: the upper pin (AGND) takes the right lane and the higher entry.
        svg.wire([ends["AGND"], (lanes["AGND"], ends["AGND"][1]), (lanes["AGND"], entry(ys[3])),
                  (x, entry(ys[3]))], GROUND)
        svg.wire([ends["ADC_VREF"], (lanes["ADC_VREF"], ends["ADC_VREF"][1]),
                  (lanes["ADC_VREF"], top + 200), (x + 20, top + 200), (x + 20, top + 184)], V33)
        svg.add_text(x + 26, top + 214, "3.3 V sensor rail to ADC_VREF", 10, fill=V33)
        svg.wire([(x + 300, entry(ys[4])), (x + 330, entry(ys[4]))], V33)
        svg.add_text(x + 334, entry(ys[4]) + 4, "to the sensors", 10, fill=V33)
        x += 440
    else:
        typ, peak = hwdoc.sensor_rail_ma(variant, SIZE)
        ys = svg.box(x, top + 60, 300, 76, "3V3 (pin 36) of the Pico", [
            "165s and pull-ups: %d mA typ / %d max" % (typ, peak),
            "the Pico's own regulator (300 mA) is enough"], fill="#fff0dc")
        svg.wire([ends["3V3"], (lanes["3V3"], ends["3V3"][1]), (lanes["3V3"], top + 150),
                  (x + 20, top + 150), (x + 20, top + 136)], V33)
        x += 440
    feeds_box(svg, 1110, top + 50, bus5, gnd, nfeeds, every)
    # USB: VBUS feeds the Pico alone, through the Pico's own diode into VSYS;
    # the 1N5819 keeps it off the 5 V bus, so nothing else is powered.
    ux, uy = lanes["VBUS"] - 120, gnd + 40
    off = ["LEDs, 74AHCT125: no power"]
    if variant == "colour":
        off.append("sensor buck: no power, sensors dead")
    else:
        off.append("165s on the Pico's 3V3: powered")
    ys = svg.box(ux, uy, 330, 40 + 16 * (len(off) + 1), "USB from the computer (data: GTP)", [
        "VBUS: the Pico only (its own diode to VSYS)"] + off, fill="#eef0f0")
    svg.wire([ends["VBUS"], (lanes["VBUS"], ends["VBUS"][1]), (lanes["VBUS"], uy)], V5)
    return uy + 40 + 16 * (len(off) + 1)


def legend(svg, y):
    """The wire colours by kind of signal, along the bottom of a picture."""
    svg.add_text(20, y, "Wires:", 12, weight="bold")
    x = 80
    for colour, what in LEGEND:
        svg.parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>'
                         % (x, y - 4, x + 24, y - 4, colour))
        svg.add_text(x + 30, y, what, 11)
        x += 30 + int(len(what) * 7) + 24
    return y + 20


def feeds_box(svg, x, y, bus5, gnd, nfeeds, every):
    """The LED chain as rows, with 5 V and GND fed in every few rows and a
    bulk capacitor at each feed (hwdoc.feed_rows: the power table's figures)."""
    rows = hwdoc.feed_rows(SIZE)
    fx = x  # the 5 V feeder
    svg.add_text(fx + 10, y + 10, "LED feeds: %d, every %d rows (power table)" % (nfeeds, every),
                 12, weight="bold")
    svg.add_text(fx + 10, y + 26, "1000 uF 10 V across 5 V / GND at each feed", 11)
    svg.add_text(fx + 10, y + 40, "data only joins row to row", 11)
    step = 7
    base = y + 60 + step * (SIZE - 1)  # row 1 at the bottom, as on the board
    rx0, rx1 = x + 130, x + 220
    pts = []
    for r in range(SIZE):
        yy = base - step * r
        pts += [(rx0, yy), (rx1, yy)] if r % 2 == 0 else [(rx1, yy), (rx0, yy)]
    svg.wire(pts, CHAIN, 1)
    # 5 V comes down the left feeder, GND up the right one: each feed row
    # takes a stub from both, with its capacitor.
    gx = rx1 + 20
    svg.add_text(gx + 6, base + 4, "row 1 (LED 0)", 10)
    svg.add_text(gx + 6, base - step * (SIZE - 1) + 4, "row %d" % SIZE, 10)
    svg.wire([(fx, bus5), (fx, base)], V5)
    svg.dot(fx, bus5, V5)
    svg.wire([(gx, gnd), (gx, base - step * (SIZE - 1))], GROUND)
    svg.dot(gx, gnd, GROUND)
    for row, led in rows:
        yy = base - step * (row - 1)
        svg.wire([(fx, yy), (rx0 - 2, yy)], V5, 1)
        svg.dot(fx, yy, V5)
        svg.wire([(gx, yy), (rx1 + 2, yy)], GROUND, 1)
        svg.dot(gx, yy, GROUND)
        svg.add_text(fx + 6, yy - 3, "row %d, LED %d" % (row, led), 8, fill=V5)


def colour_diagram():
    used = {g: hwdoc.GPIO_NAMES[g] for g in pins.MUX_SELECT + pins.BANK_SELECT + pins.ADC_PINS}
    for g in (pins.LED_DATA, pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        used[g] = hwdoc.GPIO_NAMES[g]
    svg = Svg(1460, 1180, "Go Gadget colour variant (linear Hall sensors), %dx%d: wiring from "
              "gogadget/hw/pins.py and the power budget" % (SIZE, SIZE))
    ends, left, bottom = pico_box(svg, used, "colour")
    nmux = pins.mux_count(SIZE)
    banks = pins.bank_count(SIZE)
    # Level 1 at the top right: its select lines go over everything.
    l1x, l1y = 980, 80
    svg.box(l1x, l1y, 330, 150, "Level 1: %d x CD74HC4067" % nmux, [
        "S0..S3 of all <- MUX S0..S3 (shared)",
        "a mux per 16 points of a tile: cols %s, rows %s" % pins.tile_split(SIZE),
        "place -> mux, channel: pins.mux_address",
        "/E to GND, VCC 3.3 V rail, 100 nF each",
        "spare channels: to GND"])
    for i, g in enumerate(pins.MUX_SELECT):  # up: top pin, leftmost lane, highest run
        lane, run, down = 290 + 10 * i, 44 + 6 * i, l1x + 120 - 16 * i
        svg.wire([ends[g], (lane, ends[g][1]), (lane, run), (down, run), (down, l1y)], SELECT1)
    svg.add_text(l1x + 130, 66, "MUX S0..S3", 10, fill=SELECT1)
    # Level 2: one bank per ADC input, its select lines straight across.
    bx, by = 600, 250
    for b in range(banks):
        y = by + 150 * b
        k = pins.MUX_CHANNELS  # two slots per tile socket, fitted or not
        ys = svg.box(bx, y, 260, 120, "Level 2: 4067 bank %d" % b, [
            "S0..S3 <- BANK S0..S3 (%s)" % ("shared" if b == 0 else "from bank 0"),
            "COM -> ADC%d (GP%d)" % (b, pins.ADC_PINS[b]),
            "C0..C%d <- tile sockets %d..%d, SIG0, SIG1" % (k - 1, b * 8, b * 8 + 7),
            "/E to GND, VCC 3.3 V rail"])
        adc = pins.ADC_PINS[b]
        lane = 560 + 12 * b
        svg.wire([ends[adc], (lane, ends[adc][1]), (lane, entry(ys[1])), (bx, entry(ys[1]))], ANALOG)
        # COM of level-1 muxes into this bank: one bundle each.
        up = l1x - 60 + 20 * b
        svg.wire([(bx + 260, entry(ys[2])), (up, entry(ys[2])), (up, l1y + 120 + 12 * b),
                  (l1x, l1y + 120 + 12 * b)], ANALOG)
        if b:
            for i in range(len(pins.BANK_SELECT)):
                sx = bx + 150 + 16 * i
                svg.wire([(sx, y - 30), (sx, y)], SELECT2)
    for i, g in enumerate(pins.BANK_SELECT):  # down: the top pin runs farthest right
        sx = bx + 150 + 16 * (len(pins.BANK_SELECT) - 1 - i)
        svg.wire([ends[g], (sx, ends[g][1]), (sx, by)], SELECT2)
    svg.box(l1x, 280, 330, 110, "%d linear Hall sensors" % (SIZE * SIZE), [
        hwdoc.part_names("hall"), "3.3 V sensor rail, 100 nF each, OUT -> mux",
        "black stone: magnet N up (S face down)",
        "white stone: magnet S up (N face down)"], fill="#fff8f0")
    svg.wire([(l1x + 165, l1y + 150), (l1x + 165, 280)], ANALOG)
    svg.add_text(bx, by + 150 * banks, "Settling: %d discarded conversion(s) after every "
                 "switch" % pins.SETTLE_READS, 12)
    y0 = by + 150 * banks + 40
    end, _ = leds(svg, ends, 540, 600, y0)
    buttons(svg, ends, (500, 510, 520), 600, end + 30)
    lanes = {"VBUS": 420, "VSYS": 400, "AGND": 380, "ADC_VREF": 360}
    svg.h = legend(svg, power(svg, ends, left, "colour", max(bottom, end + 134) + 50, lanes) + 30)
    return svg.render()


def occupancy_diagram():
    used = {g: hwdoc.GPIO_NAMES[g] for g in (pins.SPI_SCK, pins.SPI_MOSI, pins.SPI_MISO,
                                            pins.SHIFT_LOAD)}
    for g in (pins.LED_DATA, pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
        used[g] = hwdoc.GPIO_NAMES[g]
    svg = Svg(1460, 1000, "Go Gadget occupancy variant (reed switches), %dx%d: wiring from "
              "gogadget/hw/pins.py and the power budget" % (SIZE, SIZE))
    ends, left, bottom = pico_box(svg, used, "occupancy")
    chips = pins.shift_chips(SIZE)
    spare = chips * 8 - SIZE * SIZE
    sx, sy = 600, 60
    ys = svg.box(sx, sy, 380, 150, "%d x 74HC165 chain (SPI%d, %d Hz)"
                 % (chips, pins.SPI_ID, pins.SHIFT_BAUD), [
                     "CLK <- SCK (GP%d), CLK INH to GND" % pins.SPI_SCK,
                     "chip 0 QH -> MISO (GP%d)" % pins.SPI_MISO,
                     "SH/LD <- GP%d" % pins.SHIFT_LOAD,
                     "chip k SER <- chip k+1 QH; last SER to GND",
                     "%d spare inputs of the last chip: 3V3, GND, ..." % spare,
                     "input Dn of chip k: place 8k + n"])
    # The SPI pins sit below the buttons: they go up, the top pin leftmost.
    for i, (gp, yy) in enumerate(((pins.SPI_SCK, ys[0]), (pins.SPI_MISO, ys[1]),
                                  (pins.SHIFT_LOAD, ys[2]))):
        lane = 540 + 12 * i
        svg.wire([ends[gp], (lane, ends[gp][1]), (lane, entry(yy)), (sx, entry(yy))],
                 DATA if gp == pins.SPI_MISO else SELECT)
    svg.box(1040, 60, 300, 110, "%d reed switches" % (SIZE * SIZE), [
        "switch to GND, 10k pull-up to 3.3 V",
        "(8-resistor SIP network per chip)",
        "stone: any magnet closes it",
        "or DRV5032 open-drain digital Hall"], fill="#fff8f0")
    svg.wire([(sx + 380, 140), (1040, 140)], BUTTON)
    y0 = 260
    end, _ = leds(svg, ends, 500, 600, y0)
    buttons(svg, ends, (460, 470, 480), 600, end + 30)
    lanes = {"VBUS": 440, "VSYS": 420, "3V3": 400}
    svg.h = legend(svg, power(svg, ends, left, "occupancy", max(bottom, end + 134) + 50, lanes)
                   + 30)
    return svg.render()


DIAGRAMS = {"wiring-colour.svg": colour_diagram, "wiring-occupancy.svg": occupancy_diagram,
            "pinouts.svg": pinouts_diagram, "grid-layout.svg": layout_diagram}


def find_convert():
    """ImageMagick's convert, if a real one is installed (not a stand-in)."""
    for path in (shutil.which("convert"), "/usr/bin/convert"):
        if not path:
            continue
        try:
            out = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=20)
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.startswith("Version: ImageMagick"):
            return path
    return None


def main(argv=()):
    OUT.mkdir(exist_ok=True)
    convert = find_convert() if "--no-png" not in argv else None
    if convert is None and "--no-png" not in argv:
        print("no ImageMagick convert (apt-get install imagemagick): SVG only")
    for name, draw in DIAGRAMS.items():
        path = OUT / name
        path.write_text(draw())
        print("wrote", path.relative_to(ROOT))
        if convert:
            png = path.with_suffix(".png")
            subprocess.run([convert, "-density", "96", str(path), str(png)], check=True)
            print("wrote", png.relative_to(ROOT))


if __name__ == "__main__":
    main(sys.argv[1:])
