"""The UF2 a maker flashes: MicroPython with the firmware frozen in, per board.

    python -m host_sim.tools.uf2 build [--board pico|pico-w ...]   # `make uf2`
    python -m host_sim.tools.uf2 check                              # the tree's version only
    python -m host_sim.tools.uf2 modules pico-w                     # what an image has frozen

Writes build/uf2/gogadget-BOARD-VERSION.uf2 for each board and SHA256SUMS
beside them.  Each image is MicroPython MICROPYTHON_TAG for the rp2 port with
the board's own frozen modules, firmware/gogadget (hw/ included), main.py,
umqtt.simple (from the tree's micropython-lib) and gogadget/stamp.py (the
git commit, generated into the staging dir, never in the repository)
frozen into flash: bytecode run in place, not loaded into the RP2040's RAM.

The MicroPython tree is MICROPY_DIR when set (a clone at MICROPYTHON_TAG with
its submodules), else the source kit beside the project (../shared/micropython
relative to the project root), sha256-checked and extracted into build/.
Either way its version is checked first: the kit's MICROPYTHON_COMMIT file,
or git in a clone.  The cmake build dirs stay in build/uf2/, so a second
build after a firmware edit only refreezes and relinks.

LINKER_FIX (off by default; LINKER_FIX=1 to apply it): MicroPython's
upstream fix f452dabd41, "rp2: Run vm/gc/parse from SRAM by fixing linker
object suffix", which v1.28.0 lacks, applied to a copy of the port's linker
script in build/uf2/.  Why it is off, and what it would cost:
hardware/README.md, "The firmware image".

One fix the image cannot do without is made to the tree itself, once:
micropython-mpy-tool-armv6m-align4.patch beside this file (its text says
why: frozen viper code must start word aligned, or its first long jump goes
astray).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
BUILD = ROOT / "build"
OUT = BUILD / "uf2"
KIT = ROOT.parent / "shared" / "micropython"  # the source kit, for development and CI only

MICROPYTHON_TAG = "v1.28.0"
MICROPYTHON_COMMIT = "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"
KIT_TARBALL = "micropython-v1.28.0-rp2.tar.xz"
KIT_SHA256 = "b8c0e12cbc6650446dd21d56fad3ba242b04003728828433fc43e8b538f1f165"
KIT_TREE = "micropython-v1.28.0-rp2"  # what the tarball unpacks to
# The submodules the rp2 port builds with (the Pico W's last three).
SUBMODULES = ("lib/pico-sdk", "lib/tinyusb", "lib/micropython-lib", "lib/mbedtls",
              "lib/cyw43-driver", "lib/lwip", "lib/btstack")

# name in the file (and on the command line) -> MicroPython's board
BOARDS = {"pico": "RPI_PICO", "pico-w": "RPI_PICO_W"}

# f452dabd41 for the RP2040: the EXCLUDE_FILE patterns name ".obj" files,
# CMake writes ".c.o", so vm/gc/parse silently stayed in flash.
LINKER_SCRIPT = "ports/rp2/memmap_mp_rp2040.ld"
LINKER_BUG = "*gc.c.obj *vm.c.obj *parse.c.obj"
LINKER_FIXED = "*py/gc.c.o *py/vm.c.o *py/parse.c.o"
MPY_TOOL_PATCH = Path(__file__).resolve().parent / "micropython-mpy-tool-armv6m-align4.patch"
MPY_TOOL_FIXED = "MP_NATIVE_ARCH_ARMV6,\n            MP_NATIVE_ARCH_ARMV6M,"
UF2_FAMILY = "0xe48bff56"  # RP2040
FLASH_BASE = "0x10000000"


class BuildError(SystemExit):
    """A build that cannot go on, with what to do about it."""


def version():
    """The project's version: firmware/gogadget/__init__.py, its one place."""
    text = (FIRMWARE / "gogadget" / "__init__.py").read_text()
    return re.search(r'^VERSION = "([^"]+)"', text, re.M).group(1)


def image_path(board, out=OUT):
    return out / ("gogadget-%s-%s.uf2" % (board, version()))


