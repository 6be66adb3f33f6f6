"""The room's web page in a real browser: Debian's Chromium, headless,
driven over the DevTools protocol (host_sim/room/chromium.py).  Boards
publish spec messages to Mosquitto; the page must show every board, show
moves arriving live, open a board large, and find the relay again after a
restart.  The screenshots are kept in build/screenshots/ (room-grid.png,
room-board.png, room-phone.png, room-phone-board.png): look at them."""
import random
import time

import pytest

from conftest import ROOT, require
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.chromium import Chromium, find_chromium
from host_sim.room.relay import Relay
from room_boards import Publisher, SpecGame, wait_for

SHOTS = ROOT / "build" / "screenshots"
PLAYERS = [("Iyama Yuta", "Shibano Toramaru"), ("Shin Jinseo", "Ke Jie"),
           ("Choi Jeong", "Ueno Asami"), ("Lee Sedol", "Gu Li"), ("", ""),
           ("Fujisawa Rina", "Nakamura Sumire"), ("Honinbo Shusaku", "Gennan Inseki"),
           ("Cho Chikun", "Kobayashi Koichi")]
SIZES = [19, 19, 13, 9, 9, 19, 19, 13]


@pytest.fixture
def room(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    chromium = require(find_chromium() or "chromium", "(apt-get install chromium; .ci/run does)")
    ids = ["table-%d" % (i + 1) for i in range(len(SIZES))]
    broker = Broker(str(tmp_path / "broker"), boards=ids).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    pubs, games = {}, {}
    try:
        assert relay.connected.wait(20)
        rng = random.Random(11)
        for i, b in enumerate(ids):
            p = pubs[b] = Publisher(broker, b, broker.creds[b])
            p.online(faults=1 if i == 5 else 0, note="sensor D4 stuck?" if i == 5 else "")
            g = games[b] = SpecGame(b, game=3 + i, size=SIZES[i], black=PLAYERS[i][0],
                                    white=PLAYERS[i][1], komi=6.5)
            p.send("game", g.snapshot())
            for _ in range(rng.randrange(60, 150) if g.size == 19 else rng.randrange(14, 50)):
                p.event(g, g.play(g.random_move(rng, fight=True)))
            if i == 3:  # finished
                p.event(g, g.play(""))
                p.event(g, g.play(""))
                g.phase = "over"
                p.event(g, g.end("B+4.5"))
            if i == 2:  # counting
                p.event(g, g.play(""))
                p.event(g, g.play(""))
                g.phase = "count"
                p.send("game", g.snapshot())
            p.flush()
        pubs[ids[-1]].send("status", {"v": 1, "online": False})  # a board gone dark
        pubs[ids[-1]].flush()
        wait_for(lambda: all(relay.room.boards.get(b) and relay.room.boards[b].game
                             and relay.room.boards[b].game.seq == games[b].seq for b in ids))
        yield broker, relay, pubs, games, chromium
    finally:
        for p in pubs.values():
            p.close()
        relay.stop()
        broker.stop()


def card_moves(br, board):
    return br.eval("(document.querySelector('.card[data-board=\"%s\"]') || {dataset: {}})"
                   ".dataset.moves" % board)


def test_the_page_shows_the_room_live(room):
    broker, relay, pubs, games, chromium = room
    g, p = games["table-1"], pubs["table-1"]
    with Chromium(chromium, width=1440, height=1000) as br:
        br.goto(relay.url + "/")
        br.wait("document.querySelectorAll('.card').length === %d" % len(games), what="every board")
        assert card_moves(br, "table-1") == str(len(g.moves))
        # A count the relay could not make itself (the dead stones are the players'): said so.
        assert br.eval("document.querySelector('.card[data-board=\"table-4\"] .pill').textContent") \
            == "B+4.5" + ("" if relay.room.boards["table-4"].game.verdict == "checked"
                          else " (the board's claim)")
        assert br.eval("document.querySelector('.card[data-board=\"table-8\"]').dataset.online") == "0"
        assert br.eval("document.querySelector('.card[data-board=\"table-1\"] svg circle.lastmark')"
                       ".getAttribute('visibility')") == "visible"
        stones = br.eval("document.querySelectorAll('.card[data-board=\"table-1\"] .stones circle').length")
        assert stones == sum(c in (1, 2) for c in g.bd.cells)  # the stones on the board, no more

        # A move arrives: the card shows it, live, within a moment.
        rng = random.Random(5)
        t0 = time.monotonic()
        p.event(g, g.play(g.random_move(rng)))
        br.wait("document.querySelector('.card[data-board=\"table-1\"]').dataset.moves === '%d'"
                % len(g.moves), timeout=10, what="the new move on the card")
        latency = time.monotonic() - t0
        stones = br.eval("document.querySelectorAll('.card[data-board=\"table-1\"] .stones circle').length")
        assert stones == sum(c in (1, 2) for c in g.bd.cells)  # drawn stone by stone, captures gone
        assert br.eval("document.querySelector('.card[data-board=\"table-1\"]').dataset.last") == \
            "".join(g.moves[-1])
        assert latency < 5, latency
        time.sleep(0.8)  # the flash of the new move fades
        br.screenshot(str(SHOTS / "room-grid.png"))

        # Open a board: large, with its move list, the last move marked, captures and the SGF link.
        br.eval("document.querySelector('.card[data-board=\"table-1\"]').click()")
        br.wait("!document.getElementById('detail').hidden", what="the board opened")
        n = len(g.moves)
        assert br.eval("document.querySelectorAll('#d-moves li').length") == n
        p.event(g, g.play(g.random_move(rng)))
        br.wait("document.querySelectorAll('#d-moves li').length === %d" % (n + 1), timeout=10,
                what="the new move in the list")
        assert br.eval("document.querySelector('#d-moves li.last .no').textContent") == str(n + 1)
        assert br.eval("document.querySelectorAll('#detail-board circle.lastmark').length") == 1
        assert "prisoner" in br.eval("document.getElementById('d-players').textContent")
        href = br.eval("document.getElementById('d-sgf').getAttribute('href')")
        assert href == "/game/table-1-3.sgf"
        sgf = br.eval("fetch('%s').then(r => r.text())" % href)
        assert sgf.startswith("(;GM[1]") and ";%s[%s]" % g.moves[-1] in sgf

        # A take-back retracts the move on the page too.
        p.event(g, g.undo())
        br.wait("document.querySelectorAll('#d-moves li').length === %d" % n, timeout=10,
                what="the take-back")
        p.event(g, g.play(g.random_move(rng)))
        br.wait("document.querySelectorAll('#d-moves li').length === %d" % (n + 1), timeout=10)
        time.sleep(0.3)
        br.screenshot(str(SHOTS / "room-board.png"))

        # The relay restarts on the same address: the page reconnects by itself.
        br.eval("location.hash = ''")
        addr = relay.httpd.server_address[:2]
        relay.stop()
        br.wait("document.getElementById('link').classList.contains('down')", timeout=10,
                what="the page to notice the relay is gone")
        relay2 = Relay(broker.url, addr, relay.room.archive, "relay", broker.creds["relay"]).start()
        try:
            assert relay2.connected.wait(20)
            p.event(g, g.play(g.random_move(rng)))
            br.wait("document.querySelector('.card[data-board=\"table-1\"]').dataset.moves === '%d'"
                    % len(g.moves), timeout=20, what="the page back on the new relay")
            assert br.eval("document.getElementById('link').classList.contains('on')")
        finally:
            relay2.stop()

    # A phone: the grid in two columns.
    relay3 = Relay(broker.url, ("127.0.0.1", 0), relay.room.archive, "relay",
                   broker.creds["relay"], client_id="gogadget-relay-phone").start()
    try:
        assert relay3.connected.wait(20)
        wait_for(lambda: len(relay3.room.boards) == len(games))
        with Chromium(chromium, width=390, height=844, scale=2) as br:
            br.goto(relay3.url + "/")
            br.wait("document.querySelectorAll('.card').length === %d" % len(games))
            time.sleep(0.3)
            br.screenshot(str(SHOTS / "room-phone.png"))
            br.eval("location.hash = '#board=table-3'")
            br.wait("!document.getElementById('detail').hidden")
            time.sleep(0.3)
            br.screenshot(str(SHOTS / "room-phone-board.png"))
    finally:
        relay3.stop()


def png_pixels(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def test_a_headless_snapshot_shows_the_boards_and_paired_titles_whole(tmp_path):
    """What a tournament's streaming overlay takes: `chromium --headless
    --screenshot` of the room, as it is, shows every card with its board
    (the page draws them at once, not when the observer first reports).  A
    paired game's title wraps whole ("table-1 vs table-2"), "game 1" on one line."""
    import subprocess
    from gogadget.pairing import T_PAIR
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    chromium = require(find_chromium() or "chromium", "(apt-get install chromium; .ci/run does)")
    ids = ["table-1", "table-2", "table-3", "table-4"]
    broker = Broker(str(tmp_path / "broker"), boards=ids).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    pubs = {}
    try:
        assert relay.connected.wait(20)
        rng = random.Random(3)
        paired_moves = []  # a pairing counts only while both boards show one game
        for i, b in enumerate(ids):
            p = pubs[b] = Publisher(broker, b, broker.creds[b])
            p.online()
            g = SpecGame(b, game=1, size=19 if i < 2 else 9, black="B%d" % i, white="W%d" % i)
            p.send("game", g.snapshot())
            for k in range(20):
                move = paired_moves[k] if b == "table-2" else g.random_move(rng)
                if b == "table-1":
                    paired_moves.append(move)
                p.event(g, g.play(move))
        pubs["table-1"].send(T_PAIR, {"v": 1, "pair": "g1", "colour": "B", "opponent": "table-2"})
        pubs["table-2"].send(T_PAIR, {"v": 1, "pair": "g1", "colour": "W", "opponent": "table-1"})
        for p in pubs.values():
            p.flush()
        wait_for(lambda: len(relay.room.boards) == 4 and relay.room.paired(relay.room.boards["table-1"]))
        shot = tmp_path / "snapshot.png"
        run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--hide-scrollbars", "--window-size=1280,800",
                              "--screenshot=" + str(shot), relay.url + "/"],
                             capture_output=True, text=True, timeout=90, cwd=str(tmp_path))
        assert shot.exists(), run.stderr[-2000:]
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / "room-headless.png").write_bytes(shot.read_bytes())
        w, h, rows = png_pixels(shot.read_bytes())
        # Three cards (the pair shown once), each board a wooden square of
        # about 200 x 200 px: the page's wood gradient runs #e6bf75..#cf9f52.
        wood = sum(1 for row in rows[::2] for r, g, b in row[::2]
                   if 200 <= r <= 240 and 150 <= g <= 200 and 70 <= b <= 130 and r > g > b)
        assert wood * 4 > 3 * 200 * 200 * 0.5, "cards without their boards: %d wood pixels" % (wood * 4)
        with Chromium(chromium, width=1280, height=800) as br:
            br.goto(relay.url + "/")
            br.wait("document.querySelectorAll('.card:not([hidden]) .board svg').length === 3",
                    what="three boards")
            name = "document.querySelector('.card[data-board=\"table-1\"] .name')"
            assert br.eval(name + ".textContent") == "table-1 vs table-2"
            assert br.eval(name + ".scrollWidth <= %s.clientWidth" % name)  # not cut
            lines = br.eval("(() => { const g = document.querySelector('.card[data-board=\"table-1\"]"
                            " .gameno'); return g.getBoundingClientRect().height /"
                            " parseFloat(getComputedStyle(g).lineHeight); })()")
            assert lines < 1.5, lines  # "game 1" on one line
    finally:
        for p in pubs.values():
            p.close()
        relay.stop()
        broker.stop()


