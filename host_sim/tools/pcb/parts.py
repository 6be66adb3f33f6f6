"""The tiles' parts: each footprint drawn from its maker's datasheet (land
pattern named in the comment), with the part numbers the BOM and the
assembly service need (Manufacturer, MPN; the assembler's own stock numbers
are looked up against the MPN when ordering, not guessed here)."""
from host_sim.tools.pcb.kicad import Footprint, Pad

# Hall sensor: TI DRV5055A1QDBZR, SOT-23 (DBZ0003A).  Datasheet SBAS640,
# package drawing: pins 1 and 2 on one side, 1.9 mm apart, pin 3 opposite,
# 2.4 mm over the leads.  Land here: pads 1.0 x 0.6 on rows 2.2 mm apart
# (IPC-7351 nominal for SOT-23; compare with the DBZ0003A example board
# layout before ordering: it was not at hand when this was drawn).
# Local frame as KiCad's SOT-23 (pins 1, 2 on the left, 3 on the right),
# so a placement's angle means what an assembler expects.
# Pins: 1 VCC, 2 OUT, 3 GND.
HALL = ("TI", "DRV5055A1QDBZR")


def hall(ref, x, y, angle, vcc, out, gnd):
    pads = [Pad("1", -1.1, -0.95, 1.0, 0.6, vcc), Pad("2", -1.1, 0.95, 1.0, 0.6, out),
            Pad("3", 1.1, 0, 1.0, 0.6, gnd)]
    return Footprint("GoGadget:SOT-23_DBZ", ref, "DRV5055A1", x, y, angle, "F", pads,
                     [("Manufacturer", HALL[0]), ("MPN", HALL[1])])


# LED: Worldsemi WS2812B (5050 PLCC4 package).  Datasheet WS2812B,
# recommended land: 4 pads 1.5 x 1.0, 4.9 mm apart across, 3.2 mm along
# (KiCad's LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm).  Top view, pin 1 top left,
# counter-clockwise: 1 VDD, 2 DOUT, 3 VSS (the marked corner), 4 DIN.
LED = ("Worldsemi", "WS2812B-B/W")


def led(ref, x, y, angle, vdd, dout, vss, din):
    pads = [Pad("1", -2.45, -1.6, 1.5, 1.0, vdd), Pad("2", -2.45, 1.6, 1.5, 1.0, dout),
            Pad("3", 2.45, 1.6, 1.5, 1.0, vss), Pad("4", 2.45, -1.6, 1.5, 1.0, din)]
    return Footprint("GoGadget:LED_WS2812B_5050", ref, "WS2812B", x, y, angle, "F", pads,
                     [("Manufacturer", LED[0]), ("MPN", LED[1])])


# Decoupling: 100 nF X7R 0603, Samsung CL10B104KB8NNNC.  IPC-7351 nominal
# 0603 land (Samsung's recommended): pads 0.9 x 0.95, centres 1.55 apart.
CAP = ("Samsung", "CL10B104KB8NNNC")


def cap(ref, x, y, angle, net1, net2, side="F"):
    pads = [Pad("1", -0.775, 0, 0.9, 0.95, net1), Pad("2", 0.775, 0, 0.9, 0.95, net2)]
    return Footprint("GoGadget:C_0603", ref, "100nF", x, y, angle, side, pads,
                     [("Manufacturer", CAP[0]), ("MPN", CAP[1])])


# Level-1 multiplexer: TI CD74HC4067SM96, SSOP-24 (DB0024A, 5.3 mm body,
# 0.65 mm pitch).  KiCad's SSOP-24_5.3x8.2mm_P0.65mm land: pads 1.75 x 0.45
# on rows 7.2 mm apart; here 1.5 x 0.4, the same rows, the toe trimmed to
# keep 0.25 mm between neighbours.  Pins: 1 COM, 2..9 I7..I0, 10 S0,
# 11 S1, 12 GND, 13 S3, 14 S2, 15 /E, 16..23 I15..I8, 24 VCC.
# On the bottom side: the library land flipped (pins 1..12 on the right,
# top down) and turned 270, so seen from the top pins 1..12 run right to
# left along the row at +3.6 and 13..24 left to right along the row at -3.6.
MUX = ("TI", "CD74HC4067SM96")
MUX_PITCH = 0.65
MUX_ROW = 3.6
MUX_ANGLE = 270


def mux_pin_xy(pin):
    """Offset of a mux pin from the part's centre as placed (board frame)."""
    if pin <= 12:
        return 3.575 - MUX_PITCH * (pin - 1), MUX_ROW
    return -3.575 + MUX_PITCH * (pin - 13), -MUX_ROW


def _mux_local(pin):
    """The flipped library land's offset of a pin (footprint frame)."""
    if pin <= 12:
        return MUX_ROW, -3.575 + MUX_PITCH * (pin - 1)
    return -MUX_ROW, 3.575 - MUX_PITCH * (pin - 13)


def mux_channel_pin(channel):
    """CD74HC4067 pin of input I<channel>."""
    return 9 - channel if channel < 8 else 31 - channel


def mux(ref, x, y, nets):
    """nets: pin number -> net name."""
    pads = []
    for pin in range(1, 25):
        dx, dy = _mux_local(pin)
        pads.append(Pad(str(pin), dx, dy, 1.5, 0.4, nets.get(pin)))
    return Footprint("GoGadget:SSOP-24_DB", ref, "CD74HC4067", x, y, MUX_ANGLE, "B", pads,
                     [("Manufacturer", MUX[0]), ("MPN", MUX[1])])


# The tile's cable to the controller: JST SH, 8 ways, side entry,
# SM08B-SRSS-TB.  Datasheet eSH and KiCad's
# JST_SH_SM08B-SRSS-TB_1x08-1MP_P1.00mm_Horizontal: contacts 0.6 x 1.55 at
# 1.0 mm on y = -2; two retention pads 1.2 x 1.8 at x = -/+4.8, y = 1.875.
# On the bottom side: flipped (pin 1 on the right) and turned 180, so seen
# from the top pin 1 is on the left and the retention pads above.
SOCKET = ("JST", "SM08B-SRSS-TB(LF)(SN)")
SOCKET_PINS = ("GND", "S0", "S1", "S2", "S3", "SIG0", "SIG1", "GND")
SOCKET_ANGLE = 180


def socket(ref, x, y, nets):
    """(x, y): the middle of the contact row as placed."""
    pads = [Pad(str(i + 1), 3.5 - i, -2, 0.6, 1.55, nets[i]) for i in range(8)]
    pads += [Pad("MP", 4.8, 1.875, 1.2, 1.8), Pad("MP", -4.8, 1.875, 1.2, 1.8)]
    return Footprint("GoGadget:JST_SH_SM08B", ref, "SM08B-SRSS-TB", x, y - 2, SOCKET_ANGLE, "B",
                     pads, [("Manufacturer", SOCKET[0]), ("MPN", SOCKET[1])])


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
