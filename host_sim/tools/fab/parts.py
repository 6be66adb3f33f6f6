"""Footprints of the controller board's parts, each from its datasheet's
package drawing or recommended land pattern (the source is named at each),
as pad lists a generator places: (number, dx, dy, width, height, drill,
shape), mm, KiCad's y down, drill None for SMD pads.

And the parts themselves: orderable manufacturer part numbers (and LCSC's
where it stocks them for its assembly service).
"""


def soic(pins, row_mm, pad=(1.975, 0.6), pitch=1.27):
    """SOIC: pin 1 top left, down the left row, up the right one."""
    half = pins // 2
    pads = []
    for n in range(1, pins + 1):
        if n <= half:
            x, y = -row_mm, (n - 1 - (half - 1) / 2) * pitch
        else:
            x, y = row_mm, (pins - n - (half - 1) / 2) * pitch
        pads.append((str(n), x, y, pad[0], pad[1], None, "rect"))
    return pads


# TI CD74HC4067M96, package DW (SOIC-24 wide, 7.5 mm body), TI SCHS209 land
# pattern: 1.27 mm pitch, pad rows 9.3 mm apart centre to centre.
SOIC24W = soic(24, 4.65)
# TI SN74AHCT125DR, package D (SOIC-14, 3.9 mm body), TI SCLS256 land
# pattern: pad rows 4.95 mm apart.
SOIC14 = soic(14, 2.475, pad=(1.525, 0.6))
# Alpha & Omega AO4407A (SOIC-8): the JEDEC MS-012 land of the same rows.
SOIC8 = soic(8, 2.475, pad=(1.525, 0.6))
# 0805 (2012 metric) chip resistor and capacitor, IPC-7351 nominal land.
R0805 = [("1", -0.95, 0, 1.0, 1.45, None, "rect"), ("2", 0.95, 0, 1.0, 1.45, None, "rect")]
# Diodes Inc. 1N5819HW (SOD-123): pin 1 the cathode, datasheet's land.
SOD123 = [("1", -1.635, 0, 0.91, 1.22, None, "rect"), ("2", 1.635, 0, 0.91, 1.22, None, "rect")]
# Littelfuse SMBJ5.0A (DO-214AA, SMB): pin 1 the cathode (the band).
SMB = [("1", -2.15, 0, 2.5, 2.3, None, "rect"), ("2", 2.15, 0, 2.5, 2.3, None, "rect")]


def header(n, pitch=2.54, rows=1):
    """2.54 mm pin header: pin 1 square, pins along +x (a second row below,
    odd pins on the first: an IDC box header's numbering)."""
    pads = []
    for k in range(n * rows):
        col, row = (k // rows, k % rows) if rows > 1 else (k, 0)
        pads.append((str(k + 1), col * pitch, row * pitch, 1.7, 1.7, 1.0, "rect" if k == 0 else "circle"))
    return pads


# Phoenix Contact MKDS 1,5/ 2-5,08 (1715721): 5.08 mm pitch, 1.3 mm holes.
TERMINAL2 = [("1", 0, 0, 2.6, 2.6, 1.3, "rect"), ("2", 5.08, 0, 2.6, 2.6, 1.3, "circle")]
# Rubycon 10ZLH1000MEFC10X16: radial 10 mm can, 5.0 mm lead pitch, 0.6 mm leads.
RADIAL_D10 = [("1", 0, 0, 2.0, 2.0, 1.0, "rect"), ("2", 5.0, 0, 2.0, 2.0, 1.0, "circle")]


def pico():
    """Raspberry Pi Pico / Pico W as a module (Pico datasheet, "Pico
    footprint"): 21 x 51 mm, 40 castellated edge pads on 2.54 mm, the rows
    17.78 mm apart; pin 1 top left with the USB connector up.  Each pad is
    a plated slot-shaped land over the module's hole, so the module is
    soldered flat by its castellations or on pin headers."""
    pads = []
    for n in range(1, 41):
        if n <= 20:
            x, y = -8.89, -24.13 + (n - 1) * 2.54
        else:
            x, y = 8.89, 24.13 - (n - 21) * 2.54
        pads.append((str(n), x, y, 3.2, 1.6, 1.0, "rect"))
    return pads


PICO_SIZE = (21.0, 51.0)

# (value, footprint name, pads, manufacturer, MPN, LCSC, smd)
PARTS = {
    "pico": ("Raspberry Pi Pico (or Pico W: SC0918)", "RPi_Pico_Castellated", pico(),
             "Raspberry Pi", "SC0915", "", False),
    "mux": ("CD74HC4067", "SOIC-24W_7.5x15.4mm_P1.27mm", SOIC24W, "Texas Instruments", "CD74HC4067M96",
            "", True),
    "buffer": ("74AHCT125", "SOIC-14_3.9x8.7mm_P1.27mm", SOIC14, "Texas Instruments", "SN74AHCT125DR",
               "", True),
    "pfet": ("P-MOSFET -30 V 12 A", "SOIC-8_3.9x4.9mm_P1.27mm", SOIC8, "Alpha & Omega", "AO4407A", "", True),
    "tvs": ("TVS 5 V", "D_SMB", SMB, "Littelfuse", "SMBJ5.0A", "", True),
    "schottky": ("Schottky 40 V 1 A", "D_SOD-123", SOD123, "Diodes Incorporated", "1N5819HW-7-F", "", True),
    "r330": ("330", "R_0805_2012Metric", R0805, "Yageo", "RC0805FR-07330RL", "", True),
    "c100n": ("100n", "C_0805_2012Metric", R0805, "Samsung", "CL21B104KBCNNNC", "C49678", True),
    "c10u": ("10u", "C_0805_2012Metric", R0805, "Samsung", "CL21A106KAYNNNE", "C15850", True),
    "bulk": ("1000u 10V", "CP_Radial_D10.0mm_P5.00mm", RADIAL_D10, "Rubycon", "10ZLH1000MEFC10X16", "",
             False),
    "terminal": ("Terminal 2p 5.08", "TerminalBlock_Phoenix_MKDS-1,5-2-5.08", TERMINAL2, "Phoenix Contact",
                 "1715721", "", False),
}
