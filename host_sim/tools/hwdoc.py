"""The generated tables of hardware/README.md: pin map, bill of materials
per board size, power budget and LED order.

Quantities come from the wiring arithmetic in firmware/gogadget/hw/pins.py,
currents from frame.py / signals.py and the defaults in configfile.py, so the
guide cannot drift from the firmware.  host_sim/docgen.py splices these
tables between markers in hardware/README.md; `python -m host_sim.tools.hwdoc`
writes hardware/bom.csv.
"""
import csv
import io
import sys
from pathlib import Path

from gogadget import frame as F
from gogadget import signals
from gogadget.config import Config
from gogadget.hw import pins
from gogadget.points import SIZES, place_point, vertex
from host_sim.tools import geometry

# The signal names the diagrams give the GPIOs of hw/pins.py (here, not in
# the firmware: the board has no use for them).
GPIO_NAMES = {
    pins.MUX_SELECT[0]: "MUX S0", pins.MUX_SELECT[1]: "MUX S1", pins.MUX_SELECT[2]: "MUX S2",
    pins.MUX_SELECT[3]: "MUX S3",
    pins.BANK_SELECT[0]: "BANK S0", pins.BANK_SELECT[1]: "BANK S1",
    pins.BANK_SELECT[2]: "BANK S2", pins.BANK_SELECT[3]: "BANK S3",
    pins.BUTTON_PASS: "PASS", pins.BUTTON_CONFIRM: "CONFIRM", pins.BUTTON_NEW: "NEW GAME",
    pins.LED_DATA: "LED DATA",
    pins.SPI_SCK: "SPI SCK", pins.SPI_MOSI: "SPI MOSI (n.c.)", pins.SPI_MISO: "SPI MISO",
    pins.SHIFT_LOAD: "SH/LD",
    pins.ADC_PINS[0]: "ADC0 bank 0", pins.ADC_PINS[1]: "ADC1 bank 1",
}

ROOT = Path(__file__).resolve().parents[2]
BOM_CSV = ROOT / "hardware" / "bom.csv"

# Physical pin of each GPIO on the Pico's 40-pin header.
PHYSICAL = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}

# Datasheet figures the budget uses (typical / maximum).
SENSOR_MA = (6, 10)  # SS49E / DRV5055 supply current at 3.3 V
PICO_MA = 50  # RP2040 at 125 MHz with USB, plus the on-board LED (datasheet ~25 mA)
LOGIC_MA = 1  # one 4067 / 165 / 74AHCT125, static
PULLUP_KOHM = 10  # occupancy variant: reed pull-ups
BUCK_EFFICIENCY = 85  # % of the 5 V -> 3.3 V sensor regulator
LEDS_PER_FEED = 64  # 5 V is fed into the chain at least every this many LEDs
# Where each LED sits (hardware/README.md, "Getting the light through the
# wood"): host_sim/tools/geometry.py, which the simulator's window draws by too.
LED_OFFSET_MM = geometry.LED_OFFSET_MM
LIGHT_HOLE_MM = geometry.LIGHT_HOLE_MM

JACK_RATED_A = 8  # the DC jack's rating: above the largest supply's 6 A

