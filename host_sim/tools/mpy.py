"""Build the firmware into .mpy files and copy them onto a Pico.

    python -m host_sim.tools.mpy build            # `make mpy`
    python -m host_sim.tools.mpy deploy --port P  # `make deploy PORT=P`
    python -m host_sim.tools.mpy romfs            # `make romfs`

build: every module under firmware/ is compiled with mpy-cross into build/,
mirroring firmware/; main.py stays a .py file because MicroPython runs only
/main.py (not main.mpy) at boot.
hw/viperscan.py, viperleds.py and vipergame.py (NATIVE) are compiled with
-march=armv6m: Thumb machine code for the RP2040, which only the rp2 port
imports.
build/lib/ holds the micropython-lib modules the firmware uses but this
repository does not contain (umqtt.simple, fetched by host_sim.tools.mqttlib):
each is compiled beside its source, and deploy sends the .mpy to the board's
/lib.

deploy: copies with mpremote only the files that changed since the last
deploy to that port.  build/.deployed-<port>.json remembers the sha256 of
each file last copied; without it (first deploy, another computer) every
file is sent with `fs cp`, which itself skips files whose hash on the board
already matches.  Files that disappeared from the build are removed from the
board.  The manifest is written only after mpremote succeeded, so a failed
or interrupted copy is simply retried next time.

romfs: the gogadget package as one ROMFS image (build/gogadget.romfs) for
firmware built with ROMFS (MICROPY_VFS_ROM).  Imported from /rom, bytecode
and string constants are read in place from flash instead of being copied
into RAM: about 27 KB less heap for the application (`make bench`).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
FIRMWARE = ROOT / "firmware"
BUILD = ROOT / "build"
KEEP_SOURCE = ("main.py",)  # run as source at boot
LIB = "lib"  # build/lib: micropython-lib modules, fetched (not in firmware/)
ON_BOARD = ("gogadget", "main.py", "switch.mpy", LIB)  # what of build/ goes onto the board
# Modules of machine code for one chip: compiled for it (mpy-cross -march),
# imported only there: the RP2040's viper loops (hw/rp2fast.MODULES).
NATIVE = {"gogadget/hw/viperscan.py": "armv6m", "gogadget/hw/viperleds.py": "armv6m",
          "gogadget/hw/vipergame.py": "armv6m"}


# -O3 leaves out the bytecode's line-number tables (and asserts): on the
# official firmware a module's bytecode is copied into the heap, and the
# tables were 7% of it (mpy-cross 1.29, -march=armv6m: 123,987 bytes of .mpy
# at -O0, the same at -O1 and -O2, 115,967 at -O3; under the unix port the
# app's modules took 5,376 bytes less heap once imported).  A traceback
# still names the file and the function, not the line.
OPTIMISE = "-O3"


def source_name(rel):
    """The name a module's .mpy gives its source (mpy-cross -s), as
    tracebacks show it: the module's dotted name ("gogadget.hw.leds"), the
    very string the import interns anyway.  A path such as
    "gogadget/hw/leds.py" was a qstr of its own per module: ~60 strings in
    RAM for the app, and with the room's modules the step into the next,
    7.7 KB qstr pool (measured on the emulated Pico, stock 1.29)."""
    parts = list(Path(rel).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def cross_args(rel):
    """mpy-cross's options for a module (a path relative to firmware/)."""
    arch = NATIVE.get(Path(rel).as_posix())
    return [OPTIMISE] + (["-march=" + arch] if arch else [])


def _tool(name):
    """The venv's copy of a tool if there is one, else whatever is on PATH."""
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return str(exe)
    found = shutil.which(name)
    if not found:
        raise SystemExit("%s is not installed (pip install %s)" % (name, name))
    return found


def sources(firmware=FIRMWARE):
    """Firmware files to ship, as paths relative to firmware/, sorted."""
    out = []
    for path in sorted(firmware.rglob("*.py")):
        rel = path.relative_to(firmware)
        if "__pycache__" in rel.parts:
            continue
        out.append(rel)
    return out


def target(rel):
    if len(rel.parts) == 1 and rel.name in KEEP_SOURCE:
        return rel
    return rel.with_suffix(".mpy")


