"""Running a game on the virtual board: the one module the window, the
terminal mode and the `gogadget` command line all use.

* play_game() relays a game between the board (over GTP, as on USB) and a
  GTP engine; the result is the board's own count, confirmed at the board.
* Wire is an in-process byte pipe pair: the board end is read without
  blocking by the firmware's Link in the scan loop (on the main thread,
  driven by the window or the terminal), the host end blocks in a
  controller thread that never touches the firmware objects.
* Match is that controller thread: against an engine (play_game) or
  relaying a GTP controller on stdin/stdout (`gogadget gtp --sim`), so a
  person at the window or terminal answers genmove.
* LivePort serves the running simulator on a pty too, named in a small file
  per user, so `gogadget watch --sim`, `pull --sim` and `gtp --sim` in another
  terminal reach the live virtual board.
* open_session() builds the simulator (and Match) the window and the
  terminal mode run; host_sim/faces/launch.py opens one or the other around it.
"""
import fcntl
import glob
import hashlib
import json
import os
import pty
import re
import shlex
import shutil
import tempfile
import threading
import time
import tty

from gogadget import sgf as sgf_mod
from host_sim.base import enginetime
from gogadget.gtp import _clean
from gogadget.points import BLACK, EMPTY, WHITE, place_point
from host_sim.base.serialport import (FdStream, GtpClient, GtpError, LinkClosed, engine,
                                 status_words)
from host_sim.sim.virtual import Simulator

ENGINE_WAIT_S = 60.0  # longest the terminal waits for the engine or the board
COUNT_POLL_S = 0.2  # how often the relay asks the board whether the count is confirmed
WORDS = {BLACK: "black", WHITE: "white"}


def colour_word(colour):
    return WORDS[colour]


def move_word(move):
    """One spelling in every log: "pass", "resign" or an upper-case vertex."""
    m = move.strip()
    return m.lower() if m.lower() in ("pass", "resign") else m.upper()


# -- where the simulator keeps its games and announces itself ---------------

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


# -- the relay ----------------------------------------------------------------

class GameOutcome(tuple):
    """(moves, result, engine_says): moves as (colour, vertex) relayed; result
    the board's own (its confirmed count, or a resignation); engine_says the
    engine's final_score when it differs from the board's, else ""."""

    def __new__(cls, moves, result, engine_says=""):
        return tuple.__new__(cls, (moves, result, engine_says))

    moves = property(lambda self: self[0])
    result = property(lambda self: self[1])
    engine_says = property(lambda self: self[2])


def _resume_engine(board, eng, size, log, status, where=""):
    """If the board holds an unfinished game of this size (resumed after a
    restart, as the board does after a power cut), bring the engine to it;
    returns (turn, passes, moves) to go on from, or None to start a new game."""
    if status.get("phase") not in ("play", "count", "resume") or status.get("size") != str(size):
        return None
    if int(status.get("moves", "0")) == 0:
        return None
    game = sgf_mod.parse(board.send("gogadget-sgf"))
    eng.send("boardsize %d" % size)
    eng.send("clear_board")
    eng.send("komi %s" % game.komi)
    from gogadget.points import vertex
    for colour, pt in game.setup:
        eng.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
    passes = 0
    for colour, pt in game.moves:
        eng.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
        passes = passes + 1 if pt == 0 else 0
    turn = BLACK if status.get("turn", "B")[:1].upper() == "B" else WHITE
    if log is not None:
        # Never silently: the record will start where that game started.
        log("resuming the game kept on the board at move %d (%s to play%s; --new starts "
            "a new game instead)" % (len(game.moves) + 1, WORDS[turn].capitalize(),
                                     ", kept in " + where if where else ""))
    return turn, passes, len(game.moves)


def _keep_unfinished(board, status, log):
    """A new game over an unfinished one (--new, another size): GTP's
    boardsize and clear_board drop it on the board, so the host keeps its
    record (nothing a person played is lost)."""
    if status.get("phase") not in ("play", "count", "resume") or status.get("moves", "0") == "0":
        return None
    from host_sim import data_dir
    folder = data_dir("unfinished")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, time.strftime("%Y%m%d-%H%M%S") + "-game%s.sgf"
                        % status.get("game", ""))
    with open(path, "w") as f:
        f.write(board.send("gogadget-sgf") + "\n")
    if log is not None:
        log("a new game; the unfinished one (%s moves) is saved as %s"
            % (status.get("moves"), path))
    return path