# Unit prices in USD, one-off quantities from the usual distributors
# (LCSC/Mouser/AliExpress, 2025); an estimate, not a quote.
PARTS = {
    "pico": ("Raspberry Pi Pico (or Pico H / Pico W)", "SC0915", 4.00),
    "hall": ("Linear Hall sensor, ratiometric, 3.3 V (alt. TI DRV5055A1QLPG)", "Honeywell SS49E", 0.12),
    "mux": ("16-channel analog multiplexer", "TI CD74HC4067M96 (SOIC-24) or breakout", 0.60),
    "reed": ("Reed switch, normally open, 14 mm glass (alt. DRV5032FB digital Hall)", "MKA-14103", 0.15),
    "sipr": ("Resistor network 8 x %d kOhm, bussed, SIP-9" % PULLUP_KOHM, "Bourns 4609X-101-103LF", 0.30),
    "sr": ("8-bit parallel-in shift register", "TI SN74HC165N", 0.40),
    "led": ("Addressable RGB LED", "WS2812B-5050 (or SK6812)", 0.12),
    "shifter": ("Quad buffer, 3.3 V -> 5 V level shifter", "TI SN74AHCT125N", 0.50),
    "r330": ("Resistor 330 Ohm, LED data line", "-", 0.02),
    "c100n": ("Capacitor 100 nF X7R, decoupling", "-", 0.02),
    "c1000u": ("Capacitor 1000 uF 10 V electrolytic, at each 5 V feed", "-", 0.30),
    "button": ("Tactile push button 12 mm (pass, confirm, new game)", "-", 0.20),
    "diode": ("Schottky diode 1 A (5 V supply -> VSYS)", "1N5819", 0.10),
    "buck28": ("3.3 V step-down regulator 2.6 A, for the sensors", "Pololu D36V28F3", 14.00),
    "buck50": ("3.3 V step-down regulator 5.5 A, for the sensors", "Pololu D36V50F3", 25.00),
    "psu4": ("5 V 4 A power supply, 5.5 x 2.1 mm barrel plug", "-", 10.00),
    "psu6": ("5 V 6 A power supply, 5.5 x 2.1 mm barrel plug", "-", 15.00),
    "jack": ("DC power jack 5.5 x 2.1 mm, panel mount, rated %d A or more (many are rated"
             " 2-5 A only: check its datasheet)" % JACK_RATED_A, "-", 1.50),
    "c100n_led": ("Capacitor 100 nF X7R 0805, one at each bare WS2812B (VDD-GND)", "-", 0.01),
    "pipe": ("Clear acrylic (PMMA) rod 3 mm x 1 m, light pipes cut to the surface's thickness",
             "-", 1.50),
    "epoxy": ("Clear two-part epoxy, 25 ml (glues the light pipes)", "-", 6.00),
    "magnet": ("Neodymium disc magnet 6 x 2 mm N35, one per stone", "-", 0.05),
}


def gpio_rows():
    """(gpio, physical pin, signal, variant, goes to) from pins.py."""
    rows = []
    for i, gp in enumerate(pins.MUX_SELECT):
        rows.append((gp, "colour", "S%d of every level-1 CD74HC4067" % i))
    for i, gp in enumerate(pins.BANK_SELECT):
        rows.append((gp, "colour", "S%d of every level-2 CD74HC4067" % i))
    for bank, gp in enumerate(pins.ADC_PINS):
        rows.append((gp, "colour", "SIG (common) of level-2 mux %d (bank %d)" % (bank, bank)))
    rows.append((pins.SPI_SCK, "occupancy", "CLK of every 74HC165"))
    rows.append((pins.SPI_MOSI, "occupancy", "nothing (machine.SPI wants a MOSI pin)"))
    rows.append((pins.SPI_MISO, "occupancy", "QH of 165 number 0"))
    rows.append((pins.SHIFT_LOAD, "occupancy", "SH/LD of every 74HC165"))
    rows.append((pins.LED_DATA, "both", "74AHCT125 input 1A; 1Y -> 330 Ohm -> DIN of LED 0"))
    rows.append((pins.BUTTON_PASS, "both", "pass button to GND (long press: resign)"))
    rows.append((pins.BUTTON_CONFIRM, "both", "confirm button to GND"))
    rows.append((pins.BUTTON_NEW, "both", "new-game button to GND"))
    return [(gp, PHYSICAL[gp], GPIO_NAMES[gp], variant, to)
            for gp, variant, to in sorted(rows)]


