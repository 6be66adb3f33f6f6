"""The sensors as physics: magnets, Hall sensors, reed switches and the
analog path, at the level the firmware's drivers read them.

The firmware's own drivers (hw/muxscan.py, hw/shiftscan.py) run unchanged
on top: this module hands them pin objects (physics_pins.py) whose
read_u16() returns raw ADC counts (colour board) and an SPI whose
readinto() returns the 74HC165 chain's bytes (occupancy board).  The parts
and the settings they are drawn from are in physics_parts.py.  The classification, the calibration
(hw/calib.py, hw/calibrate.py) and everything above are the board's code.

The model, per place:

* every stone is a 6 x 2 mm N35 disc (hardware/README's BOM), drawn from the
  bowl each time it is put down: strength +-30 %, put off-centre by up to
  OFFSET_MM, polarity by colour (black N up), rarely upside down.  The disc
  is 7 point dipoles (centre and a ring), its centre HEIGHT_MM above the
  Hall element; the field of a stone reaches the 5 x 5 points around it
  (the next ring is below 0.1 % of the on-axis field) from kernels cached
  per 0.25 mm of offset;
* linear Hall sensor (SS49E, ratiometric at 3.3 V): quiescent voltage and
  sensitivity +-20 % per part, both drifting with temperature over a game
  (a ramp from temp_start to temp_end), input-referred noise, the output
  clipped to its swing;
* analog path: an RC from the previous conversion (a read sampled t after a
  switch keeps exp(-t/tau) of the last voltage), the LED frame's current
  shifting the ADC's ground, ADC noise, 12-bit quantization with the four
  wide codes of RP2040-E11, read_u16's 16-bit scaling;
* reed switch (or digital Hall): pull-in and drop-out fields per part
  (hysteresis) on |Bz|, and contact bounce on the first latch after the
  field crossed a threshold.

Seeded and deterministic: a Board draws everything from its own Random.
"""
import math
import random

from gogadget import scan, signals
from gogadget.points import BLACK, EMPTY, WHITE
# The parts, the settings and the pins live beside this module; their names
# stay reachable here (physics.NOMINAL, physics.bz_mt, physics.AnalogPath...).
from host_sim.sim.physics_parts import (  # noqa: F401
    ADC_BITS, ADC_FULL, CONVERSION_US, E11_CODES, E11_WIDTH, GRID_MM, HALL_SENS_MV_MT,
    HALL_SWING_V, KERNEL_STEP_MM, LED_LOOP_MM2, LED_TO_SENSOR_MM, LSB_MV, MAGNET_DIAMETER_MM,
    MAGNET_MOMENT, MAGNET_TC, MAGNET_THICKNESS_MM, MU0, N35_BR_T, NOMINAL, REACH, SETTINGS,
    VCC, WORST, Kernels, Setting, bz_mt, led_field_mt, setting)
from host_sim.sim.physics_pins import E11_TABLE, AnalogPath, ShiftChain  # noqa: F401
from host_sim.tools import geometry  # noqa: F401


# --- the board ------------------------------------------------------------

class Stone:
    __slots__ = ("colour", "strength", "qx", "qy", "flipped")


