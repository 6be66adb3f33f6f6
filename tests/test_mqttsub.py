"""gogadget.mqttsub: a PUBLISH's payload is read, in the pieces the socket
gives, into the one small window the module made at boot (never a block of
the payload's size, nor a buffer of it held all game: issue 35's
MemoryError "allocating 4187 bytes" with 68 KB free, then a paired board
short of heap): a small message reaches the callback whole from the window,
a longer one as a stream read through it; a payload over MESSAGE_MAX is
read off and dropped whole, counted, and the next message is read as ever.
pairing.Follower parses the opponent's snapshot as it streams (no copy of
it anywhere), and a snapshot it cannot read, or cut short, changes nothing."""
import sys
from pathlib import Path

import pytest

from gogadget import mqttsub
from gogadget.mqttsub import MESSAGE_MAX, WINDOW, Client
from gogadget.pairing import Follower, pair_message
from gogadget.points import BLACK, PASS, WHITE, parse_sgf_coord

sys.path.insert(0, str(Path(__file__).resolve().parent / "mp"))
from piece_socket import Sock, node, publish, snapshot  # noqa: E402

THEM = b"gogadget/board/b2/"


def client(data, piece=7):
    c = Client("b1", "broker", 1883, None, None, 1)
    c.sock = Sock(data, piece)
    return c


def read_all(msg, into=None):
    """A streamed payload (the client), read as pairops reads it: through
    its window, in what pieces the socket gives."""
    out = bytearray()
    w = msg.window if into is None else into
    while True:
        n = msg.readinto(w[3:])  # (not at the window's start: any part of it)
        if not n:
            return bytes(out)
        out += w[3:3 + n]


def test_a_payload_in_small_pieces_reaches_the_callback_as_a_stream_through_the_window():
    payload = snapshot(400)
    assert 4000 < len(payload) <= MESSAGE_MAX
    c = client(publish(THEM + b"game", payload, 0x1234), piece=7)
    got = []
    c.set_callback(lambda topic, msg: got.append(
        (topic, read_all(msg), msg.window is mqttsub._window)))
    assert c.wait_msg() == 0x30
    assert got == [(THEM + b"game", payload, True)]
    assert bytes(c.sock.out) == b"\x40\x02\x12\x34"  # its PUBACK
    # Only the topic was read in one block: the payload went through the window.
    assert c.sock.largest_read == len(THEM + b"game")


def test_a_small_payload_reaches_the_callback_whole_from_the_window():
    payload = pair_message("g1", WHITE, "b1")
    c = client(publish(THEM + b"pair", payload, 3), piece=7)
    got = []
    c.set_callback(lambda topic, msg: got.append((bytes(msg), isinstance(msg, memoryview))))
    assert c.wait_msg() == 0x30
    assert got == [(payload, True)]


def test_what_the_callback_leaves_of_a_stream_is_read_off_and_the_next_is_read():
    data = publish(THEM + b"game", snapshot(200), 1) + publish(THEM + b"move", b'{"v":1}', 2)
    c = client(data, piece=100)
    got = []

    def cb(topic, msg):
        got.append(topic)
        if not isinstance(msg, memoryview):
            msg.readinto(msg.window)  # one piece, the rest left
    c.set_callback(cb)
    assert c.wait_msg() == 0x30 and c.wait_msg() == 0x30
    assert got == [THEM + b"game", THEM + b"move"]
    assert c.sock.at == len(data) and bytes(c.sock.out) == b"\x40\x02\x00\x01\x40\x02\x00\x02"


def test_a_payload_over_the_buffer_is_drained_and_dropped_and_the_next_is_read():
    before = Client.too_big
    big = b"x" * (MESSAGE_MAX + 1)
    data = publish(THEM + b"game", big, 1) + publish(THEM + b"move", b'{"v":1}', 2)
    c = client(data, piece=500)
    got = []
    c.set_callback(lambda topic, msg: got.append((topic, bytes(msg))))
    assert c.wait_msg() == 0x30 and c.wait_msg() == 0x30
    assert got == [(THEM + b"move", b'{"v":1}')]  # the big one never handed on, even in part
    assert Client.too_big == before + 1
    assert "%d bytes" % (MESSAGE_MAX + 1) in Client.why and "b2/game" in Client.why
    assert bytes(c.sock.out) == b"\x40\x02\x00\x01\x40\x02\x00\x02"  # both acknowledged
    assert c.sock.largest_read <= len(THEM + b"move")
    assert c.sock.at == len(data)


