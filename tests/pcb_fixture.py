"""Small boards for the fab tests, written with pcbnew itself (run by
Debian's /usr/bin/python3, which has it):

    /usr/bin/python3 tests/pcb_fixture.py OUT.kicad_pcb KIND

KIND: "good" (routes every net, fab-class clean), "tight" (two tracks 0.1 mm
apart: under the 0.15 mm clearance), "unrouted" (net B's track left out),
"ring" (a plated pad with a 0.1 mm annular ring).  Every kind: a 40 x 30 mm
outline, two 0805 resistors joined by nets A and B on F.Cu, two plated
header pins on GND joined only by a B.Cu zone (left unfilled in the file:
the DRC must refill it), and holes at known places for the Gerber read-back.
"""
import sys

import pcbnew

from pcb_fixture_data import OUTLINE, PINS

MM = pcbnew.FromMM


def pt(x, y):
    return pcbnew.wxPoint(MM(x), MM(y))


def footprint(board, ref, value, at, pads, lib="Fixture:R_0805"):
    fp = pcbnew.FOOTPRINT(board)
    fp.SetReference(ref)
    fp.SetValue(value)
    fp.SetFPID(pcbnew.LIB_ID(*lib.split(":")))
    fp.SetPosition(pt(*at))
    fp.SetAttributes(pcbnew.FP_THROUGH_HOLE if lib.endswith("Pin_1x01") else pcbnew.FP_SMD)
    for text in (fp.Reference(), fp.Value()):  # on the fab layer: no silk over the pads
        text.SetLayer(pcbnew.F_Fab)
    board.Add(fp)
    for number, (dx, dy), size, drill, net in pads:
        pad = pcbnew.PAD(fp)
        pad.SetNumber(number)
        pad.SetSize(pcbnew.wxSize(MM(size[0]), MM(size[1])))
        if drill:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
            pad.SetDrillSize(pcbnew.wxSize(MM(drill), MM(drill)))
            pad.SetLayerSet(pad.PTHMask())
        else:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetShape(pcbnew.PAD_SHAPE_RECT)
            pad.SetLayerSet(pad.SMDMask())
        pad.SetPos0(pt(dx, dy))
        pad.SetPosition(pt(at[0] + dx, at[1] + dy))
        pad.SetNet(net)
        fp.Add(pad)
    return fp


def track(board, a, b, net, width=0.25, layer=pcbnew.F_Cu):
    t = pcbnew.PCB_TRACK(board)
    t.SetStart(pt(*a))
    t.SetEnd(pt(*b))
    t.SetWidth(MM(width))
    t.SetLayer(layer)
    t.SetNet(net)
    board.Add(t)


def make(kind):
    board = pcbnew.BOARD()
    board.SetCopperLayerCount(4)
    nets = {}
    for name in ("A", "B", "GND"):
        nets[name] = pcbnew.NETINFO_ITEM(board, name)
        board.Add(nets[name])
    x0, y0, x1, y1 = OUTLINE
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    for a, b in zip(corners, corners[1:] + corners[:1]):
        edge = pcbnew.PCB_SHAPE(board)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(pt(*a))
        edge.SetEnd(pt(*b))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(MM(0.1))
        board.Add(edge)
    # 0805 (KiCad's R_0805_2012Metric lands: 1.0 x 1.45 mm, 1.9 mm apart)
    lands = (1.0, 1.45)
    r1 = footprint(board, "R1", "10k", (20, 20), (("1", (-0.95, 0), lands, None, nets["A"]),
                                           ("2", (0.95, 0), lands, None, nets["B"])))
    footprint(board, "R2", "10k", (40, 20), (("1", (-0.95, 0), lands, None, nets["A"]),
                                           ("2", (0.95, 0), lands, None, nets["B"])))
    r1.SetProperty("Manufacturer", "Yageo")
    r1.SetProperty("MPN", "RC0805FR-0710KL")
    ring = 0.1 if kind == "ring" else 0.5
    for i, at in enumerate(PINS):
        footprint(board, "J%d" % (i + 1), "GND", at, (("1", (0, 0), (1.0 + 2 * ring, 1.0 + 2 * ring), 1.0,
                                                        nets["GND"]),), lib="Fixture:Pin_1x01")
    # A: R1.1 up, across and down to R2.1; B: R1.2 down, across and up to R2.2 (F.Cu).
    for a, b in (((19.05, 20), (19.05, 15)), ((19.05, 15), (39.05, 15)), ((39.05, 15), (39.05, 20))):
        track(board, a, b, nets["A"])
    if kind != "unrouted":
        for a, b in (((20.95, 20), (20.95, 25)), ((20.95, 25), (40.95, 25)), ((40.95, 25), (40.95, 20))):
            track(board, a, b, nets["B"])
    if kind == "tight":  # a stub of A whose edge is 0.1 mm from B's (24.775 to 24.875)
        track(board, (25, 15), (25, 24.65), nets["A"])
    zone = pcbnew.ZONE(board)
    zone.SetLayer(pcbnew.B_Cu)
    zone.SetNet(nets["GND"])
    zone.SetLocalClearance(MM(0.3))
    zone.SetMinThickness(MM(0.25))
    outline = zone.Outline()
    outline.NewOutline()
    for x, y in ((12, 30), (48, 30), (48, 38), (12, 38)):
        outline.Append(MM(x), MM(y))
    board.Add(zone)
    return board


def main(path, kind):
    if kind not in ("good", "tight", "unrouted", "ring"):
        raise SystemExit("no fixture %r" % kind)
    pcbnew.SaveBoard(path, make(kind))


if __name__ == "__main__":
    main(*sys.argv[1:])
