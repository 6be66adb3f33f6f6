"""The tile plan of the printed board (pins.tile_split) and the mux
mapping that follows it: every place on its own channel, on a mux of the
tile that holds it, and within the two banks the Pico's ADC inputs read."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))
from gogadget.hw import pins  # noqa: E402


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19])
def test_mux_place_inverts_mux_address_and_covers_every_place(size):
    seen = set()
    for place in range(size * size):
        bank, c2, c1 = pins.mux_address(size, place)
        assert bank < pins.bank_count(size) <= len(pins.ADC_PINS)
        assert bank * 16 + c2 < 2 * pins.MUX_CHANNELS
        assert pins.mux_place(size, bank, c2, c1) == place
        seen.add((bank, c2, c1))
    assert len(seen) == size * size


@pytest.mark.parametrize("size", [9, 13, 19])
def test_tiles_fit_the_board_and_start_on_even_rows(size):
    cols, rows = pins.tile_split(size)
    assert sum(cols) == size and sum(rows) == size
    # the LED serpentine: a tile's rows run its way only from an even row
    assert all(sum(rows[:i]) % 2 == 0 for i in range(len(rows)))
    assert pins.mux_count(size) <= 2 * pins.MUX_CHANNELS
    assert len(cols) * len(rows) * 2 <= 2 * pins.MUX_CHANNELS  # two slots a tile


@pytest.mark.parametrize("size", [9, 13, 19])
def test_a_level_1_mux_reads_one_tile_only(size):
    cols, rows = pins.tile_split(size)

    def tile(place):
        r, c = divmod(place, size)
        tc = next(i for i in range(len(cols)) if c < sum(cols[:i + 1]))
        tr = next(i for i in range(len(rows)) if r < sum(rows[:i + 1]))
        return tc, tr
    owner = {}
    for place in range(size * size):
        bank, c2, _ = pins.mux_address(size, place)
        assert owner.setdefault((bank, c2), tile(place)) == tile(place)


def test_small_boards_keep_the_hand_wired_place_order():
    assert [pins.mux_address(7, p) for p in (0, 15, 16, 48)] == [(0, 0, 0), (0, 0, 15), (0, 1, 0),
                                                                  (0, 3, 0)]


def test_a_tile_socket_is_two_fixed_slots_for_every_size():
    # The controller wires socket t to level-2 inputs 2t and 2t + 1 of bank
    # t // 8 once, for 9, 13 and 19 alike: tile t's places read there.
    for size in (9, 13, 19):
        cols, rows = pins.tile_split(size)
        t = 0
        for tc, w in enumerate(cols):
            for tr, h in enumerate(rows):
                col, row = sum(cols[:tc]), sum(rows[:tr])
                bank, c2, _ = pins.mux_address(size, row * size + col)
                assert (bank, c2) == (t // 8, 2 * t % 16), (size, tc, tr)
                t += 1
