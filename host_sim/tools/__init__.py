"""Host tools: firmware build/deploy (mpy.py), wiring diagrams (wiring.py)."""
