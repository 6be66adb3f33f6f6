"""The relay against a board that lies (issue 28), without a broker: moves
checked with the game's own rules by the firmware's rules core, results
checked by the relay's own count or marked as the board's claim, bounded
game numbers, pair messages that cannot hide a board, and an archive that
says "archived" only once the file is there."""
import json
import logging
import os

from gogadget.roomnames import T_GAME, T_MOVE, topic
from gogadget.pairing import T_PAIR
from host_sim.room.games import MAX_GAME_JUMP, Room
from room_boards import SpecGame, encode


def feed(room, board, leaf, msg):
    return room.handle(topic(board, leaf), encode(msg) if isinstance(msg, dict) else msg)


def card(room, board):
    return json.loads(room.summary(room.boards[board]))


def raw_move(g, c, p):
    """A move event the board's own rules would refuse (SpecGame plays only legal ones)."""
    g.seq += 1
    g.moves.append((c, p))
    return {"v": 1, "game": g.game, "seq": g.seq, "t": "move", "n": len(g.moves), "c": c, "p": p}


def start(room, board="b1", **kw):
    g = SpecGame(board, **kw)
    assert feed(room, board, T_GAME, g.snapshot()) == "applied"
    return g


def play(room, g, *points):
    for p in points:
        assert feed(room, g.id, T_MOVE, g.play(p)) == "applied", p


# -- moves, by the game's own rules ---------------------------------------------


def ko_game():
    """B and W stones around a ko at c8/d8 (9x9): Black takes, White may not
    retake at once under simple ko."""
    # Black: b8 c9 c7 d8?  Built as SGF points: columns a.., rows a.. from the top.
    return [("B", "bb"), ("W", "eb"), ("B", "ca"), ("W", "da"), ("B", "cc"), ("W", "dc"),
            ("B", "ii"), ("W", "cb"), ("B", "db")]  # B db captures W cb: a ko


def test_moves_no_rule_set_allows_are_refused_and_the_game_waits():
    room = Room()
    g = start(room)
    for c, p in ko_game():
        assert feed(room, "b1", T_MOVE, g.play(p, c)) == "applied", (c, p)
    shown = room.boards["b1"].game
    assert shown.bd.prisoners[1] == 1  # Black took the white stone at cb
    lines = []
    room.on_log = lines.append
    # White retakes the ko at once: refused by Japanese (simple) ko.
    bad = raw_move(g, "W", "cb")
    assert feed(room, "b1", T_MOVE, bad) == "dropped"
    assert "ko" in lines[-1] and len(shown.moves) == 9 and shown.waiting
    # The snapshot that carries it is refused as a whole: the game stays as it was.
    assert feed(room, "b1", T_GAME, g.snapshot()) == "dropped" and len(room.boards["b1"].game.moves) == 9

    # Black playing twice, and a suicide.
    room = Room()
    g = start(room)
    play(room, g, "aa")
    lines = []
    room.on_log = lines.append
    assert feed(room, "b1", T_MOVE, raw_move(g, "B", "cc")) == "dropped"
    assert "out of turn" in lines[-1]
    room = Room()
    g = start(room)
    play(room, g, "ba", "ii", "ab")
    lines = []
    room.on_log = lines.append
    assert feed(room, "b1", T_MOVE, raw_move(g, "W", "aa")) == "dropped"  # W aa: suicide
    assert "suicide" in lines[-1] and len(room.boards["b1"].game.moves) == 3

    # Each game by its own rules: Tromp-Taylor allows suicide, but this one
    # repeats the position (positional superko); under rules the relay
    # cannot name ("custom") only turns and occupied points count.
    room = Room()
    g = start(room, rules="tromp-taylor")
    play(room, g, "ba", "ii", "ab")
    room.on_log = lines.append
    assert feed(room, "b1", T_MOVE, raw_move(g, "W", "aa")) == "dropped"
    assert "superko" in lines[-1]
    room = Room()
    g = start(room, rules="custom")
    play(room, g, "ba", "ii", "ab")
    assert feed(room, "b1", T_MOVE, raw_move(g, "W", "aa")) == "applied"