def images(out=OUT):
    """{board: Path of its built UF2, or None}: where the bench and the tests
    find the images `make uf2` made for the current version."""
    found = {}
    for board in BOARDS:
        path = image_path(board, out)
        found[board] = path if path.is_file() else None
    return found


def unavailable(tree=None):
    """None when `make uf2` can run here, else why not (a skip reason)."""
    for tool in ("arm-none-eabi-gcc", "arm-none-eabi-objcopy", "cmake", "make", "cc"):
        if shutil.which(tool) is None:
            return ("%s is not installed (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi "
                    "libstdc++-arm-none-eabi-newlib cmake build-essential)" % tool)
    if tree is None and not os.environ.get("MICROPY_DIR") and not (KIT / KIT_TARBALL).is_file():
        return ("no MicroPython tree: set MICROPY_DIR to a clone at %s, or put the source "
                "kit in ../shared/micropython" % MICROPYTHON_TAG)
    return None


# -- the MicroPython tree ----------------------------------------------------

def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def extract_kit(kit=KIT, dest=BUILD, stream=sys.stdout):
    """The kit's tarball, sha256-checked, unpacked into dest once; returns the tree."""
    tree = dest / KIT_TREE
    done = tree / ".extracted"
    if done.is_file() and done.read_text().strip() == KIT_SHA256 \
            and (tree / "py" / "makeversionhdr.py").is_file():  # still whole
        return tree
    tarball = kit / KIT_TARBALL
    if not tarball.is_file():
        raise BuildError("no MicroPython tree: %s is missing; set MICROPY_DIR to a clone "
                         "(see README.md, 'Building the UF2')" % tarball)
    got = _sha256(tarball)
    if got != KIT_SHA256:
        raise BuildError("%s: sha256 %s, expected %s; refusing a tarball that is not the "
                         "pinned MicroPython %s" % (tarball, got, KIT_SHA256, MICROPYTHON_TAG))
    if tree.exists():
        shutil.rmtree(tree)
    print("extracting %s into %s" % (tarball.name, dest), file=stream)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        if any(not n.startswith(KIT_TREE) or ".." in n.split("/") for n in names):
            raise BuildError("%s: unexpected paths in the tarball" % tarball)
        tar.extractall(dest, filter="tar") if hasattr(tarfile, "data_filter") else tar.extractall(dest)
    done.write_text(KIT_SHA256 + "\n")
    return tree


def tree_version(tree):
    """(tag or None, commit or None) of a MicroPython tree: the kit's
    MICROPYTHON_COMMIT file, else git."""
    marker = tree / "MICROPYTHON_COMMIT"
    if marker.is_file():
        words = marker.read_text().split()
        return (words[0] if words else None), (words[1] if len(words) > 1 else None)

    def git(*args):
        res = subprocess.run(["git", "-C", str(tree)] + list(args), capture_output=True,
                             text=True)
        return res.stdout.strip() if res.returncode == 0 else None

    return git("describe", "--tags", "--exact-match"), git("rev-parse", "HEAD")


def check_tree(tree):
    """Refuse a tree that is not MicroPython MICROPYTHON_TAG (with its submodules)."""
    tree = Path(tree)
    if not (tree / "ports" / "rp2" / "CMakeLists.txt").is_file():
        raise BuildError("%s is not a MicroPython source tree (no ports/rp2/CMakeLists.txt)"
                         % tree)
    tag, commit = tree_version(tree)
    if commit != MICROPYTHON_COMMIT:
        raise BuildError(
            "%s is MicroPython %s (commit %s); this firmware is built and measured on %s "
            "(commit %s) only: git -C %s checkout %s && git -C %s submodule update --init %s"
            % (tree, tag or "of unknown version", commit or "unknown", MICROPYTHON_TAG,
               MICROPYTHON_COMMIT, tree, MICROPYTHON_TAG, tree, " ".join(SUBMODULES)))
    missing = [m for m in SUBMODULES[:3] if not any((tree / m).iterdir())] \
        if all((tree / m).is_dir() for m in SUBMODULES[:3]) else list(SUBMODULES[:3])
    if missing:
        raise BuildError("%s lacks the submodules %s: git -C %s submodule update --init %s"
                         % (tree, ", ".join(missing), tree, " ".join(SUBMODULES)))
    return tree


