"""The printed board: KiCad 6 tiles generated from the pin map, the tile
plan (gogadget.hw.pins) and the grid (host_sim.tools.geometry).

    python -m host_sim.tools.pcb        (make pcb) writes hardware/pcb/
"""