class Board:
    """The physical board under the virtual stones: fields, parts, time.

    stones: a virtual.Stones (what lies where); clock: a virtual.Clock;
    leds: what the LED chain shows (virtual.Leds), for the ground shift."""

    def __init__(self, stones, clock, leds=None, kind=scan.SENSOR_COLOUR, physics=NOMINAL, seed=0):
        self.stones = stones
        self.clock = clock
        self.leds = leds
        self.kind = kind
        self.s = s = setting(physics)
        self.rng = random.Random(seed)
        self.size = stones.size
        n = self.size * self.size
        self.kernels = Kernels(s.height_mm)
        self.field = [0.0] * n  # mT at each sensor
        self.placed = [None] * n  # Stone at each place
        self._seen = None  # stones.cells as last summed
        self._hand = []  # (place, [(index, mT)]) of a stone hovering in a hand
        self.temp = s.temp_start
        self.t0 = clock.now_ms  # when the sensors were at temp_start
        self.frame_ma = 0.0
        self.leds_n = n + 3  # the board's LEDs and the 3 status LEDs
        self.led_mt = 0.0  # each sensor's own LED's field, at the frame's mean current per LED
        self.calibrating = False  # the Calibrator's own frames light the board
        self._leds_seen = -1
        self.passes = 0
        rng = self.rng
        # Hall parts
        self.q_v = [VCC / 2 * (1 + rng.uniform(-s.offset_spread, s.offset_spread)) for _ in range(n)]
        self.sens = [HALL_SENS_MV_MT / 1000 * (1 + rng.uniform(-s.sens_spread, s.sens_spread))
                     for _ in range(n)]
        self.drift = [rng.uniform(-s.drift_mv_c, s.drift_mv_c) / 1000 for _ in range(n)]
        # Reed parts
        self.pull = [s.pull_in_mt * (1 + rng.uniform(-s.pull_spread, s.pull_spread)) for _ in range(n)]
        self.closed = bytearray(n)
        self.bounce = bytearray(n)  # latches left that may read either way
        self.sync()

    # --- stones --------------------------------------------------------
    def _draw(self, colour):
        s = self.s
        rng = self.rng
        st = Stone()
        st.colour = colour
        st.strength = rng.uniform(s.magnet_lo, s.magnet_hi)
        if s.offset_exact:
            a = rng.uniform(0, 2 * math.pi)
            r = s.offset_mm
        else:  # uniform over the disc of radius offset_mm
            a = rng.uniform(0, 2 * math.pi)
            r = s.offset_mm * math.sqrt(rng.random())
        st.qx = int(round(r * math.cos(a) / KERNEL_STEP_MM))
        st.qy = int(round(r * math.sin(a) / KERNEL_STEP_MM))
        st.flipped = rng.random() < s.flipped
        return st

    def _add(self, place, st, sign):
        size = self.size
        row, col = divmod(place, size)
        pol = 1.0 if st.colour == BLACK else -1.0
        if st.flipped:
            pol = -pol
        w = sign * pol * st.strength
        field = self.field
        for dr, dc, b in self.kernels.get(st.qx, st.qy):
            r = row + dr
            c = col + dc
            if 0 <= r < size and 0 <= c < size:
                field[r * size + c] += w * b

    def sync(self):
        """Follow what the hand did to the stones since the last look."""
        cells = self.stones.cells
        if self._seen is not None and self._seen == cells:
            return False
        if self._seen is None or len(self._seen) != len(cells):
            self._seen = bytearray(len(cells))
        for p in range(len(cells)):
            now = cells[p]
            if now == self._seen[p]:
                continue
            old = self.placed[p]
            if old is not None:
                self._add(p, old, -1)
                self.placed[p] = None
            if now != EMPTY:
                st = self._draw(now)
                self._add(p, st, 1)
                self.placed[p] = st
            self._seen[p] = now
        # Summing drifts in floating point; start again from zero now and then.
        return True

    def nudge(self, place, dx_mm, dy_mm, strength=None):
        """Set where the stone at place lies (mm from the point; +x towards
        the next column, +y the next row) and, given, its magnet's strength."""
        self.sync()
        st = self.placed[place]
        self._add(place, st, -1)
        st.qx = int(round(dx_mm / KERNEL_STEP_MM))
        st.qy = int(round(dy_mm / KERNEL_STEP_MM))
        if strength is not None:
            st.strength = strength
        self._add(place, st, 1)

    def put_flipped(self, place):
        """Turn the magnet of the stone at place upside down (a bad stone)."""
        st = self.placed[place]
        self._add(place, st, -1)
        st.flipped = not st.flipped
        self._add(place, st, 1)

    def _hand_field(self):
        # A hand over the board may hold a stone: its magnet hovers 12-30 mm
        # above a random point for this pass.
        for place, contrib in self._hand:
            for i, b in contrib:
                self.field[i] -= b
        self._hand = []
        if self.clock.now_ms >= self.stones.hand_until_ms:
            return
        rng = self.rng
        size = self.size
        place = rng.randrange(size * size)
        h = rng.uniform(12.0, 30.0)
        w = rng.choice((-1.0, 1.0)) * rng.uniform(self.s.magnet_lo, self.s.magnet_hi)
        row, col = divmod(place, size)
        contrib = []
        for dr in range(-REACH, REACH + 1):
            for dc in range(-REACH, REACH + 1):
                r = row + dr
                c = col + dc
                if 0 <= r < size and 0 <= c < size:
                    b = w * bz_mt(dc * GRID_MM[0], dr * GRID_MM[1], h)
                    contrib.append((r * size + c, b))
                    self.field[r * size + c] += b
        self._hand.append((place, contrib))

    # --- time --------------------------------------------------------------
    def begin_pass(self):
        """The state of the board for the scan about to run."""
        s = self.s
        self.sync()
        self._hand_field()
        t = self.clock.now_ms - self.t0
        share = min(1.0, t / s.warm_ms) if s.warm_ms > 0 else 1.0
        self.temp = s.temp_start + (s.temp_end - s.temp_start) * share
        if self.calibrating:
            pass  # set_frame: what the Calibrator shows
        elif s.led_ma is not None:
            self.frame_ma = float(s.led_ma)
        elif self.leds is not None and self.leds.changes != self._leds_seen:
            self._leds_seen = self.leds.changes
            self.frame_ma = min(self.s.budget_ma, signals.estimate_ma(self.leds.frame))
        self.led_mt = led_field_mt(self.frame_ma / self.leds_n)
        self.passes += 1

    def set_frame(self, frame):
        """The LED frame on show now (the Calibrator's, or when no
        virtual.Leds is attached); hw/leds.py scales a frame to the budget."""
        self.frame_ma = min(self.s.budget_ma, signals.estimate_ma(frame))
        self.led_mt = led_field_mt(self.frame_ma / self.leds_n)

    def hall_volts(self, place):
        """The sensor's output (V) now, without noise."""
        s = self.s
        dt = self.temp - s.temp_start
        b = self.field[place] * (1 + MAGNET_TC * dt) + self.led_mt
        v = self.q_v[place] + self.drift[place] * dt + self.sens[place] * (1 + s.sens_tc * dt) * b
        lo, hi = HALL_SWING_V
        return lo if v < lo else hi if v > hi else v

    def ground_lsb(self):
        # The LED current returns partly through the analog ground: the ADC
        # sees the sensors shifted by I * R.
        return self.frame_ma / 1000.0 * self.s.ground_mohm / 1000.0 * 1000.0 / LSB_MV


