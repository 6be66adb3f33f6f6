"""Fake of MicroPython's `rp2` module, enough for the WS2812 PIO + DMA driver
(gogadget/hw/ws2812pio.py), for CPython and the MicroPython unix port.

asm_pio records the program it assembles and the decorator's settings;
StateMachine records its init; DMA checks its control word the way the
RP2040 lays it out and, on trigger, copies the items it reads (bytes,
halfwords or little-endian words, as its size says) into the state
machine's `sent` (the FIFO side of the PIO).  A
transfer then stays "active" for DMA.BUSY_POLLS calls of active() and the
FIFO holds words for StateMachine.FIFO_POLLS calls of tx_fifo(), so a test
sees whether a driver returns at once and whether it waits before the
next transfer.  Triggering while a transfer runs raises.  Nothing here
allocates per transfer once `sent` is big enough.
"""
from array import array


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2

    def __init__(self, id):
        self.id = id


class _Instr:
    def __init__(self, prog, op, args):
        self.rec = [op, args, None, 0]
        prog.append(self.rec)

    def side(self, value):
        self.rec[2] = value
        return self

    def __getitem__(self, delay):
        self.rec[3] = delay
        return self


class Program:
    def __init__(self, settings):
        self.settings = settings  # the asm_pio keyword arguments
        self.instructions = []  # [op, args, side, delay], labels and wraps included
        self.name = None


def asm_pio(**settings):
    def assemble(f):
        prog = Program(settings)
        prog.name = f.__name__

        def emit(op):
            return lambda *args: _Instr(prog.instructions, op, args)

        names = {"x": "x", "y": "y", "not_x": "not_x", "not_y": "not_y", "null": "null",
                 "pins": "pins", "osre": "osre", "isr": "isr", "osr": "osr"}
        for op in ("wrap_target", "wrap", "label", "out", "jmp", "nop", "set", "in_",
                   "pull", "push", "mov", "irq", "wait"):
            names[op] = emit(op)
        # Like the real assembler: run the body with the instructions as globals.
        glob = f.__globals__
        saved = dict(glob)
        glob.clear()
        glob.update(names)
        try:
            f()
        finally:
            glob.clear()
            glob.update(saved)
        return prog
    return assemble


machines = {}  # id -> StateMachine, the last one made for that id
channels = []  # every DMA claimed


def reset():
    machines.clear()
    del channels[:]


class StateMachine:
    FIFO_POLLS = 2  # tx_fifo() calls before the FIFO is empty after a transfer

    def __init__(self, id, program=None, **config):
        self.id = id
        self.program = program
        self.config = config
        self.running = False
        self.fifo = 0
        self.sent = array("I")  # words of the last transfer
        self.sent_count = 0
        self.transfers = 0
        self.feeder = None  # the DMA channel that last fed this FIFO
        machines[id] = self

    def active(self, value=None):
        if value is None:
            return self.running
        self.running = bool(value)

    def tx_fifo(self):
        # the FIFO drains only once DMA stopped filling it
        if self.fifo and not (self.feeder and self.feeder.polls):
            self.fifo -= 1
            return self.fifo + 1
        return self.fifo

    def tx_dreq(self):
        return (0 if self.id < 4 else 8) + (self.id & 3)


_BITS = (("enable", 0, 1), ("high_pri", 1, 1), ("size", 2, 2), ("inc_read", 4, 1),
         ("inc_write", 5, 1), ("ring_size", 6, 4), ("ring_sel", 10, 1), ("chain_to", 11, 4),
         ("treq_sel", 15, 6), ("irq_quiet", 21, 1), ("bswap", 22, 1), ("sniff_en", 23, 1))


def _item(read, i, width):
    """Item i of a transfer of width bytes, as the FIFO gets it.  A narrow
    write is repeated on every byte lane (RP2040 datasheet 2.1.4), so a
    state machine shifting left with autopull at 8 bits sends a byte as it
    is: kept here as the byte itself (its 32-bit repetition would be a long
    int on MicroPython, and the driver's writes run under heap_lock)."""
    j = i * width
    if width == 1:
        return read[j]
    if width == 2:
        return read[j] | read[j + 1] << 8
    return read[j] | read[j + 1] << 8 | read[j + 2] << 16 | read[j + 3] << 24


class DMA:
    BUSY_POLLS = 3  # active() calls a transfer stays active for

    def __init__(self):
        self.channel = len(channels)
        channels.append(self)
        self.polls = 0
        self.target = None
        self.read = self.write = self.count = self.ctrl = None
        self.active_calls = 0

    def pack_ctrl(self, **fields):
        values = {"enable": 1, "high_pri": 0, "size": 2, "inc_read": 1, "inc_write": 1,
                  "ring_size": 0, "ring_sel": 0, "chain_to": self.channel, "treq_sel": 0x3F,
                  "irq_quiet": 1, "bswap": 0, "sniff_en": 0}
        for k in fields:
            if k not in values:
                raise TypeError("unknown ctrl field " + k)
            values[k] = int(fields[k])
        ctrl = 0
        for name, shift, width in _BITS:
            ctrl |= (values[name] & ((1 << width) - 1)) << shift
        return ctrl

    @staticmethod
    def unpack_ctrl(ctrl):
        return {name: (ctrl >> shift) & ((1 << width) - 1) for name, shift, width in _BITS}

    def active(self, value=None):
        self.active_calls += 1
        if self.polls:
            self.polls -= 1
            if not self.polls:
                self._check_read()
            return True
        return False

    def _check_read(self):
        # The transfer has read its buffer to the end: what is there now
        # must be what it sent (a driver that renders into a buffer under a
        # running transfer sends a torn frame).
        read = self.read
        sent = self.target.sent
        width = 1 << ((self.ctrl >> 2) & 3)
        for i in range(self.count):
            if sent[i] != _item(read, i, width):
                raise RuntimeError("the buffer changed under a running transfer")

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        self.read = read  # the last config (separately: a tuple would allocate)
        self.write = write
        self.count = count
        self.ctrl = ctrl
        if not trigger:
            return
        if self.polls:
            raise RuntimeError("DMA triggered while its last transfer runs")
        if not isinstance(write, StateMachine):
            raise TypeError("this fake feeds a StateMachine")
        if write.fifo:
            raise RuntimeError("DMA triggered before the FIFO drained: no latch gap")
        # bit tests, not unpack_ctrl: its dict would allocate on every write
        if ctrl & 0x31 != 0x11 or ctrl & 0x0C == 0x0C:  # enable, inc_read, not inc_write
            raise ValueError("want read incrementing, write fixed: %r" % (DMA.unpack_ctrl(ctrl),))
        width = 1 << ((ctrl >> 2) & 3)
        if (ctrl >> 15) & 0x3F != write.tx_dreq():
            raise ValueError("treq_sel %d is not the TX DREQ of state machine %d"
                             % ((ctrl >> 15) & 0x3F, write.id))
        if count * width > len(read):
            raise ValueError("count %d items overruns a %d-byte buffer" % (count, len(read)))
        if len(write.sent) < count:
            write.sent = array("I", [0] * count)
        sent = write.sent
        for i in range(count):
            sent[i] = _item(read, i, width)
        write.sent_count = count
        write.transfers += 1
        self.target = write
        write.feeder = self
        self.polls = DMA.BUSY_POLLS
        write.fifo = StateMachine.FIFO_POLLS
