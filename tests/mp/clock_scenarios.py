"""The game clock on the referee, with the scan clock as the scripted clock
(fakehand.Hand: one scan every 10 ms of `h.t`).  Plain asserts, for CPython
and the MicroPython unix port (tests/test_referee_scenarios.py runs them
both ways).  docs/CLOCK.md is the behaviour they check.

Times are read in whole milliseconds.  A move reaches the referee a few
scans after the stone lands (the debounce), so a player's charge is
checked to within SLACK of the time the hand script waited.
"""
from gogadget import clockio
from gogadget import frame as fr
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.clock import Clock, SYSTEMS
from gogadget.compat import ticks_add
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW
from gogadget.points import BLACK, WHITE

from fakehand import Hand
from referee_scenarios import _fresh

# clock.py's private consts (inlined there: no names on the board)
ABSOLUTE, FISCHER, BYOYOMI, CANADIAN = (SYSTEMS.index(n) for n in (
    "absolute", "fischer", "byoyomi", "canadian"))
CH_PERIOD = 2  # tick()'s bits: a period used up, a flag fallen
CH_FLAG = 4
MOVING = 4  # Clock._state's slot: the colour whose move is not yet complete

SLACK = 600  # ms: the settle delays of a move or two (about 300 ms each here), with room


def _near(got, want, what=""):
    assert want - SLACK <= got <= want + SLACK, "%s: %d ms, expected about %d" % (what, got, want)


def _clocked(**tc):
    h = Hand(9, **tc)
    h.settle()
    return h


def _left(h, c):
    return h.ref.clock.left(c)


def scenario_clock_switching_absolute(tmp):
    h = _clocked(time_control="absolute", main_time=60)
    clock = h.ref.clock
    h.wait_ms(5000)
    assert not clock.started and _left(h, BLACK) == 60000, "nobody's time runs before the first move"
    h.moves("E5")  # the first stone starts White's clock
    assert clock.running == WHITE
    h.wait_ms(7000)
    _near(_left(h, WHITE), 53000, "white thought 7 s")
    assert _left(h, BLACK) == 60000
    h.moves("C3")
    assert clock.running == BLACK
    h.wait_ms(3000)
    _near(_left(h, BLACK), 57000, "black thought 3 s")
    w = _left(h, WHITE)
    h.press(BTN_PASS)  # a pass switches
    assert clock.running == WHITE
    h.wait_ms(2000)
    _near(_left(h, WHITE), w - 2000, "white after black's pass")
    assert "clock absolute B 0:5" in h.ref.status()


def scenario_clock_byoyomi_periods(tmp):
    h = _clocked(time_control="byoyomi", main_time=15, period_time=10, periods=3)
    clock = h.ref.clock
    h.moves("E5")
    h.wait_ms(4000)
    h.moves("C3")  # white in main time still
    assert clock.overtime(WHITE) == 0 and clock.main[WHITE] > 0
    h.moves("D4")
    h.wait_ms(13000)  # white's last 11 s or so of main time, then 2 s of the first period
    assert clock.overtime(WHITE) == 3 and clock.main[WHITE] == 0
    _near(clock.period[WHITE], 8000, "2 s into the first period")
    h.moves("C4")  # a move inside a period keeps it: back to a full 10 s
    assert clock.period[WHITE] == 10000 and clock.overtime(WHITE) == 3
    h.moves("D5")
    h.events()
    h.wait_ms(10000 + 3000)  # one period used, 3 s into the next
    assert clock.overtime(WHITE) == 2
    assert [e for e in h.events("clock") if "period used, 2 left" in e[1]]
    # the last 10 s: the turn light blinks fast
    assert h.status_pixel(fr.STATUS_TURN) == fr.PUT_WHITE | fr.FAST
    h.moves("C5")
    assert h.status_pixel(fr.STATUS_TURN) == fr.PUT_BLACK, "black has main time left"


