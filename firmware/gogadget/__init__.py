"""Go Gadget firmware logic: pin-free, runs on MicroPython and CPython."""

VERSION = "0.2.0"  # the project's one version (pyproject.toml reads it from here)


def describe():
    """The version with the build it came from: '0.1.0 (3f2a9c1d0b7e, pico
    image)' on a board flashed with `make image`'s file (its filesystem holds
    gogadget/stamp.mpy), '0.1.0 (dev)' on a .mpy deploy or the desktop,
    where there is no stamp."""
    try:
        from gogadget.stamp import COMMIT, IMAGE  # pyright: ignore[reportMissingImports]  (made by make image)
    except ImportError:
        return VERSION + " (dev)"
    return "%s (%s, %s image)" % (VERSION, COMMIT, IMAGE)
