"""One PCB tile: w x h points of the full-size grid, every part placed and
every track computed (no autorouter: the layout is regular, so the routes
are arithmetic).  hardware/README.md, "PCB tiles", tells the why.

Six copper layers:
  F.Cu    the parts under the points (Hall sensor + 100 nF at the point,
          WS2812B + 100 nF at the LED's place), the LED data chain
  In1.Cu  +5V plane (the LEDs; the LED data's return, decoupled at each LED)
  In2.Cu  GND plane (between the LED data and the analog lines)
  In3.Cu  analog and select lines across (one lane per sensor in its row),
          over the ground plane
  In4.Cu  +3V3 plane (sensors, muxes: the ratiometric sensors' reference
          under the lines along B.Cu)
  B.Cu    analog and select lines along, the level-1 muxes, the cable
          socket, the joint pads and solder jumpers

Coordinates: mm, KiCad's (x right, y down), origin at the tile's top-left
corner.  Column i, row j (row 0 at the bottom, nearest Black) has its point
at px(i), py(j).  The tile's edges sit 6 mm left of its first column and
5.85 mm below its first row (the LED is up and to the right), so tiles
laid side by side keep the pitch.
"""
from host_sim.tools import geometry
from host_sim.tools.pcb import parts
from host_sim.tools.pcb.kicad import Board
from host_sim.tools.pcb.power import joint_width_mm, stub_width_mm

GX, GY = geometry.GRID_MM
LEDX, LEDY = geometry.led_offset_mm()  # right, up
LEFT_MM = 6.0  # tile's left edge to its first column
BOTTOM_MM = 5.85  # tile's bottom edge to its first row
SIGNAL_MM = 0.2
POWER_MM = stub_width_mm()
VIA_MM, DRILL_MM = 0.6, 0.3
CHANNELS = 16
MUX_DX = 15.8  # mux centre right of its column's point (in the gap after it)
MUX_DY = 0.2  # ... and below the point of its row
CORRIDOR_COL = 2  # the select/SIG lines run along B.Cu right of this column's sensor
CORRIDOR_DX = 3.05
LANE_MM = 0.6
SOCKET_ROW = 2  # the cable socket sits below this row, right of the corridor
SOCKET_DX, SOCKET_DY = 12.75, 7.8
CORRIDOR = ("S0", "S1", "S2", "S3", "SIG0", "SIG1")
ACROSS = "In3.Cu"  # the layer of the lanes across (B.Cu: along)


def name(w, h):
    return "tile_%dx%d" % (w, h)


def size_mm(w, h):
    return w * GX, h * GY


def px(i):
    return LEFT_MM + GX * i


def py(h, j):
    return h * GY - BOTTOM_MM - GY * j


def tile_points(w, h):
    """[(col, row, x, y)] of the tile's points (col, row local, row 0 at
    the bottom)."""
    return [(i, j, px(i), py(h, j)) for j in range(h) for i in range(w)]


def led_xy(w, h, i, j):
    return px(i) + LEDX, py(h, j) - LEDY


def mux_count(w, h):
    return (w * h + CHANNELS - 1) // CHANNELS