def test_handicap_games_begin_with_white_and_set_up_positions_with_either():
    room = Room()
    g = start(room, setup=[("B", "cc"), ("B", "gg")], handicap=2)
    assert feed(room, "b1", T_MOVE, raw_move(g, "B", "ee")) == "dropped"
    room = Room()
    g = start(room, setup=[("B", "cc"), ("B", "gg")], handicap=2)
    for c, p in (("W", "ee"), ("B", "ff")):
        assert feed(room, "b1", T_MOVE, g.play(p, c)) == "applied"
    room = Room()
    g = start(room, setup=[("B", "cc"), ("W", "gg")])
    assert feed(room, "b1", T_MOVE, raw_move(g, "W", "ee")) == "applied"
    assert feed(room, "b1", T_MOVE, raw_move(g, "W", "ef")) == "dropped"


# -- results ----------------------------------------------------------------------


def test_an_impossible_count_is_refused_and_never_archived(tmp_path):
    room = Room(archive=str(tmp_path))
    g = start(room, game=3)
    play(room, g, "cc", "gg", "cg", "gc", "ee", "ff", "dd", "", "")
    lines = []
    room.on_log = lines.append
    assert feed(room, "b1", T_MOVE, g.end("B+999.5")) == "dropped"
    assert "refused" in lines[-1] and "B+999.5" in lines[-1]
    assert os.listdir(tmp_path) == []
    c = card(room, "b1")
    assert c["result"] == "" and c["phase"] == "count"
    assert feed(room, "b1", T_GAME, g.snapshot()) == "dropped"  # the same claim again
    assert os.listdir(tmp_path) == []

    # A snapshot already over at move 0, komi -999: no count before two passes.
    room = Room(archive=str(tmp_path))
    g = SpecGame("b2", game=1, komi=-999)
    g.phase, g.result = "over", "B+999"
    assert feed(room, "b2", T_GAME, g.snapshot()) == "dropped"
    assert os.listdir(tmp_path) == [] and card(room, "b2")["result"] == ""


def test_a_count_the_relay_can_make_is_checked_and_others_are_the_boards_claim(tmp_path):
    room = Room(archive=str(tmp_path))
    g = start(room, game=5)
    play(room, g, "cc", "gg", "", "")
    # Japanese rules, komi 6.5, nothing dead: each side's 4-4 stone, no territory
    # by this count (the relay's own): W+6.5.
    own = room.boards["b1"].game
    from gogadget import score
    from gogadget.rules import Rules
    expected = score.count(own.bd, Rules("japanese"), None, 6.5).result
    assert feed(room, "b1", T_MOVE, g.end(expected)) == "applied"
    c = card(room, "b1")
    assert c["result"] == expected and c["claim"] is False
    text = (tmp_path / "b1-5.sgf").read_text()
    assert "RE[%s]" % expected in text and "checked by the room's relay" in text

    # A margin only dead stones could give: the board's claim, said so.
    room = Room(archive=str(tmp_path))
    g = start(room, game=6)
    play(room, g, "cc", "gg", "", "")
    assert feed(room, "b1", T_MOVE, g.end("B+20.5")) == "applied"
    c = card(room, "b1")
    assert c["result"] == "B+20.5" and c["claim"] is True
    assert "the board claimed" in (tmp_path / "b1-6.sgf").read_text()
    games = {x["id"]: x for x in room.games()}
    assert games["b1-6"]["claim"] is True and games["b1-6"]["archived"] is True

    # A game not started is never written, whatever it claims.
    room = Room(archive=str(tmp_path / "ahead"))
    g = SpecGame("b1", game=8)
    g.phase, g.result = "over", "W+R"
    assert feed(room, "b1", T_GAME, g.snapshot()) == "applied"
    assert os.listdir(tmp_path / "ahead") == [] and card(room, "b1")["result"] == "W+R"

    # A resignation: nothing on the board says; the board's claim.
    room = Room(archive=str(tmp_path))
    g = start(room, game=7)
    play(room, g, "cc")
    assert feed(room, "b1", T_MOVE, g.end("W+R")) == "applied"
    assert card(room, "b1")["claim"] is True


