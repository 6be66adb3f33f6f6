"""The formats of the files a firmware keeps on the board, as this checkout's
firmware writes and reads them (each defined once, in the firmware module
that writes the file), and the manifest an update or an image puts beside
the firmware (gogadget/manifest.json): its version, the commit, the board it
was made for and these formats, so that `gogadget update` can tell, before
it writes anything, whether a firmware can read what a board holds.

A firmware from before the formats were versioned (0.1.0, no manifest)
reads FORMATS_BEFORE."""
import json
import re
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
# What the first firmware (0.1.0, no manifest) reads and writes.
FORMATS_BEFORE = {"journal": 0, "config": 0, "secrets": 0, "calibration": 1, "sgf": 4}
MANIFEST = "gogadget/manifest.json"


def formats():
    """{file kind: the format this checkout's firmware writes (and the
    newest it reads)}."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    from gogadget import configfile
    from gogadget import journal
    from gogadget.hw.calibfmt import MAGIC
    return {"journal": journal.FORMAT, "config": configfile.FORMAT,
            "secrets": configfile.FORMAT, "calibration": int(MAGIC[3:]), "sgf": 4}


def version():
    """The project's version: firmware/gogadget/__init__.py, its one place."""
    text = (FIRMWARE / "gogadget" / "__init__.py").read_text()
    return re.search(r'^VERSION = "([^"]+)"', text, re.M).group(1)


def manifest(board, commit):
    """gogadget/manifest.json's bytes for this checkout (commit:
    uf2.commit_id())."""
    return json.dumps({"version": version(), "commit": commit,
                       "board": board, "formats": formats()}, sort_keys=True).encode()


def version_key(text):
    """'0.2.0' -> (0, 2, 0) for comparing; an unknown one sorts first."""
    try:
        return tuple(int(p) for p in text.split("."))
    except (AttributeError, ValueError):
        return ()
