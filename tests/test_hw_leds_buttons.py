"""LED chain, buttons, heartbeat and self-test against the fakes."""
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import machine  # noqa: E402  (the fake)
import neopixel  # noqa: E402  (the fake)

from gogadget import frame as F  # noqa: E402
from gogadget.config import Config  # noqa: E402
from gogadget.events import (BTN_NONE, BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN,  # noqa: E402
                             BTN_CALIBRATE, BTN_STUDY)
from gogadget.hw import pins, pico, selftest  # noqa: E402
from gogadget.hw.heartbeat import Heartbeat  # noqa: E402
from gogadget.hw.leds import LedChain  # noqa: E402
from gogadget.scan import S_FAULT, S_EMPTY, new_scan  # noqa: E402


def chain(size, **kw):
    machine.install(None)
    cfg = Config(size=size, **kw)
    return pico.make_leds(cfg, machine, neopixel)


def test_serpentine_corners():
    # LED 0 under A1, row 1 runs back from the right edge.
    assert pins.led_index(19, 0) == 0
    assert pins.led_index(19, 18) == 18
    assert pins.led_index(19, 19 + 18) == 19  # B-row right end follows A-row right end
    assert pins.led_index(19, 19) == 37
    assert sorted(pins.led_index(13, p) for p in range(169)) == list(range(169))


@pytest.mark.parametrize("size", [9, 19])
def test_every_led_shows_frame_rgb(size):
    leds = chain(size, max_brightness=255, budget_ma=100000)
    frm = F.new_frame(size)
    frm[0] = 200
    for p in range(size * size + F.STATUS_PIXELS):
        frm[1 + p] = (p * 37) & 0xFF
    for now in range(0, 2000, 25):  # every phase of both blink rhythms
        leds.show(frm, now)
        for slot in range(size * size + F.STATUS_PIXELS):
            led = pins.led_index(size, slot) if slot < size * size else slot
            assert leds.np.rgb(led) == F.rgb(frm[1 + slot], 200, now), (slot, now)


def test_remove_and_illegal_differ_in_rhythm_not_only_colour():
    """A colour-blind player tells them by their motion: "remove" (and every
    "do this") blinks once a second, on half the time; "illegal" (and every
    "this is wrong") flashes twice a second.  The chain shows the rhythms
    frame.on defines."""
    from gogadget import signals
    remove = signals.CODES[signals.P_REMOVE]
    illegal = signals.CODES[signals.P_ILLEGAL]
    leds = chain(9, max_brightness=255, budget_ma=100000)
    frm = F.new_frame(9)
    frm[1] = remove
    frm[2] = illegal

    def flashes(led):
        seen = []
        for now in range(0, 1000, 5):
            leds.show(frm, now)
            seen.append(leds.np.rgb(led) != (0, 0, 0))
        runs = sum(1 for i, on in enumerate(seen) if on and (i == 0 or not seen[i - 1]))
        return runs, sum(seen) * 5
    assert flashes(pins.led_index(9, 0)) == (1, 500)
    assert flashes(pins.led_index(9, 1)) == (2, 2 * F.FLASH_MS)
    assert signals.CODES[signals.P_FAULT] & 0xF0 == F.STEADY  # a blind point: nothing to do


def test_writes_only_when_visible_state_changes():
    leds = chain(9)
    frm = F.new_frame(9)
    frm[1 + 4] = F.PUT_BLACK
    assert leds.show(frm, 0)
    assert not leds.show(frm, 20)
    assert not leds.show(frm, 900)  # steady codes: the blink clock does not matter
    frm[1 + 5] = F.BLINK | F.REMOVE
    assert leds.show(frm, 1000)
    assert not leds.show(frm, 1130)  # slow blink only: fast phase change is invisible
    assert leds.show(frm, 1500)
    assert leds.np.writes == leds.writes


def test_brightness_cap_and_current_budget():
    leds = chain(19, max_brightness=100, budget_ma=2000)
    frm = F.new_frame(19)
    frm[0] = 255
    frm[1] = F.PUT_WHITE
    leds.show(frm, 0)
    assert leds.np.rgb(0) == F.rgb(F.PUT_WHITE, 100)
    for p in range(361):
        frm[1 + p] = F.PUT_WHITE  # everything lit: far over 2 A at 100/255
    leds.show(frm, 0)
    total = sum(leds.np.shown)
    ma = 364 * F.MA_IDLE + total * F.MA_PER_CHANNEL / 255
    assert ma <= 2000 and leds.current_ma <= 2000
    assert ma > 1500  # scaled down, not switched off


