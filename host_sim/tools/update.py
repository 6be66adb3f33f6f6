"""`gogadget update [--port P | --sim] [--image UF2] [--force]`: this
checkout's firmware (make mpy's build/), or a `make image` file's, onto a
running board over USB, keeping its games, the journal of a game under
way, the calibration, config.json and secrets.json (none of them is ever
written here).

First it looks at the board (PROBE, run on the board): is it a Go Gadget,
which firmware (gogadget/manifest.json; none: 0.1.0, before the formats
were versioned), which board (a Pico or a Pico W), and the format of each
file it holds.  A firmware that cannot read one of them (a downgrade over
a newer journal, say) is refused unless --force; an image for the other
board is refused always.

Then the switch, so that a cut cable or a power cut at any moment leaves
the old firmware running or the new one whole (STEPS; firmware/main.py
finishes or undoes it at the next start):

    clear    an earlier update's half-written gogadget.new/ removed
    package  the new gogadget/ written whole to gogadget.new/
    marker   gogadget.new/manifest.json, last: the new package is complete
    lib      switch.mpy and lib/'s files, each written beside and renamed over
    main     main.py (which knows the switch) written beside and renamed over
    switch   gogadget/ renamed gogadget.old/, gogadget.new/ renamed gogadget/
    clean    gogadget.old/ removed

and it reads the board's version back.  The board is a Flash: a folder
(--sim: the simulator's store folder, the virtual board's flash; the
tests' flash folders run by the MicroPython unix port) or a board on a
port through mpremote (after gogadget-maintenance has it restart with its
REPL free)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host_sim.tools import formats as fm
# A board's console (and the names tests and room boards take from here).
from host_sim.tools.console import ConsoleError, ask, back_after_reset, transport_for  # noqa: F401

STEPS = ("clear", "package", "marker", "lib", "main", "switch", "clean")
KEPT = ("config.json", "secrets.json")  # the board's own, never written by an update
NEW = "gogadget.new"
OLD = "gogadget.old"


class UpdateError(Exception):
    """Why the update was refused or failed; the board as it was (or whole)."""


# Run on the board (MicroPython) and on a folder (CPython): what the board
# holds, as one JSON line.  root is "" on a board, "FOLDER/" on a folder.
PROBE = r'''
import os, json
def probe(root):
    def read(p, n=-1):
        try:
            with open(root + p, "rb") as f:
                return f.read(n)
        except OSError:
            return None
    def isdir(p):
        try:
            return bool(os.stat(root + p)[0] & 0x4000)
        except OSError:
            return False
    out = {"main": read("main.py", 1) is not None, "package": isdir("gogadget"),
           "files": {}, "games": 0, "machine": ""}
    try:
        out["machine"] = os.uname().machine
    except AttributeError:
        pass
    m = read("gogadget/manifest.json")
    out["manifest"] = json.loads(m) if m else None
    store = "games"
    for name in ("config.json", "secrets.json"):
        t = read(name)
        if t is None:
            continue
        try:
            d = json.loads(t)
            f = d.get("format", 0)
            if name == "config.json":
                store = d.get("store", store)
        except (ValueError, AttributeError):
            f = "unreadable"
        out["files"][name] = f
    c = read("calib.bin", 4)
    if c:
        out["files"]["calib.bin"] = int(chr(c[3])) if c[:3] == b"GGC" and 48 <= c[3] <= 57 else "unreadable"
    for p in (store + "/journal.bin", "journal.bin"):  # (the simulator's store is its games folder)
        j = read(p, 8)
        if j:
            out["files"][p] = j[6] >> 4 if len(j) == 8 and j[0] == 0xA1 else "unreadable"
    try:
        out["games"] = len([n for n in os.listdir(root + store) if n.endswith(".sgf")])
    except OSError:
        pass
    out["store"] = store
    print("PROBE " + json.dumps(out))
'''

KIND = {"config.json": "config", "secrets.json": "secrets", "calib.bin": "calibration"}


def kind_of(name):
    return KIND.get(name, "journal" if name.endswith("journal.bin") else None)


# -- the boards ---------------------------------------------------------------

class DirFlash:
    """A board's flash as a folder: the simulator's store folder, or a test's."""

    def __init__(self, root):
        self.root = str(root)
        self.what = "the folder " + self.root

    def path(self, rel):
        return os.path.join(self.root, rel)

    def probe(self):
        ns = {}
        exec(PROBE, ns)  # the same code the board runs
        import contextlib
        import io
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            ns["probe"](self.root + "/")
        return json.loads(buf.getvalue().split("PROBE ", 1)[1])

    def put(self, rel, data):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def rename(self, a, b):
        os.replace(self.path(a), self.path(b))

    def exists(self, rel):
        return os.path.exists(self.path(rel))

    def rmtree(self, rel):
        p = self.path(rel)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)

    def finish(self):
        pass