def wait_for_count(board, log=None, waiting=None):
    """After two passes: the person lifts the dead stones and presses
    Confirm at the board.  Returns the board's phase when that is done
    ("over"), "play" when a stone put down resumed the game, or "new" when
    New game was pressed instead."""
    if log is not None:
        log("two passes: lift the dead stones at the board, then press Confirm")
    if waiting is not None:
        waiting(True)
    try:
        while True:
            status = status_words(board.send("gogadget-status"))
            phase = status.get("phase")
            if phase in ("over", "play", "setup"):
                if phase != "over" and status.get("moves") == "0":
                    return "new"  # New game pressed while counting
                return phase
            time.sleep(COUNT_POLL_S)
    finally:
        if waiting is not None:
            waiting(False)


def board_clock(board):
    """The board's clock (gogadget-clock) as a dict, or None without one
    (or from a board too old to have one)."""
    try:
        words = board.send("gogadget-clock").split()
    except GtpError:
        return None
    if len(words) != 11:
        return None
    system, main, period, n, running, paused, flagged = words[:7]
    return {"system": system, "main": int(main), "period": int(period), "n": int(n),
            "running": running, "paused": paused == "1", "flagged": flagged,
            "B": (int(words[7]), int(words[8])), "W": (int(words[9]), int(words[10]))}


def tell_engine_time_settings(eng, clock):
    """The board's time control to the engine (enginetime.tell_settings):
    the command it took, or "" (it plays without)."""
    return enginetime.tell_settings(eng, clock)


def tell_engine_time_left(board, eng, colour, told=enginetime.KGS):
    """time_left for the engine's colour, from the board's clock, before
    its genmove: the engine plays on the board's clock
    (enginetime.time_left_line; told: what tell_engine_time_settings took)."""
    clock = board_clock(board)
    if clock is None:
        return
    try:
        eng.send(enginetime.time_left_line(clock, colour, told))
    except GtpError:
        pass


def play_game(board, eng, person, size, komi, handicap=0, max_moves=0, log=None,
              count=True, resume=True, waiting=None, where="", timing=None):
    """Relay a game between the board (the person plays `person`) and a GTP
    engine until two passes in a row or a resignation, then (count=True)
    wait for the count confirmed at the board.  Returns a GameOutcome.
    resume=False: a new game even when the board holds an unfinished one
    (the board keeps that one as a file); where: the board's store, named
    when its game is resumed; timing: --time's settings
    (enginetime.time_settings) for a new game (a resumed one keeps its
    clock)."""
    moves = []
    turn = BLACK
    passes = 0
    before = 0  # moves of a resumed game, so the log numbers the board's moves
    status = status_words(board.send("gogadget-status"))
    resumed = _resume_engine(board, eng, size, log, status, where) if resume else None
    if resumed is not None:
        turn, passes, before = resumed
    else:
        _keep_unfinished(board, status, log)
        # On the board, boardsize and clear_board each start a new game
        # (and say so): one of them, once.
        if status.get("size") == str(size):
            board.send("clear_board")
        else:
            board.send("boardsize %d" % size)
        eng.send("boardsize %d" % size)
        eng.send("clear_board")
        for client in (board, eng):
            client.send("komi %s" % komi)
        if handicap:
            stones = board.send("fixed_handicap %d" % handicap)
            eng.send("set_free_handicap " + stones)
            turn = WHITE
        if timing:
            enginetime.set_board(board, timing)
    if timing and resumed is not None and log is not None:
        log("the resumed game keeps its own clock (--new starts one on --time's)")
    clock = board_clock(board)
    timed = tell_engine_time_settings(eng, clock) if clock is not None else ""
    result = ""
    while True:
        if passes < 2:
            c = "b" if turn == BLACK else "w"
            if turn == person:
                try:
                    mv = board.send("genmove " + c)
                except GtpError as exc:
                    if "new game" not in str(exc):
                        raise
                    # New game pressed at the board: the board keeps the
                    # unfinished game as a file; this relay ends here.
                    if log is not None:
                        log("a new game was started at the board: this game stops here")
                    return GameOutcome(moves, "", "")
                if mv.lower() != "resign":
                    eng.send("play %s %s" % (c, mv))
            else:
                if timed:
                    tell_engine_time_left(board, eng, turn, timed)
                mv = eng.send("genmove " + c)
                if mv.lower() != "resign":
                    board.send("play %s %s" % (c, mv))
            mv = move_word(mv)
            moves.append((turn, mv))
            if log is not None:
                log("%d. %s %s" % (before + len(moves), colour_word(turn), mv))
            if mv == "resign":
                result = ("W" if turn == BLACK else "B") + "+R"
                break
            passes = passes + 1 if mv == "pass" else 0
            if max_moves and len(moves) >= max_moves and passes < 2:
                break
            turn = 3 - turn
            if passes < 2:
                continue
        if not count:
            break
        after = wait_for_count(board, log, waiting)
        if after == "over":
            break
        if after == "new":
            if log is not None:
                log("a new game was started at the board: this game stops here")
            return GameOutcome(moves, "", "")
        # A stone put down while counting resumed play: go on from the board.
        status = status_words(board.send("gogadget-status"))
        turn = BLACK if status.get("turn", "B")[:1].upper() == "B" else WHITE
        passes = 0
        if log is not None:
            log("play resumed on the board")
    engine_says = ""
    if passes >= 2:
        try:
            result = board.send("final_score") if count else ""
        except GtpError:
            result = ""
        try:
            theirs = eng.send("final_score")
        except GtpError:
            theirs = ""
        if theirs and theirs != result:
            engine_says = theirs
    return GameOutcome(moves, result, engine_says)


