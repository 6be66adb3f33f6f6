"""Scan figures: what one full 19x19 scan costs, and whether a Pico keeps
50 full scans per second with the LED write included.

Counts come from the pin-level fakes (tests/mp/machine.py counts every GPIO
write and ADC conversion the scanner makes); times from the MicroPython
unix port running the real scanner and LED driver, once against the wiring
model and once against do-nothing pins that isolate the firmware's own
interpreter cost.  For the RP2040 this section gives only what the hardware
itself takes (ADC conversions, the WS2812 bitstream, from the datasheets);
the whole cycle is measured on the emulated chip (host_sim/bench/rp2/).

On the RP2040 the LED chain is written by PIO + DMA (gogadget/hw/ws2812pio.py):
write() only starts the transfer, so a cycle costs scan + render + DMA
start, and the 11 ms bitstream runs during the next scan; it must end
within one period.  Ports without PIO use the blocking neopixel write, which
the estimate shows too.
"""
import os
import subprocess
import sys
from pathlib import Path

from host_sim.bench import referee as referee_bench

ROOT = Path(__file__).resolve().parents[2]
SIZE = 19
TARGET_HZ = 50

# RP2040 hardware figures (datasheet): the ADC converts in 96 cycles of its
# 48 MHz clock = 2 us (500 ksps) and read_u16 waits for it; WS2812 bits are
# 1.25 us (800 kHz), 24 per LED, then >= 50 us low to latch.
ADC_US = 2.0
WS2812_BIT_US = 1.25
WS2812_RESET_US = 50
PIO_LATCH_US = 100  # ws2812pio.write() keeps the line low this long first
# A 4067 switches in ~0.1 us and its node settles within one 2 us
# conversion, which the scanner throws away (pins.SETTLE_READS), so the
# settle time is already in the ADC count.

SCRIPT = r"""
import time, gc
import machine, neopixel
from gogadget.config import Config
from gogadget.hw import pico, pins
from gogadget.hw.muxscan import MuxScanner
from gogadget.hw.leds import LedChain
from gogadget.frame import new_frame, PUT_BLACK, BLINK, LAST
from gogadget.scan import new_scan
size = %(size)d
N = %(n)d
rig = machine.install_colour(size, seed=3, noise=300)
for p in range(0, size * size, 3):
    rig.stones[p] = 1 + p %% 2
cfg = Config(size=size)
sensors = pico.make_sensors(cfg, machine)
scan = new_scan(size)
sensors.read(scan)  # warm up: the plan starts where it ends

machine.reset_counters()
sensors.read(scan)
c = machine.counters
print("COUNT plan %%d pin_writes %%d adc_reads %%d classified %%d" %% (
    sensors.plan_len, c["pin_writes"], c["adc_reads"], len(sensors.raw)))

def timed(fn):
    gc.collect()
    t0 = time.ticks_us()
    for _ in range(N):
        fn()
    return time.ticks_diff(time.ticks_us(), t0) / N

print("FAKE read_raw %%.1f classify %%.1f" %% (timed(sensors.read_raw), timed(lambda: sensors.classify(scan))))

class NullPin:
    def value(self, v=None):
        return 0
class NullAdc:
    def read_u16(self):
        return 32768
bare = MuxScanner(size, [NullPin() for _ in range(4)], [NullPin() for _ in range(4)],
                  [NullAdc(), NullAdc()], sensors.calibration)
print("BARE read_raw %%.1f classify %%.1f" %% (timed(bare.read_raw), timed(lambda: bare.classify(scan))))

np = neopixel.NeoPixel(machine.Pin(pins.LED_DATA), size * size + 3)
leds = LedChain(np, size, cfg.max_brightness, cfg.budget_ma)
frame = new_frame(size)
frame[0] = 40
k = [0]
def led_change():
    # a new prompt every cycle: the driver must render and write each time
    k[0] += 1
    frame[1 + k[0] %% (size * size)] = PUT_BLACK | BLINK
    frame[1 + (k[0] * 7) %% (size * size)] = LAST
    leds.show(frame, k[0] * 20)
def led_same():
    leds.show(frame, 10)
w0 = np.writes
t_change = timed(led_change)
writes = np.writes - w0
leds.show(frame, 10)
w1 = np.writes
t_same = timed(led_same)
print("LED change %%.1f same %%.1f writes_change %%d writes_same %%d bytes %%d" %% (t_change, t_same, writes, np.writes - w1, len(np.buf)))

# The RP2040 driver: PIO + DMA.  Built on the rp2 fake, then its state
# machine and DMA channel swapped for do-nothing ones, so the time is the
# interpreter's (render into the word layout + write() starting a transfer);
# the 100 us latch sleep is hardware time, added by the estimate.
import rp2
from gogadget.hw import ws2812pio
class NullSm:
    def tx_fifo(self):
        return 0
class NullDma:
    def active(self, v=None):
        return 0
    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        pass
ws2812pio._sleep_us = None
pchain = ws2812pio.PioChain(rp2, machine.Pin(pins.LED_DATA), size * size + 3)
pchain.sm = NullSm()
pchain.dma = NullDma()
leds = LedChain(pchain, size, cfg.max_brightness, cfg.budget_ma)
t_pio = timed(led_change)
print("PIO change %%.1f write %%.1f" %% (t_pio, timed(pchain.write)))

shift = machine.install_shift(size)
occ = pico.make_sensors(Config(size=size, sensors="occupancy"), machine)
occ.read(scan)
machine.reset_counters()
occ.read(scan)
print("SHIFT pin_writes %%d spi_bytes %%d read %%.1f" %% (c["pin_writes"], c["spi_bytes"], timed(lambda: occ.read(scan))))
"""


