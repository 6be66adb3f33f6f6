"""Counting (score.py): the cited scoring checks live in tests/mp/
score_checks.py (run by test_rules_texts.py and under MicroPython); here are
the invariant over random finished games and a cross-check of the area
count against sgfmill's independent area_score()."""
import random

import pytest
from sgfmill import boards as sgf_boards

from gogadget import score
from gogadget.board import Board, OK
from gogadget.points import BLACK, WHITE, EMPTY, handicap_points, point, row_col
from gogadget.rules import Rules, KO_POSITIONAL, SUICIDE_FORBIDDEN


def own_eye(b, colour, pt):
    w = b.stride
    for q in (pt - 1, pt + 1, pt - w, pt + w):
        c = b.cells[q]
        if c != colour and c != 3:  # 3: EDGE
            return False
    return True


def fill_in_game(seed, size=9, handicap=0):
    """A random game played to the end: neither side plays into its own
    single-point eyes, a side with nothing else to play passes, two
    consecutive passes end it.  Returns the board and the plays by colour."""
    rng = random.Random(seed)
    # Positional superko: random play can otherwise cycle for ever.
    b = Board(size, KO_POSITIONAL, SUICIDE_FORBIDDEN)
    if handicap:
        for r, c in handicap_points(size, handicap):
            b.setup(BLACK, point(size, r, c))
        b.handicap = handicap
        b.first = WHITE
    plays = [0, 0, 0]
    pts = b.points()
    colour = b.first
    while b.consecutive_passes() < 2:
        rng.shuffle(pts)
        for pt in pts:
            if b.cells[pt] == EMPTY and not own_eye(b, colour, pt) and b.play(colour, pt) == OK:
                plays[colour] += 1
                break
        else:
            b.pass_move(colour)
        colour = 3 - colour
    return b, plays


def area_rules():
    return Rules("000")  # area scoring, no komi


def territory_rules(pass_stones):
    r = Rules("003" if pass_stones else "japanese")
    return r


GAMES = [(seed, size, h) for seed, size, h in
         [(s, 9, 0) for s in range(12)] + [(100 + s, 9, 2 + s % 3) for s in range(6)]
         + [(200 + s, 7, 0) for s in range(6)] + [(300, 13, 0), (301, 13, 4)]]


@pytest.mark.parametrize("seed,size,handicap", GAMES)
def test_area_minus_territory_invariant(seed, size, handicap):
    """Derivation (no dead stones, no komi): stones on the board are
    S_B = plays_B + H - cap_W and S_W = plays_W - cap_B (cap_X: stones X
    captured).  Area difference = S_B + T_B - S_W - T_W.  Territory
    difference = T_B + cap_B - T_W - cap_W, plus (passes_W - passes_B) when
    each pass hands the opponent a prisoner.  Subtracting:
        area(B-W) - territory(B-W)
          = (plays_B - plays_W) + H + (passes_B - passes_W)   pass stones on
          = (plays_B - plays_W) + H                           pass stones off
    (the pass term has a plus sign: a pass *costs* the passer a point under
    territory counting and nothing under area counting).  Seki eyes left out
    of territory (Japanese practice) would add their difference; any such
    game checks that term explicitly."""
    b, plays = fill_in_game(seed, size, handicap)
    a = score.count(b, area_rules())
    assert a.black - a.white == a.area[BLACK] - a.area[WHITE]
    base = plays[BLACK] - plays[WHITE] + handicap
    for on in (False, True):
        t = score.count(b, territory_rules(on), komi=0)
        seki_eyes = [(t.area[c] - t.stones[c]) - t.territory[c] for c in (0, BLACK, WHITE)]
        want = base + (b.passes[BLACK] - b.passes[WHITE] if on else 0)
        got = (a.black - a.white) - (t.black - t.white)
        assert got == want + seki_eyes[BLACK] - seki_eyes[WHITE]
        assert t.dead == [0, 0, 0]


@pytest.mark.parametrize("seed", range(10))
def test_area_count_matches_sgfmill(seed):
    """sgfmill's Board.area_score() (independent code, all stones alive)
    gives the same black-minus-white area as score.count."""
    b, _ = fill_in_game(1000 + seed, 9)
    ref = sgf_boards.Board(9)
    for pt in b.points():
        c = b.cells[pt]
        if c in (BLACK, WHITE):
            r, col = row_col(9, pt)
            ref.play(r, col, "bw"[c - 1])
    a = score.count(b, area_rules())
    assert a.area[BLACK] - a.area[WHITE] == ref.area_score()


def test_owner_marks_exactly_the_counted_points():
    b, _ = fill_in_game(5, 9)
    for rules in (area_rules(), territory_rules(True)):
        c = score.count(b, rules)
        marked = [sum(1 for p in b.points() if c.owner[p] == col) for col in (BLACK, WHITE)]
        if rules.scoring == 0:
            assert marked == [c.area[BLACK], c.area[WHITE]]
        else:
            assert marked == [c.territory[BLACK], c.territory[WHITE]]


def test_dead_stones_leave_the_board_untouched_and_bad_points_are_refused():
    b, _ = fill_in_game(9, 9)
    before = (bytes(b.cells), b.hash, list(b.prisoners))
    stone = next(p for p in b.points() if b.cells[p] == WHITE)
    score.count(b, Rules("japanese"), dead=[stone])
    empty = next((p for p in b.points() if b.cells[p] == EMPTY), None)
    for bad in ([0], [len(b.cells) + 5]) + (([empty],) if empty else ()):
        with pytest.raises(ValueError, match="no stone"):
            score.count(b, Rules("japanese"), dead=bad)
    assert (bytes(b.cells), b.hash, list(b.prisoners)) == before