_HOW = {"R": "%s resigned", "T": "%s lost on time", "F": "%s forfeited"}


def result_words(result):
    """The board's result as a person reads it: "W+R (Black resigned)",
    "B+3.5 (the board's count)"."""
    winner, _, margin = result.partition("+")
    how = _HOW.get(margin[:1].upper())
    if how:
        return "%s (%s)" % (result, how % ("Black" if winner.upper() == "W" else "White"))
    return "%s (the board's count)" % result


def opinion_note(name, random_person=False):
    """Why an engine's final_score may differ from the board's count; with
    the scripted random person (--auto), why it differs much."""
    text = ("%s counts the stones it judges dead, the board only those lifted while "
            "counting" % name)
    if random_person:
        text += "; the scripted random person lifts none, so every stone counted alive"
    return "(" + text + ")"


def plural(n, word):
    """"1 game", "2 games": what a person reads."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def with_players(text, black, white):
    """The SGF with PB[]/PW[] (the board does not know who plays it)."""
    if "PB[" in text or "PW[" in text:
        return text
    i = text.find(";")
    j = text.find(";", i + 1)
    if j < 0:
        j = text.rfind(")")

    def value(name):
        return name.replace("\\", "\\\\").replace("]", "\\]")
    return text[:j] + "PB[%s]PW[%s]" % (value(black), value(white)) + text[j:]


def record_moves(text):
    """How many moves (passes included) an SGF record holds."""
    return len(re.findall(r";\s*[BW]\[", text))


def with_result(text, result):
    """The SGF with RE[result] when the board's record has none (a
    resignation the board was only told of over GTP)."""
    if not result or "RE[" in text:
        return text
    i = text.find(";")
    j = text.find(";", i + 1)
    if j < 0:
        j = text.rfind(")")
    return text[:j] + "RE[%s]" % result + text[j:]


PLAYER = "Go Gadget"  # the person's name in a record when none is given


def check_engine(command):
    """A clear error now rather than a dead thread later."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError("engine command: %s" % exc)
    if not argv:
        raise ValueError("engine command is empty")
    if shutil.which(argv[0]) is None:
        raise ValueError(engine_not_found(argv))
    return argv


GAMES_DIR = "/usr/games"  # where Debian installs GNU Go: not on a user's PATH by default


def engine_not_found(argv):
    """Say where the engine is (or how to get GNU Go), not only that it is not here."""
    name = argv[0]
    there = os.path.join(GAMES_DIR, os.path.basename(name))
    if "/" not in name and os.access(there, os.X_OK):
        return ("engine %r is not on PATH, but Debian has put it in %s: --engine %s"
                % (name, GAMES_DIR, shlex.quote(" ".join([there] + argv[1:]))))
    return ("engine %r not found; for GNU Go: apt-get install gnugo, then "
            "--engine '%s/gnugo --mode gtp' (Debian puts it in %s, which is not on "
            "PATH)" % (name, GAMES_DIR, GAMES_DIR))