def scenario_clock_period_light_shows_briefly(tmp):
    h = _clocked(time_control="byoyomi", main_time=1, period_time=5, periods=3)
    h.moves("E5")
    h.wait_ms(1000 + 5000 + 500)
    assert h.status_pixel(fr.STATUS_PHASE) == fr.PUT_WHITE | fr.FAST
    h.wait_ms(2500)
    assert h.status_pixel(fr.STATUS_PHASE) != fr.PUT_WHITE | fr.FAST


def scenario_clock_canadian_stones(tmp):
    h = _clocked(time_control="canadian", main_time=2, period_time=20, stones_per_period=3)
    clock = h.ref.clock
    h.moves("E5")
    h.wait_ms(2500)  # white's main time is over: 3 stones in 20 s
    assert clock.overtime(WHITE) == 3
    h.moves("C3")
    assert clock.overtime(WHITE) == 2
    _near(clock.period[WHITE], 19500, "the period does not restart per stone")
    h.moves("D4")
    h.wait_ms(5000)
    h.moves("C4 D5")
    h.wait_ms(3000)
    h.moves("C5")  # the third stone: a new period, full
    assert clock.overtime(WHITE) == 3 and clock.period[WHITE] == 20000
    assert "/3" in clockio.text(clock, WHITE)
    h.moves("D6")
    h.wait_ms(21000)  # the period runs out with stones to play
    assert h.ref.result == "B+T" and h.ref.phase == "over"
    assert clock.flagged == WHITE


def scenario_clock_fischer_increment(tmp):
    h = _clocked(time_control="fischer", main_time=30, time_increment=5, max_time=40)
    clock = h.ref.clock
    h.moves("E5")
    h.wait_ms(2000)
    h.moves("C3")
    _near(_left(h, WHITE), 33000, "30 - 2 + 5")
    h.moves("D4 C4 D5 C5")
    assert _left(h, WHITE) == 40000, "capped at max_time"


def scenario_clock_time_loss_ends_game(tmp):
    d = _fresh(tmp + "/loss")
    h = Hand(9, journal=jn.Journal(d), time_control="absolute", main_time=3)
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5 C3")
    h.wait_ms(3500)
    assert h.ref.phase == "over" and h.ref.result == "W+T"
    assert h.events("time") == [("time", "B out of time")]
    h.put("D4")
    h.settle()
    assert h.ref.board.moves == 2, "no move after the game ended on time"
    # the journal says so after a power cut
    h2 = Hand(9, journal=jn.Journal(d), time_control="absolute", main_time=3)
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    assert h2.ref.result == "W+T"
    assert "W+T" in open(d + "/0001.sgf").read()


def scenario_clock_time_loss_play_on(tmp):
    h = _clocked(time_control="absolute", main_time=3, play_on_time_out=True)
    h.moves("E5 C3")
    h.wait_ms(3500)
    assert h.ref.phase == "play" and h.ref.result == ""
    assert h.ref.clock.flagged == BLACK and "B out of time" in h.ref.status()
    assert h.status_pixel(fr.STATUS_ALERT) == fr.ILLEGAL | fr.FAST
    w = _left(h, WHITE)
    h.moves("D4")
    assert h.ref.board.moves == 3
    h.wait_ms(2000)
    _near(_left(h, WHITE), w - 2000, "white's clock still runs")
    h.moves("C4")
    h.wait_ms(2000)
    assert _left(h, BLACK) == 0 and h.ref.clock.running == 0


def scenario_clock_stops_while_the_board_asks(tmp):
    h = _clocked(time_control="absolute", main_time=600)
    clock = h.ref.clock
    h.moves("E4 E5 D5 F4 F5 E6")
    w = _left(h, WHITE)
    h.lift("D5")  # a stone of the game knocked off: the lights ask for it back
    h.settle()
    assert h.ref.outstanding() and clock.running == 0, h.ref.status()
    b = _left(h, BLACK)
    h.wait_ms(5000)
    assert _left(h, BLACK) == b and _left(h, WHITE) == w, "nobody's time runs while it asks"
    h.follow()
    assert clock.running == BLACK
    # a take-back in progress: nobody's time
    h.moves("A1")  # black
    h.lift("A1")
    h.settle()
    b = _left(h, BLACK)
    w = _left(h, WHITE)
    h.wait_ms(4000)
    assert _left(h, BLACK) == b and _left(h, WHITE) == w, "take-back asked: no time runs"
    h.put("A1", BLACK)
    h.settle()
    assert clock.running == WHITE
    # an illegal stone (a wrong colour) stops it too
    h.put("J9", BLACK)
    h.settle()
    assert h.ref.outstanding() and clock.running == 0
    h.wait_ms(3000)
    assert _left(h, WHITE) <= w and _left(h, WHITE) >= w - SLACK
    h.lift("J9")
    h.settle()
    assert clock.running == WHITE


