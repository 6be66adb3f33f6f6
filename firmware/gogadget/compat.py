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
    import time

    # (Argument names are names on MicroPython too, though only CPython runs
    # these: ones the firmware has anyway.)
    _PERIOD = const(1 << 30)

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)  # pyright: ignore[reportAttributeAccessIssue]  (CPython only)

    def ticks_add(now, n):
        return (now + n) & (_PERIOD - 1)

    def ticks_diff(now, since):
        half = _PERIOD >> 1
        return ((now - since + half) & (_PERIOD - 1)) - half


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
    relative to the package: "sgf", "hw.calibrate"; several may be given
    in one string ("hw.pico hw.rp2fast": a string over 10 characters is
    not interned as a name)."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for name in " ".join(names).split():
        full = "gogadget." + name
        sys.modules.pop(full, None)
        dot = full.rfind(".")
        pkg = sys.modules.get(full[:dot])
        attr = full[dot + 1:]
        if getattr(pkg, attr, None) is not None:
            delattr(pkg, attr)
