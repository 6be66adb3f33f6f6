"""Sensor margins and design limits on the physical model (host_sim/sim/physics.py).

    python -m host_sim.bench sensors        (make bench BENCH=sensors)

Each run builds a 19x19 board from a seed, calibrates it the maker's way
through the firmware's Calibrator (colour), then plays a game's worth of
positions: stones are put one by one (drawn from the bowl: strength, offset)
up to a 60 % full board, with now and then a chain lifted, and every
position is read for a few passes by the firmware's own driver while the
sensors warm up and the LEDs draw their current.  Every read is compared
with the stones really there:

* the distance of the reading to the threshold it must not cross (colour:
  ADC LSB of 12 bits; occupancy: mT of |Bz| beyond pull-in / below
  drop-out), as percentiles over the game;
* misreads counted, and the expected misreads per read from the Gaussian
  noise at each reading's distance (so rates far below one in the reads
  taken are still measured, not guessed at zero);
* design limits: one parameter at a time pushed past the worst case until
  misreads start (expected > 1 per 10 million reads, or one counted).
"""
import math
import os
import random
import shutil
import sys
import tempfile
import time

from gogadget import scan
from gogadget.hw import pins
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.sim import physics as ph
from host_sim.sim.virtual import Clock, Stones

MAX_REPEAT = 500  # scans one measured pass stands for, at most
TARGET = 1e-7  # misreads per read at nominal: fewer than 1 per 10 million


def _tail(z):
    # P(N(0,1) > z)
    return 0.5 * math.erfc(z / math.sqrt(2))


