"""Fab outputs and checks of the generated boards (hardware/pcb/): the fab's
rules (fabrules), KiCad's DRC (drc), Gerbers, drill files, BOM, CPL and
renders (outputs).  Stdlib and pcbnew only: these run under Debian's own
/usr/bin/python3, the one Python that KiCad 6's pcbnew module is built for.
"""
