"""A two-board game on byo-yomi over a real Mosquitto plays to a time loss
(issue 35; docs/CLOCK.md, "Who owns which figure"): both boards (each the
simulator's App with the firmware's Broadcaster and pairing.Follower,
tests/remote_boards.Side), the relay's /games.json and its archive end with
the same result and the same per-move times (BL/WL, OB/OW, read by
sgfmill) -- also with a relay restart mid-game, and with one board's power
cut mid-game.  The flag is called by the board whose clock ran out; the
other board takes it from that board's record."""
import inspect
import json
import random
import urllib.request

import pytest
from sgfmill import sgf as msgf

from conftest import require
from gogadget import clockio
from gogadget.points import BLACK, WHITE
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.relay import Relay
from remote_boards import Side, play_move, pump
from room_boards import wait_for

# The settings: 6 s main time, then one period of 5 s.
BYO = dict(time_control="byoyomi", main_time=6, period_time=5, periods=1)
MOVES = 8


def start_relay(broker, archive):
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    assert relay.connected.wait(20)
    return relay


def times(data):
    """Each move's (colour, BL/WL, OB/OW) of an SGF record, and its RE."""
    g = msgf.Sgf_game.from_bytes(data)
    out = []
    for n in g.get_main_sequence()[1:]:
        c = n.get_move()[0].upper()
        out.append((c, n.get(c + "L") if n.has_property(c + "L") else None,
                    n.get("O" + c) if n.has_property("O" + c) else 0))
    root = g.get_root()
    return out, root.get("RE"), root.get("TM"), root.get("OT")


# A power cut's resume keeps every move's time only where the journal reads
# each move's time back (issue 35, finding 3: clockio.restore given the
# board).  Without it the power cut's case must fail (strict); with it, it
# must pass.
READS_BACK = "board" in inspect.signature(clockio.restore).parameters


@pytest.mark.parametrize("fault", [
    "none", "relay restart",
    pytest.param("power cut", marks=pytest.mark.xfail(
        not READS_BACK, strict=True, reason="the resumed board's record of the moves before "
        "the cut needs the journal's read-back of each move's time (issue 35, finding 3)"))])
