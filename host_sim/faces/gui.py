"""The simulator in a Tk window: a wooden board, stones, and the light beside every point.

The mouse is the person's hand, not a rules engine: click an empty point to
put down a stone of the colour in hand, click a stone to lift it, drag a
stone to slide it (off the board to take it away).  Key c switches the
colour in hand, h holds a hand over the board.  Illegal or sloppy handling
is allowed: the firmware's prompts are what there is to see.

Each light is drawn where the real board's LED shines through its hole: up
and to the right of its point (host_sim/tools/geometry.py, the maker's
guide's figure).  What a light asks for is also marked on the point, bold
and steady, so it reads at a glance at 19x19 and in every frame of a blink:
a cross on a stone to lift, a barred circle on a stone that is wrong there
(illegal, ko, superko, wrong colour: their LED flashes, where a stone to lift
blinks), a ring the size of a stone where one is to be put, a ring on the
last move, digits as blocks above the stones.  Shape and motion, not only
colour, tell the kinds apart.

With an engine (python -m host_sim --engine CMD) the window is the board in
a game against it (host_sim/sim/session.py): the engine's moves light up as
"place this stone" prompts, the person's moves go to the engine.
"""
import json
import os
import signal
import sys
import tkinter as tk
from tkinter import filedialog, messagebox, simpledialog

from gogadget import frame, points, rules as rules_mod, scan
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.faces import nextstep
from host_sim.tools import geometry
from host_sim.sim.virtual import PUT_CODES, make_config

WOOD = "#dcb35c"
WOOD_RGB = (0xdc, 0xb3, 0x5c)
SHADOW = "#a8843c"  # a stone's shadow on the wood
LINE = "#3a2a10"
HAND = "#e8b090"  # a hand over the board (stippled: the board shows through)
DRAW_MS = 50  # ~20 Hz: fast enough for the 125 ms flashes of "wrong" (frame.FLASH_MS)
HAND_SHOWN_MS = 1000  # a hand held over the board (key h) stays this long
STATUS_NAMES = ("turn", "phase", "alert")
MARGIN = 1.3  # board edge to the first line, in cells: room for the coordinates
STONE_R = 0.47  # stone radius, in cells
# The LED's light pipe, up and to the right of its point, the same fraction
# of the grid pitch as on the real board: rings fading from the LED's colour
# to the wood (dim lights a smaller spot), in a dark rim so it shows on wood.
LED_AT = geometry.led_offset_pitch()
GLOW_RINGS = ((0.21, 0.35), (0.16, 0.7), (0.11, 1.0))  # (radius in cells, strength)
DIM_RINGS = ((0.12, 0.6), (0.08, 1.0))
# The mark on the point for each kind of light (palette index -> shape).
LIFT = "cross"  # take this stone away: a bold cross on it, in the light's colour
WRONG = "barred"  # this stone may not stand here: a circle with a bar (no entry)
MARKS = {frame.LAST: "ring", frame.ILLEGAL: WRONG, frame.KO: WRONG, frame.SUPERKO: WRONG,
         frame.REMOVE: LIFT, frame.WRONG_COLOUR: WRONG, frame.PUT_BLACK: "ghost",
         frame.PUT_WHITE: "ghost", frame.TERRITORY_BLACK: "square",
         frame.TERRITORY_WHITE: "square", frame.DEAD: "triangle", frame.DIGIT: "block",
         frame.FAULT: "bang", frame.OK_GREEN: "dot", frame.INFO: "dot"}
OUTLINE = "#1a1008"  # round every mark, so it stands out on wood and on both stones
HAND_MODES = (("Follow the board", 0), ("Black", BLACK), ("White", WHITE))
PATTERN_WORDS = {frame.STEADY: "steady", frame.BLINK: "blinks", frame.FAST: "flashes",
                 frame.DIM: "dim"}
