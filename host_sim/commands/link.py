"""The board a command talks to: its serial port, a running simulator, or a sim of its own."""
import errno
import os

from host_sim.base.serialport import (DEFAULT_PORT, GtpClient, LinkClosed,  # noqa: F401
                                      SerialTransport)
from host_sim.sim import session

LIVE_WAIT_S = 10  # a running simulator answers between its scans


def sim_store(args):
    return args.sim_store or session.default_store()


def no_board(port, exc):
    """What to do when the board's port will not open (pyserial's own text
    repeats the port and names no next step)."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOENT:
        return ("no board found on %s: plug it in (or name its port with --port), "
                "or use --sim for the simulator" % port)
    why = os.strerror(code) if isinstance(code, int) else str(exc)
    hint = " (add yourself to the dialout group)" if code == errno.EACCES else ""
    return "cannot open %s: %s%s; or use --sim for the simulator" % (port, why, hint)


class Connection:
    """A GtpClient on the board: a serial port, a running simulator's live
    port, or (--sim without one) a virtual board of our own behind a pty."""

    def __init__(self, args, colour=None, size=None, use_live=True, running=None, timing=None):
        """running: the game folder of the running simulator to reach (and
        no other): the room's commands pin the one they found; timing: a
        virtual board of our own's time control (enginetime.time_settings)."""
        self.sim = None
        self._lock = None
        self.note = ""
        self.timeout = None  # seconds to wait for an answer (None: a board always answers)
        port = args.port or DEFAULT_PORT
        check = None
        if args.sim:
            live = None
            if running is not None:
                live = session.live_port(running)
                if live is None:
                    raise LinkClosed("the simulator on %s is not running" % running)
            elif use_live and not getattr(args, "auto", False):
                live = session.live_port(args.sim_store)
            if live:
                port = live
                self.note = "the running simulator"
                self.timeout = LIVE_WAIT_S
            else:
                from host_sim.sim.simboard import SimBoard, policy_from
                store = sim_store(args)
                self._lock = session.claim_store(store, "gogadget %s" % args.command)
                try:
                    self.sim = SimBoard(size=size or args.sim_size, colour=colour,
                                        policy=policy_from(getattr(args, "person", "random"),
                                                           getattr(args, "seed", 0)),
                                        seed=getattr(args, "seed", 0), store_dir=store,
                                        timing=timing).start()
                except BaseException:
                    session.release(self._lock)
                    raise
                port = self.sim.port
                check = self.sim.check
                self.note = "a virtual board on " + store
        try:
            transport = SerialTransport(port, check=check)
        except OSError as exc:  # pyserial's SerialException is one
            if args.sim:
                self._close_sim()
                raise
            raise LinkClosed(no_board(port, exc))
        self.board = GtpClient(transport)

    def send(self, command):
        """A query that the board answers at once (not genmove)."""
        try:
            return self.board.send(command, self.timeout)
        except TimeoutError:
            raise TimeoutError("%s did not answer %s in %d s (is it busy, or stopped?)"
                               % (self.note, command.split()[0], self.timeout))

    def close(self):
        try:
            self.board.transport.close()
        finally:
            self._close_sim()

    def _close_sim(self):
        if self.sim is not None:
            self.sim.close()
        session.release(self._lock)
        self._lock = None