# -- the in-process wire ------------------------------------------------------

class Wire:
    """Two byte queues between the board and the host, safe across threads."""

    def __init__(self):
        self._cond = threading.Condition()
        self._to_board = bytearray()
        self._to_host = bytearray()
        self.closed = False
        self.board = _BoardEnd(self)
        self.host = _HostEnd(self)

    def close(self):
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def pending(self):
        """True while the board has not yet read everything the host sent."""
        with self._cond:
            return bool(self._to_board)


class _BoardEnd:
    """Link's stream interface: readinto never blocks, write never fails."""

    def __init__(self, wire):
        self.wire = wire

    def readinto(self, buf):
        w = self.wire
        with w._cond:
            n = min(len(buf), len(w._to_board))
            if n:
                buf[:n] = w._to_board[:n]
                del w._to_board[:n]
            return n

    def write(self, data):
        w = self.wire
        with w._cond:
            w._to_host += data
            w._cond.notify_all()


class _HostEnd:
    """The transport a GtpClient needs: write and read_line(timeout)."""

    port = "the simulator"

    def __init__(self, wire):
        self.wire = wire

    def write(self, data):
        w = self.wire
        with w._cond:
            if w.closed:
                raise LinkClosed("simulator closed")
            w._to_board += data

    def read_line(self, timeout=None):
        w = self.wire
        deadline = None if timeout is None else time.monotonic() + timeout
        with w._cond:
            while True:
                i = w._to_host.find(b"\n")
                if i >= 0:
                    line = bytes(w._to_host[:i])
                    del w._to_host[:i + 1]
                    return line
                if w.closed:
                    raise LinkClosed("simulator closed")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                w._cond.wait(left)

    def close(self):
        self.wire.close()


# -- the simulator with a live port --------------------------------------------

def _mirror_link_class():
    from gogadget.link import Link

    class MirrorLink(Link):
        """A second GTP link on the same board: it reads the referee's events
        from the simulator's tap instead of taking them from the first link."""

        def __init__(self, sim, stream):
            self._sim = sim
            self._seen = len(sim.events)
            Link.__init__(self, sim.app, stream, store=sim.store_dir)

        def _drain_events(self):
            events = self._sim.events
            for _, kind, text in events[self._seen:]:
                self._note((kind, text))
            self._seen = len(events)

    return MirrorLink


class LivePort:
    """The running simulator served on a pty, announced in live_file()."""

    def __init__(self, sim):
        master, slave = pty.openpty()
        tty.setraw(slave)
        self._fds = [master, slave]
        self.port = os.ttyname(slave)
        self.link = _mirror_link_class()(sim, FdStream(master))
        self.file = self._file = live_file(sim.store_dir)
        tmp = self._file + ".%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump({"port": self.port, "pid": os.getpid(),
                       "store": os.path.realpath(sim.store_dir)}, f)
        os.replace(tmp, self._file)

    def poll(self, now_ms):
        try:
            self.link.poll(now_ms)
        except OSError:
            pass  # a watcher went away mid-answer: the board plays on

    def close(self):
        try:
            with open(self._file) as f:
                if json.load(f).get("pid") == os.getpid():
                    os.unlink(self._file)
        except (OSError, ValueError):
            pass
        for fd in self._fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = []


KEPT = re.compile(r"\b(kept as )(\d{4}\.sgf)")
RESUMED = re.compile(r"^(resumed \d+ moves? of a \S+ game)")