RING_ON = {BLACK: "#ffffff", WHITE: "#d01010"}  # the last move's ring: it shows on that stone


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _mix(rgb, k, base=WOOD_RGB):
    """rgb seen through the wood at strength k (0: wood only, 1: the light)."""
    return _hex(tuple(int(w + (v - w) * k) for v, w in zip(rgb, base)))


def _bright(rgb):
    # LEDs under a wooden board: the hue is kept and the strength shown at a
    # readable level, so even a budget-dimmed light is seen.
    peak = max(rgb) or 1
    return tuple(v * 255 // peak for v in rgb)


def mark_shape(code):
    """The mark drawn on a point for a light code (a MARKS shape)."""
    if code == frame.OK_GREEN | frame.BLINK:
        return "takeback"
    return MARKS.get(code & 0x0F)


def draw_mark(c, x, y, cell, code, stone, tag):
    """The mark of a light code at a point (x, y) of a canvas, scaled to cell."""
    shape = mark_shape(code)
    rgb = _bright(frame.PALETTE[code & 0x0F])
    colour = _hex(rgb)
    # Whole-pixel widths: Tk repaints a deleted item's box from them, and a
    # fractional wide outline left slivers on the wood.
    w = max(2, int(round(cell * 0.09)))
    kw = dict(tags=tag) if tag else {}
    if shape == LIFT:
        d = cell * 0.24
        for width, fill in ((int(w * 1.9), OUTLINE), (w, colour)):
            c.create_line(x - d, y - d, x + d, y + d, width=width, fill=fill, capstyle="round", **kw)
            c.create_line(x - d, y + d, x + d, y - d, width=width, fill=fill, capstyle="round", **kw)
    elif shape == WRONG:
        r = cell * 0.26
        d = r * 0.7
        for width, fill in ((int(w * 1.9), OUTLINE), (w, colour)):
            c.create_oval(x - r, y - r, x + r, y + r, outline=fill, width=width, **kw)
            c.create_line(x - d, y - d, x + d, y + d, width=width, fill=fill, **kw)
    elif shape == "ring":  # the last move: a ring in the colour that shows on that stone
        r = cell * 0.2
        ink = RING_ON.get(stone, OUTLINE)
        c.create_oval(x - r, y - r, x + r, y + r, outline=ink, width=w, **kw)
    elif shape == "ghost":  # a stone of that colour belongs here: its outline, dashed
        r = cell * STONE_R
        ink = "#141414" if code & 0x0F == frame.PUT_BLACK else "#ffffff"
        # Half the stone's pixels, the wood and the lines showing through.
        c.create_oval(x - r, y - r, x + r, y + r, fill=ink, stipple="gray25", outline="", **kw)
        c.create_oval(x - r, y - r, x + r, y + r, outline=OUTLINE, width=int(w * 1.8), **kw)
        c.create_oval(x - r, y - r, x + r, y + r, outline=ink, width=w, dash=(6, 3), **kw)
        c.create_oval(x - r * 0.75, y - r * 0.75, x + r * 0.75, y + r * 0.75, outline=colour,
                      width=max(1, w // 2), **kw)
    elif shape == "takeback":
        r = cell * STONE_R
        c.create_oval(x - r, y - r, x + r, y + r, outline=colour, width=w, dash=(4, 3), **kw)
    elif shape == "square":
        r = cell * 0.16
        c.create_rectangle(x - r, y - r, x + r, y + r, fill=colour, outline=OUTLINE, **kw)
    elif shape == "triangle":
        r = cell * 0.22
        c.create_polygon(x, y - r, x + r, y + r * 0.7, x - r, y + r * 0.7, fill=colour,
                         outline=OUTLINE, width=max(1, w // 2), **kw)
    elif shape == "block":  # a pixel of the result's digits, over any stone
        r = cell * 0.46
        c.create_rectangle(x - r, y - r, x + r, y + r, fill=colour, outline="", **kw)
    elif shape == "bang":
        r = cell * 0.22
        c.create_polygon(x, y - r, x + r, y + r * 0.8, x - r, y + r * 0.8, fill=colour,
                         outline=OUTLINE, width=max(1, w // 2), **kw)
        c.create_text(x, y + r * 0.2, text="!", fill="#ffffff",
                      font=("TkDefaultFont", max(7, int(cell * 0.22)), "bold"), **kw)
    elif shape == "dot":
        r = cell * 0.1
        c.create_oval(x - r, y - r, x + r, y + r, fill=colour, outline=OUTLINE, **kw)


class BoardView:
    """The window: canvas, buttons and status line around one Simulator."""

    def __init__(self, root, choices, noise=0.0, seed=None, state_file=None, versus=None,
                 **session_opts):
        self.root = root
        self.session_opts = session_opts  # host_sim.sim.session.open_session: gtp, store_dir
        self.failed = None  # the game's controller failed: the error, and the window closes
        self.choices = dict(choices)
        self.versus = versus  # match.start() options when playing an engine
        self.match = None
        self.noise = noise
        self.seed = seed
        self.state_file = state_file
        self.sim = None
        # 0: the stone in hand follows the turn light; BLACK/WHITE: chosen.
        self.hand_mode = tk.IntVar(value=0)
        self.last_event = tk.StringVar(value="")
        self.status = tk.StringVar(value="")
        self.next_text = tk.StringVar(value="")
        self._last_event_kind = None
        self._press = None
        self._state_written = None
        self._draw_due = 0
        self._relayout = None
        self._hand_shown = False
        self._legend_shown = None
        self.cell = None
        root.title("Go Gadget simulator")
        self._build_menu()
        self.canvas = tk.Canvas(root, background=WOOD, highlightthickness=0)
        self.canvas.grid(row=0, column=0, sticky="nsew", padx=4, pady=4)
        root.rowconfigure(0, weight=1)
        root.columnconfigure(0, weight=1)
        side = tk.Frame(root)
        side.grid(row=0, column=1, sticky="n", padx=6, pady=6)
        tk.Label(side, text="Stone in hand (key c, a)").pack(anchor="w")
        for text, value in HAND_MODES:
            tk.Radiobutton(side, text=text, variable=self.hand_mode, value=value,
                           command=self.draw).pack(anchor="w")
        self.hand_canvas = tk.Canvas(side, width=200, height=26, highlightthickness=0)
        self.hand_canvas.pack(anchor="w", pady=(0, 6))
        self.buttons = {}
        for label, name in (("Pass", "pass"), ("Confirm", "confirm"), ("New game", "new"),
                            ("Resign", "resign"), ("Study (New held)", "study")):
            self.buttons[name] = tk.Button(side, text=label, width=10,
                                           command=lambda n=name: self.sim.press(n))
            self.buttons[name].pack(pady=2, fill="x")
        self.buttons["hand"] = tk.Button(side, text="Hand over board", command=self.hand)
        self.buttons["hand"].pack(pady=(10, 2), fill="x")
        tk.Label(side, text="Status lights").pack(anchor="w", pady=(8, 0))
        self.status_canvas = tk.Canvas(side, width=150, height=76, highlightthickness=0)
        self.status_canvas.pack(anchor="w")
        tk.Label(side, text="Lights on the board").pack(anchor="w", pady=(8, 0))
        self.legend_canvas = tk.Canvas(side, width=250, height=230, highlightthickness=0)
        self.legend_canvas.pack(anchor="w")
        self.next_label = tk.Label(root, textvariable=self.next_text, anchor="w", justify="left",
                                   font=("TkDefaultFont", 11, "bold"), wraplength=700)
        self.next_label.grid(row=1, column=0, columnspan=2, sticky="we", padx=6)
        self.status_label = tk.Label(root, textvariable=self.status, anchor="w", justify="left",
                                     wraplength=700)
        self.status_label.grid(row=2, column=0, columnspan=2, sticky="we", padx=6)
        tk.Label(root, textvariable=self.last_event, anchor="w", fg="#604000").grid(
            row=3, column=0, columnspan=2, sticky="we", padx=6, pady=(0, 6))
        self.canvas.bind("<ButtonPress-1>", self.on_press)
        self.canvas.bind("<ButtonRelease-1>", self.on_release)
        self.canvas.bind("<Configure>", self.on_resize)
        root.bind("<Configure>", self.on_window, add="+")
        root.bind("<Key-c>", lambda e: self.switch_colour())
        root.bind("<Key-a>", lambda e: self.follow_turn())
        root.bind("<Key-h>", lambda e: self.hand())
        self.new_board()
        root.after(self.sim.period_ms, self.tick)

    # -- set-up -------------------------------------------------------------

    def _build_menu(self):
        menu = tk.Menu(self.root)
        filem = tk.Menu(menu, tearoff=0)
        filem.add_command(label="Save SGF...", command=self.save)
        filem.add_command(label="Load SGF...", command=self.load)
        filem.add_separator()
        filem.add_command(label="Quit", command=self.root.destroy)
        menu.add_cascade(label="File", menu=filem)
        game = tk.Menu(menu, tearoff=0)
        self._size = tk.IntVar(value=self.choices["size"])
        self._sensors = tk.StringVar(value=self.choices["sensors"])
        self._preset = tk.StringVar(value=self.choices["preset"])
        self._handicap = tk.IntVar(value=self.choices.get("handicap") or 0)
        sizes = tk.Menu(game, tearoff=0)
        for n in points.SIZES:
            sizes.add_radiobutton(label="%dx%d" % (n, n), variable=self._size, value=n,
                                  command=self.menu_changed)
        game.add_cascade(label="Board size", menu=sizes)
        kinds = tk.Menu(game, tearoff=0)
        for k in scan.SENSOR_KINDS:
            kinds.add_radiobutton(label=k, variable=self._sensors, value=k, command=self.menu_changed)
        game.add_cascade(label="Sensors", menu=kinds)
        presets = tk.Menu(game, tearoff=0)
        for name in rules_mod.PRESETS:
            presets.add_radiobutton(label=name, variable=self._preset, value=name,
                                    command=self.menu_changed)
        game.add_cascade(label="Rules", menu=presets)
        hc = tk.Menu(game, tearoff=0)
        for n in (0, 2, 3, 4, 5, 6, 7, 8, 9):
            hc.add_radiobutton(label=str(n) if n else "none", variable=self._handicap, value=n,
                               command=self.menu_changed)
        game.add_cascade(label="Handicap", menu=hc)
        game.add_command(label="Komi...", command=self.ask_komi)
        menu.add_cascade(label="Game", menu=game)
        self.root.config(menu=menu)

    def menu_changed(self):
        wanted = dict(self.choices, size=self._size.get(), sensors=self._sensors.get(),
                      preset=self._preset.get(), handicap=self._handicap.get())
        self.restart(wanted)

    def ask_komi(self):
        value = simpledialog.askfloat("Komi", "Komi (multiple of 0.5)", parent=self.root)
        if value is not None:
            self.restart(dict(self.choices, komi=value))

    def restart(self, wanted):
        try:
            make_config(**wanted)
        except ValueError as exc:
            messagebox.showerror("Go Gadget", str(exc), parent=self.root)
            return False
        self.choices = wanted
        # Other choices from the menus: a new game (the board keeps the unfinished one).
        self.session_opts.update(new=True, size=wanted.get("size"))
        if self.versus is not None:
            self.versus = dict(self.versus, new=True)
        self.new_board()
        return True

    def new_board(self):
        """A fresh virtual board running the firmware with the current choices."""
        self.close()
        from host_sim.sim import session
        self.sim, self.match = session.open_session(self.choices, noise=self.noise, seed=self.seed,
                                                    versus=self.versus, **self.session_opts)
        news = nextstep.resume_news(self.sim.events)
        if news is not None:
            # A kept game resumed at start: say so, and where.
            _, kind, text = self.sim.events[news]
            self._last_event_kind = kind
            self.last_event.set("last event: %s: %s" % (kind, text))
        self._layout()

    def close(self):
        if self.match is not None:
            self.match.close()
            self.match.save()
            self.match = None
        if self.sim is not None:
            from host_sim.sim import session
            self.unfinished = session.unfinished_note(self.sim) \
                if self.session_opts.get("store_dir") else ""
            self.sim.close()
            self.sim = None

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

    def on_window(self, event):
        if event.widget is self.root:
            wrap = max(300, event.width - 20)
            self.next_label.config(wraplength=wrap)
            self.status_label.config(wraplength=wrap)

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

    # -- the hand -----------------------------------------------------------

    def colour_in_hand(self, place=None):
        if place is not None:
            # A "place this stone" light: the person takes that colour from
            # the bowls (an engine's move needs no switching of the hand).
            code = self.sim.leds.code(place)
            prompted = PUT_CODES.get(code & 0x0F)
            if prompted:
                return prompted
            turn = nextstep.turn_colour(self.sim)
            if code == frame.OK_GREEN | frame.BLINK and turn:
                # A take-back waits for the last move's stone: the one put back.
                return BLACK + WHITE - turn
        mode = self.hand_mode.get()
        if mode and self.sim.config.sensors != scan.SENSOR_OCCUPANCY:
            return mode
        # Follow the board (the occupancy sensors cannot tell colours anyway):
        # the colour its lights ask to be put down, else the stone the turn
        # light asks for, as two players at one board take turns from their
        # own bowls.
        return self.asked_colour() or nextstep.turn_colour(self.sim) or self.sim.referee.to_move()

    def asked_colour(self):
        """The one colour the "put a stone here" lights ask for, if they ask for one."""
        asked = set(PUT_CODES[code & 0x0F] for code in self.sim.leds.lit().values()
                    if code & 0x0F in PUT_CODES)
        return asked.pop() if len(asked) == 1 else None

    def switch_colour(self):
        """Key c: the other colour than the one in hand, kept until key a."""
        self.hand_mode.set(BLACK + WHITE - self.colour_in_hand())
        self.draw()

    def follow_turn(self):
        """Key a: the stone in hand follows the turn again."""
        self.hand_mode.set(0)
        self.draw()

    def hand(self):
        self.sim.stones.hand(self.sim.clock.now_ms, HAND_SHOWN_MS)

    def on_press(self, event):
        self._press = self.place_at(event.x, event.y)

    def on_release(self, event):
        start, self._press = self._press, None
        end = self.place_at(event.x, event.y)
        stones = self.sim.stones
        try:
            if start is None:
                return
            if end == start:
                if stones.cells[start] == EMPTY:
                    stones.put(start, self.colour_in_hand(start))
                else:
                    stones.lift(start)
            elif stones.cells[start] != EMPTY:
                if end is None:
                    stones.lift(start)  # dragged off the board
                elif stones.cells[end] == EMPTY:
                    stones.slide(start, end)
        except ValueError as exc:
            self.last_event.set("hand: %s" % exc)

    # -- files --------------------------------------------------------------

    def save(self):
        path = filedialog.asksaveasfilename(defaultextension=".sgf",
                                            filetypes=[("SGF", "*.sgf")], parent=self.root)
        if path:
            with open(path, "w") as f:
                f.write(self.sim.referee.sgf())

    def load(self, path=None):
        from host_sim.person.replay import load_game, load_into

        if self.match is not None:
            messagebox.showerror("Go Gadget", "a game against %s is on: no loading" % self.match.name,
                                 parent=self.root)
            return
        path = path or filedialog.askopenfilename(filetypes=[("SGF", "*.sgf")], parent=self.root)
        if not path:
            return
        try:
            with open(path, "rb") as f:
                data = f.read()
            game = load_game(data)
            if not self.restart(dict(self.choices, size=game.size, komi=float(game.komi),
                                     handicap=0)):
                return
            self._size.set(game.size)
            load_into(self.sim, data)
        except (OSError, ValueError) as exc:
            messagebox.showerror("Go Gadget", "cannot load %s: %s" % (path, exc), parent=self.root)

    # -- the loop -----------------------------------------------------------

    def tick(self):
        sim = self.sim
        sim.step()
        if sim.events and sim.events[-1][0] == sim.clock.now_ms:
            _, kind, text = sim.events[-1]
            self._last_event_kind = kind
            self.last_event.set("last event: %s: %s" % (kind, text))
        if self.match is not None and self.match.done:
            self.match.save()
            if self.match.error or getattr(self.match, "ends_session", False):
                self.failed = self.match.error
                self.root.destroy()  # no window left waiting on a dead game
                return
        if self._laid_out is not None and self._laid_out[2] != sim.size:
            self._layout()  # the game changed size (a host's boardsize, a kept game resumed)
        if sim.clock.now_ms >= self._draw_due:
            self._draw_due = sim.clock.now_ms + DRAW_MS
            self.draw()
        self.root.after(sim.period_ms, self.tick)

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
        rgb = _bright(frame.PALETTE[code & 0x0F])
        pattern = code & 0xF0
        rings = DIM_RINGS if pattern == frame.DIM else GLOW_RINGS
        items = dim if pattern == frame.DIM else wide
        for item, (_, k) in zip(items, rings):
            c.itemconfigure(item, fill=_mix(rgb, k), state="normal")
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

    def draw(self, force=False):
        sim, c = self.sim, self.canvas
        now = sim.clock.now_ms
        for pl in range(sim.size * sim.size):
            stone = sim.stones.cells[pl]
            if stone != self._stone_shown[pl] or force:
                self._stone_shown[pl] = stone
                self._draw_stone(pl, stone)
            code = sim.leds.code(pl)
            shown = (code, sim.leds.rgb(pl, now) != (0, 0, 0))
            if shown != self._shown[pl] or force:
                self._shown[pl] = shown
                self._draw_light(pl, *shown)
            if (code, stone) != self._marked[pl] or force:
                self._marked[pl] = (code, stone)
                self._draw_mark(pl, code)
        hand = now < sim.stones.hand_until_ms
        if hand != self._hand_shown:
            self._hand_shown = hand
            for item in self.hand_items:
                c.itemconfigure(item, state="normal" if hand else "hidden")
        for i, item in enumerate(self.status_items):
            rgb = sim.leds.status_rgb(i, now)
            peak = max(rgb) or 1
            # Shown at a readable strength: the budget dims real pixels a lot.
            self.status_canvas.itemconfigure(item, fill=_hex(tuple(v * 220 // peak for v in rgb)))
        self._draw_in_hand()
        self._draw_legend()
        self.next_text.set(self.next_step())
        text = nextstep.detail(sim)
        if self.match is not None:
            text = self.match.status() + "\n" + text
        self.status.set(text)
        if self._last_event_kind == "illegal" and not any(
                code & 0xF0 == frame.FAST for code in sim.leds.lit().values()):
            # The stone it was about is lifted or put right: the message goes.
            self._last_event_kind = None
            self.last_event.set("")
        if self.state_file:
            self.write_state()

    def next_step(self):
        """What to do next; with how to change the stone in hand when it is wrong."""
        sim = self.sim
        text = nextstep.next_step(sim)
        if sim.clock.now_ms < sim.stones.hand_until_ms:
            text = "a hand over the board: the sensors wait until it is gone; " + text
        wrong = any(code & 0x0F == frame.WRONG_COLOUR for code in sim.leds.lit().values())
        mode = self.hand_mode.get()
        turn = nextstep.turn_colour(sim)
        if sim.referee.phase == "play" and (wrong or (mode and turn and mode != turn)):
            text += (" (stone in hand: %s; key a or \"Follow the board\" gives the stone the board"
                     " asks for, key c the other colour)" % nextstep.WORDS[self.colour_in_hand()])
        return text

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
            rgb = _bright(frame.PALETTE[code & 0x0F])
            r = 4 if code & 0xF0 == frame.DIM else 6
            lc.create_oval(38 - r, y - r, 38 + r, y + r, fill=_hex(rgb), outline=OUTLINE)
            lc.create_text(56, y, anchor="w", text="%s (LED %s)" % (
                nextstep.light_name(code).split("/")[0].replace("-", " "),
                PATTERN_WORDS.get(code & 0xF0, "")))

    def state(self):
        sim = self.sim
        size = sim.size
        rx, ry = self.canvas.winfo_rootx(), self.canvas.winfo_rooty()
        return {
            "mapped": bool(self.canvas.winfo_viewable()),
            "size": size, "sensors": sim.config.sensors, "preset": sim.config.preset,
            "stones": {sim.vertex(pl): points.colour_name(c) for pl, c in enumerate(sim.stones.cells)
                       if c != EMPTY},
            "lights": {sim.vertex(pl): nextstep.light_name(code)
                       for pl, code in sim.leds.lit().items()},
            # What the window says: what to do next, then the game's figures.
            "next": self.next_text.get(), "status": self.status.get(),
            "last_event": self.last_event.get(),
            "referee": sim.referee.status(), "phase": sim.referee.phase,
            "in_hand": points.colour_name(self.colour_in_hand()),
            "hand_mode": "turn" if not self.hand_mode.get() else "chosen",
            "in_hand_text": getattr(self, "in_hand_text", ""),
            "led_at": LED_AT,  # the LED's offset up and right, in cells
            "marks_over_stones": self.marks_over_stones(),
            # The mark drawn on each lit point, and the legend's rows: each
            # kind of light on the stone it lights (the last move's ring).
            "marks": {sim.vertex(pl): mark_shape(code) for pl, code in sim.leds.lit().items()},
            "legend": [[nextstep.light_name(code), points.colour_name(on) if on else ""]
                       for code, on in self._legend_shown or []],
            "hand_over_board": bool(self._hand_shown),
            "game": self.match.status() if self.match is not None else None,
            "game_log": list(self.match.log[-30:]) if self.match is not None else [],
            "events": [[k, t] for _, k, t in sim.events[-30:]],
            # Screen positions of every point, so a test can click on it, and
            # of the coordinates round the board and the star points.
            "cell": self.cell,
            "canvas": [rx, ry, self.canvas.winfo_width(), self.canvas.winfo_height()],
            "screen": {sim.vertex(pl): [rx + self.xy(pl)[0], ry + self.xy(pl)[1]]
                       for pl in range(size * size)},
            "labels": {k: [rx + x, ry + y] for k, (x, y) in self.labels.items()},
            "stars": [sim.vertex(r * size + c) for r, c in nextstep.star_points(size)],
            "buttons": {name: [b.winfo_rootx() + b.winfo_width() // 2,
                               b.winfo_rooty() + b.winfo_height() // 2]
                        for name, b in self.buttons.items()},
        }

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

    def write_state(self):
        text = json.dumps(self.state(), sort_keys=True)
        if text == self._state_written:
            return
        self._state_written = text
        tmp = self.state_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, self.state_file)  # readers never see half a file


def main(choices, noise=0.0, seed=None, state_file=None, load=None, versus=None, **session_opts):
    root = tk.Tk()
    view = BoardView(root, choices, noise=noise, seed=seed, state_file=state_file, versus=versus,
                     **session_opts)
    if load:
        root.after(100, lambda: view.load(load))
    # A plain kill still ends the engine and keeps the record (--out).
    signal.signal(signal.SIGTERM, lambda *_: root.after_idle(root.destroy))
    try:
        root.mainloop()
    finally:
        view.close()  # ends the engine and keeps the last record
    if getattr(view, "unfinished", ""):
        print("host_sim: " + view.unfinished, file=sys.stderr)
    if view.failed:
        print("gogadget: %s" % view.failed, file=sys.stderr)
        return 1
    return 0