def mux_row(w, h, k):
    """The row mux k sits on: its channels 0..7 (the pins of one row) read
    rows at or below it, 8..15 rows at or above (local place q = row * w +
    col on channel q % 16 of mux q // 16, as pins.mux_address)."""
    return min((CHANNELS * k + 7) // w, h - 1)


def mux_xy(w, h, k):
    return px(k) + MUX_DX, py(h, mux_row(w, h, k)) + MUX_DY


def lane_dy(w, h, i, j):
    """The In3 lane of sensor (i, j): its offset from the row's point.  On
    a mux's own row the sensors going to the mux's upper pins take the
    upper lanes (their vias sit inside the mux's outline, above those going
    down to the lower pins at the same x), with a wider gap between the two
    groups: inputs 7 and 8 of a 4067 face each other across it."""
    for k in range(mux_count(w, h)):
        if mux_row(w, h, k) == j:
            def up(n):
                q = j * w + n
                return q // CHANNELS == k and q % CHANNELS >= 8
            order = sorted(range(w), key=lambda n: (not up(n), n))
            n = order.index(i)
            ups = sum(1 for m in range(w) if up(m))
            return -1.5 + LANE_MM * n + (0.2 if n >= ups else 0)
    return -1.0 + LANE_MM * i


def corridor_x(signal):
    return px(CORRIDOR_COL) + CORRIDOR_DX + LANE_MM * CORRIDOR.index(signal)


def socket_xy(h):
    return px(CORRIDOR_COL) + SOCKET_DX, py(h, SOCKET_ROW) + SOCKET_DY


def led_net(w, j, c):
    """Data net between the LEDs of columns c and c + 1 of row j (c = -1:
    the left edge, c = w - 1: the right edge)."""
    if c < 0:
        return "D%d_L" % j
    if c >= w - 1:
        return "D%d_R" % j
    return "D%d_%d" % (j, c)


def joints(w, h):
    """[(name, x, y)] of the joint pads: the row data and ground pads on
    the left and right edges, the supply pads and the chain's link pads on
    the top and bottom edges."""
    W, H = size_mm(w, h)
    out = []
    for j in range(h):
        _, ly = led_xy(w, h, 0, j)
        out += [("L_D%d" % j, 1.1, ly), ("L_G%d" % j, 1.1, ly + 2.54),
                ("R_D%d" % j, W - 1.1, ly), ("R_G%d" % j, W - 1.1, ly + 2.54)]
    for i in range(w - 1):
        for edge, y in (("T", 1.1), ("B", H - 1.1)):
            for n, (net, dx) in enumerate((("5V", 7.0), ("3V3", 9.54), ("GND", 12.08))):
                out.append(("%s_%s_%d" % (edge, net, i), px(i) + dx, y))
    out.append(("B_UP", 3.0, H - 1.1))
    if h % 2 == 0:
        out.append(("T_UP", 3.0, 1.1))
    else:
        out.append(("T_END", W - 3.0, 1.1))
    return out


def mounting_holes(w, h):
    """M2 holes into the backing board: in the first and last columns,
    below the LED of rows 2 and h - 1 (copper-free on every layer there)."""
    return [(px(i) + 7.5, py(h, j) + 6.1) for j in (2, h - 1) for i in (0, w - 1)]


class Tile:
    def __init__(self, w, h):
        self.w, self.h = w, h
        W, H = size_mm(w, h)
        self.board = Board("Go Gadget PCB tile %dx%d" % (w, h), W, H)
        self.count = {}
        self.corridor_ys = {}  # corridor line -> the heights of its vias
        b = self.board
        for net, layer in (("+5V", "In1.Cu"), ("GND", "In2.Cu"), ("+3V3", "In4.Cu")):
            b.zone(net, layer)

    def ref(self, prefix):
        self.count[prefix] = self.count.get(prefix, 0) + 1
        return "%s%d" % (prefix, self.count[prefix])

    def via(self, x, y, net):
        self.board.via(x, y, net, VIA_MM, DRILL_MM)

    def build(self):
        w, h = self.w, self.h
        for j in range(h):
            for i in range(w):
                self.sensor(i, j)
        for j in range(h):
            for i in range(w):
                self.led(i, j)
            self.row_data(j)
        for k in range(mux_count(w, h)):
            self.mux(k)
        self.socket()
        self.edges()
        for x, y in mounting_holes(w, h):
            self.board.add(parts.hole(self.ref("MH"), x, y))
        return self.board

    # -- at each point --------------------------------------------------

    def sensor(self, i, j):
        """Hall sensor at the point (turned 180: OUT on the left), its
        100 nF to the right, vias to the planes, OUT down to its lane."""
        b, x, y = self.board, px(i), py(self.h, j)
        out = "A%d_%d" % (j, i)
        b.add(parts.hall(self.ref("H"), x, y, 270, "+3V3", out, "GND"))
        b.add(parts.cap(self.ref("C"), x + 2.4, y, 270, "+3V3", "GND"))
        b.track([(x + 0.95, y - 1.1), (x + 2.4, y - 1.1)], POWER_MM, "F.Cu", "+3V3")
        b.track([(x + 2.4, y - 0.775), (x + 2.4, y - 2.2)], POWER_MM, "F.Cu", "+3V3")
        self.via(x + 2.4, y - 2.2, "+3V3")
        b.track([(x + 2.4, y + 0.775), (x + 2.4, y + 2.1)], POWER_MM, "F.Cu", "GND")
        self.via(x + 2.4, y + 2.1, "GND")
        b.track([(x, y + 1.1), (x, y + 2.3)], POWER_MM, "F.Cu", "GND")
        self.via(x, y + 2.3, "GND")
        lane = y + lane_dy(self.w, self.h, i, j)
        b.track([(x - 0.95, y - 1.1), (x - 2.2, y - 1.1), (x - 2.2, lane)], SIGNAL_MM, "F.Cu", out)
        self.via(x - 2.2, lane, out)

    def led(self, i, j):
        """WS2812B at the LED's place: DIN bottom left and DOUT top right on
        even rows (turned 180: the chain runs left to right), DIN top right
        and DOUT bottom left on odd rows.  Its 100 nF below it (even rows)
        or above (odd), vias to the planes."""
        w = self.w
        lx, ly = led_xy(w, self.h, i, j)
        odd = j % 2

        def at(dx, dy):  # the cell's frame: x mirrored on odd rows, y on even
            return (lx - dx, ly + dy) if odd else (lx + dx, ly - dy)
        if odd:  # right to left: DIN on the right
            din, dout = led_net(w, j, i), led_net(w, j, i - 1)
        else:
            din, dout = led_net(w, j, i - 1), led_net(w, j, i)
        b = self.board
        b.add(parts.led(self.ref("D"), lx, ly, 0 if odd else 180, "+5V", dout, "GND", din))
        cx, cy = at(0, -3.7)
        b.add(parts.cap(self.ref("C"), cx, cy, 180 * odd, "GND", "+5V"))
        # In the cell's frame VDD is at (2.45, -1.6), VSS at (-2.45, 1.6).
        b.track([at(2.45, -1.6), at(2.45, -3.7)], POWER_MM, "F.Cu", "+5V")
        b.track([at(2.45, -3.7), at(0.775, -3.7)], POWER_MM, "F.Cu", "+5V")
        self.via(*at(2.45, -3.7), "+5V")
        b.track([at(-2.45, 1.6), at(-2.45, 3.1)], POWER_MM, "F.Cu", "GND")
        self.via(*at(-2.45, 3.1), "GND")
        b.track([at(-0.775, -3.7), at(-2.2, -3.7)], POWER_MM, "F.Cu", "GND")
        self.via(*at(-2.2, -3.7), "GND")

    def row_data(self, j):
        """The LED data along row j: edge pad -> LEDs -> edge pad, the same
        copper whichever way the row runs."""
        w, b = self.w, self.board
        W, _ = size_mm(w, self.h)
        lx0, ly = led_xy(w, self.h, 0, j)
        for c in range(w - 1):
            lx = lx0 + GX * c
            b.track([(lx + 2.45, ly - 1.6), (lx + 9.4, ly - 1.6), (lx + 12.6, ly + 1.6),
                     (lx + GX - 2.45, ly + 1.6)], SIGNAL_MM, "F.Cu", led_net(w, j, c))
        left, right = led_net(w, j, -1), led_net(w, j, w - 1)
        b.track([(lx0 - 2.45, ly + 1.6), (lx0 - 4.05, ly), (2.3, ly)], SIGNAL_MM, "F.Cu", left)
        self.via(2.3, ly, left)
        lxn = lx0 + GX * (w - 1)
        b.track([(lxn + 2.45, ly - 1.6), (lxn + 4.05, ly), (W - 2.3, ly)], SIGNAL_MM, "F.Cu", right)
        self.via(W - 2.3, ly, right)

    # -- muxes, socket ----------------------------------------------------

    def mux(self, k):
        """Level-1 mux k on the back, in the gap right of column k: every
        sensor it reads comes along its row on In3 to the column of its
        pin, then along B.Cu to the pin."""
        w, h, b = self.w, self.h, self.board
        mx, my = mux_xy(w, h, k)
        yr = py(h, mux_row(w, h, k))
        nets = {1: "SIG%d" % k, 10: "S0", 11: "S1", 12: "GND", 13: "S3", 14: "S2", 15: "GND",
                24: "+3V3"}
        used = set()
        for j in range(h):
            for i in range(w):
                q = j * w + i
                if q // CHANNELS != k:
                    continue
                c = q % CHANNELS
                pin = parts.mux_channel_pin(c)
                used.add(c)
                out = "A%d_%d" % (j, i)
                nets[pin] = out
                dx, dy = parts.mux_pin_xy(pin)
                lane = py(h, j) + lane_dy(w, h, i, j)
                b.track([(px(i) - 2.2, lane), (mx + dx, lane)], SIGNAL_MM, ACROSS, out)
                self.via(mx + dx, lane, out)
                b.track([(mx + dx, lane), (mx + dx, my + dy)], SIGNAL_MM, "B.Cu", out)
        spare = [c for c in range(CHANNELS) if c not in used]
        for c in spare:
            nets[parts.mux_channel_pin(c)] = "GND"
        b.add(parts.mux(self.ref("U"), mx, my, nets))
        # Pins to their vias: GND, S1, S0 and COM below; S3, S2, /E, VCC above.
        for pin, vy, net in ((12, yr + 5.2, "GND"), (11, yr + 5.8, "S1"), (10, yr + 6.4, "S0"),
                             (1, yr + 7.0, "SIG%d" % k), (13, yr - 5.8, "S3"),
                             (14, yr - 5.2, "S2"), (15, yr - 4.6, "GND"), (24, yr - 4.5, "+3V3")):
            dx, dy = parts.mux_pin_xy(pin)
            b.track([(mx + dx, my + dy), (mx + dx, vy)], SIGNAL_MM, "B.Cu", net)
            self.via(mx + dx, vy, net)
            if net not in ("GND", "+3V3"):
                b.track([(mx + dx, vy), (corridor_x(net), vy)], SIGNAL_MM, ACROSS, net)
                self.corridor_via(net, vy)
        # Spare inputs to ground: the upper ones to /E's via, the lower ones
        # to a via of their own beside COM.
        top = [parts.mux_channel_pin(c) for c in spare if c >= 8]
        if top:
            ex, _ = parts.mux_pin_xy(15)
            far = max(parts.mux_pin_xy(p)[0] for p in top)
            b.track([(mx + ex, yr - 4.6), (mx + far, yr - 4.6)], SIGNAL_MM, "B.Cu", "GND")
            for p in top:
                dx, dy = parts.mux_pin_xy(p)
                b.track([(mx + dx, my + dy), (mx + dx, yr - 4.6)], SIGNAL_MM, "B.Cu", "GND")
        low = [parts.mux_channel_pin(c) for c in spare if c < 8]
        if low:
            near = min(parts.mux_pin_xy(p)[0] for p in low)
            vx, _ = parts.mux_pin_xy(2)
            b.track([(mx + near, yr + 5.2), (mx + vx, yr + 5.2)], SIGNAL_MM, "B.Cu", "GND")
            self.via(mx + vx, yr + 5.2, "GND")
            for p in low:
                dx, dy = parts.mux_pin_xy(p)
                b.track([(mx + dx, my + dy), (mx + dx, yr + 5.2)], SIGNAL_MM, "B.Cu", "GND")
        # Its 100 nF on the top, left of it.
        cx, cy = px(k) + 8.6, yr + 3.6
        b.add(parts.cap(self.ref("C"), cx, cy, 0, "+3V3", "GND"))
        b.track([(cx - 0.775, cy), (cx - 0.775, cy + 1.3)], POWER_MM, "F.Cu", "+3V3")
        self.via(cx - 0.775, cy + 1.3, "+3V3")
        b.track([(cx + 0.775, cy), (cx + 0.775, cy + 1.3)], POWER_MM, "F.Cu", "GND")
        self.via(cx + 0.775, cy + 1.3, "GND")

    def corridor_via(self, net, y):
        self.via(corridor_x(net), y, net)
        self.corridor_ys.setdefault(net, []).append(y)

    def socket(self):
        """The cable socket (JST SH, 8 ways) on the back below row
        SOCKET_ROW: each signal pin up to its own In3 lane, left to the
        corridor; then the corridor's lines along B.Cu."""
        b, h = self.board, self.h
        xc, y0 = socket_xy(h)
        b.add(parts.socket("J1", xc, y0, parts.SOCKET_PINS))
        for pin, net in enumerate(parts.SOCKET_PINS, 1):
            x = xc - 3.5 + (pin - 1)
            if net == "GND":
                b.track([(x, y0), (x, y0 - 1.5)], SIGNAL_MM, "B.Cu", "GND")
                self.via(x, y0 - 1.5, "GND")
                continue
            if net == "SIG1" and mux_count(self.w, h) < 2:
                continue
            vy = y0 - 2.1 - LANE_MM * (pin - 2)
            b.track([(x, y0), (x, vy)], SIGNAL_MM, "B.Cu", net)
            self.via(x, vy, net)
            b.track([(x, vy), (corridor_x(net), vy)], SIGNAL_MM, ACROSS, net)
            self.corridor_via(net, vy)
        for net, ys in sorted(self.corridor_ys.items()):
            b.track([(corridor_x(net), min(ys)), (corridor_x(net), max(ys))], SIGNAL_MM,
                    "B.Cu", net)

    # -- edges ------------------------------------------------------------

    def edges(self):
        """Joint pads, the chain's turns (solder jumpers, closed on the
        tiles at the board's ends) and the links between tile rows."""
        w, h, b = self.w, self.h, self.board
        W, H = size_mm(w, h)
        pads = {}
        for nm, x, y in joints(w, h):
            if nm[2] == "D":
                net = led_net(w, int(nm[3:]), -1 if nm[0] == "L" else w - 1)
            elif nm[2] == "G":
                net = "GND"
            elif nm.startswith(("T_", "B_")) and nm[2:] in ("UP", "END"):
                net = nm[2:] + ("_TOP" if nm == "T_UP" else "_BOT" if nm == "B_UP" else "")
            else:
                net = {"5V": "+5V", "3V3": "+3V3", "GND": "GND"}[nm.split("_")[1]]
            b.add(parts.joint(self.ref("P"), x, y, net))
            pads[nm] = (x, y, net)
            if nm[2] == "D":
                vx = 2.3 if nm[0] == "L" else W - 2.3
                b.track([(x, y), (vx, y)], SIGNAL_MM, "B.Cu", net)
            elif net in ("GND", "+5V", "+3V3"):
                if nm[0] in "LR":
                    vx, vy = (2.3 if nm[0] == "L" else W - 2.3), y
                else:
                    vx, vy = x, (2.4 if nm[0] == "T" else H - 2.4)
                b.track([(x, y), (vx, vy)], joint_width_mm(w), "B.Cu", net)
                self.via(vx, vy, net)
        # Turns: left edge joins rows (odd, odd + 1), right edge (even, even + 1).
        for j in range(h - 1):
            left = j % 2 == 1
            x = 3.0 if left else W - 3.0
            _, ly0 = led_xy(w, h, 0, j)
            _, ly1 = led_xy(w, h, 0, j + 1)
            c = -1 if left else w - 1
            self.jumper(x, ly0 - 6.0, led_net(w, j + 1, c), led_net(w, j, c),
                        pads[("L_D%d" if left else "R_D%d") % (j + 1)][:2],
                        pads[("L_D%d" if left else "R_D%d") % j][:2])
        _, ly0 = led_xy(w, h, 0, 0)
        self.jumper(3.0, H - 9.5, led_net(w, 0, -1), "UP_BOT", (1.1, ly0), (3.0, H - 1.1))
        _, lyt = led_xy(w, h, 0, h - 1)
        if h % 2 == 0:
            self.jumper(3.0, 4.3, "UP_TOP", led_net(w, h - 1, -1), (3.0, 1.1), (1.1, lyt))
        else:
            self.jumper(W - 3.0, 4.3, "END", led_net(w, h - 1, w - 1), (W - 3.0, 1.1),
                        (W - 1.1, lyt))

    def jumper(self, x, y, net_up, net_down, pad_up, pad_down):
        """A solder jumper at (x, y) on the back, its upper pad wired to
        the joint pad pad_up (net_up), its lower one to pad_down."""
        b = self.board
        b.add(parts.jumper(self.ref("JP"), x, y, net_up, net_down))
        for (tx, ty), net, end in ((pad_up, net_up, y - 0.7), (pad_down, net_down, y + 0.7)):
            pts = [(tx, ty)] + ([(x, ty)] if tx != x else []) + [(x, end)]
            b.track(pts, SIGNAL_MM, "B.Cu", net)


def build(w, h):
    return Tile(w, h).build()
