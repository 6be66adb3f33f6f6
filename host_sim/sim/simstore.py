"""Which simulator holds which game folder: the folder's lock, and where a running one announces its port."""
import fcntl
import glob
import hashlib
import json
import os
import tempfile


def default_store():
    """The virtual board's flash: a folder that outlives the process, as a
    board's games outlive a power cut (--sim-store overrides it)."""
    from host_sim import data_dir
    return data_dir("sim-store")


class SimulatorBusy(RuntimeError):
    """A game folder in use by another simulator, or a running simulator
    another host command already drives: said, never shared by accident."""


STORE_LOCK = "sim.lock"  # in the game folder: held by the simulator using it
ANNOUNCE = "gogadget-sim-%d-" % os.getuid()  # + a hash of the folder + ".json"


def _runtime_dir():
    return os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()


def _held_lock(path, what):
    """An exclusive lock on path for this process (it goes with the
    process, however it ends), saying who holds it; None when another
    process holds it (then StoreBusy's text names that one)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            who = os.read(fd, 300).decode("utf-8", "replace").strip()
        finally:
            os.close(fd)
        return None, who
    os.ftruncate(fd, 0)
    os.write(fd, ("pid %d, %s" % (os.getpid(), what)).encode())
    return fd, ""


def release(fd):
    if fd is not None:
        try:
            os.close(fd)  # the lock goes with the descriptor
        except OSError:
            pass


def claim_store(store, what="a simulator"):
    """The game folder for this simulator alone (two writing one journal
    would lose games): returns the lock to release(); SimulatorBusy when
    another simulator uses it."""
    os.makedirs(store, exist_ok=True)
    fd, who = _held_lock(os.path.join(store, STORE_LOCK), what)
    if fd is None:
        raise SimulatorBusy(
            "the game folder %s is in use by another simulator (%s): use that one, quit it, "
            "or give this one a folder of its own (--sim-store DIR; make sim: "
            "SIM_ARGS=\"--store DIR\")" % (store, who or "another process"))
    return fd


def claim_running(sim, what):
    """A host command that drives a running simulator (publish, remote)
    takes it for itself: a second one finds it taken and is told, instead
    of both publishing one board."""
    fd, who = _held_lock(sim["file"][:-len(".json")] + ".driver", what)
    if fd is None:
        raise SimulatorBusy(
            "the simulator running on %s is already driven by %s: give this board a simulator "
            "of its own with --sim-store DIR" % (sim["store"], who or "another command"))
    return fd


def live_file(store):
    """Where the simulator on this game folder announces its port: one
    file per folder, so simulators on two folders never meet."""
    key = hashlib.sha1(os.path.realpath(store).encode()).hexdigest()[:12]
    return os.path.join(_runtime_dir(), ANNOUNCE + key + ".json")


def live_sims():
    """The simulators running on this machine for this user: [{port, pid,
    store, file}], the one on the default folder first."""
    found = []
    for path in glob.glob(os.path.join(glob.escape(_runtime_dir()), ANNOUNCE + "*.json")):
        try:
            with open(path) as f:
                info = json.load(f)
            os.kill(int(info["pid"]), 0)
        except (OSError, ValueError, KeyError, TypeError):
            continue
        port = info.get("port")
        if port and os.path.exists(port):
            found.append({"port": port, "pid": int(info["pid"]), "file": path,
                          "store": info.get("store", "")})
    default = os.path.realpath(default_store())
    found.sort(key=lambda s: (s["store"] != default, s["store"]))
    return found


def live_sim(store=None):
    """The running simulator a --sim command reaches, or None: the one on
    `store` when a folder is named (never another); else the only one
    running, or the one on the default folder; SimulatorBusy when several
    run and none is on the default folder."""
    sims = live_sims()
    if store is not None:
        real = os.path.realpath(store)
        return next((s for s in sims if s["store"] == real), None)
    if len(sims) <= 1 or sims[0]["store"] == os.path.realpath(default_store()):
        return sims[0] if sims else None
    raise SimulatorBusy("%d simulators are running (on %s): name one with --sim-store DIR"
                        % (len(sims), ", ".join(s["store"] for s in sims)))


def live_port(store=None):
    """The pty of the running simulator a --sim command reaches, or None."""
    sim = live_sim(store)
    return sim["port"] if sim else None
