"""The Broadcaster (gogadget.broadcast) on CPython with a fake MQTT client
that fails at chosen moments: what reaches the broker, in what order, and
what a subscriber following docs/ROOM.md shows."""
import json

import pytest

from broadcast_view import View, parse_moves, sgf_moves
from gogadget import broadcast as bc
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget import roomjoin
from gogadget import roomnames
from gogadget.board import OK
from gogadget.broadcast import Broadcaster
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM, BTN_RESIGN
from gogadget.points import PASS, parse_vertex
from gogadget.referee import Referee
from host_sim.room.messages import parse


class FakeNet:
    """A broker and the clients the factory makes.  fail: a set of the
    publish attempts (counted from 1) that fail; lost: those that reach the
    broker but whose PUBACK is lost (the message is delivered, the
    publisher sees an error).  down: connects fail.  stream: the clients
    take a snapshot that writes itself, as gogadget.mqtt's does (pieces:
    the longest write it made)."""

    def __init__(self, stream=True):
        self.stream = stream
        self.pieces = 0
        self.delivered = []  # (topic, payload bytes, retain)
        self.retained = {}
        self.attempts = 0
        self.fail = set()
        self.lost = set()
        self.down = False
        self.refuse = None  # a CONNACK code
        self.connects = []  # (clean_session,)
        self.pings = 0
        self.clients = []

    def factory(self):
        c = FakeClient(self)
        c.streams = self.stream
        self.clients.append(c)
        return c

    def deliver(self, topic, msg, retain):
        topic = topic.decode()
        payload = bytes(msg)
        self.delivered.append((topic, payload, retain))
        if retain:
            self.retained[topic] = payload

    def events(self):
        return [json.loads(p) for t, p, _ in self.delivered if t.endswith("/move")]


class Sink:
    """A socket's write(buf, n)."""

    def __init__(self):
        self.data = bytearray()
        self.longest = 0

    def write(self, buf, n):
        self.data += bytes(buf[:n])
        self.longest = max(self.longest, n)


class Refused(Exception):
    pass


class FakeClient:
    def __init__(self, net):
        self.net = net
        self.will = None
        self.up = False

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (topic, bytes(msg), retain, qos)

    def connect(self, clean_session=True):
        if self.net.down:
            raise OSError(111, "refused")
        if self.net.refuse is not None:
            raise Refused(self.net.refuse)
        self.up = True
        self.net.connects.append(clean_session)
        return 0

    def publish(self, topic, msg, retain=False, qos=0):
        assert self.up and qos == 1
        net = self.net
        if hasattr(msg, "write_to"):
            assert self.streams
            n = len(msg)  # as gogadget.mqtt: the length first, then the bytes
            sink = Sink()
            msg.write_to(sink)
            assert len(sink.data) == n, (len(sink.data), n)
            net.pieces = max(net.pieces, sink.longest)
            msg = bytes(sink.data)
        assert isinstance(msg, (bytes, bytearray, memoryview))
        net.attempts += 1
        if net.attempts in net.fail:
            self.up = False
            raise OSError(104, "reset")
        net.deliver(topic, msg, retain)
        if net.attempts in net.lost:
            self.up = False
            raise OSError(110, "no PUBACK")

    def ping(self):
        assert self.up
        self.net.pings += 1

    def disconnect(self):
        self.up = False
        self.will = None  # a DISCONNECT: the broker forgets the will

    def close(self):
        # Gone without DISCONNECT: the broker publishes the will.
        if self.will:
            topic, msg, retain, _ = self.will
            self.net.deliver(topic, msg, retain)
        self.up = False


class Rig:
    def __init__(self, tmp_path, size=9, backlog=64, stream=True, **kw):
        self.net = FakeNet(stream)
        self.journal = jn.Journal(str(tmp_path / "store"))
        self.ref = Referee(Config(size=size), self.journal)
        self.ref.resume([], "", 0)
        self.b = Broadcaster(self.net.factory, "b1", referee=self.ref, backlog=backlog, **kw)
        self.t = 1000

    def poll(self, n=1, dt=20):
        for _ in range(n):
            self.b.poll(self.t)
            self.t += dt

    def drain(self, limit=2000):
        """Poll until nothing is waiting (time moves 20 ms a poll); rare
        changes (komi, faults) are looked at every few polls."""
        for i in range(limit):
            self.poll()
            if i > bc._SLOW and self.b.connected and not self.b.pending():
                return
        raise AssertionError("still pending: %d" % self.b.pending())

    def play(self, *vertices):
        for v in vertices:
            pt = PASS if v == "pass" else parse_vertex(self.ref.size, v)
            assert self.ref.external_move(self.ref.to_move(), pt) == OK

    def view(self):
        v = View()
        for topic, payload, _ in self.net.delivered:
            assert parse(topic, payload)[1] is None, (topic, payload)
            v.handle(topic, payload)
        return v


