# The one place that papers over CPython/MicroPython differences, so every
# other firmware module can be written once for both interpreters.
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
