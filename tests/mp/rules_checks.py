"""Rule checks shared by CPython (pytest) and MicroPython.

Plain functions with plain asserts, no pytest: tests/test_rules_texts.py runs
each under CPython, tests/test_micropython_rules.py runs them all under the
real `micropython` and compares what they return.  Each name cites the rule
text it checks: document number (../shared/rules/NNN_*.txt) and rule.
Diagrams are drawn top row first, 'X' black, 'O' white (diagram.load_diagram);
vertices are GTP ("A1" bottom left, no I).

Every check returns a short text (final diagram, hash, prisoners) so both
interpreters can be compared move for move.
"""
import checkrun
from gogadget.board import Board, OK, OCCUPIED, SUICIDE, KO, SUPERKO, OFF_BOARD, REASONS, key
from gogadget.diagram import diagram, load_diagram
from gogadget.points import BLACK, WHITE, EMPTY, PASS, parse_vertex
from gogadget.rules import (KO_NONE, KO_SIMPLE, KO_PREVIOUS, KO_POSITIONAL,
                            KO_SITUATIONAL, SUICIDE_FORBIDDEN, SUICIDE_MULTI,
                            SUICIDE_ALLOWED)

B = BLACK
W = WHITE
ALL_KO = (KO_NONE, KO_SIMPLE, KO_PREVIOUS, KO_POSITIONAL, KO_SITUATIONAL)


def make(text, ko=KO_SIMPLE, suicide=SUICIDE_FORBIDDEN):
    rows = text.strip().split("\n")
    b = Board(len(rows), ko, suicide)
    load_diagram(b, text)
    return b


def v(b, text):
    return parse_vertex(b.size, text)


def play(b, colour, text, want=OK):
    if text == "pass":
        b.pass_move(colour)
        return
    got = b.play(colour, v(b, text))
    assert got == want, "%s %s: got %s, want %s" % (
        "BW"[colour - 1], text, REASONS[got], REASONS[want])


def play_all(b, moves):
    """moves: "B C3 W D4 ..." all expected legal."""
    words = moves.split()
    for k in range(0, len(words), 2):
        play(b, B if words[k] == "B" else W, words[k + 1])


def refused_unchanged(b, colour, text, want):
    """004: "If the player makes a move prohibited by the rules, his opponent
    should return the stone to the player": a refused play changes nothing."""
    before = diagram(b)
    h = b.hash
    moves = b.moves
    turn = b.to_move()
    pris = b.prisoners[:]
    play(b, colour, text, want)
    assert diagram(b) == before and b.hash == h and b.moves == moves
    assert b.to_move() == turn and b.prisoners == pris


def summary(b):
    return "%s|h=%d|p=%d,%d|m=%d" % (diagram(b).replace("\n", "/"), b.hash,
                                     b.prisoners[B], b.prisoners[W], b.moves)


# -- players, board, positions ----------------------------------------------

def check_000_rule2_rule5_001_board_sizes_start_empty():
    """000 Rule 2 (19x19 board), 001 "13x13 and 9x9 may be used", 000 Rule 5
    (the board is empty at the start), 000 Rule 4 (each intersection empty,
    black or white)."""
    out = []
    for size in (9, 13, 19):
        b = Board(size)
        pts = b.points()
        assert len(pts) == size * size
        assert all(b.cells[p] == EMPTY for p in pts)
        assert b.hash == 0 and b.moves == 0
        play(b, B, "A1")
        play(b, W, parse_vertex_text(size))
        assert all(b.cells[p] in (EMPTY, B, W) for p in pts)
        out.append(summary(b).split("|")[1])
    return " ".join(out)


def parse_vertex_text(size):
    # The far corner, named the GTP way (no I).
    return "ABCDEFGHJKLMNOPQRST"[size - 1] + str(size)


def check_000_rule6_turns_001_handicap_white_first():
    """000 Rule 6 (Black moves first, then alternate); 001/004 "first move is
    made by the Black (except for a game with a handicap)"."""
    b = Board(9)
    assert b.to_move() == B
    play(b, B, "E5")
    assert b.to_move() == W
    b.pass_move(W)
    assert b.to_move() == B
    h = Board(9)
    h.setup(B, v(h, "C3"))
    h.setup(B, v(h, "G7"))
    h.handicap = 2
    h.first = W
    assert h.to_move() == W
    play(h, W, "E5")
    assert h.to_move() == B
    return summary(h)


