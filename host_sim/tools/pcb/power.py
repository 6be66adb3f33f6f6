"""Copper for current, by IPC-2221: the track width that carries a current
with a given temperature rise, and the tiles' worst-case currents from the
power budget (host_sim/tools/hwdoc.py)."""
import math

MIL_MM = 0.0254
OZ_MIL = 1.378  # 1 oz/ft2 copper is 1.378 mil (35 um) thick


def ipc2221_width_mm(amps, rise_c=10.0, oz=1.0, external=True):
    """IPC-2221 (fig. 6-4 fit): I = k * dT^0.44 * A^0.725, A in mil2,
    k = 0.048 outer layers, 0.024 inner.  -> the track width in mm."""
    k = 0.048 if external else 0.024
    area = (amps / (k * rise_c ** 0.44)) ** (1 / 0.725)
    return area / (oz * OZ_MIL) * MIL_MM


LED_MA = 60  # a WS2812B at full white: 3 x 20 mA (frame.py's figure)
HALL_MA = 10  # DRV5055, maximum supply current
MUX_MA = 1

# Plane: what a plane's narrowest neck must carry, the whole tile column's
# LEDs at the budget's worst frame (hwdoc's power table: ~2 A over the
# 19x19 board's 364 LEDs), checked by tests/test_pcb_tiles.py.
BOARD_LED_BUDGET_A = 2.0


def column_amps(size, width):
    """Worst 5 V current through a tile column of `width` points of a
    size x size board, all of it fed from one end."""
    return BOARD_LED_BUDGET_A * width * size / (size * size + 3)


def column_3v3_amps(size, width):
    """Worst 3.3 V current through a tile column: every sensor and mux of
    it at its maximum."""
    rows = size
    return (HALL_MA * width * rows + MUX_MA * 2 * rows) / 1000


def joint_amps(width, sizes=(9, 13, 19)):
    """The most any one supply joint pad of a `width` tile column carries:
    the column's worst current (5 V or 3.3 V, any size) shared by the
    width - 1 pads of its edge."""
    worst = max(max(column_amps(s, width), column_3v3_amps(s, width)) for s in sizes)
    return worst / (width - 1)


def joint_width_mm(width):
    """Width of a supply joint pad's track to its plane via: IPC-2221 for
    joint_amps, outer layer, 1 oz, 10 C rise, never under the stubs'."""
    return max(stub_width_mm(), math.ceil(ipc2221_width_mm(joint_amps(width)) * 100) / 100)


def stub_width_mm():
    """The width of a single LED's and sensor's supply stubs (one LED at
    full white, outer layer, 10 C rise), never under 0.3 mm."""
    return max(0.3, math.ceil(ipc2221_width_mm(LED_MA / 1000) * 100) / 100)
