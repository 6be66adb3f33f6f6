"""The three buttons (pass, confirm, new game), switched to GND with the
RP2040's internal pull-ups, turned into events.BTN_* codes.

* a press must hold for 20 ms before it counts (contact bounce);
* pass is reported on release, so that holding it can mean something else:
  held for long_press_ms it is BTN_RESIGN (once, while still held);
* pass and new held together for long_press_ms is BTN_CALIBRATE, and
  neither button reports anything else for that press;
* new game is reported on release, confirm on press; new held for
  long_press_ms is BTN_STUDY (study mode on or off), once, while held.
"""
from gogadget.compat import const, ticks_diff
from gogadget.events import (BTN_NONE, BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN,
                             BTN_CALIBRATE, BTN_STUDY)

_PASS = const(0)
CONFIRM = const(1)  # (boot.py: held at power-up)
_NEW = const(2)
_DEBOUNCE_MS = const(20)
# The buttons' state, one byte each in state (one object, where twelve
# attributes each took a slot and an interned name): per button (+0..2)
# debounced (1 = pressed), raw, and whether this press already meant
# something (a long press, a combination); then the combination's state,
# and a queue of BTN_* codes.
_RAW = const(3)
_USED = const(6)
_COMBO = const(9)
_FIRED = const(10)  # the combination's BTN_CALIBRATE is out
_HEAD = const(11)
_LEN = const(12)
_QUEUE = const(13)
_QUEUE_LEN = const(8)
# since (ms): when each button's raw level last changed (+0..2), when each
# was pressed (+3..5), when the combination began (6).
_PRESSED = const(3)
_COMBO_AT = const(6)


class Buttons:
    def __init__(self, pins, long_press_ms=800):
        """pins: the pass, confirm and new-game buttons' Pins."""
        self.pins = pins
        self.long_press_ms = long_press_ms
        self.state = bytearray(_QUEUE + _QUEUE_LEN)
        self.since = [0] * 7

    def held(self, button):
        """Debounced state of one button (0 pass, 1 confirm, 2 new)."""
        return self.state[button] == 1

    def down_now(self, button):
        """Is the button pressed right now (undebounced; for the boot check)?"""
        return self.pins[button].value() == 0

    def push(self, code):
        st = self.state
        n = st[_LEN]
        if n < _QUEUE_LEN:
            st[_QUEUE + (st[_HEAD] + n) % _QUEUE_LEN] = code
            st[_LEN] = n + 1

    def poll(self, now_ms):
        """-> one BTN_* code (BTN_NONE if nothing happened)."""
        st = self.state
        since = self.since
        for i in range(3):
            raw = 1 if self.pins[i].value() == 0 else 0
            if raw != st[_RAW + i]:
                st[_RAW + i] = raw
                since[i] = now_ms
            if raw == st[i] or ticks_diff(now_ms, since[i]) < _DEBOUNCE_MS:
                continue
            st[i] = raw
            if raw:  # pressed
                since[_PRESSED + i] = now_ms
                st[_USED + i] = 0
                if i == CONFIRM:
                    self.push(BTN_CONFIRM)
                if st[_PASS] and st[_NEW] and not st[_COMBO] and not st[_USED + _PASS]:
                    # A combination press never means pass or new game.
                    st[_COMBO] = 1
                    st[_FIRED] = 0
                    since[_COMBO_AT] = now_ms
                    st[_USED + _PASS] = 1
                    st[_USED + _NEW] = 1
                continue
            # released
            if not st[_USED + i]:
                if i == _PASS:
                    self.push(BTN_PASS)
                elif i == _NEW:
                    self.push(BTN_NEW)
            if i != CONFIRM:
                st[_COMBO] = 0
        # held
        if st[_COMBO]:
            if not st[_FIRED] and ticks_diff(now_ms, since[_COMBO_AT]) >= self.long_press_ms:
                st[_FIRED] = 1
                self.push(BTN_CALIBRATE)
        elif st[_PASS] and not st[_USED + _PASS] \
                and ticks_diff(now_ms, since[_PRESSED + _PASS]) >= self.long_press_ms:
            st[_USED + _PASS] = 1
            self.push(BTN_RESIGN)
        if st[_NEW] and not st[_USED + _NEW] \
                and ticks_diff(now_ms, since[_PRESSED + _NEW]) >= self.long_press_ms:
            st[_USED + _NEW] = 1
            self.push(BTN_STUDY)
        raw = st[_LEN]
        if not raw:
            return BTN_NONE
        i = st[_HEAD]
        st[_HEAD] = (i + 1) % _QUEUE_LEN
        st[_LEN] = raw - 1
        return st[_QUEUE + i]


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
