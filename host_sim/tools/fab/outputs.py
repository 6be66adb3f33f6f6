"""What a PCB fab and its assembly service take, from a board file:

    /usr/bin/python3 -m host_sim.tools.fab.outputs --out DIR BOARD.kicad_pcb [...]

writes DIR/NAME/ for each board NAME.kicad_pcb: Gerbers (RS-274X with X2
attributes) of every copper, mask, silk, paste and edge layer, the Excellon
drill files (plated and unplated apart), NAME-gerbers.zip holding them all
(what the fab's upload page takes), and the assembly files NAME-bom.csv and
NAME-cpl.csv (bom.py: JLCPCB's columns).  Run from the project root with
Debian's python3, which has KiCad's pcbnew.

Every coordinate is from the board's lower-left corner (its outline's
bounding box), x right and y up, in the Gerbers, the drill files and the
CPL alike, so the fab's viewer puts each part on its pads.

Deterministic: KiCad stamps the date into every file; those lines are
dropped, and the zip's entries carry a fixed date, so the same board and
KiCad give the same bytes.
"""
import argparse
import os
import re
import sys
import zipfile

from host_sim.tools.fab import bom



def layers(copper):
    """(layer name, file suffix) of every layer the fab needs, for a board
    of that many copper layers: the copper outside in, then the rest."""
    inner = tuple(("In%d.Cu" % k, "In%d_Cu" % k) for k in range(1, copper - 1))
    return (("F.Cu", "F_Cu"),) + inner + (("B.Cu", "B_Cu"),) + OTHER_LAYERS


OTHER_LAYERS = (
    ("F.Mask", "F_Mask"), ("B.Mask", "B_Mask"), ("F.SilkS", "F_Silkscreen"), ("B.SilkS", "B_Silkscreen"),
    ("F.Paste", "F_Paste"), ("B.Paste", "B_Paste"), ("Edge.Cuts", "Edge_Cuts"),
)
# Lines carrying the plot's date: G04 comments, X2 file attributes, drill headers.
_DATED = re.compile(r"(CreationDate|^G04 Created by|^; DRILL file .* date|^; FORMAT=.*date)")
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def _pcbnew():
    from host_sim.tools.fab.drc import _pcbnew as load
    return load()


def outline_box(board, pcbnew):
    """(x0, y0, x1, y1) of the outline's drawn centre lines in KiCad's units
    (the bounding box KiCad gives counts half the line's width in)."""
    boxes = []
    for d in board.GetDrawings():
        if d.GetLayer() != pcbnew.Edge_Cuts:
            continue
        box = d.GetBoundingBox()
        half = d.GetWidth() // 2
        boxes.append((box.GetX() + half, box.GetY() + half,
                      box.GetRight() - half, box.GetBottom() - half))
    if not boxes:
        raise ValueError("no outline on Edge.Cuts")
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def origin(board, pcbnew):
    """The outline's lower-left corner (KiCad's y runs down: max y)."""
    x0, _, _, y1 = outline_box(board, pcbnew)
    return pcbnew.wxPoint(x0, y1)


def _undate(path):
    with open(path, encoding="ascii", errors="replace", newline="") as f:
        lines = f.read().splitlines(keepends=True)
    kept = [line for line in lines if not _DATED.search(line)]
    with open(path, "w", encoding="ascii", newline="") as f:
        f.writelines(kept)


def gerbers(board, pcbnew, out, name):
    """One Gerber per layer of layers() into out; their paths."""
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetPlotFrameRef(False)
    po.SetUseAuxOrigin(True)
    po.SetUseGerberProtelExtensions(False)
    po.SetUseGerberX2format(True)
    po.SetUseGerberAttributes(True)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetExcludeEdgeLayer(True)
    po.SetPlotReference(True)
    po.SetPlotValue(False)
    po.SetPlotInvisibleText(False)
    po.SetSkipPlotNPTH_Pads(False)
    po.SetGerberPrecision(6)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    po.SetScale(1)
    po.SetMirror(False)
    paths = []
    for layer, suffix in layers(board.GetCopperLayerCount()):
        lid = board.GetLayerID(layer)
        pc.SetLayer(lid)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, layer)
        if not pc.PlotLayer():
            raise RuntimeError("%s: plotting %s failed" % (name, layer))
        paths.append(pc.GetPlotFileName())
    pc.ClosePlot()
    for p in paths:
        _undate(p)
    return paths


def drill_files(board, pcbnew, out):
    """Excellon drill files (metric, decimal, PTH and NPTH apart); their paths."""
    before = set(os.listdir(out))
    w = pcbnew.EXCELLON_WRITER(board)
    w.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)  # mirror, minimal header, offset, merge
    w.SetFormat(True, pcbnew.EXCELLON_WRITER.DECIMAL_FORMAT, 3, 3)
    w.SetRouteModeForOvalHoles(False)
    w.CreateDrillandMapFilesSet(out, True, False)
    paths = sorted(os.path.join(out, f) for f in set(os.listdir(out)) - before if f.endswith(".drl"))
    for p in paths:
        _undate(p)
    return paths


def zip_files(paths, target):
    """The fab's upload: every Gerber and drill file, with a fixed date."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(paths):
            info = zipfile.ZipInfo(os.path.basename(p), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(p, "rb") as f:
                z.writestr(info, f.read())


def fab_outputs(path, out_root):
    """Every fab file of one board into out_root/NAME/; the folder."""
    pcbnew = _pcbnew()
    if not os.path.isfile(path):
        raise FileNotFoundError("no board file %s" % path)
    name = os.path.splitext(os.path.basename(path))[0]
    board = pcbnew.LoadBoard(path)
    if board is None:
        raise ValueError("%s: pcbnew could not read it" % path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.GetDesignSettings().SetAuxOrigin(origin(board, pcbnew))
    out = os.path.abspath(os.path.join(out_root, name))  # KiCad's plotter reads a relative one from the board's folder
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):  # nothing stale from an earlier design
        if f.endswith((".gbr", ".drl", ".zip", ".csv")):
            os.unlink(os.path.join(out, f))
    made = gerbers(board, pcbnew, out, name) + drill_files(board, pcbnew, out)
    zip_files(made, os.path.join(out, name + "-gerbers.zip"))
    bom.write(board, pcbnew, out, name)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder for each board's fab files (build/pcb)")
    ap.add_argument("boards", nargs="+")
    args = ap.parse_args(argv)
    for path in args.boards:
        try:
            print(fab_outputs(path, args.out))
        except (OSError, ValueError, RuntimeError) as e:
            print("fab outputs: %s" % e, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
