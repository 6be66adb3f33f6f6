"""The relay's game keeping (host_sim/room/games.py) and its message parser
(host_sim/room/messages.py), without a broker: the ordering rules of
docs/ROOM.md, the archive, and the parser fuzzed."""
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import boards as sgfmill_boards
from sgfmill import sgf as sgfmill_sgf

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from host_sim.room.game import split_game_id
from host_sim.room.games import Room
from host_sim.room.messages import MAX_MESSAGE, parse, parse_moves
from room_boards import SpecGame, encode, random_game, status

B = "b1"
GAME = topic(B, T_GAME)
MOVE = topic(B, T_MOVE)
STATUS = topic(B, T_STATUS)


def feed(room, leaf, msg, board=B):
    return room.handle(topic(board, leaf), encode(msg))


def card(room, board=B):
    return json.loads(room.summary(room.boards[board]))


def sgfmill_position(size, moves, setup=()):
    """The position after `moves` by sgfmill's rules: an independent check of
    the captures the relay takes from the firmware's rules core."""
    bd = sgfmill_boards.Board(size)
    for c, p in setup:
        col, row = ord(p[0]) - 97, size - 1 - (ord(p[1]) - 97)
        bd.play(row, col, c.lower())
    for c, p in moves:
        if p:
            bd.play(size - 1 - (ord(p[1]) - 97), ord(p[0]) - 97, c.lower())
    rows = []
    for r in range(size - 1, -1, -1):
        rows.append("".join({None: ".", "b": "b", "w": "w"}[bd.get(r, c)] for c in range(size)))
    return "".join(rows)


# -- the ordering rules ----------------------------------------------------------


def test_events_in_order_follow_the_game_and_its_captures():
    room = Room()
    g, events = random_game(B, random.Random(5), moves=60)
    first = SpecGame(B)
    assert feed(room, T_GAME, first.snapshot()) == "applied"
    for ev, snap in events:
        assert feed(room, T_MOVE, ev) == "applied"
        assert feed(room, T_GAME, snap) == "applied"
    c = card(room)
    assert c["seq"] == g.seq and c["n"] == len(g.moves)
    assert c["stones"] == sgfmill_position(9, g.moves)
    assert c["captures"] == [g.bd.prisoners[1], g.bd.prisoners[2]]
    assert c["last"] == "W"  # the second pass


def test_events_alone_without_their_snapshots_keep_the_game():
    room = Room()
    g, events = random_game(B, random.Random(6), moves=50)
    feed(room, T_GAME, SpecGame(B).snapshot())
    for ev, _ in events:
        assert feed(room, T_MOVE, ev) == "applied"
    assert card(room)["stones"] == sgfmill_position(9, g.moves)
    assert room.boards[B].game.moves == g.moves


def test_a_duplicate_is_dropped_and_changes_nothing():
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    e1 = g.play("ee")
    e2 = g.play("cc")
    assert feed(room, T_MOVE, e1) == "applied"
    assert feed(room, T_MOVE, e2) == "applied"
    before = card(room)
    assert feed(room, T_MOVE, e1) == "duplicate"
    assert feed(room, T_MOVE, e2) == "duplicate"
    assert room.take_dirty() and not room.take_dirty()  # a duplicate marks nothing changed
    assert card(room) == before


def test_a_gap_waits_for_the_snapshot_that_follows_it():
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    assert feed(room, T_MOVE, g.play("ee")) == "applied"
    g.play("cc")  # lost: never delivered
    e3 = g.play("gg")
    assert feed(room, T_MOVE, e3) == "gap"
    assert card(room)["n"] == 1  # nothing shown out of order
    assert feed(room, T_MOVE, g.play("cg")) == "gap"  # still waiting
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    c = card(room)
    assert c["n"] == 4 and c["seq"] == 4 and not c["waiting"]
    assert c["moves"] == "Bee,Wcc,Bgg,Wcg"
    assert feed(room, T_MOVE, g.play("gc")) == "applied"  # and on it goes


