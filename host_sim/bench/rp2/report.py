"""Each part's figures from its script's output, printed with their targets and verdicts."""
import re

from host_sim.bench.rp2 import SIZE, STOCK_FREE
from host_sim.bench.rp2.heap import STAGES
from host_sim.bench.rp2.target import parse

def verdict(ok):
    return "met" if ok else "MISSED"


def report_cycle(cyc):
    how, limit = eval(parse("CAL", cyc))
    print("(the App's scanner: %s, tracking band %d counts; host_sim.sim.physics's nominal sensors)"
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


def report_scan(name, out):
    from gogadget.config import Config
    how, calibrated, limit, bad = eval(parse("CAL", out))
    read_raw, classify, track, worst, whole = eval(parse("TIMES", out))
    a_raw, a_cls, a_track, a_read = eval(parse("ALLOC", out))
    locked = eval(parse("LOCKED", out))
    save_us, save_alloc, path, dirty = eval(parse("SAVE", out))
    period = Config().scan_period_ms() * 1000
    print("MuxScanner.read's parts, 19x19 on host_sim.sim.physics's nominal board, %s (%s, track"
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
    names = re.search(r"qstr pool: n_pool=(\d+), n_qstr=(\d+), n_str_data_bytes=\d+, "
                      r"n_total_bytes=(\d+)", heap_out)
    if names:
        from host_sim.tools.memory import NAMES_LINE
        pools, count, size = (int(x) for x in names.groups())
        print("  names interned at the end, the firmware's and the bench's: %d in %d pools, %d"
              " bytes (never freed; on the RP2040 the pools hold %d, and the next one would"
              " take 7.7 KB: host_sim/tools/memory.py)" % (count, pools, size, NAMES_LINE))
    if "PAIRED " in heap_out:
        agreed, count, outcome, note, done = eval(parse("PAIRED", heap_out))
        print("paired with board02 (pairing.Follower): %s, its record %d moves, %s%s" % (
            "agreed" if agreed else "NOT AGREED", count,
            "over at both boards" if done else "NOT OVER at both boards (outcome %d)" % outcome,
            ", stopped: " + note if note else ""))
        if "INBOX " in heap_out:
            got, nbytes, left, dropped = eval(parse("INBOX", heap_out))
            print("  board02's snapshots read by the client from the socket (through"
                  " gogadget.mqttsub's window): %d, %d bytes (%d not read); the Follower's"
                  " duplicates and gaps %d"
                  % (got, nbytes, left, dropped))
        print("  verdict: the game kept (%s) and no MemoryError: %s" % (
            ", ".join(saved) or "none", verdict(bool(saved) and agreed and not note)))
    print("  with the bench's part on the heap (as measured):")
    print(heap_verdict(low, wireless, boot, share))
    print("  without the bench's part (%d bytes added back: what the board alone would have):"
          % harness)
    print(heap_verdict(low + harness, wireless, boot, share))
