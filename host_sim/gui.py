"""The simulator in a Tk window: a wooden board, stones, and the light under every point.

The mouse is the person's hand, not a rules engine: click an empty point to
put down a stone of the colour in hand, click a stone to lift it, drag a
stone to slide it (off the board to take it away).  Key c switches the
colour in hand, h holds a hand over the board.  Illegal or sloppy handling
is allowed: the firmware's prompts are what there is to see.

With an engine (python -m host_sim --engine CMD) the window is the board in
a game against it (host_sim/match.py): the engine's moves light up as
"place this stone" prompts, the person's moves go to the engine.
"""
import json
import os
import signal
import tkinter as tk
from tkinter import filedialog, messagebox, simpledialog

from gogadget import points, rules as rules_mod, scan
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.virtual import PUT_CODES, Simulator, code_name, make_config

WOOD = "#dcb35c"
LINE = "#3a2a10"
DRAW_MS = 50  # ~20 Hz: fast enough for the 4 Hz "wrong" blink
STATUS_NAMES = ("turn", "phase", "alert")


def _hex(rgb):
    return "#%02x%02x%02x" % rgb


def _glow(rgb):
    # LEDs under a wooden board show as a tint on the wood.  The hue is kept
    # and the strength compressed, so even a budget-dimmed light is seen.
    wr, wg, wb = 0xdc, 0xb3, 0x5c
    peak = max(rgb)
    r, g, b = (v * 255 // peak for v in rgb)
    k = 0.55 + 0.45 * min(1.0, peak / 120.0)
    return _hex((int(wr + (r - wr) * k), int(wg + (g - wg) * k), int(wb + (b - wb) * k)))


class BoardView:
    """The window: canvas, buttons and status line around one Simulator."""

    def __init__(self, root, choices, noise=0.0, seed=None, state_file=None, versus=None):
        self.root = root
        self.choices = dict(choices)
        self.versus = versus  # match.start() options when playing an engine
        self.match = None
        self.noise = noise
        self.seed = seed
        self.state_file = state_file
        self.sim = None
        self.hand_colour = tk.IntVar(value=BLACK)
        self.last_event = tk.StringVar(value="")
        self.status = tk.StringVar(value="")
        self._press = None
        self._state_written = None
        self._draw_due = 0
        root.title("Go Gadget simulator")
        self._build_menu()
        self.canvas = tk.Canvas(root, background=WOOD, highlightthickness=0)
        self.canvas.grid(row=0, column=0, rowspan=2, padx=4, pady=4)
        side = tk.Frame(root)
        side.grid(row=0, column=1, sticky="n", padx=6, pady=6)
        tk.Label(side, text="Stone in hand").pack(anchor="w")
        tk.Radiobutton(side, text="Black", variable=self.hand_colour, value=BLACK).pack(anchor="w")
        tk.Radiobutton(side, text="White", variable=self.hand_colour, value=WHITE).pack(anchor="w")
        for label, name in (("Pass", "pass"), ("Confirm", "confirm"), ("New game", "new"),
                            ("Resign", "resign")):
            tk.Button(side, text=label, width=10,
                      command=lambda n=name: self.sim.press(n)).pack(pady=2, fill="x")
        tk.Button(side, text="Hand over board", command=self.hand).pack(pady=(10, 2), fill="x")
        self.status_canvas = tk.Canvas(side, width=120, height=80, highlightthickness=0)
        self.status_canvas.pack(pady=8)
        tk.Label(root, textvariable=self.status, anchor="w", justify="left").grid(
            row=2, column=0, columnspan=2, sticky="we", padx=6)
        tk.Label(root, textvariable=self.last_event, anchor="w", fg="#604000").grid(
            row=3, column=0, columnspan=2, sticky="we", padx=6, pady=(0, 6))
        self.canvas.bind("<ButtonPress-1>", self.on_press)
        self.canvas.bind("<ButtonRelease-1>", self.on_release)
        root.bind("<Key-c>", lambda e: self.switch_colour())
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
        self.new_board()
        return True

    def new_board(self):
        """A fresh virtual board running the firmware with the current choices."""
        self.close()
        if self.versus is None:
            self.sim = Simulator(make_config(**self.choices), noise=self.noise, seed=self.seed)
        else:
            from host_sim import match
            # The relay sets handicap stones and komi over GTP, as a host does.
            cfg = make_config(**dict(self.choices, handicap=0))
            self.sim, self.match = match.start(cfg, komi=self.choices.get("komi"),
                                               handicap=self.choices.get("handicap") or 0,
                                               noise=self.noise, seed=self.seed, **self.versus)
        self._layout()

    def close(self):
        if self.match is not None:
            self.match.close()
            self.match.save()
            self.match = None
        if self.sim is not None:
            self.sim.close()
            self.sim = None

    def _layout(self):
        size = self.sim.size
        self.cell = {9: 52, 13: 40}.get(size, 30)
        self.margin = self.cell
        side = self.margin * 2 + self.cell * (size - 1)
        c = self.canvas
        c.delete("all")
        c.config(width=side, height=side)
        end = self.margin + self.cell * (size - 1)
        for i in range(size):
            x = self.margin + i * self.cell
            c.create_line(x, self.margin, x, end, fill=LINE)
            c.create_line(self.margin, x, end, x, fill=LINE)
            c.create_text(x, self.margin * 0.45, text=points.COLUMNS[i], fill=LINE)
            c.create_text(self.margin * 0.45, x, text=str(size - i), fill=LINE)
        for r, col in points.star_points(size):
            x, y = self.xy(r * size + col)
            c.create_oval(x - 3, y - 3, x + 3, y + 3, fill=LINE, outline=LINE)
        self.glows = []
        self.stones = []
        rg, rs = self.cell * 0.5, self.cell * 0.4
        for pl in range(size * size):
            x, y = self.xy(pl)
            # Drawn under the stone and a little wider, as light leaks round it.
            self.glows.append(c.create_oval(x - rg, y - rg, x + rg, y + rg, fill="", outline="",
                                            state="hidden"))
        for pl in range(size * size):
            x, y = self.xy(pl)
            self.stones.append(c.create_oval(x - rs, y - rs, x + rs, y + rs, fill="", outline="",
                                             state="hidden"))
        self.status_items = []
        sc = self.status_canvas
        sc.delete("all")
        for i, name in enumerate(STATUS_NAMES):
            sc.create_text(4, 12 + i * 24, text=name, anchor="w")
            self.status_items.append(sc.create_oval(60, 4 + i * 24, 76, 20 + i * 24,
                                                    fill="#000000", outline="#444444"))
        self._shown = [None] * (size * size)
        self._stone_shown = [None] * (size * size)
        self.draw(force=True)

    # -- geometry -----------------------------------------------------------

    def xy(self, place):
        size = self.sim.size
        row, col = divmod(place, size)
        return self.margin + col * self.cell, self.margin + (size - 1 - row) * self.cell

    def place_at(self, x, y):
        size = self.sim.size
        col = int(round((x - self.margin) / self.cell))
        row = size - 1 - int(round((y - self.margin) / self.cell))
        if 0 <= col < size and 0 <= row < size:
            return row * size + col
        return None

    # -- the hand -----------------------------------------------------------

    def colour_in_hand(self, place=None):
        if place is not None:
            # A "place this stone" light: the person takes that colour from
            # the bowls (an engine's move needs no switching of the hand).
            prompted = PUT_CODES.get(self.sim.leds.code(place) & 0x0F)
            if prompted:
                return prompted
        if self.sim.config.sensors == scan.SENSOR_OCCUPANCY:
            # The sensors cannot tell; use the stone the turn light asks for.
            return self.sim.referee.to_move()
        return self.hand_colour.get()

    def switch_colour(self):
        self.hand_colour.set(BLACK + WHITE - self.hand_colour.get())

    def hand(self):
        self.sim.stones.hand(self.sim.clock.now_ms)

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
        from host_sim.replay import load_game, load_into

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
            self.last_event.set("%s: %s" % (kind, text))
        if self.match is not None and self.match.done:
            self.match.save()
        if sim.clock.now_ms >= self._draw_due:
            self._draw_due = sim.clock.now_ms + DRAW_MS
            self.draw()
        self.root.after(sim.period_ms, self.tick)

    def draw(self, force=False):
        sim, c = self.sim, self.canvas
        now = sim.clock.now_ms
        for pl in range(sim.size * sim.size):
            stone = sim.stones.cells[pl]
            if stone != self._stone_shown[pl] or force:
                self._stone_shown[pl] = stone
                if stone == EMPTY:
                    c.itemconfigure(self.stones[pl], state="hidden")
                else:
                    fill, edge = ("#111111", "#000000") if stone == BLACK else ("#f4f4f0", "#888888")
                    c.itemconfigure(self.stones[pl], fill=fill, outline=edge, state="normal")
            rgb = sim.leds.rgb(pl, now)
            if rgb != self._shown[pl] or force:
                self._shown[pl] = rgb
                if rgb == (0, 0, 0):
                    c.itemconfigure(self.glows[pl], state="hidden")
                else:
                    c.itemconfigure(self.glows[pl], fill=_glow(rgb), state="normal")
        for i, item in enumerate(self.status_items):
            rgb = sim.leds.status_rgb(i, now)
            peak = max(rgb) or 1
            # Shown at a readable strength: the budget dims real pixels a lot.
            self.status_canvas.itemconfigure(item, fill=_hex(tuple(v * 220 // peak for v in rgb)))
        text = sim.referee.status()
        if self.match is not None:
            text = self.match.status() + "\n" + text
        self.status.set(text)
        if self.state_file:
            self.write_state()

    def state(self):
        sim = self.sim
        size = sim.size
        rx, ry = self.canvas.winfo_rootx(), self.canvas.winfo_rooty()
        return {
            "mapped": bool(self.canvas.winfo_viewable()),
            "size": size, "sensors": sim.config.sensors, "preset": sim.config.preset,
            "stones": {sim.vertex(pl): points.colour_name(c) for pl, c in enumerate(sim.stones.cells)
                       if c != EMPTY},
            "lights": {sim.vertex(pl): code_name(code) for pl, code in sim.leds.lit().items()},
            "status": sim.referee.status(), "phase": sim.referee.phase,
            "game": self.match.status() if self.match is not None else None,
            "game_log": list(self.match.log[-30:]) if self.match is not None else [],
            "events": [[k, t] for _, k, t in sim.events[-30:]],
            # Screen position of every point, so a test can click on it.
            "screen": {sim.vertex(pl): [rx + self.xy(pl)[0], ry + self.xy(pl)[1]]
                       for pl in range(size * size)},
        }

    def write_state(self):
        text = json.dumps(self.state(), sort_keys=True)
        if text == self._state_written:
            return
        self._state_written = text
        tmp = self.state_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, self.state_file)  # readers never see half a file


def main(choices, noise=0.0, seed=None, state_file=None, load=None, versus=None):
    root = tk.Tk()
    view = BoardView(root, choices, noise=noise, seed=seed, state_file=state_file, versus=versus)
    if load:
        root.after(100, lambda: view.load(load))
    # A plain kill still ends the engine and keeps the record (--out).
    signal.signal(signal.SIGTERM, lambda *_: root.after_idle(root.destroy))
    try:
        root.mainloop()
    finally:
        view.close()  # ends the engine and keeps the last record
    return 0