def test_a_message_cut_off_by_the_broker_is_an_oserror_and_changes_nothing():
    f = paired()
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")), (b"game", snapshot(30, seq=30)))
    data = publish(THEM + b"game", snapshot(100, game=4, seq=100), 1)
    for cut in (10, 400, len(data) // 2):  # in the times, in the moves, in the head
        c = client(data[:-cut])
        c.set_callback(f.message)
        with pytest.raises(OSError):
            c.wait_msg()
        assert (f.game, f.seq) == (3, 30) and record(f) == expected(30)
        assert not c.sock.out  # not acknowledged


def test_a_publish_shorter_than_its_topic_is_an_oserror():
    c = client(b"\x30\x04\x00\x05abcde")  # remaining length 4: topic length 5
    c.set_callback(lambda topic, msg: pytest.fail("handed on"))
    with pytest.raises(OSError):
        c.wait_msg()


def paired():
    """A Follower (Black of g1 against b2) and a client with its callback."""
    f = Follower("b1", "b2", BLACK, "g1")
    return f


def receive(f, *messages, piece=64):
    c = client(b"".join(publish(THEM + leaf, msg, i + 1) for i, (leaf, msg) in
                        enumerate(messages)), piece)
    c.set_callback(f.message)
    for _ in messages:
        assert c.wait_msg() == 0x30
    return c


def record(f):
    return [f._move(i) for i in range(f.count)]


def expected(n):
    out = []
    for i in range(n):
        c, p = node(i)
        out.append((BLACK if c == "B" else WHITE, parse_sgf_coord(19, p) if p else PASS))
    return out


def test_the_follower_takes_a_snapshot_from_the_client_buffer():
    f = paired()
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")), (b"game", snapshot(400, seq=401)))
    assert f.agreed and f.dropped == 0
    assert (f.game, f.seq, f.size, f.komi, f.rules, f.result) == (3, 401, 19, 6.5, "japanese", "")
    assert record(f) == expected(400)
    assert f.clock == ["byoyomi", "B", 0, 5, 30000, 3]
    # Their next move's event, then the snapshot after it: the record as theirs.
    c, p = node(400)
    receive(f, (b"move", b'{"v":1,"game":3,"seq":402,"t":"move","n":401,"c":"%s","p":"%s"}'
                % (c.encode(), p.encode())), (b"game", snapshot(401, seq=402)))
    assert f.seq == 402 and record(f) == expected(401) and f.dropped == 0


@pytest.mark.parametrize("piece", [2, 5, 9, 509, 4096])  # (the header wants 2 a read)
def test_a_snapshot_is_parsed_the_same_however_the_socket_cuts_it(piece):
    """Every node, pattern and the tail cut across the window's reads."""
    f = paired()
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")), (b"game", snapshot(333, seq=340)),
            piece=piece)
    assert f.dropped == 0 and (f.game, f.seq, f.count) == (3, 340, 333)
    assert record(f) == expected(333) and f.clock == ["byoyomi", "B", 0, 5, 30000, 3]


@pytest.mark.parametrize("bad", [
    b';B[pd];W[zz]',  # off the board
    b';B[pd];X[dd]',  # no colour
    b';B[pd];W[d',  # cut short
])
def test_a_snapshot_it_cannot_read_changes_nothing(bad):
    f = paired()
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")), (b"game", snapshot(30, seq=30)))
    assert record(f) == expected(30)
    good = snapshot(40, game=4, seq=40)
    at = good.index(b'"moves":"') + 9
    broken = good[:at] + bad + good[good.index(b'"', at):]
    receive(f, (b"game", broken))
    assert f.dropped == 1
    assert (f.game, f.seq) == (3, 30) and record(f) == expected(30)  # nothing half taken
    assert not f.remote.note  # (another game would have stopped the pairing)


