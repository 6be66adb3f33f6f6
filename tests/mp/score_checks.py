"""Scoring checks shared by CPython (pytest) and MicroPython.

Like rules_checks.py: plain asserts, each name cites the rule text it checks
(../shared/rules/NNN_*.txt), each returns a short text to compare between
the interpreters.
"""
import checkrun
from gogadget import score
from gogadget.points import BLACK, WHITE, EMPTY, PASS
from gogadget.rules import Rules, komi_prisoners
from gogadget.ruleopts import set_rule
from rules_checks import make, v, play, play_all

B = BLACK
W = WHITE

WALLS = """
    .X.O.
    .X.O.
    .X.O.
    .X.O.
    .X.O."""


def board_for(diagram, preset):
    r = Rules(preset)
    return make(diagram, r.ko, r.suicide), r


def brief(c):
    return "%s B=%s W=%s t=%d,%d a=%d,%d p=%d,%d" % (
        c.result, c.black, c.white, c.territory[B], c.territory[W],
        c.area[B], c.area[W], c.prisoners[B], c.prisoners[W])


def check_000_definition_territory_needs_a_stone_rule10_draw():
    """000 Definition "Territory" (2: "there is at least one such stone"):
    an empty board is nobody's; 000 Rule 10: equal scores are a draw, "0"."""
    b, r = board_for("\n".join(["....."] * 5), "000")
    c = score.count(b, r)
    assert c.territory == [0, 0, 0] and c.area == [0, 0, 0]
    assert c.result == "0" and c.winner == EMPTY
    assert all(x == EMPTY for x in c.owner)
    return brief(c)


def check_000_definitions_area_score_rule10_winner():
    """000 Definition "Area" (territory + own stones), Definition "Score", Rule 10
    (the higher score wins); the empty column touching both is neutral."""
    b, r = board_for("""
        .X.O.
        .X.O.
        .XXO.
        .X.O.
        .X.O.""", "000")
    c = score.count(b, r)
    assert c.area[B] == 11 and c.area[W] == 10 and c.territory == [0, 5, 5]
    assert c.black == 11 and c.white == 10 and c.result == "B+1" and c.winner == B
    assert c.owner[v(b, "A1")] == B and c.owner[v(b, "B1")] == B
    assert c.owner[v(b, "C1")] == EMPTY and c.owner[v(b, "E5")] == W
    return brief(c)


def check_001_territory_plus_captured_stones_occupied_points_do_not_count():
    """001 "A player's score is the number of empty points enclosed by his
    stones plus the number of opposing stones which he has captured. Points
    which are occupied by stones do not count"."""
    b, r = board_for("""
        .X.O.
        .X.O.
        OX.O.
        .X.O.
        .X.O.""", "001")
    play_all(b, "B A4 W pass B A2")
    assert b.prisoners[B] == 1
    c = score.count(b, r, komi=0)
    assert c.territory[B] == 3 and c.territory[W] == 5
    assert c.black == 4 and c.white == 5 and c.result == "W+1"
    assert c.owner[v(b, "A4")] == EMPTY and c.owner[v(b, "A3")] == B
    c = score.count(b, r)  # the preset's komi, 6.5
    assert c.result == "W+7.5"
    return brief(c)


def check_003_diagram1_territory_and_prisoner_white_by_one():
    """003 Diagram 1: Black has 15 points of territory and one prisoner (16),
    White 17 points of territory: "White wins the game by one point"."""
    b, r = board_for("""
        ..O......
        ..O......
        ..O......
        ..O......
        ..OXXXXXX
        ..OX.....
        ..OXXX...
        ..OXX....
        O.OX...XO""", "003")
    play(b, B, "J2")  # the capture of the white stone at 'a'
    c = score.count(b, r)
    assert c.territory[B] == 15 and c.prisoners[B] == 1 and c.black == 16
    assert c.territory[W] == 17 and c.white == 17
    assert c.result == "W+1"
    return brief(c)


