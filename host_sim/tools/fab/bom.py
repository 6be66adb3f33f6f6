"""A board's BOM and pick-and-place (CPL) files in the columns PCB assembly
services take (JLCPCB's: BOM "Comment, Designator, Footprint, LCSC Part #",
here with "Manufacturer" and "Manufacturer Part Number" too, which PCBWay's
and others' quotes ask for; CPL "Designator, Mid X, Mid Y, Layer,
Rotation").

Read from the footprints: the value is the comment, the footprint's library
name the footprint, and the properties "Manufacturer", "MPN" and "LCSC" the
part numbers, as the generator writes them.  Footprints marked "exclude from
BOM" (mounting holes, the tile joints' pads) are left out of both files;
those marked "exclude from position files" or with no SMD pad (hand
soldered) are left out of the CPL.  Positions are from the board's lower-left
corner, y up (outputs.origin), as in the Gerbers.
"""
import csv
import os
import re

BOM_COLUMNS = ("Comment", "Designator", "Footprint", "Manufacturer", "Manufacturer Part Number", "LCSC Part #")
CPL_COLUMNS = ("Designator", "Mid X", "Mid Y", "Layer", "Rotation")


def _natural(ref):
    m = re.match(r"([A-Za-z_]*)(\d*)", ref)
    return (m.group(1), int(m.group(2) or 0), ref)


def _prop(fp, name):
    return fp.GetProperty(name) if fp.HasProperty(name) else ""


def rows(board, pcbnew):
    """(bom rows, cpl rows) as lists of dicts, sorted."""
    from host_sim.tools.fab.outputs import origin
    o = origin(board, pcbnew)
    groups = {}
    cpl = []
    for fp in board.GetFootprints():
        attrs = fp.GetAttributes()
        if attrs & pcbnew.FP_EXCLUDE_FROM_BOM:
            continue
        ref = fp.GetReference()
        key = (fp.GetValue(), fp.GetFPID().GetLibItemName().wx_str(), _prop(fp, "Manufacturer"),
               _prop(fp, "MPN"), _prop(fp, "LCSC"))
        groups.setdefault(key, []).append(ref)
        if attrs & pcbnew.FP_EXCLUDE_FROM_POS_FILES or not attrs & pcbnew.FP_SMD:
            continue
        pos = fp.GetPosition()
        cpl.append({
            "Designator": ref,
            "Mid X": "%.4fmm" % pcbnew.ToMM(pos.x - o.x),
            "Mid Y": "%.4fmm" % pcbnew.ToMM(o.y - pos.y),
            "Layer": "Bottom" if fp.IsFlipped() else "Top",
            "Rotation": "%g" % (fp.GetOrientationDegrees() % 360),
        })
    bom_rows = []
    for (value, footprint, maker, mpn, lcsc), refs in groups.items():
        refs.sort(key=_natural)
        bom_rows.append(dict(zip(BOM_COLUMNS, (value, ",".join(refs), footprint, maker, mpn, lcsc))))
    bom_rows.sort(key=lambda r: _natural(r["Designator"].split(",")[0]))
    cpl.sort(key=lambda r: _natural(r["Designator"]))
    return bom_rows, cpl


def write(board, pcbnew, out, name):
    bom_rows, cpl = rows(board, pcbnew)
    for suffix, columns, data in (("bom", BOM_COLUMNS, bom_rows), ("cpl", CPL_COLUMNS, cpl)):
        with open(os.path.join(out, "%s-%s.csv" % (name, suffix)), "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, columns, lineterminator="\n")
            w.writeheader()
            w.writerows(data)
