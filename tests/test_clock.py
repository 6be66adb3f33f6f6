"""The game clock's record and settings (the referee scenarios are in
tests/mp/clock_scenarios.py): SGF TM/OT and BL/WL, OB/OW read back by
sgfmill (an independent reader), and the config's limits."""
import sys

import pytest
from sgfmill import sgf as msgf

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
from fakehand import Hand  # noqa: E402
from gogadget import journal as jn  # noqa: E402
from gogadget import journalread as jr  # noqa: E402
from gogadget.config import Config  # noqa: E402
from gogadget.events import BTN_PASS  # noqa: E402
from gogadget.points import BLACK, WHITE, parse_vertex  # noqa: E402


def _game(tmp_path, **tc):
    h = Hand(9, journal=jn.Journal(str(tmp_path)), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    return h


def test_byoyomi_game_record_read_by_sgfmill(tmp_path):
    h = _game(tmp_path, time_control="byoyomi", main_time=10, period_time=30, periods=5)
    h.moves("E5")
    h.wait_ms(4000)
    h.moves("C3")  # white: 10 - 4 s
    h.wait_ms(25000)
    h.moves("D4")  # black: main over, 15 s into the first period, which it keeps
    h.press(BTN_PASS)  # white passes at once
    game = msgf.Sgf_game.from_string(h.ref.sgf())
    root = game.get_root()
    assert root.get("TM") == 10 and root.get("OT") == "5x30 byo-yomi"
    nodes = game.get_main_sequence()[1:]
    assert [n.get_move()[0] for n in nodes] == ["b", "w", "b", "w"]
    assert nodes[0].get("BL") == 10 and not nodes[0].has_property("OB")
    assert 5 <= nodes[1].get("WL") <= 6 and not nodes[1].has_property("OW")
    assert nodes[2].get("BL") == 30 and nodes[2].get("OB") == 5, "a move inside a period keeps it"
    assert nodes[3].get("WL") == nodes[1].get("WL")


def test_canadian_and_time_loss_in_the_kept_record(tmp_path):
    h = _game(tmp_path, time_control="canadian", main_time=0, period_time=60,
              stones_per_period=10)
    h.moves("E5 C3 D4")
    h.wait_ms(61000)  # white's period runs out
    assert h.ref.result == "B+T"
    game = msgf.Sgf_game.from_bytes(open(str(tmp_path / "0001.sgf"), "rb").read())
    root = game.get_root()
    assert root.get("RE") == "B+T" and root.get("TM") == 0 and root.get("OT") == "10/60 Canadian"
    nodes = game.get_main_sequence()[1:]
    assert nodes[1].get("OW") == 9 and 59 <= nodes[1].get("WL") <= 60
    assert nodes[2].get("OB") == 8, "black's second stone of the period"


def test_fischer_root_and_no_overtime_counts(tmp_path):
    h = _game(tmp_path, time_control="fischer", main_time=300, time_increment=20)
    h.moves("E5 C3")
    game = msgf.Sgf_game.from_string(h.ref.sgf())
    assert game.get_root().get("OT") == "20 fischer"
    b = game.get_main_sequence()[1]
    assert b.get("BL") == 320 and not b.has_property("OB")


def test_no_clock_no_time_properties(tmp_path):
    h = _game(tmp_path)
    h.moves("E5 C3")
    text = h.ref.sgf()
    assert "TM[" not in text and "BL[" not in text and "OT[" not in text


@pytest.mark.parametrize("settings,word", [
    (dict(time_control="hourglass"), "time_control"),
    (dict(time_control="byoyomi", main_time=60), "byoyomi needs"),
    (dict(time_control="canadian", period_time=60), "canadian needs"),
    (dict(time_control="absolute"), "absolute needs"),
    (dict(time_control="absolute", main_time=70000), "main_time"),
    (dict(time_control="byoyomi", period_time=30, periods=256), "periods"),
    (dict(time_control="absolute", main_time=60, play_on_time_out=1), "play_on_time_out"),
])
def test_config_refuses_a_bad_time_control(settings, word):
    with pytest.raises(ValueError, match=word):
        Config(**settings).validate()


def test_config_time_control_round_trip(tmp_path):
    path = str(tmp_path / "config.json")
    Config(time_control="canadian", main_time=600, period_time=300,
           stones_per_period=25).save(path)
    c = Config.load(path)
    assert (c.time_control, c.main_time, c.period_time, c.stones_per_period) == (
        "canadian", 600, 300, 25)


def test_a_journalled_clock_survives_other_colours():
    from gogadget import clockio
    from gogadget.clock import Clock, SYSTEMS
    CANADIAN = SYSTEMS.index("canadian")
    c = Clock(CANADIAN, 0, 300000, stones=25)
    c.run(WHITE, 0)
    c.moved(WHITE, 1000)
    rec = jr.decode(c.record(WHITE), 0)
    d = Clock(CANADIAN, 0, 300000, stones=25)
    clockio.restore(d, *rec[1:])
    assert d.left(WHITE) == 299000 and d.overtime(WHITE) == 24 and d.left(BLACK) == 300000


def test_resumed_twice_every_move_keeps_its_time_read_by_sgfmill(tmp_path):
    """Issue 35, finding 3: a game resumed (from its journal) twice still
    has BL/WL (and OB/OW in overtime) for every move, as the live clock had
    them when each move was complete."""
    from clock_scenarios import resumed_twice
    h, left = resumed_twice(str(tmp_path))
    game = msgf.Sgf_game.from_string(h.ref.sgf())
    nodes = game.get_main_sequence()[1:]
    assert len(nodes) == len(left) == 7
    for i, (node, (ms, n)) in enumerate(zip(nodes, left)):
        c = "B" if node.get_move()[0] == "b" else "W"
        assert node.get(c + "L") == (ms + 999) // 1000, "move %d" % (i + 1)
        assert node.get("O" + c) == n if n else not node.has_property("O" + c), "move %d" % (i + 1)


# A journal written by the firmware before moves' times were marked (main
# at c7bb464): byo-yomi 20 s + 3 x 10 s, B E5, W C3 after 4 s, B D4 after
# 6 s, an engine's W F6 after 2.5 s, B G7 after 27 s (in overtime); and the
# moves of the record that firmware kept of it before any cut.
OLD_JOURNAL = (
    "a1090f80000700f8a20380000800002fa90001000000007ca40136000000006aaa01204e00000363a402200000"
    "000068aa025e3d000003dcaa01d2370000033aa4012b00000000acaa01523500000381a4024100000000a6aa02"
    "643200000385aa01bc1b000003e2aa05bc1b00000346aa05102700000265aa05bc1b00000241a4014c000000"
    "0029aa05102700000265")
OLD_RECORD = ";B[ee]BL[20];W[cg]WL[16];B[df]BL[14];W[fd]WL[13];B[gc]BL[10]OB[2])"


def test_an_old_firmwares_journal_resumes_with_its_time_record(tmp_path):
    import binascii
    (tmp_path / jn.NAME).write_bytes(binascii.unhexlify(OLD_JOURNAL))
    h = Hand(9, journal=jn.Journal(str(tmp_path)), time_control="byoyomi", main_time=20,
             period_time=10, periods=3)
    records, report = jr.load(h.ref.journal)
    h.ref.resume(records, report, h.t)
    assert report == "" and h.ref.board.moves == 5
    c = h.ref.clock
    assert (c.left(BLACK), c.overtime(BLACK), c.left(WHITE)) == (10000, 2, 12900)
    text = h.ref.sgf()
    assert text[text.index(";B["):].replace("\n", "").strip() == OLD_RECORD, text


# -- GTP ------------------------------------------------------------------------

def _link(**tc):
    from gogadget.link import Link
    from fake_referee import FakeStream
    h = Hand(9, **tc)
    h.settle()
    return h, Link(h.ref, FakeStream())


def _answer(lk, line):
    text = lk.handle(line)
    return text[0] == "=", text[1:].strip()


def test_gtp_time_settings_set_the_boards_clock():
    h, lk = _link()
    assert _answer(lk, "gogadget-clock") == (True, "none")
    assert _answer(lk, "time_settings 300 30 5")[0]
    assert h.config.time_control == "canadian" and h.ref.clock.periods == 5
    assert _answer(lk, "gogadget-clock") == (True, "canadian 300 30 5 - 0 - 300000 0 300000 0")
    assert _answer(lk, "time_settings 600 0 0")[0]
    assert h.config.time_control == "absolute" and h.ref.clock.left(BLACK) == 600000
    assert _answer(lk, "time_settings 600 30 0")[0] and h.ref.clock is None, "no limit"
    assert _answer(lk, "kgs-time_settings byoyomi 60 10 3")[0]
    assert (h.config.time_control, h.config.periods, h.config.period_time) == ("byoyomi", 3, 10)
    assert _answer(lk, "kgs-time_settings none")[0] and h.ref.clock is None
    assert _answer(lk, "kgs-time_settings canadian 0 300 25")[0]
    assert h.ref.clock.overtime(WHITE) == 25
    ok, text = _answer(lk, "kgs-time_settings hourglass 60")
    assert not ok and "expected none, absolute" in text
    ok, text = _answer(lk, "time_settings 60 -1 0")
    assert not ok and h.config.time_control == "canadian", "a refused setting changes nothing"


def test_gtp_time_left_sets_one_colour():
    h, lk = _link(time_control="byoyomi", main_time=60, period_time=30, periods=5)
    assert _answer(lk, "time_left w 25 3")[0]
    c = h.ref.clock
    assert c.left(WHITE) == 25000 and c.overtime(WHITE) == 3 and c.left(BLACK) == 60000
    assert _answer(lk, "time_left B 42 0")[0] and c.left(BLACK) == 42000
    assert "byoyomi 60 30 5 - 0 - 42000 0 25000 3" == _answer(lk, "gogadget-clock")[1]
    assert not _answer(lk, "time_left x 1 0")[0]
    h2, lk2 = _link()
    assert _answer(lk2, "time_left b 10 0")[0], "accepted without a clock (nothing to set)"


# The same commands to GNU Go and to the board: both take or refuse each.
# (GNU Go 3.8 has no kgs-time_settings: the test above checks ours; it
# also ignores words after the third, which the board refuses.)
GTP_TIME_COMMANDS = [
    "time_settings 300 30 5", "time_settings 600 0 0", "time_settings 0 0 0",
    "time_settings 300 30", "time_settings x 1 1",
    "time_left b 100 0", "time_left w 20 3", "time_left b", "time_left q 10 0",
    "time_left w x 0",
]


def test_gtp_time_commands_agree_with_gnugo(gnugo_path):
    from oracle_gtp import GtpProcess
    gnugo = GtpProcess([gnugo_path, "--mode", "gtp", "--level", "0"])
    try:
        theirs = [ok for ok, _ in gnugo.batch(GTP_TIME_COMMANDS)]
    finally:
        gnugo.close()
    h, lk = _link()
    ours = [_answer(lk, line)[0] for line in GTP_TIME_COMMANDS]
    assert ours == theirs, [(c, o, t) for c, o, t in zip(GTP_TIME_COMMANDS, ours, theirs) if o != t]


def test_gnugo_plays_on_the_boards_clock(gnugo_path, tmp_path):
    """The host relays a game with GNU Go on a byo-yomi clock: the engine is
    told the board's time control and, before each genmove, its time left
    as the board counts it."""
    import time
    from host_sim.sim import session
    from host_sim.sim.virtual import PUT_CODES, make_config
    log = tmp_path / "gtp.log"
    cmd = "sh -c 'tee %s | %s --mode gtp --level 0'" % (log, gnugo_path)
    config = make_config(size=9)
    config.time_control, config.main_time, config.period_time, config.periods = \
        "byoyomi", 120, 30, 3
    sim, match = session.start(config, cmd, colour=BLACK, store_dir=str(tmp_path / "s"),
                               live=False)
    try:
        match.wait(sim.step)
        for _ in range(3):
            v = next(v for v in ("E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5")
                     if sim.stones.cells[sim.referee.place(parse_vertex(9, v))] == 0)
            sim.stones.put(v, BLACK)
            sim.until_quiet()
            match.wait(sim.step)
            sim.run(300)  # the engine's stone waits to be placed: nobody's time
            for pl, code in sim.leds.prompts().items():
                colour = PUT_CODES.get(code & 0x0F)
                if colour and sim.stones.cells[pl] == 0:
                    sim.stones.put(pl, colour)
            sim.until_quiet()
            match.wait(sim.step)
        end = time.monotonic() + 20
        while sim.referee.board.moves < 6 and time.monotonic() < end:
            sim.step()
        assert match.error is None, match.error
        sent = log.read_text().splitlines()
        # GNU Go 3.8 has no kgs-time_settings: byo-yomi as GTP v2's Canadian
        # with one stone a period, which is the same thing.
        assert "kgs-time_settings byoyomi 120 30 3" in sent and "time_settings 120 30 1" in sent
        lefts = [line for line in sent if line.startswith("time_left w ")]
        assert len(lefts) == 3, sent
        clock = sim.referee.clock
        assert lefts[0] in ("time_left w 119 0", "time_left w 120 0"), \
            "white's clock ran from black's first stone (told in whole seconds, rounded down)"
        secs = int(lefts[-1].split()[2])
        assert secs <= 120 and clock.left(WHITE) // 1000 <= secs
        assert clock.left(BLACK) < 120000
    finally:
        match.close()
        sim.close()


def test_no_time_control_loads_no_clock_on_micropython(micropython):
    code = ("import sys\nfrom fakehand import Hand\nh = Hand(9)\nh.settle()\n"
            "h.moves('E5 C3')\nprint('CLOCK', 'gogadget.clock' in sys.modules)\n"
            "h2 = Hand(9, time_control='absolute', main_time=60)\nh2.settle()\n"
            "print('TIMED', 'gogadget.clock' in sys.modules, 'gogadget.clockgtp' in sys.modules)\n")
    out = micropython(code=code).stdout
    assert "CLOCK False" in out and "TIMED True False" in out, out


# -- the room ---------------------------------------------------------------------

def test_room_snapshot_carries_the_clock_and_follows_whose_time_runs(tmp_path):
    import json
    from test_broadcast import FakeNet
    from gogadget.broadcast import Broadcaster
    from host_sim.room.messages import parse
    h = _game(tmp_path, time_control="byoyomi", main_time=300, period_time=30, periods=5)
    net = FakeNet()
    b = Broadcaster(net.factory, "b1", referee=h.ref)

    def snap():
        for _ in range(40):  # the clock's state is looked at every few polls
            b.poll(h.t)
            h.scans(1)
        raw = net.retained["gogadget/board/b1/game"]
        msg, why = parse("gogadget/board/b1/game", raw)
        assert why is None, why
        return json.loads(raw)["clock"], msg["clock"]

    clock, parsed = snap()
    assert clock == ["byoyomi", "", 300000, 0, 300000, 0, 300000, 30000, 5, 0] == parsed, \
        "stopped before the first move; the settings follow (the archive's TM/OT)"
    h.moves("E5")
    clock, _ = snap()
    assert clock[:2] == ["byoyomi", "W"] and clock[2] == 300000 and 299000 < clock[4] < 300000
    h.lift("E5")  # the board asks: nobody's time runs, and the room is told
    h.settle()
    clock, _ = snap()
    assert clock[1] == "", clock
    h.put("E5")
    h.settle()
    clock, _ = snap()
    assert clock[1] == "W"


@pytest.mark.parametrize("bad", [["hourglass", "", 1, 0, 1, 0], ["byoyomi", "X", 1, 0, 1, 0],
                                 ["byoyomi", "B", -1, 0, 1, 0], ["byoyomi", "B", 1, 0, 1],
                                 ["byoyomi", "B", 1, 256, 1, 0], "byoyomi"])
def test_relay_refuses_a_bad_clock(bad):
    import json
    from host_sim.room.messages import parse
    snap = {"v": 1, "game": 1, "seq": 0, "size": 9, "komi": 7.5, "phase": "play", "clock": bad}
    msg, why = parse("gogadget/board/b1/game", json.dumps(snap).encode())
    assert msg is None and "clock" in why


# -- two boards, one game (gogadget remote) ----------------------------------------

def test_remote_opponents_clock_is_their_boards_and_a_long_claim_is_shown():
    from gogadget.pairing import Follower, pair_message
    from room_boards import SpecGame, encode
    h = Hand(9, preset="japanese", komi=6.5, time_control="absolute", main_time=600)
    h.ref.resume([], "", h.t)
    h.settle()
    f = Follower("b1", "b2", BLACK, "g1")
    f.attach(h.ref)
    g = SpecGame("b2", game=4, size=9, komi=6.5, rules="japanese")

    def send(leaf, msg):
        f.message(("gogadget/board/b2/%s" % leaf).encode(), encode(msg))
        f.poll()

    def snap(clock):
        s = g.snapshot()
        s["clock"] = clock
        send("game", s)

    f.message(b"gogadget/board/b2/pair", pair_message("g1", WHITE, "b1"))
    snap(["absolute", "", 600000, 0, 600000, 0])
    clock = h.ref.clock
    h.moves("E5")  # ours
    f.poll()
    assert clock.running == 0 and clock.remote_turn, "their clock is not run here"
    send("move", g.play("ee", "B"))  # their board has our move
    h.wait_ms(5000)
    f.poll()
    assert clock.left(WHITE) == 600000, "never counted down here"
    b = clock.left(BLACK)
    send("move", g.play("cc", "W"))  # their move: their board says it took 4 s
    snap(["absolute", "B", b, 0, 596000, 0])
    assert clock.left(WHITE) == 596000 and not f.clock_note
    h.follow()  # the person places their stone
    assert h.ref.board.moves == 2, (f.outcome, f.note, f.count, h.ref.status())
    assert clock.running == BLACK
    h.moves("G7")
    f.poll()
    send("move", g.play("gc", "B"))
    h.wait_ms(1000)
    send("move", g.play("cg", "W"))
    snap(["absolute", "B", clock.left(BLACK), 0, 586000, 0])  # 10 s, where 1 s passed here
    assert "W's board says the move took 10 s; 1 s passed here" in f.clock_note, (
        f.outcome, f.note, f._turn_at, f._their_ms, h.ref.status())
    assert clock.left(WHITE) == 586000, "shown, not corrected: their board's figure stands"
    h.drain()
    assert any("took 10 s" in text for kind, text in h.events("clock"))
    snap(["byoyomi", "", 1, 0, 1, 0])
    assert "time controls differ" in f.clock_note


def test_gtp_time_settings_survive_a_power_cut(tmp_path):
    """time_settings over the link, then a cut: the board comes back on
    GTP's time control (journalled), not its config file's."""
    from gogadget.link import Link
    from fake_referee import FakeStream
    tc = dict(time_control="byoyomi", main_time=600, period_time=30, periods=5)
    h = _game(tmp_path, **tc)
    lk = Link(h.ref, FakeStream())
    assert _answer(lk, "time_settings 300 20 10")[0]
    h.moves("E5 C3")
    h.wait_ms(3000)
    h.moves("D4")
    assert _answer(lk, "time_left w 100 0")[0]
    h2 = Hand(9, journal=jn.Journal(str(tmp_path)), **tc)
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    c = h2.ref.clock
    assert h2.config.time_control == "canadian" and (c.main_ms, c.period_ms, c.periods) == (
        300000, 20000, 10)
    assert c.left(WHITE) == 100000 and c.left(BLACK) == h.ref.clock.left(BLACK) < 298000
    assert c.paused
