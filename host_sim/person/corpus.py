"""A whole corpus of game records replayed through the firmware on the
sensors as physics (host_sim/person/replay.py, one replay per game, sensor kind
and physics setting), in parallel worker processes.

    python -m host_sim.person.corpus --corpus DIR [--corpus DIR2] [--sensors colour|occupancy]
                              [--physics nominal|worst] [--seed N] [--jobs J] [--report FILE]
                              [--sample N]

Without --sensors / --physics every game is replayed on both sensor kinds at
both settings.  Every .sgf under the folders counts; a file that holds a
collection is one game per game tree.  A record that cannot be replayed is
skipped with its reason and counted (an unsupported board size, stones
cleared or added mid-game, no moves, no players named: a test position, not
a game).  The report gives pass counts by kind and physics and, for every
failure, the one-line command that replays it (add --trace to see every
action, light change and event).
"""
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

from gogadget import scan
from host_sim.person import replay as replay_mod
PHYSICS = ("nominal", "worst")
# replay.replay's defaults for the person's habits and the flicker (the CLI's too).
HABITS = {"noise": 0.0, "late": 0.1, "bump": 0.03}


class Record:
    """One game of the corpus: a file, and which game tree of it (1-based;
    None when the file holds one game)."""

    def __init__(self, path, index, data, game):
        self.path = path
        self.index = index
        self.data = data
        self.game = game

    @property
    def name(self):
        where = shown(self.path)
        return where if self.index is None else "%s#%d" % (where, self.index)

    def command(self, sensors, physics, seed, habits=None):
        """The one line that replays this game as the corpus run did."""
        parts = [".venv/bin/python -m host_sim replay", shown(self.path)]
        if self.index is not None:
            parts.append("--game %d" % self.index)
        parts.append("--sensors %s" % sensors)
        if physics:
            parts.append("--physics %s" % physics)
        parts.append("--seed %d" % seed)
        for name, value in sorted((habits or {}).items()):
            if value != HABITS[name]:
                parts.append("--%s %s" % (name, value))
        return " ".join(parts)


def shown(path):
    """A path as a person would type it here (relative when under the cwd)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def why_not(game):
    """None if a loaded game is one to replay, else the reason it is skipped."""
    if not game.moves:
        return "no moves"
    if not (game.props.get("PB") and game.props.get("PW")):
        return "no players named (PB/PW): a test position, not a game"
    return replay_mod.turn_problem(game)


def records(dirs):
    """(records, skipped) of every .sgf under the folders, in a fixed order;
    skipped is [(name, reason)]."""
    found, skipped = [], []
    first = {}  # a game's moves -> the record that had them first
    for d in dirs:
        d = Path(d)
        if not d.is_dir():
            raise ValueError("%s is not a folder (make corpus fetches build/corpus)" % d)
        for path in sorted(p for p in d.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file()):
            try:
                trees = replay_mod.game_trees(path.read_bytes())
            except ValueError as exc:
                skipped.append((shown(path), "not a readable SGF file: %s" % exc))
                continue
            for i, data in enumerate(trees, 1):
                rec = Record(path, i if len(trees) > 1 else None, data, None)
                try:
                    rec.game = replay_mod.load_game(data, to_replay=True)
                except ValueError as exc:
                    skipped.append((rec.name, str(exc)))
                    continue
                reason = why_not(rec.game)
                key = (rec.game.size, tuple(rec.game.setup), tuple(rec.game.moves))
                if not reason and key in first:
                    reason = "the same game as %s" % first[key]
                if reason:
                    skipped.append((rec.name, reason))
                else:
                    first[key] = rec.name
                    found.append(rec)
    return found, skipped


def sample(recs, n, seed):
    """n of the records, drawn with the seed (all when there are no more),
    in the corpus's order."""
    if n >= len(recs):
        return recs
    keep = set(random.Random(seed).sample(range(len(recs)), n))
    return [r for i, r in enumerate(recs) if i in keep]


def replay_one(task):
    """One replay in a worker: a small dict, never an exception."""
    rec, sensors, physics, seed, habits = task
    t0 = time.process_time()
    out = {"game": rec.name, "sensors": sensors, "physics": physics, "seed": seed,
           "moves": len(rec.game.moves), "command": rec.command(sensors, physics, seed, habits)}
    try:
        summary, _ = replay_mod.replay(rec.data, sensors, seed=seed, physics=physics, **habits)
        out["ok"] = bool(summary["match"])
        out["problem"] = summary["problem"]
        out["stuck"] = summary["person"]["stuck"]
    except Exception as exc:  # a crash is a failure to report, not the end of the run
        out["ok"] = False
        out["problem"] = "crashed: %s: %s" % (type(exc).__name__, exc)
    out["cpu_s"] = round(time.process_time() - t0, 2)
    return out


def tasks(recs, kinds, settings, seed, habits=None):
    # Longest games first: the pool's last worker is not left with a 300-move game.
    order = sorted(recs, key=lambda r: -len(r.game.moves))
    habits = dict(HABITS, **(habits or {}))
    return [(r, k, p, seed, habits) for r in order for p in settings for k in kinds]


