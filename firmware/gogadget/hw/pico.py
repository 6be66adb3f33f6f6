"""Builds the drivers of the reference design from pins.py and a Config.

The only module that imports machine, neopixel and rp2; tests pass the fakes
of tests/mp in instead (or put them on the import path).  Each driver module
is imported when its driver is built, so a board's heap holds only the
bytecode of the drivers it has (a colour board never loads the shift-register
scanner, an occupancy board neither the mux scanner nor the calibration).
"""
import sys

from gogadget.compat import forget
from gogadget import frame as F
from gogadget.hw import pins
from gogadget.hw import rp2fast
from gogadget.scan import SENSOR_COLOUR

CALIBRATION_FILE = "calib.bin"


def _machine(machine):
    if machine is None:
        import machine
    return machine


def start_watchdog(ms, machine=None):
    """The RP2040's watchdog, started: the scan loop must feed it within ms."""
    return _machine(machine).WDT(timeout=ms)


def load_calibration(size, path=CALIBRATION_FILE):
    """-> (Calibration, message): the stored one, or the defaults and why.
    What derives the thresholds from the file leaves the heap afterwards: a
    game never derives them again."""
    from gogadget.hw.calib import Calibration, CalibrationError
    from gogadget.hw import calibderive
    try:
        return calibderive.load(path, size), "calibration loaded"
    except OSError:
        return Calibration(size), "not calibrated yet: hold pass + new to calibrate"
    except CalibrationError as exc:
        return Calibration(size), "%s: hold pass + new to calibrate" % exc
    finally:
        forget("hw.calibderive", "hw.calibfile")


def make_sensors(config, machine=None, calibration=None):
    m = _machine(machine)
    size = config.size
    if config.sensors == SENSOR_COLOUR:
        out = m.Pin.OUT
        select = [m.Pin(g, out, value=0) for g in pins.MUX_SELECT]
        bank = [m.Pin(g, out, value=0) for g in pins.BANK_SELECT]
        used = pins.ADC_PINS[:pins.bank_count(size)]
        adcs = [m.ADC(m.Pin(g)) for g in used]
        fast = rp2fast.load() if machine is None else None  # real pins only
        from gogadget.hw.muxscan import MuxScanner
        return MuxScanner(size, select, bank, adcs, calibration, fast=fast)
    spi = m.SPI(pins.SPI_ID, baudrate=pins.SHIFT_BAUD, polarity=0, phase=0,
                sck=m.Pin(pins.SPI_SCK), mosi=m.Pin(pins.SPI_MOSI), miso=m.Pin(pins.SPI_MISO))
    from gogadget.hw.shiftscan import ShiftScanner
    return ShiftScanner(size, spi, m.Pin(pins.SHIFT_LOAD, m.Pin.OUT, value=1))


def make_leds(config, machine=None, neopixel=None, rp2=None):
    """On the RP2040 the chain goes out by PIO + DMA without blocking the
    scan; elsewhere (ESP32, ...) through the port's blocking neopixel."""
    m = _machine(machine)
    if rp2 is None and neopixel is None and sys.platform == "rp2":
        import rp2
    count = config.size * config.size + F.STATUS_PIXELS
    pin = m.Pin(pins.LED_DATA, m.Pin.OUT)
    if rp2 is not None:
        from gogadget.hw.ws2812pio import PioChain
        np = PioChain(rp2, pin, count, pins.LED_STATE_MACHINE)
    else:
        if neopixel is None:
            import neopixel
        np = neopixel.NeoPixel(pin, count)
    fast = rp2fast.load() if machine is None else None
    from gogadget.hw.leds import LedChain
    return LedChain(np, config.size, config.max_brightness, config.budget_ma, fast=fast)


def make_buttons(config, machine=None):
    m = _machine(machine)
    up = m.Pin.PULL_UP
    from gogadget.hw.buttons import Buttons
    return Buttons([m.Pin(g, m.Pin.IN, up) for g in (pins.BUTTON_PASS, pins.BUTTON_CONFIRM,
                                                      pins.BUTTON_NEW)], config.long_press_ms)


def make_clock_display(config, machine=None):
    """The optional clock display (hw/tm1637.py) when a time control is set
    and a module answers on its pins; else None (and nothing is loaded)."""
    if config.time_control == "none":
        return None
    m = _machine(machine)
    from gogadget.hw import tm1637
    # The internal pull-ups keep unconnected pins high: no module, no ACK.
    return tm1637.find(m.Pin(pins.DISPLAY_CLK, m.Pin.OPEN_DRAIN, m.Pin.PULL_UP, value=1),
                       m.Pin(pins.DISPLAY_DIO, m.Pin.OPEN_DRAIN, m.Pin.PULL_UP, value=1))


def make_heartbeat(machine=None):
    m = _machine(machine)
    from gogadget.hw.heartbeat import Heartbeat
    return Heartbeat(m.Pin(pins.STATUS_LED, m.Pin.OUT))
