"""LED frames: the current budget holds whatever is lit; the prompt mapping
and the score font."""
import random

import pytest

from gogadget import frame as fr
from gogadget import signals as sg
from gogadget import font
from gogadget.points import BLACK, WHITE


@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("budget", [500, 1000, 2000, 4000])
def test_no_frame_exceeds_the_budget(size, budget):
    leds = size * size + fr.STATUS_PIXELS
    cap = sg.brightness_cap(leds, budget)
    frame = fr.new_frame(size)
    frame[0] = cap
    for i in range(1, len(frame)):
        frame[i] = fr.PUT_WHITE  # the hungriest palette entry, steady
    assert sg.estimate_ma(frame) <= budget
    # one step brighter would break it: the cap is not needlessly low
    frame[0] = cap + 1
    if cap < 255 and budget > leds * fr.MA_IDLE:
        assert sg.estimate_ma(frame) > budget
    rng = random.Random(size * budget)
    for _ in range(20):
        for i in range(1, len(frame)):
            frame[i] = rng.randrange(256)
        frame[0] = cap
        assert sg.estimate_ma(frame) <= budget


def test_budget_too_small_turns_leds_off():
    assert sg.brightness_cap(364, 300) == 0


def test_paint_uses_the_mapping_and_status():
    prompt = bytearray(81)
    prompt[0] = sg.P_PUT_BLACK
    prompt[1] = sg.P_KO
    frame = fr.new_frame(9)
    sg.paint(frame, prompt, WHITE, "count", sg.ALERT_FAULT, 77)
    assert frame[0] == 77
    assert frame[1] == fr.PUT_BLACK | fr.BLINK
    assert frame[2] == fr.KO | fr.FAST
    assert frame[3] == fr.OFF
    assert frame[82 + fr.STATUS_TURN] == fr.PUT_WHITE
    assert frame[82 + fr.STATUS_PHASE] == fr.INFO
    assert frame[82 + fr.STATUS_ALERT] & 0x0F == fr.FAULT
    assert len(set(sg.CODES)) == len(sg.CODES), "two prompts look the same"


def test_font_digits_are_distinct_and_fit():
    seen = set()
    for ch in "0123456789BWR+-.":
        cols = font.glyph(ch)
        assert len(cols) <= 3 and all(0 <= m < 32 for m in cols)
        assert cols not in seen, ch
        seen.add(cols)
    assert font.glyph(" ") == (0, 0) and font.glyph("x") == font.glyph("?")
    assert len(font.render("3.5")) <= 9  # fits a 9x9 board without scrolling
    prompt = bytearray(81)
    sg.draw_text(prompt, 9, font.render("8"), -3)
    assert sum(1 for p in prompt if p == sg._P_DIGIT) == 13  # "8" has 13 dots