class BoardSim(Simulator):
    """The Simulator plus what a session needs: its game folder its own
    (claim_store), the stones of a resumed game put back (they never left
    the physical board), a live port, and a kept game named by its full
    path (the board says only NNNN.sgf: on a computer the folder matters)."""

    def __init__(self, config=None, noise=0.0, seed=None, store_dir=None, stream=None, live=True,
                 what="a simulator"):
        self._lock = claim_store(store_dir, what) if store_dir else None
        try:
            Simulator.__init__(self, config, noise=noise, seed=seed, store_dir=store_dir,
                               stream=stream)
        except BaseException:
            release(self._lock)
            raise
        self.live = None
        if live:
            try:
                self.live = LivePort(self)
            except OSError:
                self.live = None
        self.fit()
        restore_stones(self)

    def fit(self):
        """The firmware plays another size than the virtual board has (a
        kept game of another size resumed, or a host's boardsize): the
        simulator swaps in an empty board of that size, as a person would."""
        size = self.app.referee.size
        if size == self.stones.size:
            return False
        self.config.size = size
        self.stones.__init__(size)
        self.sensors._clean = bytearray(size * size)
        self.sensors._seen_changes = -1
        return True

    def step(self):
        self.fit()
        Simulator.step(self)
        self.fit()
        if self.live is not None:
            self.live.poll(self.clock.now_ms)

    def _tap_events(self):
        Simulator._tap_events(self)
        take = self.app.referee.poll_event
        folder = self.store_dir

        def poll_event():
            ev = take()
            if ev is not None and (KEPT.search(ev[1]) or RESUMED.search(ev[1])):
                text = KEPT.sub(lambda m: m.group(1) + os.path.join(folder, m.group(2)), ev[1])
                ev = (ev[0], RESUMED.sub(lambda m: m.group(1) + " kept in " + folder, text))
                self.events[-1] = self.events[-1][:2] + (ev[1],)
            return ev

        self.app.referee.poll_event = poll_event

    def start_over(self, size=None):
        """A new game (of `size`) instead of the one kept (--new, another
        size asked): New and Confirm pressed and the stones swept off, as a
        person does; the board keeps an unfinished game as NNNN.sgf first."""
        self.press("new")
        self.until_quiet()
        ref = self.referee
        if ref.phase != "setup" and ref.board.moves:
            self.press("confirm")  # "new game? press Confirm (this game is kept)"
            self.until_quiet()
        if size and ref.size != size:
            # New keeps the size; another is the host's to ask (GTP boardsize does the same).
            cfg = self.config
            ref.new_game(size=size, komi=cfg.komi, handicap=cfg.handicap, preset=cfg.preset)
        for pl in range(len(self.stones.cells)):
            if self.stones.cells[pl] != EMPTY:
                self.stones.lift(pl)
        self.until_quiet()
        self.fit()

    def close(self):
        if self.live is not None:
            self.live.close()
            self.live = None
        Simulator.close(self)
        release(self._lock)
        self._lock = None


def restore_stones(sim):
    """After a restart the board asks for the stones of the kept game back;
    on a real board they never moved, so put them where the lights ask."""
    sim.step()
    ref = sim.referee
    if ref.phase != "resume":
        return
    size = sim.size
    for pl in range(size * size):
        colour = ref.board.cells[place_point(size, pl)]
        if colour in (BLACK, WHITE) and sim.stones.cells[pl] == EMPTY:
            sim.stones.put(pl, colour)
    sim.until_quiet()


# -- the controller thread ---------------------------------------------------------

class _Watched:
    """A GtpClient that tells the match what the controller is waiting for."""

    def __init__(self, client, match, role):
        self.client = client
        self.match = match
        self.role = role

    def send(self, command, timeout=None):
        words = command.split()
        self.match._waiting_on(self.role, words[0] if words else "", command)
        try:
            answer = self.client.send(command, timeout)
        finally:
            self.match._waiting_on(None, "", "")
        if self.role == "engine" and words and words[0] == "genmove":
            self.match.last_engine = (words[1], answer)
        return answer


