"""Fab outputs and checks of the generated boards (hardware/pcb/): the fab's
rules (fabrules), KiCad's DRC (drc), Gerbers, drill files, BOM and CPL
(outputs, bom), and the read-back and renders (readback).

fabrules, drc, outputs and bom need only the stdlib and pcbnew: they run
under Debian's own /usr/bin/python3, the one Python KiCad 6's pcbnew module
is built for.  readback runs in the venv, with the Gerber library gerbonara.
"""
