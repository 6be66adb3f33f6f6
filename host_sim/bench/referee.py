"""Referee figures under the MicroPython unix port (a subprocess per figure):

* cost of one referee.update() when nothing changed, and when a settled
  stone lands as a move that captures;
* the latency arithmetic: the debounce (stable_ms, K scans at scan_hz)
  plus the referee cost; the end-to-end figure is the rp2 section's;
* the smallest -X heapsize at which the whole pin-free App (fake drivers,
  a journal on disk) replays a professional 19x19 game stone by stone,
  with its code loaded from .mpy files (bytecode in RAM, as on stock
  firmware) and with its code run in place from a ROMFS image.

Host figures are for the unix port on this machine.  No factor turns them
into RP2040 times (the one used before, x30, had no source and was 3-5x too
optimistic): the RP2040 figures are measured on the emulated chip in the
rp2 section (host_sim/bench/rp2/).
"""
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "host_sim" / "games" / "shusaku-ear-reddening-1846.sgf"

COST = """
import time
from gogadget.config import Config
from gogadget.referee import Referee
from gogadget.points import point, place, BLACK, WHITE
from gogadget.scan import new_scan
ref = Referee(Config(size=19))
scan = new_scan(19)
t = 0
def feed(n):
    global t
    for _ in range(n):
        ref.update(scan, t)
        t += 20
feed(200)  # power-up: the boot vote, and the noise estimate down to what it measures
# a white stone in atari on a crowded board, black to move
for i, (c, r, cc) in enumerate(((BLACK, 3, 3), (WHITE, 3, 4), (BLACK, 2, 4), (WHITE, 15, 15),
                                 (BLACK, 4, 4), (WHITE, 15, 3))):
    scan[place(19, point(19, r, cc))] = c
    feed(ref.settler.stable_scans + 3)
N = 2000
t0 = time.ticks_us()
for _ in range(N):
    ref.update(scan, t)
    t += 20
idle = time.ticks_diff(time.ticks_us(), t0) / N
# the capturing stone: time the update that turns the stable scan into the
# move (the scan after its batch was adopted, which finds the batch clean)
scan[place(19, point(19, 3, 5))] = BLACK
feed(ref.settler.stable_scans)
t0 = time.ticks_us()
ref.update(scan, t)
move = time.ticks_diff(time.ticks_us(), t0)
assert ref.board.moves == 7 and ref.board.last_captures == 1, ref.status()
print("IDLE %.1f MOVE %d" % (idle, move))
"""

# Mounts a ROMFS image as a board with a ROMFS partition would: the image
# is read into one buffer first, so `-X heapsize` minus the image is what the
# application itself needs when its code sits in flash.
ROM = """
import vfs, sys
f = open(%r, "rb")
image = bytearray(%d)
f.readinto(image)
f.close()
vfs.mount(vfs.VfsRom(image), "/rom")
sys.path.insert(0, "/rom")
"""

REPLAY = """
import gc, os, micropython
gc.collect()
base = gc.mem_alloc()
from gogadget.app import App  # and what it imports: no score/sgf/font/gtp/link
gc.collect()
code = gc.mem_alloc() - base
micropython.qstr_info()  # the interned names: in flash when frozen, on the heap when loaded
from gogadget.config import Config
from gogadget import signals as sg
from gogadget.scan import S_EMPTY, S_BLACK, S_WHITE
MOVES = %r  # bytes: colour, place // 256, place %% 256 (a list of ints is 5K of "data")
class Sensors:
    kind = "colour"
    def __init__(self):
        self.board = bytearray(361)
    def read(self, scan):
        scan[:] = self.board
class Leds:
    def show(self, frame, now_ms):
        pass
class Buttons:
    def poll(self, now_ms):
        return 0
s = Sensors()
app = App(Config(size=19), s, Leds(), Buttons(), %r)
app.boot(0)
t = 0
def steps(n):
    global t
    for _ in range(n):
        app.step(t)
        t += 20
ref = app.referee
steps(3)  # power-up: the settled view is voted from the first scans of the empty board
for i in range(0, len(MOVES), 3):
    colour = MOVES[i]
    pl = MOVES[i + 1] * 256 + MOVES[i + 2]
    s.board[pl] = S_BLACK if colour == 1 else S_WHITE
    steps(ref.settler.debounce + 2)  # the debounce, longer for a second after boot
    for q in range(361):
        if ref.prompt[q] == sg.P_REMOVE:
            s.board[q] = S_EMPTY
    steps(20)
assert ref.board.moves == len(MOVES) // 3, ref.status()
gc.collect()
print("OK moves %%d, code %%d bytes, data %%d bytes, free %%d bytes" %% (
    ref.board.moves, code, gc.mem_alloc() - base - code, gc.mem_free()))
"""


def compile_mpy(dest):
    """The firmware as `make mpy` builds it (.mpy): compiling .py sources
    at import time would measure the compiler's heap, not ours."""
    from host_sim.tools.mpy import build
    build(out=Path(dest), stream=io.StringIO())
    return dest


