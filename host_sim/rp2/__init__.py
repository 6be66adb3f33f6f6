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
import hashlib
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
sys.path.insert(0, str(FIRMWARE)) if str(FIRMWARE) not in sys.path else None

from gogadget.hw import pins  # noqa: E402
from host_sim.tools import uf2  # noqa: E402

# littlefs as the official rp2 firmware formats the Pico's flash (1408 KiB
# at 4 KB; host_sim/tools/uf2.py's LAYOUTS has both boards).
FS_BLOCK = uf2.FS_BLOCK
FS_BLOCKS = uf2.LAYOUTS["pico"].fs_blocks
FS_VERSION = uf2.FS_VERSION

# Where the emulated Pico's firmware comes from: --image PATH where a tool
# takes one, else this variable (a UF2 file or a folder of them), else the
# user's cache folder (cache_dir()).
ENV = "GOGADGET_UF2"

# Raw 12-bit ADC values of the virtual sensors (read_u16 gives v << 4 | v >> 8):
# mid-rail when empty, +-500 counts (about 0.4 V) under a stone, which the
# default calibration (calibfmt.py: thresholds half a DEFAULT_STEP away) reads.
ADC_EMPTY = 2048
ADC_BLACK = 2548
ADC_WHITE = 1548

WS2812_ONE_NS = 560  # a high pulse longer than this is a 1 (T0H 250-400 ns, T1H 700-875 ns)
WS2812_LATCH_NS = 50000


