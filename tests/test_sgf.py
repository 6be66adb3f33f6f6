"""sgf.py: the writer, the tolerant reader and record() for a Board."""
import pytest

from gogadget import sgf, sgfread, VERSION
from gogadget.board import Board, OK
from gogadget.points import BLACK, WHITE, PASS, point, handicap_points
from gogadget.rules import Rules

P9 = lambda r, c: point(9, r, c)  # noqa: E731


def test_write_root_and_moves():
    text = sgf.write(9, [(BLACK, P9(2, 2)), (WHITE, PASS)], komi=6.5, rules="Japanese",
                     result="W+0.5", date="2024-05-01", black="Ann", white="Bob")
    assert text.startswith("(;GM[1]FF[4]CA[UTF-8]AP[GoGadget:" + VERSION + "]SZ[9]KM[6.5]")
    for prop in ("RU[Japanese]", "RE[W+0.5]", "DT[2024-05-01]", "PB[Ann]", "PW[Bob]"):
        assert prop in text
    # Row 2 from the bottom is SGF row g on 9x9; a pass is an empty value.
    assert text.rstrip().endswith(";B[cg];W[])")
    assert "HA[" not in text and "AB[" not in text


def test_write_escapes_and_handicap():
    hc = [P9(r, c) for r, c in handicap_points(9, 3)]
    text = sgf.write(9, [], komi=0, handicap=hc, comment="a]b\\c", white="x]")
    assert "C[a\\]b\\\\c]" in text and "PW[x\\]]" in text
    assert "HA[3]" in text and "AB[cg][gc][cc]" in text
    game = sgf.parse(text)
    assert game.props["C"] == ["a]b\\c"] and game.props["PW"] == ["x]"]
    assert game.handicap == 3 and game.setup == [(BLACK, p) for p in hc]


def test_round_trip_fields():
    moves = [(BLACK, P9(4, 4)), (WHITE, P9(0, 0)), (BLACK, PASS), (WHITE, P9(8, 8))] * 6
    text = sgf.write(9, moves, komi=-3, result="0", rules="NZ",
                     setup=[(WHITE, P9(1, 1)), (BLACK, P9(7, 1))])
    game = sgf.parse(text)
    assert (game.size, game.komi, game.handicap, game.result, game.rules) == (9, -3.0, 0, "0", "NZ")
    assert game.moves == moves
    assert sorted(game.setup) == sorted([(WHITE, P9(1, 1)), (BLACK, P9(7, 1))])
    assert sgfread.ru_to_rules(game.rules) == "new-zealand"
    assert "\n;" in text  # long games are wrapped


def test_reader_tolerance():
    text = ("junk before (;FF[3]GaMe[1]SZ [5] KM[0.5]\nAddBlack[aa:bb]AE[ab]C[soft\\\nbreak]"
            ";B[tt];W[cc](;B[dd];W[ee])(;B[ae]))(;B[aa])")
    game = sgf.parse(text)
    assert game.size == 5
    # aa:bb is a1-b2 in SGF: top-left 2x2 (rows 4 and 3); ab removed again.
    assert sorted(game.setup) == sorted([(BLACK, point(5, 4, 0)), (BLACK, point(5, 4, 1)),
                                         (BLACK, point(5, 3, 1))])
    assert game.props["C"] == ["softbreak"]
    assert game.moves == [(BLACK, PASS), (WHITE, point(5, 2, 2)), (BLACK, point(5, 1, 3)),
                          (WHITE, point(5, 0, 4))]
    assert sgf.parse(text.encode("utf-8")).moves == game.moves


@pytest.mark.parametrize("text,words", [
    ("", "no game tree"),
    ("(;SZ[9]", "end of file"),
    ("(;SZ[9]C[open", "unterminated"),
    ("(;SZ[9];B[zz])", "bad move"),
    ("(;SZ[25])", "size"),
    ("(;SZ[9:13])", "rectangular"),
    ("(;GM[2])", "not a Go record"),
    ("(;KM[abc])", "komi"),
    ("(;HA[x])", "handicap"),
    ("(;B[aa]W;)", "no value"),
    ("(;B[aa]W[bb])", "more than one move"),
    ("(;AB[])", "not a pass"),
    ("(;B[aa];AB[bb])", "after moves"),
    ("(;B[aa](;W[bb])(;W[cc]", "end of file"),
    ("(;SZ[9]%)", "unexpected"),
    (b"(;C[\xff])", "UTF-8"),
])
def test_reader_errors(text, words):
    with pytest.raises(ValueError) as info:
        sgf.parse(text)
    assert words in str(info.value) and str(info.value).startswith("SGF: ")


def _game(board, moves):
    for colour, pt in moves:
        assert (board.play(colour, pt) if pt else board.pass_move(colour) or OK) == OK


def test_record_board_with_handicap_and_captures():
    board = Board(9)
    hc = [P9(r, c) for r, c in handicap_points(9, 2)]
    for p in hc:
        board.setup(BLACK, p)
    board.handicap = 2
    board.first = WHITE
    # White is captured in the corner: the record must keep the move list.
    moves = [(WHITE, P9(0, 0)), (BLACK, P9(0, 1)), (WHITE, PASS), (BLACK, P9(1, 0))]
    _game(board, moves)
    before = bytes(board.cells), board.moves, list(board.prisoners)
    text = sgf.record(board, Rules("japanese"), 6.5, result="B+R", date="2024-01-02")
    assert (bytes(board.cells), board.moves, list(board.prisoners)) == before
    game = sgf.parse(text)
    assert game.handicap == 2 and sorted(p for _, p in game.setup) == sorted(hc)
    assert game.moves == moves and game.komi == 6.5 and game.rules == "Japanese"
    assert game.result == "B+R" and game.props["DT"] == ["2024-01-02"]
    assert sgf.record(board, "000", None).count("RU[000]") == 1


def test_same_text_on_micropython(micropython):
    code = ("from gogadget import sgf\nfrom gogadget.points import point\n"
            "t = sgf.write(9, [(1, point(9, 2, 2)), (2, 0)], komi=7, handicap=[point(9, 6, 6)],"
            " comment='x]\\\\y', result='B+R')\n"
            "g = sgf.parse(t)\nprint(t + repr((g.size, g.komi, g.handicap, g.setup, g.moves)))\n")
    out = micropython(code=code)
    assert out.returncode == 0, out.stderr
    t = sgf.write(9, [(1, point(9, 2, 2)), (2, 0)], komi=7, handicap=[point(9, 6, 6)],
                  comment="x]\\y", result="B+R")
    g = sgf.parse(t)
    assert out.stdout == t + repr((g.size, g.komi, g.handicap, g.setup, g.moves)) + "\n"
