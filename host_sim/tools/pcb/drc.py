"""KiCad's DRC on board files, for Debian's python3 (pcbnew is installed
for it, not for the venv):  /usr/bin/python3 -m host_sim.tools.pcb.drc
BOARD...  prints one line per board, "path errors unconnected", and exits
1 if any board has either.  Zones are refilled first (the generated files
carry unfilled planes).  The fab branch's host_sim/tools/fab/drc.py is the
full runner (the fab class applied, JSON out); this one keeps the tiles'
own loop and test free of it."""
import os
import re
import sys
import tempfile


def check(path):
    import pcbnew
    board = pcbnew.LoadBoard(path)
    if board is None:
        raise ValueError("%s: pcbnew could not read it" % path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.BuildConnectivity()
    fd, report = tempfile.mkstemp(suffix=".rpt")
    os.close(fd)
    try:
        if not pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True):
            raise RuntimeError("%s: WriteDRCReport failed" % path)
        with open(report, encoding="utf-8") as f:
            text = f.read()
    finally:
        os.unlink(report)
    found = {}
    for kind in ("DRC violations", "unconnected pads"):
        m = re.search(r"\*\* Found (\d+) %s \*\*" % kind, text)
        if m is None:
            raise RuntimeError("%s: no '%s' count in the report:\n%s" % (path, kind, text[-1500:]))
        found[kind] = int(m.group(1))
    return found["DRC violations"], found["unconnected pads"], text


def main(argv):
    bad = 0
    for path in argv:
        errors, unconnected, text = check(path)
        print("%s %d %d" % (path, errors, unconnected))
        if errors or unconnected:
            bad = 1
            sys.stderr.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
