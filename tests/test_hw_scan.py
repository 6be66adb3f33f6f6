"""Sensor drivers against the pin-level fakes (tests/mp/machine.py), which
model the mux wiring and settling: a wrong select order, a missing settle
read or a wrong bit order gives wrong scans here."""
import os
import random
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import machine  # noqa: E402  (the fake)

from gogadget.config import Config  # noqa: E402
from gogadget.hw import pins, pico  # noqa: E402
from gogadget.hw import calibderive  # noqa: E402
from gogadget.hw.calib import Calibration, CalibrationError  # noqa: E402
from gogadget.hw.calibderive import checkerboard, derive, set_base, set_sample  # noqa: E402
from gogadget.hw.selftest import span  # noqa: E402
from gogadget.hw.muxplan import NO_READ, build_plan  # noqa: E402
from gogadget.hw.muxscan import MuxScanner  # noqa: E402
from gogadget.scan import S_EMPTY, S_BLACK, S_WHITE, S_STONE, S_FAULT, new_scan  # noqa: E402


def colour_scanner(size, settle=pins.SETTLE_READS, select=pins.MUX_SELECT, **rig):
    board = machine.install_colour(size, **rig)
    out = machine.Pin.OUT
    scanner = MuxScanner(size, [machine.Pin(g, out) for g in select],
                         [machine.Pin(g, out) for g in pins.BANK_SELECT],
                         [machine.ADC(machine.Pin(g)) for g in pins.ADC_PINS], settle_reads=settle)
    return board, scanner


def calibrated(board, scanner):
    """Calibrate as a person would: empty, black checkerboard, white on the rest."""
    size = board.size
    cal = Calibration(size)
    scanner.read_raw()
    set_base(cal, scanner.raw)
    for p in checkerboard(size, 0):
        board.stones[p] = 1
    scanner.read_raw()
    set_sample(cal, S_BLACK, scanner.raw, checkerboard(size, 0))
    for p in checkerboard(size, 1):
        board.stones[p] = 2
    scanner.read_raw()
    set_sample(cal, S_WHITE, scanner.raw, checkerboard(size, 1))
    for p in range(size * size):
        board.stones[p] = 0
    assert derive(cal) == []
    scanner.calibration = cal
    return cal


def random_position(board, rnd):
    for p in range(len(board.stones)):
        board.stones[p] = rnd.choice((0, 0, 1, 2))
    return [(S_EMPTY, S_BLACK, S_WHITE)[s] for s in board.stones]


@pytest.mark.parametrize("size", [9, 13, 19])
def test_plan_reads_every_place_once_and_no_spare_channel(size):
    _, _, banks, at, _ = build_plan(size)
    places = [at[i] for i in range(len(banks)) if banks[i] != NO_READ]
    assert sorted(places) == list(range(size * size))
    board, scanner = colour_scanner(size)
    board.record = True
    scanner.read_raw()
    assert board.stray_reads == 0
    assert sorted(p for _, p in board.reads) == sorted(list(range(size * size)) * 2)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_scan_sees_random_positions(size):
    rnd = random.Random(size)
    board, scanner = colour_scanner(size, seed=size, noise=300)
    calibrated(board, scanner)
    scan = new_scan(size)
    for _ in range(5):
        want = random_position(board, rnd)
        scanner.read(scan)
        assert list(scan) == want


def test_one_select_write_per_read_on_19x19():
    board, scanner = colour_scanner(19)
    machine.reset_counters()
    scanner.read(new_scan(19))
    # Gray-code order: the 361 reads need at most one GPIO write each.
    assert machine.counters["pin_writes"] <= 361
    assert machine.counters["adc_reads"] == 361 * (1 + pins.SETTLE_READS)


def test_missing_settle_read_is_caught_by_the_fake():
    board, scanner = colour_scanner(9, settle=0, spread=False)
    calibrated_ok = True
    try:
        calibrated(board, scanner)
    except AssertionError:
        calibrated_ok = False
    board.stones[40] = 1
    scan = new_scan(9)
    scanner.read(scan)
    wrong = [p for p in range(81) if scan[p] != (S_BLACK if p == 40 else S_EMPTY)]
    assert wrong or not calibrated_ok


