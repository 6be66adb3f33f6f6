"""What the relay believes of a board, second round (issue 36, findings 2-5
and 9; issue 35, finding 2), without a broker: no board changes what the
page shows of another, a game number or seq published ahead of the board's
cannot silence its real game, the archive holds what the page says (a
reopened game archived again, every file listed, a quota a board a day),
and superko costs O(1) a move.  docs/ROOM.md's threat model names these
tests."""
import itertools
import json
import os
import random

import pytest

from gogadget import board as core
from gogadget.board import KO, OK, SUPERKO, Board
from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from gogadget.pairing import T_PAIR
from gogadget.points import BLACK, WHITE
from gogadget.rules import PRESETS, Rules
from host_sim.bench.relayrules import long_game, snapshot as big_snapshot
from host_sim.room.archive import QUOTA_GAMES
from host_sim.room.games import Room
from host_sim.room.history import SUPERKO as SUPERKO_RULES, HashedBoard
from room_boards import SpecGame, encode, status


def feed(room, board, leaf, msg):
    return room.handle(topic(board, leaf), encode(msg) if isinstance(msg, dict) else msg)


def card(room, board):
    return json.loads(room.summary(room.boards[board]))


def play(room, g, *points):
    for p in points:
        assert feed(room, g.id, T_MOVE, g.play(p)) == "applied", p


def pair(room, board, pair_id, colour, opponent):
    return feed(room, board, T_PAIR, {"v": 1, "pair": pair_id, "colour": colour,
                                       "opponent": opponent})


def shown(room):
    """The cards the page shows (a mirror is hidden), by board id."""
    return {c["id"]: c for c in map(json.loads, room.full_state()) if not c.get("mirror")}


# -- issue 36, finding 2: no board hides or speaks for another -----------------------


def test_an_empty_record_hides_no_board():
    """The issue's reproduction: table-2's retained pair(round1, W, table-1),
    then its game 8 of 4 moves; table-1 publishes the matching pair and an
    empty game 3 with the same settings, in every order.  table-2's card
    stays, with its own moves, and table-1's empty board is not shown as
    their game."""
    for order in itertools.permutations(range(3)):
        room = Room()
        t2 = SpecGame("table-2", game=8)
        t1 = SpecGame("table-1", game=3)
        steps = [lambda: pair(room, "table-2", "round1", "W", "table-1"),
                 lambda: feed(room, "table-2", T_GAME, t2.snapshot()),
                 lambda: (pair(room, "table-1", "round1", "B", "table-2"),
                          feed(room, "table-1", T_GAME, t1.snapshot()))]
        for i in order:
            steps[i]()
        play(room, t2, "cc", "gg", "cg", "gc")
        cards = shown(room)
        assert "table-2" in cards and cards["table-2"]["n"] == 4, order
        assert cards["table-1"]["n"] == 0 and not cards["table-1"].get("opponent"), order
        play(room, t2, "ee", "dd", "ff", "hh")  # "through 8 moves"
        assert shown(room)["table-2"]["n"] == 8, order


def test_a_board_cannot_show_moves_on_another_boards_behalf():
    """table-1 (with its own password) copies table-2's record and plays on
    for it: more than its own one move ahead, or a move of table-2's colour,
    is not one game, so table-2's card shows its own record."""
    room = Room()
    t2 = SpecGame("table-2", game=8)
    t1 = SpecGame("table-1", game=3)
    pair(room, "table-2", "round1", "W", "table-1")
    pair(room, "table-1", "round1", "B", "table-2")
    for g in (t1, t2):
        feed(room, g.id, T_GAME, g.snapshot())
    for p in ("cc", "gg"):
        play(room, t1, p)
        play(room, t2, p)
    assert set(shown(room)) == {"table-1"}  # one game, the same record: a real pairing
    play(room, t1, "cg")  # Black's own move, a move ahead: still one game, on Black's card
    assert set(shown(room)) == {"table-1"} and shown(room)["table-1"]["n"] == 3
    play(room, t1, "gc")  # and White's move, which table-2 never played
    cards = shown(room)
    assert cards["table-2"]["n"] == 2 and cards["table-1"]["n"] == 4
    # White's board a move ahead with its own move: its card shows the game.
    room = Room()
    b, w = SpecGame("b1", game=1), SpecGame("b2", game=1)
    pair(room, "b1", "g", "B", "b2")
    pair(room, "b2", "g", "W", "b1")
    for g in (b, w):
        feed(room, g.id, T_GAME, g.snapshot())
    play(room, b, "cc")
    play(room, w, "cc", "gg")
    assert set(shown(room)) == {"b2"} and shown(room)["b2"]["n"] == 2
    # Black's board ahead with White's move: not its move to show.
    play(room, b, "gg")
    play(room, b, "cg")
    play(room, w, "cg")
    feed(room, "b1", T_MOVE, b.play("gc"))
    assert set(shown(room)) == {"b1", "b2"}