def check_000_definition_connected_003_diagram5_diagonals():
    """000 Definition "Connected" (adjacent by lines), 001 "Only stones
    connected to one another by the lines on the board create a chain",
    003 Diagram 5 (diagonal stones are two separate strings)."""
    b = make("""
        .....
        .X...
        ..X..
        ..XX.
        .....""")
    assert b.chain(v(b, "B4")) == [v(b, "B4")]
    chain = sorted(b.chain(v(b, "C3")))
    assert chain == sorted([v(b, "C3"), v(b, "C2"), v(b, "D2")])
    assert b.chain(v(b, "A1")) == []
    return str(chain)


def check_000_definition_liberty_003_diagram2_and_6():
    """000 Definition "Liberty"; 003 Diagram 2 (a stone in the centre has 4
    liberties, on the side 3, in the corner 2); 001 "a chain shares its
    liberties"; 003 Diagram 6 (an internal liberty keeps a string alive)."""
    b = make("""
        O...O
        .....
        ..O..
        .....
        XXX..""")
    assert b.chain_liberties(v(b, "C3")) == 4
    assert b.chain_liberties(v(b, "A5")) == 2
    assert b.chain_liberties(v(b, "E5")) == 2
    assert b.chain_liberties(v(b, "A1")) == 4  # A2 B2 C2 D1: shared by three stones
    assert b.chain_liberties(v(b, "B3")) == 0  # empty point
    s = make("""
        .....
        .....
        .....
        ..O..
        .O.O.""")
    assert s.chain_liberties(v(s, "B1")) == 3  # side stone: A1 C1 B2
    # 003 Diagram 6: a ring with one inside point is not captured by outside play.
    r = make("""
        .OOO.
        OXXXO
        OX.XO
        OXXXO
        .OOO.""")
    assert r.chain_liberties(v(r, "B2")) == 1
    play(r, W, "A5")
    assert r.cells[v(r, "B2")] == B
    return summary(r)


def check_001_amalgamation_mutual_liberty():
    """001 "Chains may be ... amalgamated by playing a stone on a mutual
    liberty of two or more chains of the same color"."""
    b = make("""
        .....
        .....
        .X.X.
        .....
        .....""")
    play(b, B, "C3")
    assert sorted(b.chain(v(b, "B3"))) == sorted([v(b, "B3"), v(b, "C3"), v(b, "D3")])
    assert b.chain_liberties(v(b, "D3")) == 8
    return summary(b)


# -- play: step 1, capture, self-capture ----------------------------------

def check_000_step1_empty_intersection_004_illegal_stone_returned():
    """000 Step 1 (a stone goes on an *empty* intersection), 001 "on a vacant
    point"; 004 "his opponent should return the stone to the player, and
    suggest him to make another move": refused, nothing changes, same turn."""
    b = Board(5)
    play(b, B, "C3")
    refused_unchanged(b, W, "C3", OCCUPIED)
    assert b.play(W, 0) == OFF_BOARD
    assert b.play(W, len(b.cells)) == OFF_BOARD
    assert b.play(W, v(b, "E1") + 1) == OFF_BOARD  # the border column
    assert b.to_move() == W
    play(b, W, "D3")
    return summary(b)


def check_003_diagrams3_4_capture_centre_side_corner():
    """003 Diagrams 3-4: three white stones in atari (centre, side, corner)
    are captured by Black's plays at b, c, d; 000 Step 2; each is a prisoner
    (003 "kept by the capturing player as prisoners")."""
    b = make("""
        O....
        X..X.
        ..XOX
        .....
        .XOX.""")
    play(b, B, "B5")  # corner stone A5
    assert b.cells[v(b, "A5")] == EMPTY and b.prisoners[B] == 1
    play(b, W, "E5")
    play(b, B, "D2")  # centre stone D3
    assert b.cells[v(b, "D3")] == EMPTY and b.prisoners[B] == 2
    play(b, W, "E4")
    play(b, B, "C2")  # side stone C1
    assert b.cells[v(b, "C1")] == EMPTY and b.prisoners[B] == 3
    assert b.last_captures == 1 and b.captured_stones() == [v(b, "C1")]
    return summary(b)


def check_000_step2_multi_chain_capture_003_diagram7():
    """000 Step 2 removes *any* opponent stones without liberties: one play
    captures two chains at once (003 Diagram 7: strings are captured as a
    unit)."""
    b = make("""
        .....
        X....
        OX...
        .OX..
        OX...""")
    # White A3 (liberty A2) and White B2 (liberty A2) are two chains sharing
    # the last liberty A2; White A1 has liberty A2 too.
    play(b, B, "A2")
    assert b.last_captures == 3 and b.prisoners[B] == 3
    assert sorted(b.captured_stones()) == sorted([v(b, "A3"), v(b, "B2"), v(b, "A1")])
    return summary(b)


