"""The room's clocks (docs/CLOCK.md, "Who owns which figure"; docs/ROOM.md):
the relay, without a broker.  Each player's figure on a paired card comes
from that player's board; a figure carries when it was true, unknown for a
retained copy after a relay restart; the archive carries the time control
(TM/OT) and each move's time as the board's record has it (BL/WL, OB/OW),
read back by sgfmill."""
import json

from sgfmill import sgf as msgf

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from gogadget.pairing import T_PAIR
from host_sim.room.games import Room, heard
from room_boards import SpecGame, encode, status

BYO = [6000, 5000, 1, 0]  # main 6 s, 5 s x1 (ms, as the snapshot's clock has them)


def feed(room, board, leaf, msg, retained=False):
    return room.handle(topic(board, leaf), heard(encode(msg), retained))


def snap(g, clock, times=None):
    s = g.snapshot()
    s["clock"] = clock
    if times is not None:
        s["times"] = times
    return s


def card(room, board):
    return json.loads(room.summary(room.boards[board]))


def test_archive_carries_the_time_control_and_each_moves_time(tmp_path):
    """Issue 35, finding 7: the relay's archive had no TM, OT, BL or WL."""
    room = Room(str(tmp_path))
    g = SpecGame("b1", game=3)
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "", 6000, 0, 6000, 0] + BYO, []))
    feed(room, "b1", T_MOVE, g.play("ee", "B"))
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "W", 5000, 0, 6000, 0] + BYO, [5]))
    feed(room, "b1", T_MOVE, g.play("cg", "W"))
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "B", 5000, 0, 4000, 0] + BYO, [5, 4]))
    feed(room, "b1", T_MOVE, g.play("df", "B"))
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "W", 0, 1, 4000, 0] + BYO, [5, 4, 3 + 65536]))
    feed(room, "b1", T_MOVE, g.end("B+T"))
    # A game on a clock is archived from the snapshot after its end, which
    # has every move's time (here the last one's, as it reached the board).
    assert not list(tmp_path.iterdir())
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "", 0, 1, 0, 0] + BYO, [5, 4, 4 + 65536]))
    text = (tmp_path / "b1-3.sgf").read_text()
    game = msgf.Sgf_game.from_string(text)
    root = game.get_root()
    assert root.get("TM") == 6 and root.get("OT") == "1x5 byo-yomi" and root.get("RE") == "B+T"
    nodes = game.get_main_sequence()[1:]
    assert [(n.get("BL") if n.has_property("BL") else n.get("WL")) for n in nodes] == [5, 4, 4]
    assert nodes[2].get("OB") == 1 and not nodes[1].has_property("OW")
    assert room.sgf("b1-3") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b1-3.sgf"]


def test_a_bad_times_list_is_refused():
    room = Room()
    g = SpecGame("b1")
    g.play("ee", "B")
    for bad in ([1, 2], ["x"], [[1, 2]], [-1], [256 << 16], {"a": 1}):
        assert feed(room, "b1", T_GAME, snap(g, ["byoyomi", "", 1, 0, 1, 0], bad)) \
            == "dropped", bad


def test_a_retained_figure_after_a_relay_restart_has_no_age_until_the_board_speaks():
    """Issue 35, finding 4: after a relay restart the page counted down from
    the retained snapshot's figure as if it were fresh."""
    room = Room()  # the restarted relay
    g = SpecGame("b1", game=2)
    g.play("ee", "B")
    feed(room, "b1", T_STATUS, status(True), retained=True)
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "W", 5000, 0, 43000, 0] + BYO), retained=True)
    c = card(room, "b1")
    assert c["clock"][1] == "W" and c["clock_at"] == [None, None]
    assert c["clock_online"] == [True, True]
    g.play("cg", "W")
    feed(room, "b1", T_MOVE, {"v": 1, "game": 2, "seq": g.seq, "t": "move", "n": 2, "c": "W",
                              "p": "cg"})
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "B", 5000, 0, 34000, 0] + BYO))
    c = card(room, "b1")
    assert c["clock"][4] == 34000 and None not in c["clock_at"], "live again: its age is known"
    # The same snapshot again, retained (the relay's session came back):
    # the figure the relay had live keeps its age.
    at = c["clock_at"]
    feed(room, "b1", T_GAME, snap(g, ["byoyomi", "B", 5000, 0, 34000, 0] + BYO), retained=True)
    assert card(room, "b1")["clock_at"] == at