def test_a_two_board_byoyomi_game_ends_on_time_the_same_everywhere(tmp_path, fault):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=["b1", "b2"]).start()
    archive = tmp_path / "archive"
    relay = start_relay(broker, archive)
    sides = []
    try:
        for bid, other, colour, seed in (("b1", "b2", BLACK, 3), ("b2", "b1", WHITE, 4)):
            s = Side(broker, bid, other, colour, "g4", tmp_path / "boards", seed)
            for k, v in BYO.items():
                setattr(s.sim.config, k, v)
            s.ref.new_game()
            sides.append(s)
        black, white = sides
        pump(sides, lambda: all(s.follower.agreed and s.follower.game >= 0 for s in sides), 30,
             "the pairing")
        rng = random.Random(5)

        def think():
            # The player to move thinks 1.2-2.8 s (the boards' own ms
            # clocks, stepped in lockstep): main time runs out by the
            # third move each, and the moves after it are in the period.
            for _ in range(rng.randrange(1200, 2800) // black.sim.period_ms):
                for s in sides:
                    s.sim.step()

        for n in range(1, MOVES + 1):
            think()
            play_move(sides)
            if n == 3 and fault == "relay restart":
                relay.stop()  # the boards play on; the broker keeps their snapshots
                think()
                play_move(sides)
                relay = start_relay(broker, archive)
            if n == 3 and fault == "power cut":
                black.power_cut()  # resumes from its journal, its clock paused
                assert black.person.tidy(), black.ref.status()
                black.sim.press("confirm")  # Confirm restarts it
                black.sim.settle()
                assert not black.ref.clock.paused, black.ref.status()
        # Nobody plays on: the player to move runs out at their own board,
        # which calls the flag; the other board takes it from there.
        loser = black.ref.board.to_move()
        owner = black if loser == BLACK else white
        other = white if owner is black else black
        result = ("W" if loser == BLACK else "B") + "+T"
        pump(sides, lambda: owner.ref.result == result, 60, "the flag at its owner's board")
        pump(sides, lambda: other.ref.result == result, 30, "the time loss at the other board")
        assert all(s.ref.phase == "over" and s.follower.note == "" for s in sides), [
            s.ref.status() for s in sides]
        assert other.ref.clock.flagged == loser
        pump(sides, lambda: all(s.idle() for s in sides), 30, "everything published")

        # Both boards keep it, with the same per-move times: the mover's board's.
        kept = []
        for s in sides:
            files = sorted(s.store.glob("[0-9][0-9][0-9][0-9].sgf"))
            assert files, "%s kept no game" % s.id
            kept.append(times(files[-1].read_bytes()))
        moves, re, tm, ot = kept[0]
        assert kept[1] == kept[0], "the two boards' records differ:\n%s\n%s" % tuple(kept)
        assert re == result and tm == 6 and ot == "1x5 byo-yomi"
        assert len(moves) >= MOVES and all(t is not None for _, t, _ in moves), moves
        assert all(t <= 6 for _, t, _ in moves), moves
        assert len({t for _, t, _ in moves}) > 2 and any(o for _, _, o in moves), \
            "the moves took time, and some were in the period: %s" % (moves,)

        # The room: both boards' games over with that result, each archived
        # with those times.
        def finished():
            try:
                games = json.load(urllib.request.urlopen(relay.url + "/games.json", timeout=5))["games"]
            except OSError:
                return False
            mine = [g for g in games if g["board"] in ("b1", "b2") and g["phase"] == "over"]
            return len(mine) == 2 and all(g["archived"] for g in mine) and mine
        wait_for(finished, 30, "both games archived in /games.json")
        games = finished()
        assert all(g["result"] == result for g in games), games
        for g in games:  # each game's record as the relay serves it (/game/ID.sgf)
            served = urllib.request.urlopen(relay.url + g["sgf"], timeout=5).read()
            assert times(served) == kept[0], (g["id"], times(served), kept[0])

        def archived():
            out = [times(f.read_bytes()) for f in sorted(archive.glob("*.sgf"))]
            return len(out) == 2 and all(a == kept[0] for a in out) and out
        wait_for(archived, 30, "the archive's records equal to the boards'")
        print("%s: %d moves, %s; times %s" % (fault, len(moves), result, moves))
    finally:
        for s in sides:
            s.pub.close()
        relay.stop()
        broker.stop()


def test_two_usb_boards_through_their_hosts_end_on_time_the_same_everywhere(tmp_path):
    """The issue's own set-up: two simulators, each a plain Pico played
    through `gogadget remote`'s host (host_sim/room/remote.py, in process
    on the simulator's GTP link), byo-yomi 6 s + 1 x 5 s; five moves, then
    White waits.  White's board calls White's flag; Black's board ends B+T
    too (the issue's other board stayed on "to play"), and the relay's
    archive has TM/OT and the same per-move times as both boards' records
    (it had none)."""
    from host_sim.room.client import factory
    from host_sim.room.remote import HostRemote
    from host_sim.sim.virtual import PUT_CODES, Simulator, make_config
    from gogadget.points import parse_vertex
    from test_clock_remote import SimLink
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=["table-1", "table-2"]).start()
    archive = tmp_path / "archive"
    relay = start_relay(broker, archive)
    hosts = []
    try:
        sims = {}
        for bid, other, colour, seed in (("table-1", "table-2", BLACK, 6),
                                         ("table-2", "table-1", WHITE, 7)):
            sim = sims[colour] = Simulator(make_config(size=9, **BYO), seed=seed,
                                           store_dir=str(tmp_path / bid))
            sim.app.open_link()
            hosts.append(HostRemote(
                (lambda s: lambda: SimLink(s))(sim),
                factory(broker.url, bid, broker.creds[bid], timeout=2.0), bid, other, colour,
                "g4", now=(lambda s: lambda: s.clock.now_ms)(sim), look_s=0.0))

        def step(n=1):
            for _ in range(n):
                for s in sims.values():
                    s.step()
                for h in hosts:
                    h.step()

        def until(cond, what, timeout=60.0):
            import time
            end = time.monotonic() + timeout
            while not cond():
                assert time.monotonic() < end, "timed out: %s: %s" % (
                    what, [s.referee.status() for s in sims.values()])
                step()

        def play(v, colour, think_ms):
            step(think_ms // sims[BLACK].period_ms)
            sim, other = sims[colour], sims[3 - colour]
            n = sim.referee.board.moves
            sim.stones.put(sim.referee.place(parse_vertex(9, v)), colour)
            until(lambda: sim.referee.board.moves == n + 1, "the move at its board")
            until(lambda: other.referee.board.moves == n + 1, "the move lit at the other")

            def placed():
                for pl, code in other.leds.prompts().items():
                    c = PUT_CODES.get(code & 0x0F)
                    if c and other.stones.cells[pl] == 0:
                        other.stones.put(pl, c)
                return not other.referee.outstanding() and other.referee.last_seen
            until(placed, "the lit move placed")

        until(lambda: all(h.follower.agreed and h.follower.game >= 0 for h in hosts),
              "the pairing")
        play("E5", BLACK, 300)
        play("C3", WHITE, 1500)
        play("G7", BLACK, 2500)
        play("C7", WHITE, 4000)
        play("G3", BLACK, 4500)  # main time over: in the period
        # White waits: White's board calls White's flag, Black's takes it.
        until(lambda: sims[WHITE].referee.result == "B+T", "White's board calls White's flag")
        until(lambda: sims[BLACK].referee.result == "B+T", "the time loss at Black's board")
        assert all(h.follower.note == "" for h in hosts)
        kept = []
        for bid in ("table-1", "table-2"):
            files = sorted((tmp_path / bid).glob("[0-9][0-9][0-9][0-9].sgf"))
            assert files, "%s kept no game" % bid
            kept.append(times(files[-1].read_bytes()))
        assert kept[0] == kept[1], kept
        moves, re, tm, ot = kept[0]
        assert re == "B+T" and tm == 6 and ot == "1x5 byo-yomi"
        assert all(t is not None for _, t, _ in moves) and any(o for _, _, o in moves), moves

        def archived():
            step()
            out = [times(f.read_bytes()) for f in sorted(archive.glob("*.sgf"))]
            return len(out) == 2 and all(a == kept[0] for a in out)
        until(archived, "the archive's two records equal to the boards'", 30)
        print("usb: %s, times %s" % (re, moves))
    finally:
        for h in hosts:
            h.close()
        relay.stop()
        broker.stop()
