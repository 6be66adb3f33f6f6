"""Problems onto the board (issue 37): a folder of SGF problems checked with
the firmware's own reader (firmware/gogadget/tsumego.py) and put on the
board's flash as problems/, by `gogadget push` (mpremote, as `make deploy`
copies the firmware) or inside the image (`make image PROBLEMS=folder`,
host_sim/tools/uf2.py).  A folder with a file the board could not use is
refused whole, each bad file named: nothing half copied.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from gogadget import tsumego

FOLDER = "problems"  # on the board's flash, beside games/ (study.folder)
COMPOSED = Path(__file__).resolve().parents[1] / "problems"  # the project's own, for demos


class ProblemError(ValueError):
    pass


def problem_files(folder, size):
    """{name: bytes} of the folder's *.sgf, each read by the board's reader
    for a board of size; ProblemError naming every file it refuses."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ProblemError("%s: no such folder" % folder)
    out = {}
    bad = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() != ".sgf" or not path.is_file():
            continue
        if any(c in path.name for c in "/\\:\n") or len(path.name) > 64:
            bad.append("%s: a name the board's flash should not hold" % path.name)
            continue
        try:
            tsumego.read(str(path), size)
        except (ValueError, OSError) as exc:
            bad.append("%s: %s" % (path.name, exc))
            continue
        out[path.name] = path.read_bytes()
    if bad:
        raise ProblemError("%d of the problems in %s cannot be used on a %dx%d board "
                           "(nothing copied):\n  %s"
                           % (len(bad), folder, size, size, "\n  ".join(bad)))
    if not out:
        raise ProblemError("%s holds no .sgf problems" % folder)
    return out


def image_files(folder, size):
    """{path on the board: bytes} for `make image`."""
    return {FOLDER + "/" + name: data for name, data in problem_files(folder, size).items()}


def push_command(port, folder, names, mpremote="mpremote"):
    """One mpremote invocation: problems/ made if missing, each file copied
    (progress.txt, the board's own, is left alone)."""
    cmd = [mpremote, "connect", port, "exec",
           "import os\ntry:\n    os.mkdir(%r)\nexcept OSError:\n    pass\n" % FOLDER]
    for name in names:
        cmd += ["+", "fs", "cp", str(Path(folder) / name), ":%s/%s" % (FOLDER, name)]
    return cmd


def push(folder, size, port=None, dest=None, run=subprocess.run, stream=sys.stdout):
    """Check the folder, then copy it to the board on port (mpremote), or
    into dest (a simulator's problems folder).  Returns the names copied."""
    files = problem_files(folder, size)
    if dest is not None:
        os.makedirs(dest, exist_ok=True)
        for name, data in files.items():
            tmp = os.path.join(dest, name + ".part")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(dest, name))
        print("%d problems copied to %s" % (len(files), dest), file=stream)
        return sorted(files)
    from host_sim.tools import mpy
    if not mpy.board_present(port):
        raise ProblemError("no board found on %s: is the Pico plugged in?" % port)
    res = run(push_command(port, folder, sorted(files), mpy._tool("mpremote")))
    if res.returncode != 0:
        raise ProblemError("mpremote failed (exit %d): push again (a file copied whole "
                           "twice is the same file)" % res.returncode)
    print("%d problems copied to %s:/%s" % (len(files), port, FOLDER), file=stream)
    return sorted(files)


def sim_folder(store):
    """The simulator's problems/: beside its game folder, as on the board
    (firmware/gogadget/study.py, folder())."""
    return os.path.join(os.path.dirname(os.path.abspath(store).rstrip("/")), FOLDER)


def attach(sim):
    """A simulator's problems folder (config.problems, read by the
    firmware's study mode): beside a kept game folder (where push --sim
    puts them), inside a throw-away one; the first time, seeded with the
    composed problems, so study mode has something to show."""
    if getattr(sim.config, "problems", None):
        return
    store = sim.store_dir
    folder = os.path.join(store, FOLDER) if sim._own_store else sim_folder(store)
    sim.config.problems = folder
    if not os.path.exists(folder):
        try:
            shutil.copytree(COMPOSED, folder, ignore=shutil.ignore_patterns("progress*"))
        except OSError:
            pass  # study mode says the folder is empty


def add_push_parser(sub, add_board_options, default_port, store_of):
    """(cli.py's registration: its options, its port and its way to the
    simulator's game folder, passed in: nothing here imports the cli.)"""
    p = sub.add_parser("push", help="copy a folder of SGF problems to the board (study mode)",
                       description="Check every .sgf in FOLDER with the board's own problem "
                       "reader, then copy them to the board's problems/ folder with mpremote "
                       "(--sim: the simulator's, beside its game folder; --dest: any folder).  "
                       "One file the board could not use refuses the whole folder, each bad "
                       "file named.")
    p.add_argument("folder", help="the folder of .sgf problems")
    add_board_options(p, person=False)
    p.add_argument("--size", type=int, default=None,
                   help="the board's size (default 19; --sim: --sim-size)")
    p.add_argument("--dest", default=None, help="copy into this folder instead of a board")
    p.set_defaults(func=cmd_push, default_port=default_port, store_of=store_of)
    return p


def cmd_push(args):
    size = args.size or (args.sim_size if args.sim else 19)
    dest = args.dest
    if args.sim and dest is None:
        dest = sim_folder(args.store_of(args))
    try:
        push(args.folder, size, args.port or args.default_port, dest)
    except ProblemError as exc:
        print("gogadget push: %s" % exc, file=sys.stderr)
        return 2
    return 0
