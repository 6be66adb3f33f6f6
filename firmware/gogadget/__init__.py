"""Go Gadget firmware logic: pin-free, runs on MicroPython and CPython."""

VERSION = "0.1.0"  # the project's one version (pyproject.toml reads it from here)


def describe():
    """The version with the build it came from: '0.1.0 (3f2a9c1d0b7e, pico
    image)' on a UF2 (`make uf2` freezes gogadget/stamp.py into it), '0.1.0
    (dev)' on a .mpy deploy or the desktop, where there is no stamp."""
    try:
        from gogadget.stamp import COMMIT, IMAGE
    except ImportError:
        return VERSION + " (dev)"
    return "%s (%s, %s image)" % (VERSION, COMMIT, IMAGE)