class PortFlash:
    """A board on a serial port, through mpremote: each step one mpremote
    run (files copied in one chained run)."""

    def __init__(self, port, mpremote=None):
        from host_sim.tools import mpy
        self.port = port
        self.mpremote = mpremote or os.environ.get("MPREMOTE") or mpy._tool("mpremote")
        self.what = "the board on " + port
        self._puts = []

    def run(self, *args, timeout=120):
        res = subprocess.run([self.mpremote, "connect", self.port] + list(args),
                             capture_output=True, text=True, timeout=timeout)
        if res.returncode != 0:
            raise UpdateError("mpremote on %s failed (exit %d): %s" % (
                self.port, res.returncode, (res.stderr or res.stdout).strip()[-300:]))
        return res.stdout

    def exec(self, code):
        return self.run("exec", code)

    def probe(self):
        out = self.exec(PROBE + "\nprobe('')\n")
        if "PROBE " not in out:
            raise UpdateError("%s gave no answer to the probe: %s" % (self.what, out[-200:]))
        return json.loads(out.split("PROBE ", 1)[1].splitlines()[0])

    def put(self, rel, data):
        self._puts.append((rel, data))

    def flush(self):
        """The files put so far, in one mpremote run."""
        if not self._puts:
            return
        with tempfile.TemporaryDirectory() as tmp:
            dirs = sorted({os.path.dirname(r) for r, _d in self._puts if os.path.dirname(r)})
            mk = ("import os\nfor d in %r:\n    p = ''\n    for part in d.split('/'):\n"
                  "        p += part\n        try:\n            os.mkdir(p)\n"
                  "        except OSError:\n            pass\n        p += '/'\n" % dirs)
            args = ["exec", mk]
            for i, (rel, data) in enumerate(self._puts):
                local = os.path.join(tmp, "f%d" % i)
                with open(local, "wb") as f:
                    f.write(data)
                args += ["+", "fs", "cp", local, ":" + rel]
            self._puts = []
            self.run(*args, timeout=600)

    def rename(self, a, b):
        self.flush()
        self.exec("import os\nos.rename(%r, %r)" % (a, b))  # (littlefs renames over a file)

    def exists(self, rel):
        self.flush()
        out = self.exec("import os\ntry:\n    os.stat(%r)\n    print('YES')\n"
                        "except OSError:\n    print('NO')" % rel)
        return "YES" in out

    def rmtree(self, rel):
        self.flush()
        self.exec("import os\ndef rm(p):\n    try:\n        s = os.stat(p)[0]\n"
                  "    except OSError:\n        return\n    if s & 0x4000:\n"
                  "        for n in os.listdir(p):\n            rm(p + '/' + n)\n"
                  "        os.rmdir(p)\n    else:\n        os.remove(p)\nrm(%r)" % rel)

    def finish(self):
        self.flush()


# -- what goes on ---------------------------------------------------------------

def build_files(build=None, stream=None):
    """{path on the board: bytes} of this checkout's firmware (make mpy's
    build/, built now), with its manifest."""
    from host_sim.tools import mpy
    out = Path(build) if build else mpy.BUILD
    mpy.build(out=out, stream=stream or open(os.devnull, "w"))
    files = {rel: (out / rel).read_bytes() for rel in sorted(mpy.file_hashes(out))}
    from host_sim.tools import uf2
    files[fm.MANIFEST] = fm.manifest("any", uf2.commit_id())
    return files


