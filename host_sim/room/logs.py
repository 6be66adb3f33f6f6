"""Log lines a flood cannot multiply (docs/ROOM.md, "Security"): at most
one line a key (a board's topic, a client's address) every `every` seconds;
the lines held back are counted and said with the key's next line, or by
flush() once the window is over ("... (1234 more like it in 10 s)").

    limited = Limited(log, every=10.0)
    limited.warning(key, "drop %s: %s", topic, reason)
    limited.flush()        # from a thread that wakes now and then
"""
import threading
import time

EVERY_S = 10.0
MAX_KEYS = 4096  # keys remembered; past that the oldest window is forgotten


class Limited:
    def __init__(self, logger, every=EVERY_S, max_keys=MAX_KEYS, clock=time.monotonic):
        self.logger = logger
        self.every = every
        self.max_keys = max_keys
        self.clock = clock
        self.keys = {}  # key -> [start of its window, lines held back, the first held line]
        self.lock = threading.Lock()
        self.held = 0  # every line held back (stats)

    def warning(self, key, fmt, *args):
        """Log the line unless this key logged one less than `every` s ago;
        True when it was logged."""
        now = self.clock()
        with self.lock:
            k = self.keys.get(key)
            if k is not None and now - k[0] < self.every:
                k[1] += 1
                self.held += 1
                return False
            more = k[1] if k is not None else 0
            if k is None and len(self.keys) >= self.max_keys:
                self.keys.pop(next(iter(self.keys)))
            self.keys[key] = [now, 0]
        if more:
            fmt += " (and %d more like it before)"
            args += (more,)
        self.logger.warning(fmt, *args)
        return True

    def flush(self):
        """One line for each key whose window is over with lines held back."""
        now = self.clock()
        out = []
        with self.lock:
            for key, k in list(self.keys.items()):
                if now - k[0] >= self.every:
                    if k[1]:
                        out.append((key, k[1]))
                    del self.keys[key]
        for key, n in out:
            self.logger.warning("%s: %d more lines like the last held back in %g s", key, n,
                                self.every)
