"""A pin-level fake of MicroPython's `machine` for the RP2040 that models the
wiring of the reference design (gogadget/hw/pins.py), importable by
MicroPython (tests/mp is on MICROPYPATH) and CPython (tests put tests/mp on
sys.path).

The fake board behind the pins:

* ColourRig: one linear Hall sensor per place behind two 4067 levels.  An
  ADC read returns the sensor that the current select-pin levels address;
  the first conversion after the analog path changed (select lines or ADC
  input) returns a mix of the old and the new voltage, as the real sample
  capacitor does.  Wrong select order, no settle read: wrong readings.
* ShiftRig: reed switches on a 74HC165 chain; SPI.readinto shifts out what
  was latched on the last SH/LD low pulse, then the tied-high SER (0xFF).

Counters (pin_writes, adc_reads, ...) let the bench count operations.
"""
from gogadget.hw import pins as _map

_levels = {}  # GPIO id -> 0/1 as driven by the firmware
rig = None  # the fake board behind the pins (install_colour / install_shift)
counters = {"pin_writes": 0, "adc_reads": 0, "spi_bytes": 0, "wdt_feeds": 0}


def reset_counters():
    for k in counters:
        counters[k] = 0


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        if value is not None:
            self.value(value)
        elif id not in _levels:
            _levels[id] = 1 if pull == Pin.PULL_UP else 0

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if rig is not None:
                ext = rig.input_level(self.id)
                if ext is not None:
                    return ext
            return _levels.get(self.id, 0)
        v = 1 if v else 0
        _levels[self.id] = v
        counters["pin_writes"] += 1
        if rig is not None:
            rig.pin_changed(self.id, v)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def toggle(self):
        self.value(1 - _levels.get(self.id, 0))

    def low(self):
        self.value(0)

    def high(self):
        self.value(1)


def _pin_id(p):
    return p.id if isinstance(p, Pin) else p


class ADC:
    CORE_TEMP = 4

    def __init__(self, pin):
        pid = _pin_id(pin)
        # ADC(0..3) are channels, ADC(26..29) or ADC(Pin(26)) are GPIOs.
        self.channel = pid - 26 if pid >= 26 else pid
        self.gpio = 26 + self.channel

    def read_u16(self):
        counters["adc_reads"] += 1
        if rig is None:
            return 0
        return rig.convert(self.gpio)


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.miso = _pin_id(miso) if miso is not None else None

    def readinto(self, buf, write=0):
        counters["spi_bytes"] += len(buf)
        if rig is None:
            for i in range(len(buf)):
                buf[i] = 0xFF
            return
        rig.shift_out(self.miso, buf)

    def read(self, n, write=0):
        b = bytearray(n)
        self.readinto(b, write)
        return bytes(b)


class WDT:
    last = None

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        WDT.last = self

    def feed(self):
        counters["wdt_feeds"] += 1


def freq(hz=None):
    return 125000000


def reset():
    raise SystemExit("machine.reset()")


def unique_id():
    return b"\x00\x01\x02\x03\x04\x05\x06\x07"


def bitstream(pin, encoding, timing, buf):
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


# --- the fake boards -------------------------------------------------------

