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
SENSOR_DEPTH_MM = (3, 5)  # the stone's magnet above the sensor under its point (hand-wired board)
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

# The stack-up over a PCB tile (hardware/README.md, "Ordering the boards"),
# bottom to top: the 1.6 mm board, the sensor and LED soldered on its top,
# the playing surface resting on the LEDs (the tallest parts), the stone on
# it with its magnet glued flush into a recess in its underside.  The
# generator (host_sim/tools/pcb) and the physics model (host_sim/sim/physics.py)
# both take their figures from here.
PCB_THICKNESS_MM = 1.6  # the fab class's (host_sim/tools/fab/fabrules.py)
LED_HEIGHT_MM = 1.6  # WS2812B-5050 body (Worldsemi WS2812B datasheet: 5.0 x 5.0 x 1.6 mm)
HALL_PACKAGE_MM = 1.0  # SOT-23 (DBZ) body above the board, typical (TI DRV5055 datasheet: 1.12 max)
HALL_ELEMENT_DEPTH_MM = 0.65  # the Hall element under the package's top face (DRV5055, DBZ)
SURFACE_MM = 5.0  # the playing surface over the tiles; also the light pipes' length
MAGNET_RECESS_MM = 2.0  # the recess in the stone's underside: the 6 x 2 mm disc, flush
MAGNET_THICKNESS_MM = 2.0


def magnet_height_mm():
    """The magnet's centre above the Hall element of the sensor under its
    point, for a stone centred on the point: element to package top, the gap
    up to the surface (which rests on the taller LEDs), the surface, and the
    magnet's half thickness above the stone's underside."""
    return (HALL_ELEMENT_DEPTH_MM + (LED_HEIGHT_MM - HALL_PACKAGE_MM) + SURFACE_MM
            + MAGNET_RECESS_MM - MAGNET_THICKNESS_MM / 2)


def sensor_to_led_mm():
    """Centre to centre on the PCB, the Hall sensor at its point and the LED
    under its light hole."""
    return math.hypot(*led_offset_mm())