def check_003_hopeless_strings_004_dead_stones_become_prisoners():
    """003 "the hopeless strings are simply removed from the board and
    counted together with the capturing player's other prisoners"; 004
    "dead stones ... are added to the prisoner stones"; 002 Definition
    "Territory" ("after all dead stones are removed") for area scoring."""
    d = """
        .X.O.
        OX.O.
        OX.O.
        .X.O.
        .X.O."""
    b, r = board_for(d, "004")
    alive = score.count(b, r)
    assert alive.territory[B] == 0
    c = score.count(b, r, dead=[v(b, "A3")])  # one point marks the chain
    assert c.dead[W] == 2 and c.prisoners[B] == 2 and c.territory[B] == 5
    assert c.owner[v(b, "A4")] == B
    assert c.black == 7 and c.white == 5 + komi_prisoners(5)
    assert b.cells[v(b, "A3")] == W  # counting leaves the board alone
    a, ra = board_for(d, "002")
    ca = score.count(a, ra, dead=[v(a, "A4"), v(a, "A3")])
    assert ca.area[B] == 10 and ca.area[W] == 10 and ca.result == "0"
    try:
        score.count(b, r, dead=[v(b, "C3")])
    except ValueError as exc:
        assert "no stone" in str(exc)
    else:
        raise AssertionError("dead empty point accepted")
    return brief(c) + " / " + brief(ca)


SEKI = """
    .......
    .......
    .......
    XXXXX..
    OOOOXXX
    XXXOOOX
    .X.O.OX"""


def check_003_diagram14_seki_area_and_territory():
    """003 Diagram 14 (seki: neither player can afford to play at the
    shared liberty).  Area scoring (000/002, 002 "no special exceptions for
    territory in a seki") counts the seki stones and their eyes; territory
    scoring (Japanese practice) does not count the eyes of chains in seki,
    and the shared liberty is nobody's either way."""
    b, r = board_for(SEKI, "000")
    area = score.count(b, r)
    assert area.seki == 0  # not looked for under area scoring
    assert area.area[B] == 38 and area.area[W] == 10
    assert area.owner[v(b, "A1")] == B and area.owner[v(b, "E1")] == W
    assert area.owner[v(b, "C1")] == EMPTY
    t, rt = board_for(SEKI, "japanese")
    terr = score.count(t, rt, komi=0)
    assert terr.seki == 1
    assert terr.territory[B] == 23 and terr.territory[W] == 0
    assert terr.area[B] == 38  # area is reported the same either way
    assert terr.owner[v(t, "A1")] == EMPTY and terr.owner[v(t, "E1")] == EMPTY
    assert terr.owner[v(t, "A7")] == B
    assert terr.result == "B+23"
    # Ordinary dame between healthy groups is not seki.
    d, rd = board_for(WALLS, "japanese")
    assert score.count(d, rd).seki == 0
    return brief(area) + " / " + brief(terr)


def check_004_komi_as_prisoners_5_4_3_none_with_handicap():
    """004 "Black gives to White several (normally 5) stones as a prisoners
    before the game starts (except for a game with a handicap). Komi for the
    smaller size boards is less (4 for 13x13 board and 3 for 9x9 board)"."""
    out = []
    for size, want in ((19, 5), (13, 4), (9, 3)):
        b, r = board_for("\n".join(["." * size] * size), "004")
        assert komi_prisoners(size) == want
        c = score.count(b, r, komi=6.5)  # komi as prisoners replaces komi
        assert c.komi == want and c.white == want and c.result == "W+%d" % want
        out.append(c.result)
    h, r = board_for("\n".join(["." * 9] * 9), "004")
    h.setup(B, v(h, "C3"))
    h.setup(B, v(h, "G7"))
    h.handicap = 2
    c = score.count(h, r)
    assert c.komi == 0 and c.result == "B+79"
    return " ".join(out) + " " + c.result