def test_a_take_back_retracts_the_move_and_returns_its_prisoner():
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    # White's stone at aa is captured by B[ab] and B[ba].
    for p in ("ab", "aa", "ee", "ii"):
        feed(room, T_MOVE, g.play(p))
    assert feed(room, T_MOVE, g.play("ba")) == "applied"  # captures aa
    c = card(room)
    assert c["stones"][0] == "." and c["captures"] == [1, 0] and c["lastcap"] == 1
    assert feed(room, T_MOVE, g.undo()) == "applied"
    c = card(room)
    assert c["stones"][0] == "w" and c["stones"][1] == "." and c["captures"] == [0, 0]
    assert c["n"] == 4 and c["last"] == "Wii"
    # The seq kept growing: the next move is seq 7, move 5 again.
    e = g.play("ba")
    assert e["seq"] == 7 and e["n"] == 5
    assert feed(room, T_MOVE, e) == "applied"
    assert card(room)["captures"] == [1, 0]


def test_a_take_back_in_a_snapshot_is_adopted_by_undoing():
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    for p in ("ee", "cc", "gg"):
        feed(room, T_MOVE, g.play(p))
    bd = room.boards[B].game.bd
    g.undo()
    g.undo()  # both made while the board was offline: only the snapshot arrives
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    assert room.boards[B].game.bd is bd  # the same Board, two undos, no rebuild
    assert card(room)["moves"] == "Bee"


def test_the_snapshot_after_its_event_costs_no_rebuild():
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    feed(room, T_MOVE, g.play("ee"))
    bd = room.boards[B].game.bd
    g.phase = "count"
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    assert room.boards[B].game.bd is bd and card(room)["phase"] == "count"


def test_a_late_snapshot_is_ignored_and_a_new_game_replaces_the_old():
    room = Room()
    g = SpecGame(B, game=7)
    feed(room, T_GAME, g.snapshot())
    feed(room, T_MOVE, g.play("ee"))
    old = g.snapshot()
    feed(room, T_MOVE, g.play("cc"))
    assert feed(room, T_GAME, old) == "stale"  # a lower seq (a retained copy, delayed)
    assert card(room)["n"] == 2
    new = SpecGame(B, game=8, size=13, black="Cho", white="Lee")
    e = new.play("gg")
    assert feed(room, T_MOVE, e) == "waiting"  # a newer game: its header comes first
    assert feed(room, T_GAME, new.snapshot()) == "applied"
    c = card(room)
    assert (c["game"], c["size"], c["n"], c["black"]) == (8, 13, 1, "Cho")
    assert feed(room, T_MOVE, g.play("gg")) == "stale"  # the old game's event, late
    assert feed(room, T_GAME, g.snapshot()) == "stale"  # and its snapshot
    games = room.games()
    assert [(x["id"], x["moves"], x["current"]) for x in games] == [
        ("b1-7", 2, False), ("b1-8", 1, True)]
    assert "SZ[9]" in room.sgf("b1-7") and "SZ[13]" in room.sgf("b1-8")


def test_a_snapshot_with_the_same_seq_but_other_moves_wins():
    """The board's journal is the truth: when a snapshot disagrees with what
    the relay built from events, the snapshot replaces it."""
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    feed(room, T_MOVE, g.play("ee"))
    g.moves[-1] = ("B", "dd")
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    assert card(room)["moves"] == "Bdd"


def test_an_event_that_does_not_fit_is_dropped_and_the_game_waits(caplog):
    room = Room()
    g = SpecGame(B)
    feed(room, T_GAME, g.snapshot())
    feed(room, T_MOVE, g.play("ee"))
    bad = {"v": 1, "game": 1, "seq": 2, "t": "move", "n": 2, "c": "W", "p": "ee"}  # occupied
    assert feed(room, T_MOVE, bad) == "dropped"
    assert "occupied" in caplog.text
    assert feed(room, T_MOVE, dict(bad, seq=2, p="ss")) == "gap"  # waiting for the snapshot
    g.play("cc")
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    assert card(room)["moves"] == "Bee,Wcc" and not card(room)["waiting"]


