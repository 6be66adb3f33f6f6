"""The board drawn on the window's canvas and scaled to it: lines, stones, lights, marks, hand and legend."""
from gogadget import frame, points
from gogadget.points import BLACK, EMPTY
from host_sim.faces import nextstep
from host_sim.faces.gui_marks import (OUTLINE, PATTERN_WORDS, STONE_R, WOOD, draw_mark, hex_colour,
                                shown_bright, through_wood)
from host_sim.tools import geometry

SHADOW = "#a8843c"  # a stone's shadow on the wood
LINE = "#3a2a10"
HAND = "#e8b090"  # a hand over the board (stippled: the board shows through)
STATUS_NAMES = ("turn", "phase", "alert")
MARGIN = 1.3  # board edge to the first line, in cells: room for the coordinates
# The LED's light pipe, up and to the right of its point, the same fraction
# of the grid pitch as on the real board: rings fading from the LED's colour
# to the wood (dim lights a smaller spot), in a dark rim so it shows on wood.
LED_AT = geometry.led_offset_pitch()
GLOW_RINGS = ((0.21, 0.35), (0.16, 0.7), (0.11, 1.0))  # (radius in cells, strength)
DIM_RINGS = ((0.12, 0.6), (0.08, 1.0))


class BoardCanvas:
    """BoardView's drawing: the board on self.canvas for self.sim, laid out
    again when the window or the game's size changes."""

    def _layout(self):
        """Draw the board for the canvas's size: everything scales with the window."""
        self._relayout = None
        size = self.sim.size
        c = self.canvas
        w, h = c.winfo_width(), c.winfo_height()
        span = size - 1 + 2 * MARGIN
        if self.cell is None or w < 100 or h < 100:
            # The first drawing asks for the window's natural size.
            cell = {9: 52, 13: 40}.get(size, 30)
            w = h = int(cell * span)
            c.config(width=w, height=h)
        cell = min(w, h) / span
        self.cell = cell
        self._laid_out = (w, h, size)
        self.ox = (w - cell * (size - 1)) / 2  # screen x of column A
        self.oy = (h - cell * (size - 1)) / 2  # screen y of the top row
        c.delete("all")
        n = size * size
        # The LEDs' light pipes: up and to the right of each point.
        self.glows = []
        rim = max(1, int(cell / 25))
        for pl in range(n):
            x, y = self.led_xy(pl)
            wide = [self._oval(x, y, r * cell, fill="", outline="", state="hidden")
                    for r, _ in GLOW_RINGS]
            dim = [self._oval(x, y, r * cell, fill="", outline="", state="hidden")
                   for r, _ in DIM_RINGS]
            ring = self._oval(x, y, GLOW_RINGS[0][0] * cell, fill="", outline=OUTLINE,
                              width=rim, state="hidden")
            self.glows.append((wide, dim, ring))
        x0, y0 = self.xy(size * (size - 1))  # top left (A at the top row)
        x1, y1 = self.xy(size - 1)  # bottom right
        width = max(1, int(cell / 40))
        for i in range(size):
            c.create_line(x0 + i * cell, y0, x0 + i * cell, y1, fill=LINE, width=width)
            c.create_line(x0, y0 + i * cell, x1, y0 + i * cell, fill=LINE, width=width)
        r = max(3.0, cell * 0.1)
        for row, col in nextstep.star_points(size):
            x, y = self.xy(row * size + col)
            self._oval(x, y, r, fill=LINE, outline=LINE)
        # Coordinates on all four sides, clear of a stone on the edge line.
        self.labels = {}
        font = ("TkDefaultFont", max(8, int(cell * 0.3)))
        off = (MARGIN + STONE_R) / 2 * cell  # half-way between a stone's edge and the border
        for i in range(size):
            letter, number = points.COLUMNS[i], str(size - i)
            for name, x, y, text in (("top", x0 + i * cell, y0 - off, letter),
                                     ("bottom", x0 + i * cell, y1 + off, letter),
                                     ("left", x0 - off, y0 + i * cell, number),
                                     ("right", x1 + off, y0 + i * cell, number)):
                c.create_text(x, y, text=text, fill=LINE, font=font)
                self.labels["%s %s" % (name, text)] = (x, y)
        self.stones = []
        rs = STONE_R * cell
        for pl in range(n):
            x, y = self.xy(pl)
            d = max(1.0, cell * 0.05)
            shadow = self._oval(x + d, y + d, rs, fill=SHADOW, outline="", state="hidden")
            body = self._oval(x, y, rs, fill="", outline="", state="hidden")
            shine = self._oval(x - rs * 0.35, y - rs * 0.35, rs * 0.28, fill="", outline="",
                               state="hidden")
            self.stones.append((shadow, body, shine))
        self._marked = [None] * n
        self.hand_items = self._draw_hand()
        self.status_items = []
        sc = self.status_canvas
        sc.delete("all")
        for i, name in enumerate(STATUS_NAMES):
            sc.create_text(4, 12 + i * 24, text=name, anchor="w")
            self.status_items.append(sc.create_oval(60, 4 + i * 24, 76, 20 + i * 24,
                                                    fill="#000000", outline="#444444"))
        self._shown = [None] * n
        self._stone_shown = [None] * n
        self._hand_shown = None
        self._legend_shown = None
        self.draw(force=True)

    def _oval(self, x, y, r, **kw):
        return self.canvas.create_oval(x - r, y - r, x + r, y + r, **kw)

    def _draw_hand(self):
        """A hand reaching over the board from Black's side (hidden until key h)."""
        size, cell = self.sim.size, self.cell
        cx, cy = self.xy((size // 3) * size + size // 2)  # the palm, a third up the board
        u = cell * {9: 1.0, 13: 0.85}.get(size, 0.7)  # a hand is about four points wide
        kw = dict(fill=HAND, outline="#9a6040", stipple="gray50", state="hidden", tags="hand")
        c = self.canvas
        bottom = self.canvas.winfo_height() or cy + 6 * u
        items = [c.create_polygon(cx - 1.2 * u, cy + 1.0 * u, cx + 1.2 * u, cy + 1.0 * u,
                                  cx + 1.0 * u, bottom + 5, cx - 1.4 * u, bottom + 5, **kw),
                 c.create_oval(cx - 1.9 * u, cy - 1.6 * u, cx + 1.9 * u, cy + 1.9 * u, **kw)]
        for i, (dx, top) in enumerate(((-1.45, 3.3), (-0.5, 4.0), (0.45, 3.8), (1.35, 3.0))):
            items.append(c.create_oval(cx + (dx - 0.42) * u, cy - top * u, cx + (dx + 0.42) * u,
                                       cy - 0.6 * u, **kw))
        items.append(c.create_polygon(cx + 1.5 * u, cy + 0.6 * u, cx + 3.3 * u, cy - 0.9 * u,
                                      cx + 3.0 * u, cy - 1.4 * u, cx + 1.4 * u, cy - 0.5 * u, **kw))
        items.append(c.create_text(cx, cy + 0.3 * u, text="hand over the board",
                                   font=("TkDefaultFont", max(8, int(cell * 0.28)), "bold"),
                                   fill="#5a2a10", state="hidden", tags="hand"))
        return items

    def on_resize(self, event):
        if self.sim is None or (event.width, event.height, self.sim.size) == self._laid_out:
            return
        if self._relayout is not None:
            self.root.after_cancel(self._relayout)
        self._relayout = self.root.after(60, self._layout)  # once the resizing settles

    # -- geometry -----------------------------------------------------------

    def xy(self, place):
        size = self.sim.size
        row, col = divmod(place, size)
        return self.ox + col * self.cell, self.oy + (size - 1 - row) * self.cell

    def led_xy(self, place):
        """Where the point's LED shines through the board: up and to the right."""
        x, y = self.xy(place)
        return x + LED_AT * self.cell, y - LED_AT * self.cell

    def place_at(self, x, y):
        size = self.sim.size
        col = int(round((x - self.ox) / self.cell))
        row = size - 1 - int(round((y - self.oy) / self.cell))
        if 0 <= col < size and 0 <= row < size:
            return row * size + col
        return None

    # -- what is on the board now --------------------------------------------

    def _draw_stone(self, pl, stone):
        c = self.canvas
        shadow, body, shine = self.stones[pl]
        if stone == EMPTY:
            for item in (shadow, body, shine):
                c.itemconfigure(item, state="hidden")
            return
        if stone == BLACK:
            fill, edge, glint = "#141414", "#000000", "#4a4a4a"
        else:
            fill, edge, glint = "#f2f2ec", "#7a7a72", "#ffffff"
        c.itemconfigure(shadow, state="normal")
        c.itemconfigure(body, fill=fill, outline=edge, width=1, state="normal")
        c.itemconfigure(shine, fill=glint, outline=glint, state="normal")

    def _draw_light(self, pl, code, on):
        """The LED of one point as the players see it: a lit light pipe up
        and to the right of the point (blinking as the LED does)."""
        c = self.canvas
        wide, dim, ring = self.glows[pl]
        for item in wide + dim + [ring]:
            c.itemconfigure(item, state="hidden")
        if not on:
            return
        rgb = shown_bright(frame.PALETTE[code & 0x0F])
        pattern = code & 0xF0
        rings = DIM_RINGS if pattern == frame.DIM else GLOW_RINGS
        items = dim if pattern == frame.DIM else wide
        for item, (_, k) in zip(items, rings):
            c.itemconfigure(item, fill=through_wood(rgb, k), state="normal")
        if pattern != frame.DIM:
            c.itemconfigure(ring, state="normal")

    def _draw_mark(self, pl, code):
        """What the light asks for, marked on the point itself: steady, bold,
        above the stone (the LED beside it blinks)."""
        c = self.canvas
        tag = "m%d" % pl
        c.delete(tag)
        if code & 0x0F == frame.OFF:
            return
        x, y = self.xy(pl)
        draw_mark(c, x, y, self.cell, code, self.sim.stones.cells[pl], tag)
        c.tag_raise("hand")

    def _draw_in_hand(self):
        colour = self.colour_in_hand()
        asked = not self.hand_mode.get() and self.asked_colour() == colour
        key = (colour, self.hand_mode.get(), asked)
        if key == getattr(self, "_in_hand_shown", None):
            return
        self._in_hand_shown = key
        hc = self.hand_canvas
        hc.delete("all")
        fill, edge = ("#141414", "#000000") if colour == BLACK else ("#f2f2ec", "#7a7a72")
        hc.create_oval(4, 3, 24, 23, fill=fill, outline=edge)
        self.in_hand_text = "%s%s" % (nextstep.WORDS[colour], (
            " (chosen)" if key[1] else " (the lights ask)" if asked else " (the turn's)"))
        hc.create_text(32, 13, anchor="w", text=self.in_hand_text)

    def _draw_legend(self):
        """What the lit colours on the board mean, as the README's table says."""
        lights = self.sim.leds.lit()
        stones = self.sim.stones.cells
        # Each kind shown on the stone it lights now (the last move's ring is
        # white on a black stone, red on a white one): redrawn when that changes.
        lit = sorted((code, next(stones[pl] for pl, c in lights.items() if c == code))
                     for code in set(lights.values()))
        lit.sort(key=lambda k: (k[0] & 0x0F, k[0]))
        if lit == self._legend_shown:
            return
        self._legend_shown = lit
        lc = self.legend_canvas
        lc.delete("all")
        lc.create_text(4, 8, anchor="w", text="mark on the point, LED up-right")
        for i, (code, on) in enumerate(lit[:8]):
            y = 34 + 24 * i
            # The mark as it shows on this kind's stone now (a cross on a
            # stone, a ring on the last move) on a patch of wood.
            lc.create_rectangle(2, y - 11, 48, y + 11, fill=WOOD, outline="")
            if on != EMPTY:
                fill, edge = ("#141414", "#000000") if on == BLACK else ("#f2f2ec", "#7a7a72")
                lc.create_oval(4, y - 10, 24, y + 10, fill=fill, outline=edge)
            draw_mark(lc, 14, y, 22, code, on, "")
            rgb = shown_bright(frame.PALETTE[code & 0x0F])
            r = 4 if code & 0xF0 == frame.DIM else 6
            lc.create_oval(38 - r, y - r, 38 + r, y + r, fill=hex_colour(rgb), outline=OUTLINE)
            lc.create_text(56, y, anchor="w", text="%s (LED %s)" % (
                nextstep.light_name(code).split("/")[0].replace("-", " "),
                PATTERN_WORDS.get(code & 0xF0, "")))

    def marks_over_stones(self):
        """Points whose light's mark is drawn above the stone standing there."""
        c = self.canvas
        order = {item: i for i, item in enumerate(c.find("all"))}
        out = []
        for pl, stone in enumerate(self.sim.stones.cells):
            marks = c.find_withtag("m%d" % pl)
            if stone != EMPTY and marks and \
                    min(order[m] for m in marks) > order[self.stones[pl][1]]:
                out.append(self.sim.vertex(pl))
        return out
