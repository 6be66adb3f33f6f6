"""gogadget.pairing without a broker: the opponent's board is a SpecGame
(tests/room_boards.py, messages built by hand from docs/ROOM.md, not by the
firmware's Broadcaster), this board the firmware's Referee with a Follower.
Order and duplicates as the relay's rules; the pairing's agreement; every
disagreement stops with a note and lights nothing; their take-back waits
for Confirm; the end is taken only when this board agrees."""
import pytest

from gogadget import pairing
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM
from gogadget.pairing import Follower, pair_message
from gogadget.points import BLACK, WHITE, parse_sgf_coord
from gogadget.referee import Referee
from room_boards import SpecGame, encode

ME, THEM, GAME = "b1", "b2", "g1"


def setup(colour=BLACK, komi=6.5, rules="japanese"):
    """This board plays `colour`; returns (referee, follower, their SpecGame)."""
    ref = Referee(Config(size=9, preset="japanese", komi=6.5))
    ref.resume([], "", 0)
    f = Follower(ME, THEM, colour, GAME)
    f.attach(ref)
    g = SpecGame(THEM, game=4, size=9, komi=komi, rules=rules)
    them = BLACK + WHITE - colour
    f.message(b"gogadget/board/b2/pair", pair_message(GAME, them, ME))
    send(f, "game", g.snapshot())
    return ref, f, g


def send(f, leaf, msg):
    f.message(("gogadget/board/%s/%s" % (THEM, leaf)).encode(), encode(msg))
    f.poll()


def local(ref, p):
    """This board's person makes a move (as a remote player's, straight into the referee)."""
    assert ref.external_move(ref.to_move(), parse_sgf_coord(9, p)) == 0


def moves(ref):
    b = ref.board
    return [b.move(i) for i in range(b.moves)]


def test_their_moves_in_order_once_and_a_gap_waits_for_the_snapshot():
    ref, f, g = setup(colour=WHITE)
    e1 = g.play("cc")
    send(f, "move", e1)
    assert moves(ref) == [(BLACK, parse_sgf_coord(9, "cc"))] and f.outcome == pairing.LIT
    send(f, "move", e1)  # a duplicate (its PUBACK was lost)
    assert ref.board.moves == 1 and f.dropped == 1
    local(ref, "gg")
    e2 = g.play("gg")  # their record has our move
    e3 = g.play("dd")
    send(f, "move", e3)  # before e2: a gap, nothing lit
    assert ref.board.moves == 2 and f.dropped == 2
    send(f, "move", e2)
    send(f, "move", e3)
    assert ref.board.moves == 3 and ref.board.last_move() == (BLACK, parse_sgf_coord(9, "dd"))
    e4 = g.play("ee")
    send(f, "move", e4)
    # ...lost, but the snapshot after it tells; our move not yet seen there: waiting.
    f.message(b"gogadget/board/b2/move", b"not json")
    send(f, "game", g.snapshot())
    assert ref.board.moves == 3 and f.note  # ee was Black's... after Black's dd: stop
    assert "ours" in f.note or "differs" in f.note, f.note


def test_nothing_is_lit_before_the_pairing_agrees():
    ref = Referee(Config(size=9, preset="japanese", komi=6.5))
    ref.resume([], "", 0)
    f = Follower(ME, THEM, WHITE, GAME)
    f.attach(ref)
    g = SpecGame(THEM, size=9)
    for pair in (pair_message("other", BLACK, ME), pair_message(GAME, WHITE, ME),
                 pair_message(GAME, BLACK, "b3")):
        f.message(b"gogadget/board/b2/pair", pair)
        send(f, "game", g.snapshot())
        send(f, "move", g.play("cc") if not g.moves else g.snapshot())
        assert ref.board.moves == 0 and not f.agreed
    f.message(b"gogadget/board/b2/pair", pair_message(GAME, BLACK, ME))
    send(f, "game", g.snapshot())
    assert f.agreed and ref.board.moves == 1


@pytest.mark.parametrize("case", ["our-move-forged", "illegal", "differs", "komi", "resign-us"])
def test_any_disagreement_stops_with_a_note_and_lights_nothing(case):
    ref, f, g = setup(colour=WHITE, komi=7.5 if case == "komi" else 6.5)
    if case == "komi":
        assert "differ" in f.note and ref.board.moves == 0
        return
    send(f, "move", g.play("cc"))
    assert ref.board.moves == 1
    if case == "our-move-forged":
        send(f, "move", g.play("dd"))  # White's move, which White never made here
    elif case == "illegal":
        local(ref, "dd")
        g.play("dd")
        g.seq += 1  # a move onto an occupied point, as their record claims it
        g.moves.append(("B", "dd"))
        send(f, "game", g.snapshot())
    elif case == "differs":
        local(ref, "dd")
        send(f, "move", g.play("ee", "W"))
    else:
        send(f, "move", g.end("B+R"))  # "White resigned": not here
    assert f.note, case
    assert ref.result == ""
    assert ref.board.moves == (2 if case in ("illegal", "differs") else 1)
    n = ref.board.moves
    send(f, "move", g.play("ff") if case != "resign-us" else {"v": 1})
    assert ref.board.moves == n  # stopped: it stays so until a person starts over


