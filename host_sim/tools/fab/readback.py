"""A board's fab files read back as a fab reads them (the Gerber library
gerbonara, from PyPI): the outline, every drilled hole, and the renders of
both sides drawn from them.

    .venv/bin/python -m host_sim.tools.fab.readback --renders DIR FAB_DIR [...]

writes DIR/NAME-top.png and DIR/NAME-bottom.png for each board's fab folder
(outputs.py's NAME/), from its Gerbers and drill files through
gerbonara's SVG and rsvg-convert (Debian's librsvg2-bin).  Runs in the venv
(gerbonara is a dev dependency), not under Debian's python3.

Coordinates in mm from the board's lower-left corner, y up (outputs.py).
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

RENDER_PX_PER_MM = 6
RENDER_MAX_PX = 1600


def _gerbonara():
    try:
        import gerbonara
    except ImportError as e:
        raise SystemExit("gerbonara is missing (make venv installs the dev dependencies): %s" % e)
    return gerbonara


def _quiet(fn, *args, **kw):
    # KiCad 6's drill files put G90 after the header, which gerbonara reads
    # right but warns about for every file.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", UserWarning)  # and KiCad's RoundRect macro's spare parameters
        return fn(*args, **kw)


def _one(fab_dir, suffix):
    found = glob.glob(os.path.join(fab_dir, "*-%s" % suffix))
    if len(found) != 1:
        raise FileNotFoundError("%s: expected one *-%s, found %d" % (fab_dir, suffix, len(found)))
    return found[0]


def outline(fab_dir):
    """(x0, y0, x1, y1) of the Edge.Cuts Gerber's drawn centre lines, mm."""
    g = _gerbonara()
    gerber = _quiet(g.GerberFile.open, _one(fab_dir, "Edge_Cuts.gbr"))
    xs, ys = [], []
    for obj in gerber.objects:
        obj = obj.converted(g.utils.MM)
        if isinstance(obj, g.graphic_objects.Line):
            xs += [obj.x1, obj.x2]
            ys += [obj.y1, obj.y2]
        elif isinstance(obj, g.graphic_objects.Arc):
            (bx0, by0), (bx1, by1) = obj.bounding_box()
            w = obj.aperture.equivalent_width(g.utils.MM) / 2
            xs += [bx0 + w, bx1 - w]
            ys += [by0 + w, by1 - w]
    if not xs:
        raise ValueError("%s: no outline in the Edge.Cuts Gerber" % fab_dir)
    return min(xs), min(ys), max(xs), max(ys)


def holes(fab_dir):
    """Every drilled hole as (x, y, diameter, plated), mm, from the PTH and
    NPTH drill files."""
    g = _gerbonara()
    found = []
    for suffix, plated in (("PTH.drl", True), ("NPTH.drl", False)):
        path = [p for p in glob.glob(os.path.join(fab_dir, "*-" + suffix))
                if plated != p.endswith("-NPTH.drl")]
        if len(path) != 1:
            raise FileNotFoundError("%s: expected one *-%s" % (fab_dir, suffix))
        drill = _quiet(g.ExcellonFile.open, path[0])
        for obj in drill.objects:
            obj = obj.converted(g.utils.MM)
            if isinstance(obj, g.graphic_objects.Flash):
                found.append((obj.x, obj.y, obj.aperture.diameter, plated))
            else:  # a routed slot: its two ends
                found.append(((obj.x1 + obj.x2) / 2, (obj.y1 + obj.y2) / 2, obj.aperture.diameter, plated))
    return found


def flashes(fab_dir, layer, size_mm):
    """(x, y) of every pad flashed on one layer's Gerber (e.g. "B_Cu") whose
    aperture is size_mm across (a circle's diameter, a rectangle's width)."""
    g = _gerbonara()
    gerber = _quiet(g.GerberFile.open, _one(fab_dir, layer + ".gbr"))
    found = []
    for obj in gerber.objects:
        if not isinstance(obj, g.graphic_objects.Flash):
            continue
        obj = obj.converted(g.utils.MM)
        (x0, y0), (x1, y1) = obj.aperture.bounding_box()
        if abs(min(x1 - x0, y1 - y0) - size_mm) < 0.01:
            found.append((obj.x, obj.y))
    return found


def render(fab_dir, out_dir, name=None):
    """PNGs of both sides drawn from the fab files; their paths."""
    g = _gerbonara()
    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        raise SystemExit("rsvg-convert is missing: apt-get install librsvg2-bin")
    name = name or os.path.basename(os.path.normpath(fab_dir))
    stack = _quiet(g.LayerStack.open, fab_dir)
    x0, y0, x1, y1 = outline(fab_dir)
    width = min(RENDER_MAX_PX, int(round((x1 - x0) * RENDER_PX_PER_MM)))
    os.makedirs(out_dir, exist_ok=True)
    made = []
    for side in ("top", "bottom"):
        svg = str(_quiet(stack.to_pretty_svg, side=side))
        target = os.path.join(out_dir, "%s-%s.png" % (name, side))
        with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as f:
            f.write(svg)
        try:
            subprocess.run([rsvg, "-w", str(width), "-b", "white", "-o", target, f.name], check=True,
                           capture_output=True, timeout=600)
        finally:
            os.unlink(f.name)
        made.append(target)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--renders", required=True, help="folder for the PNGs (hardware/pcb/renders)")
    ap.add_argument("fab_dirs", nargs="+")
    args = ap.parse_args(argv)
    for d in args.fab_dirs:
        try:
            for p in render(d, args.renders):
                print(p)
        except (OSError, ValueError, subprocess.CalledProcessError) as e:
            print("render: %s" % e, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
