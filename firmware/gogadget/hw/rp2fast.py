"""RP2040 fast paths: the scan, classify and LED render loops as viper code.

Bytecode costs the RP2040 tens of microseconds per sensor (measured on the
emulated Pico: a 19x19 read_raw took 37 ms and classify 20 ms, `make bench
BENCH=rp2`), so a full scan with an LED write could not keep 50 per second.
These loops compiled to Thumb code do the same work in a few ms: the select
lines go straight to the SIO set/clear registers and each conversion is
started and read on the ADC's own registers (what machine.ADC.read_u16 does,
without a call per read).

The viper functions themselves are in hw/viperscan.py (the sensors'),
hw/viperleds.py (the LED frame's) and hw/vipergame.py (the settler's,
referee's, rules core's and journal's), which `make mpy` compiles with
`mpy-cross -march=armv6m`: each .mpy holds Thumb machine code,
which the stock rp2 port imports as it is, without its compiler and without
the source text on the heap (the loops used to be a source string exec()ed
at boot: about 22 KB of heap for the text and its compiled code, plus the
compiler's transient).  Nowhere but on the rp2 port is that module imported:
elsewhere load() returns None and the modules load their plain loops
(boardplain, settleplain, refereeplain, hw/muxscanplain, hw/ledsplain,
hw/calibplain), which do exactly the same thing and which a Pico never
loads.
"""
import sys

# The viper modules and their functions, by name (what load() returns).
# (Whole module names: a string over 10 characters is no name the board
# interns, and importing by it interns no other.)
MODULES = (("gogadget.hw.viperscan", ("scan", "classify", "track_look")),
           ("gogadget.hw.viperleds", ("uses", "render", "paint_places")),
           ("gogadget.hw.vipergame", ("settle_places", "settle_mark", "diff_places", "sync_want",
                                      "crc8", "liberty", "remove", "superko_find")))

_loaded = []


def install(fast=None):
    """On the rp2 port: the rules core's flood fill, capture and history
    search, the settler's per-place pass and adoption, the referee's diff
    and want, the frame's paint and the journal's CRC as viper code too
    (each module's use_fast), before any of them is used: their plain
    loops (boardplain, settleplain, refereeplain) are then never loaded.  Returns the
    functions (None elsewhere); fast: the table to install instead of
    load()'s (tests, under the unix port)."""
    if fast is None:
        fast = load()
    if fast is not None:
        from gogadget import board, journal, referee, settle, signals, view
        board.use_fast(fast["liberty"], fast["remove"], fast["superko_find"])
        settle.use_fast(fast["settle_places"], fast["settle_mark"])
        view.use_fast(fast["diff_places"])
        referee.use_fast(fast["sync_want"])
        signals.use_fast(fast["paint_places"])
        journal.use_fast(fast["crc8"])
    return fast


def load():
    """The viper functions (a dict by name) on the rp2 port, else None.  A
    board whose viper .mpy files will not load (another architecture's
    build) keeps the plain loops too."""
    if sys.platform != "rp2":
        return None
    if not _loaded:
        try:
            _loaded.append(twins())
        except (ImportError, ValueError) as e:  # ValueError: incompatible .mpy
            print("gogadget: plain loops, no viper code:", e)
            _loaded.append(None)
    return _loaded[0]


def twins():
    """Every viper function by name, imported from its module (load() on
    the rp2 port; tests under the unix port, which compiles the sources)."""
    fast = {}
    for module, names in MODULES:
        m = __import__(module, None, None, names)
        for name in names:
            fast[name] = getattr(m, name)
    return fast
