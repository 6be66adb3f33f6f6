"""Go Gadget on a Raspberry Pi Pico: config, self-test, resume, scan loop.

Boot: the config from flash (defaults if missing or damaged), the sensor
calibration, the sensor self-test (faults named over USB and on the LEDs),
resume from the journal, then one App.step() per scan period on a fixed
ticks_add schedule (no drift: a slow cycle shortens the next sleep, it does
not shift every later one), feeding the watchdog each cycle.

Hold CONFIRM while powering up to skip the loop (maintenance: mpremote and
`make deploy` can then reach the REPL, which the GTP link otherwise keeps).
"""
import gc
import time

import machine

from gogadget.config import Config
from gogadget.events import BTN_CALIBRATE, BTN_NONE
from gogadget.frame import new_frame
from gogadget.hw import pico, selftest
from gogadget.hw.buttons import CONFIRM
from gogadget.hw.calibrate import Calibrator

CONFIG_FILE = "config.json"
WATCHDOG_MS = 4000  # longest cycle the board survives: a game save is ~100 ms


def load_config(path=CONFIG_FILE):
    try:
        return Config.load(path), "config " + path
    except OSError:
        return Config(), "no %s: defaults" % path
    except ValueError as exc:
        return Config(), "%s: defaults" % exc


class CalibrateButton:
    """Buttons as the App sees them, minus BTN_CALIBRATE, which starts the
    calibration procedure here instead of reaching the referee."""

    def __init__(self, buttons):
        self.buttons = buttons
        self.wanted = False

    def poll(self, now_ms):
        b = self.buttons.poll(now_ms)
        if b == BTN_CALIBRATE:
            self.wanted = True
            return BTN_NONE
        return b


def calibrate(sensors, leds, buttons, wdt, path=pico.CALIBRATION_FILE):
    cal = Calibrator(sensors, path)
    print("calibration: " + cal.instructions())
    step = cal.step_no
    while cal.result is None:
        now = time.ticks_ms()
        cal.press(buttons.poll(now))
        if cal.step_no != step and cal.result is None:
            step = cal.step_no
            print("calibration: " + cal.instructions())
        leds.show(cal.frame, now)
        if wdt:
            wdt.feed()
        time.sleep_ms(10)
    print("calibration: " + cal.result)
    leds.show(cal.frame, time.ticks_ms())
    time.sleep_ms(1500)
    return cal.result


def main(cycles=None, stream=None, watchdog=True):
    """cycles: stop after that many (tests); None runs for ever."""
    from gogadget.app import App
    from gogadget.hw import rp2fast
    rp2fast.install()  # viper scan, LED and rules loops on the RP2040
    config, how = load_config()
    print("gogadget: " + how)
    calibration = None
    if config.sensors == "colour":
        calibration, how = pico.load_calibration(config.size)
        print("gogadget: " + how)
    sensors = pico.make_sensors(config, calibration=calibration)
    leds = pico.make_leds(config)
    buttons = pico.make_buttons(config)
    beat = pico.make_heartbeat()
    if buttons.down_now(CONFIRM):
        print("gogadget: confirm held at power-up, not starting")
        return None
    faults = selftest.check(sensors)
    for line in selftest.describe(config.size, faults):
        print(line)
    beat.fault = bool(faults)
    if faults:
        fault_frame = selftest.show(new_frame(config.size), faults)
        fault_frame[0] = config.max_brightness
        leds.show(fault_frame, time.ticks_ms())
        time.sleep_ms(2000)
    if stream is None:
        from gogadget.link import StdioStream
        stream = StdioStream()
    wdt = machine.WDT(timeout=WATCHDOG_MS) if watchdog else None
    guard = CalibrateButton(buttons)
    app = App(config, sensors, leds, guard, config.store, stream)
    app.boot(time.ticks_ms())
    period = 1000 // config.scan_hz
    deadline = time.ticks_ms()
    done = 0
    while cycles is None or done < cycles:
        now = time.ticks_ms()
        try:
            app.step(now)
        except MemoryError:
            # Whatever did not fit is dropped for this cycle (the journal
            # has every accepted move); free what can be freed, say so, go on.
            gc.collect()
            beat.fault = True
            print("gogadget: out of memory in a scan cycle; %d bytes free after collecting"
                  % gc.mem_free())
        beat.tick(now)
        if wdt:
            wdt.feed()
        if guard.wanted:
            guard.wanted = False
            if calibrate(sensors, leds, buttons, wdt) == "ok":
                selftest.check(sensors)
            deadline = time.ticks_ms()
        done += 1
        deadline = time.ticks_add(deadline, period)
        wait = time.ticks_diff(deadline, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        elif wait < -period:
            deadline = time.ticks_ms()  # far behind (a save, a GC): skip, don't burst
    return app


if __name__ == "__main__":
    main()
