"""KiCad's own DRC on a board file, against the fab class (fabrules.FAB).

    /usr/bin/python3 -m host_sim.tools.fab.drc BOARD.kicad_pcb [...]

(from the project root; pcbnew is built for Debian's own Python, not for a
venv).  For each board: load it, set the fab class's floors in its design
settings, refill every zone, rebuild the connectivity, run
pcbnew.WriteDRCReport headless and read its report back.  Prints one JSON
list, a dict per board: {"board", "errors", "warnings", "unconnected"}, each
item {"type", "text", "where"}.  Exit status 1 when any board has an error
or an unconnected item, 2 when a board cannot be read.

Without the refill a zone in the file counts as it was last filled (or not
at all): a generated board's planes would show as unconnected.
"""
import json
import os
import re
import sys
import tempfile

from host_sim.tools.fab import fabrules

_SECTION = re.compile(r"\*\* Found (\d+) (DRC violations|unconnected pads|Footprint errors) \*\*")
_ITEM = re.compile(r"^\[(\w+)\]: (.*)$")
_RULE = re.compile(r"^\s+(?:Rule: )?(.*?); (error|warning|ignore)\s*$")
_WHERE = re.compile(r"^\s+@\((.*?)\): (.*)$")


def _pcbnew():
    try:
        import pcbnew
    except ImportError as e:
        raise SystemExit("pcbnew is not importable by %s (%s): install Debian's kicad package "
                         "(apt-get install --no-install-recommends kicad) and run this with "
                         "/usr/bin/python3" % (sys.executable, e))
    return pcbnew


def apply_fab_rules(board, pcbnew):
    """The fab class's floors into the board's design settings (KiCad keeps
    them in the .kicad_pro, which a generated board may not have)."""
    mm = pcbnew.FromMM
    f = fabrules.FAB
    bds = board.GetDesignSettings()
    bds.m_TrackMinWidth = mm(f["min_track"])
    bds.m_MinClearance = mm(f["min_clearance"])
    bds.m_MinThroughDrill = mm(f["min_drill"])
    bds.m_ViasMinAnnularWidth = mm(f["min_annular_ring"])
    bds.m_ViasMinSize = mm(f["min_via_diameter"])
    bds.m_HoleToHoleMin = mm(f["min_hole_to_hole"])
    bds.m_HoleClearance = mm(f["min_hole_clearance"])
    bds.m_CopperEdgeClearance = mm(f["min_copper_edge"])
    bds.m_BlindBuriedViaAllowed = False
    bds.m_MicroViasAllowed = False


def parse_report(text):
    """KiCad 6's DRC report as (violations, unconnected, footprint errors):
    lists of {"type", "text", "severity", "where"}."""
    sections = {}
    current = None
    item = None
    for line in text.splitlines():
        m = _SECTION.match(line.strip())
        if m:
            current = sections.setdefault(m.group(2), [])
            item = None
            continue
        if line.startswith("** "):
            current = item = None
            continue
        if current is None:
            continue
        m = _ITEM.match(line)
        if m:
            item = {"type": m.group(1), "text": m.group(2), "severity": "error", "where": []}
            current.append(item)
            continue
        if item is None:
            continue
        m = _WHERE.match(line)
        if m:
            item["where"].append("%s: %s" % (m.group(1), m.group(2)))
            continue
        m = _RULE.match(line)
        if m:
            item["severity"] = m.group(2)
    return (sections.get("DRC violations", []), sections.get("unconnected pads", []),
            sections.get("Footprint errors", []))


def check(path):
    """The DRC of one board file as a dict (see the module's doc)."""
    pcbnew = _pcbnew()
    if not os.path.isfile(path):
        raise FileNotFoundError("no board file %s" % path)
    board = pcbnew.LoadBoard(path)
    if board is None:
        raise ValueError("%s: pcbnew could not read it" % path)
    apply_fab_rules(board, pcbnew)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.BuildConnectivity()
    fd, report = tempfile.mkstemp(suffix=".rpt")
    os.close(fd)
    try:
        if not pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True):
            raise RuntimeError("%s: pcbnew.WriteDRCReport failed" % path)
        with open(report, encoding="utf-8") as f:
            text = f.read()
    finally:
        os.unlink(report)
    violations, unconnected, footprints = parse_report(text)
    violations = violations + footprints
    if "** End of Report **" not in text:
        raise RuntimeError("%s: the DRC report ended early:\n%s" % (path, text[-2000:]))
    return {
        "board": path,
        "fab_class": fabrules.FAB_CLASS,
        "errors": [v for v in violations if v.get("severity", "error") == "error"],
        "warnings": [v for v in violations if v.get("severity") == "warning"],
        "unconnected": [u for u in unconnected if u.get("severity", "error") != "ignore"],
        "footprints": len(board.GetFootprints()),
        "copper_layers": board.GetCopperLayerCount(),
    }


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    results = []
    for path in argv:
        try:
            results.append(check(path))
        except (OSError, ValueError, RuntimeError) as e:
            print("drc: %s" % e, file=sys.stderr)
            return 2
    json.dump(results, sys.stdout, indent=1)
    print()
    return 1 if any(r["errors"] or r["unconnected"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