def check_000_step2_before_step3_capture_precedence():
    """000 Steps 2 then 3, 001 "such chains are captured first, leaving the
    newly played stone at least one liberty", 002 concise 5 ("Capture of the
    enemy takes precedence over self-capture"), 003 Diagram 9: a play with
    no liberties that captures is legal even where suicide is forbidden."""
    for suicide in (SUICIDE_FORBIDDEN, SUICIDE_MULTI, SUICIDE_ALLOWED):
        b = make("""
            .....
            .....
            X....
            OX...
            .OX..""", suicide=suicide)
        play(b, B, "A1")
        assert b.cells[v(b, "A1")] == B
        assert b.cells[v(b, "A2")] == EMPTY and b.cells[v(b, "B1")] == EMPTY
        assert b.prisoners[B] == 2 and b.prisoners[W] == 0
    return summary(b)


def _suicide_board(suicide, ko=KO_SIMPLE):
    return make("""
        .....
        .....
        O....
        XO...
        .O..O""", ko=ko, suicide=suicide)


def check_000_rule7a_004_suicide_forbidden():
    """000 Rule 7A / 002 Optional Rule 7A ("illegal if one or more stones
    would be removed in Step 3"); 004 "prohibited to make a move ... where
    the newly placed stone won't have any liberties" and "that deprives
    player's own group of the last point of liberty"; 003 Diagram 8."""
    b = _suicide_board(SUICIDE_FORBIDDEN)
    refused_unchanged(b, B, "A1", SUICIDE)  # two-stone self-capture
    b2 = make("""
        .....
        .....
        .....
        O....
        .O...""")
    refused_unchanged(b2, B, "A1", SUICIDE)  # lone stone
    return summary(b) + summary(b2)


def check_suicide_multi_refuses_single_stone():
    """Option suicide=multi: several stones may self-capture (000 Step 3),
    a single stone may not."""
    b = make("""
        .....
        .....
        .....
        O....
        .O...""", suicide=SUICIDE_MULTI)
    refused_unchanged(b, B, "A1", SUICIDE)
    m = _suicide_board(SUICIDE_MULTI)
    play(m, B, "A1")
    assert m.cells[v(m, "A1")] == EMPTY and m.cells[v(m, "A2")] == EMPTY
    assert m.prisoners[W] == 2 and m.prisoners[B] == 0
    return summary(m)


def check_000_step3_self_capture_allowed_002():
    """000 without 7A / 002 Rule 7 Step 3: self-capture removes the player's
    own chain, which becomes the opponent's prisoners; a lone stone's
    self-capture leaves the position as it was, which 002 Rule 8
    (positional superko) then forbids as a repetition."""
    b = _suicide_board(SUICIDE_ALLOWED)
    play(b, B, "A1")
    assert b.cells[v(b, "A2")] == EMPTY and b.prisoners[W] == 2
    assert sorted(b.captured_stones()) == sorted([v(b, "A1"), v(b, "A2")])
    assert b.undo() and b.cells[v(b, "A2")] == B and b.prisoners[W] == 0
    lone = make("""
        .....
        .....
        .....
        O....
        .O...""", suicide=SUICIDE_ALLOWED)
    h = lone.hash
    play(lone, B, "A1")
    assert lone.cells[v(lone, "A1")] == EMPTY and lone.hash == h and lone.moves == 1
    assert lone.prisoners[W] == 1
    sk = make("""
        .....
        .....
        .....
        O....
        .O...""", ko=KO_POSITIONAL, suicide=SUICIDE_ALLOWED)
    refused_unchanged(sk, B, "A1", SUPERKO)
    return summary(b) + summary(lone)


def check_003_diagrams8_9_self_capture_unless_it_captures():
    """003 Diagram 8: White may not play at i (self-capture while Black has
    outside liberties); Diagram 9: once the outside liberties are filled the
    same play captures the black stones as White's prisoners."""
    b = make("""
        .....
        .....
        .....
        XX...
        .X...""")
    refused_unchanged(b, W, "A1", SUICIDE)
    play_all(b, "W A3 B pass W B3 B pass W C2 B pass W C1")
    assert b.cells[v(b, "B1")] == B
    play(b, W, "A1")
    assert b.last_captures == 3 and b.prisoners[W] == 3
    return summary(b)


