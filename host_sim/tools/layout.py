"""The dimensioned drawing under the grid: where each point's sensor and LED
go, drawn to scale from host_sim/tools/geometry.py (the numbers the maker's
guide and the simulator's window use)."""
import math

from host_sim.tools import geometry as G
from host_sim.tools.svg import Svg

SCALE = 12  # px per mm
DIM = "#b00060"  # dimension lines and their figures


def _mm(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def layout_diagram():
    gx, gy = G.GRID_MM
    # Screen position of the bottom-left point: room for its reed and stone.
    ox, oy = 140 + 20 * SCALE, 80 + 16 * SCALE + 2 * gy * SCALE
    lx = int(ox + (gx + G.led_offset_mm()[0]) * SCALE + 340)  # the key, right of the drawing
    svg = Svg(lx + 520, int(oy + 16 * SCALE + 60), "Under the grid, to scale "
              "(full-size board, seen from above, Black's side at the bottom)")
    s = svg.parts

    def at(mx, my):
        return ox + mx * SCALE, oy - my * SCALE

    def line(a, b, colour="#888888", width=1, dash=None):
        s.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%d"%s/>'
                 % (a + b + (colour, width, ' stroke-dasharray="%s"' % dash if dash else "")))

    def circle(c, r_mm, stroke, fill="none", dash=None):
        s.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s"%s/>'
                 % (c + (r_mm * SCALE, fill, stroke, ' stroke-dasharray="6 4"' if dash else "")))

    # The grid lines of a 2 x 2 patch of squares.
    for i in range(3):
        line(at(i * gx, -4), at(i * gx, 2 * gy + 4), "#3a2a10", 2)
        line(at(-4, i * gy), at(2 * gx + 4, i * gy), "#3a2a10", 2)
    dx, dy = G.led_offset_mm()
    for i in range(3):
        for j in range(3):
            p = at(i * gx, j * gy)
            # The sensor under the point (Hall: centred), the reed beside it.
            s.append('<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="#4070c0"/>'
                     % (p[0] - 2 * SCALE, p[1] - 1.5 * SCALE, 4 * SCALE, 3 * SCALE))
            r0 = at(i * gx - G.REED_OFFSET_MM - G.REED_GLASS_MM / 2, j * gy)
            r1 = at(i * gx - G.REED_OFFSET_MM + G.REED_GLASS_MM / 2, j * gy)
            # (an outline: the reed and the Hall sensor are the two variants' parts)
            h = 1.2 * SCALE
            s.append('<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" '
                     'stroke="#208040" stroke-width="2"/>' % (r0[0], r0[1] - h, r1[0], r1[1] - h,
                                                             r1[0], r1[1] + h, r0[0], r0[1] + h))
            circle(at(i * gx + dx, j * gy + dy), G.LIGHT_HOLE_MM / 2, "#c06000", "#ffd080")
    # The stones on the four corners of the lower-left square (largest size).
    for i in range(2):
        for j in range(2):
            circle(at(i * gx, j * gy), G.STONE_MM / 2, "#555555", dash=True)
    # Dimensions: the pitch both ways, the LED's offset, its parts, the hole.
    y0 = oy + 12.5 * SCALE + 20
    line(at(0, 0)[:1] + (y0,), at(gx, 0)[:1] + (y0,), DIM, 2)
    svg.add_text(int(at(gx / 2, 0)[0]), int(y0 + 18), "%s mm (grid across)" % _mm(gx), 12,
                 "middle", fill=DIM)
    x0 = ox - 16 * SCALE
    line((x0, at(0, 0)[1]), (x0, at(0, gy)[1]), DIM, 2)
    svg.add_text(int(x0 - 6), int(at(0, gy / 2)[1] + 4), "%s mm" % _mm(gy), 12, "end", fill=DIM)
    c = at(gx, gy)
    led = at(gx + dx, gy + dy)
    line(c, led, DIM, 2)
    svg.add_text(int(led[0] + 24), int(led[1] - 2), "%s mm" % _mm(G.LED_OFFSET_MM), 12, fill=DIM)
    # The legend and the clearances, from the same numbers.
    diag = math.hypot(gx, gy)
    lines = [
        ("#4070c0", "sensor (Hall, branded face up): centred under the point"),
        ("#208040", "reed switch (occupancy): %s mm glass lying along the row," % _mm(
            G.REED_GLASS_MM)),
        (None, "  its middle %s mm from the point, away from the LED:" % _mm(G.REED_OFFSET_MM)),
        (None, "  the magnet sits over one end of the glass"),
        ("#c06000", "LED under a %s mm hole with a light pipe, up-right" % _mm(G.LIGHT_HOLE_MM)),
        ("#555555", "stones up to %s mm across (dashed)" % _mm(G.STONE_MM)),
        (DIM, "LED %s mm from its point (%s right, %s up)" % (_mm(G.LED_OFFSET_MM), _mm(dx),
                                                              _mm(dy))),
        (None, ""),
        (None, "clear of its own stone by %.2f mm" % (G.LED_OFFSET_MM - G.LIGHT_HOLE_MM / 2
                                                    - G.STONE_MM / 2)),
        (None, "clear of the diagonal neighbour by %.1f mm" % (diag - G.LED_OFFSET_MM
                                                             - G.LIGHT_HOLE_MM / 2 - G.STONE_MM / 2)),
        (None, "LED to the sensor under its point: %s mm (10 needed)" % _mm(G.LED_OFFSET_MM)),
        (None, "top row, right column: their LEDs in the margin (%s mm or more)" % _mm(
            G.MARGIN_MM)),
    ]
    for k, (colour, text) in enumerate(lines):
        y = 110 + 22 * k
        if colour:
            s.append('<rect x="%d" y="%d" width="14" height="10" fill="%s"/>' % (lx, y - 10, colour))
        if text:
            svg.add_text(lx + 22, y, text, 12)
    return svg.render()
