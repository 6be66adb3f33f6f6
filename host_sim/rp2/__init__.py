"""The firmware on an emulated Raspberry Pi Pico (RP2040), for tests and `make bench`.

A MicroPython UF2 the person supplies (the official one for the board, see
find_firmware) runs on `rp2040py`'s emulated RP2040: Cortex-M0+, PIO, DMA,
ADC, GPIO, timers and USB CDC, with emulated time.  This module puts the
firmware on its flash, boots it as a board boots, and wires the emulated
pins to a virtual Go board:

* sensors: every ADC conversion returns the Hall reading of the sensor that
  the mux select GPIOs the firmware drives (pins.MUX_SELECT, BANK_SELECT)
  address at that moment, through the two 4067 levels of pins.py, so the
  real scan path (machine.Pin, machine.ADC, the scan plan) is exercised;
* LEDs: the WS2812 bitstream the PIO + DMA program drives on pins.LED_DATA
  is timed edge by edge and decoded into per-LED (r, g, b), one frame per
  latch gap;
* buttons: GPIO inputs pulled low like the switches to GND;
* GTP: bytes over the emulated USB CDC console, where main.py's link reads.

What the emulator cannot tell (ADC settling, flash write times, a real USB
host, flash cache misses) is in hardware/README.md.

No package registry ships a MicroPython firmware for the RP2040, so none
comes with the project: find_firmware looks where the person put one.
"""
import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
sys.path.insert(0, str(FIRMWARE)) if str(FIRMWARE) not in sys.path else None

from gogadget.hw import pins  # noqa: E402
from host_sim.tools import uf2  # noqa: E402,F401
# Each job in a module of its own (firmware: the UF2; flash: the littlefs
# image; ledtap: the LED chain), named here as before they were split.
from host_sim.rp2.firmware import (  # noqa: E402,F401
    ENV, _layout, _newest_first, cache_dir, describe_firmware, find_firmware, firmware_path,
    firmware_source, missing_packages, uf2_board, uf2_payload, unavailable)
from host_sim.rp2.flash import (  # noqa: E402,F401
    FS_BLOCK, FS_BLOCKS, FS_VERSION, build_mpy, flash_image, folders, fs_blocks, read_image)
from host_sim.rp2.ledtap import WS2812_LATCH_NS, WS2812_ONE_NS, LedTap  # noqa: E402,F401

# Raw 12-bit ADC values of the virtual sensors (read_u16 gives v << 4 | v >> 8):
# mid-rail when empty, +-500 counts (about 0.4 V) under a stone, which the
# default calibration (calibfmt.py: thresholds half a DEFAULT_STEP away) reads.
ADC_EMPTY = 2048
ADC_BLACK = 2548
ADC_WHITE = 1548


def patch_usb(dev):
    """rp2040py 0.3.6 answers every armed CDC OUT buffer with a zero-length
    packet 10 us later even when the host has nothing to send, so the guest
    takes a USB interrupt every few tens of us (about a third of its time);
    a real host NAKs until it has data.  Here an armed OUT read is held until
    a byte is queued (../shared/rp2/README.md, "Known modelling artifact")."""
    cdc = dev.cdc
    usb = cdc.usb
    original = usb.on_endpoint_read
    pending = []

    def on_read(endpoint, size):
        if endpoint == cdc._out_endpoint and endpoint >= 0 and cdc.tx_fifo.item_count == 0:
            pending[:] = [(endpoint, size)]
            return
        original(endpoint, size)

    push = cdc.send_serial_byte

    def send(byte):
        push(byte)
        if pending:
            endpoint, size = pending.pop()
            original(endpoint, size)

    usb.on_endpoint_read = on_read
    cdc.send_serial_byte = send


