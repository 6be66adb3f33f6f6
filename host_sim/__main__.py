"""`python -m host_sim`: the simulator (a Tk window, or the terminal without a display).

    python -m host_sim [--size 9|13|19] [--sensors colour|occupancy] [--rules PRESET]
                       [--komi K] [--handicap N] [--noise P] [--seed N] [--physics nominal|worst]
                       [--tui] [--load GAME.sgf] [--store DIR] [--new]
                       [--engine CMD [--colour black|white] [--max-moves N] [--out GAME.sgf]]
    python -m host_sim replay GAME.sgf [--sensors ...] [--noise P] [--seed N] [--physics nominal|worst]
                                       [--out OUT.sgf] [--json]
"""
import argparse
import sys

from gogadget import points, rules, scan
# --time's words: one source for the simulator and `gogadget play`.
from host_sim.base.enginetime import TIME_FIELDS, TIME_HELP, time_settings  # noqa: F401

EPILOG = """\
other command:
  replay GAME.sgf       a simulated person plays a recorded game on the virtual
                        board; exits non-zero unless the firmware's record holds
                        the same moves (python -m host_sim replay --help)

The mouse (or the terminal's put/lift/slide) is your hand; the buttons are
Pass, Confirm, New game and Resign.  The host command line is `gogadget`."""


def _default_store():
    from host_sim.sim.session import default_store
    return default_store()


def parse(argv):
    ap = argparse.ArgumentParser(prog="python -m host_sim", description=__doc__.split("\n\n")[0],
                                 epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, choices=points.SIZES, default=None,
                    help="board size (default: the board's config, 19)")
    ap.add_argument("--sensors", choices=scan.SENSOR_KINDS, default=None,
                    help="colour (Hall) sensors see the stone's colour; occupancy (reed) only a stone")
    ap.add_argument("--rules", choices=sorted(rules.PRESETS), default=None, metavar="PRESET",
                    help="rules preset: %s (default %s)" % (", ".join(sorted(rules.PRESETS)),
                                                            rules.DEFAULT_PRESET))
    ap.add_argument("--komi", type=float, default=None, help="komi (default: the preset's)")
    ap.add_argument("--handicap", type=int, default=None, help="handicap stones (0, 2-9)")
    ap.add_argument("--time", default=None, metavar="CONTROL",
                    help=TIME_HELP)
    ap.add_argument("--noise", type=float, default=0.0, help="sensor flicker chance per point per scan")
    ap.add_argument("--seed", type=int, default=None, help="random seed of the sensor noise")
    ap.add_argument("--physics", choices=("nominal", "worst"), default=None,
                    help="sensors as physics (host_sim/sim/physics.py): magnets, Hall sensors or "
                         "reed switches read by the firmware's own drivers, calibrated first")
    ap.add_argument("--tui", action="store_true", help="run in the terminal even with a display")
    ap.add_argument("--no-color", action="store_true", help="terminal: no ANSI colours")
    ap.add_argument("--load", help="play this SGF game onto the board at start")
    ap.add_argument("--state-file", help="window: keep a JSON picture of the board here (for tests)")
    ap.add_argument("--store", default=None,
                    help="the virtual board's game folder, kept between runs as a board's flash "
                         "is: its finished games and the journal of the game on it (default "
                         "%s, the folder `gogadget ... --sim` uses)" % _default_store())
    ap.add_argument("--new", action="store_true",
                    help="start a new game even when the board keeps an unfinished one (the "
                         "board keeps that one as NNNN.sgf first); without --new it is resumed, "
                         "unless --size asks for another size than its")
    ap.add_argument("--engine", help='play a GTP engine, e.g. "/usr/games/gnugo --mode gtp --level 1"')
    ap.add_argument("--colour", "--color", default="black", choices=("black", "white", "b", "w"),
                    help="--engine: your colour")
    ap.add_argument("--max-moves", type=int, default=0, help="--engine: stop after this many moves")
    ap.add_argument("--out", help="--engine: keep the game record here (rewritten as it goes)")
    return ap.parse_args(argv)


