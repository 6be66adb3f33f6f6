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

# A reed switch lies flat along its row with its middle this far from the
# point, away from the LED, so the stone's magnet is over one end of the
# glass: a disc magnet centred over a flat reed's middle sends its field
# across the blades, not along them, and often leaves it open.
REED_GLASS_MM = 14  # the BOM's reed (MKA-14103: 14 mm glass)
REED_OFFSET_MM = 6
# Light pipes are cut from 1 m rods, one piece per point: the playing
# surface over an LED is at most this thick, plus the saw's kerf.
PIPE_PIECE_MM = 8
ROD_MM = 1000