class Match:
    """Relays one game between an engine and the simulator's board.

    sim must have been built with stream=wire.board.  The controller
    starts with start(); status() and busy() are for the main thread."""

    def __init__(self, sim, wire, command, colour=BLACK, komi=None, handicap=0, max_moves=0,
                 out=None, size=None, new=False, player=None, where=""):
        check_engine(command)
        self.sim = sim
        self.wire = wire
        self.command = command
        self.colour = colour
        self.size = size or sim.size  # the size asked for (a kept game may be another)
        self.komi = sim.referee.komi if komi is None else komi
        self.handicap = handicap
        self.max_moves = max_moves
        self.out = out
        self.new = new  # a new game even when the board holds an unfinished one
        self.player = player or PLAYER
        self.where = where
        self.name = command.split()[0].rsplit("/", 1)[-1]
        self.log = []  # lines for the person: relayed moves, result, errors
        self.history = None  # the engine's own move list at the end, [(colour, vertex)]
        self.result = ""
        self.engine_says = ""
        self.error = None
        self.done = False
        self.counting = False  # waiting for the person to confirm the count
        self.last_engine = None  # ("b"/"w", vertex) of the engine's last genmove
        self._role = "setup"
        self._word = ""
        self._thread = None
        self._engine = None
        self._saved = None

    def start(self):
        self._thread = threading.Thread(target=self._run, name="gogadget-match", daemon=True)
        self._thread.start()
        return self

    def _waiting_on(self, role, word, command):
        self._role = role
        self._word = word

    def _say(self, text):
        self.log.append(text)

    def _counting(self, flag):
        self.counting = flag

    def _run(self):
        try:
            self._engine = engine(self.command)
            eng = _Watched(self._engine, self, "engine")
            board = _Watched(GtpClient(self.wire.host), self, "board")
            try:
                self.name = eng.send("name") or self.name
            except GtpError:
                pass
            self._say("%s plays %s" % (self.name, WORDS[3 - self.colour]))
            outcome = play_game(board, eng, self.colour, self.size, self.komi, self.handicap,
                                self.max_moves, self._say, waiting=self._counting,
                                resume=not self.new, where=self.where)
            self.result, self.engine_says = outcome.result, outcome.engine_says
            self.history = self._engine_history()
            if self.result:
                self._say("result %s after %s"
                          % (result_words(self.result), plural(len(outcome.moves), "move")))
            else:
                self._say("stopped after %s" % plural(len(outcome.moves), "move"))
            if self.engine_says:
                self._say("%s's opinion: %s %s" % (self.name, self.engine_says,
                                                   opinion_note(self.name)))
            if self.history is not None:
                self._say("engine history: " + " ".join(
                    "%s %s" % (c, v) for c, v in self.history))
        except (GtpError, LinkClosed, OSError, TimeoutError, ValueError) as exc:
            if not self.wire.closed:
                self.error = str(exc)
                self._say("error: %s" % exc)
        finally:
            self.done = True
            self._role = None

    def _engine_history(self):
        """The engine's own record (GNU Go's move_history, newest first),
        so a game can be checked against the engine and not only the relay."""
        try:
            text = self._engine.send("move_history")
        except GtpError:
            return None
        out = []
        for line in text.splitlines():
            words = line.split()
            if len(words) == 2:
                out.append(("B" if words[0].lower().startswith("b") else "W", move_word(words[1])))
        out.reverse()
        return out

    # -- the main thread ---------------------------------------------------

    def busy(self):
        """True while the game is moving without the person: the engine is
        thinking or the board has a command or answer in flight."""
        if self.done:
            return False
        if self.wire.pending():
            return True
        if self.counting:
            # Waiting for the person's Confirm; once the board has moved on
            # the relay is catching up.
            return self.sim.referee.phase not in ("count",)
        link = self.sim.link
        # A genmove the link holds is the person's turn; one it has already
        # answered (or not yet read) is still on its way.
        return not (self._role == "board" and self._word == "genmove" and link.waiting)

    def wait(self, step, timeout=ENGINE_WAIT_S):
        """Run step() until the match waits for the person (or ends)."""
        end = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > end:
                raise TimeoutError("%s did not answer in %.0f s" % (self.name, timeout))
            step()
            time.sleep(0.001)  # let the controller thread and the engine run

    def status(self):
        """Whose turn it is, in words for the person."""
        if self.error:
            return "%s: %s" % (self.name, self.error)
        ref = self.sim.referee
        you = WORDS[self.colour]
        them = WORDS[3 - self.colour]
        waiting = ""
        if self.last_engine is not None and ref.outstanding() and ref.phase == "play":
            c, v = self.last_engine
            if v.lower() != "pass":
                waiting = "%s's %s %s is waiting to be placed (lit)" % (self.name, them, v.upper())
        if self.done:
            if self.result:
                text = "game over: %s by the board's count" % self.result
                if self.result.endswith("+R"):
                    text = "game over: %s" % self.result
                if self.engine_says:
                    text += " (%s's opinion: %s)" % (self.name, self.engine_says)
            else:
                text = "game stopped"
            return text + ("; " + waiting if waiting else "")
        if self.counting or ref.phase == "count":
            return "two passes: lift dead stones, then press Confirm"
        if self._role == "engine" and self._word == "genmove":
            return "%s to play: %s is thinking..." % (them.capitalize(), self.name)
        if waiting:
            return "%s to play (you): %s" % (you.capitalize(), waiting)
        if self._role == "board" and self._word == "genmove" and self.sim.link.waiting:
            if ref.outstanding():  # handicap stones, or a stone knocked off
                return "%s to play (you): first set the lit stones" % you.capitalize()
            return "%s to play (you): put a stone down or press Pass" % you.capitalize()
        if self._role == "setup":
            return "starting %s..." % self.name
        return "relaying to %s..." % self.name

    def record(self):
        """The firmware's record, with the result of a resignation and the
        players' names added."""
        names = (self.player, self.name) if self.colour == BLACK else (self.name, self.player)
        return with_players(with_result(self.sim.referee.sgf(), self.result), *names)

    def save(self):
        """Write the firmware's record to --out (again, if it changed)."""
        if not self.out:
            return False
        text = self.record()
        if text == self._saved:
            return False
        with open(self.out, "w") as f:
            f.write(text)
        self._saved = text
        return True

    def close(self):
        self.wire.close()  # a controller waiting on the board gets LinkClosed
        if self._thread is not None:
            self._thread.join(1)
            if self._thread.is_alive() and self._engine is not None:
                self._engine.transport.proc.kill()  # it was waiting on the engine
            self._thread.join(5)
        if self._engine is not None:
            self._engine.close()


