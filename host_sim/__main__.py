"""`python -m host_sim`: the simulator (a Tk window, or the terminal without a display).

    python -m host_sim [--size 9|13|19] [--sensors colour|occupancy] [--rules PRESET]
                       [--komi K] [--handicap N] [--noise P] [--seed N] [--tui] [--load GAME.sgf]
                       [--engine CMD [--colour black|white] [--max-moves N] [--out GAME.sgf]]
    python -m host_sim replay GAME.sgf [--sensors ...] [--noise P] [--seed N] [--out OUT.sgf] [--json]
"""
import argparse
import os
import sys

from gogadget import points, rules, scan


def parse(argv):
    ap = argparse.ArgumentParser(prog="python -m host_sim", description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, choices=points.SIZES, default=None)
    ap.add_argument("--sensors", choices=scan.SENSOR_KINDS, default=None)
    ap.add_argument("--rules", choices=sorted(rules.PRESETS), default=None)
    ap.add_argument("--komi", type=float, default=None)
    ap.add_argument("--handicap", type=int, default=None)
    ap.add_argument("--noise", type=float, default=0.0, help="sensor flicker chance per point per scan")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--tui", action="store_true", help="run in the terminal even with a display")
    ap.add_argument("--no-color", action="store_true", help="terminal: no ANSI colours")
    ap.add_argument("--load", help="play this SGF game onto the board at start")
    ap.add_argument("--state-file", help="GUI: keep a JSON picture of the board here (for tests)")
    ap.add_argument("--engine", help='play a GTP engine, e.g. "/usr/games/gnugo --mode gtp --level 1"')
    ap.add_argument("--colour", "--color", default="black", choices=("black", "white", "b", "w"),
                    help="--engine: the person's colour")
    ap.add_argument("--max-moves", type=int, default=0, help="--engine: stop after this many moves")
    ap.add_argument("--out", help="--engine: keep the game record here (rewritten as it ends)")
    return ap.parse_args(argv)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "replay":
        from host_sim import replay
        return replay.main(argv[1:])
    args = parse(argv)
    from host_sim.virtual import Simulator, make_config
    if not 0.0 <= args.noise < 1.0:
        print("host_sim: --noise must be a probability below 1", file=sys.stderr)
        return 2
    try:
        cfg = make_config(size=args.size, sensors=args.sensors, preset=args.rules,
                          komi=args.komi, handicap=args.handicap)
    except ValueError as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 2
    choices = {"size": cfg.size, "sensors": cfg.sensors, "preset": cfg.preset,
               "komi": cfg.komi, "handicap": cfg.handicap}
    versus = None
    if args.engine:
        from host_sim.match import check_engine
        if args.load:
            print("host_sim: --load and --engine do not go together", file=sys.stderr)
            return 2
        try:
            check_engine(args.engine)
        except ValueError as exc:
            print("host_sim: %s" % exc, file=sys.stderr)
            return 2
        versus = {"command": args.engine, "colour": points.parse_colour(args.colour),
                  "max_moves": args.max_moves, "out": args.out}
    if not args.tui and os.environ.get("DISPLAY"):
        try:
            from host_sim import gui
            return gui.main(choices, noise=args.noise, seed=args.seed,
                            state_file=args.state_file, load=args.load, versus=versus)
        except ImportError as exc:
            print("host_sim: no Tk (%s); using the terminal" % exc, file=sys.stderr)
        except Exception as exc:  # noqa: BLE001 - e.g. TclError: display unreachable
            if type(exc).__name__ != "TclError":
                raise
            print("host_sim: cannot open a window (%s); using the terminal" % exc, file=sys.stderr)
    from host_sim import tui
    if versus is not None:
        return _tui_versus(cfg, args, versus)
    sim = Simulator(cfg, noise=args.noise, seed=args.seed)
    try:
        if args.load:
            from host_sim.replay import load_into
            with open(args.load, "rb") as f:
                load_into(sim, f.read())
        return tui.main(sim, colour=False if args.no_color else None)
    except (OSError, ValueError) as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 2
    finally:
        sim.close()


def _tui_versus(cfg, args, versus):
    from host_sim import match, tui
    handicap = cfg.handicap
    cfg.handicap = 0  # the relay sets handicap stones over GTP, as on the real board
    sim, game = match.start(cfg, komi=args.komi, handicap=handicap, noise=args.noise,
                            seed=args.seed, **versus)
    try:
        return tui.main(sim, colour=False if args.no_color else None, match=game)
    except TimeoutError as exc:
        print("host_sim: %s" % exc, file=sys.stderr)
        return 1
    finally:
        game.close()
        game.save()
        sim.close()


if __name__ == "__main__":
    sys.exit(main())
