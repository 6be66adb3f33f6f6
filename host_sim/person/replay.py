"""A simulated person plays a recorded game on the virtual board.

The person has human habits: prisoners come off in random order after
random delays, sometimes only after the next stone is down; now and then a
stone gets bumped to the next point and is put right once the lights ask
for it.  The person knows only the game record and what the LEDs show --
never the rules core -- so every capture, ko and correction must come from
the firmware's prompts.  At the end the firmware's own SGF (referee.sgf())
must hold exactly the moves of the input; sgfmill, an independent SGF
implementation, reads both.

    python -m host_sim replay GAME.sgf [--sensors colour|occupancy] [--noise P]
                                       [--seed N] [--out OUT.sgf] [--json]
                                       [--physics nominal|worst] [--game K]
    python -m host_sim.person.corpus --corpus DIR [--corpus DIR2] [--physics nominal|worst]
                              [--sensors colour|occupancy] [--seed N] [--jobs J]

With --physics the sensors are host_sim.sim.physics's model under the firmware's
own drivers, calibrated the maker's way first (the flicker is then off).
--game K replays the K-th game of a file that holds a collection.  --corpus
replays every game under the folders (host_sim/person/corpus.py; `make corpus`
fetches the professional games into build/corpus).
"""
import argparse
import json
import random
import sys

from gogadget import points, scan
from gogadget.points import BLACK, WHITE  # noqa: F401 (WHITE: see below)
# The record's names stay importable from here too, where host_sim.person.corpus
# and the tests have always found them.
from host_sim.person.gamerecord import (COLOURS, compare, describe, game_trees,  # noqa: F401
                                 load_game, pick, preset_for, turn_problem)
from host_sim.person.hand import Person, TracedPerson
from host_sim.sim.virtual import Simulator, make_config


def load_into(sim, data):
    """Play a game record onto the simulator's board through a tidy hand."""
    game = load_game(data, to_replay=True)
    if game.size != sim.size:
        raise ValueError("the record is %dx%d, the board %dx%d: start a new game of that size"
                         % (game.size, game.size, sim.size, sim.size))
    if game.setup:
        sim.referee.set_position([(c, points.place_point(game.size, pl)) for c, pl in game.setup])
    person = Person(sim, random.Random(0), late=0.0, bump=0.0, max_delay_ms=sim.period_ms)
    if not person.play_game(game):
        raise ValueError("the lights never cleared while loading; board left as it is")
    return game


def final_count(referee):
    """The firmware's own count of the final position, or None."""
    try:
        from gogadget import score
        rules = getattr(referee, "rules", None)
        if rules is None:
            return None
        c = score.count(referee.board, rules)
        return {"black": c.black, "white": c.white, "result": c.result}
    except (ImportError, AttributeError, ValueError):
        return None


def replay(data, sensors=scan.SENSOR_COLOUR, noise=0.0, seed=0, preset=None, late=0.1, bump=0.03,
           physics=None, trace=None):
    """Play a game record through the firmware; returns (summary dict, firmware SGF).
    physics: a host_sim.sim.physics setting (or its name) for the sensors; trace:
    a write function for one line per action, light change and event."""
    game = load_game(data, to_replay=True)
    problem = turn_problem(game)
    if problem:
        raise ValueError("cannot replay: " + problem)
    rng = random.Random(seed)
    handicap = len(game.setup) if all(c == BLACK for c, _ in game.setup) else 0
    fixed = False
    if 2 <= handicap <= points.max_handicap(game.size):
        spots = sorted(r * game.size + c for r, c in points.handicap_points(game.size, handicap))
        fixed = spots == sorted(pl for _, pl in game.setup)
    cfg = make_config(size=game.size, sensors=sensors, preset=preset_for(game, preset),
                      komi=float(game.komi), handicap=handicap if fixed else 0)
    tracer = None
    if trace is None:
        sim = Simulator(cfg, noise=noise, seed=rng.random(), physics=physics)
    else:
        # The same run, watched: stress's simulator prints every light change and event.
        from host_sim.sim.watch import Tracer, WatchedSim
        tracer = Tracer(trace)
        sim = WatchedSim(cfg, noise, rng.random(), tracer, physics=physics)
        tracer.clock = sim.clock
    try:
        if game.setup and not fixed:
            sim.referee.set_position([(c, points.place_point(game.size, pl)) for c, pl in game.setup])
        if tracer is None:
            person = Person(sim, random.Random(rng.random()), late=late, bump=bump)
        else:
            person = TracedPerson(sim, random.Random(rng.random()), tracer, late=late, bump=bump)
        finished = person.play_game(game)
        fw = sim.referee.sgf()
        problem = compare(game, fw) if finished else "the person got stuck: the lights never cleared"
        kinds = {}
        for _, kind, _ in sim.events:
            kinds[kind] = kinds.get(kind, 0) + 1
        summary = {
            "size": game.size, "sensors": sensors, "noise": noise, "seed": seed,
            "rules": cfg.preset, "komi": game.komi,
            "moves": len(game.moves), "captures": kinds.get("capture", 0),
            "prompts_shown": person.stats["prompts_shown"],
            "person": person.stats, "events": kinds,
            "flickers": sim.sensors.flickers, "scans": sim.steps, "virtual_ms": sim.clock.now_ms,
            "status": sim.referee.status(), "result": sim.referee.result,
            "count": final_count(sim.referee),
            "match": problem is None, "problem": problem,
        }
        if physics is not None:
            summary["physics"] = getattr(physics, "name", physics)
        return summary, fw
    finally:
        sim.close()