def test_swapped_select_lines_read_the_wrong_sensor():
    swapped = (pins.MUX_SELECT[1], pins.MUX_SELECT[0]) + pins.MUX_SELECT[2:]
    board, scanner = colour_scanner(9, select=swapped, spread=False)
    board.stones[1] = 1  # channel 1 of mux 0; swapped S0/S1 reads it as channel 2
    scan = new_scan(9)
    scanner.read(scan)
    assert scan[1] == S_EMPTY and scan[2] == S_BLACK


def test_sensor_mounted_backwards_still_reads_right_after_calibration():
    board, scanner = colour_scanner(9, seed=3)
    board.flipped[10] = 1
    calibrated(board, scanner)
    board.stones[10] = 1
    board.stones[11] = 2
    scan = new_scan(9)
    scanner.read(scan)
    assert scan[10] == S_BLACK and scan[11] == S_WHITE


def test_weaker_white_magnets_are_mirrored_with_the_board_ratio():
    board, scanner = colour_scanner(13, seed=5, noise=200)
    board.white_ratio = 60
    calibrated(board, scanner)
    rnd = random.Random(2)
    scan = new_scan(13)
    want = random_position(board, rnd)
    scanner.read(scan)
    assert list(scan) == want


def test_magnets_the_wrong_way_round_is_a_clear_error():
    board, scanner = colour_scanner(9)
    board.white_ratio = -100  # white stones built N up like the black ones
    with pytest.raises(CalibrationError, match="polarity"):
        calibrated(board, scanner)


def test_rail_readings_are_faults_not_stones():
    board, scanner = colour_scanner(9)
    calibrated(board, scanner)
    board.stuck[5] = 0
    board.stuck[6] = 65535
    scan = new_scan(9)
    scanner.read(scan)
    assert scan[5] == S_FAULT and scan[6] == S_FAULT and scan[7] == S_EMPTY


def test_calibration_file_round_trip_and_damage(tmp_path):
    board, scanner = colour_scanner(9, seed=9)
    cal = calibrated(board, scanner)
    path = str(tmp_path / "calib.bin")
    cal.save(path)
    back = calibderive.load(path, 9)
    assert list(back.lo) == list(cal.lo) and list(back.hi) == list(cal.hi)
    assert bytes(back.loc) == bytes(cal.loc) and back.calibrated
    assert not os.path.exists(path + ".tmp")
    with pytest.raises(CalibrationError, match="is for 9x9"):
        calibderive.load(path, 13)
    with open(path, "r+b") as f:
        f.truncate(100)
    with pytest.raises(CalibrationError, match="damaged"):
        calibderive.load(path, 9)
    loaded, why = pico.load_calibration(9, path)
    assert "calibrate" in why and not loaded.calibrated


def test_the_file_holds_the_samples_and_they_drift_with_the_baseline(tmp_path):
    # Out of RAM once the file has them (1.8 KB of heap on 19x19): what
    # needs them reads the file, and the drift's write-back moves them with
    # the baseline, so every step (sample - baseline) stays.
    board, scanner = colour_scanner(9, seed=9)
    cal = calibrated(board, scanner)
    black, white, flags = (list(a) for a in cal.samples())
    spans = [span(cal, p) for p in range(81)]
    path = str(tmp_path / "calib.bin")
    cal.save(path)
    assert cal.black is None and cal.white is None and cal.flags is None
    back = calibderive.load(path, 9)
    assert back.black is None and back.white is None and back.flags is None
    assert [list(a) for a in back.samples()] == [black, white, flags]
    assert [span(back, p) for p in range(81)] == spans
    lo, hi = list(back.lo), list(back.hi)
    assert derive(back) == [] and (list(back.lo), list(back.hi)) == (lo, hi)
    base = list(back.base)
    lim = back.track_limit
    for p in range(81):
        back.base[p] += 7 * lim // 4 if p % 2 else -lim // 3  # as track() moves it
    back.base[3] = base[3]
    back.dirty = True
    back.save_drift()
    warm = calibderive.load(path, 9)
    b2, w2, f2 = (list(a) for a in warm.samples())
    assert f2 == flags and list(warm.base) == list(back.base) and list(warm.saved) == list(warm.base)
    for p in range(81):
        d = warm.base[p] - base[p]
        assert (b2[p], w2[p]) == (black[p] + d, white[p] + d), p
    # a sample within a tracking band of a rail stays where it is
    with open(path, "r+b") as f:
        f.seek(5 + 2 * 81 + 2 * 3)
        f.write(bytes((5, 0)))  # black sample of place 3 near the low rail
    near = calibderive.load(path, 9)
    near.base[3] += 100
    near.dirty = True
    near.save_drift()
    assert calibderive.load(path, 9).samples()[0][3] == 5
    # samples gone with the file: said, not guessed
    os.remove(path)
    with pytest.raises(OSError):
        near.samples()