def run(recs, kinds=scan.SENSOR_KINDS, settings=PHYSICS, seed=0, jobs=1, progress=None,
        habits=None):
    """Replay every record on every kind and setting; the results in a fixed order."""
    todo = tasks(recs, kinds, settings, seed, habits)
    results = []
    if jobs <= 1:
        for t in todo:
            results.append(replay_one(t))
            if progress:
                progress(results, len(todo))
    else:
        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(replay_one, todo):
                results.append(r)
                if progress:
                    progress(results, len(todo))
    results.sort(key=lambda r: (r["game"], r["physics"] or "", r["sensors"]))
    return results


def tally(results):
    """{(sensors, physics): [passed, replays]}."""
    out = {}
    for r in results:
        t = out.setdefault((r["sensors"], r["physics"]), [0, 0])
        t[0] += r["ok"]
        t[1] += 1
    return out


def report(results, skipped, n_games, wall_s, out=sys.stdout):
    w = out.write
    w("corpus: %d games replayed, %d skipped\n" % (n_games, len(skipped)))
    by_reason = {}
    for name, reason in skipped:
        by_reason.setdefault(reason, []).append(name)
    for reason, names in sorted(by_reason.items(), key=lambda kv: -len(kv[1])):
        more = " and %d more" % (len(names) - 3) if len(names) > 3 else ""
        w("  skipped %d, %s: %s%s\n" % (len(names), reason, ", ".join(names[:3]), more))
    w("passed by sensor kind and physics:\n")
    for (kind, physics), (ok, n) in sorted(tally(results).items(), key=lambda kv: (kv[0][1] or "", kv[0][0])):
        w("  %-9s  %-7s  %d/%d\n" % (kind, physics or "ideal", ok, n))
    cpu = sum(r["cpu_s"] for r in results)
    moves = sum(r["moves"] for r in results)
    w("%d replays, %d moves, %.0f s of replay CPU, %.0f s wall\n" % (len(results), moves, cpu, wall_s))
    failed = [r for r in results if not r["ok"]]
    if failed:
        w("FAILED %d (each command repeats its replay; --trace prints every action, light "
          "and event):\n" % len(failed))
        for r in failed:
            w("  %s %s %s: %s\n    %s\n" % (r["game"], r["sensors"], r["physics"] or "ideal",
                                           r["problem"], r["command"]))


def main(argv=None):
    """`python -m host_sim.person.corpus`: replay's options, with --corpus DIR."""
    ap = replay_mod.parser("python -m host_sim.person.corpus")
    args = ap.parse_args(argv)
    if not args.corpus:
        ap.error("give --corpus DIR (repeatable)")
    if args.game or args.index is not None:
        ap.error("--corpus replays folders: give no game file")
    if args.rules or args.out or args.json or args.trace:
        ap.error("--corpus takes each record's own rules and prints a report: "
                 "no --rules, --out, --json or --trace (--report FILE keeps the results)")
    kinds = [args.sensors] if args.sensors else list(scan.SENSOR_KINDS)
    settings = [args.physics] if args.physics else list(PHYSICS)
    try:
        recs, skipped = records(args.corpus)
    except ValueError as exc:
        print("replay: %s" % exc, file=sys.stderr)
        return 2
    if not recs:
        print("replay: no game to replay under %s" % ", ".join(map(str, args.corpus)), file=sys.stderr)
        return 2
    if args.sample is not None:
        if args.sample < 1:
            ap.error("--sample takes a number of games above 0")
        total = len(recs)
        recs = sample(recs, args.sample, args.seed)
        print("a sample of %d of the %d games, drawn with --seed %d" % (len(recs), total, args.seed))
    start = time.time()
    n = len(recs) * len(kinds) * len(settings)
    print("replaying %d games x %d sensor kinds x %d physics = %d replays on %d jobs"
          % (len(recs), len(kinds), len(settings), n, args.jobs), flush=True)
    step = max(1, n // 20)

    def progress(done, total):
        r = done[-1]
        if not r["ok"]:  # at once: a long run's failures can be looked at while it goes on
            print("  FAILED %s %s %s: %s\n    %s" % (r["game"], r["sensors"], r["physics"] or "ideal",
                                                   r["problem"], r["command"]), flush=True)
        if len(done) % step == 0 or len(done) == total:
            bad = sum(1 for r in done if not r["ok"])
            print("  %d/%d replays, %d failed, %.0f s" % (len(done), total, bad, time.time() - start),
                  flush=True)

    habits = {"noise": args.noise, "late": args.late, "bump": args.bump}
    results = run(recs, kinds, settings, args.seed, args.jobs, progress, habits)
    report(results, skipped, len(recs), time.time() - start)
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"results": results, "skipped": skipped, "seed": args.seed,
                       "dirs": [str(d) for d in args.corpus]}, f, indent=1)
    return 0 if all(r["ok"] for r in results) else 1



if __name__ == "__main__":
    sys.exit(main())