def build(firmware=FIRMWARE, out=BUILD, mpy_cross=None, stream=sys.stdout):
    """Compile firmware/ into out/; returns [(relative target path, bytes)]."""
    mpy_cross = mpy_cross or _tool("mpy-cross")
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for rel in sources(firmware):
        src = firmware / rel
        dst = out / target(rel)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.suffix == ".py":
            shutil.copyfile(src, dst)
        else:
            # -s names the source as the board will see it in tracebacks.
            res = subprocess.run([mpy_cross, "-s", source_name(rel)] + cross_args(rel)
                                 + ["-o", str(dst), str(src)],
                                 capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, res.stderr.strip()))
        made.append((target(rel), dst.stat().st_size))
    # A module deleted from firmware/ must not linger in the build (or on the board).
    # Only what mirrors firmware/ is looked at: build/ also holds the corpus
    # and make image's files, which are not ours to delete.
    wanted = {out / rel for rel, _ in made}
    tops = {rel.parts[0] for rel, _ in made}
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in (".mpy", ".py") and path not in wanted \
                and path.relative_to(out).parts[0] in tops:
            path.unlink()
    total = 0
    for rel, size in made:
        total += size
        print("%7d  %s" % (size, rel.as_posix()), file=stream)
    print("%7d  total, %d files in %s" % (total, len(made), out), file=stream)
    return made


def build_lib(out=BUILD, mpy_cross=None, stream=sys.stdout):
    """Compile each out/lib/**.py beside itself (.mpy); returns the .mpy paths."""
    lib = out / LIB
    made = []
    if not lib.is_dir():
        return made
    mpy_cross = mpy_cross or _tool("mpy-cross")
    for src in sorted(lib.rglob("*.py")):
        rel = src.relative_to(out)
        dst = src.with_suffix(".mpy")
        res = subprocess.run([mpy_cross, "-s", source_name(rel.relative_to(LIB)), "-o", str(dst),
                              str(src)], capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, res.stderr.strip()))
        made.append(dst)
        print("%7d  %s" % (dst.stat().st_size, dst.relative_to(out).as_posix()), file=stream)
    return made