def image_files(path):
    """{path: bytes} on a `make image` file's filesystem, and its board;
    UpdateError when it is not a Go Gadget image."""
    from littlefs import LittleFS, UserContext
    from host_sim.tools import uf2
    try:
        blocks = uf2.read_blocks(path)
        board = uf2.board_of(blocks)
    except (OSError, ValueError, KeyError, uf2.ImageError) as exc:
        raise UpdateError("%s is not a UF2 image: %s" % (path, exc))
    layout = uf2.LAYOUTS[board]
    size = layout.fs_blocks * uf2.FS_BLOCK
    buf = bytearray(b"\xff" * size)
    for addr, data in blocks:
        at = addr - layout.fs_start
        if 0 <= at < size:
            buf[at:at + len(data)] = data
    try:
        fs = LittleFS(context=UserContext(buffer=buf), block_size=uf2.FS_BLOCK,
                      block_count=layout.fs_blocks, mount=True)
        files = {}
        for top, _dirs, names in fs.walk("/"):
            for name in names:
                rel = (top.rstrip("/") + "/" + name).lstrip("/")
                with fs.open(rel, "rb") as f:
                    files[rel] = f.read()
    except Exception as exc:  # littlefs's errors: no filesystem there
        raise UpdateError("%s holds no filesystem: not a `make image` file (%s)" % (path, exc))
    if "main.py" not in files or fm.MANIFEST not in files:
        raise UpdateError("%s is not a Go Gadget image of this kind (no main.py and %s on its "
                          "filesystem): make one with `make image`" % (path, fm.MANIFEST))
    return files, board


def manifest_of(files):
    return json.loads(files[fm.MANIFEST])


def board_kind(state):
    """'pico', 'pico-w' or '' (not known: a folder without a manifest)."""
    machine = state.get("machine") or ""
    if "Pico W" in machine:
        return "pico-w"
    if "Pico" in machine:
        return "pico"
    m = state.get("manifest") or {}
    return m.get("board", "") if m.get("board") in ("pico", "pico-w") else ""


def check(state, new, image_board=None, force=False, virtual=False):
    """The reasons the update may not go on ([] when it may); UpdateError
    for what --force does not pass.  virtual: the simulator's store, whose
    board runs the checkout's firmware (its first update finds none)."""
    if not virtual and (not state["main"] or not state["package"]):
        raise UpdateError("not a Go Gadget: no main.py and gogadget/ on its flash (a first "
                          "flash is `make image`, dragged onto the board)")
    kind = board_kind(state)
    if image_board and kind and image_board != kind:
        names = {"pico": "Pico", "pico-w": "Pico W"}
        raise UpdateError("the image is for the %s, this board is a %s: make one for it "
                          "(make image BOARD=%s)" % (names[image_board], names[kind], kind))
    reads = new["formats"]
    problems = []
    for name, got in sorted(state["files"].items()):
        if got == "unreadable":
            continue  # kept as it is; the firmware says so at its start
        want = reads.get(kind_of(name))
        if want is not None and got > want:
            problems.append("%s is format %d, firmware %s reads up to %d" % (
                name, got, new["version"], want))
    if problems and not force:
        raise UpdateError("refused, a downgrade over files it cannot read: %s (that firmware "
                          "would set them aside, unread; --force to do it anyway)"
                          % "; ".join(problems))
    return problems


def describe(state):
    if not state["package"]:
        return "none on it"
    m = state.get("manifest")
    if m:
        return "%s (%s)" % (m["version"], m.get("commit", "?"))
    return "0.1.0 or older (no manifest)"


def update(flash, files, force=False, image_board=None, stream=None, cut=None,
           virtual=False):
    """Put files ({path: bytes}, with its manifest) onto flash.  cut(step):
    called before each step (tests stop there).  Returns the state read
    back."""
    stream = stream or sys.stdout
    files = {k: v for k, v in files.items() if k not in KEPT}
    new = manifest_of(files)
    state = flash.probe()
    for problem in check(state, new, image_board, force, virtual):
        print("forced: " + problem, file=stream)
    old = state.get("manifest") or {"version": "0.1.0", "formats": fm.FORMATS_BEFORE}
    print("%s: firmware %s -> %s; keeping %s and %d kept games" % (
        flash.what, describe(state), new["version"],
        ", ".join(sorted(state["files"])) or "no files", state["games"]), file=stream)
    if fm.version_key(new["version"]) < fm.version_key(old["version"]):
        print("note: %s is older than the board's %s" % (new["version"], old["version"]),
              file=stream)
    package = {k: v for k, v in files.items() if k.startswith("gogadget/")}
    rest = {k: v for k, v in files.items() if not k.startswith("gogadget/") and k != "main.py"}
    for step in STEPS:
        if cut is not None:
            cut(step)
        if step == "clear":
            flash.rmtree(NEW)
        elif step == "package":
            for rel in sorted(package):
                if rel != fm.MANIFEST:
                    flash.put(NEW + rel[len("gogadget"):], package[rel])
        elif step == "marker":
            flash.put(NEW + "/manifest.json", package[fm.MANIFEST])
            flash.finish()
        elif step == "lib":
            for rel in sorted(rest):
                flash.put(rel + ".new", rest[rel])
                flash.rename(rel + ".new", rel)
        elif step == "main":
            flash.put("main.py.new", files["main.py"])
            flash.rename("main.py.new", "main.py")
        elif step == "switch":
            if flash.exists(OLD):
                flash.rmtree(OLD)
            if flash.exists("gogadget"):
                flash.rename("gogadget", OLD)
            flash.rename(NEW, "gogadget")
        elif step == "clean":
            flash.rmtree(OLD)
    flash.finish()
    after = flash.probe()
    got = (after.get("manifest") or {}).get("version")
    if got != new["version"] or after["files"] != state["files"]:
        raise UpdateError("the board reads back %s (files %s), not %s: run gogadget update again"
                          % (got, after["files"], new["version"]))
    changed = sorted(k for k in package if k != fm.MANIFEST)
    print("done: %s now runs %s (%s), %d firmware files; kept %s" % (
        flash.what, new["version"], new.get("commit", "?"), len(changed) + 1 + len(rest),
        ", ".join(sorted(after["files"])) or "nothing else"), file=stream)
    return after


