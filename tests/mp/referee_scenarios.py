"""Scripted physical scenarios for the referee, in plain asserts.

Every function named scenario_* takes a scratch directory (for journals)
and raises AssertionError on failure.  tests/test_referee_scenarios.py runs
them under CPython (one pytest case each) and under the MicroPython unix
port (run_all(), which prints one PASS/FAIL line per scenario).
"""
import os
import sys

from gogadget import frame as fr
from gogadget import signals as sg
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.board import OK
from gogadget.diagram import diagram
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN
from gogadget.points import BLACK, WHITE, EMPTY, PASS
from gogadget.scan import S_EMPTY, S_BLACK, S_WHITE, S_FAULT

from fakehand import Hand


def _fresh(path):
    try:
        os.mkdir(path)
    except OSError:
        pass
    for name in os.listdir(path):
        sub = path + "/" + name
        try:
            os.remove(sub)
        except OSError:
            _fresh(sub)
            os.rmdir(sub)
    return path


# 1. a stone becomes a move after K stable scans; the last move is marked
def scenario_stable_stone_becomes_move(tmp):
    h = Hand(9)
    h.settle()
    assert h.ref.phase == "play"
    # D7: for a second or so after boot the debounce is the longest, until
    # the flicker of the sensors has been measured.
    h.put("E5")
    h.scans(h.ref.settler.stable_scans + 1)
    assert h.ref.board.moves == 0, "the shortest debounce right after boot"
    h.lift("E5")
    h.wait_ms(6000)
    h.put("E5")
    h.scans(h.ref.settler.stable_scans)
    # Read K scans: settled; the next scan shows no second stone on its way.
    assert h.ref.board.moves == 0, "accepted before K stable scans and the check"
    h.scans(1)
    assert h.ref.board.moves == 1
    assert h.ref.board.cells[h.pt("E5")] == BLACK
    assert h.code("E5") == fr.LAST
    assert ("move", "B E5") in h.events()
    assert h.status_pixel(fr.STATUS_TURN) == fr.PUT_WHITE
    h.play("C3")
    assert h.code("C3") == fr.LAST and h.code("E5") == fr.OFF


# 10. a single-scan flicker never becomes a move
def scenario_flicker_is_ignored(tmp):
    h = Hand(9)
    h.settle()
    for v in ("A1", "D4", "J9", "E5"):
        h.put(v)
        h.scans(1)
        h.lift(v)
        h.scans(1)
    for k in range(1, h.ref.settler.stable_scans):
        h.put("C7")
        h.scans(k)  # present for fewer than K scans
        h.lift("C7")
        h.scans(2)
    h.settle()
    assert h.ref.board.moves == 0
    assert not h.events("move")


# 2. captures: prisoners prompt REMOVE until lifted; the next move may come first
def scenario_capture_prompts_remove(tmp):
    h = Hand(9)
    h.settle()
    h.moves("D5 E5 F5 J9 E4 J8")
    h.play("E6", tidy=False)  # takes E5
    assert h.ref.board.moves == 7
    assert h.ref.board.cells[h.pt("E5")] == EMPTY, diagram(h.ref.board)
    assert h.colour_at("E5") == fr.REMOVE and h.pattern_at("E5") == fr.BLINK
    assert any(k == "capture" for k, _ in h.events())
    assert h.ref.outstanding() == 1
    # White moves before the prisoner is lifted: unambiguous, accepted
    h.play("A1", tidy=False)
    assert h.ref.board.moves == 8
    assert h.colour_at("E5") == fr.REMOVE
    h.lift("E5")
    h.settle()
    assert h.colour_at("E5") == fr.OFF and h.ref.outstanding() == 0