def test_a_file_written_ahead_for_a_game_number_does_not_take_the_real_games_place(tmp_path):
    fake = tmp_path / "b1-9.sgf"
    fake.write_text("(;GM[1]SZ[9]RE[B+R])\n")
    room = Room(archive=str(tmp_path))
    g = start(room, game=9)
    play(room, g, "cc")
    assert feed(room, "b1", T_MOVE, g.end("W+R")) == "applied"
    assert fake.read_text() == "(;GM[1]SZ[9]RE[B+R])\n"
    assert "RE[W+R]" in (tmp_path / "b1-9.2.sgf").read_text()
    assert {x["id"]: x for x in room.games()}["b1-9"]["file"] == "b1-9.2.sgf"
    # The relay restarted: the same record is found, not written again.
    room = Room(archive=str(tmp_path))
    g2 = SpecGame("b1", game=9)
    g2.moves, g2.seq, g2.phase, g2.result = list(g.moves), g.seq, "over", "W+R"
    g2.bd = g.bd
    assert feed(room, "b1", T_GAME, g2.snapshot()) == "applied"
    assert sorted(os.listdir(tmp_path)) == ["b1-9.2.sgf", "b1-9.sgf"]


# -- game numbers -------------------------------------------------------------------


def test_a_game_number_may_not_jump_past_the_bound(caplog):
    room = Room()
    start(room, game=4)
    lines = []
    room.on_log = lines.append
    assert feed(room, "b1", T_GAME, SpecGame("b1", game=2147483647).snapshot()) == "dropped"
    assert "jumps from 4 to 2147483647" in lines[-1]
    g = start(room, game=4 + MAX_GAME_JUMP)  # within the bound: a new game
    play(room, g, "ee")
    assert card(room, "b1")["game"] == 4 + MAX_GAME_JUMP


# -- pairs ----------------------------------------------------------------------------


def pair(room, board, pair_id, colour, opponent):
    return feed(room, board, T_PAIR, {"v": 1, "pair": pair_id, "colour": colour,
                                       "opponent": opponent})


def test_a_stale_pair_message_hides_no_board_and_archived_means_a_file(tmp_path):
    """The issue's reproduction: table-2's retained pair from round 1, then
    table-2 plays game 8 on its own; table-1 publishes the matching pair;
    table-2 ends.  table-2's card stays, and its game is archived, in
    either order of the messages."""
    for order in ("pair-first", "game-first"):
        archive = tmp_path / order
        room = Room(archive=str(archive))
        t1 = SpecGame("table-1", game=3)
        t2 = SpecGame("table-2", game=8)
        steps = [lambda: pair(room, "table-2", "round1", "W", "table-1"),
                 lambda: feed(room, "table-2", T_GAME, t2.snapshot()),
                 lambda: feed(room, "table-1", T_GAME, t1.snapshot())]
        if order == "game-first":
            steps.reverse()
        for step in steps:
            step()
        play(room, t2, "cc", "gg", "ee")
        play(room, t1, "dd")
        pair(room, "table-1", "round1", "B", "table-2")
        assert not card(room, "table-2").get("mirror"), order
        assert feed(room, "table-2", T_MOVE, t2.end("W+R")) == "applied"
        assert not card(room, "table-2").get("mirror")
        info = {x["id"]: x for x in room.games()}
        assert info["table-2-8"]["archived"] and (archive / "table-2-8.sgf").exists(), order


