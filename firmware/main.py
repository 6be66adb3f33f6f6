"""Go Gadget on a Raspberry Pi Pico: config, self-test, resume, scan loop.

Boot: the config from flash (defaults if missing or damaged), the sensor
calibration, the sensor self-test (faults named over USB and on the LEDs),
resume from the journal, then one App.step() per scan period on a fixed
ticks_add schedule (no drift: a slow cycle shortens the next sleep, it does
not shift every later one), feeding the watchdog each cycle.

On the UF2 image this file is frozen, and MicroPython runs a frozen main.py
in preference to /main.py on the flash: so when the flash has a /main.py
(a developer's, or `make deploy`'s), the frozen one hands over to it.
Imports look at the flash before the frozen modules, so a gogadget/ folder
on the flash replaces the frozen package as a whole.

Hold CONFIRM while powering up to skip the loop (maintenance: mpremote and
`make deploy` can then reach the REPL, which the GTP link otherwise keeps).

With a broker in the config (and Wi-Fi on a Pico W) the board
publishes its game to the tournament room over MQTT (docs/ROOM.md): the
passwords come from secrets.json, beside config.json.
"""
import gc
import time

import machine

from gogadget.config import SECRETS_FILE, Config
from gogadget.events import BTN_CALIBRATE, BTN_NONE
from gogadget.frame import new_frame
from gogadget.compat import forget
from gogadget.hw.buttons import CONFIRM

CONFIG_FILE = "config.json"
WATCHDOG_MS = 4000  # longest cycle the board survives: a game save is ~100 ms


def load_config(path=CONFIG_FILE, secrets=SECRETS_FILE):
    try:
        config, how = Config.load(path), "config " + path
    except OSError:
        return Config(), "no %s: defaults" % path
    except ValueError as exc:
        return Config(), "%s: defaults" % exc
    try:
        config.load_secrets(secrets)
    except ValueError as exc:
        how += "; %s: not publishing" % exc
        config.broker = ""
    return config, how


def make_broadcast(config):
    """The room publisher when the config names a broker, else None (and
    None, said on the console, when umqtt.simple or the Wi-Fi is missing)."""
    if not config.broker:
        return None
    try:
        from gogadget.broadcast import Broadcaster
        from gogadget.hw import net
        factory = net.mqtt_factory(config)
    except ImportError as exc:
        print("gogadget: not publishing, %s: `make deploy` puts umqtt.simple in /lib "
              "(or mpremote mip install umqtt.simple)" % exc)
        return None
    ready = None
    if config.wifi_ssid:
        try:
            wifi = net.Wifi(config.wifi_ssid, config.wifi_password, config.board_id).start()
        except (ImportError, OSError) as exc:
            print("gogadget: not publishing, no Wi-Fi: %s" % exc)
            return None
        ready = wifi.ready
        print("gogadget: joining Wi-Fi " + config.wifi_ssid)
    print("gogadget: publishing as %s to %s:%d" % (config.board_id, config.broker,
                                                  config.broker_port))
    peer = None
    if config.opponent:
        # Two boards, one game: the opponent's moves come on the same connection.
        from gogadget.pairing import Follower
        peer = Follower(config.board_id, config.opponent, 1 if config.pair_colour == "B" else 2,
                        config.pair)
        print("gogadget: playing %s of %s against %s" % (config.pair_colour, config.pair,
                                                         config.opponent))
    return Broadcaster(factory, config.board_id, ready=ready, peer=peer)


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


def self_test(sensors, size=0, leds=None, brightness=0):
    """The sensor self-test (faults named over USB and, given leds, shown on
    them for 2 s); True when a fault was found.  Its module leaves the heap
    afterwards: it runs at boot and after a calibration only."""
    from gogadget.hw import selftest
    faults = selftest.check(sensors)
    if size:
        for line in selftest.describe(size, faults):
            print(line)
    if faults and leds is not None:
        fault_frame = selftest.show(new_frame(size), faults)
        fault_frame[0] = brightness
        leds.show(fault_frame, time.ticks_ms())
        time.sleep_ms(2000)
    selftest = None
    forget("hw.selftest")
    return bool(faults)


def calibrate(sensors, leds, buttons, wdt, path=None):
    """path: hw/pico.py's CALIBRATION_FILE unless given."""
    if path is None:
        from gogadget.hw.pico import CALIBRATION_FILE as path
    try:
        return _calibrate(sensors, leds, buttons, wdt, path)
    finally:
        forget("hw.calibrate", "hw.pico")  # rare: their bytecode leaves the heap again


def _calibrate(sensors, leds, buttons, wdt, path):
    from gogadget.hw.calibrate import Calibrator
    cal = Calibrator(sensors, path, leds=leds)
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
    from gogadget import describe
    print("gogadget " + describe())
    from gogadget.app import App
    from gogadget.hw import rp2fast
    rp2fast.install()  # viper scan, LED and rules loops on the RP2040
    config, how = load_config()
    print("gogadget: " + how)
    from gogadget.hw import pico
    calibration = None
    if config.sensors == "colour":
        calibration, how = pico.load_calibration(config.size)
        print("gogadget: " + how)
    sensors = pico.make_sensors(config, calibration=calibration)
    leds = pico.make_leds(config)
    buttons = pico.make_buttons(config)
    beat = pico.make_heartbeat()
    display = pico.make_clock_display(config)  # None without a clock or a module
    pico = None
    forget("hw.pico")  # the drivers are built: their factories leave the heap
    if buttons.down_now(CONFIRM):
        print("gogadget: confirm held at power-up, not starting")
        return None
    beat.fault = self_test(sensors, config.size, leds, config.max_brightness)
    if stream is None:
        from gogadget.hw.usb import StdioStream
        stream = StdioStream()
    wdt = machine.WDT(timeout=WATCHDOG_MS) if watchdog else None
    guard = CalibrateButton(buttons)
    app = App(config, sensors, leds, guard, config.store, stream,
              broadcast=make_broadcast(config))
    app.boot(time.ticks_ms())
    period = config.scan_period_ms()
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
        if display is not None:
            display.show(app.referee)
        if wdt:
            wdt.feed()
        if guard.wanted:
            guard.wanted = False
            if calibrate(sensors, leds, buttons, wdt) == "ok":
                self_test(sensors)
            deadline = time.ticks_ms()
        done += 1
        deadline = time.ticks_add(deadline, period)
        wait = time.ticks_diff(deadline, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        elif wait < -period:
            deadline = time.ticks_ms()  # far behind (a save, a GC): skip, don't burst
    return app


def flash_main(path="main.py"):
    """The flash's main.py when this one is frozen (a frozen module has no
    __file__) and the flash has one, else None."""
    if "__file__" in globals():
        return None
    import os
    try:
        os.stat(path)
    except OSError:
        return None
    return path


if __name__ == "__main__":
    _own = flash_main()
    if _own:
        print("gogadget: running /%s from the flash, not the frozen one" % _own)
        with open(_own) as _f:
            exec(_f.read(), {"__name__": "__main__", "__file__": _own})
    else:
        main()
