"""The sensors as physics: magnets, Hall sensors, reed switches and the
analog path, at the level the firmware's drivers read them.

The firmware's own drivers (hw/muxscan.py, hw/shiftscan.py) run unchanged
on top: this module hands them pin objects whose read_u16() returns raw
ADC counts (colour board) and an SPI whose readinto() returns the 74HC165
chain's bytes (occupancy board).  The classification, the calibration
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
from gogadget.hw import pins
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.tools import geometry

# --- the parts (hardware/README.md, hardware/bom.csv) ----------------------
# The geometry is the PCB's (host_sim/tools/geometry.py, which the board
# generator places by): the grid pitch across and along, the magnet's height
# over the Hall element for the documented stack-up, the LED beside it.
GRID_MM = geometry.GRID_MM  # (across, along)
MAGNET_DIAMETER_MM = 6.0
MAGNET_THICKNESS_MM = geometry.MAGNET_THICKNESS_MM
N35_BR_T = 1.19  # remanence of N35 (1.17-1.21 T)
MU0 = 4e-7 * math.pi
MAGNET_MOMENT = N35_BR_T * math.pi * (MAGNET_DIAMETER_MM / 2) ** 2 * MAGNET_THICKNESS_MM * 1e-9 / MU0
MAGNET_TC = -0.0012  # N35 remanence per degree C (reversible)
VCC = 3.3
HALL_SENS_MV_MT = 1.4 * 10 * VCC / 5.0  # SS49E: 1.4 mV/G at 5 V, ratiometric -> 9.24 mV/mT
HALL_SWING_V = (0.2, VCC - 0.2)  # the output stage's reach
ADC_BITS = 12
ADC_FULL = 1 << ADC_BITS
LSB_MV = VCC * 1000.0 / ADC_FULL
CONVERSION_US = 2.0  # 96 ADC clocks at 48 MHz
E11_CODES = (512, 1536, 2560, 3584)  # RP2040-E11: the ADC's widest code bins
E11_WIDTH = 9  # LSB those bins span (their neighbours go missing)
KERNEL_STEP_MM = 0.25
# Each LED's supply current closes through its own 100 nF over the ground
# plane: a loop of about the package's area (WS2812B-5050, 5 x 5 mm), a
# magnetic dipole in the board's plane, sensor_to_led_mm from the Hall
# element beside it.  Its field there is far below the sensor's noise (the
# README's "10 mm or more from a Hall sensor", made a number).
LED_LOOP_MM2 = 25.0
LED_TO_SENSOR_MM = geometry.sensor_to_led_mm()
REACH = 2  # points either way a stone's field is summed over


class Setting:
    """The physical choices a board is drawn from (all may be overridden)."""

    FIELDS = (
        ("height_mm", geometry.magnet_height_mm(), "magnet centre above the Hall element (the stack-up)"),
        ("magnet_lo", 0.7, "weakest magnet, times nominal"),
        ("magnet_hi", 1.3, "strongest magnet, times nominal"),
        ("offset_mm", 5.0, "largest distance a stone lands from its point"),
        ("offset_exact", False, "every stone exactly offset_mm off (worst case)"),
        ("flipped", 0.0, "share of stones with their magnet upside down"),
        ("sens_spread", 0.2, "Hall sensitivity +- share per part"),
        ("offset_spread", 0.2, "Hall quiescent voltage +- share per part"),
        ("drift_mv_c", 1.0, "Hall quiescent drift, +- mV per degree C per part"),
        ("sens_tc", -0.0006, "Hall sensitivity per degree C"),
        ("temp_start", 20.0, "degrees C at calibration"),
        ("temp_end", 30.0, "degrees C the sensors reach"),
        ("warm_ms", 1200000, "virtual ms from temp_start to temp_end"),
        ("hall_noise_mt", 0.1, "Hall noise, mT rms input-referred"),
        ("adc_noise_lsb", 1.0, "ADC noise, LSB rms"),
        ("tau_us", 0.2, "RC of the two mux levels and the sample capacitor"),
        ("first_sample_us", 0.5, "select write -> first conversion's sample"),
        ("ground_mohm", 5.0, "ground resistance the LED current shares with the ADC"),
        ("budget_ma", 2000, "the LED driver's current cap (config.budget_ma)"),
        ("led_ma", None, "LED current in play (None: the frame's own; calibration: its own frames)"),
        ("pull_in_mt", 3.4, "reed/digital Hall pull-in |Bz|"),
        ("pull_spread", 0.2, "pull-in +- share per part"),
        ("drop_share", 0.7, "drop-out as a share of pull-in"),
        ("bounce_ms", 1.0, "contact bounce after a switch closes or opens"),
    )

    def __init__(self, name="custom", **kw):
        self.name = name
        for field, default, _ in self.FIELDS:
            setattr(self, field, kw.pop(field, default))
        if kw:
            raise ValueError("no physical setting %s" % ", ".join(sorted(kw)))

    def but(self, name=None, **kw):
        values = {f: getattr(self, f) for f, _, _ in self.FIELDS}
        values.update(kw)
        return Setting(name or self.name, **values)

    def describe(self):
        return ", ".join("%s=%s" % (f, getattr(self, f)) for f, _, _ in self.FIELDS)


NOMINAL = Setting("nominal")
# Weakest magnets, largest offsets, the hottest game after a cold
# calibration, the full LED budget, the slowest analog path at the shortest
# settling the firmware uses (pins.SETTLE_READS).
WORST = NOMINAL.but("worst", magnet_lo=0.7, magnet_hi=0.7, offset_exact=True,
                    temp_start=10.0, temp_end=40.0, warm_ms=600000, tau_us=0.5,
                    ground_mohm=5.0, led_ma=2000, drift_mv_c=1.5, bounce_ms=2.0)
SETTINGS = {"nominal": NOMINAL, "worst": WORST}


def setting(name_or_setting):
    if isinstance(name_or_setting, Setting):
        return name_or_setting
    try:
        return SETTINGS[name_or_setting]
    except KeyError:
        raise ValueError("no physical setting %r (known: %s)" % (name_or_setting, ", ".join(SETTINGS)))


# --- the field ------------------------------------------------------------

def led_field_mt(led_ma, distance_mm=LED_TO_SENSOR_MM):
    """Field (mT) at a Hall element from one LED's supply loop drawing
    led_ma: a dipole I * A in the board's plane, seen edge-on from
    distance_mm (mu0 m / (4 pi d^3))."""
    moment = led_ma / 1000.0 * LED_LOOP_MM2 * 1e-6  # A m^2
    return 1e-7 * moment / (distance_mm / 1000.0) ** 3 * 1e3



def _disc_dipoles():
    # The disc as 7 dipoles of equal share: its centre and a ring at the
    # radius that halves its area, so close-range fields are not a point's.
    r = MAGNET_DIAMETER_MM / 2 / math.sqrt(2)
    pts = [(0.0, 0.0)]
    for k in range(6):
        a = k * math.pi / 3
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


_DISC = _disc_dipoles()


def bz_mt(dx_mm, dy_mm, height_mm, moment=MAGNET_MOMENT):
    """Vertical field (mT) at a sensor dx, dy from a N-up disc's centre,
    height_mm below it."""
    share = moment / len(_DISC)
    z2 = height_mm * height_mm
    total = 0.0
    for px, py in _DISC:
        x = dx_mm - px
        y = dy_mm - py
        r2 = x * x + y * y + z2
        total += (3 * z2 - r2) / (r2 * r2 * math.sqrt(r2))
    return 1e-7 * share * total * 1e12  # mm^-3 -> m^-3 (1e9), T -> mT (1e3)


class Kernels:
    """Field of one nominal N-up stone at its 5 x 5 neighbourhood, cached by
    the stone's offset (quantized to KERNEL_STEP_MM)."""

    def __init__(self, height_mm):
        self.height_mm = height_mm
        self.cache = {}

    def get(self, qx, qy):
        key = (qx, qy)
        k = self.cache.get(key)
        if k is None:
            ox = qx * KERNEL_STEP_MM
            oy = qy * KERNEL_STEP_MM
            k = []
            for dr in range(-REACH, REACH + 1):
                for dc in range(-REACH, REACH + 1):
                    # sensor at (dc, dr) points from the stone's point
                    k.append((dr, dc, bz_mt(dc * GRID_MM[0] - ox, dr * GRID_MM[1] - oy, self.height_mm)))
            self.cache[key] = k
        return k


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


