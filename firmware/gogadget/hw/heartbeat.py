"""The Pico's own LED as a heartbeat: a short blink a second while the scan
loop runs, fast blinking while a fault is reported.  A dark or steady LED
means the loop has stopped (the watchdog will reset it)."""
from gogadget.compat import const

PERIOD_MS = const(1000)
ON_MS = const(80)
FAULT_PERIOD_MS = const(250)


class Heartbeat:
    def __init__(self, pin):
        self.pin = pin
        self.fault = False
        self._on = -1

    def tick(self, now_ms):
        if self.fault:
            on = 1 if (now_ms // FAULT_PERIOD_MS) & 1 else 0
        else:
            on = 1 if now_ms % PERIOD_MS < ON_MS else 0
        if on != self._on:  # a GPIO write only on a change
            self._on = on
            self.pin.value(on)