def test_status_online_and_faults():
    room = Room()
    assert feed(room, T_STATUS, status(True, 2, "sensor D4 stuck?")) == "applied"
    c = card(room)
    assert c["online"] and c["faults"] == 2 and c["note"] == "sensor D4 stuck?"
    assert "game" not in c  # no game known yet: the card says so
    feed(room, T_STATUS, {"v": 1, "online": False})
    assert card(room)["online"] is False


def test_handicap_and_setup_stones():
    room = Room()
    g = SpecGame(B, size=19, setup=[("B", "pd"), ("B", "dp")], handicap=2)
    feed(room, T_GAME, g.snapshot())
    feed(room, T_MOVE, g.play("dd", "W"))
    c = card(room)
    assert c["stones"].count("b") == 2 and c["stones"].count("w") == 1
    text = room.sgf("b1-1")
    assert "HA[2]" in text and "AB[pd][dp]" in text or "AB[dp][pd]" in text


# -- the archive -------------------------------------------------------------------


def test_the_end_archives_once_with_the_boards_result(tmp_path):
    room = Room(archive=str(tmp_path))
    g, events = random_game(B, random.Random(9), moves=30, black="Honinbo Shusaku",
                            white="Gennan [Inseki]")
    feed(room, T_GAME, SpecGame(B).snapshot())
    for ev, snap in events:
        feed(room, T_MOVE, ev)
        feed(room, T_GAME, snap)
    path = tmp_path / "b1-1.sgf"
    assert not path.exists()  # counting is not the end
    e = g.end("B+3.5")
    assert feed(room, T_MOVE, e) == "applied"
    assert path.exists() and not list(tmp_path.glob("*.tmp"))
    before = path.stat().st_mtime_ns
    feed(room, T_GAME, g.snapshot())  # the snapshot of the end: no second write
    feed(room, T_MOVE, e)
    assert room.counts["archived"] == 1 and path.stat().st_mtime_ns == before
    game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
    root = game.get_root()
    assert root.get("RE") == "B+3.5" and root.get("PW") == "Gennan [Inseki]"
    sent = [(c.lower(), p) for c, p in g.moves]
    got = [(n.get_move()[0], _sgf(n.get_move()[1], 9)) for n in game.get_main_sequence()[1:]]
    assert got == sent
    # A relay started again on the same archive does not write it again.
    again = Room(archive=str(tmp_path))
    feed(again, T_GAME, g.snapshot())
    assert again.counts["archived"] == 0 and path.stat().st_mtime_ns == before
    assert again.games()[0]["archived"]


def test_a_snapshot_over_with_a_result_archives_too(tmp_path):
    room = Room(archive=str(tmp_path))
    g = SpecGame("t-3", game=12)
    g.play("ee")
    g.end("W+R")
    feed(room, T_GAME, g.snapshot(), board="t-3")
    assert (tmp_path / "t-3-12.sgf").read_text().count("RE[W+R]") == 1
    assert split_game_id("t-3-12") == ("t-3", 12)


def _sgf(move, size):
    if move is None:
        return ""
    r, c = move
    return chr(97 + c) + chr(97 + size - 1 - r)


# -- the parser ---------------------------------------------------------------------

SNAP = SpecGame(B, size=19, setup=[("B", "pd"), ("B", "dp")], handicap=2).snapshot()
SNAP["moves"] = ";W[dd];B[qq];W[]"
SNAP["seq"] = 3
REAL = [(GAME, encode(SNAP)),
        (MOVE, encode({"v": 1, "game": 7, "seq": 42, "t": "move", "n": 40, "c": "B", "p": "pd"})),
        (MOVE, encode({"v": 1, "game": 7, "seq": 43, "t": "move", "n": 41, "c": "W", "p": ""})),
        (MOVE, encode({"v": 1, "game": 7, "seq": 44, "t": "undo", "n": 41})),
        (MOVE, encode({"v": 1, "game": 7, "seq": 45, "t": "end", "result": "B+3.5"})),
        (STATUS, encode({"v": 1, "online": True, "faults": 0, "note": "ok"})),
        (STATUS, encode({"v": 1, "online": False}))]


