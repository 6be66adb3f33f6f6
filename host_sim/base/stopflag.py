"""SIGTERM and SIGINT as a flag, for the host commands that run until
stopped (`gogadget relay`, `gogadget publish`).

Raising KeyboardInterrupt from a handler lands wherever the main thread is,
even inside the command's own clean-up, and printed a traceback now and
then; a flag is looked at where the command can stop cleanly.

    with StopFlag() as stop:
        start ...
        while not stop.is_set(): stop.wait(0.2)
        clean up ...          # a second signal here is only the flag again
"""
import atexit
import signal
import threading

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopFlag:
    def __init__(self):
        self.event = threading.Event()
        self.old = {}

    def _set(self, signum, frame):
        self.event.set()

    def is_set(self):
        return self.event.is_set()

    def wait(self, timeout):
        return self.event.wait(timeout)

    def __enter__(self):
        self.old = {s: signal.signal(s, self._set) for s in SIGNALS}
        return self

    def __exit__(self, *exc):
        # The handlers are given back: a process that forks later (a test
        # run's worker pool) must still die of SIGTERM.  Only at the
        # interpreter's exit is a late signal ignored, so that a command
        # that is merely exiting does not end with -15.
        for s, old in self.old.items():
            signal.signal(s, old)
            if old == signal.SIG_DFL:
                atexit.register(signal.signal, s, signal.SIG_IGN)