# -- issue 36, finding 3: a number published ahead silences nothing -------------------


@pytest.mark.parametrize("fake_game,fake_seq", [(1009, 3), (10, 500)])
def test_a_game_number_or_seq_ahead_does_not_silence_the_real_game(tmp_path, fake_game,
                                                                      fake_seq):
    """Who has table-3's password publishes game 1009 (or game 10 at seq 500)
    while table-3 plays game 9: the broker throws table-3 off (its will), and
    when it is back (its status) its real game 10 is shown and played, and
    archived where /games.json says, beside the fake one, across restarts."""
    room = Room(archive=str(tmp_path))
    real9 = SpecGame("table-3", game=9)
    feed(room, "table-3", T_STATUS, status())
    feed(room, "table-3", T_GAME, real9.snapshot())
    play(room, real9, "cc")
    # The impostor's connection throws table-3 off: its will, then the fake.
    feed(room, "table-3", T_STATUS, status(online=False))
    fake = SpecGame("table-3", game=fake_game)
    fake.seq = fake_seq
    assert feed(room, "table-3", T_GAME, fake.snapshot()) == "applied"
    play(room, fake, "ee")
    assert feed(room, "table-3", T_MOVE, fake.end("W+R")) == "applied"
    # table-3 is back: its status, then its game as it stands.
    real = SpecGame("table-3", game=10)
    feed(room, "table-3", T_STATUS, status())
    assert feed(room, "table-3", T_GAME, real.snapshot()) == "applied"
    play(room, real, "dd", "ff")
    assert card(room, "table-3")["game"] == 10 and card(room, "table-3")["n"] == 2
    assert feed(room, "table-3", T_MOVE, real.end("B+R")) == "applied"
    info = {(x["game"], x["moves"]): x for x in room.games()}
    mine = info[(10, 2)]
    assert mine["archived"] and mine["result"] == "B+R"
    files = room.archive_files()
    assert sorted(os.listdir(tmp_path)) == files  # every file written is listed
    assert mine["file"] in files and len(files) == 2
    assert "RE[B+R]" in room.archive_file(mine["file"])
    # A restart: both records listed and served by their file names.
    again = Room(archive=str(tmp_path))
    assert again.archive_files() == files
    texts = [again.archive_file(f) for f in files]
    assert sum("RE[B+R]" in t and "B[dd]" in t for t in texts) == 1
    assert sum("RE[W+R]" in t for t in texts) == 1
    if fake_game == 10:
        assert again.sgf("table-3-10") is None  # two records, one id: the relay does not choose
    else:
        assert "RE[B+R]" in again.sgf("table-3-10") and "RE[W+R]" in again.sgf("table-3-1009")
    assert again.archive_file("../table-3-10.sgf") is None
    assert again.archive_file("table-3-10.3.sgf") is None


def test_a_fake_next_game_does_not_hold_the_boards_next_game():
    """The impostor publishes table-3's next game (10, at seq 500) while the
    board plays game 9: the board, back, says game 9 again; its real game 10
    then starts at seq 0 and is shown (the fake one is gone from the page)."""
    room = Room()
    g9 = SpecGame("table-3", game=9)
    feed(room, "table-3", T_STATUS, status())
    feed(room, "table-3", T_GAME, g9.snapshot())
    play(room, g9, "cc")
    feed(room, "table-3", T_STATUS, status(online=False))  # thrown off: its will
    fake = SpecGame("table-3", game=10)
    fake.seq = 500
    feed(room, "table-3", T_GAME, fake.snapshot())
    feed(room, "table-3", T_STATUS, status())  # back
    assert feed(room, "table-3", T_GAME, g9.snapshot()) == "applied"
    assert card(room, "table-3")["game"] == 9
    play(room, g9, "gg")
    real = SpecGame("table-3", game=10)
    assert feed(room, "table-3", T_GAME, real.snapshot()) == "applied"
    play(room, real, "ee")
    c = card(room, "table-3")
    assert (c["game"], c["n"], c["seq"]) == (10, 1, 1)
    assert [x["seq"] for x in room.games() if x["game"] == 10] == [1]


