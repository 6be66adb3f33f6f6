"""The `rules` part: Board.play timed move by move on the Pico, in the heap the App leaves."""
import asyncio

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


def run(repl, firmware):
    """RULES over rules_games() on the Pico with the firmware's files, reported."""
    from host_sim.bench.rp2.report import report_rules
    from host_sim.bench.rp2.target import on_pico
    report_rules(asyncio.run(on_pico(repl, RULES % (rules_games(),), firmware=firmware)))
