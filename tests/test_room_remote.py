"""Two boards, one game over the room's broker (issue 18, docs/ROOM.md
Pairing): two virtual boards (the simulator's App, the firmware's
Broadcaster and pairing.Follower, paho) play whole games through a real
Mosquitto under the generated ACL, with the broker restarted mid-game, a
board power-cut mid-game, moves made while the broker is down, a take-back
asked at one board and confirmed at the other, the passes, the count and a
resignation.  Both boards' kept records and the relay's archive must be the
same game; a third board may watch but its forged moves never reach a
board."""
import json
import random
import time

import pytest

from sgfmill import sgf as sgfmill_sgf

from conftest import require
from gogadget.roomnames import T_MOVE, topic
from gogadget.pairing import T_PAIR
from host_sim.room.broker import Broker, find_mosquitto
from host_sim.room.relay import Relay
from remote_boards import HABITS, habits, level, pair_up, play_move, pump, takeback
from room_boards import Publisher, wait_for

SEED = 18
MOVES = 40  # a game's moves before the passes


def kept(side):
    files = sorted(side.store.glob("[0-9][0-9][0-9][0-9].sgf"))
    assert len(files) == 1, files
    return sgf_game(files[0].read_bytes())


def sgf_game(data):
    g = sgfmill_sgf.Sgf_game.from_bytes(data)
    return [n.get_move() for n in g.get_main_sequence()[1:]], g.get_root().get("RE")


def start_room(tmp_path, boards=("b1", "b2", "b3")):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    broker = Broker(str(tmp_path / "broker"), boards=list(boards), readers=["checker"]).start()
    relay = Relay(broker.url, ("127.0.0.1", 0), str(tmp_path / "archive"), "relay",
                  broker.creds["relay"]).start()
    assert relay.connected.wait(20)
    return broker, relay


def stop_room(sides, relay, broker):
    for s in sides:
        s.pub.close()
    relay.stop()
    broker.stop()


def retained_pairs(broker):
    """The pair messages the broker keeps (a fresh reader's view)."""
    import threading
    import paho.mqtt.client as mqtt
    got, subscribed = [], threading.Event()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="checker", protocol=mqtt.MQTTv311)
    c.username_pw_set("checker", broker.creds["checker"])
    c.on_connect = lambda cl, *a: cl.subscribe("gogadget/board/+/pair", qos=1)
    c.on_subscribe = lambda *a: subscribed.set()
    c.on_message = lambda cl, u, m: got.append((m.topic, bytes(m.payload)))
    c.connect(broker.host, broker.port, 30)
    c.loop_start()
    try:
        assert subscribed.wait(10)
        time.sleep(1.0)
    finally:
        c.disconnect()
        c.loop_stop()
    return got


