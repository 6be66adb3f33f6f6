"""Opening the simulator for a person: the window (with a display) or the
terminal mode, around a session (host_sim/sim/session.py) -- an engine game, a
GTP controller, or the board alone.  `python -m host_sim` and `gogadget
... --sim` both come here; the window and the terminal modules only ever
import session.py, so nothing imports back up.
"""
import os
import select
import sys
import time

from host_sim.sim.session import open_session, unfinished_note


class IdleInput:
    """A line source for the terminal mode that keeps the board scanning while
    the person thinks: between keystrokes the simulator steps, and a change
    the person did not make (a controller's move, a watcher) is drawn."""

    def __init__(self, stream, sim, show, period_s=0.02, stop=None, hold=False, status=None):
        self.stream = stream
        # status: the game's line (a match's status()): when it changes
        # while the board looks the same (the other board's move placed,
        # a controller's), it is said again, never left stale.
        self.status = status
        # hold: the end of the input is not the end of the session (the
        # board plays on for its other side until stop(): a signal, or a
        # command that ended); quit still ends it.
        self.hold = hold
        self.sim = sim
        self.show = show  # called with no arguments when the board changed
        self.stop = stop  # returns True when the session is over (the controller quit)
        self.period_s = period_s
        self._fd = stream.fileno()
        # Lines are read from the descriptor itself: a buffered readline
        # would take two piped lines at once and leave the second in its
        # buffer, where select() never sees it.
        self._buf = b""
        self._eof = False

    def isatty(self):
        return self.stream.isatty()

    def fileno(self):
        return self._fd

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def readline(self):
        seen = self._looks()
        while True:
            if self.stop is not None and self.stop():
                return ""
            if b"\n" in self._buf or (self._eof and self._buf):
                line, sep, self._buf = self._buf.partition(b"\n")
                return (line + sep).decode("utf-8", "replace")
            if self._eof and not self.hold:
                return ""
            if self._eof:
                time.sleep(self.period_s)
                seen = self._scan(seen)
                continue
            ready, _, _ = select.select([self._fd], [], [], self.period_s)
            if ready:
                data = os.read(self._fd, 4096)
                self._buf += data
                self._eof = not data
                continue
            seen = self._scan(seen)

    def _scan(self, seen):
        """One period of scans; the board drawn again if it looks changed."""
        sim = self.sim
        for _ in range(max(1, int(self.period_s * 1000) // sim.period_ms)):
            sim.step()
        now = self._looks()
        if now != seen:
            self.show()
        return now

    def _looks(self):
        """What the person would notice: the lights under the points and
        the stones (not the blinking status lights), and the events."""
        sim = self.sim
        n = sim.size * sim.size
        return (bytes(sim.leds.frame[1:1 + n]), bytes(sim.stones.cells), len(sim.events),
                self.status() if self.status is not None else None)


class _UntilError:
    """Lines from a script until the game's controller has failed: then the
    session ends (with the error), instead of going on without a game."""

    def __init__(self, stream, game):
        self.stream = stream
        self.game = game

    def isatty(self):
        return self.stream.isatty()

    def __iter__(self):
        for line in self.stream:
            if self.game.error:
                return
            yield line


def run(choices, noise=0.0, seed=None, tui=False, colour=None, load=None, state_file=None,
        versus=None, gtp=None, store_dir=None, stdin=None, out=None, new=False, size=None,
        host=None, what="a simulator"):
    """The simulator as a window (with a display) or in the terminal.

    versus: match options (command, colour, max_moves, out) to play an engine;
    gtp: (stdin, stdout) of a GTP controller the board answers; the rest as
    session.open_session's.  Returns an
    exit code; a controller that fails is a clear error and a non-zero code."""
    if not tui and os.environ.get("DISPLAY"):
        try:
            from host_sim.faces import gui
            return gui.main(choices, noise=noise, seed=seed, state_file=state_file, load=load,
                            versus=versus, gtp=gtp, store_dir=store_dir, new=new, size=size,
                            host=host, what=what)
        except ImportError as exc:
            print("host_sim: no Tk (%s); using the terminal" % exc, file=sys.stderr)
        except Exception as exc:  # noqa: BLE001 - e.g. TclError: display unreachable
            if type(exc).__name__ != "TclError":
                raise
            print("host_sim: cannot open a window (%s); using the terminal" % exc, file=sys.stderr)
    return run_terminal(choices, noise=noise, seed=seed, colour=colour, load=load, versus=versus,
                        gtp=gtp, store_dir=store_dir, stdin=stdin, out=out, new=new,
                        size=size, host=host, what=what)


def run_terminal(choices, noise=0.0, seed=None, colour=None, load=None, versus=None, gtp=None,
                 store_dir=None, stdin=None, out=None, new=False, size=None, host=None,
                 what="a simulator"):
    from host_sim.faces import tui
    if gtp is not None and stdin is None:
        # stdin and stdout carry GTP: the person's side is the terminal.
        try:
            stdin = open("/dev/tty", "r")
            out = open("/dev/tty", "w")
        except OSError as exc:
            print("gogadget gtp --sim: no display and no terminal for the person (%s); "
                  "--auto puts a scripted person at the board" % exc, file=sys.stderr)
            return 2
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    sim, game = open_session(choices, noise=noise, seed=seed, versus=versus, gtp=gtp,
                             store_dir=store_dir, new=new, size=size, host=host, what=what)
    try:
        if load:
            from host_sim.person.replay import load_into
            with open(load, "rb") as f:
                load_into(sim, f.read())
        stream = stdin
        stop = lambda: game is not None and (  # noqa: E731 - the controller quit
            game.error or getattr(game, "ends_session", False) and game.done)
        if stdin.isatty() and out.isatty():
            # A person at a terminal: one screen, redrawn in place.
            from host_sim.faces import tuiscreen
            code = tuiscreen.main(sim, stdin, out, colour=colour, match=game, stop=stop)
            if game is not None and game.error:
                print("gogadget: %s" % game.error, file=sys.stderr)
                return 1
            return code
        if gtp is not None or stdin.isatty() or getattr(game, "live", False):
            # The board moves without the person too (a controller, the
            # other board of a paired game): it scans while they think.
            def show():
                out.write(tui.render(sim, colour if colour is not None else
                                     "NO_COLOR" not in os.environ) + "\n")
                if game is not None:
                    out.write("game: " + game.status() + "\n")
                out.write(getattr(tui, "PROMPT", ""))  # the person is still asked
                out.flush()
            stream = IdleInput(stdin, sim, show, stop=stop, hold=getattr(game, "live", False),
                               status=game.status if game is not None else None)
        elif game is not None:
            stream = _UntilError(stdin, game)
        code = tui.main(sim, stream=stream, colour=colour, match=game, out=out)
        if game is not None and game.error:
            print("gogadget: %s" % game.error, file=sys.stderr)
            return 1
        return code
    except TimeoutError as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 2
    finally:
        if game is not None:
            game.close()
            game.save()
        note = unfinished_note(sim, new=not getattr(game, "live", False)) if store_dir else ""
        sim.close()
        if note:
            print("host_sim: " + note, file=sys.stderr)
