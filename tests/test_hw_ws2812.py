"""The RP2040 WS2812 driver (PIO + DMA, gogadget/hw/ws2812pio.py) against the
pin-level fake tests/mp/rp2.py, and LedChain's brightness-scaled table."""
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import machine  # noqa: E402  (the fake)
import neopixel  # noqa: E402  (the fake)
import rp2  # noqa: E402  (the fake)

from gogadget import frame as F  # noqa: E402
from gogadget.config import Config  # noqa: E402
from gogadget.hw import pins, pico  # noqa: E402
from gogadget.hw.ws2812pio import PioChain  # noqa: E402


def pio_chain(size, **kw):
    machine.install(None)
    rp2.reset()
    return pico.make_leds(Config(size=size, **kw), machine, rp2=rp2)


def sent_rgb(leds, led):
    """(r, g, b) in the bytes the DMA fed the state machine for LED `led`
    (G, R, B: the order the chain takes them)."""
    sm = leds.np.sm
    assert sm.sent_count == 3 * leds.np.n
    g, r, b = sm.sent[3 * led], sm.sent[3 * led + 1], sm.sent[3 * led + 2]
    assert max(g, r, b) < 256
    return r, g, b


def settle(np):
    while np.busy():
        pass


def test_make_leds_picks_pio_for_rp2_and_neopixel_elsewhere():
    leds = pio_chain(9)
    assert isinstance(leds.np, PioChain)
    machine.install(None)
    other = pico.make_leds(Config(size=9), machine, neopixel)
    assert isinstance(other.np, neopixel.NeoPixel)  # this is not an rp2: no PIO


def test_pio_program_and_state_machine_config():
    leds = pio_chain(9)
    sm = rp2.machines[pins.LED_STATE_MACHINE]
    assert sm is leds.np.sm and sm.running
    prog = sm.program
    assert prog.settings == {"sideset_init": rp2.PIO.OUT_LOW, "out_shiftdir": rp2.PIO.SHIFT_LEFT,
                             "autopull": True, "pull_thresh": 8}
    # T1 = 2, T2 = 5, T3 = 3 PIO cycles: 10 per bit at 8 MHz = 800 kHz
    assert [tuple(i) for i in prog.instructions] == [
        ("wrap_target", (), None, 0),
        ("label", ("bitloop",), None, 0),
        ("out", ("x", 1), 0, 2),
        ("jmp", ("not_x", "do_zero"), 1, 1),
        ("jmp", ("bitloop",), 1, 4),
        ("label", ("do_zero",), None, 0),
        ("nop", (), 0, 4),
        ("wrap", (), None, 0),
    ]
    assert sm.config["freq"] == 8000000
    assert sm.config["sideset_base"].id == pins.LED_DATA


@pytest.mark.parametrize("size", [9, 19])
def test_words_sent_are_the_frame_in_chain_order(size):
    leds = pio_chain(size, max_brightness=255, budget_ma=100000)
    frm = F.new_frame(size)
    for step, now in enumerate((0, 130, 510, 640, 700)):
        frm[0] = 200 - 30 * step  # a new brightness each time: the scaled table is rebuilt
        for p in range(size * size + F.STATUS_PIXELS):
            frm[1 + p] = (p * 37 + step * 11) & 0xFF
        assert leds.show(frm, now)
        for slot in range(size * size + F.STATUS_PIXELS):
            led = pins.led_index(size, slot) if slot < size * size else slot
            assert sent_rgb(leds, led) == F.rgb(frm[1 + slot], frm[0], now), (slot, now)
    assert leds.np.sm.transfers == leds.writes == 5


def test_write_returns_at_once_and_the_next_waits_for_the_transfer():
    leds = pio_chain(19)
    np, dma = leds.np, leds.np.dma
    frm = F.new_frame(19)
    frm[1] = F.PUT_BLACK
    leds.show(frm, 0)
    # started and returned: the transfer is still running, no poll spent on it
    assert dma.polls == rp2.DMA.BUSY_POLLS and np.waits == 0 and np.busy()
    first = list(np.sm.sent)
    frm[2] = F.PUT_WHITE
    leds.show(frm, 20)  # the fake raises if this started while the first ran
    assert np.waits == 1 and np.sm.transfers == 2
    assert dma.polls == rp2.DMA.BUSY_POLLS  # the first ran out, the second is running
    lit = F.rgb(F.PUT_WHITE, min(frm[0], leds.max_brightness))
    assert sent_rgb(leds, 1) == lit and first[3:6] == [0, 0, 0]
    settle(np)
    frm[3] = F.PUT_WHITE
    leds.show(frm, 40)
    assert np.waits == 1  # finished in time: no wait


def test_fake_catches_a_driver_that_does_not_wait():
    leds = pio_chain(9)
    np = leds.np
    leds.show(F.new_frame(9), 0)
    with pytest.raises(RuntimeError, match="while its last transfer runs"):
        np.dma.config(read=np._buf, write=np.sm, count=np.n, ctrl=np._ctrl, trigger=True)
    settle(np)
    np.sm.fifo = 1
    with pytest.raises(RuntimeError, match="latch"):
        np.dma.config(read=np._buf, write=np.sm, count=np.n, ctrl=np._ctrl, trigger=True)