def shift_scanner(size, **kw):
    board = machine.install_shift(size, **kw)
    return board, pico.make_sensors(Config(size=size, sensors="occupancy"), machine)


@pytest.mark.parametrize("size", [9, 19])
def test_shift_chain_reads_occupancy(size):
    board, scanner = shift_scanner(size)
    rnd = random.Random(size)
    scan = new_scan(size)
    for _ in range(3):
        for p in range(size * size):
            board.stones[p] = rnd.random() < 0.4
        scanner.read(scan)
        assert list(scan) == [S_STONE if s else S_EMPTY for s in board.stones]
    assert board.loads == 3


@pytest.mark.parametrize("fault", [dict(chips=pins.shift_chips(9) - 1, ser=0xFF),
                                   dict(chips=pins.shift_chips(9) - 1, ser=0),
                                   dict(ser=0xFF)])
def test_broken_shift_chain_is_all_fault(fault):
    board, scanner = shift_scanner(9, **fault)
    board.stones[3] = 1
    scan = new_scan(9)
    scanner.read(scan)
    assert set(scan) == {S_FAULT}


MP_SCAN = r"""
import sys, micropython
import machine
from gogadget.hw import pins
from gogadget.hw.muxscan import MuxScanner
from gogadget.hw.calibderive import checkerboard, derive, set_base, set_sample
from gogadget.scan import new_scan
size = %d
board = machine.install_colour(size, seed=4, noise=200)
out = machine.Pin.OUT
s = MuxScanner(size, [machine.Pin(g, out) for g in pins.MUX_SELECT],
               [machine.Pin(g, out) for g in pins.BANK_SELECT],
               [machine.ADC(machine.Pin(g)) for g in pins.ADC_PINS])
scan = new_scan(size)
cal = s.calibration
s.read_raw(); set_base(cal, s.raw)
for p in checkerboard(size, 0): board.stones[p] = 1
s.read_raw(); set_sample(cal, 1, s.raw, checkerboard(size, 0))
for p in checkerboard(size, 1): board.stones[p] = 2
s.read_raw(); set_sample(cal, 2, s.raw, checkerboard(size, 1))
print("bad", derive(cal))
for p in range(size * size): board.stones[p] = (p * 7) %% 3
s.read(scan)
micropython.heap_lock()
s.read(scan)   # a scan allocates nothing: MemoryError here otherwise
micropython.heap_unlock()
print("scan", bytes(scan) == bytes((p * 7) %% 3 for p in range(size * size)))
# Stones come and go: the drift and neighbour tracking (calib.track) looks
# at every changed place and its neighbours, still allocating nothing.
for k in range(1, 4):
    for p in range(size * size): board.stones[p] = (p * 7 + k) %% 3
    micropython.heap_lock()
    s.read(scan)
    micropython.heap_unlock()
print("changes", bytes(scan) == bytes((p * 7 + 3) %% 3 for p in range(size * size)))
"""


@pytest.mark.parametrize("size", [9, 19])
def test_micropython_scan_is_right_and_allocates_nothing(micropython, size):
    r = micropython(code=MP_SCAN % size)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "bad []" in r.stdout and "scan True" in r.stdout, r.stdout
    assert "changes True" in r.stdout, r.stdout


