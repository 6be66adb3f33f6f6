"""Randomized physical play: a seeded simulated person against the unmodified firmware.

Each game is drawn from its seed: board size, sensor kind, rules preset,
flicker noise, handicap, and the person's habits (prisoners lifted late,
bumped stones, a wrong-coloured stone first, illegal stones, extra stones,
hands over the board, take-backs, power cuts, ...).  The person
(host_sim/person/stress_player.py) plays random legal games on the virtual board
through the firmware's own App.  They see only what a person sees -- the
LED frame, the referee's events -- and press buttons; they choose moves
with their own instance of the firmware's rules core (gogadget.board.Board
configured from the preset), so nothing here re-implements a rule.

Invariants, checked all along (any breach ends the game as a failure):

* the firmware's record is always a prefix of the person's intended moves
  (a deliberately wrong move counts as intended until it is taken back),
  so no wrong move is ever accepted and none is lost;
* a clean power cut loses no accepted move, keeps the journal whole, and
  the board is ready within RESUME_MS of the boot;
* the person never waits forever: lights that ask for what the board
  already shows, or that never clear, are failures (bounded virtual time);
  quiet lights with stones that are not the game's position are one too;
* at the end referee.sgf() and the kept NNNN.sgf hold exactly the intended
  set-up and moves (read with sgfmill, host_sim.person.replay.compare), and the
  result counts exactly the chains the person lifted as dead (New mid-game:
  the unfinished game is kept without a result).

Every failure names its cause, what the person was doing (a habit), and
the command that replays the game printing every action, light change and
event.

    python -m host_sim.person.stress --games N [--seed S] [--sizes 9,13,19]
                              [--noise-max 0.02] [--habits a,b] [--jobs J]
                              [--report FILE]
    python -m host_sim.person.stress --replay SEED --trace

With --physics nominal|worst the sensors are host_sim.sim.physics's model read
by the firmware's own drivers and calibrated the maker's way at the start of
every game; the coin-flip flicker is off (the physics is the noise), and the
sensors warm up within the game (PHYSICS_WARM_MS).
"""
import argparse
import multiprocessing
import os
import random
import sys
import time
import traceback

from gogadget import points, rules as rules_mod, scan
from host_sim.person.stress_player import GAME_HABITS, HABITS, MOVE_HABITS, Failure, Player, WatchedSim
from host_sim.sim.virtual import make_config
from host_sim.sim.watch import Tracer

DEFAULT_SIZES = (9, 13, 19)
DEFAULT_NOISE_MAX = 0.02
SIZE_WEIGHTS = {9: 6, 13: 3, 19: 1}  # mostly small boards: they are quick
MOVE_CAPS = {9: (16, 60), 13: (16, 50), 19: (16, 40)}  # moves before the players pass
HANDICAP_SHARE = 0.15
LONG_SHARE = 0.08  # games played until the board is nearly full (a move per point)
QUIET_SHARE = 0.25  # games with no flicker at all
MOVE_HABIT_SHARE = 0.35  # chance a game has a given move habit
GAME_HABIT_SHARE = 0.2
# Games on the board's clock (docs/CLOCK.md), drawn from a generator of
# their own so that every seed's game is the one it was without a clock:
# times long enough that nobody loses on time; the games check that the
# clock changes no move (the record is the intended one) and charges no
# more than the virtual time that passed.
CLOCK_SHARE = 0.3
CLOCKS = ({"time_control": "absolute", "main_time": 36000},
          {"time_control": "byoyomi", "main_time": 36000, "period_time": 30, "periods": 5},
          {"time_control": "canadian", "main_time": 36000, "period_time": 300,
           "stones_per_period": 25},
          {"time_control": "fischer", "main_time": 36000, "time_increment": 10})
NOISE_BUCKETS = ((0.0, "0"), (0.005, "<=0.5%"), (0.01, "<=1%"), (0.02, "<=2%"), (1.0, ">2%"))

# -- the game a seed stands for ---------------------------------------------------


