"""The Pico's own LED as a heartbeat: a short blink a second while the scan
loop runs, fast blinking while a fault is reported.  A dark or steady LED
means the loop has stopped (the watchdog will reset it)."""
from gogadget.compat import const

_PERIOD_MS = const(1000)
_ON_MS = const(80)
_FAULT_PERIOD_MS = const(250)


class Heartbeat:
    def __init__(self, pin):
        self.pin = pin
        self.fault = False
        self.on = -1  # what the LED shows (-1: not written yet)

    def tick(self, now_ms):
        if self.fault:
            on = 1 if (now_ms // _FAULT_PERIOD_MS) & 1 else 0
        else:
            on = 1 if now_ms % _PERIOD_MS < _ON_MS else 0
        if on != self.on:  # a GPIO write only on a change
            self.on = on
            self.pin.value(on)