def test_without_a_status_the_ordering_rules_stand():
    """Between two statuses the board's stream is in order: an older game's
    or a lower seq's snapshot is a leftover and changes nothing."""
    room = Room()
    g = SpecGame("b1", game=5)
    feed(room, "b1", T_STATUS, status())
    feed(room, "b1", T_GAME, g.snapshot())
    play(room, g, "cc", "dd")
    old = SpecGame("b1", game=4)
    assert feed(room, "b1", T_GAME, old.snapshot()) == "stale"
    behind = dict(g.snapshot(), seq=1, moves=";B[cc]")
    assert feed(room, "b1", T_GAME, behind) == "stale"
    assert card(room, "b1")["n"] == 2


# -- issue 36, finding 4: a reopened game is archived again ----------------------------


def test_a_take_back_after_the_end_archives_the_game_again(tmp_path):
    """The board takes a take-back after the end (its referee does: undo
    clears the result), so the relay reopens the game and archives it again
    when it ends again: the archive holds what the page says."""
    for by in ("events", "snapshots"):
        folder = tmp_path / by
        room = Room(archive=str(folder))
        g = SpecGame("table-3", game=208)
        feed(room, "table-3", T_GAME, g.snapshot())
        play(room, g, "cc", "gg", "cg", "gc")
        ev = g.end("W+R")
        feed(room, "table-3", T_MOVE, ev) if by == "events" else \
            feed(room, "table-3", T_GAME, g.snapshot())
        assert room.games()[0]["archived"]
        ev = g.undo()
        g.phase, g.result = "play", ""
        feed(room, "table-3", T_MOVE, ev) if by == "events" else \
            feed(room, "table-3", T_GAME, g.snapshot())
        info = room.games()[0]
        assert not info["archived"] and info["phase"] == "play"
        for p in ("ee", "", ""):
            ev = g.play(p)
            feed(room, "table-3", T_MOVE, ev) if by == "events" else \
                feed(room, "table-3", T_GAME, g.snapshot())
        ev = g.end("B+R")
        feed(room, "table-3", T_MOVE, ev) if by == "events" else \
            feed(room, "table-3", T_GAME, g.snapshot())
        info = room.games()[0]
        assert info["archived"] and info["result"] == "B+R" and info["moves"] == 6, by
        # No file is replaced by another record: the first ending stays beside
        # the game's record, both listed, the game's entry names its own.
        assert info["file"] == "table-3-208.2.sgf", by
        assert sorted(os.listdir(folder)) == room.archive_files() == [
            "table-3-208.2.sgf", "table-3-208.sgf"], by
        text = (folder / info["file"]).read_text()
        assert "RE[B+R]" in text and "W[ee]" in text and "W[gc]" not in text, by
        assert "RE[W+R]" in (folder / "table-3-208.sgf").read_text(), by
        assert room.sgf("table-3-208") == text  # the game's URL: its record now


# -- issue 36, finding 5: a quota a board a day ----------------------------------------


def test_one_board_cannot_fill_the_archive(tmp_path):
    """300 one-move B+R games from one board: at most QUOTA_GAMES files that
    day, one log line, and another board's game is still archived; the next
    day the board archives again; a restart counts the day's files."""
    room = Room(archive=str(tmp_path))
    lines = []
    room.on_log = lines.append
    for n in range(1, 301):
        g = SpecGame("loud", game=n)
        feed(room, "loud", T_GAME, g.snapshot())
        play(room, g, "ee")
        feed(room, "loud", T_MOVE, g.end("B+R"))
    assert len(os.listdir(tmp_path)) == QUOTA_GAMES
    assert len([x for x in lines if "quota" in x]) == 1 and "loud" in lines[-1]
    other = SpecGame("quiet", game=1)
    feed(room, "quiet", T_GAME, other.snapshot())
    play(room, other, "ee")
    feed(room, "quiet", T_MOVE, other.end("W+R"))
    assert (tmp_path / "quiet-1.sgf").exists()
    # A restart the same day: the day's files count.
    again = Room(archive=str(tmp_path))
    g = SpecGame("loud", game=301)
    feed(again, "loud", T_GAME, g.snapshot())
    play(again, g, "ee")
    feed(again, "loud", T_MOVE, g.end("B+R"))
    assert not (tmp_path / "loud-301.sgf").exists()
    # The next day.
    again.now = lambda: 86400 * 2 + __import__("time").time()
    g = SpecGame("loud", game=302)
    feed(again, "loud", T_GAME, g.snapshot())
    play(again, g, "ee")
    feed(again, "loud", T_MOVE, g.end("B+R"))
    assert (tmp_path / "loud-302.sgf").exists()