# The plan on a fragmented heap: every free block under 1 KB, plenty free
# in all (the Pico W's heap at boot raised a MemoryError when the plan was a
# list of 361 steps, a 2 KB block).
FRAGMENTED_PLAN = r"""
import gc
from fragment import fragment
from gogadget.hw import muxplan
pins = fragment(960)  # holes of ~1 KB
print("free", gc.mem_free())
plan = muxplan.build_plan(19)
print("plan", len(plan[0]))
steps, where, state = muxplan.steps_of(19)
print("where", len(where))
"""


def test_the_plan_needs_no_large_block_of_the_heap(micropython):
    res = micropython(FRAGMENTED_PLAN, heapsize="96k")
    # 361 reads and the extra line switches around the tiles' spare channels
    steps = len(build_plan(19)[0])
    assert 361 < steps < 400
    assert res.returncode == 0 and "plan %d" % steps in res.stdout, res.stdout + res.stderr
    assert "where 361" in res.stdout, res.stdout
    assert int(res.stdout.split("free")[1].split()[0]) > 30000, res.stdout


@pytest.mark.parametrize("size", [9, 19])
def test_an_uncalibrated_board_has_the_thresholds_derive_gives_without_samples(size):
    # Calibration() sets them itself: a game never loads calibderive.
    cal = Calibration(size)
    made = (list(cal.lo), list(cal.hi), bytes(cal.loc), cal.calibrated,
            cal.bad, cal.fresh, cal.track_limit, cal.xb, cal.xw, cal.xreach, list(cal.xt),
            list(cal.ctx))
    assert derive(cal) == []
    assert made == (list(cal.lo), list(cal.hi), bytes(cal.loc), cal.calibrated,
                    cal.bad, cal.fresh, cal.track_limit, cal.xb, cal.xw, cal.xreach,
                    list(cal.xt), list(cal.ctx))


def test_the_colour_above_a_threshold_is_the_other_of_loc():
    # hw/calib keeps only the colour below lo (loc); the scan's colour above
    # hi is loc ^ 3 (classify, track_look and their plain loops)
    assert S_BLACK ^ 3 == S_WHITE and S_WHITE ^ 3 == S_BLACK


def test_a_place_the_self_test_left_out_reads_as_a_fault():
    from gogadget.hw import selftest
    board, scanner = colour_scanner(9)
    calibrated(board, scanner)
    assert len(scanner.fault) == (81 + 7) // 8  # a bit a place
    scanner.fault[19 >> 3] |= 1 << (19 & 7)  # as selftest.check marks place 19
    scan = new_scan(9)
    scanner.read(scan)
    assert [p for p in range(81) if scan[p] == S_FAULT] == [19]
    assert selftest.check(scanner) == [] and not any(scanner.fault)  # all fine: cleared
    occupancy = shift_scanner(9)[1]
    occupancy.fault[70 >> 3] |= 1 << (70 & 7)
    scan = new_scan(9)
    occupancy.read(scan)
    assert [p for p in range(81) if scan[p] == S_FAULT] == [70]


def test_the_plain_scan_and_its_viper_twin_read_the_plan_steps_as_muxplan_writes_them():
    # Private constants (no names on the board): muxscanplain keeps a copy
    # of muxplan's, and viperscan.scan their values, each commented.
    import re
    from gogadget.hw import muxplan, muxscanplain
    names = ("_STEP_LINE", "_STEP_VALUE", "_STEP_SET", "_STEP_BANK_SHIFT", "_STEP_READ")
    assert [getattr(muxscanplain, n) for n in names] == [getattr(muxplan, n) for n in names]
    src = (ROOT / "firmware" / "gogadget" / "hw" / "viperscan.py").read_text()
    scan = src[src.index("def scan("):src.index("def classify(")]
    seen = {m[1]: int(m[0]) for m in re.findall(r"(\d+)\)?(?: & 3)?:?  # (STEP_\w+)", scan)}
    assert seen == {n[1:]: getattr(muxplan, n) for n in names}, seen
