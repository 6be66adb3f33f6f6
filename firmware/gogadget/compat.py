# The one place that papers over CPython/MicroPython differences, so every
# other firmware module can be written once for both interpreters (and
# the one allocation helper that MicroPython's small heap asks for).
from array import array

try:
    from micropython import const  # noqa: F401  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


try:
    from time import ticks_ms, ticks_diff, ticks_add  # noqa: F401  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython
    import time as _time

    _PERIOD = 1 << 30

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)  # pyright: ignore[reportAttributeAccessIssue]  (CPython only)

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_PERIOD - 1)

    def ticks_diff(new, old):
        half = _PERIOD >> 1
        return ((new - old + half) & (_PERIOD - 1)) - half


def zeros(typecode, n):
    """A zeroed array of n items (n <= 65536), allocated once: the usual
    array(t, bytes(k)) holds a second buffer as big while it copies, and at
    boot, when the heap is fullest, that transient is what fails first."""
    a = array(typecode, range(n))  # range has a length: sized in one allocation
    for i in range(n):
        a[i] = 0
    return a


def forget(*names):
    """Let go of gogadget modules imported for a rare job (the game's end,
    a GTP command): on MicroPython a module's bytecode lives on the heap, and
    once neither sys.modules nor the package holds it, the next collection
    frees it (the next import loads it again from flash).  CPython keeps
    its modules: it has the memory, and host tools patch them.  Names are
    relative to the package: "sgf", "hw.calibrate"."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for name in names:
        full = "gogadget." + name
        sys.modules.pop(full, None)
        dot = full.rfind(".")
        pkg = sys.modules.get(full[:dot])
        attr = full[dot + 1:]
        if getattr(pkg, attr, None) is not None:
            delattr(pkg, attr)