def scenario_clock_mover_lifts_prisoners_on_own_time(tmp):
    h = _clocked(time_control="absolute", main_time=600)
    clock = h.ref.clock
    h.moves("E4 E5 D5 J9 F5 J8")
    b = _left(h, BLACK)
    h.play("E6", tidy=False)  # captures E5: the prisoner is still down
    assert h.ref.board.moves == 7 and clock.running == BLACK, "lifting prisoners is the move's"
    w = _left(h, WHITE)
    h.wait_ms(3000)
    _near(_left(h, BLACK), b - 3000, "black lifting")
    assert _left(h, WHITE) == w
    h.follow()  # the prisoner lifted: now white's time
    assert clock.running == WHITE


def scenario_clock_handicap_first_stone_starts_it(tmp):
    h = _clocked(time_control="absolute", main_time=60, handicap=2)
    h.follow()
    assert h.ref.phase == "play" and h.ref.to_move() == WHITE
    h.wait_ms(3000)
    assert not h.ref.clock.started and _left(h, WHITE) == 60000
    h.moves("E5")  # white's first stone after the set-up starts black's clock
    assert h.ref.clock.running == BLACK and _left(h, WHITE) == 60000


def scenario_clock_take_back_gives_no_time(tmp):
    h = _clocked(time_control="fischer", main_time=60, time_increment=10)
    clock = h.ref.clock
    h.moves("E5 C3")
    h.wait_ms(5000)
    before = _left(h, BLACK)
    h.moves("D4")  # +10 s
    _near(_left(h, BLACK), before + 10000, "increment")
    h.lift("D4")
    h.settle()
    h.press(BTN_CONFIRM)
    assert h.ref.board.moves == 2 and h.events("undo")
    _near(_left(h, BLACK), before, "the increment goes with the move; the time taken stays spent")
    assert _left(h, BLACK) <= before


