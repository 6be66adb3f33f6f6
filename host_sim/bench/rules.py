"""Rules core speed and memory: `make bench BENCH=rules`.

Same seeded move sequences everywhere: random 19x19 games and games that end
in a big capture.  Figures: our Board.play (positional superko on) vs
sgfmill's Board.play on CPython; per-move time, bytes allocated per move and
the heap of a 400-move game under the real MicroPython (subprocess).
Targets (issue "Foundation and the rules core"): CPython <= 0.5x sgfmill,
MicroPython mean <= 25 us/move and worst < 500 us, < 16 KB for 400 moves.
"""
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from gogadget.board import Board, OK
from gogadget.points import BLACK, WHITE, EMPTY, point, row_col
from gogadget.rules import KO_POSITIONAL, SUICIDE_FORBIDDEN

ROOT = Path(__file__).resolve().parents[2]
SIZE = 19


def random_game(seed, length=400):
    """Random legal moves (no filling one's own single-point eyes)."""
    rng = random.Random(seed)
    b = Board(SIZE, KO_POSITIONAL, SUICIDE_FORBIDDEN)
    pts = b.points()
    w = b.stride
    moves = []
    colour = BLACK
    while len(moves) < length:
        rng.shuffle(pts)
        for pt in pts:
            if b.cells[pt] != EMPTY:
                continue
            if all(b.cells[q] in (colour, 3) for q in (pt - 1, pt + 1, pt - w, pt + w)):
                continue
            if b.play(colour, pt) == OK:
                moves.append((colour, pt))
                break
        else:
            break
        colour = 3 - colour
    return moves


def big_capture_game():
    """Black fills rows 2-9 (cols B-S, 136 stones); White builds the ring
    around them, plays elsewhere meanwhile, and closes the ring last: the
    final move captures 136 stones."""
    p = lambda r, c: point(SIZE, r, c)
    block = [p(r, c) for r in range(1, 9) for c in range(1, 18)]
    ring = ([p(0, c) for c in range(SIZE)] + [p(9, c) for c in range(SIZE)]
            + [p(r, 0) for r in range(1, 9)] + [p(r, 18) for r in range(1, 9)])
    filler = [p(r, c) for r in range(11, 19) for c in range(SIZE)]
    white = ring[:-1] + filler[:len(block) - len(ring)] + ring[-1:]
    moves = []
    for k in range(len(block)):
        moves.append((BLACK, block[k]))
        moves.append((WHITE, white[k]))
    return moves


def sequences():
    return [random_game(s) for s in range(5)] + [big_capture_game()]


def time_ours(seqs, reps):
    t = 0.0
    n = 0
    for moves in seqs:
        for _ in range(reps):
            b = Board(SIZE, KO_POSITIONAL, SUICIDE_FORBIDDEN)
            t0 = time.perf_counter()
            for colour, pt in moves:
                b.play(colour, pt)
            t += time.perf_counter() - t0
            n += len(moves)
    return t / n


def time_sgfmill(seqs, reps):
    from sgfmill import boards
    conv = [[(row_col(SIZE, pt), "bw"[c - 1]) for c, pt in moves] for moves in seqs]
    t = 0.0
    n = 0
    for moves in conv:
        for _ in range(reps):
            b = boards.Board(SIZE)
            t0 = time.perf_counter()
            for (r, c), colour in moves:
                b.play(r, c, colour)
            t += time.perf_counter() - t0
            n += len(moves)
    return t / n


