"""The streaming SGF writer (sgf.write_record / sgf.save_game): the same text
as sgf.record, written to flash a piece at a time, so saving a long game
needs a few hundred bytes of heap instead of the whole record (issue 11:
sgf.record allocated 156 KB saving a 325-move game and fragmented the heap)."""
import io
import os

from conftest import run_micropython

from gogadget import sgf
from gogadget.board import Board
from gogadget.points import BLACK, PASS, point
from gogadget.rules import Rules
from host_sim.bench.rules import random_game


def _game(n=400, handicap=0):
    b = Board(19)
    if handicap:
        for pt in (point(19, 3, 3), point(19, 15, 15)):
            b.setup(BLACK, pt)
        b.handicap = 2
    for colour, pt in random_game(1, n):
        if b.play(colour, pt):
            b.pass_move(colour)
    b.pass_move(b.to_move())
    return b


def test_write_record_is_record():
    for handicap in (0, 2):
        b = _game(handicap=handicap)
        f = io.StringIO()
        sgf.write_record(f, b, Rules("chinese"), 7.5, "B+3.5", "2026-11-23")
        text = sgf.record(b, Rules("chinese"), 7.5, "B+3.5", "2026-11-23")
        assert f.getvalue() == text
        game = sgf.parse(text)
        assert len(game.moves) == b.moves
        assert game.moves[-1][1] == PASS


def test_save_game_names_and_replaces(tmp_path):
    b = _game(40)
    store = str(tmp_path / "games")
    assert sgf.save_game(store, b, "chinese", 7.5, "W+R") == "0001.sgf"
    assert sgf.save_game(store, b, "chinese", 7.5, "W+R") == "0002.sgf"
    assert sorted(os.listdir(store)) == ["0001.sgf", "0002.sgf"]
    assert (tmp_path / "games" / "0002.sgf").read_text() == sgf.record(b, "chinese", 7.5, "W+R")


SAVE = """
import gc
from gogadget import sgf
from gogadget.board import Board
MOVES = %r
b = Board(19)
for i in range(0, len(MOVES), 3):
    c = MOVES[i]; pt = MOVES[i + 1] * 256 + MOVES[i + 2]
    if b.play(c, pt):
        b.pass_move(c)
gc.collect()
free = gc.mem_free()
gc.disable()  # count every byte allocated on the way (nothing is collected)
a0 = gc.mem_alloc()
try:
    %s
    print("OK", free, gc.mem_alloc() - a0)
except MemoryError:
    print("MEMORY", free, gc.mem_alloc() - a0)
"""


def test_streamed_save_allocates_little():
    """On MicroPython, with the collector off: everything allocated while a
    400-move game is saved, streamed to the file, and while its record is
    built as one text (the old writer: 156 KB for a 325-move game, issue 11)."""
    moves = bytearray()
    for colour, pt in random_game(2, 400):
        moves += bytes((colour, pt >> 8, pt & 255))
    import tempfile
    store = tempfile.mkdtemp()
    stream = SAVE % (bytes(moves), "sgf.save_game(%r, b, 'chinese', 7.5, 'B+R')" % store)
    whole = SAVE % (bytes(moves), "t = sgf.record(b, 'chinese', 7.5, 'B+R')")
    res = run_micropython(stream, heapsize="256K")
    assert res.stdout.startswith("OK"), res.stdout + res.stderr
    streamed = int(res.stdout.split()[2])
    saved = open(os.path.join(store, "0001.sgf")).read()
    assert saved.count(";") >= 300
    res = run_micropython(whole, heapsize="256K")
    assert res.stdout.startswith("OK"), res.stdout + res.stderr
    text = int(res.stdout.split()[2])
    # Small pieces freed as they go (64-bit objects: about half on the
    # RP2040); the text version also holds the whole record at the end.
    assert streamed < 64 * 1024, streamed
    assert text < 64 * 1024, text
