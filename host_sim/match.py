"""A person at the simulator against a GTP engine (GNU Go).

The simulator is the board: the firmware's App runs with a stream, so its
own Link serves GTP exactly as the board does on USB, and a controller
thread relays between the engine and that link with cli.play_game, the
same relay `gogadget play` uses with a real board.  The engine's moves
therefore reach the person only as LED prompts, and the person's moves
reach the engine only through the sensors and the referee.

The stream is a Wire: an in-process byte pipe pair.  The board end is
read without blocking from the scan loop (the GUI's Tk loop or the TUI's
action loop, both on the main thread); the host end blocks in the
controller thread, which never touches the firmware objects.
"""
import shlex
import shutil
import threading
import time

from gogadget.points import BLACK, WHITE
from host_sim.serialport import GtpClient, GtpError, LinkClosed, engine

ENGINE_WAIT_S = 60.0  # longest the TUI waits for the engine or the board
WORDS = {BLACK: "black", WHITE: "white"}


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


def check_engine(command):
    """A clear error now rather than a dead thread later."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError("engine command: %s" % exc)
    if not argv:
        raise ValueError("engine command is empty")
    if shutil.which(argv[0]) is None:
        raise ValueError("engine %r not found" % argv[0])
    return argv


class Match:
    """Relays one game between an engine and the simulator's board.

    sim must have been built with stream=wire.board.  The controller
    starts with start(); status() and busy() are for the main thread."""

    def __init__(self, sim, wire, command, colour=BLACK, komi=None, handicap=0, max_moves=0,
                 out=None):
        check_engine(command)
        self.sim = sim
        self.wire = wire
        self.command = command
        self.colour = colour
        self.size = sim.size
        self.komi = sim.referee.komi if komi is None else komi
        self.handicap = handicap
        self.max_moves = max_moves
        self.out = out
        self.name = command.split()[0].rsplit("/", 1)[-1]
        self.log = []  # lines for the person: relayed moves, result, errors
        self.history = None  # the engine's own move list at the end, [(colour, vertex)]
        self.result = ""
        self.error = None
        self.done = False
        self.last_engine = None  # ("b"/"w", vertex) of the engine's last genmove
        self._role = "setup"
        self._word = ""
        self._thread = None
        self._engine = None
        self._saved = None

    # -- the controller thread ---------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._run, name="gogadget-match", daemon=True)
        self._thread.start()
        return self

    def _waiting_on(self, role, word, command):
        self._role = role
        self._word = word

    def _say(self, text):
        self.log.append(text)

    def _run(self):
        from host_sim.cli import play_game
        try:
            self._engine = engine(self.command)
            eng = _Watched(self._engine, self, "engine")
            board = _Watched(GtpClient(self.wire.host), self, "board")
            try:
                self.name = eng.send("name") or self.name
            except GtpError:
                pass
            self._say("%s plays %s" % (self.name, WORDS[3 - self.colour]))
            moves, self.result = play_game(board, eng, self.colour, self.size, self.komi,
                                           self.handicap, self.max_moves, self._say)
            self.history = self._engine_history()
            self._say("game over: %s after %d moves" % (self.result or "stopped", len(moves)))
            if self.history is not None:
                self._say("engine history: " + " ".join(
                    "%s %s" % (c, v) for c, v in self.history))
        except (GtpError, LinkClosed, OSError, TimeoutError) as exc:
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
                out.append(("B" if words[0].lower().startswith("b") else "W", words[1].upper()))
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
        if self.last_engine is not None and ref.outstanding():
            c, v = self.last_engine
            if v.lower() != "pass":
                waiting = "%s's %s %s is waiting to be placed (lit)" % (self.name, them, v.upper())
        if self.done:
            text = "game over"
            if self.result:
                text += ": %s" % self.result
            if ref.phase == "count":
                text += "; lift dead stones, then press Confirm"
            return text + ("; " + waiting if waiting else "")
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

    def save(self):
        """Write the firmware's record to --out (again, if it changed)."""
        if not self.out:
            return False
        text = self.sim.referee.sgf()
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


def start(config, command, colour=BLACK, komi=None, handicap=0, max_moves=0, out=None,
          noise=0.0, seed=None):
    """A Simulator served on a Wire and a Match relaying it to the engine."""
    from host_sim.virtual import Simulator
    wire = Wire()
    sim = Simulator(config, noise=noise, seed=seed, stream=wire.board)
    try:
        match = Match(sim, wire, command, colour, komi, handicap, max_moves, out)
    except ValueError:
        sim.close()
        raise
    return sim, match.start()
