"""Read KiCad board files back (our own s-expression reader: no KiCad
needed) and compose the tiles as the tile plan lays them out, to check the
copper's netlist against what the firmware reads:

* every sensor, found by its footprint's position on the grid, reaches the
  level-1 mux input, level-2 channel and bank that pins.mux_address gives
  its place (through the mux's select pins as wired, the tile's cable
  socket and the cabling rule: tile t, counted column by column from the
  left and bottom up, plugs into the controller's socket t, whose SIG0 and
  SIG1 are level-1 numbers 2t and 2t + 1);
* the LED chain, from the board's input pad through the joints and the
  solder jumpers closed at the board's ends, visits the LEDs in
  pins.led_index order.

Joints are found by geometry, not by name: two joint pads join when they
face each other across an edge where the plan puts two tiles side by side.
That the copper connects each net as the pads say is KiCad's DRC's part
(0 unconnected, 0 shorts: tests/test_pcb_tiles.py)."""
import re

from host_sim.tools.pcb import tile as tilegeo
from host_sim.tools.pcb.kicad import rotate

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')

# CD74HC4067 (TI SCHS209 pinout), independent of parts.py's tables.
MUX_INPUT_PINS = {9: 0, 8: 1, 7: 2, 6: 3, 5: 4, 4: 5, 3: 6, 2: 7,
                  23: 8, 22: 9, 21: 10, 20: 11, 19: 12, 18: 13, 17: 14, 16: 15}
MUX_SELECT_PINS = (10, 11, 14, 13)  # S0, S1, S2, S3
MUX_COM, MUX_ENABLE = 1, 15
# The tile socket's pins as the controller's cable wires them: the level-1
# select lines S0..S3 (GP2..GP5) and the tile's mux outputs in order.
SOCKET_SELECT = (2, 3, 4, 5)
SOCKET_SIG = (6, 7)
WS2812_DIN, WS2812_DOUT = "4", "2"
HALL_OUT = "2"


def parse(text):
    """S-expression text -> nested lists of str."""
    stack = [[]]
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos and text[pos:m.start()].strip():
            raise ValueError("bad s-expression at %d" % pos)
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) < 2:
                raise ValueError("unbalanced ) at %d" % m.start())
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(re.sub(r"\\(.)", r"\1", m.group(3)))
        else:
            stack[-1].append(m.group(4))
    if len(stack) != 1 or text[pos:].strip():
        raise ValueError("unbalanced s-expression")
    return stack[0][0]


def _find(node, key):
    return [c for c in node[1:] if isinstance(c, list) and c and c[0] == key]


def read_board(text):
    """-> {"width", "height", "footprints": [{ref, name, x, y, pads: [(number, net, x, y)]}]}"""
    tree = parse(text)
    if tree[0] != "kicad_pcb":
        raise ValueError("not a KiCad board")
    xs, ys = [], []
    for line in _find(tree, "gr_line"):
        if _find(line, "layer")[0][1] == "Edge.Cuts":
            for key in ("start", "end"):
                p = _find(line, key)[0]
                xs.append(float(p[1]))
                ys.append(float(p[2]))
    fps = []
    for fp in _find(tree, "footprint"):
        at = _find(fp, "at")[0]
        x, y = float(at[1]), float(at[2])
        angle = float(at[3]) if len(at) > 3 else 0.0
        ref = [t[2] for t in _find(fp, "fp_text") if t[1] == "reference"][0]
        pads = []
        for pad in _find(fp, "pad"):
            pat = _find(pad, "at")[0]
            dx, dy = rotate(float(pat[1]), float(pat[2]), angle)
            net = _find(pad, "net")
            pads.append((pad[1], net[0][2] if net else None, x + dx, y + dy))
        fps.append({"ref": ref, "name": fp[1], "x": x, "y": y, "pads": pads})
    return {"width": max(xs) - min(xs), "height": max(ys) - min(ys), "footprints": fps}


class _Nets:
    """Union-find over (tile instance, net name)."""

    def __init__(self):
        self.up = {}

    def find(self, a):
        self.up.setdefault(a, a)
        while self.up[a] != a:
            self.up[a] = self.up[self.up[a]]
            a = self.up[a]
        return a

    def join(self, a, b):
        self.up[self.find(a)] = self.find(b)


def _near(a, b):
    return abs(a - b) < 0.01


