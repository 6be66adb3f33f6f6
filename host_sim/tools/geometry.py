"""Where things sit under a full-size board: the grid, the stones, the sensor
and the LED of each point (hardware/README.md, "Assembly" and "Getting the
light through the wood").

One source for the maker's guide and its drawings (hwdoc, wiring) and for
the simulator's window, which draws each light where the real LED is: up
and to the right of its point.
"""
import math

GRID_MM = (22.0, 23.7)  # grid pitch across (columns) and along (rows) a full-size board
STONE_MM = 22.5  # the largest stone's diameter
LED_OFFSET_MM = 14  # the LED's hole: this far from its point along the diagonal, up and right
LIGHT_HOLE_MM = 3  # the hole (and light pipe) over each LED
SENSOR_DEPTH_MM = (3, 5)  # the stone's magnet above the sensor under its point
MARGIN_MM = 18  # the least board margin beyond the outer lines (the top row's lights use it)


def led_offset_mm():
    """(right, up) from a point's centre to its LED's centre, in mm."""
    diag = math.hypot(*GRID_MM)
    return GRID_MM[0] * LED_OFFSET_MM / diag, GRID_MM[1] * LED_OFFSET_MM / diag


def led_offset_pitch():
    """The LED's offset as a fraction of the grid pitch (the same both ways:
    it lies on the diagonal of the square)."""
    return LED_OFFSET_MM / math.hypot(*GRID_MM)