def test_too_short_chain_is_refused():
    with pytest.raises(ValueError, match="needs 364 LEDs"):
        LedChain(neopixel.NeoPixel(None, 100), 19)


def press(buttons, which, t0, t1, step=5):
    """Hold `which` (GPIO set) from t0 to t1; return the events seen."""
    seen = []
    t = t0
    while t <= t1 + 100:
        machine.buttons.held = set(which) if t < t1 else set()
        e = buttons.poll(t)
        if e != BTN_NONE:
            seen.append(e)
        t += step
    return seen


@pytest.fixture
def buttons():
    machine.install(None)
    return pico.make_buttons(Config(long_press_ms=800), machine)


def test_short_presses(buttons):
    assert press(buttons, [pins.BUTTON_PASS], 0, 100) == [BTN_PASS]
    assert press(buttons, [pins.BUTTON_CONFIRM], 1000, 1100) == [BTN_CONFIRM]
    assert press(buttons, [pins.BUTTON_NEW], 2000, 2100) == [BTN_NEW]


def test_long_pass_is_resign_only(buttons):
    assert press(buttons, [pins.BUTTON_PASS], 0, 2000) == [BTN_RESIGN]


def test_long_new_is_study_only(buttons):
    # study mode on or off (firmware/gogadget/study.py); a short New stays New
    assert press(buttons, [pins.BUTTON_NEW], 0, 2000) == [BTN_STUDY]
    assert press(buttons, [pins.BUTTON_NEW], 3000, 3300) == [BTN_NEW]


def test_pass_and_new_held_is_calibrate_only(buttons):
    assert press(buttons, [pins.BUTTON_PASS, pins.BUTTON_NEW], 0, 1500) == [BTN_CALIBRATE]
    assert press(buttons, [pins.BUTTON_PASS, pins.BUTTON_NEW], 3000, 3300) == []


def test_bounce_is_ignored(buttons):
    seen = []
    for t in range(0, 15, 1):  # contacts chatter for 15 ms, then let go
        machine.buttons.held = {pins.BUTTON_PASS} if t % 3 else set()
        seen.append(buttons.poll(t))
    machine.buttons.held = set()
    for t in range(15, 200, 5):
        seen.append(buttons.poll(t))
    assert [e for e in seen if e] == []


def test_heartbeat_blinks_and_writes_only_changes():
    machine.install(None)
    hb = pico.make_heartbeat(machine)
    machine.reset_counters()
    levels = []
    for t in range(0, 2000, 20):
        hb.tick(t)
        levels.append(machine._levels["LED"])
    assert levels.count(1) == 8 and machine.counters["pin_writes"] == 4
    hb.fault = True
    hb.tick(2250)
    hb.tick(2500)
    assert machine.counters["pin_writes"] == 6


def colour_sensors(size, **rig):
    board = machine.install_colour(size, **rig)
    return board, pico.make_sensors(Config(size=size), machine)


def test_selftest_names_stuck_and_noisy_sensors():
    board, sensors = colour_sensors(9)
    board.stuck[0] = 3  # A1 shorted to GND
    board.stuck[80] = 65535  # J9 open to 3V3
    faults = selftest.check(sensors)
    lines = selftest.describe(9, faults)
    assert lines == ["sensor fault at A1: stuck low (3)", "sensor fault at J9: stuck high (65535)"]
    scan = new_scan(9)
    del board.stuck[0]  # a flaky sensor that reads fine now stays out
    sensors.read(scan)
    assert scan[0] == S_FAULT and scan[80] == S_FAULT and scan[1] == S_EMPTY
    frm = selftest.show(F.new_frame(9), faults)
    assert frm[1] == F.FAST | F.FAULT and frm[1 + 80] == F.FAST | F.FAULT
    assert frm[-F.STATUS_PIXELS + F.STATUS_ALERT] == F.FAST | F.FAULT


def test_selftest_noise_and_calibrated_range():
    board, sensors = colour_sensors(9, noise=2500)
    assert any("noisy" in why for _, why in selftest.check(sensors))
    board, sensors = colour_sensors(9, seed=2)
    assert selftest.check(sensors) == []


def test_selftest_broken_shift_chain():
    machine.install_shift(9, ser=0xFF)
    sensors = pico.make_sensors(Config(size=9, sensors="occupancy"), machine)
    faults = selftest.check(sensors)
    assert len(faults) == 81 and "chain" in faults[0][1]