def check_current(rig, view):
    """The subscriber shows the referee's game and the retained snapshot is it."""
    ref = rig.ref
    assert view.moves == sgf_moves(ref.board)
    assert view.game == ref.log.game and view.seq == ref.log.seq
    snap = json.loads(rig.net.retained["gogadget/board/b1/game"])
    assert parse_moves(snap["moves"]) == sgf_moves(ref.board)
    assert (snap["game"], snap["seq"], snap["result"]) == (ref.log.game, ref.log.seq, ref.result)
    assert bytes(rig.b.snapshot()) == rig.net.retained["gogadget/board/b1/game"]


def test_a_game_published_in_order(tmp_path):
    rig = Rig(tmp_path)
    rig.drain()
    status = json.loads(rig.net.retained["gogadget/board/b1/status"])
    assert status == {"v": 1, "online": True, "faults": 0, "note": ""}
    assert rig.net.clients[0].will == (b"gogadget/board/b1/status", b'{"v":1,"online":false}',
                                         True, 1)
    rig.play("D4", "E5", "C3")
    rig.drain()
    rig.play("pass")
    rig.drain()
    assert rig.ref.undo()  # the pass is taken back
    rig.drain()
    assert rig.ref.undo()
    rig.drain()
    rig.play("F6")
    rig.drain()
    rig.ref.press(BTN_RESIGN, rig.t)
    rig.drain()
    view = rig.view()
    kinds = [k for _, _, k in view.shown]
    assert kinds == ["move"] * 3 + ["move", "undo", "undo", "move", "end"]
    assert [s for _, s, _ in view.shown] == list(range(1, 9))
    assert view.gaps == view.duplicates == 0
    check_current(rig, view)
    assert view.result == rig.ref.result and view.snapshot["phase"] == "over"
    # Every event is followed by the snapshot that includes it.
    last_seq = 0
    for topic, payload, _ in rig.net.delivered:
        msg = json.loads(payload)
        if topic.endswith("/move"):
            last_seq = msg["seq"]
        elif topic.endswith("/game"):
            assert msg["seq"] == last_seq
    ev = rig.net.events()
    assert ev[3] == {"v": 1, "game": 1, "seq": 4, "t": "move", "n": 4, "c": "W", "p": ""}
    assert ev[4] == {"v": 1, "game": 1, "seq": 5, "t": "undo", "n": 4}
    assert ev[0] == {"v": 1, "game": 1, "seq": 1, "t": "move", "n": 1, "c": "B", "p": "df"}
    assert ev[-1]["t"] == "end" and ev[-1]["result"] == rig.ref.result


def test_snapshot_fields(tmp_path):
    rig = Rig(tmp_path, size=13, black="Honinbo \"Shusaku\"", white="Gennan")
    rig.ref.new_game(handicap=2, preset="japanese")
    rig.play("C3", "pass")
    rig.drain()
    snap = json.loads(rig.net.retained["gogadget/board/b1/game"])
    assert snap == {"v": 1, "game": 2, "seq": 2, "size": 13, "komi": 6.5, "rules": "japanese",
                    "handicap": 2, "black": "Honinbo \"Shusaku\"", "white": "Gennan",
                    "setup": "AB[dj][jd]", "moves": ";W[ck];B[]", "phase": "setup", "result": "",
                    "prisoners": [0, 0]}
    msg, why = parse("gogadget/board/b1/game", rig.net.retained["gogadget/board/b1/game"])
    assert why is None and msg["moves"] == [("W", "ck"), ("B", "")]
    rig.ref.set_komi(-3.5)
    rig.drain()
    assert json.loads(rig.net.retained["gogadget/board/b1/game"])["komi"] == -3.5