class GtpRelay(Match):
    """`gogadget gtp --sim`: a GTP controller on stdin/stdout drives the board
    while a person at the window or terminal makes its moves (genmove is
    answered by the person's stone or button)."""

    ends_session = True  # the controller quits: the window or terminal closes

    def __init__(self, sim, wire, stdin, stdout):
        self.sim = sim
        self.wire = wire
        self.stdin = stdin
        self.stdout = stdout
        self.name = "the controller"
        self.log = []
        self.result = ""
        self.engine_says = ""
        self.error = None
        self.done = False
        self.counting = False
        self.out = None
        self.last_engine = None
        self.last_play = None  # the controller's last play, ("b"/"w", vertex)
        self._role = "controller"
        self._word = ""
        self._thread = None
        self._engine = None
        self._saved = None

    def _run(self):
        host = self.wire.host
        try:
            while True:
                self._role = "controller"
                line = self.stdin.readline()
                if not line:
                    break
                if isinstance(line, str):
                    line = line.encode()
                text = _clean(line.decode("utf-8", "replace"))
                if not text:
                    continue  # blank and comment lines get no response
                words = text.split()
                if words[0].isdigit():
                    words.pop(0)
                self._role, self._word = "board", (words[0] if words else "")
                host.write(line.rstrip(b"\r\n") + b"\n")
                lines = []
                while True:
                    got = host.read_line(None).decode("utf-8", "replace").replace("\r", "")
                    if not lines and not got.strip():
                        continue
                    if not got.strip():
                        break
                    lines.append(got)
                answer = "\n".join(lines)
                self._log(words, answer)
                self.stdout.write(answer + "\n\n")
                self.stdout.flush()
                if words and words[0] == "quit":
                    break
        except (LinkClosed, OSError, ValueError) as exc:
            if not self.wire.closed:
                self.error = str(exc)
                self._say("error: %s" % exc)
        finally:
            self.done = True
            self._role = None

    def _log(self, words, answer):
        if not words or not answer.startswith("="):
            return
        body = answer[1:].lstrip("0123456789").strip()
        if words[0] == "play" and len(words) == 3:
            self.last_play = (words[1].lower()[:1], move_word(words[2]))
            self._say("%s %s (from the controller)" % (
                "black" if self.last_play[0] == "b" else "white", self.last_play[1]))
        elif words[0] == "genmove" and len(words) == 2:
            self._say("%s %s (you)" % ("black" if words[1].lower()[:1] == "b" else "white",
                                        move_word(body)))

    def busy(self):
        if self.done:
            return False
        if self.wire.pending():
            return True
        if self._role == "controller":
            return False  # waiting for the controller's next command
        link = self.sim.link
        return not (self._word == "genmove" and link.waiting)

    def status(self):
        if self.error:
            return "controller: %s" % self.error
        ref = self.sim.referee
        if self.done:
            return "the controller has gone"
        if self._role == "board" and self._word == "genmove" and self.sim.link.waiting:
            you = WORDS[self.sim.link.waiting]
            if ref.outstanding():
                return "%s to play (you): first set the lit stones" % you.capitalize()
            return "%s to play (you): put a stone down or press Pass" % you.capitalize()
        if ref.outstanding() and self.last_play is not None and ref.phase == "play":
            c, v = self.last_play
            if v != "pass":
                return "the controller's %s %s is waiting to be placed (lit)" % (
                    "black" if c == "b" else "white", v)
        return "waiting for the controller (GTP on stdin)"

    def close(self):
        self.wire.close()
        if self._thread is not None:
            self._thread.join(0.5)


