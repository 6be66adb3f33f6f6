"""The firmware's memory map: which modules each phase of the board holds,
and the budget their bytecode is held to (issue 26).

On the official MicroPython firmware a module imported from a .mpy file
has its bytecode copied into the heap, so what a phase has imported is
heap it cannot use.  Each phase below names the modules it may hold
(beyond CORE, which every phase holds) and the most bytes their .mpy files,
compiled as `make mpy` compiles them for the RP2040 (mpy-cross
-march=armv6m and host_sim/tools/mpy.py's options), may add up to.  This
is the one place the budgets are written: tests/test_memory_budget.py
plays a whole game under the unix port (tests/mp/phase_game.py), fails
when a phase imports a module it does not need or goes over its budget,
and checks that docs/ARCHITECTURE.md's memory map is this one
(`python -m host_sim.tools.memory` prints it).
"""
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# What every phase holds: main.py (a stub) and the scan loop, the
# referee, the rules core, the journal writer, the settler, the sensors,
# LEDs and buttons of hw/, and the viper loops.  The start (boot, with the
# driver factories of hw.pico and the viper loader hw.rp2fast), the
# config's file and limits (configfile) and the journal's replay are
# loaded for their job and let go.
CORE = (
    "main", "gogadget", "gogadget.app", "gogadget.loop", "gogadget.board", "gogadget.compat",
    "gogadget.config", "gogadget.events", "gogadget.frame", "gogadget.gamelog",
    "gogadget.journal", "gogadget.points", "gogadget.referee",
    "gogadget.rules", "gogadget.scan", "gogadget.settle", "gogadget.signals",
    "gogadget.view", "gogadget.hw", "gogadget.hw.buttons", "gogadget.hw.calib",
    "gogadget.hw.heartbeat", "gogadget.hw.leds", "gogadget.hw.muxscan",
    "gogadget.hw.calibfmt", "gogadget.hw.viperscan", "gogadget.hw.viperleds",
    "gogadget.hw.vipergame", "gogadget.hw.ws2812pio",
)

PLAY = "gogadget.play"
# phase: (what it holds beyond CORE, budget: the most bytes of .mpy for all it holds)
PHASES = {
    "idle": ((PLAY,), 50000),
    "playing": ((PLAY,), 50000),
    "passing": ((PLAY,), 50000),
    "counting": (("gogadget.counting", "gogadget.score"), 51500),
    "saving": (("gogadget.ending", "gogadget.sgf"), 50800),
    "over": (("gogadget.ending",), 48700),
    "new game": ((PLAY, "gogadget.ending", "gogadget.position"), 53400),
    "resume": ((PLAY, "gogadget.position"), 52100),
    "host": ((PLAY, "gogadget.link", "gogadget.gtp", "gogadget.ruleopts", "gogadget.score"), 69300),
    "room": ((PLAY, "gogadget.broadcast", "gogadget.hw.net", "gogadget.mqtt"), 57100),
    "clocked": ((PLAY, "gogadget.clock"), 53100),
}
# The most names (qstrs) the firmware interns at the board's start, as the
# unix port counts them on the .mpy files (tests/mp/boot_names.py; the
# test is tests/test_boot_names.py), by config: a plain board, a game on a
# clock, a board in the room (which learns the host's names too).
# MicroPython never frees a name, and its table of names grows by
# doubling, one heap block each time: on the RP2040, past 1,260 names of
# the program's own the next block is 7,712 bytes.  The emulated Pico W
# counts ~140 names more than the unix port (its ROM has fewer, and it
# interns main.py's and the drivers' run-time names): the room's budget
# keeps it under that line with room for the names made at run time.
NAMES = {"plain": 740, "clock": 770, "room": 910}
NAMES_LINE = 1260

# Under the unix port the fakes stand in for what only the RP2040 loads:
# its viper loops (boot.py has rp2fast load them there and hand them to the
# modules that run them, which hold them as long as the App runs) and its
# PIO LED driver (the unix port has no rp2 module, so hw/pico.py falls back
# to neopixel); and the plain loops the viper code replaces there are not
# loaded on the board (tests/test_rp2_fast.py: with the twins installed
# none of them is).
ON_THE_BOARD = {"gogadget.app": ("gogadget.hw.viperscan", "gogadget.hw.viperleds",
                                 "gogadget.hw.vipergame"),
                "neopixel": ("gogadget.hw.ws2812pio",)}
NOT_ON_THE_BOARD = ("neopixel", "gogadget.boardplain", "gogadget.settleplain",
                    "gogadget.refereeplain", "gogadget.viewplain", "gogadget.hw.calibplain", "gogadget.hw.muxscanplain",
                    "gogadget.hw.ledsplain")


def allowed(phase):
    return set(CORE) | set(PHASES[phase][0])


def budget(phase):
    return PHASES[phase][1]


def as_on_the_board(modules):
    """A set of module names seen under the unix port, as the RP2040 holds them."""
    out = set(modules)
    for seen, board in ON_THE_BOARD.items():
        if seen in out:
            out.update(board)
    for m in NOT_ON_THE_BOARD:
        out.discard(m)
    return out


def source(module):
    """The source file of a firmware module (umqtt: build/lib's), or None."""
    rel = module.replace(".", "/")
    for base in (ROOT / "firmware", ROOT / "build" / "lib"):
        for cand in (base / (rel + ".py"), base / rel / "__init__.py"):
            if cand.is_file():
                return cand
    return None


def mpy_sizes(modules, mpy_cross=None):
    """{module: bytes of its .mpy as make mpy builds it for the RP2040}; a
    package without an __init__.py (umqtt) counts 0."""
    from host_sim.tools import mpy
    exe = mpy_cross or mpy._tool("mpy-cross")
    sizes = {}
    with tempfile.TemporaryDirectory() as d:
        for m in sorted(modules):
            src = source(m)
            if src is None:
                sizes[m] = 0
                continue
            rel = src.relative_to(ROOT / "firmware") if (ROOT / "firmware") in src.parents else src.name
            flags = mpy.cross_args(rel)
            if not any(f.startswith("-march") for f in flags):
                flags = flags + ["-march=armv6m"]
            out = Path(d) / (m + ".mpy")
            res = subprocess.run([exe, "-s", mpy.source_name(rel), *flags, "-o", str(out), str(src)],
                                 capture_output=True,
                                 text=True, timeout=60)
            if res.returncode != 0:
                raise RuntimeError("mpy-cross failed on %s: %s" % (src, res.stderr))
            sizes[m] = out.stat().st_size
    return sizes


def short(module):
    return "main.py" if module == "main" else module.replace("gogadget.", "")


def memory_map(sizes):
    """docs/ARCHITECTURE.md's memory map (markdown), from PHASES and sizes."""
    lines = ["| phase | holds beyond the core | .mpy bytes | budget |", "|---|---|---:|---:|"]
    core = sum(sizes.get(m, 0) for m in CORE)
    for phase, (extra, limit) in PHASES.items():
        total = core + sum(sizes.get(m, 0) for m in extra)
        lines.append("| %s | %s | %d | %d |" % (phase, ", ".join(short(m) for m in extra) or "-",
                                               total, limit))
    lines.append("")
    lines.append("The core (%d bytes): %s." % (core, ", ".join(
        "%s %d" % (short(m), sizes.get(m, 0)) for m in sorted(CORE, key=lambda m: -sizes.get(m, 0)))))
    return "\n".join(lines)


def main():
    mods = set(CORE)
    for extra, _ in PHASES.values():
        mods |= set(extra)
    print(memory_map(mpy_sizes(mods)))


if __name__ == "__main__":
    sys.exit(main())
