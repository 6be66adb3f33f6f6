"""Regression scenarios for the referee defects D1-D13 of issue 10, in plain
asserts (run like referee_scenarios.py: one pytest case each under CPython,
all of them under the MicroPython unix port).  Each failed on the referee
before its fix (tests/test_referee_scenarios.py says how that was checked).
"""
from gogadget import frame as fr
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.diagram import diagram
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW
from gogadget.points import BLACK, WHITE, EMPTY, place_point
from gogadget.scan import S_EMPTY, S_STONE

from fakehand import Hand
from referee_scenarios import _fresh, _wall_game


def _journal(tmp, name):
    return jn.Journal(_fresh(tmp + "/" + name))


def _reboot(h, size=None, **settings):
    """Power cut: a new referee on the same journal; the stones stay."""
    h2 = Hand(size or h.size, journal=jn.Journal(h.ref.journal.dir),
              occupancy=h.occupancy, **settings)
    h2.scan[:] = h.scan
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    return h2, report


# D1: free handicap, then a power cut, keeps the handicap and every move.
def scenario_d1_free_handicap_survives_power_cut(tmp):
    h = Hand(9, journal=_journal(tmp, "d1"), preset="tromp-taylor", handicap=2)
    h.ref.resume([], "", h.t)
    h.settle()
    h.put("D4")
    h.put("F6")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.phase == "play" and h.ref.board.handicap == 2
    h.moves("E5 C3 G3")
    h2, report = _reboot(h, preset="tromp-taylor", handicap=2)
    assert report == "", report
    b = h2.ref.board
    assert b.handicap == 2 and b.moves == 3, h2.ref.status()
    assert b.cells[h2.pt("D4")] == BLACK and b.cells[h2.pt("F6")] == BLACK
    h2.settle()
    assert h2.ref.phase == "play" and h2.ref.to_move() == BLACK
    assert "HA[2]" in h2.ref.sgf() and ";W[ee]" in h2.ref.sgf()


# D2: after a cut with 1% flicker on a full 19x19 board the position, still
# on the board, is accepted within 2 s (100 scans).
def scenario_d2_resume_under_flicker_is_quick(tmp):
    for occupancy in (False, True):
        h = Hand(19, journal=_journal(tmp, "d2"), occupancy=occupancy)
        h.ref.resume([], "", h.t)
        h.settle()
        n = 0
        for pl in range(361):
            r, c = divmod(pl, 19)
            if (r * 7 + c * 3) % 3 and h.ref.board.cells[place_point(h.size, pl)] == EMPTY:
                colour = h.ref.to_move()
                if h.ref.external_move(colour, place_point(h.size, pl)) == 0:
                    n += 1
        h.follow()
        h.follow()
        stones = sum(1 for w in h.ref.want if w != EMPTY)
        assert stones > 200 and h.ref.outstanding() == 0, (stones, h.ref.status())
        h2, _ = _reboot(h, 19)
        h2.flicker = 4  # 1% of 361 places misread each scan
        scans = 0
        while h2.ref.phase != "play":
            h2.scans(1)
            scans += 1
            assert scans <= 100, "resume took over 2 s (%s)" % h2.ref.status()
        assert h2.ref.board.moves == h.ref.board.moves


# D3: a multi-stone self-capture is lit for removal, played stone included,
# and never turns into the opponent's move.
def scenario_d3_self_capture_is_lifted_not_played(tmp):
    h = Hand(9, occupancy=True, preset="tromp-taylor")
    h.settle()
    h.moves("A1 B1 A2 B2 J9 B3 J8 A4")
    h.play("A3", tidy=False)  # takes A1 A2 A3 off: allowed self-capture
    b = h.ref.board
    assert b.moves == 9 and b.cells[h.pt("A3")] == EMPTY, diagram(b)
    for v in ("A1", "A2", "A3"):
        assert h.colour_at(v) == fr.REMOVE, v
    h.lift("A1")
    h.settle()
    assert b.moves == 9, "the self-captured stone became a move"
    h.lift("A2")
    h.lift("A3")
    h.settle()
    assert b.moves == 9 and h.ref.outstanding() == 0
    h.play("E5")
    assert b.move(9) == (WHITE, h.pt("E5"))