def test_their_take_back_waits_for_confirm():
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    send(f, "move", g.play("gg"))
    send(f, "move", g.play("dd"))
    assert ref.board.moves == 3
    send(f, "move", g.undo())
    assert f.outcome == pairing.ASKED and ref.ask_undo == 3 and ref.board.moves == 3
    ref.press(BTN_CONFIRM, 1000)
    assert ref.board.moves == 2 and ref.ask_undo == 0
    f.poll()
    assert f.outcome == pairing.IN_STEP and not f.note


def test_our_take_back_before_they_had_our_move():
    """We move and take it back before their record shows the move: it
    comes there (lit), then goes (asked, confirmed): no disagreement."""
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    f.poll()
    assert ref.undo()
    f.poll()  # they are level with us: they never had gg
    assert f.outcome == pairing.IN_STEP and not f.note
    send(f, "move", g.play("gg"))  # now it reaches their record
    assert f.outcome == pairing.WAITING and not f.note
    send(f, "move", g.undo())  # confirmed there
    assert f.outcome == pairing.IN_STEP and not f.note
    local(ref, "ff")
    send(f, "move", g.play("ff"))
    assert f.outcome == pairing.IN_STEP and not f.note


def our_move_taken_back():
    """White here plays gg, their record shows it, and we take it back
    (not yet confirmed there)."""
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    f.poll()
    send(f, "move", g.play("gg"))
    assert ref.undo()
    f.poll()  # (the board polls every scan: a take-back and a new stone are many scans apart)
    return ref, f, g


def test_our_take_back_waits_for_theirs():
    ref, f, g = our_move_taken_back()
    assert f.outcome == pairing.WAITING and not f.note and ref.board.moves == 1
    send(f, "move", g.undo())  # Confirmed there
    assert f.outcome == pairing.IN_STEP
    local(ref, "ff")
    send(f, "move", g.play("ff"))
    assert f.outcome == pairing.IN_STEP and not f.note


def test_our_next_move_before_their_confirmation_arrives():
    """We take back a move they have, they confirm it, and we play again
    before their confirmation reaches us (CI under load, seed 18 of
    test_room_remote: "move 25 differs"): their record still shows the
    move taken back, so this board waits; it stops only if they play on
    past it without confirming."""
    ref, f, g = our_move_taken_back()
    local(ref, "ff")  # played again at once
    f.poll()
    assert f.outcome == pairing.WAITING and not f.note
    send(f, "move", g.undo())  # their confirmation, late
    assert f.outcome == pairing.WAITING and not f.note
    send(f, "move", g.play("ff"))
    assert f.outcome == pairing.IN_STEP and not f.note
    send(f, "move", g.play("dd"))
    assert ref.board.last_move() == (BLACK, parse_sgf_coord(9, "dd"))
    # They never confirm and play on instead: the records part, it stops.
    ref, f, g = our_move_taken_back()
    local(ref, "ff")
    f.poll()
    assert f.outcome == pairing.WAITING
    send(f, "move", g.play("dd"))
    assert "differs" in f.note and ref.board.moves == 2


def test_their_next_move_before_the_person_here_confirms():
    """They take back their move and play another before the person here
    confirmed the take-back: still asked; Confirm, and the new one is lit."""
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    send(f, "move", g.play("gg"))
    send(f, "move", g.play("dd"))
    send(f, "move", g.undo())
    assert f.outcome == pairing.ASKED and ref.ask_undo == 3
    send(f, "move", g.play("ee"))
    assert f.outcome == pairing.ASKED and ref.ask_undo == 3 and not f.note
    ref.press(BTN_CONFIRM, 1000)
    f.poll()
    assert f.outcome == pairing.LIT and not f.note
    assert ref.board.moves == 3 and ref.board.last_move() == (BLACK, parse_sgf_coord(9, "ee"))


def test_a_new_game_here_stops_the_pairing():
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    assert ref.board.moves == 1
    ref.new_game()
    send(f, "game", g.snapshot())
    assert ref.board.moves == 0 and "new game" in f.note


def test_their_resignation_and_the_agreed_count():
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    send(f, "move", g.end("W+R"))  # Black resigned there
    assert ref.result == "W+R" and ref.phase == "over" and f.outcome == pairing.ENDED
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    send(f, "move", g.play("gg"))
    send(f, "move", g.play(""))
    local(ref, "")
    assert ref.phase == "count"
    send(f, "move", g.play(""))
    send(f, "move", g.end(ref.count_result()))
    assert ref.result and ref.phase == "over" and f.outcome == pairing.ENDED