def test_idle_poll_publishes_nothing_and_pings(tmp_path):
    rig = Rig(tmp_path)
    rig.drain()
    n = len(rig.net.delivered)
    attempts = rig.net.attempts
    rig.poll(1400)  # 28 s of scans
    assert len(rig.net.delivered) == n and rig.net.attempts == attempts and rig.net.pings == 0
    rig.poll(200)  # past 30 s: one ping
    assert rig.net.pings == 1 and len(rig.net.delivered) == n


def test_one_network_operation_per_poll(tmp_path):
    rig = Rig(tmp_path)
    rig.poll()  # connects, publishes nothing yet
    assert rig.net.connects and rig.net.attempts == 0
    rig.play("D4", "E5", "C3")
    for expected in range(1, 6):  # status, 3 events, the snapshot
        rig.poll()
        assert rig.net.attempts == expected
    assert not rig.b.pending()


def test_broker_gone_and_back_nothing_lost_nothing_doubled(tmp_path):
    rig = Rig(tmp_path)
    rig.play("D4")
    rig.drain()
    # The connection breaks on the next publish; while the broker is down
    # the game goes on, with a take-back.
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("E5")
    rig.poll()
    assert not rig.b.connected
    rig.net.down = True
    rig.play("C3")  # (the scan loop polls between any two events)
    rig.poll()
    rig.play("G7")
    rig.poll()
    assert rig.ref.undo()
    rig.poll()
    rig.play("H8")
    rig.poll(50 * 40)  # 40 s: connects tried, with backoff
    assert rig.net.attempts == 3  # status, snapshot, the failed event; nothing while down
    rig.net.down = False
    rig.drain()
    view = rig.view()
    # D4 came in the first snapshot; every later event arrives once, in order.
    assert [s for _, s, _ in view.shown] == [2, 3, 4, 5, 6]
    assert view.gaps == view.duplicates == 0
    check_current(rig, view)
    assert json.loads(rig.net.retained["gogadget/board/b1/status"])["online"] is True


def test_lost_puback_resends_and_the_subscriber_drops_the_duplicate(tmp_path):
    rig = Rig(tmp_path)
    rig.drain()
    rig.net.lost = {rig.net.attempts + 1}
    rig.play("D4", "E5")
    rig.drain()
    events = [(e["seq"], e["t"]) for e in rig.net.events()]
    assert events.count((1, "move")) == 2  # delivered twice, by QoS 1's rule
    view = rig.view()
    assert [s for _, s, _ in view.shown] == [1, 2] and view.duplicates >= 1
    check_current(rig, view)


def test_backoff_doubles_to_30_s(tmp_path):
    rig = Rig(tmp_path)
    rig.net.down = True
    times = []
    for _ in range(50 * 130):
        before = len(rig.b.error), rig.b.failures
        rig.poll()
        if rig.b.failures != before[1]:
            times.append(rig.t - 20)
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert gaps[:6] == [1000, 2000, 4000, 8000, 16000, 30000], gaps
    assert set(gaps[5:]) == {30000}
    rig.net.down = False
    rig.poll(50 * 31)
    assert rig.b.connected
    # A successful publish starts the backoff again from 1 s.
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("D4")
    rig.poll()
    assert not rig.b.connected
    rig.poll(49)
    assert not rig.b.connected
    rig.poll(2)
    assert rig.b.connected


def test_refused_connection_is_retried_and_named(tmp_path):
    rig = Rig(tmp_path)
    rig.net.refuse = 5
    rig.poll(200)
    assert not rig.b.connected and "Refused" in rig.b.error and rig.b.failures >= 2
    rig.net.refuse = None
    rig.drain()
    assert rig.b.connected


def test_network_not_ready_means_no_connection_attempt(tmp_path):
    up = []
    rig = Rig(tmp_path, ready=lambda: bool(up))
    rig.poll(200)
    assert not rig.net.clients
    up.append(1)
    rig.drain()
    assert rig.b.connected and len(rig.net.clients) == 1


def test_a_full_backlog_drops_the_oldest_and_the_snapshot_covers_it(tmp_path):
    rig = Rig(tmp_path, backlog=4)
    rig.drain()
    rig.net.down = True
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("D4")
    rig.poll()
    rig.play("E5", "C3", "G7", "H8", "B2", "J9")
    rig.poll(10)
    assert rig.b.dropped == 3
    rig.net.down = False
    rig.drain()
    seqs = [e["seq"] for e in rig.net.events()]
    assert seqs == [4, 5, 6, 7]
    view = rig.view()
    assert view.gaps == 4 and not view.shown  # waits for the snapshot, which has it all
    check_current(rig, view)


