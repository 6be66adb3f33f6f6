"""The tiles' fab files read back (gerbonara, host_sim/tools/fab/readback.py;
the CPL the assembly service places by): each tile's outline, its mounting
holes, its joint pads, and its sensors and LEDs where the grid puts them
(host_sim/tools/geometry.py through host_sim/tools/pcb/tile.py), within
0.1 mm; and tiles laid side by side as pins.tile_split lays them keep the
grid's pitch across every joint."""
import csv
import zipfile

import pytest

from gogadget.hw import pins
from host_sim.tools import geometry
from host_sim.tools.pcb import boards, tile
from pcbtools import ROOT, need_pcbnew, system_python
from test_pcb_fab import TOLERANCE_MM, unmatched

SIZES = boards.tile_sizes()


@pytest.fixture(scope="module")
def fab_dirs(tmp_path_factory):
    need_pcbnew()
    out = tmp_path_factory.mktemp("tiles")
    paths = [ROOT / "hardware" / "pcb" / tile.name(w, h) / (tile.name(w, h) + ".kicad_pcb") for w, h in SIZES]
    r = system_python("-m", "host_sim.tools.fab.outputs", "--out", out, *paths)
    assert r.returncode == 0, r.stderr
    return {(w, h): out / tile.name(w, h) for w, h in SIZES}


def _up(h, points):
    """KiCad's (x, y down) as the Gerbers' (x, y up from the lower-left corner)."""
    height = tile.size_mm(1, h)[1]
    return [(x, height - y) for x, y in points]


def _cpl(fab, name, prefix):
    with open(fab / ("%s-cpl.csv" % name), newline="") as f:
        return [(float(r["Mid X"][:-2]), float(r["Mid Y"][:-2])) for r in csv.DictReader(f)
                if r["Designator"].rstrip("0123456789") == prefix]


@pytest.mark.parametrize("w,h", SIZES, ids=[tile.name(w, h) for w, h in SIZES])
def test_tile_reads_back_on_the_grid(fab_dirs, w, h):
    from host_sim.tools.fab import readback
    fab = fab_dirs[(w, h)]
    name = tile.name(w, h)
    zipped = zipfile.ZipFile(fab / ("%s-gerbers.zip" % name)).namelist()
    assert ["%s-In%d_Cu.gbr" % (name, k) in zipped for k in range(1, 5)] == [True] * 4  # all six copper layers
    assert readback.outline(fab) == pytest.approx(
        (0, 0, w * geometry.GRID_MM[0], h * geometry.GRID_MM[1]), abs=TOLERANCE_MM)
    holes = [(x, y) for x, y, d, plated in readback.holes(fab) if not plated]
    assert unmatched(_up(h, tile.mounting_holes(w, h)), holes) == ([], [])
    points = _up(h, [(x, y) for _, _, x, y in tile.tile_points(w, h)])
    assert unmatched(points, _cpl(fab, name, "H")) == ([], []), "the Hall sensors are not under the points"
    dx, dy = geometry.led_offset_mm()  # up and to the right of each point
    assert unmatched([(x + dx, y + dy) for x, y in points], _cpl(fab, name, "D")) == ([], []), \
        "the LEDs are not under their light holes"
    joints = _up(h, [(x, y) for _, x, y in tile.joints(w, h)])
    assert unmatched(joints, readback.flashes(fab, "B_Cu", 1.5)) == ([], [])


def test_tiles_side_by_side_keep_the_pitch(fab_dirs):
    """Each size's tiles laid out by pins.tile_split, each at the sum of the
    read-back widths and heights before it: every point lands on one grid of
    22 x 23.7 mm from A1, so the joints keep the pitch."""
    from host_sim.tools.fab import readback
    for size in (9, 13, 19):
        cols, rows = pins.tile_split(size)
        seen = {}
        x0 = 0.0
        for c, w in enumerate(cols):
            y0 = 0.0
            for h in rows:
                fab = fab_dirs[(w, h)]
                _, _, width, height = readback.outline(fab)
                sensors = _cpl(fab, tile.name(w, h), "H")
                for x, y in sensors:
                    seen[(round(x0 + x, 2), round(y0 + y, 2))] = True
                y0 += height
            x0 += width
        assert len(seen) == size * size
        ox = min(x for x, _ in seen)
        oy = min(y for _, y in seen)
        for x, y in seen:
            i, j = (x - ox) / geometry.GRID_MM[0], (y - oy) / geometry.GRID_MM[1]
            assert abs(i - round(i)) * geometry.GRID_MM[0] < TOLERANCE_MM and \
                abs(j - round(j)) * geometry.GRID_MM[1] < TOLERANCE_MM, (size, x, y)
