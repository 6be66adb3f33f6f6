"""A KiCad 6 board (.kicad_pcb) and project (.kicad_pro) written as text
from Python, with no KiCad at hand: nets, footprints with their pads,
tracks, vias, plane zones and the outline.  The output is deterministic
(no timestamps, no random ids, numbers rounded to 1 um), so a test can
compare committed files with a fresh generation byte for byte.

Only what the tiles use: SMD pads (rectangles), through vias, straight
tracks, filled zones (KiCad fills them when the board is opened or by
pcbnew.ZONE_FILLER; the DRC runner does), a rectangular outline.
"""
import json
import math

# Copper layers of a 6-layer board, KiCad 6's numbering.
COPPER = {"F.Cu": 0, "In1.Cu": 1, "In2.Cu": 2, "In3.Cu": 3, "In4.Cu": 4, "B.Cu": 31}
_USER_LAYERS = (
    (32, "B.Adhes", "user", "B.Adhesive"), (33, "F.Adhes", "user", "F.Adhesive"),
    (34, "B.Paste", "user", None), (35, "F.Paste", "user", None),
    (36, "B.SilkS", "user", "B.Silkscreen"), (37, "F.SilkS", "user", "F.Silkscreen"),
    (38, "B.Mask", "user", None), (39, "F.Mask", "user", None),
    (40, "Dwgs.User", "user", "User.Drawings"), (41, "Cmts.User", "user", "User.Comments"),
    (42, "Eco1.User", "user", "User.Eco1"), (43, "Eco2.User", "user", "User.Eco2"),
    (44, "Edge.Cuts", "user", None), (45, "Margin", "user", None),
    (46, "B.CrtYd", "user", "B.Courtyard"), (47, "F.CrtYd", "user", "F.Courtyard"),
    (48, "B.Fab", "user", None), (49, "F.Fab", "user", None),
)


