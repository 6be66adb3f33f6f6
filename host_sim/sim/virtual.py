"""The virtual board: physical stones, sensors, LEDs, buttons and a clock.

The simulator runs the firmware's own application (gogadget.app.App) with
these drivers in place of the hardware ones.  Nothing here knows a rule of
Go: the stones are only what a hand put down or lifted, and every decision
(moves, captures, prompts) comes back from the firmware through the LED
frame and the referee's events.
"""
import math
import random
import shutil
import tempfile

from gogadget import events, frame, points, scan
from gogadget.points import BLACK, EMPTY, WHITE

CALIBRATION_FILE = "calib.bin"  # as hw/pico.py keeps it on the board's flash
HAND_MS = 300  # how long a hand held over the board disturbs the sensors
HAND_SHARE = 0.3  # share of the points a hand covers at any one scan

# Frame codes the person acts on, and what they mean to a hand.
LIFT_CODES = (frame.REMOVE, frame.ILLEGAL, frame.KO, frame.SUPERKO)
PUT_CODES = {frame.PUT_BLACK: BLACK, frame.PUT_WHITE: WHITE}
ACTION_CODES = LIFT_CODES + tuple(PUT_CODES) + (frame.WRONG_COLOUR,)


class Clock:
    """Virtual milliseconds; the simulator decides when time passes."""

    def __init__(self, start_ms=0):
        self.now_ms = start_ms

    def advance(self, ms):
        self.now_ms += ms
        return self.now_ms


class Stones:
    """What physically lies on the board, by place (row * size + col)."""

    def __init__(self, size):
        self.size = size
        self.cells = bytearray(size * size)
        self.hand_until_ms = -1
        self.hand_share = HAND_SHARE
        self.changes = 0  # bumped by every put/lift, so sensors know to re-read

    def place(self, vertex_or_place):
        if isinstance(vertex_or_place, int):
            if not 0 <= vertex_or_place < len(self.cells):
                raise ValueError("no such point %d" % vertex_or_place)
            return vertex_or_place
        pt = points.parse_vertex(self.size, vertex_or_place)
        if pt == points.PASS:
            raise ValueError("a stone needs a point, not pass")
        return points.place(self.size, pt)

    def vertex(self, place):
        return points.vertex(self.size, points.place_point(self.size, place))

    def put(self, where, colour):
        pl = self.place(where)
        if colour not in (BLACK, WHITE):
            raise ValueError("a stone is black or white")
        if self.cells[pl] != EMPTY:
            raise ValueError("%s already holds a stone" % self.vertex(pl))
        self.cells[pl] = colour
        self.changes += 1
        return pl

    def lift(self, where):
        pl = self.place(where)
        colour = self.cells[pl]
        if colour == EMPTY:
            raise ValueError("no stone on %s" % self.vertex(pl))
        self.cells[pl] = EMPTY
        self.changes += 1
        return colour

    def slide(self, src, dst):
        a, b = self.place(src), self.place(dst)
        if self.cells[b] != EMPTY:
            raise ValueError("%s already holds a stone" % self.vertex(b))
        colour = self.lift(a)
        self.put(b, colour)
        return colour

    def hand(self, now_ms, duration_ms=HAND_MS, hands=1):
        """A hand reaching over the board: the sensors misread for a moment.
        Two players' hands at once cover more of the board."""
        self.hand_until_ms = now_ms + duration_ms
        self.hand_share = min(0.9, HAND_SHARE * hands)

    def count(self):
        return sum(1 for c in self.cells if c != EMPTY)


class Sensors:
    """Hall (colour) or reed (occupancy) sensors under the virtual stones.

    noise is the chance per point per scan that a sensor flickers to a
    wrong reading for that one scan."""

    def __init__(self, stones, clock, kind=scan.SENSOR_COLOUR, noise=0.0, rng=None):
        if kind not in scan.SENSOR_KINDS:
            raise ValueError("sensors must be one of " + ", ".join(scan.SENSOR_KINDS))
        if not 0.0 <= noise < 1.0:
            raise ValueError("noise is a probability below 1")
        self.kind = kind
        self.stones = stones
        self.clock = clock
        self.noise = noise
        self.rng = rng or random.Random()
        self._log_keep = math.log(1.0 - noise) if noise > 0 else 0.0
        self._clean = bytearray(len(stones.cells))
        self._seen_changes = -1
        self.reads = 0
        self.flickers = 0

    def _refresh(self):
        occupied = scan.S_STONE
        for i, c in enumerate(self.stones.cells):
            if c == EMPTY:
                self._clean[i] = scan.S_EMPTY
            elif self.kind == scan.SENSOR_OCCUPANCY:
                self._clean[i] = occupied
            else:
                self._clean[i] = scan.S_BLACK if c == BLACK else scan.S_WHITE
        self._seen_changes = self.stones.changes

    def _wrong(self, value):
        rng = self.rng
        if self.kind == scan.SENSOR_OCCUPANCY:
            return scan.S_EMPTY if value != scan.S_EMPTY else scan.S_STONE
        others = [v for v in (scan.S_EMPTY, scan.S_BLACK, scan.S_WHITE) if v != value]
        return others[rng.randrange(2)]

    def _gap(self):
        # Points until the next flicker: geometric, so a scan costs time in
        # proportion to its flickers rather than to the board size.
        u = self.rng.random()
        return int(math.log(1.0 - u) / self._log_keep)

    def read(self, out):
        self.reads += 1
        if self._seen_changes != self.stones.changes:
            self._refresh()
        out[:] = self._clean
        n = len(out)
        if self.clock.now_ms < self.stones.hand_until_ms:
            covered = self.rng.sample(range(n), int(n * self.stones.hand_share))
            for i in covered:
                if self.kind == scan.SENSOR_OCCUPANCY:
                    out[i] = scan.S_STONE
                else:
                    out[i] = scan.S_BLACK if self.rng.random() < 0.5 else scan.S_WHITE
        if self.noise > 0:
            i = self._gap()
            while i < n:
                out[i] = self._wrong(out[i])
                self.flickers += 1
                i += 1 + self._gap()