def micropython(code):
    exe = Path(sys.executable).parent / "micropython"
    path = "%s:%s" % (ROOT / "firmware", ROOT / "tests" / "mp")
    env = dict(os.environ, MICROPYPATH=path)
    return subprocess.run([str(exe) if exe.exists() else "micropython", "-c", code],
                          capture_output=True, text=True, env=env, timeout=600)


def parse(stdout):
    out = {}
    for line in stdout.splitlines():
        parts = line.split()
        if not parts:
            continue
        tag, rest = parts[0], parts[1:]
        vals = {}
        i = 0
        while i < len(rest):
            if i + 1 < len(rest) and rest[i + 1].replace(".", "", 1).lstrip("-").isdigit():
                vals[rest[i]] = float(rest[i + 1])
                i += 2
            else:
                i += 1
        out[tag] = vals
    return out


def referee_idle_us():
    """referee.update() with an unchanged scan, unix port (None if unavailable)."""
    proc = referee_bench.micropython(referee_bench.COST)
    if proc.returncode != 0:
        return None
    words = proc.stdout.split()
    return float(words[words.index("IDLE") + 1])


def main():
    proc = micropython(SCRIPT % {"size": SIZE, "n": 30})
    if proc.returncode != 0:
        print("scan bench failed:", proc.stdout, proc.stderr[-800:])
        return 1
    f = parse(proc.stdout)
    count, fake, bare, led, shift = f["COUNT"], f["FAKE"], f["BARE"], f["LED"], f["SHIFT"]
    pio = f["PIO"]
    n = SIZE * SIZE
    leds = n + 3
    adc = int(count["adc_reads"])
    settle = adc - int(count["classified"])

    print("full %dx%d colour scan (counted by the pin-level fakes, tests/mp/machine.py):" % (SIZE, SIZE))
    print("  select-line writes  %5d  (Gray-code order: %.2f per sensor)" % (count["pin_writes"], count["pin_writes"] / n))
    print("  ADC conversions     %5d  (%d kept + %d settle reads thrown away)" % (adc, count["classified"], settle))
    print("  classifications     %5d" % count["classified"])
    print("  occupancy variant: %d SH/LD writes + %d SPI bytes (%d x 74HC165 + 1 check byte)"
          % (shift["pin_writes"], shift["spi_bytes"], shift["spi_bytes"] - 1))
    print()
    print("MicroPython unix port, this machine (us per call):")
    print("  read_raw against the wiring model %8.1f   classify %8.1f" % (fake["read_raw"], fake["classify"]))
    print("  read_raw against do-nothing pins  %8.1f   classify %8.1f" % (bare["read_raw"], bare["classify"]))
    print("  LedChain.show, frame changed      %8.1f   (%d chain writes in 30 calls; %d bytes)"
          % (led["change"], led["writes_change"], led["bytes"]))
    print("  LedChain.show, nothing changed    %8.1f   (%d chain writes in 30 calls)"
          % (led["same"], led["writes_same"]))
    print("  LedChain.show + PIO/DMA write()   %8.1f   (frame changed; write() alone %.1f)"
          % (pio["change"], pio["write"]))
    print("  occupancy read (SPI fake)         %8.1f" % shift["read"])
    ref_us = referee_idle_us()
    if ref_us is not None:
        print("  referee.update, scan unchanged    %8.1f   (host_sim/bench/referee.py)" % ref_us)
    print()

    # The RP2040 itself: what the hardware takes, from the datasheets; the
    # interpreter's time is measured on the emulated chip (section rp2), not
    # scaled from these unix-port times.
    adc_hw = adc * ADC_US / 1000
    ws = (leds * 24 * WS2812_BIT_US + WS2812_RESET_US) / 1000
    budget = 1000 / TARGET_HZ
    print("RP2040 hardware time per full scan (datasheet figures; the interpreter's share is")
    print("measured in emulation, section rp2):")
    print("  ADC conversions: %d x %.0f us at 500 ksps (RP2040 datasheet 4.9; settle reads"
          " included)  %6.2f ms" % (adc, ADC_US, adc_hw))
    print("  WS2812 bitstream by DMA: %d LEDs x 24 bits x %.2f us + %d us reset (WS2812B"
          " datasheet)  %6.2f ms" % (leds, WS2812_BIT_US, WS2812_RESET_US, ws))
    print("  verdict: the bitstream + %d us latch gap ends within one %.0f ms period: %s"
          % (PIO_LATCH_US, budget, "met" if ws + PIO_LATCH_US / 1000 <= budget else "MISSED"))
    print("  a blocking neopixel write (ports without PIO) adds the %.2f ms bitstream to every"
          " cycle that changes the LEDs" % ws)
    return 0


if __name__ == "__main__":
    sys.exit(main())