def check_003_diagram10_two_eyes_cannot_be_captured():
    """003 Diagram 10: a string with two separate eyes can only be captured
    by playing in both, and the first would be self-capture: it lives."""
    b = make("""
        .....
        OOOOO
        XXXXX
        XXXXX
        X.X.X""")
    refused_unchanged(b, W, "B1", SUICIDE)
    refused_unchanged(b, W, "D1", SUICIDE)
    assert b.chain_liberties(v(b, "A1")) == 2
    return summary(b)


# -- ko and repetition -------------------------------------------------------

KO_SHAPE = """
    .XO..
    XO.O.
    .XO..
    .....
    ....."""


def check_000_rule8_simple_ko_003_diagrams12_13():
    """000 Rule 8 ("One may not capture just one stone, if that stone was
    played on the previous move, and that move also captured just one
    stone"); 003 Diagrams 12-13 ("forbidding the recapture of the ko ...
    until White has made at least one play elsewhere")."""
    b = make(KO_SHAPE, ko=KO_SIMPLE)
    play(b, B, "C4")
    assert b.last_captures == 1
    refused_unchanged(b, W, "B4", KO)
    play_all(b, "W E1 B E2")
    play(b, W, "B4")  # the retake after an exchange elsewhere
    refused_unchanged(b, B, "C4", KO)
    return summary(b)


def check_000_rule8_literal_after_pass():
    """000 Rule 8 as written looks only at the previous *move*: after the
    capturer passes... the opponent's pass is a move, so the ko may be
    retaken (one play/pass in between lifts the ban)."""
    b = make(KO_SHAPE, ko=KO_SIMPLE)
    play(b, B, "C4")
    b.pass_move(W)
    b.pass_move(B)
    play(b, W, "B4")
    return summary(b)


def check_001_ko_previous_turn():
    """001 "Ko rule": a stone cannot be played if it would recreate the board
    position that existed after the same player's previous turn; after an
    exchange elsewhere the retake is allowed."""
    b = make(KO_SHAPE, ko=KO_PREVIOUS)
    play(b, W, "E1")  # White's previous turn: this position
    play(b, B, "C4")
    refused_unchanged(b, W, "B4", KO)
    play_all(b, "W E2 B E3")
    play(b, W, "B4")
    return summary(b)


def check_002_rule8_004_ko_is_a_repetition():
    """002 Rule 8 / 004 "prohibited to make a move that results in a
    repetition of position": the immediate ko retake repeats the position
    (reported as "ko", the common name of that repetition)."""
    out = ""
    for ko in (KO_POSITIONAL, KO_SITUATIONAL):
        b = make(KO_SHAPE, ko=ko)
        play(b, B, "C4")
        refused_unchanged(b, W, "B4", KO)
        play_all(b, "W E1 B E2 W B4")
        out += summary(b)
    return out


def check_snapback_is_not_ko():
    """Snapback: White throws in a stone, Black captures it (one stone),
    White plays back on the same point capturing five: not a ko under any
    rule (000 Rule 8 is about capturing *just one* stone)."""
    out = ""
    for ko in ALL_KO:
        b = make("""
            .....
            .....
            OOOO.
            XXXO.
            X..O.""", ko=ko)
        play_all(b, "W B1 B C1 W B1")
        assert b.prisoners[B] == 1 and b.prisoners[W] == 5
        assert b.last_captures == 5
        out = summary(b)
    return out


TRIPLE_KO = """
    .XO...XO.
    XO.O.X.XO
    .XO...XO.
    .........
    .XO......
    XO.O.....
    .XO......
    .........
    ........."""
TRIPLE_CYCLE = "B C8 W G8 B C4 W B8 B H8".split()


def check_triple_ko_cycle():
    """Triple ko: three kos, each capture elsewhere than the last one, so
    000 Rule 8 and 001's previous-turn rule allow all six captures and the
    position returns (a real cycle); 001 optional superko, 002 Rule 8 and
    004 forbid the move that recreates the earlier position."""
    out = []
    for ko in ALL_KO:
        b = make(TRIPLE_KO, ko=ko)
        start = diagram(b)
        h0 = b.hash
        play_all(b, " ".join(TRIPLE_CYCLE))
        last = b.play(W, v(b, "B4"))
        if ko in (KO_POSITIONAL, KO_SITUATIONAL):
            assert last == SUPERKO, REASONS[last]
            assert b.moves == 5
        else:
            assert last == OK, REASONS[last]
            assert diagram(b) == start and b.hash == h0
            assert b.prisoners[B] == 3 and b.prisoners[W] == 3
        out.append(REASONS[last])
    return " ".join(out)


