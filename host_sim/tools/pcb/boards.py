"""The boards of the tile plan (gogadget.hw.pins.tile_split) and where
their files go: hardware/pcb/<name>/<name>.kicad_pcb and .kicad_pro."""
import sys
from pathlib import Path

from host_sim.tools.pcb import kicad, tile

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "hardware" / "pcb"
sys.path.insert(0, str(ROOT / "firmware"))
from gogadget.hw import pins  # noqa: E402

SIZES = (9, 13, 19)

# The fab class the tiles are drawn to (mm): JLCPCB's standard 6-layer
# class is 0.09/0.09 mm track/space and 0.15 mm drill at best; these are
# the conservative figures every budget fab makes without surcharge.
RULES = {
    "min_track_width": 0.15, "min_clearance": 0.15, "min_through_hole_diameter": 0.3,
    "min_via_annular_width": 0.13, "min_via_diameter": 0.6, "min_hole_to_hole": 0.5,
    "min_hole_clearance": 0.25, "min_copper_edge_clearance": 0.3,
    "allow_blind_buried_vias": False, "allow_microvias": False,
}


def tile_sizes():
    """Every (w, h) tile design the three sizes use, sorted."""
    out = set()
    for size in SIZES:
        cols, rows = pins.tile_split(size)
        out |= {(w, h) for w in cols for h in rows}
    return sorted(out)


def generate():
    """-> {relative path: text} of every board file."""
    files = {}
    for w, h in tile_sizes():
        nm = tile.name(w, h)
        files["%s/%s.kicad_pcb" % (nm, nm)] = tile.build(w, h).to_text()
        files["%s/%s.kicad_pro" % (nm, nm)] = kicad.project_text(RULES)
    return files


def write_all(out=OUT):
    paths = []
    for rel, text in sorted(generate().items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return paths


def parts_count(w, h):
    """Parts an assembler places on a w x h tile (joint pads and solder
    jumpers are bare copper, not parts)."""
    return sum(1 for f in tile.build(w, h).footprints if f.bom)


def summary_table():
    """The tiles' table in hardware/README.md ("PCB tiles")."""
    rows = ["| tile | size (mm) | layers | parts | level-1 muxes | used by |",
            "|---|---|---|---|---|---|"]
    for w, h in tile_sizes():
        width, height = tile.size_mm(w, h)
        used = []
        for size in SIZES:
            cols, rows_ = pins.tile_split(size)
            n = cols.count(w) * rows_.count(h)
            if n:
                used.append("%d x %dx%d" % (n, size, size))
        rows.append("| %s | %.1f x %.1f | 6 | %d | %d | %s |" % (
            tile.name(w, h), width, height, parts_count(w, h), tile.mux_count(w, h), ", ".join(used)))
    return "\n".join(rows)