def test_the_page_counts_the_boards_clocks_down(room):
    """Boards on a clock: the snapshot carries it (docs/ROOM.md); the page shows
    both players' clocks and counts the running one down between snapshots.
    Kept as build/screenshots/room-clock.png (and docs/room-clock.png)."""
    broker, relay, pubs, games, chromium = room
    clocks = {"table-1": ["byoyomi", "W", 1200000, 0, 65000, 0],
              "table-2": ["canadian", "B", 184000, 12, 251000, 25],
              "table-6": ["fischer", "", 1450000, 0, 1312000, 0],
              "table-5": ["absolute", "W", 1800000, 0, 9500, 0]}
    for b, clock in clocks.items():
        snap = games[b].snapshot()
        snap["clock"] = clock
        pubs[b].send("game", snap)
        pubs[b].flush()
    wait_for(lambda: all(relay.room.boards[b].game.clock == c for b, c in clocks.items()))

    def shown(board, colour):
        return br.eval("(document.querySelector('.card[data-board=\"%s\"] .clock[data-colour=\"%s\"]')"
                       " || {}).textContent" % (board, colour))

    with Chromium(chromium, width=1440, height=1000) as br:
        br.goto(relay.url + "/")
        br.wait("document.querySelectorAll('.card .clock').length === 8", what="the clocks")
        assert shown("table-1", "B") == "20:00"
        assert shown("table-2", "W") == "4:11 /25" and shown("table-6", "B") == "24:10"
        first = shown("table-1", "W")
        secs = int(first[0]) * 60 + int(first[2:])
        assert 50 <= secs <= 65, first
        br.wait("document.querySelector('.card[data-board=\"table-1\"] .clock.running').textContent"
                " === '%d:%02d'" % divmod(secs - 2, 60), timeout=6, what="white's clock counting down")
        assert shown("table-1", "B") == "20:00", "the waiting clock stands still"
        assert shown("table-6", "B") == "24:10", "nobody's time runs (the board is asking)"
        assert br.eval("document.querySelector('.card[data-board=\"table-5\"] .clock.running')"
                       ".classList.contains('low')")
        br.screenshot(str(SHOTS / "room-clock.png"))


