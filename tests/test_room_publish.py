"""`gogadget publish`: a plain Pico's game published through the host.

The board is the simulator (the unmodified App on the virtual board, its
own GTP Link on a pty, as `make sim` announces it); a scripted hand plays a
GNU Go game on it (captures, a take-back, two passes, the count confirmed);
`gogadget publish --sim` runs as its own process against Mosquitto and the
relay.  Mid-game the serial link goes away (the pty closed: an unplug) while
the hand plays on, comes back as a new port, and the broker restarts.  The
relay must end with exactly the board's game: the archive's SGF holds the
moves and result of the game the board kept, every event it applied came
once and in order, and the take-back reached it as one.
"""
import os
import queue
import random
import subprocess
import sys
import threading
import time

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, require
from host_sim.sim import session
from host_sim.person.replay import Person, load_game
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.client import NullClient
from host_sim.room.publish import Mirror, read_record, status_words
from host_sim.room.relay import Relay
from room_boards import wait_for

GAME = ROOT / "host_sim" / "games" / "gnugo-selfplay-9x9-seed3.sgf"


class Board:
    """The simulator in a thread of its own (as `make sim` runs it), paced
    about 7x real time; tasks run in that thread between its scans."""

    def __init__(self, store, pace_s=0.003):
        from host_sim.sim.virtual import make_config
        self.sim = session.BoardSim(make_config(size=9, preset="japanese", komi=6.5),
                                    store_dir=store)
        self.pace_s = pace_s
        self.tasks = queue.Queue()
        self.stop = threading.Event()
        self.error = None
        step = self.sim.step

        def paced_step():
            step()
            time.sleep(self.pace_s)

        self.sim.step = paced_step
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            try:
                task, done = self.tasks.get(timeout=0)
            except queue.Empty:
                self.sim.step()
                continue
            try:
                task()
            except Exception as exc:  # noqa: BLE001  (the test reports it)
                self.error = exc
            done.set()

    def do(self, task, timeout=120):
        done = threading.Event()
        self.tasks.put((task, done))
        assert done.wait(timeout), "the board's task did not finish"
        assert self.error is None, self.error

    def close(self):
        self.stop.set()
        self.thread.join(10)
        self.sim.close()


def sgf_moves_and_result(text):
    game = sgfmill_sgf.Sgf_game.from_bytes(text.encode() if isinstance(text, str) else text)
    return ([node.get_move() for node in game.get_main_sequence()[1:]],
            game.get_root().get("RE") if game.get_root().has_property("RE") else "")


def test_status_words_and_read_record():
    words = status_words("phase=play turn=B moves=3 outstanding=0 size=9 game=4 seq=5 "
                         "| play: B to move, x=y")
    assert words["game"] == "4" and words["seq"] == "5" and "x" not in words
    rec = read_record("(;GM[1]FF[4]CA[UTF-8]AP[GoGadget:1]SZ[9]KM[6.5]HA[2]RU[Japanese]RE[B+2.5]"
                      "PB[a \\] b]AB[cc][gg]AW[ee]\n;W[dd];B[];W[ab])\n")
    assert rec["size"] == 9 and rec["komi"] == 6.5 and rec["handicap"] == 2
    assert rec["result"] == "B+2.5" and len(rec["setup"]) == 3 and len(rec["moves"]) == 3
    assert rec["moves"][1] == (1, 0)  # a pass
    assert Mirror().board.moves == 0