def scenario_clock_power_cut_pauses(tmp):
    d = _fresh(tmp + "/cut")
    tc = dict(time_control="byoyomi", main_time=20, period_time=10, periods=5)
    h = Hand(9, journal=jn.Journal(d), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5")
    h.wait_ms(12000)
    h.moves("C3")
    h.wait_ms(33000)  # black: main over, one period used, 3 s into the next
    b = _left(h, BLACK)
    w = _left(h, WHITE)
    n = h.ref.clock.overtime(BLACK)
    assert n == 4
    # power cut: times as last journalled (each move, and every 10 s of a running clock)
    h2 = Hand(9, journal=jn.Journal(d), **tc)
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    clock = h2.ref.clock
    assert clock.paused and clock.running == 0
    _near(clock.left(WHITE), w, "white as journalled at its move")
    assert clock.overtime(BLACK) == n
    assert b <= clock.left(BLACK) <= 10000, "black within 10 s of the cut"
    h2.settle()
    h2.follow()
    assert h2.ref.phase == "play" and clock.running == 0, "paused until Confirm"
    assert h2.status_pixel(fr.STATUS_TURN) == fr.PUT_BLACK | fr.BLINK
    b2 = clock.left(BLACK)
    w2 = clock.left(WHITE)
    h2.wait_ms(5000)
    assert clock.left(BLACK) == b2
    h2.moves("D4 F6")  # moves before Confirm: the clock stays paused, nobody is charged
    assert clock.paused and clock.running == 0 and h2.ref.board.moves == 4
    assert clock.left(WHITE) == w2
    b2 = clock.left(BLACK)  # (a move in a period keeps it: black's period is full again)
    h2.press(BTN_CONFIRM)
    assert clock.running == BLACK and not clock.paused
    h2.wait_ms(2000)
    _near(clock.left(BLACK), b2 - 2000, "running again")


def scenario_clock_none_loads_nothing(tmp):
    h = Hand(9)
    h.settle()
    h.moves("E5 C3")
    assert h.ref.clock is None and "clock" not in h.ref.status()


def scenario_clock_pure_logic(tmp):
    # Straight on the Clock, with a tick counter near its wrap.
    t = ticks_add(0, -3000)
    c = Clock(BYOYOMI, 1000, 2000, 2)
    c.run(BLACK, t)
    t = ticks_add(t, 2500)
    assert c.tick(t) & CH_PERIOD == 0 and c.overtime(BLACK) == 2 and c.period[BLACK] == 500
    t = ticks_add(t, 600)
    assert c.tick(t) & CH_PERIOD and c.overtime(BLACK) == 1
    t = ticks_add(t, 2000)
    assert c.tick(t) & CH_FLAG and c.flagged == BLACK and c.running == 0
    c = Clock(CANADIAN, 0, 1000, stones=2)
    c.run(WHITE, 0)
    c.moved(WHITE, 300)
    c.moved(WHITE, 600)
    assert c.count[WHITE] == 2 and c.period[WHITE] == 1000
    c = Clock(ABSOLUTE, 5000)
    c.run(BLACK, 0)
    c.tick(4999)
    assert c.left(BLACK) == 1 and not c.flagged
    c = Clock(FISCHER, 5000, inc_ms=1000)
    c.run(WHITE, 100)
    c.moved(WHITE, 1100)
    assert c.left(WHITE) == 5000
    assert c.take_back(WHITE) and c.left(WHITE) == 4000
    # the record round trip
    c = Clock(BYOYOMI, 0, 30000, 5)
    c.run(BLACK, 0)
    c.tick(45000)
    rec = c.record(BLACK)
    d = Clock(BYOYOMI, 0, 30000, 5)
    clockio.restore(d, *jr.decode(rec, 0)[1:])
    assert d.left(BLACK) == c.left(BLACK) == 15000 and d.overtime(BLACK) == 4


def scenario_clock_tick_allocates_nothing(tmp):
    import sys
    if sys.implementation.name != "micropython":
        return  # heap_lock is MicroPython's
    import micropython
    h = _clocked(time_control="byoyomi", main_time=1, period_time=100, periods=3)
    h.moves("E5")
    h.wait_ms(1500)  # in the period: nothing changes in the next 3 s
    clock = h.ref.clock
    scan = h.scan
    ref = h.ref
    t = h.t
    res = "?"
    micropython.heap_lock()
    try:
        for _ in range(300):
            t += 10
            ref.update(scan, t)
        res = "ok"
    except MemoryError:
        res = "allocated"
    micropython.heap_unlock()
    assert res == "ok", "a running clock's scan allocated"
    assert clock.running == WHITE and clock.main[WHITE] == 0


def scenario_clock_time_out_found_by_a_button(tmp):
    # Time runs out between two scans and a button is what looks first.
    h = _clocked(time_control="absolute", main_time=3)
    h.moves("E5 C3")
    h.ref.press(BTN_PASS, h.t + 3500)
    h.drain()
    assert h.ref.result == "W+T" and h.events("time") == [("time", "B out of time")], \
        h.ref.status()
    assert h.ref.board.moves == 2, "the pass came after the flag fell: not played"


def _cut(d, **tc):
    """The board after a power cut: the config file's settings, the journal's game."""
    h = Hand(9, journal=jn.Journal(d), **tc)
    records, report = jr.load(h.ref.journal)
    h.ref.resume(records, report, h.t)
    return h


def scenario_clock_gtp_time_control_survives_a_power_cut(tmp):
    # The config file says byo-yomi; GTP sets Canadian (clockgtp, as
    # kgs-time_settings does): after a cut the game is on GTP's clock.
    from gogadget import clockgtp
    d = _fresh(tmp + "/gtpcut")
    tc = dict(time_control="byoyomi", main_time=600, period_time=30, periods=5)
    h = Hand(9, journal=jn.Journal(d), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5")
    clockgtp.gtp_settings(h.ref, "kgs-time_settings", ["canadian", "20", "60", "10"])
    h.moves("C3")  # the clocks restarted full: this move starts black's
    h.wait_ms(5000)
    h.moves("D4")
    b = _left(h, BLACK)
    _near(b, 15000, "black: 20 - 5 s")
    h2 = _cut(d, **tc)
    clock = h2.ref.clock
    assert clock.system == CANADIAN and h2.config.time_control == "canadian", \
        "GTP's time control is the journal's"
    assert (clock.main_ms, clock.period_ms, clock.periods) == (20000, 60000, 10)
    assert clock.left(BLACK) == b and clock.paused
    # A new game keeps GTP's time control (the config in memory), and its
    # header journals it: the next cut finds it too.
    h2.settle()
    h2.follow()
    h2.press(BTN_NEW)
    h2.press(BTN_CONFIRM)
    assert h2.ref.board.moves == 0 and h2.ref.clock.system == CANADIAN
    h2.settle()
    h2.follow()
    h2.moves("E5")
    h3 = _cut(d, **tc)
    assert h3.ref.clock is not None and h3.ref.clock.system == CANADIAN
    # GTP's "none" over the file's byo-yomi: no clock after a cut either.
    clockgtp.gtp_settings(h3.ref, "kgs-time_settings", ["none"])
    assert h3.ref.clock is None
    h4 = _cut(d, **tc)
    assert h4.ref.clock is None and h4.config.time_control == "none"


def scenario_clock_gtp_time_left_survives_a_power_cut(tmp):
    from gogadget import clockgtp
    d = _fresh(tmp + "/leftcut")
    tc = dict(time_control="byoyomi", main_time=600, period_time=30, periods=5)
    h = Hand(9, journal=jn.Journal(d), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    h.moves("E5")
    clockgtp.gtp_time_left(h.ref, WHITE, 25, 3)
    h2 = _cut(d, **tc)
    assert h2.ref.clock.left(WHITE) == 25000 and h2.ref.clock.overtime(WHITE) == 3


def scenario_clock_engine_move_ends_when_the_board_accepts_it(tmp):
    # An engine plays Black: its move comes off the board (external_move) and
    # captures.  Its clock stops then; placing its stone and lifting its
    # prisoner is the board asking: nobody's time (docs/CLOCK.md).
    h = _clocked(time_control="fischer", main_time=600, time_increment=10)
    clock = h.ref.clock
    h.moves("E4 E5 D5 J9 F5 J8")
    h.wait_ms(2000)  # the engine thinks on its own time
    b = _left(h, BLACK)
    w = _left(h, WHITE)
    assert h.ref.external_move(BLACK, h.pt("E6")) == 0
    assert clock.running == 0 and clock._state[MOVING] == 0, "complete when accepted"
    assert _left(h, BLACK) == b + 10000, "its increment is earned at once"
    h.wait_ms(3000)  # the person has not placed it yet
    assert _left(h, BLACK) == b + 10000 and _left(h, WHITE) == w
    h.put("E6", BLACK)
    h.settle()
    assert h.ref.outstanding() == 1, "the prisoner is still down"
    assert clock.running == 0, "the engine's clock does not run while its prisoner is lifted"
    h.wait_ms(3000)
    assert _left(h, BLACK) == b + 10000 and _left(h, WHITE) == w
    h.lift("E5")
    h.settle()
    assert clock.running == WHITE and not h.ref.outstanding()
    h.wait_ms(2000)
    _near(_left(h, WHITE), w - 2000, "the person's time runs once the board shows the move")
    assert _left(h, BLACK) == b + 10000
    # The record has the engine's time left as the board accepted its move.
    assert clock.secs[6] == (b + 10000 + 999) // 1000


def scenario_clock_remote_display_counts_down_without_charging(tmp):
    # A remote player's clock on this board: their figure, counted down for
    # the eye while their board says it runs (Clock.display), through main
    # time and the byo-yomi periods; nothing is charged.
    class Log:
        started = False

    class Board:
        moves = 0  # no move yet: their figure is no move's record

    class Ref:
        remote = WHITE
        now = 5000
        dirty = False
        journal = None
        log = Log()
        board = Board()

    c = Clock(BYOYOMI, 2000, 3000, 2)
    ref = Ref()
    c.remote_turn = True
    c.theirs(ref, 2000, 0, True)
    assert c.display(WHITE, 6500) == 500 and c.seen[1] == 0
    assert c.display(WHITE, 8000) == 2000 and c.seen[1] == 2, "1 s into the first period"
    assert c.display(WHITE, 10500) == 2500 and c.seen[1] == 1, "the second period"
    assert c.display(WHITE, 20000) == 0 and c.seen[1] == 0
    assert c.left(WHITE) == 2000 and c.running == 0 and not c.flagged, "nothing charged"
    assert "W 0:03 x1" in clockio.status(c, 10500) and "W 0:02" in clockio.status(c)
    c.remote_turn = False  # their move is here: their next figure, as it is
    assert c.display(WHITE, 20000) == 2000
    c.remote_turn = True
    c.theirs(ref, 1500, 2, False, 700)  # their board asks: no count-down
    assert c.display(WHITE, 30000) == 1500 and "W took 1 s there" in clockio.status(c, 30000)
    import sys
    if sys.implementation.name == "micropython":
        import micropython
        c.theirs(ref, 2000, 0, True)
        res = "?"
        micropython.heap_lock()
        try:
            for t in range(5000, 9000, 10):
                c.display(WHITE, t)
            res = "ok"
        except MemoryError:
            res = "allocated"
        micropython.heap_unlock()
        assert res == "ok", "the display allocated"


def resumed_twice(tmp):
    """A byo-yomi game cut twice (the journal read back each time), with
    an engine's move and a move in overtime: (the board's Hand, the
    mover's ms left after each move as the live clock had it)."""
    d = _fresh(tmp)
    tc = dict(time_control="byoyomi", main_time=20, period_time=10, periods=3)
    h = Hand(9, journal=jn.Journal(d), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    left = []

    def moved(hand):
        c = hand.ref.board.move(hand.ref.board.moves - 1)[0]
        left.append((hand.ref.clock.left(c), hand.ref.clock.overtime(c)))

    h.moves("E5")
    moved(h)
    for v, ms in (("C3", 4000), ("D4", 6000)):
        h.wait_ms(ms)
        h.moves(v)
        moved(h)
    for n in range(2):
        h = _cut(d, **tc)
        assert h.ref.clock.paused
        h.settle()
        h.follow()
        h.press(BTN_CONFIRM)
        assert h.ref.clock.running == h.ref.board.to_move()
        h.wait_ms(3000)
        # an engine's move (the host relays it), then a person's
        c = h.ref.board.to_move()
        assert h.ref.external_move(c, h.pt("F6" if n == 0 else "G3")) == 0
        moved(h)
        h.follow()
        h.wait_ms(2000 if n == 0 else 26000)  # (the second: into overtime)
        h.moves("F4" if n == 0 else "G7")
        moved(h)
    return h, left


def scenario_clock_record_survives_two_resumes(tmp):
    # Every move's BL/WL (OB/OW in overtime) is journalled with it: a game
    # resumed twice keeps the time record of the moves before each cut.
    h, left = resumed_twice(tmp + "/twice")
    text = h.ref.sgf()
    body = text[text.index(";B["):]
    nodes = body.replace("\n", "").replace(")", "").split(";")[1:]
    assert len(nodes) == len(left) == 7, text
    for i, (node, (ms, n)) in enumerate(zip(nodes, left)):
        c = "B" if i % 2 == 0 else "W"
        want = "%sL[%d]" % (c, (ms + 999) // 1000) + ("O%s[%d]" % (c, n) if n else "")
        assert node.endswith(want), "move %d: %s, expected %s in %s" % (i + 1, node, want, text)
    assert left[-1][1], "the last move was made in overtime"
