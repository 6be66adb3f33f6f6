"""link.py on its own: line assembly, bad input, genmove answered later,
the gogadget-* extensions.  The referee is a stand-in with the agreed API
(tests/mp/fake_referee.py); test_link_app.py runs the link on the real App."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "mp"))
from fake_referee import FakeReferee, FakeStream  # noqa: E402

from gogadget import link as linkmod  # noqa: E402
from gogadget.link import Link  # noqa: E402

# link.py's private consts (inlined there: no names on the board).
MAX_LINE = 1312  # _MAX_LINE: the longest line accepted
RX_CHUNK = 256  # _RX_CHUNK: bytes read per poll
EVENT_SLOTS = 64  # _EVENT_SLOTS: events kept


def unread(lk):
    """Bytes the link has read from the stream but not yet looked at
    (Link._state's slots _RX_POS 0 and _RX_LEN 1)."""
    return lk._state[0] < lk._state[1]
from gogadget.points import PASS, parse_vertex  # noqa: E402


def make(size=9, store=None):
    ref = FakeReferee(size)
    stream = FakeStream()
    return ref, stream, Link(ref, stream, store=store)


def ask(lk, stream, line, polls=5):
    stream.feed(line.encode() + b"\n" if isinstance(line, str) else line)
    for _ in range(polls):
        lk.poll(0)
    return stream.take()


def test_basic_commands():
    ref, st, lk = make()
    assert ask(lk, st, "protocol_version") == "= 2\n\n"
    assert ask(lk, st, "7 name") == "=7 GoGadget\n\n"
    cmds = ask(lk, st, "list_commands")
    for name in ("genmove", "play", "gogadget-status", "gogadget-sgf", "gogadget-games",
                 "gogadget-fetch", "gogadget-events", "gogadget-setup", "gogadget-replay"):
        assert "\n" + name + "\n" in "\n" + cmds
    assert ask(lk, st, "frobnicate") == "? unknown command\n\n"


def test_play_is_an_external_move_and_illegal_is_refused():
    ref, st, lk = make()
    assert ask(lk, st, "play b E5") == "= \n\n"
    assert ref.board.cells[parse_vertex(9, "E5")] == 1
    assert ref.outstanding() == 1  # the person is prompted to place it
    assert ask(lk, st, "play w E5").startswith("? illegal move")
    assert ask(lk, st, "play w Z9").startswith("? ")
    assert ref.board.moves == 1


def test_one_command_per_poll():
    ref, st, lk = make()
    st.feed(b"name\nversion\nprotocol_version\n")
    answers = []
    for _ in range(3):
        assert lk.poll(0)
        answers.append(st.take())
    assert answers == ["= GoGadget\n\n", "= " + linkmod.Engine.version(lk, []) + "\n\n", "= 2\n\n"]
    assert not lk.poll(0)


def test_half_sent_command_is_completed_later():
    ref, st, lk = make()
    assert ask(lk, st, b"protocol_ver") == ""
    assert ask(lk, st, b"sion\n") == "= 2\n\n"


def test_overlong_line_is_refused_and_the_buffer_never_grows():
    ref, st, lk = make()
    buf = lk._line
    out = ask(lk, st, "play b " + "A" * (3 * MAX_LINE), polls=40)
    assert out == "? line too long\n\n"
    assert lk._line is buf and len(buf) == MAX_LINE
    assert ask(lk, st, "name") == "= GoGadget\n\n"
    assert ref.board.moves == 0


def test_binary_noise_gets_errors_not_crashes():
    ref, st, lk = make()
    for noise in (b"\x00\x00\x00", b"\xff\xfe\xfd", b"\r", b"pl\x00ay b E5", b"\x1b[A",
                  b"genmove \xff", b"play \x00 \x00", b"boardsize 99999999999999999999"):
        out = ask(lk, st, noise + b"\n")
        assert out == "" or out.startswith("?") or out.startswith("="), (noise, out)
    # NUL inside a command is dropped (GTP 3.1), so "pl\0ay b E5" is a play.
    assert ref.board.moves == 1
    assert ask(lk, st, b"name\r\n") == "= GoGadget\n\n"


def test_genmove_waits_for_the_person():
    ref, st, lk = make()
    assert ask(lk, st, "3 genmove b") == ""
    assert lk.waiting == 1
    # Commands wait behind genmove (GTP answers in order).
    assert ask(lk, st, "name") == ""
    ref.person_move(parse_vertex(9, "C3"))
    lk.poll(0)
    assert st.take() == "=3 C3\n\n"
    assert ask(lk, st, "") == "= GoGadget\n\n"
    assert lk.waiting == 0


def test_genmove_after_the_person_already_moved():
    ref, st, lk = make()
    assert ask(lk, st, "play b D4") == "= \n\n"
    ref.place_all()
    ref.person_move(parse_vertex(9, "F6"))  # quicker than the controller
    assert ask(lk, st, "genmove w") == "= F6\n\n"
    assert ask(lk, st, "genmove w").startswith("? not white")


def test_genmove_pass_and_resign():
    ref, st, lk = make()
    ask(lk, st, "genmove b")
    ref.person_move(PASS)
    lk.poll(0)
    assert st.take() == "= pass\n\n"
    ask(lk, st, "genmove w")
    ref.person_resign()
    lk.poll(0)
    assert st.take() == "= resign\n\n"


def test_wrong_colour_genmove_is_an_error():
    ref, st, lk = make()
    assert ask(lk, st, "genmove w").startswith("? not white")
    assert lk.waiting == 0


def test_events_since_last_call():
    ref, st, lk = make()
    ask(lk, st, "events-are-drained-by-poll")
    ask(lk, st, "play b E5")
    out = ask(lk, st, "gogadget-events")
    assert "move E5" in out
    assert ask(lk, st, "gogadget-events") == "= \n\n"


def test_event_ring_overflow_is_counted():
    ref, st, lk = make()
    ask(lk, st, "gogadget-events")
    for i in range(EVENT_SLOTS + 5):
        ref.events.append(("prompt", str(i)))
    out = ask(lk, st, "gogadget-events")
    assert "dropped 5" in out
    assert "prompt %d" % (EVENT_SLOTS + 4) in out


def test_status_and_sgf():
    ref, st, lk = make()
    ask(lk, st, "play b E5")
    status = ask(lk, st, "gogadget-status")
    assert "phase=play" in status and "turn=W" in status and "outstanding=1" in status
    sgf = ask(lk, st, "gogadget-sgf")
    assert sgf.startswith("= (;") and "B[ee]" in sgf and "\n\n" not in sgf[:-2]


def test_game_names_are_confined(tmp_path):
    (tmp_path / "0001.sgf").write_text("(;GM[1]SZ[9];B[ee])")
    (tmp_path / "secret.txt").write_text("no")
    ref, st, lk = make(store=str(tmp_path))
    assert ask(lk, st, "gogadget-games") == "= 0001.sgf\n\n"
    assert "B[ee]" in ask(lk, st, "gogadget-fetch 0001.sgf")
    for bad in ("../0001.sgf", "/etc/passwd", "..", "secret.txt", "0001.sgf/..", "0002.sgf",
                "a/0001.sgf", "..\\0001.sgf", "00001.sgf"):
        out = ask(lk, st, "gogadget-fetch " + bad)
        assert out.startswith("? "), bad
    assert ask(lk, st, "printsgf x.sgf").startswith("? ")
    assert ask(lk, st, "gogadget-fetch ../1.sgf") == "? bad game name (expected NNNN.sgf)\n\n"
    assert ask(lk, st, "gogadget-fetch 0042.sgf") == "? no such game 0042.sgf\n\n"


def test_setup_and_free_handicap():
    ref, st, lk = make()
    assert ask(lk, st, "gogadget-setup b D4 E5 w C3") == "= \n\n"
    assert ref.outstanding() == 3
    assert ask(lk, st, "gogadget-setup D4").startswith("? colour expected")
    assert ask(lk, st, "gogadget-setup b D4 D4").startswith("? bad vertex")
    ask(lk, st, "clear_board")
    assert ask(lk, st, "fixed_handicap 2") == "= G7 C3\n\n"
    assert ask(lk, st, "fixed_handicap 2").startswith("? board not empty")


def test_the_longest_real_lines_fit():
    # set_free_handicap as GoGui and Sabaki send a set-up position (every
    # black stone; GTP allows up to one fewer than the points) and the
    # host's gogadget-setup naming every point, each with a 10-digit id.
    ref, st, lk = make(19)
    every = [c + str(r) for c in "ABCDEFGHJKLMNOPQRST" for r in range(1, 20)]
    line = "4294967295 gogadget-setup black " + " ".join(every[:180]) + " white " + " ".join(every[180:])
    assert len(line) == 1310 <= MAX_LINE
    assert ask(lk, st, line, polls=12) == "=4294967295 \n\n"
    ask(lk, st, "clear_board")
    handicap = sorted(every, key=len, reverse=True)[:360]  # the 360 longest vertices
    line = "4294967295 set_free_handicap " + " ".join(handicap)
    assert len(line) == 1298
    assert ask(lk, st, line, polls=12) == "=4294967295 \n\n"
    assert ask(lk, st, "1" + " " * MAX_LINE + "name", polls=12) == "? line too long\n\n"


def fuzz_line(rng):
    kind = rng.random()
    words = ["play", "genmove", "boardsize", "komi", "undo", "gogadget-fetch", "gogadget-setup",
             "fixed_handicap", "gogadget-replay", "clear_board", "gogadget-new", "loadsgf"]
    if kind < 0.4:
        n = rng.randrange(0, 40)
        return bytes(rng.randrange(256) for _ in range(n))
    if kind < 0.8:
        # Commands the board would act on, with garbage arguments: they must
        # fail without touching the game.  (genmove, clear_board, boardsize,
        # gogadget-new etc. change the game when well formed, so only their
        # malformed forms are sent.)
        w = rng.choice(words)
        arg = bytes(rng.choice(b"\x00\xff\r\t ..//zZ9-+ \x7f") for _ in range(rng.randrange(1, 8)))
        arg += b"z"  # at least one bad word: never a well-formed command
        return w.encode() + b" " + arg + b" " + arg
    if kind < 0.9:
        return b"x" * rng.randrange(MAX_LINE - 5, MAX_LINE + 5)
    return rng.choice([b"", b"\r", b"#comment", b"   ", b"\t", b"1", b"12 ", b"=", b"?"])


def test_fuzz_100k_lines_change_nothing():
    ref, st, lk = make()
    ask(lk, st, "play b E5")
    ref.place_all()
    ask(lk, st, "play w C3")
    ref.place_all()
    ask(lk, st, "gogadget-events")
    before = (bytes(ref.board.cells), ref.board.moves, ref.sgf())
    rng = random.Random(20240613)
    answered = 0
    ok = []
    for i in range(100_000):
        line = fuzz_line(rng)
        st.feed(line + b"\n")
        polls = 0
        while st.inbox or unread(lk):
            lk.poll(i)
            polls += 1
        assert polls <= 2 + line.count(b"\n") + (len(line) + 1) // RX_CHUNK
        out = st.take()
        if out:
            answered += 1
            assert out.endswith("\n\n") and out[0] in "=?", (line, out)
            if out[0] == "=":
                ok.append(line)
        assert lk.waiting == 0, line
        assert len(lk._line) == MAX_LINE
    assert answered > 50_000
    # What succeeded was harmless: undo of nothing fails, so only queries.
    assert all(b"undo" not in line for line in ok), ok[:5]
    assert (bytes(ref.board.cells), ref.board.moves, ref.sgf()) == before
    assert ask(lk, st, "name") == "= GoGadget\n\n"
    assert ask(lk, st, "play b D4") == "= \n\n"