def test_fake_catches_a_frame_rendered_under_a_running_transfer():
    leds = pio_chain(9)
    np = leds.np
    leds.show(F.new_frame(9), 0)
    np._buf[0] = 0xFF  # rendered without asking for the buffer
    with pytest.raises(RuntimeError, match="changed under a running transfer"):
        settle(np)
    leds = pio_chain(9)
    leds.show(F.new_frame(9), 0)
    leds.np.buf[0] = 0xFF  # asked: handed out once the transfer is done
    assert not leds.np.busy() and leds.np.waits == 1


def test_dma_control_word_feeds_the_led_state_machine():
    leds = pio_chain(9)
    leds.show(F.new_frame(9), 0)
    assert leds.np.dma.write is leds.np.sm and leds.np.dma.count == 3 * (81 + F.STATUS_PIXELS)
    ctrl = rp2.DMA.unpack_ctrl(leds.np.dma.ctrl)
    # bytes (each repeated on the FIFO's four byte lanes), 3 an LED
    assert ctrl["size"] == 0 and ctrl["inc_read"] == 1 and ctrl["inc_write"] == 0
    assert len(leds.np._buf) == 3 * (81 + F.STATUS_PIXELS)
    assert ctrl["treq_sel"] == 0  # DREQ_PIO0_TX0
    far = PioChain(rp2, machine.Pin(0), 4, sm_id=5)
    assert rp2.DMA.unpack_ctrl(far._ctrl)["treq_sel"] == 9  # DREQ_PIO1_TX1


def test_budget_scaling_through_pio_keeps_bytes():
    leds = pio_chain(19, max_brightness=100, budget_ma=2000)
    frm = F.new_frame(19)
    frm[0] = 255
    for p in range(361):
        frm[1 + p] = F.PUT_WHITE
    leds.show(frm, 0)
    total = 0
    for led in range(364):
        total += sum(sent_rgb(leds, led))
    ma = 364 * F.MA_IDLE + total * F.MA_PER_CHANNEL / 255
    assert 1500 < ma <= 2000 and leds.current_ma <= 2000


def test_scaled_table_rebuilt_only_when_brightness_changes():
    machine.install(None)
    leds = pico.make_leds(Config(size=9, max_brightness=255, budget_ma=100000), machine, neopixel)
    rebuilt = []
    scale = leds._scale
    leds._scale = lambda b: (rebuilt.append(b), scale(b))
    frm = F.new_frame(9)
    frm[0] = 120
    frm[1] = F.DIM | 2
    frm[2] = F.PUT_BLACK
    for now in range(0, 2000, 20):
        frm[3] = (now // 20) & 0xFF  # a new frame every call
        leds.show(frm, now)
    assert rebuilt == [120]
    leds.max_brightness = 60  # the cap now limits the frame's 120
    frm[3] = 7
    leds.show(frm, 2000)
    assert rebuilt == [120, 60]
    assert leds.np.rgb(0) == F.rgb(F.DIM | 2, 60) and leds.np.rgb(1) == F.rgb(F.PUT_BLACK, 60)


MP_PIO = r"""
import micropython
import machine, rp2
from gogadget import frame as F
from gogadget.config import Config
from gogadget.hw import pico, pins
size = 19
machine.install(None)
leds = pico.make_leds(Config(size=size), machine, rp2=rp2)
np = leds.np
frm = F.new_frame(size)
frm[0] = 80
leds.show(frm, 0)  # warm up: the fake's word store, the scaled table
micropython.heap_lock()
for k in range(1, 6):
    frm[1 + k] = F.PUT_BLACK | F.BLINK
    frm[1 + 7 * k] = F.LAST
    leds.show(frm, k * 20)  # render + start (and wait for the last) transfer
micropython.heap_unlock()
bad = 0
for slot in range(size * size + F.STATUS_PIXELS):
    led = pins.led_index(size, slot) if slot < size * size else slot
    r, g, b = F.rgb(frm[1 + slot], 80, 100)
    if np.sm.sent[3 * led] != g or np.sm.sent[3 * led + 1] != r or np.sm.sent[3 * led + 2] != b:
        bad += 1
print("transfers", np.sm.transfers, "waits", np.waits, "bad", bad)
"""


def test_micropython_pio_write_allocates_nothing(micropython):
    r = micropython(code=MP_PIO)
    assert r.returncode == 0, r.stderr + r.stdout
    assert r.stdout.split() == ["transfers", "6", "waits", "5", "bad", "0"], r.stdout


def test_the_set_up_and_the_chain_agree_on_codes_and_phases():
    from gogadget.hw import ledsetup, leds
    assert (ledsetup._SLOW, ledsetup._FAST, ledsetup._CODES) == (leds._SLOW, leds._FAST, leds._CODES)