# --- colour board: the pins the mux scanner drives ------------------------

class _Line:
    """A select line: value(v) sets one bit of the analog path's address."""

    def __init__(self, path, bit):
        self.path = path
        self.bit = bit

    def value(self, v=None):
        if v is None:
            return self.path.sel >> self.bit & 1
        if v:
            self.path.sel |= 1 << self.bit
        else:
            self.path.sel &= ~(1 << self.bit)
        return None


class _Adc:
    def __init__(self, path, bank):
        self.path = path
        self.bank = bank

    def read_u16(self):
        return self.path.convert(self.bank)


def _e11_table():
    # Ideal code -> reported code: each of the four E11 codes swallows the
    # codes around it (a bin E11_WIDTH LSB wide, its neighbours missing).
    table = list(range(ADC_FULL))
    half = E11_WIDTH // 2
    for k in E11_CODES:
        for c in range(k - half, k + half + 1):
            table[c] = k
    return table


E11_TABLE = _e11_table()


class AnalogPath:
    """Two mux levels, the ADC input mux and the ADC itself."""

    def __init__(self, board):
        self.board = board
        s = board.s
        size = board.size
        n = size * size
        self.sel = 0  # S0..S3 of level 1 in bits 0..3, of level 2 in 4..7
        self.select = [_Line(self, b) for b in range(4)]
        self.bank_select = [_Line(self, 4 + b) for b in range(4)]
        self.adcs = [_Adc(self, b) for b in range(pins.bank_count(size))]
        # (bank, select) -> place (-1: a spare channel, tied to ground)
        self.place_of = {}
        for bank in range(len(self.adcs)):
            for c2 in range(pins.MUX_CHANNELS):
                for c1 in range(pins.MUX_CHANNELS):
                    p = pins.mux_place(size, bank, c2, c1)
                    self.place_of[bank << 8 | c2 << 4 | c1] = p if p < n else -1
        # Share of the old voltage left at the k-th conversion after a switch.
        self.level = [0.0] * (n + 1)  # settled input of each place, in LSB (+ spare at -1)
        self.retime()
        self.node = 0.0
        self.start = 0.0
        self.key = -1
        self.since = 0
        self.rng = random.Random(board.rng.random())
        self.conversions = 0

    def retime(self):
        s = self.board.s
        # Share of the old voltage left at the k-th conversion after a switch.
        self.resid = [math.exp(-(s.first_sample_us + k * CONVERSION_US) / s.tau_us)
                      for k in range(8)]
        self.noise = math.hypot(s.hall_noise_mt * HALL_SENS_MV_MT / LSB_MV, s.adc_noise_lsb)

    def begin_pass(self):
        b = self.board
        b.begin_pass()
        g = b.ground_lsb()
        scale = 1000.0 / LSB_MV
        level = self.level
        for p in range(len(level) - 1):
            level[p] = b.hall_volts(p) * scale + g
        level[-1] = g

    def convert(self, bank):
        key = bank << 8 | self.sel
        if key != self.key:
            self.key = key
            self.since = 0
            self.start = self.node
        elif self.since < 7:
            self.since += 1
        t = self.level[self.place_of[key]]
        v = t + (self.start - t) * self.resid[self.since]
        self.node = v
        x = v + self.rng.gauss(0.0, self.noise)
        c = int(x) if x > 0 else 0
        if c >= ADC_FULL:
            c = ADC_FULL - 1
        c = E11_TABLE[c]
        self.conversions += 1
        return c << 4 | c >> 8  # MicroPython's read_u16 scaling


