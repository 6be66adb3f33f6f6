"""The journal survives a power cut at any byte, and a corrupt one is
recovered to its last good record, reported, and kept aside."""
import os
import random

import pytest

from gogadget import journal as jn

from gogadget import journalread as jr
from gogadget.app import App
from gogadget.board import OK
from gogadget.config import Config
from gogadget.diagram import diagram
from gogadget.events import BTN_NONE
from gogadget.points import PASS
from gogadget.scan import new_scan


class Quiet:
    kind = "colour"

    def read(self, scan):
        pass

    def show(self, frame, now_ms):
        pass

    def poll(self, now_ms):
        return BTN_NONE


def play_recorded_game(store, seed=7, moves=70):
    """A game with captures, passes and take-backs; returns the states the
    journal promises: [(journal bytes, moves, diagram)]."""
    app = App(Config(size=9, preset="japanese", komi=6.5), Quiet(), Quiet(), Quiet(), store)
    app.boot(0)
    ref = app.referee
    rng = random.Random(seed)
    states = [(app.journal.size, 0, diagram(ref.board))]
    pts = ref.board.points()
    captures = 0
    while ref.board.moves < moves:
        colour = ref.to_move()
        r = rng.random()
        if r < 0.04 and ref.board.moves:
            ref.undo()
        elif r < 0.07:
            ref.external_move(colour, PASS)
            if ref.phase != "play":
                ref.undo()
        else:
            pt = atari_point(ref.board, colour) if r < 0.6 else None
            pt = pt or rng.choice(pts)
            if ref.board.cells[pt] or ref.external_move(colour, pt) != OK:
                continue
            captures += ref.board.last_captures
        states.append((app.journal.size, ref.board.moves, diagram(ref.board)))
    assert captures > 0 or moves < 30
    return states


def atari_point(board, colour):
    """The last liberty of an opponent chain in atari, if there is one."""
    w = board.stride
    for pt in board.points():
        if board.cells[pt] == 3 - colour and board.chain_liberties(pt) == 1:
            for stone in board.chain(pt):
                for q in (stone - 1, stone + 1, stone - w, stone + w):
                    if board.cells[q] == 0:
                        return q
    return None


def boot(store):
    app = App(Config(size=9), Quiet(), Quiet(), Quiet(), store)
    app.boot(0)
    events = []
    while True:
        ev = app.referee.poll_event()
        if ev is None:
            return app, events
        events.append(ev)


def expected(states, cut):
    best = None
    for size, moves, picture in states:
        if size <= cut:
            best = (moves, picture)
    return best


def test_power_cut_at_every_byte(tmp_path):
    store = str(tmp_path / "game")
    states = play_recorded_game(store)
    data = open(store + "/" + jn.NAME, "rb").read()
    assert len(data) == states[-1][0] and len(data) % jn.RECORD == 0
    cut_dir = str(tmp_path / "cut")
    for cut in range(len(data) + 1):
        os.makedirs(cut_dir, exist_ok=True)
        for name in os.listdir(cut_dir):
            os.remove(os.path.join(cut_dir, name))
        with open(cut_dir + "/" + jn.NAME, "wb") as f:
            f.write(data[:cut])
        app, events = boot(cut_dir)
        ref = app.referee
        want = expected(states, cut)
        if want is not None:
            assert (ref.board.moves, diagram(ref.board)) == want, cut
            assert ref.phase in ("resume", "play"), cut
        kinds = [k for k, _ in events]
        if cut % jn.RECORD:
            assert "error" in kinds, cut
            bad = open(cut_dir + "/journal-1.bad", "rb").read()
            assert bad == data[:cut], "the damaged journal was not kept whole"
            good = cut - cut % jn.RECORD
            # nothing good left: the fresh game's header (new, rules, game) is journalled instead
            assert os.path.getsize(cut_dir + "/" + jn.NAME) == (good or 3 * jn.RECORD)
            assert "damaged at byte %d" % (cut - cut % jn.RECORD) in ref.status()
        else:
            assert "error" not in kinds, (cut, events)
            assert not os.path.exists(cut_dir + "/journal-1.bad")
        if cut >= 2 * jn.RECORD:
            assert "resume" in kinds


def test_corrupt_byte_recovers_to_last_good_record(tmp_path):
    store = str(tmp_path / "game")
    states = play_recorded_game(store, seed=11, moves=40)
    path = store + "/" + jn.NAME
    data = bytearray(open(path, "rb").read())
    where = 20 * jn.RECORD + 3
    data[where] ^= 0x5A
    open(path, "wb").write(data)
    app, events = boot(store)
    want = expected(states, 20 * jn.RECORD)
    assert (app.referee.board.moves, diagram(app.referee.board)) == want
    assert any(k == "error" and "damaged at byte %d" % (20 * jn.RECORD) in t for k, t in events)
    assert open(store + "/journal-1.bad", "rb").read() == bytes(data)
    # the recovered game goes on and is journalled after the good part
    n = app.referee.board.moves
    pt = next(p for p in app.referee.board.points() if app.referee.board.cells[p] == 0
              and app.referee.board.legal(app.referee.to_move(), p) == OK)
    assert app.referee.external_move(app.referee.to_move(), pt) == OK
    app2, events2 = boot(store)
    assert app2.referee.board.moves == n + 1
    assert not [e for e in events2 if e[0] == "error"]


