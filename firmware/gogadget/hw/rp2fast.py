"""RP2040 fast paths: the scan, classify and LED render loops as viper code.

Bytecode costs the RP2040 tens of microseconds per sensor (measured on the
emulated Pico: a 19x19 read_raw took 37 ms and classify 20 ms, `make bench
BENCH=rp2`), so a full scan with an LED write could not keep 50 per second.
These loops compiled to Thumb code do the same work in a few ms: the select
lines go straight to the SIO set/clear registers and each conversion is
started and read on the ADC's own registers (what machine.ADC.read_u16 does,
without a call per read).

Viper needs machine code for the chip it runs on, and `make mpy` is
architecture-free (its .mpy files run on the unix port and every board), so
the source is kept as text and compiled on the board by MicroPython's own
compiler the first time it is asked for (a few KB of heap, once).  Nowhere
but on the rp2 port is it loaded: there load() returns None and the drivers
keep their plain loops, which do exactly the same thing.
"""
import sys

# RP2040 registers (datasheet 2.3.1.7 SIO, 4.9.6 ADC).
SIO_OUT_SET = 0xD0000014
SIO_OUT_CLR = 0xD0000018
ADC_CS = 0x4004C000  # RESULT is the next word
ADC_CS_EN_START = 5  # EN | START_ONE; AINSEL << 12; READY is bit 8

_SRC = """
import micropython

@micropython.viper
def scan(steps: int, pin: ptr8, val: ptr8, chan: ptr8, place: ptr16, raw: ptr16,
         masks: ptr32, regs: ptr32, settle: int):
    # regs: SIO set, SIO clear, ADC CS addresses (ptr32 of a 3-word array)
    setr = ptr32(regs[0])
    clrr = ptr32(regs[1])
    adc = ptr32(regs[2])
    i = 0
    while i < steps:
        p = pin[i]
        if p != 255:
            if val[i]:
                setr[0] = masks[p]
            else:
                clrr[0] = masks[p]
        c = chan[i]
        if c != 255:
            cs = 5 | (c << 12)
            k = 0
            v = 0
            while k <= settle:
                adc[0] = cs
                while not (adc[0] & 0x100):
                    pass
                v = adc[1]
                k += 1
            raw[place[i]] = (v << 4) | (v >> 8)
        i += 1

@micropython.viper
def classify(n: int, raw: ptr16, fault: ptr8, lo: ptr16, hi: ptr16, loc: ptr8, hic: ptr8,
             scan: ptr8, rails: ptr16):
    rail_lo = rails[0]
    rail_hi = rails[1]
    fault_code = rails[2]
    empty = rails[3]
    i = 0
    while i < n:
        v = raw[i]
        if fault[i] or v < rail_lo or v > rail_hi:
            scan[i] = fault_code
        elif v >= hi[i]:
            scan[i] = hic[i]
        elif v <= lo[i]:
            scan[i] = loc[i]
        else:
            scan[i] = empty
        i += 1

@micropython.viper
def uses(frame: ptr8, phase: ptr8, n: int) -> int:
    u = 0
    i = 1
    while i < n:
        u |= phase[frame[i]]
        i += 1
    return u

@micropython.viper
def render(count: int, frame: ptr8, table: ptr8, base: int, led: ptr16, buf: ptr8) -> int:
    total = 0
    i = 1
    while i <= count:
        t = base + frame[i] * 3
        o = led[i]
        a = table[t]
        b = table[t + 1]
        c = table[t + 2]
        buf[o] = a
        buf[o + 1] = b
        buf[o + 2] = c
        total += a + b + c
        i += 1
    return total

@micropython.viper
def liberty(board, start: int, gen: int) -> int:
    # Board._flood: 1 at the chain's first liberty, else -(its size)
    cells = ptr8(board.cells)
    mark = ptr8(board._mark)
    stack = ptr16(board._stack)
    w = int(board.stride)
    colour = cells[start]
    mark[start] = gen
    stack[0] = start
    n = 1
    k = 0
    while k < n:
        p = stack[k]
        k += 1
        q = p - 1
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + 1
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p - w
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + w
        c = cells[q]
        if c == 0:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
    return 0 - n

@micropython.viper
def remove(board, n: int, top: int) -> int:
    # Board._remove: the filled chain off the board; returns the new hash
    cells = ptr8(board.cells)
    keys = ptr32(board._keys)
    stack = ptr16(board._stack)
    captured = ptr16(board._captured)
    h = int(board.hash)
    k = 0
    while k < n:
        p = stack[k]
        h ^= keys[2 * p + cells[p] - 1]
        cells[p] = 0
        captured[top + k] = p
        k += 1
    return h
"""

_loaded = []


def install():
    """On the rp2 port: the rules core's flood fill and capture as viper code
    too (board.use_fast).  Returns the functions (None elsewhere)."""
    fast = load()
    if fast is not None:
        from gogadget import board
        board.use_fast(fast["liberty"], fast["remove"])
    return fast


def load():
    """The compiled functions (a dict) on the rp2 port, else None."""
    if sys.platform != "rp2":
        return None
    if not _loaded:
        ns = {}
        exec(_SRC, ns)
        _loaded.append(ns)
    return _loaded[0]
