"""Watching a simulated game: every action, light change and event as a
line stamped with virtual time (stress --trace, replay --trace)."""
from host_sim.sim.virtual import Simulator, code_name


class Tracer:
    """One line per action, light change and event, stamped with virtual time."""

    def __init__(self, write):
        self.write = write
        self.clock = None  # the simulator's, once it exists

    def __call__(self, text):
        now = self.clock.now_ms if self.clock is not None else 0
        self.write("%9d ms  %s\n" % (now, text))


class WatchedSim(Simulator):
    """The simulator with the record invariant checked after every scan and,
    when tracing, every light change and event printed."""

    def __init__(self, config, noise, seed, tracer=None, physics=None):
        self.watcher = None
        self.tracer = tracer
        super().__init__(config, noise=noise, seed=seed, physics=physics)
        self._lights = bytes(self.leds.frame)
        self._heard = 0
        self._trace_changes()

    def step(self):
        super().step()
        if self.tracer is not None:
            self._trace_changes()
        if self.watcher is not None:
            self.watcher()

    def reboot(self):
        super().reboot()
        if self.tracer is not None:
            self._trace_changes()

    def _trace_changes(self):
        if self.tracer is None:
            return
        while self._heard < len(self.events):
            _, kind, text = self.events[self._heard]
            self._heard += 1
            self.tracer("event %s: %s" % (kind, text))
        now = bytes(self.leds.frame)
        if now == self._lights:
            return
        n = self.size * self.size
        if len(now) == len(self._lights):
            for pl in range(n):
                if now[1 + pl] != self._lights[1 + pl]:
                    self.tracer("light %s: %s -> %s" % (self.vertex(pl), code_name(self._lights[1 + pl]),
                                                        code_name(now[1 + pl])))
            for i, name in enumerate(("turn", "phase", "alert")):
                a, b = self._lights[1 + n + i], now[1 + n + i]
                if a != b:
                    self.tracer("status %s: %s -> %s" % (name, code_name(a), code_name(b)))
        self._lights = now