class Pico:
    """An emulated Pico with the firmware's flash, a virtual board on its
    sensors and the LED chain and console watched from the host.

        pico = Pico(image, size=9)
        await pico.start()
        pico.put(place, BLACK); await pico.run_ms(200)
        frame = pico.leds.poll()
        reply = await pico.gtp("genmove b")
    """

    def __init__(self, image, size=19, hold_confirm=False, usb_patch=True, log=False,
                 firmware=None, board="pico"):
        """image: the flash's littlefs image (None: the firmware's UF2
        alone, whatever it puts in the filesystem's blocks, erased flash
        elsewhere); firmware: the UF2 (default: find_firmware's for the
        board); board: rp2040py's board, "pico" or "pico_w" (uf2_board()
        tells)."""
        from rp2040py.boards import BOARDS, resolve_firmware
        from rp2040py.device import MicroPythonDevice
        if firmware is None:
            firmware, why = find_firmware(board)
            if firmware is None:
                raise RuntimeError(why)
        if not Path(firmware).is_file():
            # rp2040py would take a name that is not a file for a version
            # tag and download that firmware: only a file is booted here.
            raise FileNotFoundError("no firmware file %s" % firmware)
        self.firmware = Path(firmware)
        spec = resolve_firmware(BOARDS[board], "micropython", str(firmware))
        self.dev = MicroPythonDevice(board=spec, filesystem=str(image) if image else None)
        self.mcu = self.dev.mcu
        self.clock = self.dev.simulator.clock
        self.size = size
        self.board = bytearray(size * size)  # 0 empty, 1 black, 2 white (scan.py colours)
        self.faults = {}  # place -> raw 12-bit value (a stuck sensor)
        self.conversions = 0
        # Called as on_read(place, nanos) at every ADC conversion (the
        # latency bench finds the scans that read a stone); None: not.
        self.on_read = None
        # Called as adc_source(channel, c2, c1) -> raw 12-bit value at every
        # conversion instead of the ideal sensors above (physics_adc.py
        # hands it host_sim.sim.physics's analog path); None: the ideal ones.
        self.adc_source = None
        self.out = bytearray()  # everything the console printed
        self._seen = 0
        self.dev.cdc.on_serial_data = self._on_serial
        if usb_patch:
            patch_usb(self.dev)
        adc = self.mcu.adc
        self._adc_default = adc.on_adc_read
        adc.on_adc_read = self._on_adc_read
        self._mux = [self.mcu.gpio[g] for g in pins.MUX_SELECT]
        self._bank = [self.mcu.gpio[g] for g in pins.BANK_SELECT]
        self.leds = LedTap(self.dev, pins.LED_DATA, size * size + 3)
        for g in (pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW):
            self.mcu.gpio[g].set_input_value(True)  # released (pulled up)
        if hold_confirm:
            self.mcu.gpio[pins.BUTTON_CONFIRM].set_input_value(False)
        self.log = log

    # -- the virtual board --------------------------------------------------

    def _on_serial(self, data):
        self.out.extend(data)
        if self.log:
            sys.stdout.write(bytes(data).decode("utf-8", "replace"))

    def _on_adc_read(self, channel):
        c1 = 0
        for i, g in enumerate(self._mux):
            if g.output_value:
                c1 |= 1 << i
        c2 = 0
        for i, g in enumerate(self._bank):
            if g.output_value:
                c2 |= 1 << i
        place = pins.mux_place(self.size, channel, c2, c1)
        v = ADC_EMPTY
        if self.adc_source is not None:
            v = self.adc_source(channel, c2, c1)
        elif place < len(self.board):
            v = self.faults.get(place)
            if v is None:
                stone = self.board[place]
                v = ADC_BLACK if stone == 1 else ADC_WHITE if stone == 2 else ADC_EMPTY
        self.mcu.adc.channel_values[channel] = v
        self.conversions += 1
        if self.on_read is not None:
            self.on_read(place, self.clock.nanos)
        self._adc_default(channel)

    def put(self, place, colour):
        self.board[place] = colour

    def press(self, which, down=True):
        """which: pins.BUTTON_PASS / BUTTON_CONFIRM / BUTTON_NEW."""
        self.mcu.gpio[which].set_input_value(not down)

    # -- time and console ---------------------------------------------------

    @property
    def now_ms(self):
        return self.clock.nanos / 1e6

    async def start(self, timeout=120):
        await self.dev.astart(timeout=timeout)

    def stop(self):
        self.dev.stop()

    async def run_ms(self, ms):
        """Let the emulated Pico run for ms of emulated time."""
        done = asyncio.Event()
        alarm = self.clock.create_alarm(done.set)
        alarm.schedule(ms * 1e6)
        await self.dev.simulator.wait_for(done, None)

    async def run_until(self, test, step_ms=20, limit_ms=5000):
        """Run until test() is true (checked every step_ms); False at the limit."""
        end = self.now_ms + limit_ms
        while not test():
            if self.now_ms >= end:
                return False
            await self.run_ms(step_ms)
        return True

    def send(self, text):
        for b in text.encode():
            self.dev.cdc.send_serial_byte(b)

    def _text(self):
        return bytes(self.out).decode("utf-8", "replace").replace("\r\n", "\n")

    async def read_reply(self, limit_ms=5000):
        """The next GTP reply (text up to a blank line) the console printed."""
        def complete():
            return "\n\n" in self._text()[self._seen:]

        if not await self.run_until(complete, 10, limit_ms):
            raise TimeoutError("no GTP reply within %d ms (emulated); console: %r"
                               % (limit_ms, self._text()[self._seen:][-300:]))
        text = self._text()
        end = text.index("\n\n", self._seen) + 2
        reply = text[self._seen:end]
        self._seen = end
        return reply.strip()

    def skip_output(self):
        """Forget what the console printed so far (boot messages)."""
        self._seen = len(self._text())

    async def gtp(self, command, limit_ms=5000):
        self.send(command + "\n")
        return await self.read_reply(limit_ms)

    def console(self):
        return bytes(self.out).decode("utf-8", "replace")

    async def exec(self, code, timeout=600):
        """Run code over the raw REPL (only when main.py is not looping)."""
        out, err = await self.dev.aexec(code, timeout=timeout)
        return out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def expected_leds(size, frame, now_ms=0, **config):
    """What the chain must show for a referee frame, per LED (r, g, b):
    the firmware's own LedChain run on CPython over a neopixel-like buffer."""
    sys.path.insert(0, str(ROOT / "tests" / "mp"))
    from gogadget import frame as F
    from gogadget.config import Config
    from gogadget.hw.leds import LedChain

    cfg = Config(size=size, **config)

    class Np:
        ORDER = (1, 0, 2, 3)
        bpp = 3

        def __init__(self, n):
            self.n = n
            self.buf = bytearray(3 * n)

        def write(self):
            pass

    n = size * size + F.STATUS_PIXELS
    np = Np(n)
    chain = LedChain(np, size, cfg.max_brightness, cfg.budget_ma)
    chain.show(frame, now_ms)
    return [(np.buf[3 * i + 1], np.buf[3 * i], np.buf[3 * i + 2]) for i in range(n)]


def env_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")