def file_hashes(out=BUILD):
    """{posix relative path: sha256 hex} of everything build() produced (in
    lib/, a module's .mpy rather than its source when both are there)."""
    hashes = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out)
        if rel.parts[0] not in ON_BOARD:
            continue  # build/ also holds the corpus and make image's files
        if path.is_file() and path.suffix in (".mpy", ".py") and not rel.name.startswith("."):
            if rel.parts[0] == LIB and path.suffix == ".py" and path.with_suffix(".mpy").exists():
                continue
            hashes[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def manifest_path(port, out=BUILD):
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", port).strip("_") or "port"
    return out / (".deployed-%s.json" % slug)


def load_manifest(port, out=BUILD):
    path = manifest_path(port, out)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def plan(current, deployed):
    """-> (files to copy, files to remove from the board), both sorted."""
    copy = sorted(p for p, h in current.items() if deployed.get(p) != h)
    remove = sorted(p for p in deployed if p not in current)
    return copy, remove


def _dirs(paths):
    dirs = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


# `fs mkdir` fails on a directory that exists, so the directories are made
# by a line of code on the board that ignores "exists".  The same code drops
# the stamp `make image` put on the board (STAMP): what a deploy leaves is
# a dev build, which describe() must not name as the image's commit.
STAMP = "gogadget/stamp.mpy"
MKDIR = ("import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n"
         "        pass\ntry:\n    os.remove(" + repr(STAMP) + ")\nexcept OSError:\n    pass\n")


def deploy_command(port, copy, remove, out=BUILD, mpremote="mpremote"):
    """One mpremote invocation (commands chained with +) for the whole copy."""
    cmd = [mpremote, "connect", port]
    chain = []
    if copy or remove:
        chain.append(["exec", MKDIR % (_dirs(copy),)])
    for rel in copy:
        chain.append(["fs", "cp", str(out / rel), ":" + rel])
    if remove:
        chain.append(["fs", "rm"] + [":" + rel for rel in remove])
    for i, part in enumerate(chain):
        if i:
            cmd.append("+")
        cmd += part
    return cmd if chain else None


def board_present(port):
    """Is there a serial device at port?  Only a device path can be looked
    at; mpremote's shortcuts (a0, u0) and URLs (socket://) are trusted."""
    return not port.startswith("/dev/") or os.path.exists(port)


def deploy(port, out=BUILD, mpremote=None, force=False, stream=sys.stdout, run=subprocess.run,
           present=None):
    """Copy the changed build files to the board on `port`; returns (copied, removed)."""
    current = file_hashes(out)
    if not current:
        raise SystemExit("nothing to deploy in %s: run `make mpy` first" % out)
    if not (present or board_present)(port):
        # mpremote would say "it may be in use by another program".
        raise SystemExit("no board found on %s: is the Pico plugged in (with a data cable)? "
                         "`.venv/bin/mpremote connect list` shows the ports it sees; "
                         "make deploy PORT=... picks one" % port)
    deployed = {} if force else load_manifest(port, out)
    copy, remove = plan(current, deployed)
    cmd = deploy_command(port, copy, remove, out, mpremote or _tool("mpremote"))
    if cmd is None:
        print("%s: up to date (%d files)" % (port, len(current)), file=stream)
        return [], []
    res = run(cmd)
    if res.returncode != 0:
        raise SystemExit("mpremote failed (exit %d); nothing recorded, run deploy again"
                         % res.returncode)
    manifest_path(port, out).write_text(json.dumps({"port": port, "files": current},
                                                   indent=1, sort_keys=True) + "\n")
    for rel in copy:
        print("copied   %s" % rel, file=stream)
    for rel in remove:
        print("removed  %s" % rel, file=stream)
    print("%s: %d copied, %d removed, %d unchanged; reset the board (mpremote reset) to run"
          % (port, len(copy), len(remove), len(current) - len(copy)), file=stream)
    return copy, remove


ROMFS_IMAGE = BUILD / "gogadget.romfs"


def romfs(firmware=FIRMWARE, dest=ROMFS_IMAGE, stream=sys.stdout):
    """Build the gogadget package into a ROMFS image with mpremote's
    builder (which runs mpy-cross); main.py stays on the board's own
    filesystem, since /main.py is what runs at boot.  Returns dest."""
    import contextlib
    import io
    import tempfile

    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory() as src:
        shutil.copytree(firmware / "gogadget", Path(src) / "gogadget",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for rel in NATIVE:  # the builder knows no -march: compiled here, shipped as .mpy
            py = Path(src) / rel
            res = subprocess.run([_tool("mpy-cross"), "-s", source_name(rel)] + cross_args(rel)
                                 + ["-o", str(py.with_suffix(".mpy")), str(py)],
                                 capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, res.stderr.strip()))
            py.unlink()
        with contextlib.redirect_stdout(io.StringIO()):  # it lists every file
            image = make_romfs(src, mpy_cross=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(image)
    print("%7d  %s" % (len(image), dest), file=stream)
    print("deploy: mpremote connect PORT romfs deploy %s + fs cp %s :main.py"
          % (dest, firmware / "main.py"), file=stream)
    return dest


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.tools.mpy", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="compile firmware/ into build/ with mpy-cross")
    b.add_argument("--out", type=Path, default=BUILD)
    d = sub.add_parser("deploy", help="copy changed build files to a board with mpremote")
    d.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0 or COM3")
    d.add_argument("--out", type=Path, default=BUILD)
    d.add_argument("--force", action="store_true", help="ignore what was deployed before")
    d.add_argument("--mpremote", default=os.environ.get("MPREMOTE"),
                   help="mpremote command (default: the venv's)")
    r = sub.add_parser("romfs", help="the gogadget package as a ROMFS image")
    r.add_argument("--out", type=Path, default=ROMFS_IMAGE)
    args = ap.parse_args(argv)
    if args.cmd == "build":
        build(out=args.out)
        build_lib(out=args.out)
    elif args.cmd == "romfs":
        romfs(dest=args.out)
    else:
        deploy(args.port, out=args.out, mpremote=args.mpremote, force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