def check_004_tie_white_wins_except_handicap_000_rule10_draw():
    """004 "in case the numbers of points are equal, the white player is
    considered to be the winner (except for a game with a handicap)";
    000 Rule 10 "Otherwise, the game is drawn"."""
    b, r = board_for(WALLS, "004")
    set_rule(r, "komi-prisoners", "off")
    c = score.count(b, r)
    assert c.black == c.white == 5 and c.winner == W and c.result == "W+0"
    b.handicap = 2
    c2 = score.count(b, r)
    assert c2.winner == EMPTY and c2.result == "0"
    d, rd = board_for(WALLS, "000")
    c3 = score.count(d, rd)
    assert c3.result == "0" and c3.winner == EMPTY
    return c.result + " " + c2.result + " " + c3.result


def check_001_optional_komi_and_override():
    """001 optional rules: "compensation points ... for the second player,
    see komi": the preset's komi, or an override (GTP komi)."""
    b, r = board_for(WALLS, "chinese")
    assert score.count(b, r).result == "W+7.5"
    assert score.count(b, r, komi=0.5).result == "W+0.5"
    assert score.count(b, r, komi=-2).result == "B+2"
    return "ok"


def check_001_optional_handicap_compensation():
    """001 optional "compensation stones placed on the board"; under area
    scoring White receives a point per handicap stone (Chinese) or per stone
    after the first (AGA); territory scoring gives none."""
    out = []
    for preset, want in (("chinese", "B+69.5"), ("aga", "B+70.5"), ("japanese", "B+70.5")):
        b, r = board_for("\n".join(["." * 9] * 9), preset)
        for text in ("C3", "G7", "C7", "G3"):
            b.setup(B, v(b, text))
        b.handicap = 4
        c = score.count(b, r)
        assert c.result == want, (preset, c.result)
        out.append(c.result)
    return " ".join(out)


def check_002_concise4_003_pass_hands_over_a_prisoner():
    """002 concise 4 ("A player may pass his turn at any time, but must
    sacrifice one of their prisoners"), 003 "you pass and hand a stone to
    your opponent as a prisoner": counts under territory scoring (003);
    an area score (002 concise 8) has no prisoners in it."""
    b, r = board_for(WALLS, "003")
    play_all(b, "B pass W pass B pass")
    c = score.count(b, r)
    assert c.prisoners[B] == 1 and c.prisoners[W] == 2
    assert c.black == 6 and c.white == 7 and c.result == "W+1"
    a, ra = board_for(WALLS, "002")
    play_all(a, "B pass W pass B pass")
    ca = score.count(a, ra)
    assert ca.result == "0" and ca.prisoners[W] == 2
    set_rule(r, "pass-stones", "off")
    assert score.count(b, r).result == "0"
    return brief(c)


def check_000_rule9_002_concise7_003_white_passes_last():
    """000 Rule 9 ("The game ends when both players have passed
    consecutively"); 002 concise 7 ("since black begins, white must end the
    game") and 003 ("White must play last and may need to make a further
    pass")."""
    plain = Rules("000")
    last = Rules("002")
    b, _ = board_for(WALLS, "000")
    assert not score.game_over(b, plain)
    b.pass_move(B)
    assert not score.game_over(b, plain)
    b.pass_move(W)
    assert score.game_over(b, plain) and score.game_over(b, last)
    w, _ = board_for(WALLS, "002")
    play_all(w, "B E5 W pass B pass")
    assert score.game_over(w, plain) and not score.game_over(w, last)
    w.pass_move(W)
    assert score.game_over(w, last)
    play_all(w, "B pass W pass B C3")
    assert not score.game_over(w, plain)
    assert not score.game_over(w, Rules("003"))
    return "ok"


def checks():
    """Every check_* function of this module, in name order."""
    return checkrun.checks(globals())


def run_all(names=None):
    """Run the checks; print "name: result" per check (or FAIL)."""
    return checkrun.run_checks(globals(), names)