class Spec:
    """Everything drawn from a game's seed before play starts."""

    def __init__(self, seed, sizes=DEFAULT_SIZES, noise_max=DEFAULT_NOISE_MAX, habits=None,
                 **fixed):
        """fixed: choices to force (size, sensors, preset, noise, handicap,
        max_moves, moments), for tests; the rest is still drawn from the seed."""
        moments = fixed.pop("moments", {})
        rng = random.Random(seed)
        self.seed = seed
        self.size = rng.choices(sizes, [SIZE_WEIGHTS.get(s, 1) for s in sizes])[0]
        self.sensors = rng.choice(scan.SENSOR_KINDS)
        self.preset = rng.choice(sorted(rules_mod.PRESETS))
        self.noise = 0.0 if rng.random() < QUIET_SHARE else round(rng.uniform(0, noise_max), 4)
        self.handicap = 0
        if rng.random() < HANDICAP_SHARE:
            self.handicap = rng.randint(2, min(4, points.max_handicap(self.size)))
        lo, hi = MOVE_CAPS.get(self.size, (16, 40))
        self.max_moves = rng.randint(lo, hi)
        if rng.random() < LONG_SHARE:
            self.max_moves = self.size * self.size
        drawn = habits is None
        if drawn:
            habits = {h for h in MOVE_HABITS if rng.random() < MOVE_HABIT_SHARE}
            habits |= {h for h in GAME_HABITS if rng.random() < GAME_HABIT_SHARE}
        self.person_seed = rng.random()
        self.sim_seed = rng.random()
        # When the once-a-game habits between moves happen (share of the game).
        shares = {h: rng.random() for h in ("cut_clean", "cut_record", "new_mid_game")}
        timing = random.Random("clock %d" % seed)
        self.clock = timing.choice(CLOCKS) if timing.random() < CLOCK_SHARE else None
        for name, value in fixed.items():
            if not hasattr(self, name):
                raise ValueError("no game choice %r" % name)
            setattr(self, name, value)
        self.rules = rules_mod.Rules(self.preset)
        self.free = bool(self.handicap and self.rules.free_placement)
        self.habits = {h for h in habits if self.applies(h)}
        self.moments = {h: 1 + int(share * max(1, self.max_moves - 1))
                        for h, share in shares.items()}
        self.moments.update(moments)
        if self.free and drawn:
            self.habits.add("free_handicap")  # every free handicap is followed by a cut

    def applies(self, habit):
        if habit == "wrong_colour":
            return self.sensors == scan.SENSOR_COLOUR
        if habit == "self_capture":
            return self.rules.suicide != rules_mod.SUICIDE_FORBIDDEN
        if habit == "free_handicap":
            return self.free
        if habit == "new_mid_game":
            return not self.handicap  # the next game would need its handicap again
        return True

    def noise_bucket(self):
        return noise_bucket(self.noise)

    def describe(self):
        hc = ""
        if self.handicap:
            hc = " handicap %d%s" % (self.handicap, " free" if self.free else "")
        clock = " clock %s" % self.clock["time_control"] if self.clock else ""
        return "%dx%d %s %s noise %.4f%s%s, %d moves, habits %s" % (
            self.size, self.size, self.sensors, self.preset, self.noise, hc, clock,
            self.max_moves, ",".join(sorted(self.habits)) or "-")


def noise_bucket(noise):
    for top, name in NOISE_BUCKETS:
        if noise <= top:
            return name
    return NOISE_BUCKETS[-1][1]


# -- running games ----------------------------------------------------------------------


PHYSICS_WARM_MS = 0


def stress_physics(name):
    """The physical setting a stress game runs on: the named one, warming
    up within the game."""
    from host_sim.sim import physics as ph
    return ph.setting(name).but(warm_ms=PHYSICS_WARM_MS) if PHYSICS_WARM_MS else ph.setting(name)


