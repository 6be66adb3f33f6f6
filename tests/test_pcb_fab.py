"""The fab files (host_sim/tools/fab/outputs.py, run by Debian's python3
with KiCad's pcbnew) read back with a Gerber library from PyPI (gerbonara,
host_sim/tools/fab/readback.py): every layer is there, the outline and the
drilled holes are where the board has them within 0.1 mm, the BOM and CPL
have the assembly services' columns, and the same board gives the same
bytes."""
import csv
import zipfile

import pytest

from pcbtools import fixture_board, need_pcbnew, system_python

TOLERANCE_MM = 0.1
LAYER_FILES = ("F_Cu", "In1_Cu", "In2_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "B_Silkscreen",
               "F_Paste", "B_Paste", "Edge_Cuts")


def fab(board, out):
    r = system_python("-m", "host_sim.tools.fab.outputs", "--out", out, board)
    assert r.returncode == 0, r.stderr
    return out / board.stem


def unmatched(expected, found, tol=TOLERANCE_MM):
    """The expected (x, y) with no found (x, y) within tol, and the found
    left over: both empty when the two sets agree."""
    left = list(found)
    missing = []
    for x, y in expected:
        near = [f for f in left if abs(f[0] - x) <= tol and abs(f[1] - y) <= tol]
        if near:
            left.remove(near[0])
        else:
            missing.append((x, y))
    return missing, left


@pytest.fixture(scope="module")
def good_fab(tmp_path_factory):
    need_pcbnew()
    tmp = tmp_path_factory.mktemp("fab")
    return fab(fixture_board(tmp, "good"), tmp / "out")


def test_every_layer_and_drill_file_in_the_zip(good_fab):
    names = sorted(zipfile.ZipFile(good_fab / "good-gerbers.zip").namelist())
    assert names == sorted(["good-%s.gbr" % layer for layer in LAYER_FILES] + ["good-PTH.drl", "good-NPTH.drl"])
    for name in names:
        text = (good_fab / name).read_text()
        assert "CreationDate" not in text and " date " not in text, name
    assert (good_fab / "good-F_Cu.gbr").read_text().rstrip().endswith("M02*")  # RS-274X's end


def test_outline_and_holes_read_back(good_fab):
    from host_sim.tools.fab import readback
    import pcb_fixture_data as truth
    x0, y0, x1, y1 = readback.outline(good_fab)
    ox0, oy0, ox1, oy1 = truth.OUTLINE
    assert (x0, y0) == pytest.approx((0, 0), abs=TOLERANCE_MM)
    assert (x1, y1) == pytest.approx((ox1 - ox0, oy1 - oy0), abs=TOLERANCE_MM)
    found = readback.holes(good_fab)
    expected = [(x - ox0, oy1 - y) for x, y in truth.PINS]  # KiCad's y runs down, the Gerbers' up
    assert unmatched(expected, [(x, y) for x, y, _, _ in found]) == ([], [])
    assert all(d == pytest.approx(1.0) and plated for _, _, d, plated in found)
    # and the comparison can fail: a hole 0.2 mm off is not matched
    assert unmatched([(expected[0][0] + 0.2, expected[0][1])], [expected[0]]) != ([], [])


def test_bom_and_cpl_have_the_assembly_columns(good_fab):
    with open(good_fab / "good-bom.csv", newline="") as f:
        bom = list(csv.DictReader(f))
    assert list(bom[0]) == ["Comment", "Designator", "Footprint", "Manufacturer", "Manufacturer Part Number",
                            "LCSC Part #"]
    r1 = [row for row in bom if row["Designator"] == "R1"][0]
    assert r1["Manufacturer Part Number"] == "RC0805FR-0710KL" and r1["Comment"] == "10k"
    with open(good_fab / "good-cpl.csv", newline="") as f:
        cpl = list(csv.DictReader(f))
    assert list(cpl[0]) == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    # the SMD resistors only (the header pins are hand soldered), from the lower-left corner, y up
    assert [(c["Designator"], c["Mid X"], c["Mid Y"], c["Layer"]) for c in cpl] == [
        ("R1", "10.0000mm", "20.0000mm", "Top"), ("R2", "30.0000mm", "20.0000mm", "Top")]


def test_same_board_same_bytes(good_fab, tmp_path):
    again = fab(good_fab.parent.parent / "good.kicad_pcb", tmp_path)
    for f in sorted(good_fab.iterdir()):
        assert (again / f.name).read_bytes() == f.read_bytes(), f.name


def test_renders_of_both_sides(good_fab, tmp_path):
    from conftest import require
    require("rsvg-convert", "(Debian's librsvg2-bin: the boards' renders)")
    from host_sim.tools.fab import readback
    made = readback.render(good_fab, tmp_path)
    assert [p.rsplit("/", 1)[1] for p in made] == ["good-top.png", "good-bottom.png"]
    for p in made:
        data = open(p, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert w == 40 * readback.RENDER_PX_PER_MM and abs(h - 30 * readback.RENDER_PX_PER_MM) <= 2


def _rotated(dx, dy, rot):
    """A pad's offset turned as KiCad turns a footprint (counter-clockwise
    on screen, y down)."""
    return {0: (dx, dy), 90: (dy, -dx), 180: (-dx, -dy), 270: (-dy, dx)}[rot]


def test_controller_gerbers_match_its_design(tmp_path):
    """The controller's Gerbers and drill files, read back: its outline and
    every plated hole where controller.py puts the parts (the Pico's 40 pins
    on their 2.54 mm grid 17.78 mm apart, the headers, the terminals)."""
    need_pcbnew()
    from conftest import ROOT
    from host_sim.tools.fab import controller, readback
    from host_sim.tools.fab.parts import PARTS
    out = fab(ROOT / "hardware" / "pcb" / "controller.kicad_pcb", tmp_path)
    x0, y0, x1, y1 = readback.outline(out)
    assert (x0, y0, x1, y1) == pytest.approx((0, 0, controller.WIDTH, controller.HEIGHT), abs=TOLERANCE_MM)
    expected = []
    for ref, kind, x, y, rot, nets, pads, value, mpn in controller.design().parts:
        for num, dx, dy, w, h, drill, shape in pads or PARTS[kind][2]:
            if drill:
                rx, ry = _rotated(dx, dy, rot)
                expected.append((x + rx, controller.HEIGHT - (y + ry)))
    found = [(x, y) for x, y, d, plated in readback.holes(out) if plated and d > 0.35]  # not the vias
    assert len(expected) > 50  # the Pico's 40, the headers' and the terminals'
    assert unmatched(expected, found) == ([], [])