class Leds:
    """Keeps the last frame the firmware showed, as the real strip would."""

    def __init__(self, size):
        self.size = size
        self.frame = frame.new_frame(size)
        self.now_ms = 0
        self.shows = 0
        self.changes = 0

    def show(self, data, now_ms):
        self.shows += 1
        self.now_ms = now_ms
        if len(data) != len(self.frame):  # the firmware started a game of another size
            self.frame = bytearray(len(data))
            self.size = math.isqrt(len(data) - 1 - frame.STATUS_PIXELS)
        if data != self.frame:
            self.frame[:] = data
            self.changes += 1

    def code(self, place):
        return self.frame[1 + place]

    def status(self, index):
        return self.frame[1 + self.size * self.size + index]

    def rgb(self, place, phase_ms=None):
        """Colour of the light under a point right now (blink patterns applied)."""
        if phase_ms is None:
            phase_ms = self.now_ms
        return frame.rgb(self.code(place), self.frame[0], phase_ms)

    def status_rgb(self, index, phase_ms=None):
        if phase_ms is None:
            phase_ms = self.now_ms
        return frame.rgb(self.status(index), self.frame[0], phase_ms)

    def prompts(self):
        """{place: code} for every light asking the person to do something."""
        out = {}
        for pl in range(self.size * self.size):
            c = self.frame[1 + pl]
            if c & 0x0F in ACTION_CODES and c & 0xF0 != frame.DIM:
                out[pl] = c
        return out

    def lit(self):
        """{place: code} of every light that is not off."""
        return {pl: self.frame[1 + pl] for pl in range(self.size * self.size)
                if self.frame[1 + pl] & 0x0F != frame.OFF}


def code_name(code):
    name = frame.NAMES[code & 0x0F]
    pattern = code & 0xF0
    if pattern == frame.BLINK:
        name += "/blink"
    elif pattern == frame.FAST:
        name += "/fast"
    elif pattern == frame.DIM:
        name += "/dim"
    return name


class Buttons:
    """Button presses queued by the GUI, the TUI or a script."""

    def __init__(self):
        self.queue = []

    def press(self, code):
        if not 0 < code <= events.BTN_STUDY:
            raise ValueError("no button %r" % (code,))
        self.queue.append(code)

    def poll(self, now_ms):
        if self.queue:
            return self.queue.pop(0)
        return events.BTN_NONE


BUTTONS = {"pass": events.BTN_PASS, "confirm": events.BTN_CONFIRM, "new": events.BTN_NEW,
           "resign": events.BTN_RESIGN, "study": events.BTN_STUDY}


def make_config(size=None, sensors=None, preset=None, komi=None, handicap=None, **extra):
    """A firmware Config with the simulator's choices, validated."""
    from gogadget.config import Config

    cfg = Config()
    for name, value in (("size", size), ("sensors", sensors), ("preset", preset),
                        ("komi", komi), ("handicap", handicap)):
        if value is not None:
            setattr(cfg, name, value)
    for name, value in extra.items():
        setattr(cfg, name, value)
    cfg.validate()
    return cfg


# The physical setting (host_sim.sim.physics) every Simulator uses when none is
# given: `python -m host_sim --physics nominal` sets it for the session.
DEFAULT_PHYSICS = None