def start(config, command, colour=BLACK, komi=None, handicap=0, max_moves=0, out=None,
          noise=0.0, seed=None, store_dir=None, live=True, new=False, player=None,
          what="a simulator"):
    """A simulator served on a Wire and a Match relaying it to the engine."""
    wire = Wire()
    size = config.size
    sim = BoardSim(config, noise=noise, seed=seed, stream=wire.board, store_dir=store_dir,
                   live=live, what=what)
    try:
        match = Match(sim, wire, command, colour, komi, handicap, max_moves, out, size=size,
                      new=new, player=player, where=store_dir or "")
    except ValueError:
        sim.close()
        raise
    return sim, match.start()


def start_gtp(config, stdin, stdout, noise=0.0, seed=None, store_dir=None, live=False,
              what="a simulator"):
    """A simulator served on a Wire and a GtpRelay from stdin/stdout to it."""
    wire = Wire()
    sim = BoardSim(config, noise=noise, seed=seed, stream=wire.board, store_dir=store_dir,
                   live=live, what=what)
    return sim, GtpRelay(sim, wire, stdin, stdout).start()


# -- a session for the window or the terminal ------------------------------------

def choices_from(size=None, sensors=None, preset=None, komi=None, handicap=None):
    """The simulator's full set of choices (the window's menus need every
    one), the board's defaults filled in; ValueError when one is bad."""
    from host_sim.sim.virtual import make_config
    cfg = make_config(size=size, sensors=sensors, preset=preset, komi=komi, handicap=handicap)
    return {"size": cfg.size, "sensors": cfg.sensors, "preset": cfg.preset, "komi": cfg.komi,
            "handicap": cfg.handicap}


def _config(choices, engine_side):
    from host_sim.sim.virtual import make_config
    if engine_side:
        # The relay sets handicap stones and komi over GTP, as a host does.
        return make_config(**dict(choices, handicap=0))
    return make_config(**choices)


def open_session(choices, noise=0.0, seed=None, versus=None, gtp=None, store_dir=None, new=False,
                 size=None, host=None, what="a simulator"):
    """(sim, match) for the window or the terminal: an engine game, a GTP
    controller, or the board alone (match None).  The board alone resumes
    the game its folder keeps, whatever its size, unless new (a new game of
    the kept game's size, or of `size`) or `size` is not the kept game's
    (a new game of that size); the board keeps an unfinished game as
    NNNN.sgf first.  host(sim, wire): a host command's controller on the
    board's GTP link (`gogadget remote --sim`: host_sim/room/atsim.py);
    what: who holds the folder, for the error another simulator gets."""
    if store_dir:
        os.makedirs(store_dir, exist_ok=True)
    if host is not None:
        wire = Wire()
        sim = BoardSim(_config(choices, False), noise=noise, seed=seed, stream=wire.board,
                       store_dir=store_dir, what=what)
        return sim, host(sim, wire)
    if versus is not None:
        return start(_config(choices, True), komi=choices.get("komi"),
                     handicap=choices.get("handicap") or 0, noise=noise, seed=seed,
                     store_dir=store_dir, what=what, **versus)
    if gtp is not None:
        return start_gtp(_config(choices, False), gtp[0], gtp[1], noise=noise, seed=seed,
                         store_dir=store_dir, what=what)
    sim = BoardSim(_config(choices, False), noise=noise, seed=seed, store_dir=store_dir, what=what)
    if new or (size and sim.referee.size != size):
        sim.start_over(size)
    return sim, None


def unfinished_note(sim, new=True):
    """What a person quitting should hear of the game left on the board
    (kept, and where: the next start resumes it), or ""; new: the command
    has --new."""
    ref = sim.referee
    if ref.phase not in ("play", "count", "resume") or not ref.board.moves:
        return ""
    return ("the unfinished game (%s) is kept in %s: the next start goes on with it%s"
            % (plural(ref.board.moves, "move"), sim.store_dir,
               " (--new starts a new game)" if new else ""))