def build_romfs(dest):
    """The package's image, as `make romfs` builds it (hw/ too)."""
    from host_sim.tools.mpy import romfs
    return str(romfs(dest=Path(dest), stream=io.StringIO()))


def micropython(code, heapsize=None, path=None):
    exe = ROOT / ".venv" / "bin" / "micropython"
    cmd = [str(exe)]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    cmd += ["-c", code]
    env = dict(os.environ, MICROPYPATH=path or str(ROOT / "firmware"))
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def game_moves():
    sys.path.insert(0, str(ROOT / "firmware"))
    from gogadget import sgf
    from gogadget.points import place
    game = sgf.parse(GAME.read_text())
    out = []
    for colour, pt in game.moves:
        if pt:
            out += [colour, place(game.size, pt)]
    return out, game.size


def packed(moves):
    """[colour, place, ...] -> bytes of (colour, place // 256, place % 256)."""
    out = bytearray()
    for i in range(0, len(moves), 2):
        out += bytes((moves[i], moves[i + 1] >> 8, moves[i + 1] & 255))
    return bytes(out)


def main():
    idle = move = None
    for _ in range(3):  # the best of three: other load on the machine only adds
        proc = micropython(COST)
        if proc.returncode:
            print("cost script failed:", proc.stdout, proc.stderr)
            return
        words = proc.stdout.split()
        i, m = float(words[1]), float(words[3])
        idle = i if idle is None else min(idle, i)
        move = m if move is None else min(move, m)
    print("referee.update, scan unchanged    %8.1f us (unix port, this machine)" % idle)
    print("referee.update, move + capture    %8.1f us (unix port, this machine)" % move)
    sys.path.insert(0, str(ROOT / "firmware"))
    from gogadget.config import Config
    from gogadget.settle import Settler
    cfg = Config()
    k, period = Settler(19, cfg).stable_scans, cfg.scan_period_ms()
    # A stone is first read within a period of landing, ready on its K-th
    # equal scan and taken on the next, which finds its batch clean: up to
    # K + 1 periods.
    print("latency: stone down -> LED lit = up to one scan period to its first scan + the"
          " debounce (%d x %d ms = %d ms, stable_ms %d) + the RP2040's own work"
          % (k, period, k * period, cfg.stable_ms))
    print("  verdict (mean <= 60 ms, worst <= 80 ms): measured end to end on the emulated"
          " RP2040, section rp2")

    moves, size = game_moves()
    assert size == 19
    with tempfile.TemporaryDirectory() as d:
        mpy = compile_mpy(os.path.join(d, "mpy"))
        loaded = smallest_heap(d, "", mpy, moves)
        if loaded is None:
            return
        image = build_romfs(os.path.join(d, "app.romfs"))
        image_kb = os.path.getsize(image) / 1024
        rom = smallest_heap(d, ROM % (image, os.path.getsize(image)), "/nonexistent", moves,
                            floor=int(image_kb))
        if rom is None:
            return
    print("App replays %s (%d moves, 19x19) stone by stone; smallest -X heapsize (target <= 64K):"
          % (GAME.name, len(moves) // 2))
    kb, out = loaded
    print("  code loaded from .mpy files (stock firmware: bytecode copied to RAM)  %4dK" % kb)
    print("      %s" % out.splitlines()[-1])
    print("      of the code, the interned names (qstr pool): %d bytes" % qstr_pool(out))
    kb, out = rom
    need = kb - image_kb
    print("  code in a ROMFS image, run in place (%.1fK image not counted)          %4.1fK  %s"
          % (image_kb, need, "met" if need <= 64 else "MISSED"))
    print("      %s" % out.splitlines()[-1])
    print("      of the code, the interned names (qstr pool): %d bytes" % qstr_pool(out))
    print("  (the unix port is 64-bit: its objects are up to twice their size on an RP2040)")


def qstr_pool(out):
    """Bytes the qstr pool grew by while the App was imported."""
    sizes = [int(line.rsplit("=", 1)[1]) for line in out.splitlines()
             if line.startswith("qstr pool:")]
    return sizes[-1] - sizes[0] if len(sizes) > 1 else sizes[-1]


def smallest_heap(tmp, prefix, path, moves, floor=8):
    """Bisect the smallest heap (K) at which the replay passes; (K, stdout)."""
    def fits(kb):
        store = tempfile.mkdtemp(dir=tmp)  # a fresh store each run
        code = prefix + "import micropython\nmicropython.qstr_info()\n" + REPLAY % (packed(moves), store)
        p = micropython(code, heapsize="%dK" % kb, path=path)
        return p.returncode == 0 and "\nOK " in "\n" + p.stdout, p
    lo, hi = floor, floor + 256
    ok, p = fits(hi)
    if not ok:
        print("replay failed even at %dK: %s" % (hi, (p.stdout + p.stderr)[-400:]))
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid)[0]:
            hi = mid
        else:
            lo = mid
    return hi, fits(hi)[1].stdout


if __name__ == "__main__":
    main()
