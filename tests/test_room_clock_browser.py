"""The room page's clocks in a real browser (headless Chromium, as
tests/test_room_browser.py drives it), issue 35, finding 4; docs/CLOCK.md,
"Who owns which figure".  Two paired boards publish to Mosquitto: the paired
card's clocks follow the running player's own board (White's clock counts
down from White's board's figure although Black's board says nobody's runs),
stop when that board goes offline (its figure shown, marked stale), and
after a relay restart do not count down from the retained figure until the
board speaks again.  Kept as build/screenshots/room-clock-stale.png."""
import time

from conftest import ROOT, require
from gogadget.pairing import T_PAIR
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.chromium import Chromium, find_chromium
from host_sim.room.relay import Relay
from room_boards import Publisher, SpecGame, wait_for

SHOTS = ROOT / "build" / "screenshots"


def start_relay(broker, tmp_path):
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    assert relay.connected.wait(20)
    return relay


def test_a_paired_cards_clocks_follow_their_owners(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    chromium = require(find_chromium() or "chromium", "(apt-get install chromium; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=["t1", "t2"]).start()
    relay = start_relay(broker, tmp_path)
    pubs = {}
    try:
        games = {"t1": SpecGame("t1", game=5), "t2": SpecGame("t2", game=9)}
        for b, colour, other in (("t1", "B", "t2"), ("t2", "W", "t1")):
            p = pubs[b] = Publisher(broker, b, broker.creds[b])
            p.online()
            p.send(T_PAIR, {"v": 1, "pair": "g4", "colour": colour, "opponent": other})
        # Each board's lane up before its snapshots (lanes.py): a snapshot the
        # lane's subscription brings retained is "as last kept" on the page
        # until the board speaks again, as after a relay restart.
        wait_for(lambda: relay.lanes is not None and relay.lanes.live("t1")
                 and relay.lanes.live("t2"), what="the boards' lanes")
        for b, g in games.items():
            for pt in ("ee", "cg", "gc"):
                g.play(pt)

        def snap(board, clock):
            s = games[board].snapshot()
            s["clock"] = clock
            pubs[board].send("game", s)
            pubs[board].flush()

        # White to play: Black's board runs no clock (White's is White's
        # board's), White's board says White's runs, 4:03 left.
        snap("t1", ["byoyomi", "", 297000, 0, 300000, 0])
        snap("t2", ["byoyomi", "W", 297000, 0, 243000, 0])
        def heard(b):
            # the board's game with its clock, and the board online (its
            # status: each clock's owner), both in the relay
            st = relay.room.boards.get(b)
            return bool(st and st.game and st.game.clock and st.status and st.status["online"])

        wait_for(lambda: heard("t1") and heard("t2")
                 and relay.room.boards["t2"].game.clock[4] == 243000)

        def clock(colour, what="textContent"):
            return br.eval("(document.querySelector('.card[data-board=\"t1\"] "
                           ".clock[data-colour=\"%s\"]') || {}).%s" % (colour, what))

        def classes(colour):
            return br.eval("[...(document.querySelector('.card[data-board=\"t1\"] "
                           ".clock[data-colour=\"%s\"]') || {classList: []}).classList]"
                           ".join(' ')" % colour)

        with Chromium(chromium, width=1000, height=800) as br:
            br.goto(relay.url + "/")
            br.wait("document.querySelectorAll('.card[data-board=\"t1\"] .clock').length === 2",
                    what="the paired card's clocks")
            # The relay pairs the two boards once it has both pair messages and
            # their games: on a loaded machine the page may first show two
            # cards, then the pair (White's card hidden, its mirror).
            br.wait("(document.querySelector('.card[data-board=\"t2\"]') || {}).hidden === true",
                    what="White's card hidden: it is the paired card's mirror")
            assert clock("B") == "4:57" and "running" not in classes("B")
            assert "running" in classes("W"), classes("W")
            br.wait("document.querySelector('.card[data-board=\"t1\"] "
                    ".clock[data-colour=\"W\"]').textContent === '4:01'", timeout=6,
                    what="White's clock counting down from White's board's figure")
            assert clock("B") == "4:57", "the waiting clock stands still"

            # White's board goes (its will): White's figure stands, marked.
            pubs["t2"].send("status", {"v": 1, "online": False})
            pubs["t2"].flush()
            br.wait("document.querySelector('.card[data-board=\"t1\"] "
                    ".clock[data-colour=\"W\"]').classList.contains('stale')", timeout=6,
                    what="White's clock marked stale")
            shown = clock("W")
            assert shown == "4:03" and "running" not in classes("W"), (shown, classes("W"))
            time.sleep(1.5)
            assert clock("W") == "4:03", "no count-down while its board is offline"

            # White's board is back and says 0:43, running; then the relay
            # restarts: the broker's retained copy is all it has.
            pubs["t2"].online()
            snap("t2", ["byoyomi", "W", 297000, 0, 43000, 0])
            wait_for(lambda: relay.room.boards["t2"].game.clock[4] == 43000)
            relay.stop()
            time.sleep(2.0)  # (the board said 0:43 two seconds ago, and more by the page)
            relay = start_relay(broker, tmp_path)
            wait_for(lambda: relay.room.boards.get("t2") and relay.room.boards["t2"].game
                     and relay.room.boards.get("t1") and relay.room.boards["t1"].game
                     and relay.room.boards["t2"].game.clock[4] == 43000)
            br.goto(relay.url + "/")
            br.wait("document.querySelectorAll('.card[data-board=\"t1\"] .clock').length === 2",
                    what="the clocks after the relay's restart")
            assert clock("W") == "0:43" and "stale" in classes("W"), (clock("W"), classes("W"))
            assert "running" not in classes("W")
            time.sleep(1.5)
            assert clock("W") == "0:43", "not counted down from a figure of unknown age"
            SHOTS.mkdir(parents=True, exist_ok=True)
            br.screenshot(str(SHOTS / "room-clock-stale.png"))

            # White's board speaks again: 0:34, fresh, counted down.
            snap("t2", ["byoyomi", "W", 297000, 0, 34000, 0])
            br.wait("document.querySelector('.card[data-board=\"t1\"] "
                    ".clock[data-colour=\"W\"]').classList.contains('running')", timeout=6,
                    what="White's clock running again")
            assert "stale" not in classes("W")
            br.wait("document.querySelector('.card[data-board=\"t1\"] "
                    ".clock[data-colour=\"W\"]').textContent === '0:32'", timeout=6,
                    what="counted down from the fresh figure")
    finally:
        for p in pubs.values():
            p.close()
        relay.stop()
        broker.stop()
