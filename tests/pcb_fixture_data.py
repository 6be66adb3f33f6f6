"""Where tests/pcb_fixture.py puts things (mm, KiCad's y down): importable
without pcbnew, for the tests' side."""
OUTLINE = (10.0, 10.0, 50.0, 40.0)  # x0, y0, x1, y1
PINS = ((20.0, 35.0), (40.0, 35.0))  # the GND header pins' centres