# -- the command ------------------------------------------------------------------

def add_arguments(p):
    p.add_argument("--image", default=None, help="a `make image` file to take the firmware "
                   "from (default: this checkout's, built as make mpy builds it)")
    p.add_argument("--force", action="store_true", help="go on even when the firmware cannot "
                   "read a file on the board (it sets it aside at its start)")
    p.add_argument("--mpremote", default=None, help="mpremote command (default: the venv's)")
    p.add_argument("--wait", type=int, default=180, metavar="S", help="--port: seconds to wait "
                   "for the board's answer after its reset (default %(default)s)")


def open_port(port, mpremote=None, stream=None, wait_s=180):
    """The board on port with its REPL free: a running Go Gadget is asked
    to restart for maintenance (gogadget-maintenance) first."""
    from host_sim.base.serialport import GtpError
    try:
        transport = transport_for(port)
    except ConsoleError as exc:
        raise UpdateError(str(exc))
    try:
        name = ask(transport, "name", 5)  # None: no GTP, the REPL is free already
        if name is not None:
            if "GoGadget" not in name.replace(" ", ""):
                raise UpdateError("%s answers GTP as %r: not a Go Gadget" % (port, name))
            try:
                ask(transport, "gogadget-maintenance", 10)
            except GtpError:
                raise UpdateError("the board's firmware cannot restart for an update: hold "
                                  "CONFIRM while plugging it in, then run gogadget update again")
            print("%s: restarting for the update" % port, file=stream or sys.stdout)
    finally:
        transport.close()
    flash = PortFlash(port, mpremote)
    if name is not None:
        # The board restarts half a second (of its own time) after its
        # answer: its REPL is free once mpremote gets in.
        deadline = time.monotonic() + wait_s
        while True:
            time.sleep(2)
            try:
                flash.exec("print('free')")
                break
            except (UpdateError, subprocess.TimeoutExpired):
                if time.monotonic() > deadline:
                    raise UpdateError("the board on %s did not come back with its REPL free "
                                      "in %d s: unplug it, hold CONFIRM while plugging it in, "
                                      "and run the command again" % (port, wait_s))
    return flash


def cmd_update(args, stream=None):
    try:
        if args.image:
            files, image_board = image_files(args.image)
        else:
            files, image_board = build_files(), None
        if args.sim:
            from host_sim.sim import session
            store = args.sim_store or session.default_store()
            if not os.path.isdir(store):
                raise UpdateError("no simulator store at %s" % store)
            lock = session.claim_store(store, "gogadget update")
            try:
                update(DirFlash(store), files, args.force, image_board, stream, virtual=True)
            finally:
                session.release(lock)
        else:
            from host_sim.base.serialport import DEFAULT_PORT
            port = args.port or DEFAULT_PORT
            flash = open_port(port, args.mpremote, stream)
            after = update(flash, files, args.force, image_board, stream)
            flash.run("reset")
            # The firmware written is the firmware that runs: asked once it is back.
            version = back_after_reset(port, args.wait)[0]
            want = (after.get("manifest") or {}).get("version", "?")
            if version is None:
                raise UpdateError("the files are written, but the board on %s did not answer "
                                  "in %d s after its reset: look at it (mpremote repl)"
                                  % (port, args.wait))
            if not version.startswith(want):
                raise UpdateError("the board on %s runs %s after its reset, not %s"
                                  % (port, version, want))
            print("%s: back, running %s" % (port, version), file=stream)
    except UpdateError as exc:
        print("gogadget update: %s" % exc, file=sys.stderr)
        return 1
    return 0