def micropython_tree(stream=sys.stdout):
    given = os.environ.get("MICROPY_DIR")
    tree = Path(given).resolve() if given else extract_kit(stream=stream)
    return check_tree(tree)


# -- staging: what is frozen -------------------------------------------------

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


def _write_if_changed(path, text):
    """Leaves an unchanged file alone (its mtime decides what make redoes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def stage(board, tree, out=OUT, commit=None):
    """build/uf2/BOARD/stage: the manifest and the generated stamp module;
    returns the manifest's path."""
    mboard = BOARDS[board]
    staging = out / board / "stage"
    commit = commit or commit_id()
    _write_if_changed(staging / "gogadget" / "stamp.py",
                      "# Generated by make uf2 (host_sim/tools/uf2.py): frozen into the image only.\n"
                      "COMMIT = %r\nIMAGE = %r\nMICROPYTHON = %r\n"
                      % (commit, board, MICROPYTHON_TAG))
    board_manifest = tree / "ports" / "rp2" / "boards" / mboard / "manifest.py"
    base = board_manifest if board_manifest.is_file() else \
        tree / "ports" / "rp2" / "boards" / "manifest.py"
    _write_if_changed(staging / "manifest.py",
                      "# Generated by make uf2 (host_sim/tools/uf2.py) for %s.\n"
                      "include(%r)  # the board's own frozen modules\n"
                      "include(%r)  # the project's\n"
                      "module('gogadget/stamp.py', base_path=%r)\n"
                      % (mboard, str(base), str(FIRMWARE / "manifest.py"), str(staging)))
    return staging / "manifest.py"


def linker_script(tree, out=OUT):
    """A copy of the port's RP2040 linker script with f452dabd41 applied."""
    text = (tree / LINKER_SCRIPT).read_text()
    if LINKER_FIXED not in text:
        if text.count(LINKER_BUG) != 1:
            raise BuildError("%s: the pattern f452dabd41 fixes is not there once; "
                             "is this MicroPython %s?" % (tree / LINKER_SCRIPT, MICROPYTHON_TAG))
        text = text.replace(LINKER_BUG, LINKER_FIXED)
    dest = out / "memmap_mp_rp2040-f452dabd41.ld"
    _write_if_changed(dest, text)
    return dest


def fix_mpy_tool(tree, stream=sys.stdout):
    """MPY_TOOL_PATCH applied to the tree's tools/mpy-tool.py, unless it is
    there already (a tree patched before, or a MicroPython that has it)."""
    tool = tree / "tools" / "mpy-tool.py"
    if MPY_TOOL_FIXED in tool.read_text():
        return
    _run(["patch", "-p1", "-N", "-d", tree, "-i", MPY_TOOL_PATCH], stream)
    if MPY_TOOL_FIXED not in tool.read_text():
        raise BuildError("%s: the alignment fix did not apply; is this MicroPython %s?"
                         % (tool, MICROPYTHON_TAG))


# -- building ----------------------------------------------------------------

def _run(cmd, stream, **kw):
    print("+ " + " ".join(str(c) for c in cmd), file=stream)
    stream.flush()
    # The kit's tree has no .git, so MicroPython's makeversionhdr.py would ask
    # git and get this project's commit for its banner: name the tree's own.
    env = dict(os.environ, MICROPY_GIT_TAG=MICROPYTHON_TAG,
               MICROPY_GIT_HASH=MICROPYTHON_COMMIT[:10])
    res = subprocess.run([str(c) for c in cmd], env=env, stdout=stream if stream is not sys.stdout
                         else None, stderr=subprocess.STDOUT if stream is not sys.stdout else None,
                         **kw)
    if res.returncode != 0:
        raise BuildError("failed (exit %d): %s" % (res.returncode, " ".join(str(c) for c in cmd)))