def num(v):
    """A length in mm as KiCad writes it: at most 4 decimals, no trailing 0."""
    s = "%.4f" % (round(v, 4) + 0.0)
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def q(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


def rotate(dx, dy, angle):
    """A footprint-local offset turned by the footprint's angle, the way
    KiCad turns it (degrees counter-clockwise on screen, y down)."""
    a = math.radians(angle)
    c, s = round(math.cos(a), 12), round(math.sin(a), 12)
    return dx * c + dy * s, -dx * s + dy * c


class Pad:
    """An SMD rectangle; with hole set, an unplated round hole of that
    diameter (a mounting hole: no copper, no net)."""

    def __init__(self, number, dx, dy, w, h, net=None, hole=None):
        self.number, self.dx, self.dy, self.w, self.h, self.net = number, dx, dy, w, h, net
        self.hole = hole


class Footprint:
    """A part placed on the board: name (library id), reference, value,
    position (x, y), angle, side ("F" or "B"), pads (Pad, offsets local),
    properties (Manufacturer, MPN, LCSC ...) and the datasheet it follows."""

    def __init__(self, name, ref, value, x, y, angle=0, side="F", pads=(), props=(),
                 bom=True):
        self.name, self.ref, self.value = name, ref, value
        self.x, self.y, self.angle, self.side = x, y, angle, side
        self.pads = list(pads)
        self.props = list(props)
        self.bom = bom

    def pad(self, number):
        for p in self.pads:
            if p.number == str(number):
                return p
        raise KeyError("%s has no pad %s" % (self.ref, number))

    def pad_xy(self, number):
        """Board position of a pad's centre."""
        p = self.pad(number)
        dx, dy = rotate(p.dx, p.dy, self.angle)
        return self.x + dx, self.y + dy


class Board:
    def __init__(self, title, width, height, layers=6, thickness=1.6):
        self.title, self.width, self.height = title, width, height
        self.thickness = thickness
        self.layers = layers
        self.nets = [""]
        self._net_index = {"": 0}
        self.footprints = []
        self.tracks = []  # (x1, y1, x2, y2, width, layer, net)
        self.vias = []  # (x, y, size, drill, net)
        self.zones = []  # (net, layer, clearance, min_width)
        self.texts = []  # (text, x, y, layer, size)

    def net(self, name):
        if name not in self._net_index:
            self._net_index[name] = len(self.nets)
            self.nets.append(name)
        return name

    def add(self, fp):
        for p in fp.pads:
            if p.net:
                self.net(p.net)
        self.footprints.append(fp)
        return fp

    def track(self, points, width, layer, net):
        """A path of straight segments through points."""
        self.net(net)
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            if (round(x1, 4), round(y1, 4)) != (round(x2, 4), round(y2, 4)):
                self.tracks.append((x1, y1, x2, y2, width, layer, net))

    def via(self, x, y, net, size=0.6, drill=0.3):
        self.net(net)
        self.vias.append((x, y, size, drill, net))

    def zone(self, net, layer, clearance=0.25, min_width=0.25):
        self.net(net)
        self.zones.append((net, layer, clearance, min_width))

    def text(self, text, x, y, layer="F.Fab", size=1.0):
        self.texts.append((text, x, y, layer, size))

    # -- output -----------------------------------------------------------

    def planes(self):
        return {layer for _, layer, _, _ in self.zones}

    def copper_layers(self):
        names = ["F.Cu"] + ["In%d.Cu" % i for i in range(1, self.layers - 1)] + ["B.Cu"]
        return names

    def to_text(self):
        out = ['(kicad_pcb (version 20211014) (generator gogadget)', '',
               '  (general', '    (thickness %s)' % num(self.thickness), '  )', '',
               '  (paper "A3")', '  (title_block', '    (title %s)' % q(self.title),
               '    (comment 1 "Generated by python -m host_sim.tools.pcb: do not edit")',
               '  )', '', '  (layers']
        for name in self.copper_layers():
            kind = "power" if name in self.planes() else "signal"
            out.append('    (%d %s %s)' % (COPPER[name], q(name), kind))
        for n, name, kind, user in _USER_LAYERS:
            out.append('    (%d %s %s%s)' % (n, q(name), kind, "" if user is None else " " + q(user)))
        out += ['  )', '', '  (setup', '    (pad_to_mask_clearance 0.05)',
                '    (solder_mask_min_width 0.1)', '  )', '']
        for i, name in enumerate(self.nets):
            out.append('  (net %d %s)' % (i, q(name)))
        out.append('')
        for fp in self.footprints:
            out += self._footprint(fp)
        for text, x, y, layer, size in self.texts:
            out.append('  (gr_text %s (at %s %s) (layer %s)' % (q(text), num(x), num(y), q(layer)))
            out.append('    (effects (font (size %s %s) (thickness %s)))' % (
                num(size), num(size), num(size * 0.15)))
            out.append('  )')
        w, h = self.width, self.height
        for (x1, y1), (x2, y2) in (((0, 0), (w, 0)), ((w, 0), (w, h)), ((w, h), (0, h)),
                                   ((0, h), (0, 0))):
            out.append('  (gr_line (start %s %s) (end %s %s) (layer "Edge.Cuts") (width 0.1))' % (
                num(x1), num(y1), num(x2), num(y2)))
        out.append('')
        for x1, y1, x2, y2, width, layer, net in self.tracks:
            out.append('  (segment (start %s %s) (end %s %s) (width %s) (layer %s) (net %d))' % (
                num(x1), num(y1), num(x2), num(y2), num(width), q(layer), self._net_index[net]))
        for x, y, size, drill, net in self.vias:
            out.append('  (via (at %s %s) (size %s) (drill %s) (layers "F.Cu" "B.Cu") (net %d))' % (
                num(x), num(y), num(size), num(drill), self._net_index[net]))
        out.append('')
        inset = 0.5
        for net, layer, clearance, min_width in self.zones:
            out += [
                '  (zone (net %d) (net_name %s) (layer %s) (hatch edge 0.508)' % (
                    self._net_index[net], q(net), q(layer)),
                '    (connect_pads (clearance %s))' % num(clearance),
                '    (min_thickness %s)' % num(min_width),
                '    (fill yes (thermal_gap 0.3) (thermal_bridge_width 0.3))',
                '    (polygon',
                '      (pts',
                '        (xy %s %s) (xy %s %s) (xy %s %s) (xy %s %s)' % (
                    num(inset), num(inset), num(w - inset), num(inset), num(w - inset),
                    num(h - inset), num(inset), num(h - inset)),
                '      )', '    )', '  )']
        out.append(')')
        return "\n".join(out) + "\n"

    def _footprint(self, fp):
        layer = "F.Cu" if fp.side == "F" else "B.Cu"
        side = fp.side
        out = ['  (footprint %s (layer %s)' % (q(fp.name), q(layer)),
               '    (at %s %s%s)' % (num(fp.x), num(fp.y), "" if not fp.angle else " " + num(fp.angle))]
        for key, value in fp.props:
            out.append('    (property %s %s)' % (q(key), q(value)))
        smd = all(p.hole is None for p in fp.pads)
        attrs = " ".join((["smd"] if smd else []) + ([] if fp.bom else [
            "exclude_from_pos_files", "exclude_from_bom"]))
        out.append('    (attr %s)' % attrs)
        out.append('    (fp_text reference %s (at 0 0%s) (layer "%s.Fab")' % (
            q(fp.ref), "" if not fp.angle else " " + num(fp.angle), side))
        out.append('      (effects (font (size 0.5 0.5) (thickness 0.075))%s)' % (
            "" if side == "F" else " (justify mirror)"))
        out.append('    )')
        out.append('    (fp_text value %s (at 0 0%s) (layer "%s.Fab") hide' % (
            q(fp.value), "" if not fp.angle else " " + num(fp.angle), side))
        out.append('      (effects (font (size 0.5 0.5) (thickness 0.075))%s)' % (
            "" if side == "F" else " (justify mirror)"))
        out.append('    )')
        for p in fp.pads:
            if p.hole is not None:
                out.append('    (pad "" np_thru_hole circle (at %s %s) (size %s %s) (drill %s) '
                           '(layers *.Cu *.Mask))' % (num(p.dx), num(p.dy), num(p.hole),
                                                      num(p.hole), num(p.hole)))
                continue
            net = "" if not p.net else ' (net %d %s)' % (self._net_index[p.net], q(p.net))
            out.append('    (pad %s smd rect (at %s %s%s) (size %s %s) (layers "%s.Cu" "%s.Paste" '
                       '"%s.Mask")%s)' % (q(p.number), num(p.dx), num(p.dy),
                                          "" if not fp.angle else " " + num(fp.angle),
                                          num(p.w), num(p.h), side, side, side, net))
        out.append('  )')
        return out


def project_text(rules):
    """A minimal .kicad_pro carrying the fab's design rules."""
    pro = {
        "board": {"design_settings": {"defaults": {}, "rules": rules}},
        "meta": {"filename": "", "version": 1},
    }
    return json.dumps(pro, indent=2, sort_keys=True) + "\n"
