"""The virtual board's links to the host: the in-process Wire, and the pty LivePort other commands reach."""
import json
import os
import pty
import threading
import time
import tty

from host_sim.base.serialport import FdStream, LinkClosed
from host_sim.sim.simstore import live_file


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