def test_their_count_waits_for_the_same_count_here():
    ref, f, g = setup(colour=WHITE)
    send(f, "move", g.play("cc"))
    local(ref, "gg")
    send(f, "move", g.play("gg"))
    send(f, "move", g.play(""))
    local(ref, "")
    send(f, "move", g.play(""))
    ours = ref.count_result()
    send(f, "move", g.end("B+99"))  # dead stones marked there, not (yet) here
    assert f.outcome == pairing.COUNTING and ref.phase == "count" and not f.note
    for _ in range(pairing.RECOUNT_POLLS + 1):
        f.poll()
    assert f.outcome == pairing.COUNTING and ref.result == ""
    ref.press(BTN_CONFIRM, 1000)  # the person here confirms another count
    f.poll()
    assert ref.result == ours and "results differ" in f.note


def test_the_relay_shows_an_agreed_pair_once_and_files_each_boards_record(tmp_path):
    import json
    from host_sim.room.games import Room
    room = Room(str(tmp_path))
    b1, b2 = SpecGame("b1", game=3, size=9), SpecGame("b2", game=8, size=9)
    pairs = {"b1": pair_message(GAME, BLACK, "b2"), "b2": pair_message(GAME, WHITE, "b1")}
    for p in ("cc", "gg", "", ""):
        for g in (b1, b2):
            g.play(p)
    for bid in ("b1", "b2"):
        assert room.handle("gogadget/board/%s/pair" % bid, pairs[bid]) == "applied"
    for g in (b2, b1):  # the game under way: one card, Black's
        assert room.handle("gogadget/board/%s/game" % g.id, encode(g.snapshot())) == "applied"
    cards = {c["id"]: c for c in map(json.loads, room.full_state())}
    assert cards["b1"]["opponent"] == "b2" and not cards["b1"]["mirror"]
    assert cards["b2"]["mirror"] and cards["b2"]["opponent"] == "b1"
    for g in (b1, b2):
        g.end("W+6.5")
    for g in (b2, b1):  # White's end first
        assert room.handle("gogadget/board/%s/game" % g.id, encode(g.snapshot())) == "applied"
    # Over: the pairing ended with its game, and each board's record is filed
    # under its own name (no board can hide another's archive).
    cards = {c["id"]: c for c in map(json.loads, room.full_state())}
    assert not cards["b2"].get("mirror") and not cards["b1"].get("pair")
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == ["b1-3.sgf", "b2-8.sgf"]
    # The relay restarted: the retained messages come again, White's game first.
    again = Room(str(tmp_path))
    for bid in ("b1", "b2"):
        again.handle("gogadget/board/%s/pair" % bid, pairs[bid])
    for g in (b2, b1):
        again.handle("gogadget/board/%s/game" % g.id, encode(g.snapshot()))
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == ["b1-3.sgf", "b2-8.sgf"]
    assert not any(json.loads(c).get("mirror") for c in again.full_state())
    # A pair message that does not agree (a third board claims b1): two games, two cards.
    room2 = Room(str(tmp_path / "other"))
    room2.handle("gogadget/board/b1/pair", pairs["b1"])
    room2.handle("gogadget/board/b2/pair", pair_message(GAME, WHITE, "b3"))
    for g in (b1, b2):
        room2.handle("gogadget/board/%s/game" % g.id, encode(g.snapshot()))
    cards = [json.loads(c) for c in room2.full_state()]
    assert not any(c.get("mirror") for c in cards) and len(list((tmp_path / "other").glob("*.sgf"))) == 2


def test_the_pairing_in_the_config():
    ok = dict(size=9, board_id="b1", broker="10.0.0.1", opponent="b2", pair="g1")
    assert Config(pair_colour="W", **ok).validate().pair_colour == "W"
    for bad, word in ((dict(ok, broker=""), "needs a broker"),
                      (dict(ok, opponent="b1"), "another board"),
                      (dict(ok, opponent="no way"), "another board"),
                      (dict(ok, pair=""), "pair must name"),
                      (dict(ok, pair_colour="black"), "B or W")):
        with pytest.raises(ValueError, match=word):
            Config(**bad).validate()


def test_pairops_copies_of_pairings_words_are_pairings():
    """pairops.py (the pairing's rare jobs, loaded for the job) cannot import
    pairing.py, which imports it: its copies of the outcomes, the colours'
    letters and the pair topic's leaf are held to pairing's own."""
    from gogadget import pairops
    assert (pairops._WAITING, pairops._ASKED, pairops._ENDED) == (
        pairing.WAITING, pairing.ASKED, pairing.ENDED)
    assert pairops._COLOURS == pairing.COLOURS and pairops._T_PAIR == pairing.T_PAIR
