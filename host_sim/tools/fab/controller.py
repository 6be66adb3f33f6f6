"""The controller board (colour variant), generated: the Pico as a module,
the two level-2 CD74HC4067s (one per ADC bank), the 74AHCT125 and 330 Ohm on
the LED data line, the buttons' and the TM1637's headers, the power input
(reverse-polarity P-MOSFET, TVS, 1000 uF), the Schottky into VSYS, the
header of the 3.3 V sensor regulator module, and the connectors to the tiles.

    /usr/bin/python3 -m host_sim.tools.fab.controller hardware/pcb/controller.kicad_pcb

Every GPIO comes from the pin map (firmware/gogadget/hw/pins.py) and its
Pico pin from hwdoc.PHYSICAL; the level-2 channels from pins.MUX_CHANNELS.
4 layers: signals on F.Cu and B.Cu (router.py), In1.Cu the ground plane,
In2.Cu the 5 V plane; the supply's current runs in 3 mm copper on the outer
layers.  Written with pcbnew (Debian's python3); the file's timestamps and
ids are made deterministic so the same code writes the same bytes.
"""
import os
import re
import sys
import uuid

from gogadget.hw import pins
from host_sim.tools import pinouts
from host_sim.tools.fab import fabrules, router
from host_sim.tools.fab.parts import PARTS, PICO_SIZE, header
from host_sim.tools.pcb.parts import SOCKET, SOCKET_PINS, socket
from host_sim.tools.hwdoc import PHYSICAL

WIDTH, HEIGHT = 120.65, 85.09  # mm
SOCKETS = 16  # one per tile of the largest board: 19x19 is 4 x 4 tiles
# The tiles' socket (host_sim/tools/pcb/parts.py) in its library frame: that
# module gives a bottom-side part's pads as seen from the top, so x turns back.
# Placed at 180 degrees here: the contacts in front (+y), the retention pads behind.
SOCKET_PADS = [(p.number, -p.dx, p.dy, p.w, p.h, None, "rect") for p in socket("J", 0, 0, [None] * 8).pads]
SOCKET_ROW_MM = 2.0  # contact row in front of the origin once turned


def socket_channels(k):
    """Socket k (tile k of the board, column by column from the left, each
    bottom up): its SIG0 and SIG1 on the level-2 inputs (bank, first) and
    (bank, first + 1), the same for every size (two slots per tile)."""
    return k // 8, 2 * (k % 8)
POWER_MM = 3.0  # IPC-2221, 1 oz outer copper: 5 A at about 10 C rise
G = 0.635  # the placement unit: half the SOIC pitch, a quarter of the headers'


def snap(v):
    """On the router's grid (the tile sockets' 1 mm pads then each hold a node)."""
    return round(v / router.GRID_MM) * router.GRID_MM

# Pico power pins (datasheet pinout)
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)  # 33 is AGND: one ground plane under all
PICO_ADC_VREF, PICO_3V3, PICO_VSYS = 35, 36, 39


def g(n):
    return n * G


class Design:
    """Parts placed, nets named, then routed; pcbnew only in write()."""

    def __init__(self):
        self.parts = []  # (ref, kind, x, y, rot, {pad: net}, extra)
        self.wide = []  # (net, layer, (x0, y0), (x1, y1), width)
        self.nets = set()

    def place(self, ref, kind, x, y, nets, rot=0, pads=None, value=None, mpn=None):
        self.parts.append((ref, kind, x, y, rot, nets, pads, value, mpn))
        self.nets.update(n for n in nets.values() if n)

    def wire(self, net, a, b, layer="F.Cu", width=POWER_MM):
        self.wide.append((net, layer, a, b, width))