# Help for replay's options that have none in replay.py.
REPLAY_HELP = {
    "--sensors": "colour (Hall) sensors see the stone's colour; occupancy (reed) only a stone",
    "--seed": "seed of the simulated person's habits and of the sensor noise",
}


def replay_main(argv):
    """`replay`, with the komi the count used in --json (see _count_with_komi)."""
    from host_sim.person import replay
    replay.final_count = _count_with_komi
    run = replay.replay

    def replay_with_komi(*args, **kwargs):
        summary, fw = run(*args, **kwargs)
        count = summary.get("count")
        if count and "komi" in count:
            summary["komi"] = count["komi"]
        return summary, fw

    replay.replay = replay_with_komi
    add = argparse.ArgumentParser.add_argument

    def add_with_help(self, *names, **kw):
        if not kw.get("help") and names and names[0] in REPLAY_HELP:
            kw["help"] = REPLAY_HELP[names[0]]
        return add(self, *names, **kw)

    argparse.ArgumentParser.add_argument = add_with_help  # every option has help text
    try:
        return replay.main(argv)
    finally:
        replay.replay = run
        argparse.ArgumentParser.add_argument = add


def _count_with_komi(referee):
    """The firmware's own count of the final position with the game's komi
    (the referee's, as the board counts), and that komi; None without one."""
    try:
        from gogadget import score
        rules_ = getattr(referee, "rules", None)
        if rules_ is None:
            return None
        c = score.count(referee.board, rules_, None, referee.komi)
        return {"black": c.black, "white": c.white, "result": c.result, "komi": referee.komi}
    except (ImportError, AttributeError, ValueError):
        return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "replay":
        return replay_main(argv[1:])
    args = parse(argv)
    from host_sim.sim import session
    from host_sim.sim.virtual import make_config
    if not 0.0 <= args.noise < 1.0:
        print("host_sim: --noise must be a probability below 1", file=sys.stderr)
        return 2
    store = args.store or session.default_store()
    try:
        # The settings saved on the virtual board's flash (gogadget config
        # --sim), as a board reads its config.json at its start; the
        # command line's own choices win.
        stored = session.stored_settings(store)
    except ValueError as exc:
        print("host_sim: %s: the simulator starts with its defaults" % exc, file=sys.stderr)
        stored = {}
    try:
        timing = time_settings(args.time) if args.time else {}
        cfg = make_config(**dict(session.chosen(stored, size=args.size, sensors=args.sensors,
                                                preset=args.rules, komi=args.komi,
                                                handicap=args.handicap), **timing))
    except ValueError as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 2
    choices = dict({"size": cfg.size, "sensors": cfg.sensors, "preset": cfg.preset,
                    "komi": cfg.komi, "handicap": cfg.handicap}, **timing)
    versus = None
    if args.engine:
        if args.load:
            print("host_sim: --load and --engine do not go together", file=sys.stderr)
            return 2
        try:
            session.check_engine(args.engine)
        except ValueError as exc:
            print("host_sim: %s" % exc, file=sys.stderr)
            return 2
        versus = {"command": args.engine, "colour": points.parse_colour(args.colour),
                  "max_moves": args.max_moves, "out": args.out, "new": args.new}
    if args.physics:
        from host_sim.sim import virtual
        virtual.DEFAULT_PHYSICS = args.physics
    from host_sim.faces import launch
    try:
        return launch.run(choices, noise=args.noise, seed=args.seed, tui=args.tui,
                          colour=False if args.no_color else None, load=args.load,
                          state_file=args.state_file, versus=versus,
                          store_dir=store,
                          new=args.new or bool(args.load), size=args.size,
                          what="make sim (python -m host_sim)")
    except session.SimulatorBusy as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