def test_publish_sim_through_an_unplug_and_a_broker_restart(tmp_path, monkeypatch):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    # The running simulator is announced here, for this test alone.
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    broker = Broker(str(tmp_path / "broker"), boards=["pico-1"]).start()
    archive = tmp_path / "archive"
    relay = Relay(broker.url, ("127.0.0.1", 0), str(archive), "relay",
                  broker.creds["relay"]).start()
    seen = []  # what the relay did with every message of the board
    handle = relay.room.handle

    def spy(topic, payload):
        what = handle(topic, payload)
        seen.append((topic.rsplit("/", 1)[-1], bytes(payload), what))
        return what

    relay.room.handle = spy
    board = Board(str(tmp_path / "store"))
    sim = board.sim
    proc = None
    try:
        assert relay.connected.wait(20)
        wait_for(lambda: sim.referee.settler.primed, 10, "the board's first view")
        assert session.live_port() == sim.live.port
        proc = subprocess.Popen(
            [sys.executable, "-m", "host_sim.cli", "publish", "--sim", "--broker", broker.url,
             "--board-id", "pico-1", "--password", broker.creds["pico-1"], "--interval", "0.05",
             "--black", "GNU Go B", "--white", "GNU Go W", "--verbose"],
            cwd=ROOT, env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        shown = lambda: relay.room.boards.get("pico-1")  # noqa: E731
        wait_for(lambda: shown() is not None and shown().game is not None, 30,
                 "the board's snapshot at the relay")
        assert shown().game.black == "GNU Go B"

        game = load_game(GAME.read_bytes())
        moves = [m for m in game.moves if m[1] is not None]  # the passes come at the end
        person = Person(sim, random.Random(3), late=0.0, bump=0.0, max_delay_ms=60)

        def play(part):
            def task():
                g = load_game(GAME.read_bytes())
                g.moves = part
                assert person.play_game(g)
            return task

        def at_relay(n):
            wait_for(lambda: shown().game is not None and len(shown().game.moves) == n
                     and shown().game.seq == sim.referee.log.seq, 30,
                     "move %d at the relay" % n)

        board.do(play(moves[:12]))
        at_relay(12)

        # A take-back: the last stone lifted, Confirm; then it is played again.
        def take_back():
            pl = [p for p in range(81) if sim.stones.cells[p]]
            last = sim.referee.board.last_move()[1]
            from gogadget.points import place
            sim.stones.lift(place(9, last))
            sim.settle()
            sim.press("confirm")
            sim.settle()
            person.tidy()
            assert sim.referee.board.moves == 11, pl
        board.do(take_back)
        at_relay(11)
        board.do(play(moves[11:20]))
        at_relay(20)

        # Unplugged: the board plays on; the publisher says so and waits.
        def unplug():
            sim.live.close()
            sim.live = None
        board.do(unplug)
        board.do(play(moves[20:26]))
        wait_for(lambda: shown().status["note"] == "host: no link to the board", 20,
                 "the status note of a lost link")
        assert len(shown().game.moves) == 20

        def replug():
            sim.live = session.LivePort(sim)
        board.do(replug)
        at_relay(26)

        # The broker restarts while moves are made.
        broker.stop()
        board.do(play(moves[26:32]))
        broker.start()
        at_relay(32)
        board.do(play(moves[32:]))

        def finish():
            person.press_pass()
            person.press_pass()
            assert sim.referee.phase == "count"
            sim.run(600)
            sim.press("confirm")
            sim.run(200)
            assert sim.referee.phase == "over" and sim.referee.result
        board.do(finish)
        kept = sorted((tmp_path / "store").glob("[0-9][0-9][0-9][0-9].sgf"))
        assert len(kept) == 1, kept
        name = "pico-1-%d.sgf" % sim.referee.log.game
        wait_for(lambda: (archive / name).exists(), 30, "the archived game")
        mine = sgf_moves_and_result((archive / name).read_bytes())
        theirs = sgf_moves_and_result(kept[0].read_bytes())
        assert mine == theirs and mine[1] == sim.referee.result
        assert len(mine[0]) == len(moves) + 2
        g = shown().game
        assert g.seq == sim.referee.log.seq and g.phase == "over"
        assert list(g.bd.cells) == list(sim.referee.board.cells)
        assert g.bd.prisoners[1] + g.bd.prisoners[2] > 0  # the game had captures
        # Every event the relay applied came once, in order; the take-back was one.
        import json
        applied = [json.loads(p) for leaf, p, what in seen if leaf == "move" and what == "applied"]
        seqs = [m["seq"] for m in applied]
        assert seqs == sorted(set(seqs)), seqs
        assert any(m["t"] == "undo" for m in applied)
        assert applied[-1]["t"] == "end"
        assert relay.room.counts["dropped"] == 0
    finally:
        if proc is not None:
            proc.terminate()
            try:
                out, _ = proc.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
            print(out)
        board.close()
        relay.stop()
        broker.stop()
    assert "link to the board open" in out and "serial link lost" in out


class FakeClient(NullClient):
    """umqtt.simple's API, recording what the Broadcaster publishes."""

    def __init__(self, out):
        self.out = out

    def publish(self, topic, msg, retain=False, qos=0):
        self.out.append((bytes(topic).decode().rsplit("/", 1)[-1], bytes(msg).decode()))


class FakeLink:
    """A board's GTP answers from a referee of our own (the firmware's
    Engine on a Board): what the link says, without a serial line."""

    def __init__(self, state):
        self.state = state

    def send(self, command):
        st = self.state
        if st.get("gone"):
            from host_sim.base.serialport import LinkClosed
            raise LinkClosed("unplugged")
        if command == "gogadget-status":
            return "phase=%s turn=B moves=%d outstanding=0 size=9 game=%d seq=%d%s" % (
                st["phase"], len(st["moves"]), st["game"], st["seq"],
                " result=" + st["result"] if st["result"] else "")
        if command == "gogadget-sgf":
            return ("(;GM[1]FF[4]SZ[9]KM[6.5]%s\n%s)" % (
                "RE[%s]" % st["result"] if st["result"] else "",
                "".join(";%s[%s]" % m for m in st["moves"])))
        if command == "gogadget-rules-info":
            return "preset=japanese komi=6.5\nJapanese rules"
        raise AssertionError(command)

    def close(self):
        pass


def test_a_take_back_and_a_move_between_two_looks_are_two_events():
    """The mirror walks the board's state one event at a time: a take-back
    and a new move seen in one look go out as an undo and a move with the
    board's seq numbers, not as a gap; a look that cannot tell (the seq grew
    by more) sends the snapshot; the link lost and back goes on from there."""
    import json
    from host_sim.room.publish import HostPublisher
    out = []
    state = {"phase": "play", "game": 3, "seq": 2, "result": "", "moves": [("B", "cc"), ("W", "gg")]}
    host = HostPublisher(lambda: FakeLink(state), lambda: FakeClient(out), "pico-2", look_s=0)

    def settle():
        for _ in range(20):
            host.step()
        assert host.idle()

    settle()
    snap = json.loads(out[-1][1])
    assert out[0][0] == "status" and snap["seq"] == 2 and snap["moves"] == ";B[cc];W[gg]"
    del out[:]
    state["moves"] = [("B", "cc"), ("W", "ee")]  # W's gg taken back, W plays ee
    state["seq"] = 4
    settle()
    events = [json.loads(m) for leaf, m in out if leaf == "move"]
    assert [(e["t"], e["seq"]) for e in events] == [("undo", 3), ("move", 4)]
    assert events[1]["p"] == "ee" and json.loads(out[-1][1])["moves"] == ";B[cc];W[ee]"
    del out[:]
    # Unplugged: the status says so; the board plays on meanwhile.
    state["gone"] = True
    settle()
    assert [json.loads(m)["note"] for leaf, m in out if leaf == "status"] == [
        "host: no link to the board"]
    state["moves"] = state["moves"] + [("B", "dd"), ("W", "")]
    state["seq"] = 6
    del out[:]
    state["gone"] = False
    host.next_open = 0
    settle()
    events = [json.loads(m) for leaf, m in out if leaf == "move"]
    assert [(e["t"], e["seq"], e["p"]) for e in events] == [("move", 5, "dd"), ("move", 6, "")]
    # More than one look can tell apart: the snapshot only, seq and all.
    del out[:]
    state["moves"] = [("B", "cc"), ("W", "ee"), ("B", "dd"), ("W", "ff")]
    state["seq"] = 9
    settle()
    assert [leaf for leaf, m in out] == ["game"] and json.loads(out[0][1])["seq"] == 9
    assert host.jumps == 1
    # The end: the result and the count confirmed.
    del out[:]
    state["moves"] = state["moves"] + [("B", ""), ("W", "")]
    state["seq"], state["phase"], state["result"] = 12, "over", "W+3.5"
    settle()
    events = [json.loads(m) for leaf, m in out if leaf == "move"]
    assert [(e["t"], e["seq"]) for e in events] == [("move", 10), ("move", 11), ("end", 12)]
    snap = json.loads(out[-1][1])
    assert snap["phase"] == "over" and snap["result"] == "W+3.5" and snap["rules"] == "japanese"