def run_game(seed, sizes=DEFAULT_SIZES, noise_max=DEFAULT_NOISE_MAX, trace=False,
             habits=None, sabotage=None, out=None, physics=None, **fixed):
    """Play the game of one seed; a result dict (ok, cause, detail, habits used ...).
    sabotage(person, moves) is called after every move (tests of the harness).
    physics: a host_sim.sim.physics setting name (the flicker is then off)."""
    if physics is not None:
        fixed["noise"] = 0.0
    spec = Spec(seed, sizes, noise_max, habits, **fixed)
    started = time.time()
    tracer = None
    if trace:
        tracer = Tracer(out or sys.stdout.write)
        tracer("game %d: %s" % (seed, spec.describe()))
    cfg = make_config(size=spec.size, sensors=spec.sensors, preset=spec.preset,
                      handicap=spec.handicap, **(spec.clock or {}))
    try:
        sim = WatchedSim(cfg, spec.noise, spec.sim_seed, tracer,
                         stress_physics(physics) if physics is not None else None)
    except ValueError as exc:  # the maker's calibration failed: the board cannot play
        return {"seed": seed, "size": spec.size, "sensors": spec.sensors, "preset": spec.preset,
                "noise": spec.noise, "handicap": spec.handicap, "ok": False,
                "cause": "calibration", "detail": str(exc), "doing": "calibrating",
                "habits": [], "moves": 0, "resume_ms": None, "virtual_ms": 0,
                "wall_s": round(time.time() - started, 2), "misreads": 0, "stuck": []}
    if tracer is not None:
        tracer.clock = sim.clock
    person = Player(sim, spec, random.Random(spec.person_seed), tracer, sabotage)
    result = {"seed": seed, "size": spec.size, "sensors": spec.sensors, "preset": spec.preset,
              "noise": spec.noise, "handicap": spec.handicap, "ok": True, "cause": "",
              "detail": "", "doing": ""}
    try:
        person.play_game()
        if spec.clock:
            check_clock(sim, spec.clock)
    except Failure as exc:
        result.update(ok=False, cause=exc.cause, detail=exc.detail, doing=person.doing)
    except Exception as exc:  # the firmware (or the harness) raised: a failure, with its place
        where = traceback.extract_tb(exc.__traceback__)[-1]
        result.update(ok=False, cause="exception " + type(exc).__name__, doing=person.doing,
                      detail="%s (%s:%d in %s)" % (str(exc)[:200], os.path.basename(where.filename),
                                                   where.lineno, where.name))
    finally:
        sim.close()
    result.update(clock=spec.clock["time_control"] if spec.clock else "")
    result.update(misreads=getattr(sim.sensors, "misreads", 0) if physics is not None else 0)
    result.update(stuck=list(person.stuck_answered))
    result.update(habits=sorted(person.used), moves=len(person.intent.history),
                  resume_ms=max(person.resume_ms, default=None),
                  virtual_ms=sim.clock.now_ms, wall_s=round(time.time() - started, 2))
    if tracer is not None:
        tracer("%s" % ("game passed" if result["ok"] else "FAILED: %s [%s] %s" % (
            result["cause"], result["doing"], result["detail"])))
    return result


def check_clock(sim, clock):
    """The clock charged nobody more than the virtual time there was, and
    nobody ran out of it (the stress's times are long)."""
    c = sim.referee.clock
    if c is None:
        raise Failure("clock", "the board has no clock: %s" % clock)
    if c.flagged:
        raise Failure("clock", "a player ran out of 10 hours: %s" % sim.referee.status())
    if clock["time_control"] == "fischer":
        return  # increments: the time left says nothing of the time used
    used = sum(c.main_ms - c.main[colour] for colour in (1, 2))
    if not 0 <= used <= sim.clock.now_ms:
        raise Failure("clock", "%d ms charged in %d ms of play" % (used, sim.clock.now_ms))


class Options:
    """What a run draws its games from; a failing seed replays only with the same."""

    def __init__(self, sizes=DEFAULT_SIZES, noise_max=DEFAULT_NOISE_MAX, habits=None,
                 noise=None, physics=None):
        self.physics = physics  # None: ideal sensors with flicker; else a physics setting name
        self.sizes = tuple(sizes)
        self.noise_max = noise_max
        self.habits = None if habits is None else frozenset(habits)  # None: drawn per game
        self.noise = noise  # None: drawn per game up to noise_max; else every game's

    def run(self, seed, **kw):
        if self.physics is not None:
            kw.setdefault("physics", self.physics)
        elif self.noise is not None:
            kw.setdefault("noise", self.noise)
        return run_game(seed, self.sizes, self.noise_max, habits=self.habits, **kw)

    def replay_command(self, seed):
        cmd = ".venv/bin/python -m host_sim.person.stress --replay %d" % seed
        if self.sizes != DEFAULT_SIZES:
            cmd += " --sizes " + ",".join(str(s) for s in self.sizes)
        if self.noise is not None:
            cmd += " --noise %g" % self.noise
        elif self.noise_max != DEFAULT_NOISE_MAX:
            cmd += " --noise-max %g" % self.noise_max
        if self.habits == frozenset(HABITS):
            cmd += " --habits all"
        elif self.habits is not None:
            cmd += " --habits " + (",".join(sorted(self.habits)) or "none")
        if self.physics is not None:
            cmd += " --physics " + self.physics
        return cmd + " --trace"