def test_a_board_cannot_hide_another_by_naming_it(tmp_path):
    room = Room(archive=str(tmp_path))
    victim = start(room, "table-2", game=2)
    play(room, victim, "cc", "gg")
    liar = start(room, "table-1", game=1)
    play(room, liar, "ee")
    pair(room, "table-1", "g1", "B", "table-2")  # table-2 never agreed
    assert not card(room, "table-2").get("mirror") and not card(room, "table-1").get("pair")
    # Even with table-2's own pair message (for another game of theirs):
    # records that differ are two games.
    pair(room, "table-2", "g1", "W", "table-1")
    assert not card(room, "table-2").get("mirror")


def test_a_real_pairing_holds_for_its_game_and_ends_with_it(tmp_path):
    room = Room(archive=str(tmp_path))
    b, w = SpecGame("b1", game=4), SpecGame("b2", game=11)
    for g in (b, w):
        feed(room, g.id, T_GAME, g.snapshot())
    pair(room, "b1", "g1", "B", "b2")
    pair(room, "b2", "g1", "W", "b1")
    for p in ("cc", "gg", "cg"):
        play(room, b, p)
        play(room, w, p)
    assert card(room, "b2")["mirror"] and card(room, "b1")["opponent"] == "b2"
    play(room, w, "gc")  # White's move, on White's board first: one game, on White's card
    assert card(room, "b1")["mirror"] and not card(room, "b2")["mirror"]
    assert card(room, "b2")["opponent"] == "b1"
    play(room, b, "gc")
    assert card(room, "b2")["mirror"] and not card(room, "b1")["mirror"]
    for g in (b, w):
        assert feed(room, g.id, T_MOVE, g.end("B+R")) == "applied"
    # Over: the pairing ended, each board's record is archived under its name.
    assert not card(room, "b2").get("mirror") and not card(room, "b1").get("pair")
    assert sorted(os.listdir(tmp_path)) == ["b1-4.sgf", "b2-11.sgf"]
    # Their retained pair messages come again (a reconnection): the ended
    # pairing is not taken up for the boards' next games.
    assert pair(room, "b1", "g1", "B", "b2") == "stale"
    nb, nw = SpecGame("b1", game=5), SpecGame("b2", game=12)
    for g in (nb, nw):
        feed(room, g.id, T_GAME, g.snapshot())
    assert not card(room, "b2").get("mirror")


def test_the_same_pair_message_again_keeps_the_pairing_bound():
    """A board's retained pair message comes again whenever the relay
    subscribes anew (a lane coming up, a reconnection): it is the same
    word, not a new pairing, and the pairing stays bound to its two games.
    (It once unbound one side only, and the two cards never paired again:
    found by test_room_clock_browser on a loaded machine.)"""
    room = Room()
    b, w = SpecGame("b1", game=5), SpecGame("b2", game=9)
    for g in (b, w):
        feed(room, g.id, T_GAME, g.snapshot())
    pair(room, "b1", "g4", "B", "b2")
    pair(room, "b2", "g4", "W", "b1")
    for p in ("ee", "cg", "gc"):
        play(room, b, p)
        play(room, w, p)
    assert card(room, "b2")["mirror"] and card(room, "b1")["opponent"] == "b2"
    assert pair(room, "b1", "g4", "B", "b2") == "duplicate"
    assert card(room, "b2")["mirror"] and card(room, "b1")["opponent"] == "b2"
    play(room, w, "cc")  # White's move, on White's board first: its card shows the game
    assert card(room, "b1")["mirror"] and card(room, "b2")["opponent"] == "b1"


def test_a_cleared_pair_message_ends_the_pairing():
    room = Room()
    b, w = SpecGame("b1", game=4), SpecGame("b2", game=11)
    for g in (b, w):
        feed(room, g.id, T_GAME, g.snapshot())
    pair(room, "b1", "g1", "B", "b2")
    pair(room, "b2", "g1", "W", "b1")
    assert card(room, "b2")["mirror"]
    lines = []
    room.on_log = lines.append
    assert room.handle(topic("b1", T_PAIR), b"") == "applied" and lines == []
    assert not card(room, "b2").get("mirror")