# D4: changes that belong together are taken together.
def scenario_d4_slide_and_pairs_stay_whole(tmp):
    for occupancy in (False, True):
        h = Hand(9, occupancy=occupancy)
        h.settle()
        h.wait_ms(3000)
        h.moves("C3 G7 D5 G6")  # Black to move
        # A slide whose new point reads 100 ms before the old one empties.
        h.put("D6", BLACK)
        h.scans(5)
        h.lift("D5")
        h.settle()
        h.wait_ms(500)
        assert h.ref.board.moves == 4, "a slid stone became a move"
        assert h.colour_at("D5") == fr.PUT_BLACK and h.colour_at("D6") == fr.REMOVE
        h.follow()
        assert h.ref.outstanding() == 0 and h.ref.board.moves == 4
        # Two stones put down together, one of them misread for a scan,
        # twice, while it settles: neither is a move, the lights ask to
        # lift one.
        h.put("B8", BLACK)
        h.put("H2", BLACK)
        for i in range(h.ref.settler.stable_scans + 8):
            if i in (1, 5):
                h.lift("H2")
            h.scans(1)
            if i in (1, 5):
                h.put("H2", BLACK)
        h.settle()
        assert h.ref.board.moves == 4, "one of two stones became a move"
        assert h.colour_at("B8") == fr.REMOVE and h.colour_at("H2") == fr.REMOVE


# D5: a capture in one motion is a move (colour sensors; with occupancy, a
# capture of two stones, which no slide can look like).
def scenario_d5_capture_in_one_motion(tmp):
    h = Hand(9)
    h.settle()
    h.moves("D5 E5 F5 J9 E4 J8")
    h.put("E6", BLACK)  # takes E5 ...
    h.lift("E5")  # ... lifted in the same scan
    h.settle()
    assert h.ref.board.moves == 7 and h.ref.board.last_captures == 1, h.ref.status()
    assert h.ref.outstanding() == 0 and h.code("E6") == fr.LAST
    h = Hand(9, occupancy=True)
    h.settle()
    h.moves("D5 E5 D4 E4 F5 J9 F4 J8 E3 J7")  # Black to take E4 E5 with E6
    h.put("E6")
    h.scans(1)
    h.lift("E5")
    h.lift("E4")
    h.wait_ms(h.config.hand_settle_ms + 200)  # three places at once look like a hand
    assert h.ref.board.moves == 11 and h.ref.board.last_captures == 2, h.ref.status()
    assert h.ref.outstanding() == 0


# D5b: a stone of the player's own slid into its chain's last liberty, where
# the move would take the chain off (suicide allowed), is a slide, not a
# self-capture in one motion.
def scenario_d5_own_stone_slid_is_no_capture(tmp):
    h = Hand(9, preset="tromp-taylor")
    h.settle()
    h.moves("A1 B1 A2 B2 J9 B3 J8 A4")  # Black A1 A2: last liberty A3
    h.lift("A2")  # Black's A2 knocked up onto A3
    h.put("A3", BLACK)
    h.settle()
    h.wait_ms(500)
    assert h.ref.board.moves == 8, "a bump became a self-capture"
    assert h.colour_at("A2") == fr.PUT_BLACK and h.colour_at("A3") == fr.REMOVE


# Stress seed 3000807: after a self-capture (suicide allowed) the last
# move's point is empty in the game too; lifting it with another stone is
# no take-back, and the next move is taken once the stone is back.
def scenario_self_capture_then_no_takeback(tmp):
    h = Hand(9, preset="000")  # 000 without 7A: self-capture allowed, simple ko
    h.settle()
    h.moves("A2 E5 B1")
    h.play("A1", tidy=False)  # White's lone stone takes itself off
    assert h.ref.board.moves == 4 and h.ref.board.cells[h.pt("A1")] == EMPTY
    h.lift("A1")  # lifted as asked, with Black's B1 in the same motion
    h.lift("B1")
    h.settle()
    assert h.colour_at("B1") == fr.PUT_BLACK
    h.put("B1", BLACK)
    h.settle()
    h.play("E4")
    assert h.ref.board.moves == 5, h.ref.status()