def cmake_dir(board, out=OUT):
    return out / board / "cmake"


def build_board(board, tree, linker_fix=False, jobs=2, out=OUT, stream=sys.stdout):
    """One board's image (incremental); returns its UF2's path."""
    manifest = stage(board, tree, out)
    build = cmake_dir(board, out)
    args = ["-DMICROPY_BOARD=" + BOARDS[board], "-DPICO_NO_PICOTOOL=1",
            "-DMICROPY_FROZEN_MANIFEST=" + str(manifest)]
    # Always named, so switching LINKER_FIX reconfigures and relinks only.
    script = linker_script(tree, out) if linker_fix else tree / LINKER_SCRIPT
    args.append("-DMICROPY_BOARD_LINKER_SCRIPT=" + str(script))
    configured = "\n".join([str(tree)] + args) + "\n"
    record = build / ".configured"
    before = record.read_text() if record.is_file() else ""
    if before != configured:
        if before.split("\n", 1)[0] != str(tree) and build.exists():
            shutil.rmtree(build)  # another tree: start clean
        _run(["cmake", "-S", tree / "ports" / "rp2", "-B", build] + args, stream)
        record.write_text(configured)
    _run(["make", "-C", build, "-j%d" % jobs], stream)
    elf = build / "firmware.elf"
    binary = build / "firmware.bin"
    _run(["arm-none-eabi-objcopy", "-O", "binary", elf, binary], stream)
    uf2 = image_path(board, out)
    _run([sys.executable, tree / "tools" / "uf2conv.py", "-c", "-b", FLASH_BASE, "-f",
          UF2_FAMILY, "-o", uf2, binary], stream)
    return uf2


def write_sums(out=OUT):
    """SHA256SUMS for the current version's images (sha256sum -c reads it)."""
    lines = ["%s  %s\n" % (_sha256(p), p.name) for p in images(out).values() if p]
    (out / "SHA256SUMS").write_text("".join(lines))
    return out / "SHA256SUMS"


def build(boards=tuple(BOARDS), linker_fix=False, jobs=2, out=OUT, stream=sys.stdout):
    """`make uf2`: returns {board: UF2 path}."""
    tree = micropython_tree(stream)  # the wrong MicroPython is refused before anything else
    why = unavailable(tree)
    if why:
        raise BuildError("make uf2: " + why)
    fix_mpy_tool(tree, stream)
    _run(["make", "-C", tree / "mpy-cross", "-j%d" % jobs], stream)
    made = {}
    for board in boards:
        start = time.time()
        made[board] = build_board(board, tree, linker_fix, jobs, out, stream)
        print("%s: %s, %d bytes, %.0f s" % (board, made[board], made[board].stat().st_size,
                                            time.time() - start), file=stream)
    # An older version's images are not what SHA256SUMS vouches for.
    for old in out.glob("gogadget-*.uf2"):
        if old not in made.values() and old not in images(out).values():
            old.unlink()
    print("%s written" % write_sums(out), file=stream)
    return made