def test_a_board_on_a_clock_plays_in_the_room(tmp_path):
    """A whole game from the firmware: a referee on a byo-yomi clock (the
    scripted hand of tests/mp/fakehand.py), its own Broadcaster, Mosquitto,
    the relay and the page: both clocks shown, the running one counting
    down, whose time runs following the board (nobody's while it asks)."""
    import sys
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    chromium = require(find_chromium() or "chromium", "(apt-get install chromium; .ci/run does)")
    sys.path.insert(0, str(ROOT / "tests" / "mp"))
    from fakehand import Hand
    from gogadget import journal as jn
    from gogadget.broadcast import Broadcaster
    from host_sim.room.client import factory
    broker = Broker(str(tmp_path / "broker"), boards=["clocked"]).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    (tmp_path / "store").mkdir()
    h = Hand(9, journal=jn.Journal(str(tmp_path / "store")), time_control="byoyomi",
             main_time=90, period_time=30, periods=3)
    h.ref.resume([], "", h.t)
    pub = Broadcaster(factory(broker.url, "clocked", broker.creds["clocked"], timeout=2.0),
                      "clocked", referee=h.ref, black="Kitani Minoru", white="Go Seigen")

    def pump(until, what):
        end = time.monotonic() + 20
        while not until():
            assert time.monotonic() < end, what
            pub.poll(h.t)
            h.scans(1)
            time.sleep(0.002)

    def card(js):
        return br.eval("(() => { const c = document.querySelector('.card[data-board=\"clocked\"]');"
                       " return %s; })()" % js)

    try:
        assert relay.connected.wait(20)
        h.settle()
        h.moves("E5 C3")
        h.wait_ms(12000)  # black thinks 12 s of board time
        h.moves("G7 C7")
        pump(lambda: relay.room.boards.get("clocked") and relay.room.boards["clocked"].game
             and relay.room.boards["clocked"].game.clock
             and relay.room.boards["clocked"].game.clock[1] == "B"
             and len(relay.room.boards["clocked"].game.moves) == 4, "the game on the relay")
        with Chromium(chromium, width=900, height=700) as br:
            br.goto(relay.url + "/")
            br.wait("document.querySelectorAll('.card[data-board=\"clocked\"] .clock').length === 2",
                    what="the board's clocks")
            assert card("c.querySelector('.clock[data-colour=\"W\"]').textContent") == "1:30"
            first = card("c.querySelector('.clock.running').textContent")
            assert card("c.querySelector('.clock.running').dataset.colour") == "B"
            secs = int(first[0]) * 60 + int(first[2:])
            assert 60 <= secs <= 78, first  # 90 s, 12 of them thought, then the page's wait
            later = "%d:%02d" % divmod(secs - 2, 60)
            br.wait("document.querySelector('.card[data-board=\"clocked\"] .clock.running')"
                    ".textContent === '%s'" % later, timeout=6, what="black's clock counting down")
            br.screenshot(str(SHOTS / "room-clock-game.png"))
            h.lift("G7")  # a stone knocked off: the board asks, nobody's time runs
            pump(lambda: relay.room.boards["clocked"].game.clock[1] == "", "the clock stopped")
            br.wait("document.querySelectorAll('.card[data-board=\"clocked\"] .clock.running')"
                    ".length === 0", timeout=6, what="no clock running on the page")
    finally:
        pub.close()
        relay.stop()
        broker.stop()


