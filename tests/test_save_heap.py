"""A game is kept at its end on a fragmented heap: the end of a game (the
count, the result, the SGF save, a new game) interns no name.

MicroPython interns every name and string constant of a module as it loads
it and never frees one; its table of names grows by doubling, one block of
the heap each time (on the emulated Pico W with the room and a host link,
the next is 7.7 KB).  There, loading sgf.py for the save crossed that line
when the largest free block was 1,568 bytes of 43,600 free, and the game
stayed in the journal, "could not keep the game (out of memory)".  boot.py
loads every module the end loads once at the start, and lets it go, so that
their names are known before the heap is in pieces."""
import json
import re

import pytest

from conftest import ROOT, run_micropython

MP = ROOT / "tests" / "mp"


def _names(out, tag):
    m = re.search(tag + r" qstr pool: n_pool=(\d+), n_qstr=(\d+)", out)
    assert m, out
    return int(m.group(1)), int(m.group(2))


@pytest.mark.parametrize("mode", ["plain", "clock"])
def test_the_games_end_interns_no_name_and_keeps_the_game(tmp_path, micropython, mode):
    res = micropython(args=[str(MP / "phase_game.py"), "calibrate"], cwd=str(tmp_path),
                      timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    res = micropython(args=[str(MP / "end_names.py")] + (["clock"] if mode == "clock" else []),
                      cwd=str(tmp_path), timeout=300)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-3000:]
    assert int(out.split("FREE")[1].split()[0]) > 20000, out[-2000:]
    fig = json.loads(res.stdout.strip().splitlines()[-1])
    assert fig["saved"] == ["0001.sgf"] and fig["unsaved"] == "", fig
    assert _names(out, "NAMES AFTER") == _names(out, "NAMES BEFORE"), out[-2000:]
    text = (tmp_path / "games" / "0001.sgf").read_text()
    assert text.startswith("(;GM[1]FF[4]") and text.count(";B[") == 4
    if mode == "clock":
        assert "TM[600]" in text and "BL[" in text