def test_a_new_game_while_offline_sends_the_old_games_end_first(tmp_path):
    rig = Rig(tmp_path)
    rig.play("D4")
    rig.drain()
    rig.net.down = True
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("E5")
    rig.poll()
    rig.ref.press(BTN_RESIGN, rig.t)
    rig.poll()
    old = rig.ref.log.game
    rig.ref.new_game()
    rig.play("C3")
    rig.poll(5)
    rig.net.down = False
    rig.drain()
    sent = [(t.rsplit("/", 1)[1], json.loads(p)) for t, p, _ in rig.net.delivered]
    order = [(leaf, m.get("game"), m.get("seq")) for leaf, m in sent if leaf != "status"]
    assert order[-5:] == [("move", old, 2), ("move", old, 3), ("game", old, 3),
                          ("move", old + 1, 1), ("game", old + 1, 1)]
    old_snap = [m for leaf, m in sent if leaf == "game" and m["game"] == old][-1]
    assert old_snap["result"] and old_snap["phase"] == "over"
    assert parse_moves(old_snap["moves"]) == [("B", "df"), ("W", "ee")]
    check_current(rig, rig.view())


def test_power_cut_resume_publishes_the_snapshot_with_the_journal_numbers(tmp_path):
    rig = Rig(tmp_path)
    rig.play("D4", "E5", "C3")
    assert rig.ref.undo()
    rig.drain()
    rig.journal.close()
    # The board restarts: a new referee from the journal, a new Broadcaster.
    net = rig.net
    j = jn.Journal(str(tmp_path / "store"))
    ref = Referee(Config(size=9), j)
    ref.resume(*jr.load(j), 0)
    b = Broadcaster(net.factory, "b1", referee=ref)
    for i in range(20):
        b.poll(i * 20)
    snap = json.loads(net.retained["gogadget/board/b1/game"])
    assert (snap["game"], snap["seq"]) == (1, 4) and len(parse_moves(snap["moves"])) == 2
    assert snap["phase"] == "play"  # the referee's "resume" shows as the phase it resumes
    assert ref.external_move(ref.to_move(), parse_vertex(9, "G7")) == OK
    for i in range(20, 40):
        b.poll(i * 20)
    assert net.events()[-1]["seq"] == 5


def test_faults_and_journal_damage_are_in_the_status(tmp_path):
    rig = Rig(tmp_path)
    rig.drain()
    rig.ref.has_fault = True
    rig.ref.fault[3] = 1
    rig.ref.fault[7] = 2
    rig.drain()
    assert json.loads(rig.net.retained["gogadget/board/b1/status"])["faults"] == 2
    rig.ref.damage = "journal damaged at byte 40"
    rig.drain()
    status = json.loads(rig.net.retained["gogadget/board/b1/status"])
    assert status["note"] == "journal damaged at byte 40"
    rig.b.close()
    assert json.loads(rig.net.retained["gogadget/board/b1/status"]) == {"v": 1, "online": False}


def test_the_will_goes_out_when_the_connection_breaks(tmp_path):
    rig = Rig(tmp_path)
    rig.drain()
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("D4")
    rig.poll()
    assert rig.net.clients[0].up is False
    status = rig.net.retained["gogadget/board/b1/status"]
    assert json.loads(status) == {"v": 1, "online": False}
    rig.drain()
    assert json.loads(rig.net.retained["gogadget/board/b1/status"])["online"] is True


def test_a_burst_the_poll_cannot_tell_apart_leaves_a_gap_the_snapshot_fills(tmp_path):
    rig = Rig(tmp_path)
    rig.play("D4", "E5")
    rig.drain()
    rig.play("C3", "G7")
    assert rig.ref.undo()
    rig.play("H8")  # four events between two polls, one of them a take-back
    rig.drain()
    view = rig.view()
    assert not rig.net.events() and view.gaps == 0
    check_current(rig, view)
    rig.play("J9", "A1")  # two moves between two polls: told apart
    rig.drain()
    assert [e["seq"] for e in rig.net.events()] == [7, 8]
    check_current(rig, rig.view())