class _Lcg:
    """Deterministic noise that both interpreters reproduce."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF or 1

    def next(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


class ColourRig:
    """Linear Hall sensors under a size x size board.

    output(place) = base + sens * field: a black stone (N up, S face down)
    gives field +1, a white one -1; `flipped` places have the sensor mounted
    back to front; `stuck` places read a fixed value."""

    def __init__(self, size, seed=1, noise=0, spread=True):
        self.size = size
        n = size * size
        rnd = _Lcg(seed)
        self.base = [32768 + (rnd.next(3001) - 1500 if spread else 0) for _ in range(n)]
        self.sens = [9000 + (rnd.next(5001) - 2500 if spread else 0) for _ in range(n)]
        self.stones = bytearray(n)  # 0 empty, 1 black, 2 white
        self.flipped = bytearray(n)
        self.stuck = {}
        self.noise = noise
        self.white_ratio = 100  # white step in % of the black step (magnet strength)
        self._rnd = _Lcg(seed + 7)
        self.node = 0  # what the sample capacitor holds
        self.path = -1
        self.stray_reads = 0  # conversions of a channel with no sensor
        self.reads = []  # (gpio, place) of the last scan, if record is on
        self.record = False
        # bank << 8 | c2 << 4 | c1 -> place (n: none), worked out here: the
        # scan under test runs with the heap locked
        self._place_of = [_map.mux_place(size, a >> 8, a >> 4 & 15, a & 15) for a in range(1024)]

    def input_level(self, gpio):
        return None

    def pin_changed(self, gpio, value):
        pass

    def select(self, lines):
        # No allocation here: the scan under test runs with the heap locked.
        v = 0
        for bit in range(len(lines)):
            v |= _levels.get(lines[bit], 0) << bit
        return v

    def addressed(self, gpio):
        """The place the select lines and the ADC input address, or None."""
        bank = _map.ADC_PINS.index(gpio)
        c1 = self.select(_map.MUX_SELECT)
        c2 = self.select(_map.BANK_SELECT)
        place = self._place_of[bank << 8 | c2 << 4 | c1]
        if place >= self.size * self.size:
            return None
        return place

    def voltage(self, place):
        if place is None:
            return 0
        if place in self.stuck:
            return self.stuck[place]
        s = self.stones[place]
        step = self.sens[place]
        if s == 1:
            v = self.base[place] + (-step if self.flipped[place] else step)
        elif s == 2:
            w = step * self.white_ratio // 100
            v = self.base[place] + (w if self.flipped[place] else -w)
        else:
            v = self.base[place]
        if self.noise:
            v += self._rnd.next(2 * self.noise + 1) - self.noise
        return max(0, min(65535, v))

    def convert(self, gpio):
        place = self.addressed(gpio)
        if place is None:
            self.stray_reads += 1
        target = self.voltage(place)
        path = gpio << 16 | self.select(_map.MUX_SELECT) << 8 | self.select(_map.BANK_SELECT)
        if path != self.path:
            value = (self.node + target) // 2  # not settled yet
        else:
            value = target
        self.path = path
        self.node = value
        if self.record:
            self.reads.append((gpio, place))
        return value

    def shift_out(self, miso, buf):
        for i in range(len(buf)):
            buf[i] = 0


class ShiftRig:
    """Reed switches (closed = stone) on a 74HC165 chain, pulled up."""

    def __init__(self, size, chips=None, ser=0):
        self.size = size
        self.chips = _map.shift_chips(size) if chips is None else chips  # a broken chain has fewer
        self.ser = ser  # what the last chip's SER is tied to (0xFF: floating high)
        self.stones = bytearray(size * size)
        self.latched = bytearray(self.chips)
        self.loads = 0

    def input_level(self, gpio):
        return None

    def pin_changed(self, gpio, value):
        if gpio == _map.SHIFT_LOAD and value == 0:
            self.loads += 1
            for chip in range(self.chips):
                byte = 0
                for bit in range(8):
                    place = chip * 8 + bit
                    if place >= len(self.stones):
                        level = _map.shift_spare_level(self.size, place)
                    else:
                        level = 0 if self.stones[place] else 1
                        if not _map.SHIFT_ACTIVE_LOW:
                            level = 1 - level
                    byte |= level << bit
                self.latched[chip] = byte

    def shift_out(self, miso, buf):
        if _levels.get(_map.SHIFT_LOAD, 0) == 0:
            # SH/LD low: the chain is loading, QH follows chip 0's D7.
            bit = self.latched[0] >> 7 if self.chips else 1
            for i in range(len(buf)):
                buf[i] = 0xFF if bit else 0
            return
        for i in range(len(buf)):
            buf[i] = self.latched[i] if i < self.chips else self.ser
        # Shifting moves the SER level in behind the data.
        for i in range(len(self.latched)):
            self.latched[i] = self.ser if i + len(buf) >= self.chips else self.latched[i + len(buf)]

    def convert(self, gpio):
        return 0


class Buttons:
    """Buttons to GND: held buttons read 0 on their pins."""

    def __init__(self):
        self.held = set()

    def input_level(self, gpio):
        if gpio in (_map.BUTTON_PASS, _map.BUTTON_CONFIRM, _map.BUTTON_NEW):
            return 0 if gpio in self.held else 1
        return None


buttons = Buttons()


class _Rig:
    """Dispatches to the installed sensor rig and the buttons."""

    def __init__(self, sensors):
        self.sensors = sensors

    def input_level(self, gpio):
        level = buttons.input_level(gpio)
        if level is not None:
            return level
        return self.sensors.input_level(gpio) if self.sensors else None

    def pin_changed(self, gpio, value):
        if self.sensors:
            self.sensors.pin_changed(gpio, value)

    def convert(self, gpio):
        return self.sensors.convert(gpio) if self.sensors else 0

    def shift_out(self, miso, buf):
        if self.sensors:
            self.sensors.shift_out(miso, buf)
        else:
            for i in range(len(buf)):
                buf[i] = 0xFF


def install(sensor_rig):
    """Put a fake board behind the pins; returns it."""
    global rig
    _levels.clear()
    buttons.held = set()
    rig = _Rig(sensor_rig)
    reset_counters()
    return sensor_rig


def install_colour(size, **kw):
    return install(ColourRig(size, **kw))


def install_shift(size, **kw):
    return install(ShiftRig(size, **kw))