class Run:
    """One board, calibrated, through one game's positions."""

    def __init__(self, kind, setting, seed=1, size=19, positions=120, passes=3, play=None,
                 settle_reads=pins.SETTLE_READS):
        self.kind = kind
        self.size = size
        rng = random.Random(seed)
        self.stones = Stones(size)
        self.clock = Clock()
        self.board = ph.Board(self.stones, self.clock, None, kind, setting, seed=rng.random())
        self.sensors = ph.Sensors(self.board)
        self.sensors.scanner.settle_reads = settle_reads if kind == scan.SENSOR_COLOUR else 0
        self.tmp = tempfile.mkdtemp(prefix="gogadget-bench-")  # the board's flash
        self.calibration = ph.calibrate(self.sensors, self.stones, self.clock,
                                        os.path.join(self.tmp, "calib.bin"))
        if play is not None:  # the game's parts differ from the calibration's
            self.sensors.retime(play)
        self.rng = rng
        self.positions = positions
        self.passes = passes
        self.reads = 0
        self.misreads = 0  # wrong places a settled sensor read (not bounce)
        self.bounces = 0  # wrong places on the first latch after a change, the field past its threshold
        self.expected = 0.0
        self.distances = []
        self.worst = None  # (distance, place, truth, reading)

    def truth(self, p):
        c = self.stones.cells[p]
        if c == EMPTY:
            return scan.S_EMPTY
        if self.kind == scan.SENSOR_OCCUPANCY:
            return scan.S_STONE
        return scan.S_BLACK if c == BLACK else scan.S_WHITE

    def _moves(self):
        n = self.size * self.size
        rng = self.rng
        colour = BLACK
        for _ in range(self.positions):
            empties = [p for p in range(n) if self.stones.cells[p] == EMPTY]
            if len(empties) < n * 0.4 or rng.random() < 0.06:
                # a capture: a few stones of one colour come off
                taken = [p for p in range(n) if self.stones.cells[p] == colour]
                for p in rng.sample(taken, min(len(taken), rng.randint(1, 6))):
                    self.stones.lift(p)
            else:
                self.stones.put(rng.choice(empties), colour)
            colour = WHITE if colour == BLACK else BLACK
            # a move every few seconds: the game spans the sensors' warm-up
            self.clock.advance(max(20, self.board.s.warm_ms // self.positions))
            if self.board.s.led_ma is None:  # the frame of a game: a few lights to full
                self.board.frame_ma = rng.uniform(self.size * self.size + 3, 600)
            yield

    def run(self):
        try:
            return self._run()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _run(self):
        out = scan.new_scan(self.size)
        n = self.size * self.size
        sens = self.sensors
        colour = self.kind == scan.SENSOR_COLOUR
        sigma = sens.path.noise if colour else None
        # Each pass stands for the scans of the seconds between moves: the
        # drift tracking (calib.track) sees their readings, the same as the
        # pass's (the sensors move little in that time), as often as the
        # board would scan them.
        gap_ms = max(20, self.board.s.warm_ms // self.positions)
        repeat = min(MAX_REPEAT, gap_ms // 20 // self.passes) if colour else 0
        for _ in self._moves():
            for k in range(self.passes):
                self.clock.advance(20)
                sens.read(out)
                for _ in range(repeat - 1):
                    sens.calibration.track(sens.raw, out)
                for p in range(n):
                    want = self.truth(p)
                    d = self._distance(p, want)
                    self.distances.append(d)
                    self.reads += 1
                    if out[p] != want:
                        if k == 0 and d > 0 and not colour:
                            self.bounces += 1  # a contact still bouncing
                        else:
                            self.misreads += 1
                    if colour:
                        self.expected += _tail(d / sigma) if d > 0 else 1.0
                    if self.worst is None or d < self.worst[0]:
                        self.worst = (d, p, want, out[p])
        return self

    def _distance(self, p, want):
        if self.kind == scan.SENSOR_COLOUR:
            cal = self.sensors.calibration
            v = self.sensors.raw[p] >> 4
            hi = cal.hi[p] >> 4
            lo = cal.lo[p] >> 4
            if want == cal.loc[p] ^ 3:  # the colour above hi (hw/calib.py)
                return v - hi
            if want == cal.loc[p]:
                return lo - v
            return min(hi - v, v - lo)
        b = self.board
        f = abs(b.field[p])
        if want == scan.S_STONE:
            return f - b.pull[p]
        return b.pull[p] * b.s.drop_share - f

    def percentiles(self):
        d = sorted(self.distances)
        pick = lambda q: d[min(len(d) - 1, int(q * len(d)))]
        return [d[0], pick(0.001), pick(0.01), pick(0.1), pick(0.5)]

    def rate(self):
        """Misreads per read: counted, or the noise's expectation if higher."""
        counted = self.misreads / self.reads
        if self.kind == scan.SENSOR_COLOUR:
            return max(counted, self.expected / self.reads)
        return counted


def margins(kind, setting, seeds=(1, 2, 3), **kw):
    runs = [Run(kind, setting, seed=s, **kw).run() for s in seeds]
    return runs


def _merge(runs):
    reads = sum(r.reads for r in runs)
    bounces = sum(r.bounces for r in runs)
    mis = sum(r.misreads for r in runs)
    exp = sum(r.expected for r in runs)
    dist = []
    for r in runs:
        dist.extend(r.distances)
    dist.sort()
    pick = lambda q: dist[min(len(dist) - 1, int(q * len(dist)))]
    rate = max(mis / reads, exp / reads) if runs[0].kind == scan.SENSOR_COLOUR else mis / reads
    return reads, mis, exp, [dist[0], pick(0.001), pick(0.01), pick(0.1), pick(0.5)], rate, bounces


def report_margins(out, kind, name, setting, seeds, **kw):
    runs = margins(kind, setting, seeds, **kw)
    reads, mis, exp, pct, rate, bounces = _merge(runs)
    unit = "LSB" if kind == scan.SENSOR_COLOUR else "mT"
    fmt = "%6d" if kind == scan.SENSOR_COLOUR else "%6.2f"
    extra = "calibration %s, threshold share %d/256" % (
        runs[0].calibration, runs[0].sensors.calibration.share) if kind == scan.SENSOR_COLOUR \
        else "bounce: %d first-latch reads" % bounces
    out("  %-9s %-8s reads %8d  misreads %4d  per million %.3g  distance to threshold (%s) "
        "min/0.1%%/1%%/10%%/50%%: %s  [%s]" % (
            kind, name, reads, mis, rate * 1e6, unit, " ".join(fmt % v for v in pct), extra))
    return rate


def _fails(kind, play, seeds, settle_reads=pins.SETTLE_READS, base=ph.NOMINAL):
    runs = margins(kind, base, seeds, positions=60, passes=2, play=play, settle_reads=settle_reads)
    reads, mis, exp, pct, rate, bounces = _merge(runs)
    return rate > TARGET or mis > 0, rate, pct[0]


def limit(out, kind, label, unit, values, make, seeds=(1,), settle_reads=pins.SETTLE_READS):
    """The first of values (ordered from safe to harsh) at which misreads start."""
    last_ok = None
    for v in values:
        bad, rate, worst = _fails(kind, make(v), seeds, settle_reads)
        if bad:
            out("  %-9s %-42s misreads start at %s %s (per million %.3g; last clean: %s)" % (
                kind, label, v, unit, rate * 1e6, last_ok))
            return v
        last_ok = v
    out("  %-9s %-42s no misreads up to %s %s" % (kind, label, values[-1], unit))
    return None


def main(argv=()):
    quick = "--quick" in argv
    out = print
    seeds = (1,) if quick else (1, 2, 3)
    started = time.time()
    s = ph.NOMINAL
    out("physical model (host_sim/sim/physics.py): 6x2 mm N35 magnets %.2f mm above the sensor "
        "element, SS49E %.2f mV/mT at %.1f V, %d-bit ADC, %d settle read(s), scan every 20 ms"
        % (s.height_mm, ph.HALL_SENS_MV_MT, ph.VCC, ph.ADC_BITS, pins.SETTLE_READS))
    out("stack-up (host_sim/tools/geometry.py): %.1f mm PCB, sensor and LED on top, a %.1f mm surface "
        "on the LEDs, the magnet flush in the stone's underside: %.2f mm over the Hall element; "
        "its LED %.1f mm away adds %.5f mT at 60 mA" % (
            ph.geometry.PCB_THICKNESS_MM, ph.geometry.SURFACE_MM, s.height_mm, ph.LED_TO_SENSOR_MM,
            ph.led_field_mt(60)))
    out("field on the axis %.1f mT, at 5 mm off centre %.1f mT, at the next point %.2f mT across, "
        "%.2f mT along" % (ph.bz_mt(0, 0, s.height_mm), ph.bz_mt(5, 0, s.height_mm),
                           ph.bz_mt(ph.GRID_MM[0], 0, s.height_mm), ph.bz_mt(0, ph.GRID_MM[1], s.height_mm)))
    out("margins over a 19x19 game (seeds %s; target below %.1f misreads per million at nominal):"
        % (",".join(str(x) for x in seeds), TARGET * 1e6))
    for kind in scan.SENSOR_KINDS:
        for name in ("nominal", "worst"):
            report_margins(out, kind, name, ph.SETTINGS[name], seeds)
    out("design limits (one parameter past nominal, the rest nominal; calibrated with the "
        "nominal bowl at 20 C; 19x19, 60 positions; bounce not counted):")
    nom = ph.NOMINAL
    for kind in scan.SENSOR_KINDS:
        limit(out, kind, "every magnet (x nominal), offsets as drawn", "x",
              [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
              lambda v: nom.but(magnet_lo=v, magnet_hi=v))
        limit(out, kind, "every stone off centre, magnets 1.0", "mm",
              [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
              lambda v: nom.but(offset_mm=v, offset_exact=True, magnet_lo=1.0, magnet_hi=1.0))
        limit(out, kind, "every magnet (x nominal), 5 mm off", "x",
              [1.3, 1.2, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5],
              lambda v: nom.but(magnet_lo=v, magnet_hi=v, offset_exact=True))
        limit(out, kind, "temperature rise in 10 min (1.5 mV/C)", "C",
              [10, 20, 30, 40, 60, 80, 120],
              lambda v: nom.but(temp_end=20.0 + v, warm_ms=600000, drift_mv_c=1.5))
        limit(out, kind, "temperature step while off (1.5 mV/C)", "C",
              [2, 4, 6, 8, 10, 15, 20, 30],
              lambda v: nom.but(temp_end=20.0 + v, warm_ms=1, drift_mv_c=1.5))
    for settle in (pins.SETTLE_READS, 0):
        limit(out, scan.SENSOR_COLOUR, "mux tau, %d settle read(s)" % settle, "us",
              [0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0],
              lambda v: nom.but(tau_us=v), settle_reads=settle)
    limit(out, scan.SENSOR_COLOUR, "ground resistance, full LED budget", "mOhm",
          [10, 25, 50, 100, 200, 400],
          lambda v: nom.but(ground_mohm=v, led_ma=2000))
    out("(%.0f s)" % (time.time() - started))


if __name__ == "__main__":
    main(sys.argv[1:])