# --- the drivers, as the board builds them --------------------------------

class Sensors:
    """The firmware's scanner over a physical board: what App calls.

    read(out) runs one pass of the firmware's driver (read_raw + classify
    for the colour board); read_raw() and raw serve the firmware's
    Calibrator, which sets .calibration when it is done."""

    def __init__(self, board, period_ms=20):
        self.board = board
        self.kind = board.kind
        self.size = board.size
        self.misreads = 0  # places read other than what lies there (no hand over the board)
        if board.kind == scan.SENSOR_COLOUR:
            from gogadget.hw.muxscan import MuxScanner
            self.path = AnalogPath(board)
            self.scanner = MuxScanner(board.size, self.path.select, self.path.bank_select,
                                      self.path.adcs)
        else:
            from gogadget.hw.shiftscan import ShiftScanner
            self.path = ShiftChain(board, period_ms)
            self.scanner = ShiftScanner(board.size, self.path, self.path.load)
        self.reads = 0

    @property
    def raw(self):
        return self.scanner.raw

    def retime(self, physics):
        """Other parts and conditions from now on (the calibration stays):
        stones put from now are drawn from the new bowl, the temperature
        ramps from now."""
        b = self.board
        b.s = setting(physics)
        b.t0 = b.clock.now_ms
        b.kernels = Kernels(b.s.height_mm) if b.s.height_mm != b.kernels.height_mm else b.kernels
        if hasattr(self.path, "retime"):
            self.path.retime()

    @property
    def calibration(self):
        return getattr(self.scanner, "calibration", None)

    @calibration.setter
    def calibration(self, cal):
        self.scanner.calibration = cal

    def read_raw(self):
        self.path.begin_pass()
        return self.scanner.read_raw()

    @property
    def flickers(self):  # what virtual.Sensors calls its misreads
        return self.misreads

    def read(self, out):
        self.path.begin_pass()
        self.scanner.read(out)
        self.reads += 1
        b = self.board
        if b.clock.now_ms < b.stones.hand_until_ms:
            return
        want = _TRUTH[self.kind]
        cells = b.stones.cells
        for p in range(len(out)):
            if out[p] != want[cells[p]]:
                self.misreads += 1


# What a sensor of each kind should read over an empty point, a black and a white stone.
_TRUTH = {scan.SENSOR_COLOUR: (scan.S_EMPTY, scan.S_BLACK, scan.S_WHITE),
          scan.SENSOR_OCCUPANCY: (scan.S_EMPTY, scan.S_STONE, scan.S_STONE)}


def calibrate(sensors, stones, clock, path, rng=None, samples=16, period_ms=20):
    """Calibration as a maker does it (hardware/README, "Calibration"), on
    the firmware's own Calibrator: empty board, confirm; black stones on the
    blinking points, confirm; white on the others, confirm.  The stones are
    put by hand (each drawn from the bowl: strength, offset) and lifted
    again at the end.  Returns the Calibrator's result ("ok", ...)."""
    from gogadget import frame as F
    from gogadget.events import BTN_CONFIRM
    from gogadget.hw.calibrate import Calibrator

    if sensors.kind != scan.SENSOR_COLOUR:
        return "occupancy boards need no calibration"
    for p in range(len(stones.cells)):
        if stones.cells[p] != EMPTY:
            stones.lift(p)

    class _Timed:
        # Calibrator.average() takes `samples` scans; time passes with them.
        def __init__(self):
            self.size = sensors.size

        @property
        def raw(self):
            return sensors.raw

        def read_raw(self):
            clock.advance(period_ms)
            return sensors.read_raw()

        @property
        def calibration(self):
            return sensors.calibration

        @calibration.setter
        def calibration(self, cal):
            sensors.calibration = cal

    class _Leds:
        # what the Calibrator shows while it measures draws its current
        def show(self, frame, now_ms):
            sensors.board.set_frame(frame)

    cal = Calibrator(_Timed(), path, samples=samples, leds=_Leds())
    sensors.board.calibrating = True
    result = None
    while result is None:
        sensors.board.set_frame(cal.frame)
        n = sensors.size * sensors.size
        for p in range(n):
            code = cal.frame[1 + p]
            if code & 0xF0 == F.BLINK and code & 0x0F in (F.PUT_BLACK, F.PUT_WHITE):
                if stones.cells[p] == EMPTY:
                    stones.put(p, BLACK if code & 0x0F == F.PUT_BLACK else WHITE)
        clock.advance(1000)  # the maker checks the board, then presses confirm
        result = cal.press(BTN_CONFIRM)
    sensors.board.calibrating = False
    for p in range(len(stones.cells)):
        if stones.cells[p] != EMPTY:
            stones.lift(p)
    return result