# An ambiguous take-back (one prisoner back beside the lifted stone in one
# motion): the stone put back again leaves the prisoner to be lifted, never
# a move.
def scenario_ambiguous_takeback_undone(tmp):
    h = Hand(9, occupancy=True)
    h.settle()
    h.moves("D5 E5 F5 J9 E4 J8 E6")  # E6 takes E5
    h.lift("E6")
    h.put("E5")
    h.settle()
    assert h.colour_at("E6") == fr.PUT_BLACK and h.colour_at("E5") == fr.REMOVE
    h.put("E6")  # the capturing stone back; E5 stays for now
    h.settle()
    h.wait_ms(500)
    assert h.ref.board.moves == 7, "the prisoner became a move"
    assert h.colour_at("E5") == fr.REMOVE
    h.follow()
    assert h.ref.outstanding() == 0


# D6: a hand over a nearly full occupancy board never becomes a move.
def scenario_d6_hand_over_full_board(tmp):
    h = Hand(9, occupancy=True)
    empty = [pl for pl in range(81) if pl % 5 == 2]  # 16 points left empty
    h.ref.set_position([(BLACK if pl % 2 else WHITE, place_point(h.size, pl))
                        for pl in range(81) if pl % 5 != 2])
    for pl in range(81):
        h.scan[pl] = S_EMPTY if pl % 5 == 2 else S_STONE
    h.wait_ms(1000)
    assert h.ref.phase == "play", h.ref.status()
    for hand in range(120):
        for _ in range(15):  # 300 ms: a random 30% of the points read a stone
            for pl in empty:
                h.scan[pl] = S_STONE if h._rand(10) < 3 else S_EMPTY
            h.scans(1)
        for pl in empty:
            h.scan[pl] = S_EMPTY
        h.wait_ms(400)
        assert h.ref.board.moves == 0, "hand %d became a move" % hand


# D7: flicker just after boot never becomes a move.
def scenario_d7_flicker_after_boot(tmp):
    for run in (3, 4, 5):
        h = Hand(9)
        h.scans(3)  # the boot vote
        h.put("D4", BLACK)  # a misreading lasting `run` scans
        h.scans(run)
        h.lift("D4")
        h.wait_ms(500)
        assert h.ref.board.moves == 0, "a %d-scan flicker after boot became a move" % run


# D8: a stone bumped during counting is not a move, nor marked dead.
def scenario_d8_bump_while_counting(tmp):
    for occupancy in (False, True):
        h = Hand(9, occupancy=occupancy)
        h.settle()
        _wall_game(h)
        assert h.ref.phase == "count" and h.ref.to_move() == BLACK
        n = h.ref.board.moves
        h.lift("E3")  # Black's stone knocked to D3 ...
        h.put("D3", BLACK)
        h.settle()
        assert h.ref.phase == "count" and h.ref.board.moves == n, h.ref.status()
        assert h.colour_at("E3") == fr.PUT_BLACK and h.colour_at("D3") == fr.REMOVE
        h.follow()
        h.settle()
        assert h.ref.outstanding() == 0 and h.ref.phase == "count"
        assert h.code("E3") == fr.OFF, "the bumped chain was marked dead"


# D9: a slow person: an illegal stone left over stuck_ms is asked about,
# never turned into a fault on its own, and play never goes on around it.
def scenario_d9_slow_illegal_stone(tmp):
    h = Hand(9, stuck_ms=2000)
    h.settle()
    h.moves("E5 A2 E6 B1")
    h.put("A1", BLACK)  # suicide
    h.settle()
    h.wait_ms(3000)
    assert h.code("A1") == fr.ILLEGAL | fr.FAST, "the illegal stone is no longer shown"
    h.put("J9", BLACK)  # play goes on?  Not with an illegal stone standing
    h.settle()
    assert h.ref.board.moves == 4
    h.lift("J9")
    h.lift("A1")
    h.settle()
    assert h.ref.outstanding() == 0 and not h.lit(fr.FAULT)
    h.play("J9")
    assert h.ref.board.moves == 5


# D10: New mid-game asks first and keeps the game.
def scenario_d10_new_keeps_the_game(tmp):
    d = _fresh(tmp + "/d10")
    h = Hand(9, journal=jn.Journal(d))
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5 D4 C3")
    h.press(BTN_NEW)
    assert h.ref.board.moves == 3, "New threw the game away at once"
    assert any("Confirm" in t for k, t in h.events("prompt"))
    h.press(BTN_PASS)  # anything but Confirm (here White passes): no new game
    assert h.ref.board.moves == 4
    h.press(BTN_NEW)
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 0 and h.ref.phase in ("setup", "play")
    names = jn.game_names(d)
    assert names == ["0001.sgf"], names
    with open(d + "/0001.sgf") as f:
        text = f.read()
    assert text.count(";B[") == 2 and text.count(";W[") == 2 and "W[]" in text, text
    assert "RE[" not in text
    # New with no move played starts over at once; left unconfirmed it lapses.
    h.follow()
    h.press(BTN_NEW)
    assert h.events("new-game")
    h.moves("E5")
    h.press(BTN_NEW)
    h.wait_ms(h.config.confirm_ms + 100)
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 1 and jn.game_names(d) == ["0001.sgf"]