SEND_TWO = """
    .....
    .....
    .....
    OOX..
    .X.X."""


def check_sending_two_returning_one():
    """Sending two, returning one: Black sends two stones, White captures
    them, Black captures the capturing stone (one stone, but the previous
    move captured two, so 000 Rule 8 allows it) and the starting position is
    back with White to move: 002 Rule 8 (positional superko) forbids it,
    situational superko does not (the player to move differs), nor 001."""
    out = []
    for ko in ALL_KO:
        b = make(SEND_TWO, ko=ko)
        start = diagram(b)
        play_all(b, "B A1 W C1")
        assert b.last_captures == 2
        got = b.play(B, v(b, "B1"))
        if ko == KO_POSITIONAL:
            assert got == SUPERKO, REASONS[got]
        else:
            assert got == OK, REASONS[got]
            assert diagram(b) == start and b.last_captures == 1
        out.append(REASONS[got])
    return " ".join(out)


def check_superko_is_exact_not_hash():
    """002 Rule 8 compares whole positions: a superko refusal is confirmed
    point by point, so unrelated positions with the same key are allowed."""
    b = make(SEND_TWO, ko=KO_POSITIONAL)
    play_all(b, "B A1 W C1")
    i = b.moves
    saved = b._history[0]
    # Forge a key collision with the start: the exact comparison must win.
    forged = b._history[i] ^ key(v(b, "E5"), W)
    b._history[0] = forged
    got = b.play(W, v(b, "E5"))
    b._history[0] = saved
    assert got == OK, REASONS[got]
    return summary(b)


# -- passes, end, undo -------------------------------------------------------

def check_000_rule7_pass_counts():
    """000 Rule 7 (a player may pass: "performing no action"); passes are
    counted per colour for 002 concise 4 / 003 pass stones."""
    b = make(KO_SHAPE)
    h = b.hash
    b.pass_move(B)
    b.pass_move(W)
    b.pass_move(B)
    assert b.hash == h and diagram(b) == diagram(make(KO_SHAPE))
    assert b.passes[B] == 2 and b.passes[W] == 1 and b.consecutive_passes() == 3
    assert b.last_move() == (B, PASS)
    b.undo()
    assert b.passes[B] == 1 and b.consecutive_passes() == 2
    return summary(b)


def check_undo_restores_every_position():
    """Undo of any number of moves restores position, prisoners, passes, hash
    and turn (the referee's and GTP's take-back)."""
    b = make("""
        .....
        .....
        OOOO.
        XXXO.
        X..O.""", ko=KO_POSITIONAL)
    seen = [(diagram(b), b.hash, b.prisoners[:], b.passes[:], b.to_move())]
    seq = ((W, "B1"), (B, "C1"), (W, "B1"), (B, "pass"), (W, "E5"), (B, "C1"),
           (W, "E1"), (B, "A1"), (W, "pass"))
    for colour, text in seq:
        play(b, colour, text)
        seen.append((diagram(b), b.hash, b.prisoners[:], b.passes[:], b.to_move()))
    final = summary(b)
    while b.moves:
        assert b.undo()
        assert (diagram(b), b.hash, b.prisoners[:], b.passes[:], b.to_move()) == seen[b.moves]
    assert not b.undo()
    return final


def check_hash_is_the_position():
    """The key describes the position only (000 Rule 4: a position is the
    state of each intersection): two move orders reaching the same position
    have the same key; an empty board has key 0."""
    a = Board(9)
    play_all(a, "B C3 W D4 B E5 W F6")
    c = Board(9)
    play_all(c, "B E5 W F6 B C3 W D4")
    assert a.hash == c.hash and a.hash != 0
    while a.moves:
        a.undo()
    assert a.hash == 0
    return str(c.hash)


def check_capacity_grows_past_preallocation():
    """A long game (more moves than the preallocated log) keeps working."""
    b = Board(9, ko=KO_POSITIONAL, capacity=4)
    for k in range(40):
        b.pass_move(B if k % 2 == 0 else W)
    play(b, B, "E5")
    assert b.moves == 41
    while b.moves:
        b.undo()
    return summary(b)


def checks():
    """Every check_* function of this module, in name order."""
    return checkrun.checks(globals())


def run_all(names=None):
    """Run the checks; print "name: result" per check (or FAIL)."""
    return checkrun.run_checks(globals(), names)