def compose(size, boards, pins):
    """boards: {(w, h): read_board(...)}; pins: the firmware's pin map
    module.  -> (problems: [str], sensors checked, LEDs in the chain)."""
    cols, rows = pins.tile_split(size)
    gx, gy = tilegeo.GX, tilegeo.GY
    problems = []
    nets = _Nets()
    tiles = {}
    for tc, w in enumerate(cols):
        for tr, h in enumerate(rows):
            if (w, h) not in boards:
                raise ValueError("no board for a %dx%d tile" % (w, h))
            tiles[tc, tr] = boards[w, h]

    def net(t, name):
        return nets.find((t, name))
    # Joints: a pad on a tile's right edge meets the pad at the same height
    # on its right neighbour's left edge; top edge meets the bottom edge of
    # the tile above at the same x.
    for (tc, tr), b in tiles.items():
        jp = [f for f in b["footprints"] if f["name"] == "GoGadget:JointPad"]
        if (tc + 1, tr) in tiles:
            nb = tiles[tc + 1, tr]
            for f in jp:
                if _near(f["x"], b["width"] - 1.1):
                    for g in nb["footprints"]:
                        if g["name"] == f["name"] and _near(g["x"], 1.1) and _near(g["y"], f["y"]):
                            nets.join(((tc, tr), f["pads"][0][1]), ((tc + 1, tr), g["pads"][0][1]))
        if (tc, tr + 1) in tiles:
            nb = tiles[tc, tr + 1]
            for f in jp:
                if _near(f["y"], 1.1):
                    for g in nb["footprints"]:
                        if g["name"] == f["name"] and _near(g["y"], nb["height"] - 1.1) \
                                and _near(g["x"], f["x"]):
                            nets.join(((tc, tr), f["pads"][0][1]), ((tc, tr + 1), g["pads"][0][1]))
        # Solder jumpers closed on the board's outer tiles, on the outer side.
        for f in b["footprints"]:
            if f["name"] != "GoGadget:SolderJumper":
                continue
            left = f["x"] < b["width"] / 2
            if (left and tc == 0) or (not left and tc == len(cols) - 1):
                nets.join(((tc, tr), f["pads"][0][1]), ((tc, tr), f["pads"][1][1]))
    # Sensors -> mux input -> socket -> level-1 mux number.
    base = {}
    m = 0
    for tc in range(len(cols)):
        for tr in range(len(rows)):
            base[tc, tr] = m
            m += len(SOCKET_SIG)
    seen = set()
    for (tc, tr), b in sorted(tiles.items()):
        x0, y0 = sum(cols[:tc]), sum(rows[:tr])
        t = (tc, tr)
        socket = [f for f in b["footprints"] if f["name"] == "GoGadget:JST_SH_SM08B"]
        sock = {} if not socket else {net(t, n): int(p) for p, n, _, _ in socket[0]["pads"]
                                      if n and p.isdigit()}
        muxes = [f for f in b["footprints"] if f["name"] == "GoGadget:SSOP-24_DB"]
        for f in b["footprints"]:
            if f["name"] != "GoGadget:SOT-23_DBZ":
                continue
            i = (f["x"] - tilegeo.LEFT_MM) / gx
            j = (b["height"] - tilegeo.BOTTOM_MM - f["y"]) / gy
            if not (_near(i, round(i)) and _near(j, round(j))):
                problems.append("%s %s: sensor at (%.3f, %.3f) is off the grid" % (
                    t, f["ref"], f["x"], f["y"]))
                continue
            col, row = x0 + round(i), y0 + round(j)
            place = row * size + col
            seen.add(place)
            out = net(t, [n for p, n, _, _ in f["pads"] if p == HALL_OUT][0])
            found = None
            for mx in muxes:
                pads = {int(p): net(t, n) for p, n, _, _ in mx["pads"] if n}
                for pin, ch in MUX_INPUT_PINS.items():
                    if pads.get(pin) == out:
                        found = mx, pads, ch
            if found is None:
                problems.append("place %d: sensor %s reaches no mux input" % (place, f["ref"]))
                continue
            mx, pads, ch = found
            line = sock.get(pads.get(MUX_COM))
            if line not in SOCKET_SIG:
                problems.append("place %d: its mux's COM reaches no socket SIG pin" % place)
                continue
            try:
                perm = [SOCKET_SELECT.index(sock.get(pads.get(pin))) for pin in MUX_SELECT_PINS]
            except ValueError:
                problems.append("place %d: a select pin of its mux misses the socket" % place)
                continue
            # The firmware's level-1 channel c1 selects input sum(bit perm[b] of c1 << b).
            c1 = [c for c in range(16)
                  if sum(((c >> perm[bit]) & 1) << bit for bit in range(4)) == ch][0]
            level1 = base[t] + SOCKET_SIG.index(line)
            got = (level1 // 16, level1 % 16, c1)
            want = tuple(pins.mux_address(size, place))
            if got != want:
                problems.append("place %d (col %d, row %d): the board reads it at bank %d, level-2 "
                                "channel %d, level-1 channel %d; the firmware at %s" % (
                                    (place, col, row) + got + (want,)))
    if len(seen) != size * size:
        problems.append("%d sensors on the grid, not %d" % (len(seen), size * size))
    # The LED chain from the input pad at the bottom-left of the first tile.
    b00 = tiles[0, 0]
    start = [f for f in b00["footprints"] if f["name"] == "GoGadget:JointPad"
             and _near(f["y"], b00["height"] - 1.1) and f["x"] < tilegeo.LEFT_MM]
    if len(start) != 1:
        problems.append("no single LED input pad at the bottom-left corner")
        return problems, len(seen), 0
    by_din = {}
    for (tc, tr), b in tiles.items():
        for f in b["footprints"]:
            if f["name"] == "GoGadget:LED_WS2812B_5050":
                pads = {p: n for p, n, _, _ in f["pads"]}
                by_din.setdefault(net((tc, tr), pads[WS2812_DIN]), []).append(((tc, tr), f, pads))
    cur = net((0, 0), start[0]["pads"][0][1])
    order = []
    while cur in by_din and len(order) <= size * size:
        if len(by_din[cur]) != 1:
            problems.append("LED data net drives %d LEDs" % len(by_din[cur]))
            break
        (tc, tr), f, pads = by_din[cur][0]
        b = tiles[tc, tr]
        i = (f["x"] - tilegeo.LEDX - tilegeo.LEFT_MM) / gx
        j = (b["height"] - tilegeo.BOTTOM_MM - (f["y"] + tilegeo.LEDY)) / gy
        col, row = sum(cols[:tc]) + round(i), sum(rows[:tr]) + round(j)
        order.append(row * size + col)
        cur = net((tc, tr), pads[WS2812_DOUT])
    if len(order) != size * size:
        problems.append("the LED chain holds %d LEDs, not %d" % (len(order), size * size))
    for k, place in enumerate(order):
        if pins.led_index(size, place) != k:
            problems.append("LED %d of the chain is at place %d, where the firmware writes LED %d"
                            % (k, place, pins.led_index(size, place)))
            break
    return problems, len(seen), len(order)
