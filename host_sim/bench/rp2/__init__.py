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

The cycle, latency and scan parts read host_sim.sim.physics's sensors through
the ADC (host_sim/rp2/physics_adc.py), calibrated the maker's way on the
host (calib.bin on the flash): a board in play is calibrated, and an
uncalibrated one skips calib.track's drift tracking in every scan.

The bench is a package, one module a job: target.py (the Pico a part runs
on: its flash, its boot, a script over the raw REPL), one module per part
(cycle, latency, rules, heap, scan: its script and its runner), report.py
(the figures, their targets and verdicts).  `--results FILE` also writes
everything printed to FILE, with the command, the commit and each part's
wall time: the one run the docs' on-target figures are quoted from.
"""
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "firmware"))

# gc.mem_free() of the stock Pico firmware right after boot on the emulator,
# before anything is imported (the figure issue 11's target is half of).
STOCK_FREE = 229312
SIZE = 19

# What the parts' modules hold, named here as before the bench was split
# (tests, host_sim/bench/study.py and the docs call them bench.NAME).
from host_sim.bench.rp2.target import (  # noqa: E402
    PROBE, REPL_FREE, SCAN_SEED, LATE_STONES, _version, on_pico, parse, physical_board,
    physics_attach, probe, rp2_place)
from host_sim.bench.rp2.report import (  # noqa: E402
    HEAP_SHARE, HEAP_SHARE_PAIRED, HEAP_SHARE_W, RULES_MEAN_US, RULES_WORST_US, heap_verdict,
    report_cycle, report_heap, report_latency, report_rules, report_scan, verdict)
from host_sim.bench.rp2.cycle import CYCLE  # noqa: E402
from host_sim.bench.rp2.latency import latency  # noqa: E402
from host_sim.bench.rp2.rules import RULES, rules_games  # noqa: E402
from host_sim.bench.rp2.heap import (  # noqa: E402
    CLOCK_CONTROL, HEAP, HEAP_DATA, STAGES, bench_files, heap_script, journal_of_game,
    room_files)
from host_sim.bench.rp2.scan import SCAN, scan_on_pico, scan_positions  # noqa: E402

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


def results_arg(argv):
    """(the arguments without `--results FILE`, FILE or None)."""
    argv = list(argv)
    if "--results" not in argv:
        return argv, None
    i = argv.index("--results")
    if i + 1 >= len(argv):
        raise SystemExit("--results needs a file")
    path = Path(argv[i + 1])
    del argv[i:i + 2]
    return argv, path


class Results:
    """stdout, and everything printed written to a file as well; note()
    writes to the file alone (what the printed figures are unchanged by)."""

    def __init__(self, out, path):
        self.out = out
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w")

    def write(self, text):
        self.out.write(text)
        self.file.write(text)

    def flush(self):
        self.out.flush()
        self.file.flush()

    def note(self, text):
        self.file.write(text + "\n")
        self.file.flush()


def _commit():
    """The commit the figures were measured on (host_sim.tools.uf2's: "+dirty"
    when firmware/ has uncommitted changes)."""
    from host_sim.tools import uf2
    return uf2.commit_id(ROOT)


def main(parts=PARTS, firmware=None, why=None, results=None):
    """`make bench BENCH=rp2` runs every part; `python -m host_sim.bench.rp2
    [--image UF2] [--results FILE] rules heap` runs some, on the firmware
    given, else the one GOGADGET_UF2 or the cache folder holds (results: a
    file the figures are written to as well)."""
    if results is None:
        return _main(parts, firmware, why, None)
    tee = Results(sys.stdout, Path(results))
    tee.note("# python -m host_sim.bench.rp2 --image %s %s" % (
        Path(firmware).name if firmware else "-", " ".join(parts)))
    tee.note("# commit %s, run %s UTC" % (_commit(), time.strftime("%Y-%m-%d %H:%M",
                                                                    time.gmtime())))
    old = sys.stdout
    sys.stdout = tee
    try:
        return _main(parts, firmware, why, tee)
    finally:
        sys.stdout = old
        tee.file.close()


# The parts' modules, each with its run(): by module, since the package's
# `latency` is the latency part's timing function (named so before the split).
RUNNERS = ("cycle", "latency", "rules", "heap", "scan")


def part_module(name):
    """The module of one of RUNNERS."""
    import importlib
    return importlib.import_module("host_sim.bench.rp2." + name)


def _main(parts, firmware, why, tee):
    from host_sim import rp2
    if firmware is None and why is None:
        parts, firmware, why = image_arg(())
    reason = rp2.missing_packages() or (why if firmware is None else None)
    if reason:
        print("rp2: not available (%s)" % reason)
        return
    cycle, latency, rules, heap, scan = (part_module(n) for n in RUNNERS)
    wall = time.time()

    def took(part, since):
        if tee is not None:
            tee.note("(%s took %.0f s of wall time)" % (part, time.time() - since))

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
        # The firmware's folders (gogadget/, gogadget/hw/, any other package
        # of it), made before their files go in.
        dirs = ["games"] if frozen else rp2.folders(files) + ["games"]
        repl = rp2.flash_image(d / "repl.img", None, files, dirs=dirs, blocks=blocks)
        took("the start (probe, make mpy)", wall)
        move = None
        # The cycle and the latency run on a calibrated board, as a board in
        # play is (an uncalibrated one skips calib.track): host_sim.sim.physics's
        # parts, calibrated on the host, under the ADC.
        if "cycle" in parts:
            t = time.time()
            move = cycle.run(d, files, dirs, blocks, firmware)
            took("cycle", t)
        if "latency" in parts:
            t = time.time()
            latency.run(d, files, dirs, blocks, firmware, build, move)
            took("latency", t)
        if "rules" in parts:
            t = time.time()
            rules.run(repl, firmware)
            took("rules", t)
        for part in HEAP_PARTS:
            if part not in parts:
                continue
            t = time.time()
            heap.run(part, d, files, dirs, blocks, firmware, machine)
            took(part, t)
        if "scan" in parts:
            t = time.time()
            scan.run(d, files, dirs, blocks, firmware)
            took("scan", t)
    print("(emulation took %.0f s of wall time)" % (time.time() - wall))