DEFAULTS = Options()


def replay_command(seed, options=DEFAULTS):
    return options.replay_command(seed)


def game_seeds(games, seed):
    # Disjoint runs for different --seed values (up to 100000 games each).
    return [seed * 100000 + i for i in range(games)]


def run_games(seeds, options=DEFAULTS, jobs=1, progress=None):
    results = []
    if jobs <= 1:
        for seed in seeds:
            results.append(options.run(seed))
            if progress:
                progress(results)
    else:
        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(options.run, seeds, chunksize=2):
                results.append(r)
                if progress:
                    progress(results)
    results.sort(key=lambda r: r["seed"])
    return results


# -- the report -------------------------------------------------------------------------


def tally(results, key):
    """{name: [passed, games]} by a key function returning one name or a list."""
    out = {}
    for r in results:
        names = key(r)
        for name in names if isinstance(names, list) else [names]:
            t = out.setdefault(name, [0, 0])
            t[0] += r["ok"]
            t[1] += 1
    return out


def causes(results):
    """{(cause, doing): [results]} of the failures, most frequent first."""
    groups = {}
    for r in results:
        if not r["ok"]:
            groups.setdefault((r["cause"], r["doing"]), []).append(r)
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


def report(results, options=DEFAULTS, elapsed=None):
    lines = []
    passed = sum(r["ok"] for r in results)
    lines.append("stress: %d/%d games passed%s" % (
        passed, len(results), " in %.0f s" % elapsed if elapsed is not None else ""))

    def table(title, counts, order=None):
        lines.append("by %s:" % title)
        for name in order or sorted(counts):
            if name in counts:
                ok, n = counts[name]
                lines.append("  %-16s %5d/%-5d%s" % (name, ok, n, "" if ok == n else "  FAIL %d" % (n - ok)))

    table("habit", tally(results, lambda r: r["habits"] or ["(none)"]), list(HABITS) + ["(none)"])
    table("noise", tally(results, lambda r: noise_bucket(r["noise"])), [b for _, b in NOISE_BUCKETS])
    table("size", tally(results, lambda r: "%dx%d" % (r["size"], r["size"])))
    table("sensors", tally(results, lambda r: r["sensors"]))
    table("preset", tally(results, lambda r: r["preset"]))
    table("handicap", tally(results, lambda r: "handicap" if r["handicap"] else "even"))
    table("clock", tally(results, lambda r: r.get("clock") or "none"))
    if options.physics is not None:
        mis = sum(r.get("misreads", 0) for r in results)
        lines.append("physics %s: %d misread places in the scans (no hand over the board), "
                     "none of them allowed to become a move" % (options.physics, mis))
    asked = [r for r in results if r.get("stuck")]
    if asked:
        lines.append("the board asked whether a sensor was stuck and the person told it to "
                     "ignore it (the point showed what the light asked) in %d games: %s" % (
                         len(asked), ", ".join("%d (%s %s)" % (r["seed"], r["sensors"],
                                                             " ".join(r["stuck"]))
                                               for r in asked[:12])))
    resumed = [r for r in results if r.get("resume_ms") is not None]
    if resumed:
        slowest = max(resumed, key=lambda r: r["resume_ms"])
        lines.append("slowest resume after a clean cut (stones in place): %d ms (seed %d, "
                     "%dx%d %s noise %.4f, %d moves)" % (
                         slowest["resume_ms"], slowest["seed"], slowest["size"], slowest["size"],
                         slowest["sensors"], slowest["noise"], slowest["moves"]))
    if passed < len(results):
        lines.append("failures by cause [what the person was doing]:")
        for (cause, doing), group in causes(results):
            lines.append("  %s [%s]: %d games, seeds %s" % (
                cause, doing, len(group), " ".join(str(r["seed"]) for r in group[:12])))
        lines.append("failures:")
        for r in results:
            if not r["ok"]:
                lines.append("  seed %d: %s [%s] %s" % (r["seed"], r["cause"], r["doing"], r["detail"]))
                lines.append("    " + options.replay_command(r["seed"]))
    return "\n".join(lines)


