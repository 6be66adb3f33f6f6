"""Property tests of the rules core (board.py), cross-checked against
independent code: sgfmill's board for captures and self-capture, and a
plain set of earlier positions for ko and superko."""
import random
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st
from sgfmill import boards as sgf_boards

from gogadget.board import Board, OK, KO, SUPERKO, SUICIDE, OCCUPIED, key
from gogadget.diagram import diagram, load_diagram
from gogadget.points import BLACK, WHITE, EMPTY, PASS, point, row_col
from gogadget.rules import (KO_NONE, KO_SIMPLE, KO_PREVIOUS, KO_POSITIONAL,
                            KO_SITUATIONAL, SUICIDE_FORBIDDEN, SUICIDE_MULTI,
                            SUICIDE_ALLOWED)

sys.path.insert(0, str(Path(__file__).resolve().parent / "mp"))

SIZE = 5
KOS = st.sampled_from([KO_NONE, KO_SIMPLE, KO_PREVIOUS, KO_POSITIONAL, KO_SITUATIONAL])
SUICIDES = st.sampled_from([SUICIDE_FORBIDDEN, SUICIDE_MULTI, SUICIDE_ALLOWED])
# A move attempt: a place on the 5x5 board, or 25 for a pass.
MOVES = st.lists(st.integers(0, SIZE * SIZE), min_size=1, max_size=120)