MP_SCRIPT = """
import gc, sys, time, json
from gogadget.board import Board, OK
seqs = json.loads(sys.stdin.read())
def replay(moves, ko, best):
    b = Board(19, ko, 0)
    for i in range(0, len(moves), 2):
        c = moves[i]; pt = moves[i + 1]
        t0 = time.ticks_us()
        r = b.play(c, pt)
        dt = time.ticks_diff(time.ticks_us(), t0)
        j = i // 2
        if dt < best[j]:
            best[j] = dt  # the least of the repeats: scheduler noise removed
        if r != OK:
            raise SystemExit('illegal move in sequence')
    return b
res = {}
for ko in (3, 1):
    tot = 0; n = 0; worst = 0; where = ''
    for k, moves in enumerate(seqs):
        best = [1 << 29] * (len(moves) // 2)
        for rep in range(5):
            b = replay(moves, ko, best)
        tot += sum(best); n += len(best)
        for j in range(len(best)):
            if best[j] > worst:
                worst = best[j]
                where = 'seq %d move %d (captured %d)' % (k, j, len(b.captured_stones(j)))
    # legal() of every empty point at the end of the game (ko refusals included)
    lw = 0
    for rep in range(3):
        for pt in range(len(b.cells)):
            if b.cells[pt] == 0:
                t0 = time.ticks_us()
                b.legal(b.to_move(), pt)
                dt = time.ticks_diff(time.ticks_us(), t0)
                lw = max(lw, dt)
    res[ko] = (tot / n, worst, where, lw)
# bytes allocated per move (gc off; capacity preallocated vs default)
allocs = []
for cap in (512, 256):
    moves = seqs[0]
    gc.collect(); gc.disable()
    b = Board(19, 3, 0, cap)
    a0 = gc.mem_alloc()
    for i in range(0, len(moves), 2):
        b.play(moves[i], moves[i + 1])
    allocs.append((gc.mem_alloc() - a0) / (len(moves) // 2))
    gc.enable()
# heap of a 400-move game with full superko history
moves = seqs[0]
b = None
gc.collect()
a0 = gc.mem_alloc()
b = Board(19, 3, 0)
for i in range(0, len(moves), 2):
    b.play(moves[i], moves[i + 1])
gc.collect()
heap = gc.mem_alloc() - a0
print(json.dumps({'positional': res[3], 'simple': res[1], 'alloc_per_move': allocs,
                  'heap_400': heap, 'moves': b.moves}))
"""


def micropython_figures(seqs):
    exe = Path(sys.executable).parent / "micropython"
    if not exe.exists():
        return None
    flat = [[x for mv in moves for x in mv] for moves in seqs]
    env = dict(os.environ, MICROPYPATH=str(ROOT / "firmware"))
    out = subprocess.run([str(exe), "-c", MP_SCRIPT], input=json.dumps(flat),
                         capture_output=True, text=True, env=env, timeout=600)
    if out.returncode:
        raise RuntimeError(out.stdout + out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    seqs = sequences()
    n = sum(len(m) for m in seqs)
    print("sequences: %d games, %d moves (5 random 19x19 games of 400, one 272-move "
          "game ending in a 136-stone capture)" % (len(seqs), n))
    ours = time_ours(seqs, 5)
    ref = time_sgfmill(seqs, 5)
    print("CPython  Board.play (positional superko): %.2f us/move" % (ours * 1e6))
    print("CPython  sgfmill Board.play (no ko rule):  %.2f us/move" % (ref * 1e6))
    print("CPython  ratio ours/sgfmill: %.2fx (target <= 0.5x)" % (ours / ref))
    mp = micropython_figures(seqs)
    if mp is None:
        print("MicroPython: not installed")
        return
    for name in ("positional", "simple"):
        mean, worst, where, legal_worst = mp[name]
        print("MicroPython Board.play, %s ko: mean %.1f us/move, worst %d us at %s; "
              "worst legal() at the end of the capture game %d us "
              "(targets: mean <= 25, worst < 500; per move the least of 5 runs)"
              % (name, mean, worst, where, legal_worst))
    a512, a256 = mp["alloc_per_move"]
    print("MicroPython bytes allocated per move: %.1f (capacity 512), %.1f (default 256, "
          "includes growing the log once)" % (a512, a256))
    print("MicroPython heap of a %d-move 19x19 game with superko history: %d bytes "
          "(target < 16384)" % (mp["moves"], mp["heap_400"]))


if __name__ == "__main__":
    main()
