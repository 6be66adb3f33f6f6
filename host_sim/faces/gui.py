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

This module is the window and the person's hand in it; the board on its
canvas is drawn by gui_board.py, each light's colours and marks come from
gui_marks.py.
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
from host_sim.faces.gui_board import LED_AT, BoardCanvas
from host_sim.faces.gui_marks import WOOD, hex_colour, mark_shape
from host_sim.sim.virtual import PUT_CODES, make_config

DRAW_MS = 50  # ~20 Hz: fast enough for the 125 ms flashes of "wrong" (frame.FLASH_MS)
HAND_SHOWN_MS = 1000  # a hand held over the board (key h) stays this long
HAND_MODES = (("Follow the board", 0), ("Black", BLACK), ("White", WHITE))


class BoardView(BoardCanvas):
    """The window: canvas, buttons and status line around one Simulator
    (the board's drawing is BoardCanvas's, host_sim/faces/gui_board.py)."""

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

    def on_window(self, event):
        if event.widget is self.root:
            wrap = max(300, event.width - 20)
            self.next_label.config(wraplength=wrap)
            self.status_label.config(wraplength=wrap)

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
            self.status_canvas.itemconfigure(item,
                                             fill=hex_colour(tuple(v * 220 // peak for v in rgb)))
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
