"""The tiles' parts: each footprint drawn from its maker's datasheet (land
pattern named in the comment), with the part numbers the BOM and the
assembly service need (Manufacturer, MPN; the assembler's own stock numbers
are looked up against the MPN when ordering, not guessed here)."""
from host_sim.tools.pcb.kicad import Footprint, Pad

# Hall sensor: TI DRV5055A1QDBZR, SOT-23 (DBZ0003A).  Datasheet SBAS640,
# "DBZ0003A example board layout": pads 0.6 x 1.0 (here 0.6 x 1.0), pins
# 1 and 2 at x = -/+0.95, pin 3 opposite, rows 2.2 mm apart (centres).
# Pins: 1 VCC, 2 OUT, 3 GND.
HALL = ("TI", "DRV5055A1QDBZR")


def hall(ref, x, y, angle, vcc, out, gnd):
    pads = [Pad("1", -0.95, 1.1, 0.6, 1.0, vcc), Pad("2", 0.95, 1.1, 0.6, 1.0, out),
            Pad("3", 0, -1.1, 0.6, 1.0, gnd)]
    return Footprint("GoGadget:SOT-23_DBZ", ref, "DRV5055A1", x, y, angle, "F", pads,
                     [("Manufacturer", HALL[0]), ("MPN", HALL[1])])


# LED: Worldsemi WS2812B (5050 PLCC4 package).  Datasheet WS2812B V5,
# "Recommended PCB pad": 4 pads 1.5 x 1.0, 4.9 mm apart across, 3.2 mm
# along.  Pins: 1 VDD, 2 DOUT, 3 VSS, 4 DIN.
LED = ("Worldsemi", "WS2812B-B/W")


def led(ref, x, y, angle, vdd, dout, vss, din):
    pads = [Pad("1", 2.45, -1.6, 1.5, 1.0, vdd), Pad("2", 2.45, 1.6, 1.5, 1.0, dout),
            Pad("3", -2.45, 1.6, 1.5, 1.0, vss), Pad("4", -2.45, -1.6, 1.5, 1.0, din)]
    return Footprint("GoGadget:LED_WS2812B_5050", ref, "WS2812B", x, y, angle, "F", pads,
                     [("Manufacturer", LED[0]), ("MPN", LED[1])])


# Decoupling: 100 nF X7R 0603, Samsung CL10B104KB8NNNC.  IPC-7351 nominal
# 0603 land (Samsung's recommended): pads 0.9 x 0.95, centres 1.55 apart.
CAP = ("Samsung", "CL10B104KB8NNNC")


def cap(ref, x, y, angle, net1, net2, side="F"):
    pads = [Pad("1", -0.775, 0, 0.9, 0.95, net1), Pad("2", 0.775, 0, 0.9, 0.95, net2)]
    return Footprint("GoGadget:C_0603", ref, "100nF", x, y, angle, side, pads,
                     [("Manufacturer", CAP[0]), ("MPN", CAP[1])])


# Level-1 multiplexer: TI CD74HC4067SM96, SSOP-24 (DB0024A).  Datasheet
# SCHS209, "DB0024A example board layout": pads 1.85 x 0.45 at 0.65 mm,
# rows 7.0 mm apart (centres).  Here 1.5 x 0.4 pads on rows 7.2 apart: the
# same land, the heel trimmed to leave room for the 0.15 mm rule.
# Pins: 1 COM, 2..9 I7..I0, 10 S0, 11 S1, 12 GND, 13 S3, 14 S2, 15 /E,
# 16..23 I15..I8, 24 VCC.  Mounted on the bottom side: seen from the top,
# pins 1..12 run right to left along the row at +3.6, 13..24 left to right
# along the row at -3.6 (clockwise: the part's top view mirrored).
MUX = ("TI", "CD74HC4067SM96")
MUX_PITCH = 0.65
MUX_ROW = 3.6


def mux_pin_xy(pin):
    """Offset of a mux pin from the part's centre (bottom-side placement)."""
    if pin <= 12:
        return 3.575 - MUX_PITCH * (pin - 1), MUX_ROW
    return -3.575 + MUX_PITCH * (pin - 13), -MUX_ROW


def mux_channel_pin(channel):
    """CD74HC4067 pin of input I<channel>."""
    return 9 - channel if channel < 8 else 31 - channel


def mux(ref, x, y, nets):
    """nets: pin number -> net name."""
    pads = []
    for pin in range(1, 25):
        dx, dy = mux_pin_xy(pin)
        pads.append(Pad(str(pin), dx, dy, 0.4, 1.5, nets.get(pin)))
    return Footprint("GoGadget:SSOP-24_DB", ref, "CD74HC4067", x, y, 0, "B", pads,
                     [("Manufacturer", MUX[0]), ("MPN", MUX[1])])


# The tile's cable to the controller: JST SH, 8 ways, side entry,
# SM08B-SRSS-TB.  Datasheet eSH, "PC board layout": contacts 0.6 x 1.55 at
# 1.0 mm; two retention pads 1.2 x 1.8, 2.875 mm behind the contacts and
# 1.3 mm outside the outer ones.  On the bottom side, cable out to the back.
SOCKET = ("JST", "SM08B-SRSS-TB(LF)(SN)")
SOCKET_PINS = ("GND", "S0", "S1", "S2", "S3", "SIG0", "SIG1", "GND")


def socket(ref, x, y, nets):
    pads = [Pad(str(i + 1), -3.5 + i, 0, 0.6, 1.55, nets[i]) for i in range(8)]
    pads += [Pad("MP", -4.8, -2.875, 1.2, 1.8), Pad("MP", 4.8, -2.875, 1.2, 1.8)]
    return Footprint("GoGadget:JST_SH_SM08B", ref, "SM08B-SRSS-TB", x, y, 0, "B", pads,
                     [("Manufacturer", SOCKET[0]), ("MPN", SOCKET[1])])


# A joint pad (bare copper on the back, a wire link to the next tile's
# pad) and a solder jumper (two pads 0.4 mm apart, closed with a blob of
# solder on the tiles at the board's ends): no part to buy.
def joint(ref, x, y, net):
    return Footprint("GoGadget:JointPad", ref, "joint", x, y, 0, "B",
                     [Pad("1", 0, 0, 1.5, 1.5, net)], bom=False)


def jumper(ref, x, y, net1, net2):
    """Vertical: pad 1 above (smaller y), pad 2 below."""
    return Footprint("GoGadget:SolderJumper", ref, "jumper", x, y, 0, "B",
                     [Pad("1", 0, -0.7, 1.0, 1.0, net1), Pad("2", 0, 0.7, 1.0, 1.0, net2)],
                     bom=False)


# Mounting hole for an M2 screw into the backing board: 2.2 mm unplated.
def hole(ref, x, y):
    return Footprint("GoGadget:MountingHole_2.2mm", ref, "M2", x, y, 0, "F",
                     [Pad("", 0, 0, 2.2, 2.2, hole=2.2)], bom=False)