def test_new_game_cut_before_rename_keeps_a_game(tmp_path):
    store = str(tmp_path / "g")
    play_recorded_game(store, moves=10)
    j = jn.Journal(store)
    # The new game's header was written but the cut came before the rename.
    header = [jn.encode(jn.K_NEW, 13, 32768 + 13, 0, 0, 0)]
    with open(store + "/" + jn.TMP, "wb") as f:
        f.write(b"".join(header))
    records, report = jr.load(j)
    assert records[0][1] == 13 and report == ""
    # A header cut short loses nothing: the old game stays.
    play_recorded_game(store + "2", moves=10)
    with open(store + "2/" + jn.TMP, "wb") as f:
        f.write(bytes(jn.encode(jn.K_NEW, 13))[:5])
    records, report = jr.load(jn.Journal(store + "2"))
    assert records[0][1] == 9 and len(records) > 10


def test_records_check_themselves():
    rec = jn.encode(jn.K_MOVE, 1, 300)
    assert jr.decode(rec, 0) == (jn.K_MOVE, 1, 300, 0, 0, 0)
    for i in range(len(rec)):
        for bit in range(8):
            bad = bytearray(rec)
            bad[i] ^= 1 << bit
            assert jr.decode(bad, 0) is None, (i, bit)


def test_finished_games_are_numbered(tmp_path):
    d = str(tmp_path)
    assert jn.save_game(d, "(;A)") == "0001.sgf"
    assert jn.save_game(d, "(;B)") == "0002.sgf"
    assert jn.game_names(d) == ["0001.sgf", "0002.sgf"]
    assert open(d + "/0002.sgf").read() == "(;B)"


def test_power_cut_resume_micropython(micropython, tmp_path):
    # The same recovery on the MicroPython file API: cut mid-record.
    code = """
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.config import Config
from gogadget.referee import Referee
d = %r
j = jn.Journal(d)
r = Referee(Config(size=9), j)
r.resume([], "", 0)
from gogadget.points import point, BLACK, WHITE
for i, (row, col) in enumerate(((2, 2), (6, 6), (2, 6), (6, 2))):
    r.external_move(BLACK if i %% 2 == 0 else WHITE, point(9, row, col))
j.close()
f = open(d + "/journal.bin", "rb"); data = f.read(); f.close()
f = open(d + "/journal.bin", "wb"); f.write(data[:len(data) - 3]); f.close()
j2 = jn.Journal(d)
records, report = jr.load(j2)
r2 = Referee(Config(size=9), j2)
r2.resume(records, report, 0)
print("MOVES", r2.board.moves, "PHASE", r2.phase, "REPORT", report)
""" % str(tmp_path)
    proc = micropython(code=code)
    out = proc.stdout + proc.stderr
    assert "MOVES 3 PHASE resume REPORT journal damaged" in out, out
    assert (tmp_path / "journal-1.bad").exists()


FRAGMENTED = r"""
import gc
from gogadget import journal as jn
from gogadget import journalread as jr
gc.collect()
hold = [None] * 600
big = [None] * 40
n = k = b = 0  # every global made before the heap is full (a new one grows the dict)
try:
    while n < len(hold):
        hold[n] = bytearray(160)
        n += 1
except MemoryError:
    pass
while k < n:  # every other block free (no allocation): plenty free, no large piece
    hold[k] = None
    k += 2
gc.collect()
while b < len(big):  # and any piece of 512 bytes left is taken too
    try:
        big[b] = bytearray(512)
    except MemoryError:
        break
    b += 1
try:
    bytearray(512)
    print("a 512-byte block is free")
except MemoryError:
    print("free %%d bytes, no 512-byte block" %% gc.mem_free())
records, report = jr.load(jn.Journal(%r))
print("records", len(records), sum(1 for r in records if r[0] == jn.K_MOVE), repr(report))
"""


def test_a_long_journal_loads_in_a_fragmented_heap(tmp_path, micropython):
    # The Pico W once stopped at boot: 29 KB free, no 1.8 KB block for the
    # whole journal.  It is read a record at a time, so 700 moves (5.6 KB)
    # load where no piece of the heap holds even 512 bytes.
    store = str(tmp_path / "g")
    j = jn.Journal(store)
    j.start([jn.encode(jn.K_NEW, 19, 6 * 2 + 32768)])
    for i in range(700):
        j.append(jn.encode(jn.K_MOVE, 1 + i % 2, 1 + i % 361))
    j.close()
    with open(store + "/" + jn.NAME, "ab") as f:
        f.write(b"\xa4\x01\x02")  # a record cut short by a power cut
    res = micropython(code=FRAGMENTED % store, heapsize="64k")
    out = res.stdout + res.stderr
    assert "no 512-byte block" in out, out
    assert "records 701 700 'journal damaged at byte 5608 of 5611: kept as journal-1.bad, " \
           "701 records recovered'" in out, out
    assert open(store + "/journal-1.bad", "rb").read()[-3:] == b"\xa4\x01\x02"
    assert len(open(store + "/" + jn.NAME, "rb").read()) == 5608


def test_crc8_is_crc8_of_polynomial_7_bit_by_bit():
    """crc8 is the catalogue's CRC-8 (check value), byte for byte the
    bit-by-bit definition, so every journal written before reads back."""
    def bitwise(data):
        crc = 0
        for x in data:
            crc ^= x
            for _ in range(8):
                crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        return crc
    assert jn.crc8(b"123456789", 9) == 0xF4  # CRC-8/SMBUS check value
    rnd = random.Random(8)
    for _ in range(500):
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 12)))
        assert jn.crc8(data, len(data)) == bitwise(data), data
    assert jn.crc8(b"\xff\x00\xff", 2) == bitwise(b"\xff\x00")