def pin_table():
    lines = ["| GPIO | Pico pin | signal | variant | connect to |", "|---|---|---|---|---|"]
    for gp, phys, name, variant, to in gpio_rows():
        lines.append("| GP%d | %d | %s | %s | %s |" % (gp, phys, name, variant, to))
    lines.append("")
    lines.append("Every select line is driven before a read; %d conversion(s) are thrown away "
                 "after each switch (`pins.SETTLE_READS`). Readings below %d or above %d "
                 "(`pins.RAIL_LOW`/`RAIL_HIGH`, of 65535) mark a sensor as faulty. The 165 chain "
                 "runs at %d Hz SPI (`pins.SHIFT_BAUD`). The status LED is the Pico's own (%s)."
                 % (pins.SETTLE_READS, pins.RAIL_LOW, pins.RAIL_HIGH, pins.SHIFT_BAUD,
                    pins.STATUS_LED))
    return "\n".join(lines)


def led_count(size):
    return size * size + F.STATUS_PIXELS


def feeds(size):
    """(feed points, rows per feed): 5 V and GND go into the LED chain at the
    first LED of row 1 and then every few rows, so no stretch of the chain
    between feeds is longer than LEDS_PER_FEED LEDs and the feed wires meet
    the chain at the start of a row (the one source for the power table and
    the wiring pictures)."""
    rows_per_feed = max(1, LEDS_PER_FEED // size)
    return (size + rows_per_feed - 1) // rows_per_feed, rows_per_feed


def feed_rows(size):
    """[(board row counted from 1, LED index of that row's first LED)] of every feed."""
    nfeeds, every = feeds(size)
    return [(1 + k * every, k * every * size) for k in range(nfeeds)]


def part_names(key):
    """A BOM part as the pictures name it: "Honeywell SS49E (alt. TI DRV5055A1QLPG)"."""
    what, number, _ = PARTS[key]
    alt = what.split("(alt. ", 1)[1].rstrip(")") if "(alt. " in what else ""
    name = number if number != "-" else what.split(",")[0]
    return "%s (alt. %s)" % (name, alt) if alt else name


def chosen(variant, size, *keys):
    """Which of several alternative BOM parts (a regulator, a supply) this board takes."""
    have = dict(bom(variant, size))
    return next(k for k in keys if k in have)


def sensor_rail_ma(variant, size):
    """(typical, maximum) current of the 3.3 V sensor rail."""
    n = size * size
    if variant == "colour":
        logic = (pins.mux_count(size) + pins.bank_count(size)) * LOGIC_MA
        return n * SENSOR_MA[0] + logic, n * SENSOR_MA[1] + logic
    logic = pins.shift_chips(size) * LOGIC_MA
    # A closed reed draws 3.3 V over its pull-up; at most every place has a stone.
    return logic, logic + n * 3300 // (PULLUP_KOHM * 1000)


def led_budget(size):
    """(brightness cap, worst-case LED mA at the cap, idle mA) at the config defaults."""
    cfg = Config(size=size)
    n = led_count(size)
    cap = signals.brightness_cap(n, cfg.budget_ma, cfg.max_brightness)
    worst = max(r + g + b for r, g, b in F.PALETTE)
    lit = n * worst * F.MA_PER_CHANNEL * cap // (255 * 255)
    return cap, lit + n * F.MA_IDLE, n * F.MA_IDLE


def switch_on_ma(variant, size):
    """What the 5 V supply gives at power-up: every LED dark, the sensors at
    their typical draw (colour: through the buck), the Pico."""
    _, _, dark = led_budget(size)
    typ, _ = sensor_rail_ma(variant, size)
    if variant == "colour":
        sensors = typ * 33 * 100 // (50 * BUCK_EFFICIENCY)
    else:
        sensors = typ * 33 // 50  # through the Pico's own regulator
    return dark + sensors + PICO_MA


def supply_ma(variant, size):
    """Worst case drawn from the 5 V supply."""
    _, leds, _ = led_budget(size)
    _, sensors = sensor_rail_ma(variant, size)
    sensors_5v = sensors * 33 * 100 // (50 * BUCK_EFFICIENCY)  # through the buck
    return leds + sensors_5v + PICO_MA


def bom(variant, size):
    """[(key, quantity)] for one board."""
    n = size * size
    nfeeds, _ = feeds(size)
    rows = [("pico", 1)]
    if variant == "colour":
        nmux = pins.mux_count(size) + pins.bank_count(size)
        ics = nmux + 1
        _, rail = sensor_rail_ma(variant, size)
        rows += [("hall", n), ("mux", nmux),
                 ("buck28" if rail <= 2600 else "buck50", 1)]
        caps = n + ics + 1  # one at every sensor (SS49E datasheet) and IC
    else:
        chips = pins.shift_chips(size)
        ics = chips + 1
        rows += [("reed", n), ("sr", chips), ("sipr", chips)]
        caps = ics
    pieces = geometry.ROD_MM // geometry.PIPE_PIECE_MM
    rows += [("led", led_count(size)), ("c100n_led", led_count(size)), ("shifter", 1),
             ("r330", 1), ("c100n", caps), ("c1000u", nfeeds), ("button", 3), ("diode", 1),
             ("psu4" if supply_ma(variant, size) <= 4000 else "psu6", 1), ("jack", 1),
             ("pipe", (n + pieces - 1) // pieces), ("epoxy", 1), ("magnet", n)]
    return rows


def cost(variant, size):
    return sum(PARTS[key][2] * qty for key, qty in bom(variant, size))


def bom_table(variant):
    head = "| part | part number | unit USD | " + " | ".join("%dx%d" % (s, s) for s in SIZES) + " |"
    lines = [head, "|---|---|---|" + "---|" * len(SIZES)]
    per_size = [dict(bom(variant, s)) for s in SIZES]
    keys = [key for key in PARTS if any(key in q for q in per_size)]
    for key in keys:
        what, number, price = PARTS[key]
        lines.append("| %s | %s | %.2f | %s |" % (what, number, price, " | ".join(
            str(q.get(key, "-")) for q in per_size)))
    lines.append("| **estimated total** | | | %s |" % " | ".join(
        "**$%.0f**" % cost(variant, s) for s in SIZES))
    return "\n".join(lines)


def power_table():
    cfg = Config()
    lines = ["| | " + " | ".join("%dx%d" % (s, s) for s in SIZES) + " |",
             "|---|" + "---|" * len(SIZES)]

    def row(label, values):
        lines.append("| %s | %s |" % (label, " | ".join(values)))

    row("LEDs in the chain (board + %d status)" % F.STATUS_PIXELS, [str(led_count(s)) for s in SIZES])
    row("brightness cap (of 255; `signals.brightness_cap`)", [str(led_budget(s)[0]) for s in SIZES])
    row("LEDs, worst frame at the cap (mA at 5 V)", [str(led_budget(s)[1]) for s in SIZES])
    row("LEDs, all dark (mA at 5 V)", [str(led_budget(s)[2]) for s in SIZES])
    row("colour: Hall sensors + muxes, typ / max (mA at 3.3 V)",
        ["%d / %d" % sensor_rail_ma("colour", s) for s in SIZES])
    row("occupancy: 165s + pull-ups, typ / max (mA at 3.3 V)",
        ["%d / %d" % sensor_rail_ma("occupancy", s) for s in SIZES])
    row("Pico (mA at 5 V)", [str(PICO_MA) for _ in SIZES])
    row("colour: worst total from the 5 V supply (mA)", [str(supply_ma("colour", s)) for s in SIZES])
    row("occupancy: worst total from the 5 V supply (mA)", [str(supply_ma("occupancy", s)) for s in SIZES])
    row("colour: at switch-on, LEDs dark (mA at 5 V)", [str(switch_on_ma("colour", s)) for s in SIZES])
    row("occupancy: at switch-on, LEDs dark (mA at 5 V)",
        [str(switch_on_ma("occupancy", s)) for s in SIZES])
    row("5 V feed points into the LED chain", ["%d (every %d rows)" % feeds(s) for s in SIZES])
    lines.append("")
    lines.append("LED budget `budget_ma` = %d mA at %d V and `max_brightness` = %d are the "
                 "defaults in `configfile.py`; a LED draws up to %d mA per colour channel at full "
                 "brightness and %d mA dark (`frame.py`). The 3.3 V rail goes through a buck "
                 "regulator at ~%d %% efficiency."
                 % (cfg.budget_ma, cfg.volts, cfg.max_brightness, F.MA_PER_CHANNEL, F.MA_IDLE,
                    BUCK_EFFICIENCY))
    return "\n".join(lines)


def led_order_table():
    lines = ["| size | LED 0 | LED 1 | end of row 1 | first of row 2 | last board LED | status LEDs |",
             "|---|---|---|---|---|---|---|"]
    for s in SIZES:
        where = {pins.led_index(s, p): vertex(s, place_point(s, p)) for p in range(s * s)}
        n = s * s
        lines.append("| %dx%d | %s | %s | %s = LED %d | %s = LED %d | %s = LED %d | LED %d-%d |" % (
            s, s, where[0], where[1], where[s - 1], s - 1, where[s], s, where[n - 1], n - 1,
            n, n + F.STATUS_PIXELS - 1))
    return "\n".join(lines)


def bom_csv():
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["variant", "size", "part", "part number", "quantity", "unit USD", "line USD"])
    for variant in ("colour", "occupancy"):
        for s in SIZES:
            for key, qty in bom(variant, s):
                what, number, price = PARTS[key]
                w.writerow([variant, "%dx%d" % (s, s), what, number, qty, "%.2f" % price,
                            "%.2f" % (qty * price)])
    return out.getvalue()


# The optional clock display (hw/tm1637.py): not in the BOM totals.
DISPLAY_PART = ("4-digit 7-segment display module with colon, TM1637 (0.36\" clock type, "
                "pull-ups on the module)", "TM1637 module (e.g. Grove 4-Digit Display)", 1.50)


def display_table():
    """The optional clock display: its BOM line and its wiring, from pins.py."""
    what, number, price = DISPLAY_PART
    return "\n".join([
        "| part | part number | unit USD | quantity |", "|---|---|---|---|",
        "| %s | %s | %.2f | 1 |" % (what, number, price), "",
        "| module pin | connect to |", "|---|---|",
        "| CLK | GP%d (Pico pin %d) |" % (pins.DISPLAY_CLK, PHYSICAL[pins.DISPLAY_CLK]),
        "| DIO | GP%d (Pico pin %d) |" % (pins.DISPLAY_DIO, PHYSICAL[pins.DISPLAY_DIO]),
        "| VCC | 3V3(OUT) (Pico pin 36): the module then drives no line above 3.3 V |",
        "| GND | GND (Pico pin 38) |"])


SECTIONS = (
    ("display", display_table),
    ("pins", pin_table),
    ("bom-colour", lambda: bom_table("colour")),
    ("bom-occupancy", lambda: bom_table("occupancy")),
    ("power", power_table),
    ("led-order", led_order_table),
    ("pcb-tiles", lambda: _pcb_tiles()),
)


def _pcb_tiles():
    from host_sim.tools.pcb import boards  # the PCB generator: imported only for the docs
    return boards.summary_table()


def markers(name):
    return ("<!-- hw-%s:begin (generated by python -m host_sim.docgen from firmware/gogadget/hw/pins.py) -->"
            % name, "<!-- hw-%s:end -->" % name)


def main():
    BOM_CSV.write_text(bom_csv())
    print("wrote", BOM_CSV)
    return 0


if __name__ == "__main__":
    sys.exit(main())