def _pair(room, board, colour, opponent):
    feed(room, board, T_PAIR, {"v": 1, "pair": "g4", "colour": colour, "opponent": opponent})


def test_a_paired_cards_clocks_are_each_from_the_players_own_board():
    """Issue 35, finding 4: on a paired card White's clock was frozen, since
    Black's board's snapshot says nobody's clock runs on White's turn."""
    room = Room()
    a, b = SpecGame("t1", game=5), SpecGame("t2", game=9)
    for board, colour, other in (("t1", "B", "t2"), ("t2", "W", "t1")):
        feed(room, board, T_STATUS, status(True))
        _pair(room, board, colour, other)
    for g in (a, b):
        g.play("ee", "B")
    # White's turn: Black's board runs no clock (White's is White's board's);
    # White's board says White's runs.
    feed(room, "t1", T_GAME, snap(a, ["byoyomi", "", 297000, 0, 300000, 0] + BYO))
    feed(room, "t2", T_GAME, snap(b, ["byoyomi", "W", 297000, 0, 243000, 0] + BYO))
    c = card(room, "t1")
    assert c["pair"] == "g4" and not c["mirror"]
    assert c["clock"][:6] == ["byoyomi", "W", 297000, 0, 243000, 0], c["clock"]
    assert all(c["clock_at"]) and c["clock_online"] == [True, True]
    # White's board goes (its will): White's figure is no longer counted.
    feed(room, "t2", T_STATUS, status(False))
    c = card(room, "t1")
    assert c["clock_online"] == [True, False] and c["clock"][1] == "W"


def test_a_usb_boards_host_carries_its_time_control_and_each_moves_time():
    """`gogadget publish` / `remote` (a plain Pico through its host): the
    board's status word has neither the settings nor each move's time; the
    host reads them from the board's own record (gogadget-sgf: TM, OT,
    BL/WL, OB/OW), so the room's archive has them too."""
    from host_sim.room.publish import HostPublisher
    from host_sim.sim.virtual import Simulator, make_config
    from test_clock_remote import SimLink
    from test_room_publish import FakeClient
    from gogadget.points import parse_vertex
    sim = Simulator(make_config(size=9, time_control="byoyomi", main_time=3, period_time=10,
                                periods=2), seed=3)
    sim.app.open_link()
    out = []
    host = HostPublisher(lambda: SimLink(sim), lambda: FakeClient(out), "pico-2", look_s=0)

    def play(v, colour, think_ms):
        for _ in range(think_ms // sim.period_ms):
            sim.step()
        n = sim.referee.board.moves
        sim.stones.put(sim.referee.place(parse_vertex(9, v)), colour)
        for _ in range(200):
            sim.step()
            if sim.referee.board.moves == n + 1 and not sim.referee.outstanding():
                break
        assert sim.referee.board.moves == n + 1, sim.referee.status()

    for v, colour, ms in (("E5", 1, 500), ("C3", 2, 1200), ("G7", 1, 2500), ("C7", 2, 4000)):
        play(v, colour, ms)
    for _ in range(30):
        host.step()
    snap = json.loads([m for leaf, m in out if leaf == "game"][-1])
    clock = sim.referee.clock
    assert snap["clock"][6:] == [3000, 10000, 2, 0], snap["clock"]
    want = [clock.secs[i] | clock.counts[i] << 16 for i in range(4)]
    assert snap["times"] == want and any(t >> 16 for t in want), (snap["times"], want)
