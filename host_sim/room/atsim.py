"""`gogadget remote --sim` and `publish --sim` with no simulator running on
the game folder: a simulator of the command's own with the person at it.

The person is at the window (or the terminal mode, host_sim/faces/launch.py) on
the main thread, which steps the board; the command's host loop
(host_sim/room/publish.py's HostPublisher, remote.py's HostRemote) runs in
a thread on the board's GTP link, the session's Wire, as it would on a USB
line.  AtSim is that thread seen from the window and the terminal (what
session.Match is for an engine game): what to do next, the story so far.

The folder is the simulator's alone (session.claim_store) and announced
as running, so `watch --sim --sim-store DIR` reaches it, and a second
`remote --sim` on the same folder is told it is taken instead of both
playing one board.
"""
import os
import sys
import threading

from gogadget.points import BLACK, WHITE, vertex
from host_sim.faces import launch
from host_sim.sim import session
from host_sim.base.serialport import GtpClient, LinkClosed
from host_sim.base.stopflag import StopFlag

WORDS = {BLACK: "black", WHITE: "white"}


class WireLink:
    """The board's GTP link as the host loop's open_link() gives it."""

    def __init__(self, wire, timeout):
        self.client = GtpClient(wire.host)
        self.timeout = timeout

    def send(self, command):
        return self.client.send(command, self.timeout)

    def close(self):
        pass  # the session owns the wire


class AtSim:
    """The host command's thread, for the window and the terminal."""

    ends_session = True  # the command ends (a refused login): so does the window
    live = True  # the board moves without the person: the terminal scans between lines

    def __init__(self, args, command, run_command, echo=True):
        self.args = args
        self.command = command
        self.run_command = run_command  # cmd(args, open_link, runner=, out=) -> exit code
        self.echo = echo  # also on stderr (not when the terminal screen is the person's)
        self.name = "gogadget " + command
        self.log = []
        self.error = None
        self.result = ""
        self.engine_says = ""
        self.counting = False
        self.out = None
        self.last_engine = None
        self.host = None  # the HostPublisher, once the command has built it
        self.rc = None
        self.sim = None
        self.wire = None
        self.stopping = threading.Event()
        self.signalled = lambda: False
        self._claim = None
        self._thread = None

    # -- open_session's host hook (again after the window's restart) ------------

    def attach(self, sim, wire):
        """A board to drive: the first, or the window's new one after its
        menus changed the game (close() ended the loop on the old one)."""
        self.sim, self.wire = sim, wire
        self.rc = self.error = self.host = None
        if sim.live is not None and self._claim is None:
            # Driven by this command alone, as a running simulator another
            # command found would be (session.claim_running).
            self._claim = session.claim_running(
                {"file": sim.live.file, "store": sim.store_dir},
                "gogadget %s as %s" % (self.command, self.args.board_id))
        self.stopping.clear()
        self._thread = threading.Thread(target=self._run, name="gogadget-" + self.command,
                                        daemon=True)
        self._thread.start()
        return self

    def open_link(self):
        wire = self.wire
        if wire is None or wire.closed:
            raise LinkClosed("the simulator is closed")
        from host_sim.room.publish import ANSWER_S
        return WireLink(wire, ANSWER_S)

    def say(self, line):
        self.log.append(line.split(": ", 1)[-1] if line.startswith("gogadget ") else line)
        if self.echo:
            print(line, file=sys.stderr, flush=True)

    def _run(self):
        try:
            self.rc = self.run_command(self.args, self.open_link, runner=self._loop, out=self.say)
        except Exception as exc:  # noqa: BLE001 - said, and the session ends
            self.say("gogadget %s: %s" % (self.command, exc))
            self.rc = 1
        if self.rc and not self.stopping.is_set():
            self.error = self.log[-1] if self.log else "stopped (exit %d)" % self.rc

    def _loop(self, host, refused):
        self.host = host
        host.run(stop=lambda: self.stopping.is_set() or refused())

    def stop(self):
        """The person has quit: the board is said offline and the loop ends."""
        self.stopping.set()
        if self._thread is not None:
            self._thread.join(10)

    # -- what the window and the terminal ask --------------------------------

    @property
    def done(self):
        return self.rc is not None or self.stopping.is_set() or self.signalled()

    def busy(self):
        return False  # the person is never kept waiting by this side

    def wait(self, step, timeout=None):
        return None

    def save(self):
        return False

    def close(self):
        """Before the board goes: the loop ends first (the room hears the
        board go offline, not its link lost)."""
        self.stop()
        if self.wire is not None:
            self.wire.close()
        session.release(self._claim)
        self._claim = None

    def status(self):
        host = self.host
        if self.error:
            return self.error
        if host is None or not host.pub.connected:
            return "waiting for the broker at %s" % self.args.broker
        follower = getattr(host, "follower", None)
        ref = self.sim.referee
        if follower is None:
            return "published as %s: %s" % (host.pub.board_id, _next(ref))
        if follower.note:
            return "the pairing stopped: %s" % follower.note
        them = follower.opponent
        if not follower.agreed or follower.game < 0:
            return "waiting for %s to join game %s" % (them, follower.pair_id)
        if ref.phase == "over":
            return "game over: %s" % ref.result
        if ref.phase == "count":
            return "two passes: lift dead stones, then press Confirm (%s counts too)" % them
        if ref.ask_undo:
            return "%s takes back move %d: press Confirm" % (them, ref.ask_undo)
        last = host.last_in
        if last is not None and last[2] and ref.outstanding() and ref.phase == "play":
            n, colour, pt = last
            return "%s's %s %s is lit: place it" % (them, WORDS[colour],
                                                     vertex(ref.board.size, pt))
        mine = 3 - follower.remote.colour
        if ref.phase == "play" and ref.to_move() == mine:
            return "%s to play (you): put a stone down or press Pass" % WORDS[mine].capitalize()
        if ref.phase == "play":
            return "%s to play: waiting for %s" % (WORDS[3 - mine].capitalize(), them)
        return _next(ref)


def _next(ref):
    return "%s, move %d" % (ref.phase, ref.board.moves)


def run(args, command, run_command):
    """The command at a simulator of its own: the window, or the terminal
    mode; returns the exit code (the command's, when it failed)."""
    screen = sys.stdin.isatty() and sys.stdout.isatty() and (
        getattr(args, "tui", False) or not os.environ.get("DISPLAY"))
    at = AtSim(args, command, run_command, echo=not screen)
    store = args.sim_store or session.default_store()
    choices = session.choices_from(size=args.sim_size)
    with StopFlag() as stop:
        at.signalled = stop.is_set  # SIGTERM or SIGINT: as if the person quit
        try:
            code = launch.run(choices, tui=getattr(args, "tui", False), store_dir=store,
                              host=at.attach, what="gogadget %s as %s" % (command, args.board_id))
        finally:
            at.stop()
    if at.rc:
        return at.rc
    return code if at.error is None else 1
