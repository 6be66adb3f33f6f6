"""The scan: what the sensors saw, one byte per intersection.

A scan is a bytearray of size*size bytes indexed by *place*
(row * size + col, row 0 at the bottom, see points.py).  Sensor drivers
fill it in place, the referee reads it; nobody else defines these values.
"""
from gogadget.compat import const

S_EMPTY = const(0)
S_BLACK = const(1)
S_WHITE = const(2)
S_STONE = const(3)  # occupied, colour unknown (occupancy-only sensors)
S_FAULT = const(4)  # sensor left out by the self-test or reading out of range

SENSOR_COLOUR = "colour"  # linear Hall sensors: empty / black / white
SENSOR_OCCUPANCY = "occupancy"  # reed switches or digital Hall: empty / stone
SENSOR_KINDS = (SENSOR_COLOUR, SENSOR_OCCUPANCY)


def new_scan(size):
    return bytearray(size * size)