def test_the_quota_counts_bytes_too(tmp_path):
    room = Room(archive=str(tmp_path), quota_bytes=1000)
    for n in range(1, 20):
        g = SpecGame("b1", game=n, size=19)
        feed(room, "b1", T_GAME, g.snapshot())
        play(room, g, "dd", "pp", "dp", "pd")
        feed(room, "b1", T_MOVE, g.end("B+R"))
    total = sum(os.path.getsize(tmp_path / f) for f in os.listdir(tmp_path))
    assert 0 < total <= 1000 and len(os.listdir(tmp_path)) < 19


# -- issue 36, finding 9: superko O(1) a move ------------------------------------------


@pytest.mark.parametrize("rules", ["chinese", "aga"])
def test_superko_looks_through_no_history_a_move(rules):
    """A new game's ~8 KB snapshot (1300 moves) under positional (chinese)
    and situational (aga) superko: the firmware's history search looks at
    no more positions than there are moves in all (it looked at each
    earlier position for most moves: ~n^2/2, 55 ms)."""
    moves = long_game()
    n = moves.count(";")
    Board(9)  # the history search is installed with the first Board
    find = core._FAST[2]
    looked = [0]

    def counting(history, k, h):
        r = find(history, k, h)
        looked[0] += k - r if r >= 0 else k + 1
        return r
    core._FAST[2] = counting
    try:
        room = Room()
        what = room.handle(topic("b1", T_GAME), big_snapshot(1, n, rules, moves))
    finally:
        core._FAST[2] = find
    assert what == "applied"
    assert len(room.boards["b1"].game.moves) == n > 1000
    assert looked[0] <= n, (looked[0], n)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_hashed_board_decides_as_the_firmware(preset):
    """HashedBoard answers every play as the firmware's Board does, under
    every preset's ko and suicide rules, through captures, ko fights, passes
    and take-backs on a small board (where positions repeat)."""
    r = Rules(preset)
    rng = random.Random(preset)
    plain, hashed = Board(5, r.ko, r.suicide), HashedBoard(5, r.ko, r.suicide)
    pts = plain.points()
    refused = set()
    for step in range(400):
        col = plain.to_move()
        answers = [plain.legal(col, pt) for pt in pts]
        assert answers == [hashed.legal(col, pt) for pt in pts], (preset, step)
        refused.update(answers)
        ok = [pt for pt, a in zip(pts, answers) if a == OK]
        x = rng.random()
        if x < 0.08 and plain.moves:
            assert plain.undo() and hashed.undo()
        elif x < 0.15 or not ok:
            plain.pass_move(col)
            hashed.pass_move(col)
        else:
            pt = rng.choice(ok)
            assert plain.play(col, pt) == hashed.play(col, pt) == OK
        assert plain.cells == hashed.cells and plain.hash == hashed.hash
    assert plain.prisoners[BLACK] + plain.prisoners[WHITE] > 0  # captures happened
    if r.ko in SUPERKO_RULES:
        # Repetitions were refused on the way, found through the index (the
        # firmware calls an immediate recapture KO under superko too).
        assert refused & {KO, SUPERKO}, (preset, refused)


# -- issue 35, finding 2: a new remote game after earlier ones --------------------------


