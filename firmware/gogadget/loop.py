"""The board's scan loop: one App.step() per scan period on a fixed
ticks_add schedule (no drift: a slow cycle shortens the next sleep, it does
not shift every later one), feeding the watchdog each cycle, the heartbeat
and the clock display beside it, and the calibration procedure when the
buttons ask for it.  The start (boot.py) is loaded for the first cycle and
let go once the App runs."""
import gc
import time

from gogadget.compat import forget


def main(cycles=None, stream=None, watchdog=True):
    """Start the board and run it.  cycles: stop after that many (tests);
    None runs for ever.  Returns the App (None when CONFIRM was held)."""
    from gogadget import boot
    started = boot.start(stream, watchdog)
    boot = None
    forget("boot")  # config loading, driver factories, self-test: done with
    if started is None:
        return None
    # The start's garbage (its modules, the config's and calibration's
    # transients) left the heap nearly full: collected now, before the first
    # scan, not by an automatic collection while a stone settles (18 ms on
    # the emulated Pico).
    gc.collect()
    return run(cycles, started)


def run(cycles, started):
    """The loop; started: boot.start's drivers.  (Locals, not arguments:
    an argument's name is a name the board interns for ever.)"""
    app, sensors, leds, buttons, guard, beat, display, wdt = started
    period = app.config.scan_period_ms()
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
            # The calibration procedure (hw/calibrate.py), then, when it
            # took, the self-test again; both modules leave the heap
            # afterwards (rare).
            from gogadget.hw import calibrate
            try:
                result = calibrate.run(sensors, leds, buttons, wdt)
            finally:
                calibrate = None
                forget("hw.calibrate", "hw.pico")
            if result == "ok":
                from gogadget.hw import selftest
                selftest.run(sensors)
                selftest = None
                forget("hw.selftest")
            deadline = time.ticks_ms()
        done += 1
        deadline = time.ticks_add(deadline, period)
        wait = time.ticks_diff(deadline, time.ticks_ms())
        if wait > 0:
            time.sleep_ms(wait)
        elif wait < -period:
            deadline = time.ticks_ms()  # far behind (a save, a GC): skip, don't burst
    return app