def test_the_documents_examples_parse():
    for t, payload in REAL:
        msg, reason = parse(t, payload)
        assert reason is None and msg["board"] == B, (t, payload, reason)
    msg, _ = parse(GAME, REAL[0][1])
    assert msg["moves"] == [("W", "dd"), ("B", "qq"), ("W", "")]
    assert msg["setup"] == [("B", "pd"), ("B", "dp")]


@pytest.mark.parametrize("t,payload,why", [
    (GAME, b"{", "not JSON"),
    (GAME, b"[1]", "not a JSON object"),
    (GAME, b"\xff\xfe", "not UTF-8"),
    (GAME, b"", "empty"),
    (GAME, b"[" * 4000 + b"]" * 4000, "JSON"),
    (MOVE, b'{"v":2,"game":1,"seq":1,"t":"undo","n":1}', "format"),
    (MOVE, b'{"v":1,"game":1,"seq":1,"t":"move","n":1,"c":"B","p":"zz"}', "SGF point"),
    (MOVE, b'{"v":1,"game":1,"seq":1,"t":"move","n":1,"c":"X","p":"aa"}', "B or W"),
    (MOVE, b'{"v":1,"game":true,"seq":1,"t":"undo","n":1}', "integer"),
    (MOVE, b'{"v":1,"game":1,"seq":-1,"t":"undo","n":1}', "range"),
    (MOVE, b'{"v":1,"game":1,"seq":1,"t":"end","result":"B+lots"}', "result"),
    (MOVE, b'{"v":1,"game":1,"seq":1,"t":"resign"}', "t is not"),
    (GAME, encode(dict(SNAP, moves=";B[tt]")), "moves"),
    (GAME, encode(dict(SNAP, size=9, moves=";B[pd]")), "off a 9x9"),
    (GAME, encode(dict(SNAP, size=20)), "size"),
    (GAME, encode(dict(SNAP, komi="6.5")), "komi"),
    (GAME, b'{"v":1,"komi":NaN}', "JSON"),
    (GAME, encode(dict(SNAP, phase="lunch")), "phase"),
    (GAME, encode(dict(SNAP, black=7)), "black is not a string"),
    (GAME, encode(dict(SNAP, setup="AB[pd][pd]")), "twice"),
    (GAME, encode(dict(SNAP, prisoners=[1])), "prisoners"),
    (STATUS, b'{"v":1,"online":"yes"}', "online"),
    ("gogadget/board/b1/other", REAL[1][1], "topic"),
    ("gogadget/board/b.1/move", REAL[1][1], "topic"),
    ("gogadget/board/b1/move/x", REAL[1][1], "topic"),
    (GAME, b" " * (MAX_MESSAGE + 1), "oversized"),
])
def test_malformed_messages_are_refused_with_a_reason(t, payload, why):
    msg, reason = parse(t, payload)
    assert msg is None and why in reason, reason


def test_free_text_is_cut_and_cleaned_not_refused():
    msg, _ = parse(GAME, encode(dict(SNAP, black="x" * 100, white="Lee\tSedol\u2028")))
    assert msg["black"] == "x" * 64 and msg["white"] == "Lee Sedol "
    msg, _ = parse(STATUS, encode({"v": 1, "online": True, "note": "D4\n" * 100}))
    assert len(msg["note"]) == 200 and "\n" not in msg["note"]


def test_a_dropped_message_is_one_log_line(caplog):
    room = Room()
    lines = []
    room.on_log = lines.append
    big = encode(dict(SNAP, black="x" * MAX_MESSAGE))
    assert room.handle(GAME, big) == "dropped"
    assert len(lines) == 1 and "oversized" in lines[0]
    assert len([r for r in caplog.records if r.name == "gogadget.relay"]) == 1
    assert room.counts["dropped"] == 1 and B not in room.boards


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 40, 2 ** 40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=5),
    max_leaves=20)