@pytest.mark.parametrize("seed,ending", [(SEED, "count"), (7, "resign")])
def test_two_boards_play_a_game_through_faults(tmp_path, seed, ending):
    broker, relay = start_room(tmp_path)
    sides = []
    rng = random.Random(seed)
    latencies = []
    try:
        sides = pair_up(broker, tmp_path / "boards", seed=seed)
        black, white = sides
        n = 0
        undone = False
        done = {}
        while n < MOVES:
            mover, pt = play_move(sides, latencies)
            n += 1
            habits(sides, rng, done=done)
            if n == 10:
                broker.stop()  # mid-game: the boards play on, the moves wait
                for _ in range(3):
                    mover = sides[0] if sides[0].colour == sides[0].ref.to_move() else sides[1]
                    pt = mover.choose()
                    mover.person.play_stone(mover.colour, mover.ref.place(pt))
                    assert mover.person.tidy()
                    # The other board has not seen it: nothing lit there.
                    other = sides[1] if mover is sides[0] else sides[0]
                    assert other.ref.board.moves == mover.ref.board.moves - 1
                    break
                broker.start()
                level(sides, 60)
                n += 1
            if n == 20:
                white.power_cut()  # mid-game: resumes the same game from its journal
                assert white.person.tidy(), white.ref.status()
            if not undone and n > 24 and pt and rng.random() < 0.5:
                takeback(sides, mover)
                undone = True
                n -= 1
        assert undone and white.cuts == 1
        assert len(done) >= len(HABITS) - 2, done  # (seeded: most habits came up)
        if ending == "count":
            # Passes until both count, Black's person confirms the count.
            while black.ref.phase != "count":
                play_move(sides, latencies)
            pump(sides, lambda: white.ref.phase == "count", 30, "counting at both boards")
            black.sim.press("confirm")
        else:
            # White's person holds Pass (resign) on Black's turn: White resigns.
            if white.ref.to_move() == white.colour:
                play_move(sides, latencies)
            white.sim.press("resign")
            pump(sides, lambda: white.ref.result == "B+R", 30, "White's resignation")
        pump(sides, lambda: black.ref.result and white.ref.result, 30, "the result at both")
        pump(sides, lambda: all(s.idle() for s in sides), 30, "everything published")
        assert black.ref.result == white.ref.result
        # Over at both boards: each clears its retained pair message.
        pump(sides, lambda: all(s.follower.done for s in sides) and all(s.idle() for s in sides),
             30, "the pair messages cleared")
        assert retained_pairs(sides[0].broker) == []
        mine, theirs = kept(black), kept(white)
        assert mine == theirs and mine[1] == black.ref.result
        assert len(mine[0]) >= MOVES
        archive = tmp_path / "archive"
        wait_for(lambda: len(list(archive.glob("*.sgf"))) >= 1, 30, "the archive: %s" % [
            (b, g.game.phase, g.game.result, g.game.archived, g.pair)
            for b, g in relay.room.boards.items() if g.game is not None])
        time.sleep(0.5)
        files = sorted(archive.glob("*.sgf"))
        # Each board's record under its own name: one game, two witnesses.
        assert [f.name.split("-")[0] for f in files] == ["b1", "b2"], files
        assert all(sgf_game(f.read_bytes()) == mine for f in files)
        assert all(s.follower.note == "" for s in sides)
        cards = {s.id: json.loads(relay.room.summary(relay.room.boards[s.id])) for s in sides}
        # The pairing ended with its game: both cards show again.
        assert not any(c.get("mirror") for c in cards.values()), cards
        latencies.sort()
        print("moves %d, faults: broker restart 1, power cut 1, take-back 1, habits %s; "
              "move -> other board's light p50 %.0f ms, max %.0f ms" % (
                  len(mine[0]), done, 1000 * latencies[len(latencies) // 2],
                  1000 * latencies[-1]))
    finally:
        stop_room(sides, relay, broker)


def test_a_pico_w_plays_a_simulated_board(tmp_path):
    """The Pico W's path: the firmware under the MicroPython unix port, its
    Broadcaster and Follower on the real umqtt.simple (tests/mp/room_board.py,
    config opponent/colour/pair as main.py reads them), Black against a
    simulated White through Mosquitto."""
    from gogadget.points import vertex
    from test_room_publisher_mp import MpBoard, need_tools
    need_tools()
    broker = Broker(str(tmp_path / "broker"), boards=["b1", "b2"]).start()
    white = mp = None
    try:
        from remote_boards import Side
        white = Side(broker, "b2", "b1", 2, "g7", tmp_path / "boards", SEED)
        mp = MpBoard(broker, "b1", tmp_path / "b1", size=9, pairing=("b2", "B", "g7"))
        assert mp("flush")
        pump([white], lambda: white.follower.agreed and white.follower.game >= 0, 30, "pairing")
        assert mp("state")["agreed"] is False or True  # (it learns White's pair as it scans)
        rng = random.Random(SEED)
        n = 0
        for _ in range(8):
            board = white.ref.board
            pts = [pt for pt in board.points() if board.cells[pt] == 0 and board.legal(1, pt) == 0]
            assert mp("play " + vertex(9, rng.choice(pts))) and mp("flush")
            n += 1
            pump([white], lambda: white.ref.board.moves == n, 30, "Black's move at White")
            assert white.person.tidy()
            pt = white.choose()
            white.person.play_stone(2, white.ref.place(pt))
            assert white.person.tidy()
            n += 1
            pump([white], lambda: white.idle() and white.ref.board.moves == n, 30, "published")
            assert mp("await %d" % n), mp("state")
        # Nothing new on either side: the Pico W's scans (the real socket's
        # look for a message included) allocate nothing.
        pump([white], lambda: white.idle(), 30, "White idle")
        assert mp("locked 200"), mp("state")
        assert mp("pass") and mp("flush")
        pump([white], lambda: white.ref.board.moves == n + 1, 30, "Black's pass at White")
        white.person.press_pass()
        pump([white], lambda: white.idle() and white.ref.phase == "count", 30, "the count")
        assert mp("await %d" % (n + 2))
        assert mp("confirm") and mp("flush")
        pump([white], lambda: white.ref.result != "", 30, "the result at White %s" % white.ref.count_result())
        state = mp("state")
        assert state["phase"] == "over" and state["result"] == white.ref.result
        b = white.ref.board
        assert state["moves"] == [["B" if c == 1 else "W", "" if p == 0 else sgf_coord(9, p)]
                                  for c, p in (b.move(i) for i in range(b.moves))]
        assert state["pair_note"] == "" and white.follower.note == ""
    finally:
        if mp is not None:
            mp.close()
        if white is not None:
            white.pub.close()
        broker.stop()


def sgf_coord(size, pt):
    from gogadget.points import sgf_coord as coord
    return coord(size, pt)


def test_gogadget_remote_sim_plays_through_the_host(tmp_path, monkeypatch):
    """The plain Pico's path: `gogadget remote --sim` (its own process) plays
    White of the running simulator (the App with its GTP Link on a pty, as
    `make sim` runs it) against a simulated Black on the broker, with a
    take-back asked by Black and confirmed at the Pico, and the USB link
    unplugged while Black moves (the move is lit once it is back)."""
    import os
    import subprocess
    import sys
    from conftest import ROOT
    from host_sim.sim import session
    from host_sim.person.replay import Person
    from remote_boards import Side
    from test_room_publish import Board
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    broker = Broker(str(tmp_path / "broker"), boards=["b1", "pico-2"]).start()
    board = black = proc = None
    try:
        board = Board(str(tmp_path / "store"))
        sim = board.sim
        wait_for(lambda: sim.referee.settler.primed, 10, "the board's first view")
        proc = subprocess.Popen(
            [sys.executable, "-m", "host_sim.cli", "remote", "--sim", "--broker", broker.url,
             "--board-id", "pico-2", "--password", broker.creds["pico-2"], "--interval", "0.05",
             "--game", "g2", "--opponent", "b1", "--colour", "W", "--verbose"],
            cwd=ROOT, env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        black = Side(broker, "b1", "pico-2", 1, "g2", tmp_path / "boards", SEED, size=9)
        # The simulator's game is the test Board's: 9x9 japanese komi 6.5.
        black.sim.referee.new_game(preset="japanese", komi=6.5)
        pump([black], lambda: black.follower.agreed and black.follower.game >= 0, 30, "pairing")
        person = Person(sim, random.Random(SEED), late=0.0, bump=0.0, max_delay_ms=60)

        def unplug():
            sim.live.close()
            sim.live = None

        def replug():
            sim.live = session.LivePort(sim)

        n = 0
        for i in range(6):
            if i == 4:
                board.do(unplug)  # the USB link goes: Black's move waits at the host
            pt = black.choose()
            black.person.play_stone(1, black.ref.place(pt))
            assert black.person.tidy()
            n += 1
            pump([black], lambda: black.idle(), 30, "published")
            if i == 4:
                time.sleep(1.5)
                assert sim.referee.board.moves == n - 1
                board.do(replug)
            wait_for(lambda: sim.referee.board.moves == n, 30, "Black's move lit at the Pico")
            board.do(lambda: person.tidy())
            assert sim.referee.board.move(n - 1) == black.ref.board.move(n - 1)
            if i == 2:
                # Black takes it back (lift, Confirm); the Pico asks its person
                # (gogadget-remote ask-undo), who confirms; Black plays again.
                ref = black.ref
                black.person.lift(ref.place(pt))
                black.person.wait_until(lambda: ref.tb_ready)
                black.sim.press("confirm")
                black.sim.settle()
                assert ref.board.moves == n - 1 and black.person.tidy()
                pump([black], lambda: black.idle(), 30, "the take-back published")
                wait_for(lambda: sim.referee.ask_undo == n, 30, "the take-back asked at the Pico")
                assert sim.referee.board.moves == n
                board.do(lambda: (sim.press("confirm"), sim.settle()))
                wait_for(lambda: sim.referee.board.moves == n - 1, 30, "confirmed at the Pico")
                board.do(lambda: person.tidy())
                n -= 1
                pt = black.choose()
                black.person.play_stone(1, black.ref.place(pt))
                assert black.person.tidy()
                n += 1
                pump([black], lambda: black.idle(), 30, "published")
                wait_for(lambda: sim.referee.board.moves == n, 30, "Black's new move at the Pico")
                board.do(lambda: person.tidy())
                assert sim.referee.board.move(n - 1) == black.ref.board.move(n - 1)
            free = [p for p in sim.referee.board.points() if sim.referee.board.cells[p] == 0
                    and sim.referee.board.legal(2, p) == 0]
            pt = random.Random(n).choice(free)
            board.do(lambda: (person.play_stone(2, sim.referee.place(pt)), person.tidy()))
            n += 1
            assert sim.referee.board.moves == n
            # Black's turn: a black stone put down at the Pico is not a move
            # there (Black plays at the other board); the lights ask it off.
            stray = [p for p in free if p != pt and sim.referee.board.cells[p] == 0][0]
            board.do(lambda: (person.put(1, sim.referee.place(stray)), sim.settle()))
            assert sim.referee.board.moves == n
            board.do(lambda: person.tidy())
            pump([black], lambda: black.ref.board.moves == n, 30, "White's move at Black")
            assert black.person.tidy()
        black.person.press_pass()
        pump([black], lambda: black.idle(), 30, "published")
        wait_for(lambda: sim.referee.board.moves == n + 1, 30, "Black's pass at the Pico")
        board.do(lambda: person.press_pass())
        pump([black], lambda: black.ref.phase == "count", 30, "the count at Black")
        black.sim.press("confirm")
        pump([black], lambda: black.ref.result != "" and black.idle(), 30, "Black's result")
        wait_for(lambda: sim.referee.result == black.ref.result, 30, "the same result at the Pico")
        b, p = black.ref.board, sim.referee.board
        assert [b.move(i) for i in range(b.moves)] == [p.move(i) for i in range(p.moves)]
        assert black.follower.note == ""
    finally:
        if proc is not None:
            proc.terminate()
            out = proc.communicate(timeout=20)[0]
            print(out[-3000:])
        if black is not None:
            black.pub.close()
        if board is not None:
            board.close()
        broker.stop()


def test_a_paired_boards_idle_poll_allocates_nothing():
    """Under the unix port with the Pico W's heap: the Broadcaster carrying
    a Follower that has agreed the pairing and is level with the opponent
    (tests/mp/room_heap.py pair): 540 polls with nothing new, heap locked."""
    import subprocess
    from conftest import micropython_path
    from test_room_publisher_mp import MP, mp_env
    res = subprocess.run([micropython_path(), "-X", "heapsize=230k", str(MP / "room_heap.py"),
                          "19", "120", "pair"], capture_output=True, text=True, env=mp_env(),
                         timeout=300)
    assert res.returncode == 0, res.stderr
    fig = json.loads(res.stdout.strip().splitlines()[-1])
    assert fig["paired"] and fig["locked_polls"] == 540 and fig["moves"] == 120


def test_a_third_party_may_watch_but_never_move(tmp_path):
    """The ACL: board b3 (a room user, not in this game) reads the pair's
    game, but its forged move on b1's topic -- the very event b2 would light
    next -- and a forged pair message are refused by the broker."""
    broker, relay = start_room(tmp_path)
    sides = []
    spy = None
    try:
        sides = pair_up(broker, tmp_path / "boards", seed=SEED)
        black, white = sides
        play_move(sides)  # Black
        play_move(sides)  # White
        pump(sides, lambda: all(s.idle() for s in sides), 30, "published")
        spy = Publisher(broker, "b3", broker.creds["b3"], clean=True)
        seen = []
        spy.c.on_message = lambda c, u, m: seen.append(m.topic)
        spy.c.subscribe("gogadget/board/#", qos=1)
        wait_for(lambda: "gogadget/board/b1/game" in seen, 20, "b3 watching b1's game")
        pump(sides, lambda: white.follower.seq == black.ref.log.seq, 30, "b1's last at b2")
        seq = white.follower.seq
        free = [p for p in white.ref.board.points() if white.ref.board.cells[p] == 0
                and white.ref.board.legal(1, p) == 0]
        from gogadget.points import sgf_coord
        forged = {"v": 1, "game": white.follower.game, "seq": seq + 1, "t": "move",
                  "n": white.ref.board.moves + 1, "c": "B", "p": sgf_coord(9, free[0])}
        spy.c.publish(topic("b1", T_MOVE), json.dumps(forged), qos=1).wait_for_publish(10)
        spy.c.publish(topic("b2", T_PAIR), json.dumps(
            {"v": 1, "pair": "g1", "colour": "B", "opponent": "b1"}), qos=1,
            retain=True).wait_for_publish(10)
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            for s in sides:
                s.sim.step()
            time.sleep(0.002)
        assert white.ref.board.moves == 2 and white.follower.seq == seq and black.follower.agreed
        assert relay.room.boards["b1"].game.seq == black.ref.log.seq
        # The same event from b1's own user is taken: the refusal was the ACL's.
        own = Publisher(broker, "b1", broker.creds["b1"], clean=True)
        own.c.publish(topic("b1", T_MOVE), json.dumps(forged), qos=1).wait_for_publish(10)
        pump(sides, lambda: white.ref.board.moves == 3, 30, "the event from b1's user")
        own.close()
    finally:
        if spy is not None:
            spy.close()
        stop_room(sides, relay, broker)


def test_main_pairs_when_the_config_names_an_opponent(tmp_path):
    """firmware/main.py itself (pin-level fakes, tests/test_hw_main.py's
    script): config.json names the broker and the opponent; the board says
    so and its pair message is on the broker, retained."""
    from conftest import FIRMWARE, run_micropython
    from gogadget.pairing import pair_message
    from host_sim.tools import mqttlib
    from test_hw_main import SCRIPT
    from test_room_publisher_mp import Subscriber, need_tools
    need_tools()
    broker = Broker(str(tmp_path / "broker"), boards=["b1", "b2"], readers=["checker", "late"]).start()
    sub = None
    try:
        sub = Subscriber(broker)
        before = ("sys.path.append(%r)\n" % str(mqttlib.LIB)
                  + "f = open('config.json', 'w'); f.write(json.dumps({'size': size, "
                  "'scan_hz': 50, 'board_id': 'b2', 'broker': %r, 'broker_port': %d, "
                  "'opponent': 'b1', 'pair': 'g1', 'pair_colour': 'W'})); f.close()\n"
                  % (broker.host, broker.port)
                  + "f = open('secrets.json', 'w'); f.write(json.dumps({'mqtt_password': %r})); "
                  "f.close()\n" % broker.creds["b2"])
        r = run_micropython(code=SCRIPT % dict(fw=str(FIRMWARE), before=before),
                            cwd=str(tmp_path))
        assert r.returncode == 0, r.stdout + r.stderr
        assert "playing W of g1 against b1" in r.stdout, r.stdout
        assert sub.wait_for(lambda: any(t == "gogadget/board/b2/pair" for t, _, _ in sub.messages))
        msg = [(p, retain) for t, p, retain in sub.messages if t == "gogadget/board/b2/pair"][0]
        assert json.loads(msg[0]) == json.loads(pair_message("g1", 2, "b1"))
        late = Subscriber(broker, "late", clean=True)  # after the board: retained
        assert late.wait_for(lambda: any(t == "gogadget/board/b2/pair" and retain
                                         for t, _, retain in late.messages))
        late.close()
    finally:
        if sub is not None:
            sub.close()
        broker.stop()


def test_two_boards_with_the_stress_persons_habits(tmp_path):
    """host_sim/person/stress_player.py's person at each board (captures in one
    motion, under a hand, prisoners first, bumps, a sleeve, knock-offs, a
    wrong colour first, illegal stones (some left 31 s), an extra stone,
    drops, nudges, hands): every move reaches the other board once and
    right, each board's position is the game's after every move, the
    broker is restarted and White power-cut mid-game.  Both records and the
    archive agree."""
    from remote_boards import STRESS_HABITS, stress_move, stress_persons
    broker, relay = start_room(tmp_path)
    sides = []
    rng = random.Random(SEED + 1)
    latencies = []
    try:
        sides = pair_up(broker, tmp_path / "boards", seed=SEED + 1)
        black, white = sides
        stress_persons(sides, SEED + 1)
        moves = 0
        passes = 0
        while passes < 2 and moves < 120:
            passes = 0 if stress_move(sides, rng, latencies) else passes + 1
            moves += 1
            if moves == 30:
                broker.restart()
            if moves == 60:
                white.power_cut()
                white.player.obey()  # the position put back, as the lights ask
        pump(sides, lambda: black.ref.phase == "count" and white.ref.phase == "count", 30,
             "counting at both boards")
        black.sim.press("confirm")
        pump(sides, lambda: black.ref.result and white.ref.result and all(
            s.idle() for s in sides), 30, "the result at both")
        used = black.player.used | white.player.used
        mine, theirs = kept(black), kept(white)
        assert mine == theirs and mine[1] == black.ref.result == white.ref.result
        archive = tmp_path / "archive"
        wait_for(lambda: len(list(archive.glob("*.sgf"))) >= 1, 30, "the archive")
        assert sgf_game(sorted(archive.glob("*.sgf"))[0].read_bytes()) == mine
        assert len(used) >= len(STRESS_HABITS) - 4, sorted(used)
        latencies.sort()
        assert white.cuts == 1
        print("stress: %d moves, habits %s, broker restart 1, power cut 1; move -> light p50 %.0f ms, "
              "max %.0f ms" % (len(mine[0]), ",".join(sorted(used)),
                               1000 * latencies[len(latencies) // 2], 1000 * latencies[-1]))
    finally:
        stop_room(sides, relay, broker)