def test_a_new_pairing_after_the_boards_earlier_games():
    """The README's two-board game to a resignation, then both boards start
    a new game and `remote ... --game g3`: the relay pairs them, whatever
    the order of each board's pair message and its new game's first
    snapshot (a pair message before the new game's snapshot, while the
    relay still holds the previous game, was spent at once)."""
    for order in itertools.permutations(range(4)):
        room = Room()
        b, w = SpecGame("table-1", game=4), SpecGame("table-2", game=6)
        pair(room, "table-1", "g2", "B", "table-2")
        pair(room, "table-2", "g2", "W", "table-1")
        for g in (b, w):
            feed(room, g.id, T_GAME, g.snapshot())
        for p in ("ee", "cc", "gg"):
            play(room, b, p)
            play(room, w, p)
        assert card(room, "table-2")["mirror"]
        for g in (b, w):
            feed(room, g.id, T_MOVE, g.end("B+R"))
        for x in ("table-1", "table-2"):  # each board clears its pair message
            room.handle(topic(x, T_PAIR), b"")
        nb, nw = SpecGame("table-1", game=5), SpecGame("table-2", game=7)
        steps = [lambda: pair(room, "table-1", "g3", "B", "table-2"),
                 lambda: feed(room, "table-1", T_GAME, nb.snapshot()),
                 lambda: pair(room, "table-2", "g3", "W", "table-1"),
                 lambda: feed(room, "table-2", T_GAME, nw.snapshot())]
        for i in order:
            steps[i]()
        c1, c2 = card(room, "table-1"), card(room, "table-2")
        assert c1.get("opponent") == "table-2" and c2.get("mirror"), order
        play(room, nb, "dd")
        play(room, nw, "dd")
        assert card(room, "table-2")["mirror"] and card(room, "table-1")["n"] == 1, order


def test_every_archive_file_is_listed_and_served_over_http(tmp_path):
    """/games.json lists every file in the archive (this run's and earlier
    runs'), and /archive/<file> serves each; nothing else of the folder is
    served.  No broker: the relay serves while it looks for one."""
    import urllib.error
    import urllib.request

    from host_sim.room.broker import free_port
    from host_sim.room.relay import Relay
    folder = tmp_path / "a"
    for run in range(2):
        r = Relay("mqtt://127.0.0.1:%d" % free_port(), ("127.0.0.1", 0), str(folder)).start()
        try:
            if run == 0:
                for seq0, result in ((0, "W+R"), (500, "B+R")):  # two records, one number
                    feed(r.room, "table-3", T_STATUS, status())
                    g = SpecGame("table-3", game=812)
                    g.seq = seq0
                    feed(r.room, "table-3", T_GAME, g.snapshot())
                    play(r.room, g, "ee")
                    feed(r.room, "table-3", T_MOVE, g.end(result))
                (folder / "notes.txt").write_text("not a record")
            host, port = r.httpd.server_address[:2]
            base = "http://%s:%d" % (host, port)
            with urllib.request.urlopen(base + "/games.json", timeout=10) as f:
                files = json.load(f)["files"]
            assert files == ["table-3-812.2.sgf", "table-3-812.sgf"], run
            texts = []
            for name in files:
                with urllib.request.urlopen(base + "/archive/" + name, timeout=10) as f:
                    texts.append(f.read().decode())
            assert sorted("RE[B+R]" in t for t in texts) == [False, True], run
            for bad in ("notes.txt", "table-3-812.3.sgf", "..%2Fa%2Ftable-3-812.sgf",
                        "../a/table-3-812.sgf"):
                with pytest.raises(urllib.error.HTTPError):
                    urllib.request.urlopen(base + "/archive/" + bad, timeout=10)
        finally:
            r.stop()