def frozen_modules(board, out=OUT):
    """The module names frozen into a built image, from the build's
    frozen_content.c (e.g. 'gogadget/hw/net.py', 'main.py', 'umqtt/simple.py')."""
    content = cmake_dir(board, out) / "frozen_content.c"
    text = content.read_text()
    m = re.search(r"mp_frozen_names\[\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        raise ValueError("%s: no mp_frozen_names" % content)
    names = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
    return [n for n in names.replace("\\0", "\0").split("\0") if n]


# Over the raw REPL of a board booted with CONFIRM held (main.py then stops
# before its loop): the heap at boot, then main.main() building the App with
# its real drivers and running a few scan cycles, with a silent console.
# BOOT_FREE is the heap with what main.py imported before it stopped
# forgotten again: about what the image leaves before any of the app.
HEAP_CODE = """
import sys
sys.modules.clear()
g = globals()
for k in [k for k in g if k[:2] != "__" and k != "g"]:
    del g[k]
del g, k
import gc
gc.collect()
print("BOOT_FREE", gc.mem_free())
class Quiet:
    closed = False
    def readinto(self, buf):
        return 0
    def write(self, data):
        pass
import main
app = main.main(cycles=%d, stream=Quiet(), watchdog=False)
gc.collect()
print("APP_FREE", gc.mem_free(), app is not None)
"""


def heap(firmware, flash=None, board="pico", cycles=3):
    """(free heap at boot, free heap with the App built and cycles run) on
    the emulated RP2040 (rp2040py; the emulator's figures)."""
    import asyncio

    from host_sim import rp2
    from host_sim.rp2 import pins

    pico = rp2.Pico(flash, size=19, hold_confirm=True, firmware=firmware, board=board)

    async def run():
        await pico.start()
        if not await pico.run_until(lambda: "not starting" in pico.console(), 50, 10000):
            raise RuntimeError("no boot with CONFIRM held: %s" % pico.console()[-800:])
        pico.press(pins.BUTTON_CONFIRM, False)
        out, err = await pico.exec(HEAP_CODE % cycles, timeout=900)
        pico.stop()
        return out, err

    out, err = asyncio.run(run())
    words = dict((line.split()[0], line.split()[1:]) for line in out.splitlines()
                 if line.startswith(("BOOT_FREE", "APP_FREE")))
    if "APP_FREE" not in words or words["APP_FREE"][1] != "True":
        raise RuntimeError("the App did not come up: %s %s" % (out[-800:], err[-800:]))
    return int(words["BOOT_FREE"][0]), int(words["APP_FREE"][0])


def report_heap(stream=sys.stdout):
    """`python -m host_sim.tools.uf2 heap`: each built image, and the stock
    UF2 (../shared/rp2) with `make mpy`'s files on its flash."""
    import tempfile

    from host_sim import rp2
    print("free heap, emulated RP2040 (rp2040py); gc.mem_free() after gc.collect()", file=stream)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for board, path in images().items():
            if path is None:
                print("%-26s not built (make uf2)" % board, file=stream)
                continue
            # The Pico W's file system is smaller: its flash is left erased
            # and MicroPython formats it at boot, as on a new board.
            flash = None if board == "pico-w" else rp2.flash_image(Path(tmp) / "empty.img")
            boot, app = heap(path, flash, board="pico_w" if board == "pico-w" else "pico")
            rows.append((path.name, boot, app))
        stock = rp2.firmware_path()
        if stock is not None:
            built = rp2.build_mpy(Path(tmp) / "mpy")
            boot, app = heap(stock, rp2.flash_image(Path(tmp) / "mpy.img", built))
            rows.append((stock.name + " + .mpy", boot, app))
    for name, boot, app in rows:
        print("%-44s boot %7d   App built %7d" % (name, boot, app), file=stream)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.tools.uf2",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the UF2 images into build/uf2")
    b.add_argument("--board", action="append", choices=sorted(BOARDS),
                   help="only this board (repeatable; default: all)")
    b.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    b.add_argument("--linker-fix", action="store_true",
                   help="apply upstream's f452dabd41 (vm/gc/parse run from SRAM, 12 KB less heap)")
    sub.add_parser("check", help="check the MicroPython tree's version, build nothing")
    sub.add_parser("heap", help="free heap at boot and with the App built, per image "
                   "(emulated)")
    m = sub.add_parser("modules", help="list the modules frozen into a built image")
    m.add_argument("board", choices=sorted(BOARDS))
    args = ap.parse_args(argv)
    if args.cmd == "build":
        fix = args.linker_fix or os.environ.get("LINKER_FIX", "0") not in ("", "0")
        build(tuple(args.board or BOARDS), linker_fix=fix, jobs=args.jobs)
    elif args.cmd == "check":
        tree = micropython_tree()
        print("%s: MicroPython %s (%s)" % (tree, MICROPYTHON_TAG, MICROPYTHON_COMMIT))
    elif args.cmd == "heap":
        report_heap()
    else:
        print("\n".join(frozen_modules(args.board)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