# D11: the damage alert ends once the board is ready (and with a new game).
def scenario_d11_damage_alert_ends(tmp):
    d = _fresh(tmp + "/d11")
    h = Hand(9, journal=jn.Journal(d))
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5 D4")
    with open(d + "/" + jn.NAME, "ab") as f:
        f.write(b"\xa4\x01")  # half a record: the cut came mid-write
    h2, report = _reboot(h)
    assert "damaged" in report
    assert h2.ref.phase == "resume"
    assert h2.status_pixel(fr.STATUS_ALERT) == fr.ILLEGAL | fr.BLINK
    h2.follow()
    assert h2.ref.phase == "play"
    assert h2.status_pixel(fr.STATUS_ALERT) == fr.OFF, "the damage alert outlived the resume"
    h2.put("C3", BLACK)
    h2.put("G3", BLACK)  # two stones: the prompt alert shows, not the damage one
    h2.settle()
    assert h2.status_pixel(fr.STATUS_ALERT) == fr.INFO | fr.DIM


# D12: take-back of a capture shows the take-back all the way; Confirm after
# a pass does not undo it.
def scenario_d12_takeback_lights_and_pass(tmp):
    h = Hand(9)
    h.settle()
    # White E5 E6 surrounded; Black E7 takes both.
    h.moves("D5 E5 F5 E6 D6 J9 F6 J8 E4 J7 E7")
    assert h.ref.board.last_captures == 2
    h.lift("E7")
    h.settle()
    h.put("E5", WHITE)
    h.settle()
    assert h.code("E7") != fr.PUT_BLACK | fr.BLINK, "the last stone asks to be put back"
    assert h.colour_at("E5") != fr.REMOVE, "a prisoner put back asks to be lifted"
    h.put("E6", WHITE)
    h.settle()
    texts = [t for k, t in h.events()]
    assert not any("new stones" in t for t in texts), texts
    assert h.colour_at("E5") == fr.OFF and h.colour_at("E6") == fr.OFF
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 10 and h.events("undo")
    h.press(BTN_PASS)
    assert h.ref.board.moves == 11
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 11, "Confirm undid the pass"


# D13: the last stone knocked off or slid asks to be put back; a slide onto
# a point just cleared of a prisoner is not a take-back.
def scenario_d13_last_stone_bumped(tmp):
    for occupancy in (False, True):
        h = Hand(9, occupancy=occupancy)
        h.settle()
        h.moves("C3 G7 D4")
        h.lift("D4")  # slid to D5
        h.put("D5", BLACK)
        h.settle()
        assert h.colour_at("D4") == fr.PUT_BLACK and h.colour_at("D5") == fr.REMOVE
        h.press(BTN_CONFIRM)
        assert h.ref.board.moves == 3, "a slid last stone was taken back"
        h.follow()
        assert h.ref.outstanding() == 0
    h = Hand(9, occupancy=True)
    h.settle()
    h.moves("D5 E5 F5 J9 E4 J8 E6")  # E6 takes E5
    h.lift("E5")
    h.settle()
    h.lift("E6")  # the capturing stone knocked onto E5
    h.put("E5")
    h.settle()
    assert h.colour_at("E6") == fr.PUT_BLACK, "the slid stone's point is not asked back"
    assert h.colour_at("E5") == fr.REMOVE
    h.follow()
    h.settle()
    assert h.ref.outstanding() == 0 and h.ref.board.moves == 7


if __name__ == "__main__":
    # Against another firmware (see tests/test_referee_scenarios.py).
    import sys
    failed = 0
    for name in sorted(globals()):
        if name.startswith("scenario_"):
            try:
                globals()[name](_fresh("/tmp/gogadget-defects"))
                print("PASS", name)
            except Exception as exc:
                failed += 1
                print("FAIL", name, repr(exc)[:150])
    sys.exit(1 if failed else 0)