def parser(prog="python -m host_sim replay"):
    """replay's options (host_sim.person.corpus reads the same)."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", help="SGF file to replay")
    ap.add_argument("--sensors", choices=scan.SENSOR_KINDS, default=None,
                    help="sensor kind (default colour; --corpus: both)")
    ap.add_argument("--noise", type=float, default=0.0, help="flicker chance per point per scan")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default=None, help="rules preset (default: the record's RU or japanese)")
    ap.add_argument("--late", type=float, default=0.1, help="chance prisoners come off after the reply")
    ap.add_argument("--bump", type=float, default=0.03, help="chance per move of bumping a stone")
    ap.add_argument("--physics", choices=("nominal", "worst"), default=None,
                    help="sensors as physics (host_sim/sim/physics.py), calibrated first")
    ap.add_argument("--out", help="write the firmware's SGF here")
    ap.add_argument("--json", action="store_true", help="print a JSON summary")
    ap.add_argument("--trace", action="store_true",
                    help="print every action of the hand, light change and event")
    ap.add_argument("--game", type=int, default=None, metavar="K", dest="index",
                    help="the K-th game of a file holding a collection (1-based)")
    ap.add_argument("--corpus", action="append", default=None, metavar="DIR",
                    help="replay every game under DIR (repeatable) on both sensor kinds and "
                         "both physics settings unless --sensors / --physics say which")
    ap.add_argument("--jobs", type=int, default=1, help="--corpus: parallel worker processes")
    ap.add_argument("--report", help="--corpus: write every replay's result here as JSON")
    ap.add_argument("--sample", type=int, default=None, metavar="N",
                    help="--corpus: only N games, drawn with --seed (the whole corpus on both "
                         "kinds and settings takes hours on two cores)")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if not 0.0 <= args.noise < 1.0:
        ap.error("--noise must be a probability below 1")
    if args.corpus or args.sample is not None:  # host_sim.person.corpus runs the folders itself
        ap.error("folders of games: python -m host_sim.person.corpus --corpus DIR [--jobs N]")
    if not args.game:
        ap.error("give a game file, or --corpus DIR")
    if args.sensors is None:
        args.sensors = scan.SENSOR_COLOUR
    try:
        with open(args.game, "rb") as f:
            data = f.read()
        if args.index is not None:
            data = pick(data, args.index)
        summary, fw = replay(data, args.sensors, args.noise, args.seed, args.rules,
                             args.late, args.bump, args.physics,
                             sys.stdout.write if args.trace else None)
    except (OSError, ValueError) as exc:
        print("replay: %s" % exc, file=sys.stderr)
        return 2
    summary["game"] = args.game
    if args.out:
        with open(args.out, "w") as f:
            f.write(fw)
    if args.json:
        print(json.dumps(summary, indent=1, sort_keys=True))
    else:
        print("%s: %d moves, %d captures, %d prompts shown, %s" % (
            args.game, summary["moves"], summary["captures"], summary["prompts_shown"],
            "record matches" if summary["match"] else "MISMATCH: " + summary["problem"]))
    return 0 if summary["match"] else 1


if __name__ == "__main__":
    sys.exit(main())
