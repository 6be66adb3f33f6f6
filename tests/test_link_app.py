"""The link on the real App (referee + journal + virtual drivers): bad input
costs nothing, through the in-process stream and through the real pty."""
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "mp"))
from fake_referee import FakeStream  # noqa: E402

from conftest import run_micropython  # noqa: E402
from host_sim.base.serialport import board as board_client  # noqa: E402
from host_sim.sim.simboard import SimBoard  # noqa: E402
from test_link import fuzz_line, unread  # noqa: E402


def snapshot(sim):
    ref = sim.app.referee
    with open(os.path.join(sim.store_dir, "journal.bin"), "rb") as f:
        journal = f.read()
    return bytes(ref.board.cells), ref.board.moves, ref.phase, ref.sgf(), journal


def drive(sim, st, line, steps=40):
    st.feed(line.encode() + b"\n")
    for _ in range(steps):
        sim.step()
    return st.take()


def test_fuzz_100k_lines_leave_game_and_journal_unchanged():
    st = FakeStream()
    sim = SimBoard(size=9, stream=st)
    try:
        assert drive(sim, st, "play b E5") == "= \n\n"
        assert drive(sim, st, "genmove w").startswith("= ")  # the person moves
        assert drive(sim, st, "play b C3") == "= \n\n"
        drive(sim, st, "gogadget-events")
        before = snapshot(sim)
        link = sim.link
        rng = random.Random(7)
        for i in range(100_000):
            st.feed(fuzz_line(rng) + b"\n")
            while st.inbox or unread(link):
                link.poll(i)
            if i % 500 == 0:
                sim.step()  # the scan loop goes on between commands
            assert link.waiting == 0
        st.take()
        for _ in range(20):
            sim.step()
        assert snapshot(sim) == before
        assert drive(sim, st, "name") == "= GoGadget\n\n"
        assert drive(sim, st, "genmove w").startswith("= ")
    finally:
        sim.close()


def test_noise_through_the_pty_costs_nothing():
    sim = SimBoard(size=9, seed=3).start()
    client = board_client(sim.port)
    try:
        assert client.send("play b E5") == ""
        client.send("genmove w", timeout=30)
        with sim.lock:
            before = snapshot(sim)
        rng = random.Random(11)
        ser = client.transport
        for _ in range(300):
            ser.write(fuzz_line(rng) + b"\n")
        ser.write(b"\n12 name\n")
        # Every response arrives, in order, the last one for "12 name".
        deadline = time.monotonic() + 30
        last = None
        while time.monotonic() < deadline:
            line = ser.read_line(timeout=1)
            if line is not None and line.startswith(b"=12"):
                last = line
                break
        assert last == b"=12 GoGadget"
        sim.check()
        with sim.lock:
            assert snapshot(sim) == before
        assert client.send("play b C3") == ""
    finally:
        client.transport.close()
        sim.close()


def test_link_runs_on_micropython(micropython):
    code = r"""
import sys
sys.path.append('tests/mp')
from fake_referee import FakeReferee, FakeStream
from gogadget.link import Link
import micropython
ref = FakeReferee(9)
st = FakeStream()
lk = Link(ref, st)
st.feed(b'protocol_version\nplay b E5\n\xff\x00\r\ngenmove w\n')
for _ in range(6):
    lk.poll(0)
lk.poll(0)
# Nothing arrives, nothing happens: the idle poll must not allocate.
micropython.heap_lock()
for _ in range(100):
    lk.poll(0)
micropython.heap_unlock()
ref.place_all()
ref.person_move(23)
lk.poll(0)
sys.stdout.write(bytes(st.out).decode())
"""
    r = micropython(code=code, cwd=str(Path(__file__).parent.parent))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "= 2\n\n= \n\n? unknown command\n\n= D2\n\n"


def test_replay_guides_the_person_through_a_stored_game(tmp_path):
    record = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[de];B[dd];W[ce];B[ed];W[cd];B[dc];W[cc])"
    (tmp_path / "0003.sgf").write_text(record)
    st = FakeStream()
    sim = SimBoard(size=9, stream=st, store_dir=str(tmp_path), colour=-1)  # follows prompts only
    try:
        assert drive(sim, st, "gogadget-replay ../0003.sgf").startswith("? bad game name")
        assert drive(sim, st, "gogadget-replay 0003.sgf") == "= 8\n\n"
        for _ in range(sim.config.scans(8000)):  # 8 s of play
            sim.step()
        status = drive(sim, st, "gogadget-status")
        assert "replay=8/8" in status and "moves=8" in status and "outstanding=0" in status
        assert "replay end of the record" in drive(sim, st, "gogadget-events")
        assert sim.stones.count() == 8
        # Departing from the record: a stone the record does not have.
        assert drive(sim, st, "gogadget-replay 0003.sgf") == "= 8\n\n"
        sim.person.colour = 99  # the person stops following prompts
        # Once the replay is under way (before, the stone would be lifted
        # with the rest when the new game asks for a clear board; the
        # person acts once a scan, so how soon depends on scan_hz).
        for _ in range(sim.config.scans(8000)):
            sim.step()
            if sim.app.referee.board.moves >= 3:
                break
        sim.stones.put("J9", 2)
        for _ in range(sim.config.scans(2000)):
            sim.step()
        events = drive(sim, st, "gogadget-events")
        assert "board departs from the record" in events, events
    finally:
        sim.close()


def test_stdio_stream_on_micropython(micropython):
    # The Pico's transport (StdioStream) on the unix port: stdin is a pipe.
    code = r"""
import sys
sys.path.append('tests/mp')
from fake_referee import FakeReferee
from gogadget.link import Link
from gogadget.hw.usb import StdioStream
lk = Link(FakeReferee(9), StdioStream())
for _ in range(200):
    lk.poll(0)
"""
    r = micropython(code=code, input="name\n\xff\x00junk\r\n2 protocol_version\n",
                    cwd=str(Path(__file__).parent.parent))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "= GoGadget\n\n? unknown command\n\n=2 2\n\n"


def test_stdio_stream_idle_line_allocates_nothing(micropython):
    # The scan loop looks at the line every cycle (App.poll_host): a quiet
    # line must cost no heap, or the allocations add up to an automatic
    # collection that a stone then waits for (issue 26: select.poll().poll
    # made a list a call, 32 bytes a cycle on the Pico).  stdin is a pipe
    # left open with nothing in it, as a board's USB line with no host.
    import subprocess
    from conftest import FIRMWARE, micropython_path
    code = r"""
import gc
from gogadget.hw.usb import StdioStream
st = StdioStream()
buf = bytearray(1)
def cycles(n):
    for _ in range(n):
        st.readinto(buf)
cycles(1)  # the first look may set up what the poller keeps
gc.collect()
gc.disable()
a = gc.mem_alloc()
cycles(100)
print("ALLOC", gc.mem_alloc() - a)
"""
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE))
    p = subprocess.Popen([micropython_path(), "-c", code], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
    finally:
        p.stdin.close()
        err = p.stderr.read()
        p.wait(timeout=30)
    assert line == "ALLOC 0\n", (line, err)