def findings(results, options=DEFAULTS, command=""):
    """Markdown for the referee developer: failing seeds grouped by cause."""
    passed = sum(r["ok"] for r in results)
    out = ["# Stress findings", "",
           "`%s`: %d/%d games passed." % (command, passed, len(results)), ""]
    for (cause, doing), group in causes(results):
        out.append("## %s [%s] (%d games)" % (cause, doing, len(group)))
        out.append("")
        for r in group[:8]:
            out.append("- seed %d (%dx%d %s %s noise %.4f): %s -- `%s`" % (
                r["seed"], r["size"], r["size"], r["sensors"], r["preset"], r["noise"],
                r["detail"], options.replay_command(r["seed"])))
        if len(group) > 8:
            out.append("- ... and %d more: %s" % (len(group) - 8, " ".join(
                str(r["seed"]) for r in group[8:40])))
        out.append("")
    return "\n".join(out)


def parse_sizes(text):
    sizes = tuple(int(s) for s in text.split(",") if s.strip())
    for s in sizes:
        points.check_size(s)
    return sizes


def parse_habits(text):
    if text == "all":
        return set(HABITS)
    habits = set() if text == "none" else {h for h in text.split(",") if h}
    unknown = habits - set(HABITS)
    if unknown:
        raise argparse.ArgumentTypeError("unknown habits %s (known: %s)" % (
            ",".join(sorted(unknown)), ",".join(HABITS)))
    return habits


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.person.stress", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="run seed: game seeds are SEED*100000+i")
    ap.add_argument("--sizes", type=parse_sizes, default=DEFAULT_SIZES, help="e.g. 9,13,19")
    ap.add_argument("--noise-max", type=float, default=DEFAULT_NOISE_MAX,
                    help="highest flicker chance per point per scan")
    ap.add_argument("--noise", type=float, default=None,
                    help="every game at this flicker chance (issue 10: 0.03 for the 3%% target)")
    ap.add_argument("--habits", type=parse_habits, default=None,
                    help="only these habits in every game (comma-separated, all or none); "
                         "default: drawn per game")
    ap.add_argument("--physics", choices=("nominal", "worst"), default=None,
                    help="sensors as physics (host_sim/sim/physics.py), calibrated at the start "
                         "of every game; the flicker is off")
    ap.add_argument("--jobs", type=int, default=1, help="parallel worker processes")
    ap.add_argument("--replay", type=int, metavar="SEED", help="play one game again")
    ap.add_argument("--trace", action="store_true", help="print every action, light and event")
    ap.add_argument("--report", metavar="FILE", help="also write the failures as markdown here")
    args = ap.parse_args(argv)
    if not 0.0 <= args.noise_max < 1.0:
        ap.error("--noise-max must be a probability below 1")
    if args.noise is not None and not 0.0 <= args.noise < 1.0:
        ap.error("--noise must be a probability below 1")
    options = Options(args.sizes, args.noise_max, args.habits, args.noise, args.physics)
    if args.replay is not None:
        r = options.run(args.replay, trace=args.trace)
        print(report([r], options))
        return 0 if r["ok"] else 1
    seeds = game_seeds(args.games, args.seed)
    started = time.time()
    step = max(1, args.games // 10)

    def progress(results):
        if len(results) % step == 0:
            bad = sum(not r["ok"] for r in results)
            print("  %d/%d games, %d failed, %.0f s" % (len(results), args.games, bad,
                                                        time.time() - started),
                  file=sys.stderr, flush=True)

    results = run_games(seeds, options, args.jobs, progress)
    elapsed = time.time() - started
    print(report(results, options, elapsed))
    if args.report:
        command = "python -m host_sim.person.stress " + " ".join(argv if argv is not None else sys.argv[1:])
        with open(args.report, "w") as f:
            f.write(findings(results, options, command))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