@pytest.mark.parametrize("stream", [True, False])
def test_the_snapshot_is_streamed_from_the_board_in_small_pieces(tmp_path, stream):
    # A 3x3 game far past the referee's capacity (10 moves): no buffer as
    # long as the message anywhere, the moves go out a bufferful at a time;
    # a client that does not stream gets the same bytes.
    rig = Rig(tmp_path, size=3, backlog=8, stream=stream)
    rig.drain()
    rig.play("B2")
    for _ in range(200):
        rig.play("pass")
    rig.drain()
    snap = rig.net.retained["gogadget/board/b1/game"]
    assert len(snap) > 201 * 4 + 100
    check_current(rig, rig.view())
    if stream:
        assert 0 < rig.net.pieces <= len(rig.b._st[bc._EV])
        held = [len(v) for v in list(vars(rig.b).values()) + rig.b._st
                if isinstance(v, (bytes, bytearray))]
        assert max(held) < len(snap) // 2, held
    else:
        assert rig.net.pieces == 0


def test_bad_board_id_is_refused():
    with pytest.raises(ValueError):
        Broadcaster(lambda: None, "no/slash")


def test_count_and_result_events(tmp_path):
    rig = Rig(tmp_path)
    rig.play("D4", "pass", "pass")
    rig.drain()
    assert json.loads(rig.net.retained["gogadget/board/b1/game"])["phase"] == "count"
    rig.ref.press(BTN_CONFIRM, rig.t)
    rig.drain()
    ev = rig.net.events()[-1]
    assert ev["t"] == "end" and ev["seq"] == 4 and ev["result"] == rig.ref.result
    check_current(rig, rig.view())


def test_app_polls_the_broadcaster_every_step_after_the_link(tmp_path):
    from gogadget.app import App
    from test_app import Buttons, Leds, Sensors
    order = []

    class Spy(Broadcaster):
        def poll(self, now_ms):
            order.append(("broadcast", now_ms))
            Broadcaster.poll(self, now_ms)

    class Stream:
        def read(self, n):
            order.append(("link", None))
            return b""

        def write(self, data):
            pass

    net = FakeNet()
    b = Spy(net.factory, "b1")
    app = App(Config(size=9), Sensors(9), Leds(), Buttons(), str(tmp_path / "s"), Stream(),
              broadcast=b)
    assert b.ref is app.referee
    app.boot(0)
    for i in range(10):
        app.step(i * 20)
    assert [o for o in order if o[0] == "broadcast"] == [("broadcast", i * 20) for i in range(10)]
    assert order[0][0] == "link" and order[1][0] == "broadcast"
    assert json.loads(net.retained["gogadget/board/b1/game"])["game"] == 1


def test_each_end_in_the_backlog_says_its_own_games_result(tmp_path):
    # Two games end while offline; the first one's end falls out of a full
    # backlog: the end that goes out is the second game's, with its result.
    rig = Rig(tmp_path, backlog=3)
    rig.play("D4")
    rig.drain()
    rig.net.down = True
    rig.net.fail = {rig.net.attempts + 1}
    rig.play("E5")
    rig.poll()
    rig.ref.press(BTN_RESIGN, rig.t)  # black to move resigns
    rig.poll()
    first = rig.ref.result
    rig.ref.new_game()
    rig.play("C3", "D5", "E6")
    rig.poll()
    rig.ref.press(BTN_RESIGN, rig.t)  # white to move resigns
    rig.poll(5)
    second = rig.ref.result
    assert first != second
    rig.net.down = False
    rig.drain()
    ends = [e for e in rig.net.events() if e["t"] == "end"]
    assert [(e["game"], e["result"]) for e in ends] == [(rig.ref.log.game, second)]
    assert not rig.b._st[bc._ENDS]


def test_roomjoin_uses_the_broadcasters_state_indices():
    # roomjoin may not import broadcast (a circle): it repeats the indices
    # of the Broadcaster's state list it uses, which must be the same.
    import re
    from pathlib import Path
    src = Path(bc.__file__).parent
    mine = dict(re.findall(r"^_S_(\w+) = const\((\d+)\)", (src / "roomjoin.py").read_text(), re.M))
    theirs = dict(re.findall(r"^_(\w+) = const\((\d+)\)", (src / "broadcast.py").read_text(), re.M))
    assert mine and all(theirs.get(k) == v for k, v in mine.items()), (mine, theirs)
    assert roomjoin._KEEPALIVE_S == roomnames.KEEPALIVE_S
    b = Broadcaster(FakeNet().factory, "b1")
    assert len(b._st) == bc._TOPICS + 1
    assert isinstance(b._st[bc._RING], bytearray) and isinstance(b._st[bc._TOPICS], tuple)