def test_a_finished_cards_footer_keeps_its_move_count_whole(tmp_path):
    """Issue 35, finding 8: a game resigned at move 2 has a long badge
    ("W+R (the board's claim)"); the footer still reads "Move 2", at a
    desktop's width and a phone's, and the badge gives way."""
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    chromium = require(find_chromium() or "chromium", "(apt-get install chromium; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=["table-1"]).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    pub = None
    try:
        assert relay.connected.wait(20)
        pub = Publisher(broker, "table-1", broker.creds["table-1"])
        pub.online()
        g = SpecGame("table-1", game=1, size=19, black="Honinbo Shusaku", white="Gennan Inseki")
        pub.send("game", g.snapshot())
        pub.event(g, g.play("dd"))
        pub.event(g, g.play("pp"))
        pub.event(g, g.end("W+R"))
        pub.flush()
        wait_for(lambda: relay.room.boards.get("table-1") and relay.room.boards["table-1"].game
                 and relay.room.boards["table-1"].game.phase == "over")
        card = "document.querySelector('.card[data-board=\"table-1\"]')"
        for width, height in ((1280, 800), (390, 844)):
            with Chromium(chromium, width=width, height=height) as br:
                br.goto(relay.url + "/")
                br.wait(card + " && " + card + ".dataset.phase === 'over'", what="the finished card")
                move = card + ".querySelector('footer .move')"
                pill = card + ".querySelector('footer .pill')"
                assert br.eval(move + ".textContent") == "Move 2"
                assert br.eval(move + ".scrollWidth <= " + move + ".clientWidth"), \
                    "the move count is cut at %d px" % width
                assert br.eval(pill + ".textContent").startswith("W+R")
                assert br.eval(pill + ".title") == br.eval(pill + ".textContent")
                # (the footer's two parts stay inside the card)
                assert br.eval(pill + ".getBoundingClientRect().right <= " + card +
                               ".getBoundingClientRect().right + 0.5")
    finally:
        if pub is not None:
            pub.close()
        relay.stop()
        broker.stop()