_fields = ["v", "game", "seq", "t", "n", "c", "p", "result", "size", "komi", "rules", "handicap",
           "black", "white", "setup", "moves", "phase", "prisoners", "online", "faults", "note"]


def _check(result):
    msg, reason = result
    assert (msg is None) != (reason is None)
    if msg is not None:
        assert msg["kind"] in ("status", "game", "move") and msg["board"] == B
    else:
        assert isinstance(reason, str) and reason and "\n" not in reason


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([GAME, MOVE, STATUS]), st.binary(max_size=300))
def test_fuzz_any_bytes(t, payload):
    _check(parse(t, payload))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([GAME, MOVE, STATUS]), _json)
def test_fuzz_any_json(t, value):
    _check(parse(t, json.dumps(value).encode()))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(range(len(REAL))), st.sampled_from(_fields), _json)
def test_fuzz_real_messages_with_a_field_replaced(i, key, value):
    t, payload = REAL[i]
    d = json.loads(payload)
    d[key] = value
    _check(parse(t, json.dumps(d).encode()))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(range(len(REAL))), st.lists(st.tuples(st.integers(0, 10 ** 6),
                                                             st.integers(0, 255)), max_size=6),
       st.integers(0, 10 ** 6))
def test_fuzz_real_messages_with_bytes_flipped_and_cut(i, flips, cut):
    t, payload = REAL[i]
    b = bytearray(payload)
    for pos, val in flips:
        b[pos % len(b)] = val
    _check(parse(t, bytes(b[:cut % (len(b) + 1) or len(b)])))


def test_fuzz_a_room_fed_mutated_real_games_never_fails_and_stays_consistent():
    """A whole game's messages, some mutated, duplicated, dropped or
    reordered: the relay never raises, and whatever it shows is a position
    the rules core reached (its stones match sgfmill's replay of its moves)."""
    rng = random.Random(13)
    for round_ in range(40):
        room = Room()
        g, events = random_game(B, rng, moves=rng.randrange(5, 40))
        stream = [(GAME, encode(SpecGame(B).snapshot()))]
        for ev, snap in events:
            stream += [(MOVE, encode(ev)), (GAME, encode(snap))]
        out = []
        for t, payload in stream:
            r = rng.random()
            if r < 0.05:
                continue
            if r < 0.15:
                b = bytearray(payload)
                for _ in range(rng.randrange(1, 4)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
                payload = bytes(b)
            out.append((t, payload))
            if r > 0.95:
                out.append((t, payload))
        for k in range(0, len(out) - 1, 7):
            if rng.random() < 0.3:
                out[k], out[k + 1] = out[k + 1], out[k]
        for t, payload in out:
            room.handle(t, payload)
        st_ = room.boards.get(B)
        if st_ is None or st_.game is None:
            continue
        game = st_.game
        assert json.loads(room.summary(st_))["stones"] == sgfmill_position(9, game.moves), round_
        # The last snapshot went through unmutated: the relay ends on the true game.
        if out[-1] == stream[-1]:
            assert game.moves == g.moves


def test_parse_moves_is_strict():
    assert parse_moves(";B[aa];W[]", 9) == [("B", "aa"), ("W", "")]
    for bad in (";B[aa]x", ";B[aa]W[bb]", ";B[a]", ";b[aa]", ";B[aa] ", ";B[jj]"):
        with pytest.raises(ValueError):
            parse_moves(bad, 9)


def test_a_failed_archive_leaves_no_temporary_file_and_is_tried_again(tmp_path, monkeypatch):
    room = Room(archive=str(tmp_path))
    real = os.replace

    def full_disk(a, b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    g = SpecGame(B)
    g.play("ee")  # a game with a move (one not started is never filed)
    g.end("B+R")
    assert feed(room, T_GAME, g.snapshot()) == "applied"
    assert room.counts["archived"] == 0 and not list(tmp_path.iterdir())
    monkeypatch.setattr(os, "replace", real)
    feed(room, T_MOVE, g.end("B+R"))  # the next message for the game tries again
    assert [p.name for p in tmp_path.iterdir()] == ["b1-1.sgf"]
