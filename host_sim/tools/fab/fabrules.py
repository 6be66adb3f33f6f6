"""The fab class every board is made to, written once.

A standard 4-layer class that the budget PCB fabs (JLCPCB, PCBWay, Aisler,
OSH Park's 4-layer service) make at their base price: 6/6 mil (0.15 mm)
track and space, 0.3 mm smallest drill, 0.13 mm annular ring, 1.6 mm FR-4,
1 oz outer / 0.5 oz inner copper.  The DRC runner (drc.py) applies these to
every board it checks, whatever the board file carries, and the generator
writes the same numbers into each board's project (kicad_pro_rules,
kicad_dru) so KiCad's own DRC window agrees.

Plain data and stdlib: the venv's tests and Debian's python3 import it.
"""

FAB_CLASS = "6/6 mil, 0.3 mm drill, 1.6 mm FR-4 (JLCPCB/PCBWay standard multilayer)"
FAB_CLASS_SHORT = "6/6 mil, 0.3 mm drill"

# mm
FAB = {
    "layers": 4,  # the controller's; the tiles take 6 (host_sim/tools/pcb), same class
    "thickness": 1.6,
    "outer_copper_oz": 1.0,
    "inner_copper_oz": 0.5,
    "min_track": 0.15,
    "min_clearance": 0.15,
    "min_drill": 0.3,  # any plated hole, via or pad
    "min_annular_ring": 0.13,  # (pad or via diameter - drill) / 2
    "min_via_diameter": 0.6,  # 0.3 drill + 2 x 0.15 ring, a step above the floor
    "min_hole_to_hole": 0.5,
    "min_hole_clearance": 0.25,  # copper of another net to a drilled hole's wall
    "min_copper_edge": 0.3,  # copper to the board's outline
    "min_silk_clearance": 0.0,
    "solder_mask_margin": 0.05,
    "solder_mask_min_web": 0.1,
}


def kicad_pro_rules():
    """The "board": {"design_settings": {"rules": ...}} block of a KiCad 6
    .kicad_pro, in its units (mm)."""
    return {
        "allow_blind_buried_vias": False,
        "allow_microvias": False,
        "max_error": 0.005,
        "min_clearance": FAB["min_clearance"],
        "min_copper_edge_clearance": FAB["min_copper_edge"],
        "min_hole_clearance": FAB["min_hole_clearance"],
        "min_hole_to_hole": FAB["min_hole_to_hole"],
        "min_microvia_diameter": 0.2,
        "min_microvia_drill": 0.1,
        "min_silk_clearance": FAB["min_silk_clearance"],
        "min_through_hole_diameter": FAB["min_drill"],
        "min_track_width": FAB["min_track"],
        "min_via_annular_width": FAB["min_annular_ring"],
        "min_via_diameter": FAB["min_via_diameter"],
        "solder_mask_clearance": FAB["solder_mask_margin"],
        "solder_mask_min_width": FAB["solder_mask_min_web"],
        "use_height_for_length_calcs": True,
    }


def kicad_dru():
    """A KiCad 6 custom rules file (.kicad_dru beside the board) that holds
    the class's floors where the design settings do not reach (the annular
    ring of plated pads)."""
    return "\n".join((
        "(version 1)",
        "# The fab class: %s (host_sim/tools/fab/fabrules.py)" % FAB_CLASS,
        '(rule "fab track width" (constraint track_width (min %.2fmm)))' % FAB["min_track"],
        '(rule "fab clearance" (constraint clearance (min %.2fmm)))' % FAB["min_clearance"],
        '(rule "fab drill" (constraint hole_size (min %.2fmm)))' % FAB["min_drill"],
        '(rule "fab annular ring" (constraint annular_width (min %.2fmm)))' % FAB["min_annular_ring"],
        '(rule "fab hole to hole" (constraint hole_to_hole (min %.2fmm)))' % FAB["min_hole_to_hole"],
        '(rule "fab copper to edge" (constraint edge_clearance (min %.2fmm)))' % FAB["min_copper_edge"],
        "",
    ))