def cache_dir():
    """${XDG_CACHE_HOME:-~/.cache}/gogadget/firmware: where a person keeps
    the official UF2s (a relative XDG_CACHE_HOME is ignored, as the XDG
    spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gogadget" / "firmware"


def firmware_source(image=None):
    """(what to look in, how it was named): image when given, else
    $GOGADGET_UF2, else the cache folder."""
    if image:
        return Path(image).expanduser(), "--image %s" % image
    given = os.environ.get(ENV, "")
    if given:
        return Path(given).expanduser(), "%s=%s" % (ENV, given)
    return cache_dir(), "the cache folder %s" % cache_dir()


def _layout(board):
    """uf2.LAYOUTS' entry for a board named either way ("pico_w" is rp2040py's)."""
    return uf2.LAYOUTS[board.replace("_", "-")]


def _newest_first(path):
    # RPI_PICO-20260101-v1.29.0.uf2: the date, then the version, by number
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


def find_firmware(board="pico", image=None, source=None):
    """(UF2 path, None) for the board ("pico" or "pico_w"), or (None, why
    not).  Looks in one place (firmware_source): a file is taken when it is
    MicroPython for that board; in a folder the newest RPI_PICO-*.uf2 (the
    Pico) or RPI_PICO_W-*.uf2 (the Pico W) that is, by its name's date and
    version.  Either way the board is told by content too (a Pico W build
    names its board).  source: firmware_source()'s answer taken earlier
    (the tests take it before they change XDG_*)."""
    layout = _layout(board)
    where, named = source or firmware_source(image)
    if where.is_dir():
        candidates = sorted(where.glob(layout.micropython + "-*.uf2"), key=_newest_first,
                            reverse=True)
    elif where.is_file():
        candidates = [where]
    else:
        candidates = []
    refused = []
    for path in candidates:
        try:
            if uf2.board_of(uf2.read_blocks(path)) == layout.board:
                return path, None
            refused.append("%s is not for the %s" % (path.name, layout.micropython))
        except uf2.ImageError as exc:
            refused.append(str(exc))
    if where.is_file() or where.is_dir():
        what = "%s holds no %s firmware" % (named, layout.micropython) if not refused \
            else "%s: %s" % (named, "; ".join(refused))
    else:
        what = "%s does not exist" % named if not named.startswith("the cache") \
            else "nothing in %s" % where
    return None, (
        "no MicroPython UF2 for the %s (%s-*.uf2) at hand (%s): download the official one from "
        "https://micropython.org/download/%s/ (or with mpflash, PyPI) into %s, or name it "
        "(a file or its folder) with %s=PATH; no package registry ships one, so the emulated "
        "Pico's tests skip without it, CI included"
        % ("Pico W" if layout.board == "pico-w" else "Pico", layout.micropython, what,
           layout.micropython, cache_dir(), ENV))


def firmware_path(board="pico", image=None):
    """The UF2 find_firmware finds, or None."""
    return find_firmware(board, image)[0]


def uf2_payload(path):
    """The bytes a UF2 file puts in flash, in block order."""
    return uf2.payload(uf2.read_blocks(path))


def uf2_board(path):
    """rp2040py's board for a MicroPython UF2: "pico_w" when the build names
    the Pico W (its radio needs that board's model to boot), else "pico"."""
    return uf2.LAYOUTS[uf2.board_of(uf2.read_blocks(path))].emulated if path else "pico"


def describe_firmware(path):
    """The firmware's banner (what its REPL prints first), file name and
    sha256: what a figure measured on it names."""
    data = Path(path).read_bytes()
    name = uf2.banner(uf2.read_blocks(path)) or "MicroPython of unknown version"
    return "%s (%s, sha256 %s)" % (name, Path(path).name, hashlib.sha256(data).hexdigest())


def missing_packages():
    """None when the emulator's packages are installed, else what to do."""
    for mod, pkg in (("rp2040py", "rp2040py"), ("littlefs", "littlefs-python")):
        try:
            __import__(mod)
        except ImportError:
            return "%s is not installed (make venv)" % pkg
    return None


def unavailable(board="pico", image=None):
    """None when the emulated Pico can run here, else why not (a skip reason)."""
    return missing_packages() or find_firmware(board, image)[1]


def build_mpy(out):
    """`make mpy` into out (a Path); returns out."""
    import io

    from host_sim.tools.mpy import build
    build(out=Path(out), stream=io.StringIO())
    return Path(out)


def fs_blocks(firmware):
    """The littlefs blocks the official firmware of a UF2's board gives its
    file system: 352 on a Pico, 212 on a Pico W, whose radio firmware takes
    flash (uf2.LAYOUTS)."""
    return _layout(uf2_board(firmware)).fs_blocks


def flash_image(dest, build_dir=None, files=None, dirs=(), blocks=FS_BLOCKS):
    """A littlefs image of the Pico's flash: everything under build_dir
    (main.py, gogadget/...) plus files {name: bytes} in dirs (made first).
    blocks: the file system's size (fs_blocks(board)).  Returns dest."""
    from littlefs import LittleFS, UserContext
    ctx = UserContext(buffsize=FS_BLOCK * blocks)
    fs = LittleFS(context=ctx, block_size=FS_BLOCK, block_count=blocks, prog_size=256,
                  disk_version=FS_VERSION)
    if build_dir is not None:
        build_dir = Path(build_dir)
        for p in sorted(build_dir.rglob("*")):
            rel = p.relative_to(build_dir).as_posix()
            if rel.startswith("."):
                continue
            if p.is_dir():
                fs.mkdir(rel)
            elif p.suffix in (".py", ".mpy"):
                with fs.open(rel, "wb") as f:
                    f.write(p.read_bytes())
    for d in dirs:
        fs.mkdir(d)
    for name, data in (files or {}).items():
        with fs.open(name, "wb") as f:
            f.write(data)
    fs.unmount()
    Path(dest).write_bytes(bytes(ctx.buffer))
    return Path(dest)


def read_image(path):
    """{name: bytes} of every file in a littlefs image (a dumped flash)."""
    from littlefs import LittleFS, UserContext
    data = Path(path).read_bytes()
    ctx = UserContext(buffsize=len(data))
    ctx.buffer[:] = data
    # No disk_version: the board formats with its own littlefs version.
    fs = LittleFS(context=ctx, block_size=FS_BLOCK, block_count=len(data) // FS_BLOCK, mount=True)
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for n in names:
            p = (root.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    fs.unmount()
    return out


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


class LedTap:
    """Decodes the WS2812 bitstream the PIO program drives on a GPIO into
    frames of (r, g, b) per LED.

    Bits are told apart by where the state machine is when the line rises
    (hw/ws2812pio.py's program: `jmp not_x` sends a 1 on to `jmp bitloop`,
    a 0 to `nop`), not by pulse widths: rp2040py steps PIO one instruction
    per CPU instruction or idle jump, so while the core sleeps the emulated
    pulses stretch and shrink in ways the real chip's do not (its PIO runs
    on its own clock; hardware/README.md).  A frame is `count` LEDs of 24
    bits; frames follow each other bit-exactly from the first rising edge.
    `started_ns` is when a frame's first bit went out and `ended_ns` when it
    ends on a real chain: that plus count x 24 x 1.25 us (800 kHz)."""

    BIT_NS = 1250

    def __init__(self, dev, gpio, count, sm=0):
        self.clock = dev.simulator.clock
        self.sm = dev.mcu.pio[sm // 4].machines[sm % 4]
        self.count = count
        self.bits = []
        self.frames = 0  # complete frames seen
        self.last = None  # the last complete frame: list of (r, g, b)
        self.started_ns = 0  # first bit of the frame being received
        self.last_started_ns = 0  # ... of the last complete frame
        self.ended_ns = 0  # when the last complete frame ends on a real chain
        self.glitches = 0
        self.bad = 0
        dev.mcu.gpio[gpio].add_listener(self._edge)

    def _edge(self, value, last_value):
        try:
            high = int(value) == 1
        except (TypeError, ValueError):
            high = str(value) in ("1", "High", "GPIOPinState.High")
        if not high:
            return
        sm = self.sm
        # after `jmp not_x` the pc is at bitloop's `jmp` (a 1) or at `nop` (a 0)
        step = sm.pc - sm.wrap_bottom
        if step != 2 and step != 3:
            self.glitches += 1  # a rise not from the bit loop
            return
        bit = 1 if step == 2 else 0
        bits = self.bits
        if not bits:
            self.started_ns = self.clock.nanos
        bits.append(bit)
        if len(bits) == 24 * self.count:
            self._close()

    def _close(self):
        bits = self.bits
        self.bits = []
        leds = []
        for k in range(0, len(bits), 24):
            v = 0
            for b in bits[k:k + 24]:
                v = v << 1 | b
            g, r, b = v >> 16, (v >> 8) & 255, v & 255
            leds.append((r, g, b))
        self.last = leds
        self.last_started_ns = self.started_ns
        self.ended_ns = self.started_ns + 24 * self.count * self.BIT_NS
        self.frames += 1

    def poll(self):
        """The last complete frame (None before the first)."""
        return self.last


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
