"""host_sim.sim.physics's sensors on the emulated Pico's ADC inputs.

The firmware's own scan path (hw/muxscan.py running hw/muxplan.py's plan,
driven through the SIO and ADC registers, the classifier, calib.py's Calibration and its drift
tracking, the Calibrator) then runs against the physical model instead of
rp2040py's ideal per-colour values:

* the select GPIOs the firmware drives at the moment of each conversion
  address the model's two mux levels (AnalogPath.sel); the ADC input the
  conversion samples is the bank;
* the model's RC from the previous channel counts conversions since the
  select changed, as it does on the host (the emulated conversions are as
  far apart as the firmware's loop makes them);
* the LED current shifting the ADC's ground is the current of the frame
  the chain really shows, decoded from the LED pin (each LED's idle draw
  plus its r + g + b at frame.MA_PER_CHANNEL per full channel), so the
  Calibrator's steady frame, the blinks and every move's frame count as
  they arrive;
* time is the emulator's: the temperature ramp, the stones a test puts on
  the board (a virtual.Stones) taking effect at the next scan.

The model's state moves on (Board.begin_pass: stones, temperature, LED
current) once per scan: when the plan's first place is selected, which
read_raw does first on every pass (scan, calibration and self-test alike).
"""
from gogadget import frame as F
from gogadget.hw import muxplan, pins
from host_sim.sim import physics, virtual
class EmulatedClock:
    """The emulated Pico's time, as host_sim.sim.physics reads a clock."""

    def __init__(self, pico):
        self.pico = pico

    @property
    def now_ms(self):
        return self.pico.now_ms

    def advance(self, ms):
        raise RuntimeError("the emulator keeps time: run the Pico instead")


def chain_ma(rgbs):
    """Current (mA) a WS2812 chain draws showing rgbs (a list of (r, g, b))."""
    total = 0.0
    for r, g, b in rgbs:
        total += F.MA_IDLE + (r + g + b) * F.MA_PER_CHANNEL / 255.0
    return total


class PhysicsAdc:
    """Wires a physics.Board (its stones, parts and setting) into a Pico.

        stones = virtual.Stones(9)
        pico = rp2.Pico(image, size=9, firmware=uf2)
        adc = PhysicsAdc(pico, stones, physics="nominal", seed=3)
        stones.put(place, BLACK)   # read from the next scan on
    """

    def __init__(self, pico, stones=None, physics_setting="nominal", seed=0, board=None):
        """board: a physics.Board made elsewhere (calibrated_board's): it
        moves onto the emulator's clock, its temperature ramp starting now;
        else one is made over stones."""
        self.pico = pico
        if board is None:
            stones = stones if stones is not None else virtual.Stones(pico.size)
            board = physics.Board(stones, EmulatedClock(pico), None, physics=physics_setting,
                                  seed=seed)
        else:
            board.clock = EmulatedClock(pico)
            board.t0 = pico.now_ms
            board.leds = None  # the chain's decoded frames set the current (_begin)
        self.board = board
        self.stones = board.stones
        self.path = physics.AnalogPath(board)
        _, _, banks, places, _ = muxplan.build_plan(board.size)
        first = next(i for i in range(len(banks)) if banks[i] != muxplan.NO_READ)
        bank, c2, c1 = pins.mux_address(board.size, places[first])
        self._first_key = bank << 8 | c2 << 4 | c1
        self._frames = -1
        self.passes = 0
        self._begin()
        pico.adc_source = self.convert

    def _begin(self):
        tap = self.pico.leds
        if tap.frames != self._frames:
            self._frames = tap.frames
            # Board.begin_pass keeps frame_ma when it has no virtual.Leds
            # (and no fixed led_ma): the chain's own current is set here,
            # before its first frame the dark chain's idle draw.
            self.board.frame_ma = (chain_ma(tap.last) if tap.last is not None
                                   else F.MA_IDLE * tap.count)
        self.path.begin_pass()
        self.passes += 1

    def put(self, place, colour):
        """A stone put down now: the model takes it at once, mid-scan as a
        hand does (not only from the next scan's start)."""
        self.stones.put(place, colour)
        self._begin()

    def convert(self, channel, c2, c1):
        """The raw 12-bit value the conversion on ADC input channel reads."""
        path = self.path
        key = channel << 8 | c2 << 4 | c1
        if key == self._first_key and key != path.key:
            self._begin()
        path.sel = c2 << 4 | c1
        return path.convert(channel) >> 4  # convert gives read_u16's scaling


def calibrated_board(size, path, physics_setting="nominal", seed=0):
    """A physics.Board calibrated the maker's way on the host
    (physics.calibrate: the firmware's Calibrator on CPython over the same
    parts), its calibration file written to path: (board, result).  Put the
    file on the emulated flash as calib.bin and hand the board to
    PhysicsAdc: the Pico then reads the parts it was calibrated on."""
    stones = virtual.Stones(size)
    clock = virtual.Clock()
    board = physics.Board(stones, clock, None, physics=physics_setting, seed=seed)
    sensors = physics.Sensors(board)
    return board, physics.calibrate(sensors, stones, clock, str(path))