def test_a_small_kind_of_message_longer_than_the_window_is_dropped_and_counted():
    f = paired()
    long_pair = pair_message("g1", WHITE, "b1")[:-1] + b',"pad":"%s"}' % (b"x" * WINDOW)
    receive(f, (b"pair", long_pair), (b"game", snapshot(30, seq=30)))
    assert f.dropped == 1 and not f.agreed and f.game == -1  # (not agreed: no snapshot taken)
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")), (b"game", snapshot(30, seq=30)))
    assert f.agreed and record(f) == expected(30)


def test_a_snapshot_without_a_clock_and_of_another_key_order():
    f = paired()
    head = b'{"v":1,"seq":7,"game":2,"moves":";B[aa];W[];B[ss];W[tt]","size":19,"komi":0.5,'
    receive(f, (b"pair", pair_message("g1", WHITE, "b1")),
            (b"game", head + b'"rules":"chinese","setup":"","result":"B+R"}'))
    assert f.dropped == 0 and (f.game, f.seq, f.rules, f.result) == (2, 7, "chinese", "B+R")
    assert record(f) == [(BLACK, parse_sgf_coord(19, "aa")), (WHITE, PASS),
                         (BLACK, parse_sgf_coord(19, "ss")), (WHITE, PASS)]
    assert f.clock is None


def test_the_window_is_made_once_at_the_module_s_load():
    assert isinstance(mqttsub._window, memoryview) and len(mqttsub._window) == WINDOW
    assert WINDOW < len(snapshot(100)) and WINDOW <= 512  # a snapshot streams through it
    a = client(b"")
    b = client(b"")
    assert a.window is b.window is mqttsub._window  # none a connection


# The board's case on the unix port: the heap in holes of 1 KB (plenty
# free, no block of the snapshot's size), then board02's 400-move snapshot
# (~5.4 KB, each move's time in it) comes through the client.  Before, the
# client read it in one block: MemoryError.  Now the Follower has the 400
# moves, and what stays allocated is their record (2 bytes a move, room
# for 64 more) and little else.
FRAGMENTED = r"""
import gc
from gogadget import mqttsub
from gogadget.pairing import Follower, pair_message
from piece_socket import Sock, publish, snapshot
from fragment import fragment
f = Follower("b1", "b2", 1, "g1")
them = b"gogadget/board/b2/"
data = publish(them + b"pair", pair_message("g1", 2, "b1"), 1) + publish(
    them + b"game", snapshot(400, seq=401), 2)
c = mqttsub.Client("b1", "broker", 1883, None, None, 1)
c.sock = Sock(data, 512)
c.set_callback(f.message)
# pairops stays loaded (on the board it comes from .mpy for each job; here
# it would be compiled from source in the fragmented heap)
import gogadget.pairing
gogadget.pairing.forget = lambda *names: None
c.wait_msg()  # the pair message
pins = fragment(1024)
# (and any larger block left by the start's garbage taken, 2 KB at a time)
fill = [pins]
try:
    while True:
        fill.append(bytearray(2048))
except MemoryError:
    pass
gc.collect()
free = gc.mem_free()
used = gc.mem_alloc()
print("free", free)
try:
    c.wait_msg()  # the snapshot
    gc.collect()
    print("count", f.count, f.seq, f.dropped, len(f.moves))
    print("grew", gc.mem_alloc() - used)
except MemoryError as e:
    print("MemoryError", e)
"""


def test_a_long_snapshot_is_taken_in_a_fragmented_heap(micropython):
    r = micropython(FRAGMENTED, heapsize="256k")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    free = int(out.split("free")[1].split()[0])
    assert free > 20000, out  # plenty free, in pieces of 1 KB
    assert "MemoryError" not in out, out
    assert "count 400 401 0 928" in out, out
    # What stays: the record (928 bytes) and the small things of a message
    # (the clock's list, the state's numbers): not the snapshot's 5.4 KB.
    assert int(out.split("grew")[1].split()[0]) < 928 + 512, out