def attempt(b, colour, place):
    if place == SIZE * SIZE:
        b.pass_move(colour)
        return OK
    return b.play(colour, point(SIZE, place // SIZE, place % SIZE))


def snapshot(b):
    return (bytes(b.cells), b.hash, b.moves, tuple(b.prisoners), tuple(b.passes),
            b.to_move(), b.last_captures)


def recomputed_hash(b):
    h = 0
    for p in b.points():
        c = b.cells[p]
        if c in (BLACK, WHITE):
            h ^= key(p, c)
    return h


@settings(max_examples=150, deadline=None)
@given(KOS, SUICIDES, MOVES)
def test_undo_everything_gives_the_empty_board_and_hash_0(ko, suicide, moves):
    b = Board(SIZE, ko, suicide)
    colour = BLACK
    trail = [snapshot(b)]
    for place in moves:
        if attempt(b, colour, place) == OK:
            assert b.hash == recomputed_hash(b)
            trail.append(snapshot(b))
            colour = 3 - colour
    while b.moves:
        trail.pop()
        assert b.undo()
        assert snapshot(b) == trail[-1]
    assert b.hash == 0 and b.prisoners == [0, 0, 0] and b.passes == [0, 0, 0]
    assert all(b.cells[p] == EMPTY for p in b.points())


@settings(max_examples=150, deadline=None)
@given(KOS, SUICIDES, MOVES)
def test_legal_leaves_the_board_unchanged_and_agrees_with_play(ko, suicide, moves):
    b = Board(SIZE, ko, suicide)
    colour = BLACK
    for place in moves:
        if place == SIZE * SIZE:
            b.pass_move(colour)
            colour = 3 - colour
            continue
        pt = point(SIZE, place // SIZE, place % SIZE)
        before = snapshot(b)
        answer = b.legal(colour, pt)
        assert snapshot(b) == before
        assert b.play(colour, pt) == answer
        if answer == OK:
            colour = 3 - colour
        else:
            assert snapshot(b) == before


@settings(max_examples=150, deadline=None)
@given(MOVES, st.booleans())
def test_captures_match_sgfmill(moves, forbid_suicide):
    """sgfmill's board (independent code) removes the same stones; without
    suicide forbidden it self-captures the same way (000 Step 3)."""
    b = Board(SIZE, KO_NONE, SUICIDE_FORBIDDEN if forbid_suicide else SUICIDE_ALLOWED)
    ref = sgf_boards.Board(SIZE)
    colour = BLACK
    for place in moves:
        if place == SIZE * SIZE:
            continue
        r, c = place // SIZE, place % SIZE
        got = b.play(colour, point(SIZE, r, c))
        if ref.get(r, c) is not None:
            assert got == OCCUPIED
            continue
        if got == SUICIDE:
            trial = ref.copy()
            trial.play(r, c, "bw"[colour - 1])
            assert trial.get(r, c) is None  # sgfmill: the stone self-captured
            continue
        assert got == OK
        ref.play(r, c, "bw"[colour - 1])
        for rr in range(SIZE):
            for cc in range(SIZE):
                want = {None: EMPTY, "b": BLACK, "w": WHITE}[ref.get(rr, cc)]
                assert b.cells[point(SIZE, rr, cc)] == want
        colour = 3 - colour


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([KO_POSITIONAL, KO_SITUATIONAL]), SUICIDES,
       st.lists(st.integers(0, 8), min_size=1, max_size=200))
def test_superko_refuses_exactly_the_repetitions(ko, suicide, moves):
    """002 Rule 8 (positional) and situational superko, against a plain set
    of the positions seen so far: a play is refused as ko/superko exactly
    when the position it makes (with the player to move, for situational)
    is in the set.  A 3x3 board makes repetitions frequent."""
    size = 3
    b = Board(size, ko, suicide)
    free = Board(size, KO_NONE, suicide)  # the same play without any ko rule
    seen = {(bytes(b.cells), BLACK if ko == KO_SITUATIONAL else 0)}
    colour = BLACK
    refused = 0
    for place in moves:
        pt = point(size, place // size, place % size)
        got = b.play(colour, pt)
        raw = free.play(colour, pt)
        if raw != OK:
            assert got == raw
            continue
        key = (bytes(free.cells), 3 - colour if ko == KO_SITUATIONAL else 0)
        if key in seen:
            assert got in (KO, SUPERKO)
            free.undo()
            refused += 1
            continue
        assert got == OK
        seen.add(key)
        colour = 3 - colour


def test_capacity_and_long_random_games():
    """Seeded 19x19 games well past the preallocated log, then undone."""
    rng = random.Random(7)
    b = Board(19, KO_POSITIONAL, SUICIDE_FORBIDDEN, capacity=64)
    pts = b.points()
    colour = BLACK
    for _ in range(600):
        pt = rng.choice(pts)
        if b.play(colour, pt) == OK:
            colour = 3 - colour
    assert b.moves > 300
    assert b.hash == recomputed_hash(b)
    while b.undo():
        pass
    assert b.hash == 0 and b.prisoners == [0, 0, 0]


def test_diagram_round_trip_and_bad_diagram():
    b = Board(5)
    load_diagram(b, ".X...\n..O..\n.....\n.....\nX...O")
    assert diagram(b) == ".X...\n..O..\n.....\n.....\nX...O"
    assert row_col(5, b.chain(point(5, 4, 1))[0]) == (4, 1)
    for bad in ("....\n" * 5, ".....\n" * 4, "..Z..\n" + ".....\n" * 4):
        try:
            load_diagram(b, bad)
        except ValueError:
            continue
        raise AssertionError("accepted " + repr(bad))


def test_setup_after_moves_is_refused():
    b = Board(9)
    b.play(BLACK, point(9, 4, 4))
    try:
        b.setup(BLACK, point(9, 2, 2))
    except ValueError:
        return
    raise AssertionError("setup after moves accepted")


def test_point_keys_are_distinct_small_and_as_independent_as_random_ones():
    """The position keys are computed, not a table (board.point_key): on
    every point of the largest board they are distinct, non-zero small ints
    (below 2**30), white's differ from black's, and sets of 25 of them are
    linearly dependent (a Zobrist collision) about as rarely as 25 random
    30-bit keys are; a collision only costs a point-by-point comparison."""
    from gogadget.board import point_key
    b = Board(19)
    pts = list(range(len(b.cells)))
    black = [point_key(p) for p in pts]
    white = [key(p, WHITE) for p in pts]
    assert len(set(black + white)) == 2 * len(pts)
    assert all(0 < k < 2 ** 30 for k in black + white)

    def independent(keys):
        pivots = {}
        for v in keys:
            for bit in sorted(pivots, reverse=True):
                if v >> bit & 1:
                    v ^= pivots[bit]
            if not v:
                return False
            pivots[v.bit_length() - 1] = v
        return True

    rnd = random.Random(1)
    ours = sum(not independent(rnd.sample(black, 25)) for _ in range(2000))
    chance = sum(not independent([rnd.getrandbits(30) for _ in range(25)]) for _ in range(2000))
    # 25 random 30-bit vectors: dependent with probability ~3%.
    assert ours < 2 * chance + 20, (ours, chance)
