"""The calibration procedure at the board (pass + new held: BTN_CALIBRATE).

1. empty board, press confirm: the baseline of every sensor;
2. black stones on the blinking places (a checkerboard, 181 on 19x19), press
   confirm: the black step there;
3. white stones on the other blinking places (black ones stay), confirm:
   the white step there.  calib.py mirrors each step for the other colour.

The result is saved to flash and used at once; new game aborts and keeps
the previous calibration.  The LEDs say what to do at every step, and
while a step's scans are averaged every point shows the same steady light:
the LEDs' current shifts the ADC's ground, so all three steps are measured
under one current (else the shift between the steps' frames hides the
neighbours' fields the threshold is set from: host_sim/sim/physics.py).
"""
from array import array

from gogadget import frame as F
from gogadget.events import BTN_CONFIRM, BTN_NEW
from gogadget.compat import forget
from gogadget.hw.calib import CalibrationError, Calibration
from gogadget.hw.calibderive import checkerboard, derive, set_base, set_near, set_sample
from gogadget.scan import S_BLACK, S_WHITE

EMPTY_STEP = 0
BLACK_STEP = 1
WHITE_STEP = 2
STEP_NAMES = ("empty the board", "black stones on the blinking points",
              "white stones on the blinking points")


class Calibrator:
    def __init__(self, scanner, path, samples=16, leds=None):
        self.scanner = scanner
        self.leds = leds
        self.size = scanner.size
        self.path = path
        self.samples = samples
        self.cal = Calibration(self.size)
        self.black_places = checkerboard(self.size, 0)
        self.white_places = checkerboard(self.size, 1)
        self.frame = F.new_frame(self.size)
        self.steady = F.new_frame(self.size)  # shown while measuring
        for p in range(self.size * self.size):
            self.steady[1 + p] = F.DIM | F.INFO
        self.step_no = EMPTY_STEP
        self.result = None  # None while running, then "ok" / "aborted" / an error text
        self._prompt()

    def instructions(self):
        return STEP_NAMES[self.step_no]

    def _prompt(self):
        f = self.frame
        n = self.size * self.size
        for p in range(n):
            f[1 + p] = F.DIM | F.INFO
        if self.step_no == BLACK_STEP:
            for p in self.black_places:
                f[1 + p] = F.BLINK | F.PUT_BLACK
        elif self.step_no == WHITE_STEP:
            for p in self.black_places:
                f[1 + p] = F.DIM | F.PUT_BLACK
            for p in self.white_places:
                f[1 + p] = F.BLINK | F.PUT_WHITE
        f[1 + n + F.STATUS_PHASE] = F.BLINK | F.INFO

    def average(self):
        n = self.size * self.size
        sums = array("I", [0] * n)
        if self.leds is not None:
            self.leds.show(self.steady, 0)
        for _ in range(self.samples):
            self.scanner.read_raw()
            raw = self.scanner.raw
            for p in range(n):
                sums[p] += raw[p]
        return array("H", [s // self.samples for s in sums])

    def press(self, button):
        """Feed a button; returns self.result (None while still running)."""
        if self.result is not None:
            return self.result
        self._press(button)
        if self.result is not None:  # done: the deriving leaves the heap with this module
            forget("hw.calibderive", "hw.calibfile")
        return self.result

    def _press(self, button):
        if button == BTN_NEW:
            self.result = "aborted"
        elif button == BTN_CONFIRM:
            readings = self.average()
            if self.step_no == EMPTY_STEP:
                set_base(self.cal, readings)
            elif self.step_no == BLACK_STEP:
                set_sample(self.cal, S_BLACK, readings, self.black_places)
                set_near(self.cal, readings, self.white_places)
            else:
                set_sample(self.cal, S_WHITE, readings, self.white_places)
                self._finish()
                return
            self.step_no += 1
            self._prompt()

    def _finish(self):
        n = self.size * self.size
        try:
            bad = derive(self.cal)
        except CalibrationError as exc:
            self.result = str(exc)
            for p in range(n):
                self.frame[1 + p] = F.FAST | F.FAULT
            return
        self.cal.save(self.path)
        self.scanner.calibration = self.cal
        for p in range(n):
            self.frame[1 + p] = F.OK_GREEN | F.DIM
        for p in bad:
            self.frame[1 + p] = F.FAST | F.FAULT
        self.result = "ok" if not bad else "ok, %d points without a magnet step" % len(bad)


def run(sensors, leds, buttons, wdt, path=None):
    """The procedure at the board, as the scan loop hands over to it:
    instructions over USB, the LEDs' prompts, the watchdog fed; returns
    the result ("ok", "aborted" or an error text).  path: hw/pico.py's
    CALIBRATION_FILE unless given.  The caller lets this module go
    afterwards (compat.forget): calibrating is rare."""
    import time
    if path is None:
        from gogadget.hw.pico import CALIBRATION_FILE as path
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