def design():
    d = Design()
    # The Pico: top edge 0.5 mm in, the USB connector at the board's edge.
    px, py = g(64), g(41)
    nets = {}
    for n in PICO_GND:
        nets[str(n)] = "GND"
    signals = {}
    for i, gp in enumerate(pins.MUX_SELECT):
        signals[gp] = "MUX_S%d" % i
    for i, gp in enumerate(pins.BANK_SELECT):
        signals[gp] = "BANK_S%d" % i
    for b, gp in enumerate(pins.ADC_PINS):
        signals[gp] = "ADC%d" % b
    signals[pins.BUTTON_PASS] = "BTN_PASS"
    signals[pins.BUTTON_CONFIRM] = "BTN_CONFIRM"
    signals[pins.BUTTON_NEW] = "BTN_NEW"
    signals[pins.DISPLAY_CLK] = "TM_CLK"
    signals[pins.DISPLAY_DIO] = "TM_DIO"
    signals[pins.LED_DATA] = "LED_3V3"
    for gp, net in signals.items():
        nets[str(PHYSICAL[gp])] = net
    nets[str(PICO_ADC_VREF)] = "+3V3S"
    nets[str(PICO_3V3)] = "+3V3"
    nets[str(PICO_VSYS)] = "VSYS"
    d.place("U1", "pico", px, py, nets)
    d.pico = (px, py)

    # Level-2 multiplexers, one per ADC bank, and their 100 nF.
    banks = len(pins.ADC_PINS)
    by_name = {v: k for k, v in pinouts.CD4067.items()}
    for b in range(banks):
        mx, my = g(102 + 48 * b), g(25)
        nets = {str(by_name["COM"]): "ADC%d" % b, str(by_name["GND"]): "GND", str(by_name["/E"]): "GND",
                str(by_name["VCC"]): "+3V3S"}
        for i in range(4):
            nets[str(by_name["S%d" % i])] = "BANK_S%d" % i
        for c in range(pins.MUX_CHANNELS):
            nets[str(by_name["I%d" % c])] = "SIG%d_%d" % (b, c)
        d.place("U%d" % (2 + b), "mux", mx, my, nets)
        d.place("C%d" % (2 + b), "c100n", mx + g(4), my - g(17), {"1": "+3V3S", "2": "GND"})

    # The tiles' sockets, one per tile (the tiles' own JST SH 8-way, host_sim/tools/pcb/parts.py):
    # socket k in four columns of four, k // 4 from the left, k % 4 from the bottom.
    for k in range(SOCKETS):
        bank, first = socket_channels(k)
        nets = dict(zip((str(n + 1) for n in range(8)), SOCKET_PINS))
        for n, signal in enumerate(SOCKET_PINS):
            if signal.startswith("SIG"):
                nets[str(n + 1)] = "SIG%d_%d" % (bank, first + int(signal[3:]))
            elif signal.startswith("S"):
                nets[str(n + 1)] = "MUX_" + signal
        # the contact row at (sx, sy); the footprint's origin (the library's) 2 mm behind it
        sx, sy = snap(g(92) + (k // 4) * g(20)), snap(g(107) - (k % 4) * g(18))
        d.place("J%d" % (8 + k), "socket", sx, sy - SOCKET_ROW_MM, nets, rot=180, pads=SOCKET_PADS,
                value="Tile %d" % k, mpn=SOCKET[1])

    # The LED data after the 330 Ohm, to the first tile's link pad (B_UP), and ground.
    d.place("J7", "hdr", g(8), g(15), {"1": "LED_DIN", "2": "GND"}, rot=270, pads=header(2),
            value="LED data", mpn="TSW-102-07-G-S")
    # Level shifter: gate 1 in use, the rest tied off (inputs and /OE to GND).
    by_name = {v: k for k, v in pinouts.AHCT125.items()}
    bn = {str(by_name[k]): "GND" for k in ("1OE", "2OE", "3OE", "4OE", "2A", "3A", "4A", "GND")}
    bn.update({str(by_name["1A"]): "LED_3V3", str(by_name["1Y"]): "LED_5V", str(by_name["VCC"]): "+5V"})
    ux, uy = g(30), g(50)
    d.place("U4", "buffer", ux, uy, bn)
    d.place("C4", "c100n", ux, uy - g(9), {"1": "+5V", "2": "GND"})
    d.place("R1", "r330", ux - g(10), uy - g(9), {"1": "LED_5V", "2": "LED_DIN"})
    # Buttons (to GND, internal pull-ups) and the TM1637 module (3.3 V from the Pico).
    d.place("J5", "hdr", g(8), g(60), {"1": "BTN_PASS", "2": "BTN_CONFIRM", "3": "BTN_NEW", "4": "GND"},
            rot=270, pads=header(4), value="Buttons", mpn="TSW-104-07-G-S")
    d.place("J6", "hdr", g(8), g(78), {"1": "TM_CLK", "2": "TM_DIO", "3": "+3V3", "4": "GND"},
            rot=270, pads=header(4), value="TM1637 display", mpn="TSW-104-07-G-S")

    # Power: the supply's terminal, the reverse-polarity P-MOSFET (drain to
    # the input, source to the 5 V bus, gate to ground: its body diode
    # conducts first, then it turns on; reversed it stays off), the TVS and
    # 1000 uF on the bus, the terminal for the LED feeds.
    yb = g(122)
    qx = g(30)
    d.place("J1", "terminal", g(8), yb, {"1": "VIN", "2": "GND"}, rot=270, value="5 V in")
    d.place("Q1", "pfet", qx, yb, {"1": "+5V", "2": "+5V", "3": "+5V", "4": "GND",
                                   "5": "VIN", "6": "VIN", "7": "VIN", "8": "VIN"}, rot=180)
    d.place("D1", "tvs", g(46), yb + g(6), {"1": "+5V", "2": "GND"})
    d.place("C1", "bulk", g(56), yb, {"1": "+5V", "2": "GND"}, rot=270)
    d.place("J2", "terminal", g(76), yb, {"1": "+5V", "2": "GND"}, value="5 V to LED feeds")
    # VSYS through the Schottky (anode on the bus, cathode on VSYS: USB alone powers the Pico only).
    d.place("D2", "schottky", px + g(22), py - g(34), {"1": "VSYS", "2": "+5V"})
    # The sensor regulator module (Pololu D36V28F3 / D36V50F3: VIN, GND, VOUT
    # wired to this header) and the sensor rail out to the tiles.
    d.place("J3", "hdr", g(178), g(10), {"1": "+5V", "2": "GND", "3": "+3V3S"}, rot=270,
            pads=header(3), value="3.3 V regulator module", mpn="TSW-103-07-G-S")
    d.place("J4", "terminal", g(178), g(32), {"1": "+3V3S", "2": "GND"}, rot=270, value="3.3 V to tiles")
    d.place("C5", "c10u", g(170), g(24), {"1": "+3V3S", "2": "GND"}, rot=90)

    # Supply current in wide copper: J1 -> Q1's drains (left row, turned
    # round); its sources -> bulk -> J2 on F.Cu; the grounds J1 - C1 - J2 on
    # B.Cu, below; VOUT -> J4.
    left, right = qx - 2.475, qx + 2.475
    d.wire("VIN", (g(8), yb), (left, yb), width=2.0)
    d.wire("VIN", (left, yb - 1.905), (left, yb + 1.905), width=1.2)
    d.wire("+5V", (right, yb - 0.635), (right, yb + 1.905), width=1.2)
    d.wire("+5V", (right, yb + 0.635), (right + 3.0, yb + 0.635), width=1.2)
    d.wire("+5V", (right + 3.0, yb + 0.635), (g(56), yb), width=POWER_MM)
    d.wire("+5V", (g(56), yb), (g(76), yb), width=POWER_MM)
    d.wire("+5V", (g(46) - 2.15, yb + g(6)), (g(46) - 2.15, yb + 0.635), width=1.2)
    d.wire("GND", (g(46) + 2.15, yb + g(6)), (g(56), yb + 5.0), width=1.2)
    low = yb + 5.08
    for a, b in (((g(8), low), (g(76) + 5.08, low)),
                 ((g(76) + 5.08, low), (g(76) + 5.08, yb))):
        d.wire("GND", a, b, layer="B.Cu", width=POWER_MM)
    d.wire("+3V3S", (g(178), g(10) + 5.08), (g(178), g(32)), width=2.0)
    return d


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or not argv[0].endswith(".kicad_pcb"):
        print(__doc__, file=sys.stderr)
        return 2
    from host_sim.tools.fab import controller_board
    controller_board.write(design(), argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