# --- occupancy board: the 74HC165 chain -----------------------------------

class _LoadPin:
    def __init__(self, chain):
        self.chain = chain
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        if self.level and not v:
            self.chain.latch()
        self.level = 1 if v else 0
        return None


class ShiftChain:
    """Reed switches (or digital Hall switches) behind a 165 chain on SPI."""

    def __init__(self, board, period_ms=20):
        self.board = board
        size = board.size
        self.n = size * size
        self.chips = pins.shift_chips(size)
        self.load = _LoadPin(self)
        self.bits = bytearray(self.chips + 1)
        self.rng = random.Random(board.rng.random())
        self.latches = 0
        # The stone lands at a random moment of the scan period: the next
        # latch falls inside the bounce that often.
        self.bounce_share = min(1.0, board.s.bounce_ms / period_ms)

    def begin_pass(self):
        self.board.begin_pass()

    def latch(self):
        b = self.board
        s = b.s
        field = b.field
        closed = b.closed
        bounce = b.bounce
        pull = b.pull
        rng = self.rng
        on = 0 if pins.SHIFT_ACTIVE_LOW else 1
        bits = self.bits
        for i in range(len(bits)):
            bits[i] = 0
        for p in range(self.n):
            f = abs(field[p])
            was = closed[p]
            if f >= pull[p]:
                closed[p] = 1
            elif f < pull[p] * s.drop_share:
                closed[p] = 0
            if closed[p] != was and rng.random() < self.bounce_share:
                bounce[p] = 1  # the contact is still settling at this latch
            level = closed[p]
            if bounce[p]:
                bounce[p] = 0
                level = rng.random() < 0.5
            bit = on if level else 1 - on
            if bit:
                bits[p >> 3] |= 1 << (p & 7)
        for p in range(self.n, self.chips * 8):
            if pins.shift_spare_level(b.size, p):
                bits[p >> 3] |= 1 << (p & 7)
        bits[self.chips] = 0  # the last chip's SER is tied to GND
        self.latches += 1

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self.bits[i] if i < len(self.bits) else 0


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
