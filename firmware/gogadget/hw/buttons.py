"""The three buttons (pass, confirm, new game), switched to GND with the
RP2040's internal pull-ups, turned into events.BTN_* codes.

* a press must hold for debounce_ms before it counts (contact bounce);
* pass is reported on release, so that holding it can mean something else:
  held for long_press_ms it is BTN_RESIGN (once, while still held);
* pass and new held together for long_press_ms is BTN_CALIBRATE, and
  neither button reports anything else for that press;
* new game is reported on release, confirm on press.
"""
from gogadget.compat import const, ticks_diff
from gogadget.events import (BTN_NONE, BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN,
                             BTN_CALIBRATE)

PASS = const(0)
CONFIRM = const(1)
NEW = const(2)
_QUEUE = const(8)


class Buttons:
    def __init__(self, pass_pin, confirm_pin, new_pin, long_press_ms=800, debounce_ms=20):
        self._pins = [pass_pin, confirm_pin, new_pin]
        self.long_press_ms = long_press_ms
        self.debounce_ms = debounce_ms
        self._stable = bytearray(3)  # debounced: 1 = pressed
        self._raw = bytearray(3)
        self._raw_since = [0, 0, 0]
        self._pressed_at = [0, 0, 0]
        self._used = bytearray(3)  # this press already meant something (long press, combo)
        self._combo_at = 0
        self._combo = False
        self._combo_fired = False
        self._queue = bytearray(_QUEUE)
        self._head = 0
        self._len = 0

    def held(self, which):
        """Debounced state of one button (0 pass, 1 confirm, 2 new)."""
        return self._stable[which] == 1

    def down_now(self, which):
        """Is the button pressed right now (undebounced; for the boot check)?"""
        return self._pins[which].value() == 0

    def _push(self, code):
        if self._len < _QUEUE:
            self._queue[(self._head + self._len) % _QUEUE] = code
            self._len += 1

    def poll(self, now_ms):
        """-> one BTN_* code (BTN_NONE if nothing happened)."""
        for i in range(3):
            raw = 1 if self._pins[i].value() == 0 else 0
            if raw != self._raw[i]:
                self._raw[i] = raw
                self._raw_since[i] = now_ms
            if raw != self._stable[i] and ticks_diff(now_ms, self._raw_since[i]) >= self.debounce_ms:
                self._stable[i] = raw
                if raw:
                    self._press(i, now_ms)
                else:
                    self._release(i)
        self._held(now_ms)
        if not self._len:
            return BTN_NONE
        code = self._queue[self._head]
        self._head = (self._head + 1) % _QUEUE
        self._len -= 1
        return code

    def _press(self, i, now_ms):
        self._pressed_at[i] = now_ms
        self._used[i] = 0
        if i == CONFIRM:
            self._push(BTN_CONFIRM)
        if self._stable[PASS] and self._stable[NEW] and not self._combo \
                and not self._used[PASS]:
            # A combination press never means pass or new game.
            self._combo = True
            self._combo_fired = False
            self._combo_at = now_ms
            self._used[PASS] = 1
            self._used[NEW] = 1

    def _release(self, i):
        if i == PASS and not self._used[PASS]:
            self._push(BTN_PASS)
        elif i == NEW and not self._used[NEW]:
            self._push(BTN_NEW)
        if i != CONFIRM:
            self._combo = False

    def _held(self, now_ms):
        if self._combo:
            if not self._combo_fired and ticks_diff(now_ms, self._combo_at) >= self.long_press_ms:
                self._combo_fired = True
                self._push(BTN_CALIBRATE)
            return
        if self._stable[PASS] and not self._used[PASS] \
                and ticks_diff(now_ms, self._pressed_at[PASS]) >= self.long_press_ms:
            self._used[PASS] = 1
            self._push(BTN_RESIGN)


class CalibrateButton:
    """Buttons as the App sees them, minus BTN_CALIBRATE, which the scan
    loop (loop.py) turns into the calibration procedure instead of letting
    it reach the referee."""

    def __init__(self, buttons):
        self.buttons = buttons
        self.wanted = False

    def poll(self, now_ms):
        b = self.buttons.poll(now_ms)
        if b == BTN_CALIBRATE:
            self.wanted = True
            return BTN_NONE
        return b
