"""Desktop side of Go Gadget: the simulator and the host tools (CPython only)."""
import os
import sys

try:
    import gogadget  # noqa: F401  (make venv installs it: pip install -e)
except ImportError:
    # Run from a clone with a plain python (python -m host_sim.room.broker):
    # the firmware's own folder, as the editable install maps it.
    sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                 "firmware"))


def data_dir(*parts):
    """Where the host tools keep what outlives a run, outside any clone (so
    git never takes a password or a game): $XDG_DATA_HOME/gogadget, by
    default ~/.local/share/gogadget."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "gogadget", *parts)