def test_the_relay_pairs_a_new_remote_game_after_earlier_ones_over_mosquitto(tmp_path):
    """Issue 35's reproduction with the firmware's publisher and pairing on
    two simulated boards through Mosquitto: a paired game (g2) to a
    resignation with the relay running; both boards leave, start a new
    game, and come back as `remote ... --game g3` (status, pair, then the
    new game's snapshot): the relay shows one card for g3 within 20 s."""
    from remote_boards import level, pair_up, play_move, pump
    from room_boards import wait_for
    from test_room_remote import start_room, stop_room
    broker, relay = start_room(tmp_path, boards=("b1", "b2"))
    sides = []

    def cards():
        return {b: json.loads(relay.room.summary(relay.room.boards[b])) for b in ("b1", "b2")
                if b in relay.room.boards}
    try:
        sides = pair_up(broker, tmp_path / "boards", pair="g2", seed=7)
        black, white = sides
        for _ in range(4):
            play_move(sides)
        level(sides)
        wait_for(lambda: cards().get("b2", {}).get("mirror"), 20, "g2 shown once")
        if white.ref.to_move() == white.colour:
            play_move(sides)
        white.sim.press("resign")
        pump(sides, lambda: black.ref.result and white.ref.result, 30, "the result at both")
        pump(sides, lambda: all(s.follower.done for s in sides) and all(s.idle() for s in sides),
             30, "the pair messages cleared")
        wait_for(lambda: all(c.get("phase") == "over" and not c.get("mirror")
                             for c in cards().values()), 20, "g2 over at the relay")
        for s in sides:  # both boards leave; a new game on each (`--new`)
            s.pub.close()
            s.sim.app.broadcast = None
            s.sim.press("new")
            s.sim.settle()
            assert s.person.tidy(), s.ref.status()  # the old game's stones off the board
            assert s.ref.phase != "over" and s.ref.board.moves == 0
        for s in sides:  # `remote ... --game g3`
            s.pair = "g3"
            s._connect()
        pump(sides, lambda: all(s.follower.agreed and s.follower.game >= 0 and s.idle()
                                for s in sides), 30, "the pairing g3")
        wait_for(lambda: cards()["b1"].get("pair") == "g3" and cards()["b2"].get("mirror"), 20,
                 "g3 shown once: %s" % cards())
        play_move(sides)
        level(sides)
        wait_for(lambda: cards()["b1"].get("n") == 1 and cards()["b2"].get("mirror"), 20,
                 "g3's first move on one card")
    finally:
        for s in sides:
            if s.sim.app.broadcast is not None:
                s.pub.close()
        relay.stop()
        broker.stop()


def test_board_and_relay_both_keep_a_reopened_games_two_endings(tmp_path):
    """Board and relay agree on a take-back after the end: the board's
    referee takes it (undo clears the result) and keeps the game again when
    it ends again (0001.sgf, then 0002.sgf, its number unchanged); the
    relay, fed by the board's own publisher, keeps both endings too
    (table-3-1.sgf, table-3-1.2.sgf), each the same record as the board's."""
    from sgfmill import sgf as sgfmill_sgf

    from gogadget.broadcast import Broadcaster
    from gogadget.points import parse_sgf_coord
    from host_sim.person.replay import Person
    from host_sim.room.client import NullClient
    from host_sim.sim.virtual import Simulator, make_config
    room = Room(archive=str(tmp_path / "archive"))

    class Wire(NullClient):
        def publish(self, topic, msg, retain=False, qos=0):
            room.handle(bytes(topic).decode(), bytes(msg))

    store = tmp_path / "board"
    store.mkdir()
    sim = Simulator(make_config(size=9), seed=3, store_dir=str(store))
    ref = sim.referee
    pub = Broadcaster(Wire, "table-3")
    sim.app.broadcast = pub
    pub.attach(ref)
    person = Person(sim, random.Random(1), late=0.0, bump=0.0, max_delay_ms=sim.period_ms * 3)

    def play_at(v):
        n = ref.board.moves
        person.play_stone(ref.board.to_move(), ref.place(parse_sgf_coord(9, v)))
        assert person.tidy() and ref.board.moves == n + 1, ref.status()

    def settle():
        for _ in range(30):
            sim.step()

    settle()  # booted, its status and empty game published
    for v in ("cc", "gg", "cg"):
        play_at(v)
    sim.press("resign")
    sim.settle()
    settle()
    assert ref.phase == "over" and room.games()[0]["archived"]
    assert ref.undo()  # the take-back after the end: the board takes it
    sim.settle()
    assert person.tidy() and ref.phase == "play" and not ref.result
    settle()
    assert room.games()[0]["phase"] == "play" and not room.games()[0]["archived"]
    play_at("ee")
    sim.press("resign")
    sim.settle()
    settle()
    assert ref.phase == "over"

    def record(path):
        g = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
        return [n.get_move() for n in g.get_main_sequence()[1:]], g.get_root().get("RE")
    kept = [record(store / n) for n in ("0001.sgf", "0002.sgf")]
    assert sorted(p.name for p in store.glob("*.sgf")) == ["0001.sgf", "0002.sgf"]
    archive = tmp_path / "archive"
    assert room.archive_files() == ["table-3-1.2.sgf", "table-3-1.sgf"]
    filed = [record(archive / n) for n in ("table-3-1.sgf", "table-3-1.2.sgf")]
    assert filed == kept and kept[0] != kept[1]
    info = room.games()[0]
    assert info["archived"] and info["file"] == "table-3-1.2.sgf" and info["result"] == ref.result
