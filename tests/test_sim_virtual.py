"""The virtual drivers: stones, sensors (with flicker and a hand), LEDs, buttons."""
import random

import pytest

from gogadget import events, frame, scan
from gogadget.points import BLACK, WHITE
from host_sim.sim.virtual import Buttons, Clock, Leds, Sensors, Simulator, Stones


def test_stones_and_sensor_kinds():
    st, clock = Stones(9), Clock()
    st.put("A1", BLACK)
    st.put("J9", WHITE)
    st.slide("J9", "H9")
    with pytest.raises(ValueError):
        st.put("A1", WHITE)
    with pytest.raises(ValueError):
        st.lift("E5")
    out = scan.new_scan(9)
    Sensors(st, clock, "colour").read(out)
    assert out[0] == scan.S_BLACK and out[80] == scan.S_EMPTY and out[79] == scan.S_WHITE
    Sensors(st, clock, "occupancy").read(out)
    assert out[0] == out[79] == scan.S_STONE and sum(out) == 2 * scan.S_STONE
    with pytest.raises(ValueError):
        Sensors(st, clock, "sonar")


@pytest.mark.parametrize("kind", scan.SENSOR_KINDS)
def test_flicker_rate_matches_the_noise(kind):
    st, clock = Stones(19), Clock()
    sensors = Sensors(st, clock, kind, noise=0.01, rng=random.Random(4))
    out = scan.new_scan(19)
    wrong = 0
    for _ in range(400):
        sensors.read(out)
        wrong += sum(1 for v in out if v != scan.S_EMPTY)
    rate = wrong / (400 * 361)
    assert 0.008 < rate < 0.012
    assert sensors.flickers == wrong


def test_hand_disturbs_many_points_for_a_moment():
    st, clock = Stones(9), Clock()
    sensors = Sensors(st, clock, "occupancy", rng=random.Random(1))
    out = scan.new_scan(9)
    st.hand(clock.now_ms)
    sensors.read(out)
    assert sum(1 for v in out if v) >= 20
    clock.advance(400)
    sensors.read(out)
    assert not any(out)


def test_buttons_and_leds():
    b = Buttons()
    b.press(events.BTN_PASS)
    b.press(events.BTN_CONFIRM)
    assert [b.poll(0), b.poll(0), b.poll(0)] == [events.BTN_PASS, events.BTN_CONFIRM, events.BTN_NONE]
    with pytest.raises(ValueError):
        b.press(99)
    leds = Leds(9)
    f = frame.new_frame(9)
    f[1 + 40] = frame.REMOVE | frame.BLINK
    leds.show(f, 0)
    assert leds.prompts() == {40: frame.REMOVE | frame.BLINK}
    assert leds.rgb(40, 0) != (0, 0, 0) and leds.rgb(40, 600) == (0, 0, 0)  # blinks


def test_simulator_runs_the_firmware_at_scan_rate():
    sim = Simulator(size=9, sensors="colour", preset="japanese")
    try:
        sim.run(1000)
        assert sim.steps == sim.config.scan_hz and sim.clock.now_ms == 1000
        sim.stones.put("C3", BLACK)
        sim.settle()
        assert ("move", "B C3") in [(k, t) for _, k, t in sim.events]
        sim.stones.put("D4", BLACK)  # wrong colour: White is to play
        sim.settle()
        assert sim.leds.code(3 * 9 + 3) & 0x0F == frame.WRONG_COLOUR
        sim.stones.hand(sim.clock.now_ms)
        assert sim.until_quiet()
    finally:
        sim.close()
