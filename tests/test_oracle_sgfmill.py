"""Our Board and sgf.py against sgfmill (an independent implementation).

sgfmill.boards.Board.play allows every suicide (it removes the player's own
surrounded chain, like SUICIDE_ALLOWED) and enforces no ko; it returns the
simple-ko point.  So on the same random games the stones and captures must
agree move by move, and under KO_SIMPLE our refused-for-ko point must be
sgfmill's ko point whenever the recapture would take just that one stone
(000 Rule 8 allows a recapture that takes more).
"""
import pytest
from sgfmill import boards, sgf as msgf

from gogadget import sgf
from gogadget.board import OK, KO
from gogadget.points import BLACK, WHITE, PASS, row_col, point
from oracle_games import new_board, outcomes, random_game, stones

COLOURS = {BLACK: "b", WHITE: "w"}
GAMES = [(5, 31, 300, "allowed"), (5, 32, 300, "forbidden"), (9, 33, 200, "allowed"),
         (9, 34, 200, "multi"), (19, 35, 300, "allowed")]


def their_stones(theirs, colour):
    c = COLOURS[colour]
    return sorted(point(theirs.side, r, col) for r, col in
                  ((r, col) for r in range(theirs.side) for col in range(theirs.side))
                  if theirs.get(r, col) == c)


def recapture_size(theirs, colour, r, c):
    trial = theirs.copy()
    before = len(trial.list_occupied_points())
    trial.play(r, c, COLOURS[colour])
    return before + 1 - len(trial.list_occupied_points())


@pytest.mark.parametrize("size,seed,length,suicide", GAMES)
def test_random_games_agree(size, seed, length, suicide):
    moves = random_game(size, seed, length, "simple", suicide, twice_rate=0.03)
    ours = new_board(size, "simple", suicide)
    theirs = boards.Board(size)
    kos = captures = 0
    for n, (colour, p) in enumerate(moves):
        if p == PASS:
            ours.pass_move(colour)
            ko_point = None
        else:
            before = len(theirs.list_occupied_points())
            assert ours.play(colour, p) == OK
            ko_point = theirs.play(*row_col(size, p), COLOURS[colour])
            taken = before + 1 - len(theirs.list_occupied_points())
            assert taken == ours.last_captures, "move %d" % n
            captures += taken
        for c in (BLACK, WHITE):
            assert their_stones(theirs, c) == stones(ours, c), "move %d" % n
        # Simple ko for the opponent of the mover.
        other = 3 - colour
        reasons, _ = outcomes(ours, other)
        refused = [q for q, r in reasons.items() if r == KO]
        if ko_point is None:
            assert refused == [], "move %d" % n
        else:
            kp = point(size, *ko_point)
            one = recapture_size(theirs, other, *ko_point) == 1
            assert refused == ([kp] if one else []), "move %d" % n
            kos += bool(refused)
    assert ours.prisoners[BLACK] + ours.prisoners[WHITE] == captures
    assert captures > (20 if size < 19 else 5) and (kos > 0 or size == 19)


def test_our_sgf_read_by_sgfmill():
    size = 9
    moves = random_game(size, 36, 120)
    hc = [point(9, 2, 2), point(9, 6, 6), point(9, 2, 6)]
    text = sgf.write(size, moves, komi=5.5, handicap=hc, rules="Japanese", result="W+12.5",
                     black="B ] \\ name", comment="tricky ] text \\ here")
    game = msgf.Sgf_game.from_bytes(text.encode("utf-8"))
    assert game.get_size() == 9 and game.get_komi() == 5.5 and game.get_handicap() == 3
    root = game.get_root()
    assert root.get("RE") == "W+12.5" and root.get("RU") == "Japanese"
    assert root.get("PB") == "B ] \\ name" and root.get("C") == "tricky ] text \\ here"
    ab, aw, ae = root.get_setup_stones()
    assert ab == {row_col(9, p) for p in hc} and not aw and not ae
    theirs = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert theirs == [(COLOURS[c], None if p == PASS else row_col(9, p)) for c, p in moves]


def test_sgfmill_sgf_read_by_us():
    for size, seed in ((9, 37), (19, 38), (5, 39)):
        moves = random_game(size, seed, 100)
        game = msgf.Sgf_game(size)
        root = game.get_root()
        root.set("KM", 7.5)
        root.set("HA", 2)
        root.set("RE", "B+R")
        root.set("C", "with ] and \\ and\nnewline")
        root.set_setup_stones([(size - 1, 0), (0, size - 1)], [(1, 1)])
        for c, p in moves:
            game.extend_main_sequence().set_move(COLOURS[c], None if p == PASS else row_col(size, p))
        # A variation that must be skipped.
        game.get_main_sequence()[3].new_child().set_move("b", (0, 0))
        ours = sgf.parse(game.serialise())
        assert (ours.size, ours.komi, ours.handicap, ours.result) == (size, 7.5, 2, "B+R")
        assert ours.props["C"] == ["with ] and \\ and\nnewline"]
        assert sorted(ours.setup) == sorted([(BLACK, point(size, size - 1, 0)),
                                             (BLACK, point(size, 0, size - 1)),
                                             (WHITE, point(size, 1, 1))])
        assert ours.moves == moves