class Simulator:
    """The firmware application wired to the virtual board.

    step() is one scan cycle of the real loop (1000 / scan_hz ms of virtual
    time).  Referee events are collected in .events as (now_ms, kind, text).
    With a stream (see host_sim.match.Wire) the firmware's own Link serves
    GTP on it, as the board does on its USB line.

    physics (a host_sim.sim.physics setting or its name): the sensors are the
    physical model read by the firmware's own drivers, calibrated the
    maker's way at start (colour), instead of ideal scan codes with a
    coin-flip flicker (noise is then not used).
    """

    def __init__(self, config=None, noise=0.0, seed=None, store_dir=None, stream=None,
                 physics=None, **choices):
        from gogadget.app import App

        self.config = config if config is not None else make_config(**choices)
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.stones = Stones(self.config.size)
        self.leds = Leds(self.config.size)
        self._own_store = store_dir is None
        self.store_dir = tempfile.mkdtemp(prefix="gogadget-sim-") if store_dir is None else store_dir
        self.physics = physics if physics is not None else DEFAULT_PHYSICS
        self.calibration = None
        if self.physics is not None:
            self.sensors = self._physical_sensors(self.rng.random())
        else:
            self.sensors = Sensors(self.stones, self.clock, self.config.sensors, noise,
                                   random.Random(self.rng.random()))
        self.buttons = Buttons()
        from host_sim.sim import study
        study.attach(self)  # the problems' folder of study mode
        self.app = App(self.config, self.sensors, self.leds, self.buttons, self.store_dir,
                       stream=stream)
        if stream is not None:
            # The board loads its link at the host's first byte; the desktop
            # has it from boot, so gogadget-events hears every event.
            self.app.open_link()
        self._tap_events()
        self.period_ms = self.config.scan_period_ms()
        self.steps = 0
        self.app.boot(self.clock.now_ms)
        self._drain()

    def _physical_sensors(self, seed):
        import os

        from host_sim.sim import physics
        board = physics.Board(self.stones, self.clock, self.leds, self.config.sensors,
                              self.physics, seed=seed)
        sensors = physics.Sensors(board, max(1, 1000 // self.config.scan_hz))
        self.calibration = physics.calibrate(sensors, self.stones, self.clock,
                                             os.path.join(self.store_dir, CALIBRATION_FILE))
        if not self.calibration.startswith("ok") and sensors.kind == scan.SENSOR_COLOUR:
            raise ValueError("calibration failed: %s" % self.calibration)
        return sensors

    @property
    def referee(self):
        return self.app.referee

    @property
    def size(self):
        return self.config.size

    def close(self):
        if self._own_store:
            shutil.rmtree(self.store_dir, ignore_errors=True)

    @property
    def link(self):
        """The firmware's GTP link (None without a stream; made now if no
        host has spoken yet: the board loads it at the first byte)."""
        return self.app.open_link() if self.app.stream is not None else None

    def _tap_events(self):
        # With a stream the Link collects the referee's events first (for
        # gogadget-events); a tap sees each one on its way, whoever asks.
        ref = self.app.referee
        take = ref.poll_event
        events = getattr(self, "events", None)
        if events is None:  # a reboot keeps what was heard before the cut
            events = self.events = []

        def poll_event():
            ev = take()
            if ev is not None:
                events.append((self.clock.now_ms, ev[0], ev[1]))
            return ev

        ref.poll_event = poll_event

    def reboot(self):
        """A power cut and a fresh boot: the App (everything in RAM) is gone
        and a new one resumes from the same store dir.  The stones, the
        clock and the events heard so far stay; the LEDs go dark and button
        presses not yet read are lost.  A host link (stream) is not brought
        back: the new App serves none."""
        from gogadget.app import App

        if self.app.journal is not None:
            self.app.journal.close()  # the OS would drop the handle with the process
        self.buttons.queue.clear()
        self.leds.show(frame.new_frame(self.size), self.clock.now_ms)
        if self.physics is not None and self.sensors.kind == scan.SENSOR_COLOUR:
            # The board loads its calibration from flash at boot: what it had
            # followed of the drift in RAM is gone.
            import os

            from gogadget.hw import calibderive
            self.sensors.calibration = calibderive.load(
                os.path.join(self.store_dir, CALIBRATION_FILE), self.size)
        self.app = App(self.config, self.sensors, self.leds, self.buttons, self.store_dir)
        self._tap_events()
        self.app.boot(self.clock.now_ms)
        self._drain()

    def _drain(self):
        poll = self.app.referee.poll_event
        while poll() is not None:
            pass

    def step(self):
        now = self.clock.advance(self.period_ms)
        self.app.step(now)
        self.steps += 1
        self._drain()

    def run(self, ms):
        """Let ms of virtual time pass, scanning at the firmware's rate."""
        for _ in range(max(1, (ms + self.period_ms - 1) // self.period_ms)):
            self.step()

    def settle(self, extra=3):
        """Scan long enough for the referee's stability window to pass."""
        # The longest a change may need to count (more just after boot, or
        # beside a stone it may have slid from), and the scan that confirms it.
        for _ in range(self.app.referee.settler.debounce + 1 + extra):
            self.step()

    def until_quiet(self, max_ms=2000):
        """Scan until the hand's disturbance is over and the frame stops changing."""
        end = self.clock.now_ms + max_ms
        self.settle()
        while self.clock.now_ms < end:
            before = self.leds.changes
            self.settle()
            if self.leds.changes == before and self.clock.now_ms >= self.stones.hand_until_ms:
                return True
        return False

    def press(self, name_or_code):
        code = BUTTONS[name_or_code] if isinstance(name_or_code, str) else name_or_code
        self.buttons.press(code)

    def events_since(self, index):
        return self.events[index:]

    def vertex(self, place):
        return self.stones.vertex(place)
