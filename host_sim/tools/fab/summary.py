"""The boards at a glance, read from the committed board files (no pcbnew):
size, copper layers, parts (what the BOM lists) and how many of them the
assembly service places (SMD), for hardware/README.md's "Ordering the
boards" table; tests/test_pcb_drc.py holds its DRC column (0 / 0)."""
import glob
import os
import re

from host_sim.tools.fab import fabrules

_EDGE = re.compile(r'\(gr_line \(start ([-\d.]+) ([-\d.]+)\) \(end ([-\d.]+) ([-\d.]+)\) \(layer "Edge.Cuts"\)')
_COPPER = re.compile(r'^\s+\(\d+ "[^"]+\.Cu" (?:signal|power|mixed|jumper)\)', re.M)


def board_facts(text):
    """(width, height, copper layers, BOM parts, SMD parts) of a .kicad_pcb."""
    xs, ys = [], []
    for m in _EDGE.finditer(text):
        xs += [float(m.group(1)), float(m.group(3))]
        ys += [float(m.group(2)), float(m.group(4))]
    if not xs:
        raise ValueError("no Edge.Cuts outline")
    parts = smd = 0
    for block in re.split(r"\n  \(footprint ", text)[1:]:
        attr = re.search(r"\(attr ([^)]*)\)", block)
        attr = attr.group(1).split() if attr else []
        if "exclude_from_bom" in attr:
            continue
        parts += 1
        smd += "smd" in attr
    return max(xs) - min(xs), max(ys) - min(ys), len(_COPPER.findall(text)), parts, smd


def rows(root):
    """The README table's rows for every board under root (hardware/pcb)."""
    out = []
    paths = glob.glob(os.path.join(root, "*.kicad_pcb")) + glob.glob(os.path.join(root, "*", "*.kicad_pcb"))
    for path in sorted(paths, key=os.path.basename):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            w, h, layers, parts, smd = board_facts(f.read())
        out.append("| %s | %g x %g mm | %d | %d (%d SMD) | 0 / 0 | %s |" % (
            name, w, h, layers, parts, smd, fabrules.FAB_CLASS_SHORT))
    return out
