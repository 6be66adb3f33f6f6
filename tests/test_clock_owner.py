"""One owner for each figure (docs/CLOCK.md, "Who owns which figure"): a
remote player's time left and their flag are their board's.  The firmware's
pairing on scripted snapshots: a time-out called by the loser's board ends
the game here the same way and is kept; a board that says our player lost
on time is not believed; their move's BL/WL here is their board's figure."""
import sys

from sgfmill import sgf as msgf

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
from fakehand import Hand  # noqa: E402
from gogadget import journal as jn  # noqa: E402
from gogadget import journalread as jr  # noqa: E402
from gogadget.points import BLACK, WHITE  # noqa: E402

BYO = dict(time_control="byoyomi", main_time=6, period_time=5, periods=1)


def _paired(tmp_path, colour=WHITE, **tc):
    """This board plays `colour` against b1's other colour, on scripted
    snapshots from b1 (room_boards.SpecGame)."""
    from gogadget.pairing import Follower, pair_message
    from room_boards import SpecGame, encode
    h = Hand(9, journal=jn.Journal(str(tmp_path)), preset="japanese", komi=6.5, **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    f = Follower("b2", "b1", colour, "g4")
    f.attach(h.ref)
    g = SpecGame("b1", game=3, size=9, komi=6.5, rules="japanese")

    def send(leaf, msg):
        f.message(("gogadget/board/b1/%s" % leaf).encode(), encode(msg))
        f.poll()

    def snap(clock):
        s = g.snapshot()
        s["clock"] = clock
        send("game", s)

    f.message(b"gogadget/board/b1/pair", pair_message("g4", 3 - colour, "b2"))
    return h, f, g, send, snap


def test_their_time_out_ends_the_game_here_the_same_way_and_is_kept(tmp_path):
    """Issue 35, finding 1: Black's board says W+T after Black's time ran
    out there; White's board stayed on "Black to play" for good."""
    h, f, g, send, snap = _paired(tmp_path, WHITE, **BYO)
    snap(["byoyomi", "", 6000, 0, 6000, 0])
    send("move", g.play("ee", "B"))
    snap(["byoyomi", "", 5000, 0, 6000, 0])
    h.follow()  # the person places Black's stone
    h.moves("C3")  # ours
    f.poll()
    send("move", g.play("cg", "W"))
    snap(["byoyomi", "B", 5000, 0, 6000, 0])
    h.wait_ms(12000)
    f.poll()
    assert h.ref.phase == "play" and not h.ref.result, "nothing is called here: their clock"
    send("move", g.end("W+T"))
    snap(["byoyomi", "", 0, 0, 6000, 0])
    assert h.ref.result == "W+T" and h.ref.phase == "over", (f.outcome, f.note, h.ref.status())
    assert not f.note
    assert h.ref.clock.flagged == BLACK and "B out of time" in h.ref.status()
    kept = sorted(p for p in tmp_path.iterdir() if p.suffix == ".sgf")
    assert kept, "the game is kept"
    root = msgf.Sgf_game.from_bytes(kept[-1].read_bytes()).get_root()
    assert root.get("RE") == "W+T"
    # A power cut keeps it: the journal says W+T.
    h2 = Hand(9, journal=jn.Journal(str(tmp_path)), preset="japanese", komi=6.5, **BYO)
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    assert h2.ref.result == "W+T" and h2.ref.phase == "over", h2.ref.status()


def test_a_board_cannot_call_our_flag(tmp_path):
    """Their board says our player (White) lost on time: not believed (our
    board owns our clock), the pairing stops with a note."""
    h, f, g, send, snap = _paired(tmp_path, WHITE, **BYO)
    snap(["byoyomi", "", 6000, 0, 6000, 0])
    send("move", g.play("ee", "B"))
    snap(["byoyomi", "", 5000, 0, 6000, 0])
    h.follow()
    send("move", g.end("B+T"))
    snap(["byoyomi", "", 5000, 0, 0, 0])
    assert h.ref.result == "" and h.ref.phase == "play"
    assert "they say we lost: B+T" in f.note


def test_their_moves_time_in_our_record_is_their_boards_figure(tmp_path):
    """Issue 35, finding 7: the record had WL[6] for a move after which
    White's board said White had 4 s (the figure before the move)."""
    h, f, g, send, snap = _paired(tmp_path, BLACK, **BYO)
    snap(["byoyomi", "", 6000, 0, 6000, 0])
    h.moves("E5")
    f.poll()
    send("move", g.play("ee", "B"))
    h.wait_ms(2000)
    f.poll()
    send("move", g.play("cg", "W"))  # the event comes first, then the snapshot
    snap(["byoyomi", "", 4000, 0, 3200, 0])
    h.follow()
    h.wait_ms(1000)
    h.moves("D4")
    f.poll()
    send("move", g.play("df", "B"))
    h.wait_ms(6000)
    f.poll()
    send("move", g.play("cc", "W"))  # in the period: 3.5 s of 5 left, one period
    snap(["byoyomi", "", h.ref.clock.left(BLACK), 0, 3500, 1])
    h.follow()
    nodes = msgf.Sgf_game.from_string(h.ref.sgf()).get_main_sequence()[1:]
    assert [n.get_move()[0] for n in nodes] == ["b", "w", "b", "w"], (f.outcome, f.note, h.ref.status())
    assert nodes[1].get("WL") == 4 and not nodes[1].has_property("OW")
    assert nodes[3].get("WL") == 4 and nodes[3].get("OW") == 1
    # The journal holds their figure as their move's (arg 16: a resume
    # reads it back as the move's BL/WL).
    h2 = Hand(9, journal=jn.Journal(str(tmp_path)), preset="japanese", komi=6.5, **BYO)
    records, _ = jr.load(h2.ref.journal)
    marked = [(r[2] | r[3] << 16, r[5] if r[1] & 4 else 0) for r in records
              if r[0] == jn.K_CLOCK and r[1] & 3 == WHITE and r[1] & 16]
    assert (3200, 0) in marked and (3500, 1) in marked, marked


def test_their_clock_stops_counting_here_when_their_board_is_gone(tmp_path):
    """The other board counts their clock down for the eye only while their
    board is there: its will (offline) stops the count; the figure their
    board last said stands."""
    from room_boards import status
    h, f, g, send, snap = _paired(tmp_path, BLACK, **BYO)
    snap(["byoyomi", "", 6000, 0, 6000, 0])
    h.moves("E5")
    f.poll()
    send("move", g.play("ee", "B"))
    snap(["byoyomi", "W", 5000, 0, 6000, 0])
    clock = h.ref.clock
    h.wait_ms(2000)
    f.poll()
    assert 3900 <= clock.display(WHITE, h.ref.now) <= 4100, "counted down for the eye"
    send("status", status(False))
    h.wait_ms(1000)
    assert clock.display(WHITE, h.ref.now) == 6000, "their board's last figure, not counted"
    assert clock.left(WHITE) == 6000 and h.ref.phase == "play"