# 3. illegal stones blink fast with the reason, nothing is recorded
def scenario_suicide_blinks_illegal(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5 A2 E6 B1")
    h.put("A1", BLACK)
    h.settle()
    assert h.ref.board.moves == 4
    assert h.code("A1") == fr.ILLEGAL | fr.FAST
    ev = h.events("illegal")
    assert ev and "A1" in ev[0][1] and "suicide" in ev[0][1], ev
    h.scans(20)
    assert not h.events("illegal"), "reported twice"
    h.lift("A1")
    h.settle()
    assert h.code("A1") == fr.OFF
    h.play("J9")
    assert h.ref.board.moves == 5


def scenario_ko_blinks_ko(tmp):
    h = Hand(9)
    h.settle()
    # Black: D5 C4 D3, White: E5 D4 F4 E3; Black E4 takes D4; White D4 is ko.
    h.moves("D5 E5 C4 D4 D3 F4 J9 E3 E4")
    assert h.ref.board.cells[h.pt("D4")] == EMPTY
    h.put("D4", WHITE)
    h.settle()
    assert h.ref.board.moves == 9
    assert h.code("D4") == fr.KO | fr.FAST
    h.lift("D4")
    h.settle()
    h.moves("A9 D4")  # a ko threat and answer elsewhere, then the retake is legal
    assert h.ref.board.moves == 11


def scenario_superko_blinks_superko(tmp):
    h = Hand(4, preset="chinese")
    h.settle()
    h.moves("A2 A1 C3 D3 A4 C4 B3 B4 D4")
    h.put("C4", WHITE)
    h.settle()
    assert h.ref.board.moves == 9
    assert h.code("C4") == fr.SUPERKO | fr.FAST, h.code("C4")
    assert "superko" in h.events("illegal")[0][1]


# 4. colour sensors: the wrong colour is prompted; occupancy: colour from the turn
def scenario_wrong_colour(tmp):
    h = Hand(9)
    h.settle()
    h.put("E5", WHITE)
    h.settle()
    assert h.ref.board.moves == 0
    assert h.colour_at("E5") == fr.WRONG_COLOUR
    h.put("E5", BLACK)  # turned over
    h.settle()
    assert h.ref.board.moves == 1
    h.put("E5", WHITE)  # a placed stone swapped for the other colour
    h.settle()
    assert h.colour_at("E5") == fr.WRONG_COLOUR
    h.put("D4", WHITE)
    h.settle()
    assert h.ref.board.moves == 1, "a move while another stone is wrong"


def scenario_occupancy_colour_from_turn(tmp):
    h = Hand(9, occupancy=True)
    h.settle()
    h.moves("E5 D4 E4")
    b = h.ref.board
    assert b.cells[h.pt("E5")] == BLACK and b.cells[h.pt("D4")] == WHITE
    assert b.cells[h.pt("E4")] == BLACK


# 5. two new stones at once: all prompted, none accepted until one remains
def scenario_two_new_stones(tmp):
    h = Hand(9)
    h.settle()
    h.put("C3")
    h.put("G7")
    h.settle()
    assert h.ref.board.moves == 0
    assert h.colour_at("C3") == fr.REMOVE and h.colour_at("G7") == fr.REMOVE
    assert h.events("prompt")
    h.lift("G7")
    h.settle()
    assert h.ref.board.moves == 1 and h.ref.board.cells[h.pt("C3")] == BLACK
    h.put("D4", WHITE)
    h.put("E4", WHITE)
    h.settle()
    h.lift("D4")
    h.lift("E4")
    h.settle()
    assert h.ref.board.moves == 1 and h.ref.outstanding() == 0


# 6. a bumped stone prompts put-back in its colour; a slid stone shows both ends
def scenario_bumped_and_slid_stones(tmp):
    h = Hand(9)
    h.settle()
    h.moves("C3 G7")
    h.lift("C3")
    h.settle()
    assert h.code("C3") == fr.PUT_BLACK | fr.BLINK
    h.put("E5", WHITE)  # White's move while a black stone is off: not accepted
    h.settle()
    assert h.ref.board.moves == 2
    h.lift("E5")
    h.put("C3")
    h.settle()
    assert h.code("C3") == fr.OFF and h.ref.outstanding() == 0
    h.lift("G7")  # slide the white stone one point
    h.put("G6", WHITE)
    h.settle()
    assert h.code("G7") == fr.PUT_WHITE | fr.BLINK
    assert h.colour_at("G6") == fr.REMOVE
    assert h.ref.board.moves == 2
    h.lift("G6")
    h.put("G7", WHITE)
    h.settle()
    assert h.ref.outstanding() == 0
    h.play("G6")  # black may play there now
    assert h.ref.board.moves == 3


# 7. take-back: lift the last stone, put back its prisoners, confirm
def scenario_take_back(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E4 E5 D5 J9 F5 J8 E6")  # E6 captures E5
    assert h.ref.board.cells[h.pt("E5")] == EMPTY and h.ref.board.moves == 7
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 7, "confirm without a take-back undid something"
    h.lift("E6")
    h.settle()
    assert h.code("E6") == fr.PUT_BLACK | fr.BLINK, "only the stone lifted: not yet a take-back"
    h.put("E5", WHITE)
    h.settle()
    assert h.code("E6") == signals_code(sg.P_TAKEBACK)
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 6
    assert h.ref.board.cells[h.pt("E5")] == WHITE
    assert h.events("undo")
    assert h.ref.outstanding() == 0
    # walk further back: J8
    h.lift("J8")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 5 and h.ref.to_move() == WHITE
    h.play("A1")
    assert h.ref.board.moves == 6


# 7b. Confirm pressed just before the last prisoner has settled still takes
# back; one pressed long before does not.
def scenario_take_back_confirm_while_prisoner_settles(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E4 E5 D5 J9 F5 J8 E6")  # E6 takes E5
    h.lift("E6")
    h.settle()
    h.ref.press(BTN_CONFIRM, h.t)  # too early: E5 is not back
    h.wait_ms(2000)
    h.put("E5", WHITE)
    h.settle()
    assert h.ref.board.moves == 7, "a Confirm from two seconds ago took back"
    h.lift("E5")
    h.settle()
    h.put("E5", WHITE)
    h.scans(1)
    h.ref.press(BTN_CONFIRM, h.t)  # E5 is down but not yet settled
    h.settle()
    assert h.ref.board.moves == 6 and h.events("undo")
    assert h.ref.outstanding() == 0


def signals_code(prompt):
    return sg.CODES[prompt]


# 8. passes open counting; lifting marks dead, putting back revives; confirm counts
def _wall_game(h):
    seq = []
    for r in range(1, 10):
        seq.append("E%d" % r)
        seq.append("F%d" % r)
    h.moves(" ".join(seq))
    h.moves("pass B5 pass pass")


def scenario_count_dead_stones(tmp):
    h = Hand(9, journal=jn.Journal(_fresh(tmp + "/count")))
    h.settle()
    _wall_game(h)
    assert h.ref.phase == "count", h.ref.status()
    assert h.events("count")
    assert h.code("A1") == fr.OFF, "B5 alive: A-D is neutral"
    assert h.code("J1") == fr.TERRITORY_WHITE | fr.DIM
    h.lift("B5")
    h.settle()
    assert h.code("A1") == fr.TERRITORY_BLACK | fr.DIM
    assert h.code("B5") == fr.TERRITORY_BLACK | fr.DIM
    assert ("count", "B+1.5") in h.events()
    h.put("B5", WHITE)
    h.settle()
    assert h.code("A1") == fr.OFF
    assert ("count", "W+35.5") in h.events()
    h.lift("B5")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "over" and h.ref.result == "B+1.5"
    assert ("result", "B+1.5") in h.events()
    assert len(h.lit(fr.DIGIT)) > 5, "score digits not drawn"
    assert h.status_pixel(fr.STATUS_TURN) == fr.PUT_BLACK  # the winner
    names = jn.game_names(tmp + "/count")
    assert names == ["0001.sgf"], names
    with open(tmp + "/count/0001.sgf") as f:
        text = f.read()
    assert "RE[B+1.5]" in text
    # clearing the board starts the next game
    for pl in range(81):
        h.scan[pl] = S_EMPTY
    h.wait_ms(h.config.hand_settle_ms + 200)
    assert h.ref.phase == "play" and h.ref.board.moves == 0
    assert h.events("new-game")


def scenario_white_passes_last(tmp):
    h = Hand(9, preset="aga")
    h.settle()
    h.moves("E5 pass pass")  # W then B pass: White did not pass last
    assert h.ref.phase == "play"
    h.moves("pass")
    assert h.ref.phase == "count"


def scenario_score_scrolls_on_small_board(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5")
    h.press(BTN_RESIGN)  # White resigns
    assert h.ref.result == "B+R" and h.ref.phase == "over"
    frames = set()
    for _ in range(40):
        h.scans(5)
        frames.add(bytes(h.ref.frame))
    assert len(frames) > 3, "text wider than the board must scroll"


# 9. resign, new game, handicap
def scenario_resign_and_new_game(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5 D4")
    h.press(BTN_RESIGN)
    assert h.ref.result == "W+R" and h.ref.phase == "over"
    assert h.events("resign")
    h.press(BTN_NEW)
    assert h.ref.phase == "setup" and h.ref.board.moves == 0
    assert h.colour_at("E5") == fr.REMOVE
    h.follow()
    assert h.ref.phase == "play"


def scenario_fixed_handicap(tmp):
    h = Hand(9, handicap=3)
    h.settle()
    assert h.ref.phase == "setup"
    spots = h.lit(fr.PUT_BLACK)
    assert len(spots) == 3
    for v in ("C3", "G7", "C7"):
        assert h.code(v) == fr.PUT_BLACK | fr.BLINK, v
    h.put("E5", WHITE)
    h.settle()
    assert h.ref.phase == "setup" and h.ref.board.moves == 0
    h.lift("E5")
    h.follow()
    assert h.ref.phase == "play" and h.ref.to_move() == WHITE
    h.play("E5")
    assert h.ref.board.move(0) == (WHITE, h.pt("E5"))


def scenario_free_handicap(tmp):
    h = Hand(9, preset="tromp-taylor", handicap=2)
    h.settle()
    assert h.ref.phase == "setup"
    h.put("D4")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "setup", "confirmed with too few stones"
    h.put("F6")
    h.settle()
    assert h.code("F6") == signals_code(sg.P_PLACED)
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "play" and h.ref.to_move() == WHITE
    assert h.ref.board.handicap == 2
    assert h.ref.board.cells[h.pt("D4")] == BLACK and h.ref.board.cells[h.pt("F6")] == BLACK
    assert "HA[2]" in h.ref.sgf()


# 10. a hand or sleeve over the board never becomes a move
def scenario_hand_over_board(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5")
    sleeve = ("A1", "B1", "C1", "B2", "C2", "D2")
    for step in range(6):  # dragging across: a few places change each scan
        for v in sleeve[:step + 1]:
            h.put(v, WHITE)
        h.scans(1)
    h.scans(h.ref.settler.stable_scans + 1)  # resting there briefly
    for v in sleeve:
        h.lift(v)
    h.put("C1", WHITE)  # ...and leaves one stone that settles
    h.scans(2)
    assert h.ref.board.moves == 1, "the sleeve became a move"
    h.wait_ms(h.config.hand_settle_ms + 200)
    assert h.ref.board.moves == 2 and h.ref.board.cells[h.pt("C1")] == WHITE


# 11. noisy sensors: a flicker somewhere on the board every scan stalls nothing
def _noisy_play(h, v, scans=40):
    n = h.ref.board.moves
    h.put(v, h.ref.to_move())
    for _ in range(scans):
        h.scans(1)
        if h.ref.board.moves > n:
            break
    assert h.ref.board.moves == n + 1, "%s not accepted under noise: %s" % (v, h.ref.status())
    h.follow()


def scenario_noisy_sensors_do_not_stall(tmp):
    for occupancy in (False, True):
        # two misreads a scan on 361 sensors: noise 0.0055 per point per scan
        h = Hand(19, occupancy=occupancy, flicker=2)
        h.settle()
        assert h.ref.phase == "play"
        for v in "D5 E5 F5 Q16 E4 Q15 E6".split():  # E6 takes E5
            _noisy_play(h, v)
        assert h.ref.board.cells[h.pt("E5")] == EMPTY and h.ref.board.moves == 7
        h.wait_ms(4000)  # 200 noisy scans, nothing new on the board
        assert h.ref.board.moves == 7, "a flicker became a move"
        assert not h.events("illegal")
        assert h.flickers >= 2 * 200
        assert h.ref.outstanding() == 0


# 6b. bump order: the missing stone goes back before the stray comes off
def scenario_stray_never_becomes_move(tmp):
    for occupancy in (False, True):
        h = Hand(9, occupancy=occupancy)
        h.settle()
        h.moves("C3 G7 D4 G6")  # Black to move
        h.lift("C3")  # a black stone slides from C3 to C2
        h.put("C2", BLACK)
        h.settle()
        assert h.code("C3") == fr.PUT_BLACK | fr.BLINK
        assert h.colour_at("C2") == fr.REMOVE
        h.put("C3", BLACK)  # put back first, the stray still on C2
        h.settle()
        assert h.ref.board.moves == 4, "the stray became a move"
        assert h.colour_at("C2") == fr.REMOVE
        assert any("stray stone at C2" in t for k, t in h.events("illegal"))
        h.wait_ms(500)
        assert h.ref.board.moves == 4
        h.lift("C2")
        h.settle()
        assert h.ref.outstanding() == 0 and h.code("C2") == fr.OFF
        h.play("C2")  # lifted and placed again: now it is a move
        assert h.ref.board.moves == 5 and h.ref.board.cells[h.pt("C2")] == BLACK
        # a stone put down while another is missing is a stray too
        h.lift("G7")
        h.put("A9", WHITE)
        h.settle()
        h.put("G7", WHITE)
        h.settle()
        assert h.ref.board.moves == 5 and h.colour_at("A9") == fr.REMOVE
        h.follow()
        h.play("A9")
        assert h.ref.board.moves == 6


# 8b. counting: a new stone on an empty point means play goes on (001/003)
def scenario_stone_in_counting_resumes_play(tmp):
    d = _fresh(tmp + "/resume-count")
    h = Hand(9, journal=jn.Journal(d))
    h.settle()
    _wall_game(h)
    assert h.ref.phase == "count" and h.ref.to_move() == BLACK
    h.lift("B5")  # marked dead
    h.settle()
    assert h.code("B5") == fr.TERRITORY_BLACK | fr.DIM
    h.put("C5", BLACK)  # Black disagrees: plays on
    h.settle()
    assert h.ref.phase == "play", h.ref.status()
    assert h.ref.board.moves == 23 and h.ref.board.last_move() == (BLACK, h.pt("C5"))
    assert ("move", "B C5") in h.events()
    assert h.code("B5") == fr.PUT_WHITE | fr.BLINK, "dead mark not cleared"
    h.follow()
    assert h.ref.outstanding() == 0
    # an illegal stone ends counting too, and is prompted as such
    h.moves("H1 pass J2 pass pass")  # W H1, B pass, W J2, B pass, W pass
    assert h.ref.phase == "count" and h.ref.to_move() == BLACK, h.ref.status()
    n = h.ref.board.moves
    h.put("J1", BLACK)  # suicide
    h.settle()
    assert h.ref.phase == "play" and h.ref.board.moves == n
    assert h.code("J1") == fr.ILLEGAL | fr.FAST
    assert any("suicide" in t for k, t in h.events("illegal"))
    h.lift("J1")
    h.settle()
    h.put("A1", WHITE)  # a wrong-colour stone left standing...
    h.settle()
    assert h.colour_at("A1") == fr.WRONG_COLOUR
    h.press(BTN_PASS)  # B passes: W pass, B pass -- counting again
    assert h.ref.phase == "count"
    h.scans(10)  # ...does not end counting: it stood before counting began
    assert h.ref.phase == "count" and h.colour_at("A1") == fr.REMOVE
    h.lift("A1")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "over" and h.ref.result


def scenario_rule_change_survives_power_cut(tmp):
    d = _fresh(tmp + "/rules-cut")
    h = Hand(9, journal=jn.Journal(d), preset="japanese")
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5 D4")
    # what GTP gogadget-set-rule / komi do to a running game (link.py)
    from gogadget.ruleopts import describe_rules, set_rule
    set_rule(h.ref.rules, "ko", "positional")
    set_rule(h.ref.rules, "scoring", "area")
    h.ref.board.ko = h.ref.rules.ko
    h.ref.set_komi(0.5)
    h.scans(1)
    h.moves("C3")
    rules = describe_rules(h.ref.rules)
    assert "ko=positional" in rules and "preset=custom" in rules
    h2 = Hand(9, journal=jn.Journal(d), preset="japanese")
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    assert describe_rules(h2.ref.rules) == rules, (describe_rules(h2.ref.rules), rules)
    assert h2.ref.komi == 0.5 and h2.ref.board.ko == h.ref.board.ko
    assert h2.ref.board.moves == 3
    # a preset loaded mid-game comes back by name
    h2.follow()
    h2.ref.rules.load("chinese")
    h2.scans(1)  # noticed within a scan, before any further move
    h3 = Hand(9, journal=jn.Journal(d), preset="japanese")
    records, report = jr.load(h3.ref.journal)
    h3.ref.resume(records, report, h3.t)
    assert h3.ref.rules.name == "chinese" and describe_rules(h3.ref.rules) == describe_rules(h2.ref.rules)


def scenario_sensor_fault_reported(tmp):
    h = Hand(9)
    h.settle()
    h.scan[h.pl("D4")] = S_FAULT
    h.settle()
    assert ("fault", "sensor D4 faulty") in h.events()
    assert h.colour_at("D4") == fr.FAULT
    assert h.status_pixel(fr.STATUS_ALERT) & 0x0F == fr.FAULT
    h.moves("E5 C3")
    assert h.ref.board.moves == 2


def scenario_stuck_sensor_reported(tmp):
    h = Hand(9, stuck_ms=2000)
    h.settle()
    h.put("D4", WHITE)  # reads a stone where none can be (black to move)
    h.settle()
    assert h.ref.board.moves == 0
    h.wait_ms(1750)  # ages are kept to view._TICK_SHIFT's 128 ms
    assert not h.events("fault"), "asked before stuck_ms"
    h.wait_ms(450)
    # The board cannot tell a stuck sensor from a slow person: it asks, and
    # the light goes on asking for the stone to be put right.
    asked = [t for k, t in h.events("fault")]
    assert any(t.startswith("sensor D4 stuck?") for t in asked), asked
    assert h.colour_at("D4") == fr.WRONG_COLOUR
    assert h.status_pixel(fr.STATUS_ALERT) & 0x0F == fr.FAULT
    h.wait_ms(5000)
    assert not h.events("fault"), "asked twice"
    h.press(BTN_CONFIRM)  # "yes, stuck": ignored until it agrees with the game
    assert any("D4 stuck: ignored" in t for k, t in h.events("fault"))
    assert h.colour_at("D4") == fr.FAULT and h.ref.board.moves == 0
    h.moves("E5 C3 E4")  # the game goes on around it
    assert h.ref.board.moves == 3


# A prisoner's switch held closed by its captors' field (the occupancy reed
# at the sensitive end of its tolerance, hardware/README; stress seeds
# 2400101, 2400129): it reads as a prisoner never lifted.  The board asks
# after stuck_ms like any other contradiction, Confirm ignores the sensor,
# and the count neither waits for it nor takes it for a new stone.
def scenario_stuck_prisoner_is_asked_and_ignored_through_the_count(tmp):
    h = Hand(9, occupancy=True, stuck_ms=2000)
    h.settle()
    h.moves("E5 D5 A1 F5 A2 E4 A3")
    h.play("E6", tidy=False)  # captures E5; the person lifts it, the switch stays closed
    assert h.ref.board.prisoners[WHITE] == 1 and h.colour_at("E5") == fr.REMOVE
    h.wait_ms(2300)
    asked = [t for k, t in h.events("fault")]
    assert any(t.startswith("sensor E5 stuck?") for t in asked), asked
    h.press(BTN_CONFIRM)
    assert any("E5 stuck: ignored" in t for k, t in h.events("fault"))
    assert h.colour_at("E5") == fr.FAULT
    h.moves("A4 G5 pass pass")
    assert h.ref.phase == "count", h.ref.status()
    assert h.colour_at("E5") == fr.FAULT and h.ref.unresolved == 0, h.ref.status()
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "over" and h.ref.result, h.ref.status()
    # The board cleared (the switch opens with its captors gone): the next
    # game starts with every sensor trusted again.
    for pl in range(81):
        h.scan[pl] = S_EMPTY
    h.wait_ms(h.config.hand_settle_ms + 1000)  # many stones at once: a hand, then settled
    assert h.ref.board.moves == 0 and h.ref.phase != "over", h.ref.status()
    assert not any(h.ref.fault)


# The same ignored E5, then a bump slides E6's stone onto it (stress seed
# 910200202: F8 onto an ignored F9).  The blind point cannot show the
# stone that came; the board cannot tell a stone knocked off from one slid
# onto E5, so it stops ignoring E5 and asks about it at once, by name.
# What E5 reads is never a move; Confirm ignores the sensor again.
def scenario_blind_point_beside_a_stone_that_went_is_asked_about(tmp):
    h = Hand(9, occupancy=True, stuck_ms=2000)
    h.settle()
    h.moves("E5 D5 A1 F5 A2 E4 A3")
    h.play("E6", tidy=False)
    h.wait_ms(2300)
    h.press(BTN_CONFIRM)
    assert h.colour_at("E5") == fr.FAULT and h.ref.fault[h.pl("E5")]
    h.moves("A4 G5")  # a move beside it, nothing went: still ignored
    assert h.colour_at("E5") == fr.FAULT and h.ref.ask_stuck < 0
    h.events()
    h.lift("E6")  # slid onto E5, whose switch was closed already
    h.settle()
    asked = [t for k, t in h.events("fault")]
    assert any(t.startswith("check E5") and "E6" in t for t in asked), asked
    assert h.ref.ask_stuck == h.pl("E5") and not h.ref.fault[h.pl("E5")]
    assert h.colour_at("E5") == fr.REMOVE and h.colour_at("E6") == fr.PUT_WHITE
    h.put("E6", WHITE)  # a new stone from the bowl; E5 still reads one
    h.settle()
    assert h.ref.board.moves == 10, h.ref.status()  # E5 is no move
    assert h.colour_at("E5") == fr.REMOVE
    h.press(BTN_CONFIRM)  # "nothing there": ignored again
    assert h.colour_at("E5") == fr.FAULT and h.ref.ask_stuck < 0
    h.moves("A5")
    assert h.ref.board.moves == 11
    # The stone lifted from E5 instead: the switch opens, the point is trusted.
    h.lift("G5")
    h.settle()
    assert h.ref.ask_stuck < 0  # G5 is beside no blind point
    h.put("G5", BLACK)
    h.settle()
    h.lift("E4")
    h.settle()
    assert h.ref.ask_stuck == h.pl("E5")
    h.lift("E5")
    h.put("E4", WHITE)
    h.settle()
    assert h.ref.ask_stuck < 0 and not h.ref.fault[h.pl("E5")] and h.ref.unresolved == 0


# Black's E4 took two stones (F4 G4); White takes E4 back at once by playing
# F4, lifting E4 first (stress seed 3200479, the prisoners_first habit).
# The stone on F4 is also a prisoner put back after the last stone was
# lifted: a take-back would look the same.  The board cannot tell, so it
# asks for the record to be restored (as for one motion); then F4 is played.
def scenario_retaking_the_last_stone_prisoner_first_is_asked_not_a_takeback(tmp):
    h = Hand(9)
    h.settle()
    h.moves("F3 D4 F5 E3 G3 E5 G5 F4 A1 G4 H4 A9 E4")
    assert h.ref.board.prisoners[BLACK] == 2 and h.ref.to_move() == WHITE
    h.events()
    h.lift("E4")
    h.settle()
    h.put("F4", WHITE)
    h.settle()
    assert h.ref.board.moves == 13 and not h.ref.tb_ready, h.ref.status()
    assert not any("take-back ready" in t for k, t in h.events("prompt"))
    assert h.colour_at("F4") == fr.REMOVE and h.colour_at("E4") == fr.PUT_BLACK
    assert h.colour_at("G4") != fr.PUT_WHITE  # not lit as a prisoner to put back
    h.follow()  # the record restored: E4 back, F4 off
    h.moves("F4")
    assert h.ref.board.moves == 14 and h.ref.board.prisoners[WHITE] == 1
    # The same two stones put back as a take-back: F4 first still needs G4.
    h2 = Hand(9)
    h2.settle()
    h2.moves("F3 D4 F5 E3 G3 E5 G5 F4 A1 G4 H4 A9 E4")
    h2.lift("E4")
    h2.settle()
    h2.put("F4", WHITE)
    h2.settle()
    h2.put("G4", WHITE)
    h2.settle()
    assert h2.ref.tb_ready, h2.ref.status()
    h2.press(BTN_CONFIRM)
    assert h2.ref.board.moves == 12 and h2.ref.to_move() == BLACK


# D9: a slow person is never taken for a stuck sensor: the question goes
# away once the stone is put right, and nothing was ignored.
def scenario_slow_person_is_not_a_stuck_sensor(tmp):
    h = Hand(9, stuck_ms=2000)
    h.settle()
    h.moves("E5 D4 C3")
    h.lift("C3")  # take-back started, left waiting
    h.settle()
    h.wait_ms(3000)
    assert not h.events("fault"), "asked about a take-back"
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 2 and h.events("undo")
    h.put("E4", BLACK)
    h.put("D3", WHITE)  # two stones: lift all but one, left for a while
    h.settle()
    h.wait_ms(2500)
    assert any("stuck?" in t for k, t in h.events("fault"))
    h.lift("D3")
    h.settle()
    assert h.ref.board.moves == 3 and h.ref.ask_stuck < 0
    assert not any(h.ref.fault), "a sensor was ignored"


# host side: moves from an engine, undo
def scenario_external_move_prompts(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5 D5 J9 E6 J8 F5")
    code = h.ref.external_move(BLACK, h.pt("E4"))
    assert code == OK
    h.settle()
    assert h.ref.board.moves == 7
    assert h.code("E4") == fr.PUT_BLACK | fr.BLINK
    # Waiting for the engine's stone is no alert (and never "remove" orange).
    assert h.status_pixel(fr.STATUS_ALERT) == fr.OFF
    h.lift("J9")  # ...but a stone knocked off meanwhile is
    h.settle()
    assert h.status_pixel(fr.STATUS_ALERT) == fr.INFO | fr.DIM
    h.put("J9")
    h.settle()
    assert h.status_pixel(fr.STATUS_ALERT) == fr.OFF
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 7, "an unplaced engine move was taken back"
    assert h.ref.external_move(WHITE, h.pt("E5")) != OK  # occupied
    h.put("E4")
    h.settle()
    assert h.ref.outstanding() == 0 and h.code("E4") == fr.LAST
    for colour, v in ((WHITE, "D4"), (BLACK, "A1"), (WHITE, "F4"), (BLACK, "A2")):
        assert h.ref.external_move(colour, h.pt(v)) == OK
        h.follow()
    assert h.ref.external_move(WHITE, h.pt("E3")) == OK  # takes E4 and E5
    h.settle()
    assert h.code("E3") == fr.PUT_WHITE | fr.BLINK
    assert h.colour_at("E4") == fr.REMOVE and h.colour_at("E5") == fr.REMOVE
    assert h.status_pixel(fr.STATUS_ALERT) == fr.OFF  # its prisoners wait with it
    h.follow()
    assert h.ref.outstanding() == 0 and h.ref.board.moves == 12


def scenario_host_undo_prompts_fix(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E4 E5 D5 J9 F5 J8 E6")
    assert h.ref.undo()
    h.settle()
    assert h.colour_at("E6") == fr.REMOVE
    assert h.code("E5") == fr.PUT_WHITE | fr.BLINK
    h.follow()
    assert h.ref.outstanding() == 0 and h.ref.board.moves == 6
    h.play("E6")
    assert h.ref.board.moves == 7


# power cut: the journal brings the game back, the LEDs ask for the stones
def scenario_power_cut_resume(tmp):
    d = _fresh(tmp + "/cut")
    h = Hand(9, journal=jn.Journal(d))
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E4 E5 D5 J9 F5 J8 E6 pass")
    before = diagram(h.ref.board)
    # power cut: a new referee, a new empty scan, the journal on flash
    h2 = Hand(9, journal=jn.Journal(d))
    records, report = jr.load(h2.ref.journal)
    assert report == ""
    h2.ref.resume(records, report, h2.t)
    assert diagram(h2.ref.board) == before and h2.ref.board.moves == 8
    h2.settle()
    assert h2.ref.phase == "resume"
    assert h2.code("E4") == fr.PUT_BLACK | fr.BLINK
    assert h2.code("J9") == fr.PUT_WHITE | fr.BLINK
    assert h2.events("resume")
    h2.follow()
    assert h2.ref.phase == "play" and h2.ref.to_move() == BLACK
    h2.play("A1")
    assert h2.ref.board.moves == 9


def scenario_led_budget(tmp):
    for size in (9, 13, 19):
        h = Hand(size)
        h.settle()
        f = h.ref.frame
        for i in range(1, len(f)):
            f[i] = fr.PUT_WHITE | fr.BLINK  # the hungriest colour everywhere
        assert sg.estimate_ma(f) <= h.config.budget_ma, (size, sg.estimate_ma(f))
        assert f[0] > 0


def scenarios(namespace=None):
    g = globals() if namespace is None else namespace
    return [(name, g[name]) for name in sorted(g) if name.startswith("scenario_")]


def run_all(tmp="/tmp/gogadget-scenarios", namespace=None):
    _fresh(tmp)
    failed = 0
    for name, fn in scenarios(namespace):
        try:
            fn(tmp)
            print("PASS", name)
        except Exception as exc:  # report every scenario, not just the first
            failed += 1
            print("FAIL", name, repr(exc))
            if hasattr(sys, "print_exception"):
                sys.print_exception(exc)
    print("DONE %d scenarios, %d failed" % (len(scenarios(namespace)), failed))
    return failed


if __name__ == "__main__":
    run_all(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gogadget-scenarios")
