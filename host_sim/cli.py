"""`gogadget`: host tools for the board on a USB serial port (or --sim).

  gogadget gtp   --port P        the board as a GTP engine on stdin/stdout
                                 (attach it to Sabaki, GoGui, gomill ...)
  gogadget play  --engine CMD    the person at the board against a GTP engine
  gogadget pull  [--dest DIR]    download the games stored on the board
  gogadget watch                 mirror the board live in the terminal

Every command takes --sim instead of --port: the simulator's virtual board
with a simulated person (host_sim/simboard.py) behind a pty.  `play --sim
--gui` makes you the person instead: the simulator's window is the board
(host_sim/match.py).
"""
import argparse
import os
import sys
import time

from gogadget.gtp import _clean
from gogadget.points import BLACK, WHITE, parse_colour
from host_sim.serialport import GtpClient, GtpError, LinkClosed, SerialTransport, engine

DEFAULT_PORT = "/dev/ttyACM0"


def _add_board_options(p):
    p.add_argument("--port", default=None, help="serial port of the board (default %s)" % DEFAULT_PORT)
    p.add_argument("--sim", action="store_true", help="use the simulator's virtual board")
    p.add_argument("--person", default="random",
                   help="--sim: how the simulated person chooses moves: random or engine:COMMAND")
    p.add_argument("--seed", type=int, default=0, help="--sim: seed of the simulated person")
    p.add_argument("--sim-size", type=int, default=9, help="--sim: size the virtual board starts with")
    p.add_argument("--sim-store", default=None,
                   help="--sim: the virtual board's game folder (default: a temporary one)")


class Connection:
    """A GtpClient on the board, and the simulator behind it when --sim."""

    def __init__(self, args, colour=None, size=None):
        self.sim = None
        port = args.port or DEFAULT_PORT
        if args.sim:
            from host_sim.simboard import SimBoard, policy_from
            self.sim = SimBoard(size=size or args.sim_size, colour=colour,
                                policy=policy_from(args.person, args.seed), seed=args.seed,
                                store_dir=args.sim_store).start()
            port = self.sim.port
        self.board = GtpClient(SerialTransport(port))

    def close(self):
        try:
            self.board.transport.close()
        finally:
            if self.sim is not None:
                self.sim.close()


def cmd_gtp(args):
    """Relay GTP line by line: a controller's line to the board, the board's
    response back; genmove simply waits for the person's move."""
    conn = Connection(args)
    stdin = sys.stdin.buffer
    out = sys.stdout
    try:
        while True:
            line = stdin.readline()
            if not line:
                break
            # Blank and comment lines get no response from an engine.
            if not _clean(line):
                continue
            conn.board.transport.write(line.rstrip(b"\r\n") + b"\n")
            lines = []
            while True:
                got = conn.board.transport.read_line(None)
                text = got.decode("utf-8", "replace").replace("\r", "")
                if not lines and not text.strip():
                    continue
                if not text.strip():
                    break
                lines.append(text)
            out.write("\n".join(lines) + "\n\n")
            out.flush()
            words = _clean(line).split()
            if words and words[0].isdigit():
                words.pop(0)
            if words and words[0] == "quit":
                break
    except (LinkClosed, BrokenPipeError):
        return 1
    finally:
        conn.close()
    return 0


def _colour_word(colour):
    return "black" if colour == BLACK else "white"


def play_game(board, eng, person, size, komi, handicap=0, max_moves=0, log=None):
    """Relay a game between the board (the person plays `person`) and a GTP
    engine until two passes in a row or a resignation; returns (moves, result)
    where moves are (colour, vertex) as answered."""
    for client in (board, eng):
        client.send("boardsize %d" % size)
        client.send("clear_board")
        client.send("komi %s" % komi)
    turn = BLACK
    if handicap:
        stones = board.send("fixed_handicap %d" % handicap)
        eng.send("set_free_handicap " + stones)
        turn = WHITE
    passes = 0
    moves = []
    result = ""
    while True:
        c = "b" if turn == BLACK else "w"
        if turn == person:
            mv = board.send("genmove " + c)
            if mv.lower() != "resign":
                eng.send("play %s %s" % (c, mv))
        else:
            mv = eng.send("genmove " + c)
            if mv.lower() != "resign":
                board.send("play %s %s" % (c, mv))
        moves.append((turn, mv))
        if log is not None:
            log("%d. %s %s" % (len(moves), _colour_word(turn), mv))
        if mv.lower() == "resign":
            result = ("W" if turn == BLACK else "B") + "+R"
            break
        passes = passes + 1 if mv.lower() == "pass" else 0
        if passes >= 2 or (max_moves and len(moves) >= max_moves):
            break
        turn = 3 - turn
    if not result and passes >= 2:
        try:
            result = eng.send("final_score")
        except GtpError:
            result = ""
    return moves, result


def _play_in_simulator(args):
    """You at the simulator's window (terminal without a display) as the board."""
    from host_sim.__main__ import main as sim_main
    argv = ["--size", str(args.size), "--komi", str(args.komi), "--handicap", str(args.handicap),
            "--engine", args.engine, "--colour", args.colour, "--max-moves", str(args.max_moves)]
    if args.out:
        argv += ["--out", args.out]
    return sim_main(argv)


def cmd_play(args):
    """The person at the board plays --colour against a GTP engine."""
    if args.gui:
        if not args.sim:
            print("gogadget play: --gui needs --sim", file=sys.stderr)
            return 2
        return _play_in_simulator(args)
    person = parse_colour(args.colour)
    conn = Connection(args, colour=person, size=args.size)
    eng = engine(args.engine)
    try:
        moves, result = play_game(conn.board, eng, person, args.size, args.komi, args.handicap,
                                  args.max_moves, None if args.quiet else _say)
        record = conn.board.send("gogadget-sgf")
        if args.out:
            with open(args.out, "w") as f:
                f.write(record + "\n")
        print("result %s, %d moves%s" % (result or "?", len(moves),
                                         ", saved " + args.out if args.out else ""), flush=True)
    except GtpError as e:
        print("gogadget play: %s" % e, file=sys.stderr)
        return 1
    finally:
        eng.close()
        conn.close()
    return 0


def _say(text):
    print(text, flush=True)


def valid_game_name(name):
    # The board only serves NNNN.sgf; never trust a name from the wire for a path.
    return len(name) == 8 and name.endswith(".sgf") and name[:4].isdigit()


def cmd_pull(args):
    conn = Connection(args)
    try:
        names = [n for n in conn.board.send("gogadget-games").split() if n]
        os.makedirs(args.dest, exist_ok=True)
        got = 0
        for name in names:
            if not valid_game_name(name):
                print("skipping odd name %r" % name, file=sys.stderr)
                continue
            path = os.path.join(args.dest, name)
            if os.path.exists(path) and not args.force:
                continue
            text = conn.board.send("gogadget-fetch " + name)
            tmp = path + ".part"
            with open(tmp, "w") as f:
                f.write(text + "\n")
            os.replace(tmp, path)
            got += 1
        print("%d games on the board, %d downloaded to %s" % (len(names), got, args.dest))
    except GtpError as e:
        print("gogadget pull: %s" % e, file=sys.stderr)
        return 1
    finally:
        conn.close()
    return 0


def cmd_watch(args):
    conn = Connection(args)
    n = 0
    try:
        while args.count <= 0 or n < args.count:
            status = conn.board.send("gogadget-status")
            diagram = conn.board.send("showboard")
            evs = conn.board.send("gogadget-events")
            if not args.plain:
                sys.stdout.write("\x1b[H\x1b[2J")
            sys.stdout.write(diagram.strip("\n") + "\n" + status + "\n")
            if evs:
                sys.stdout.write(evs + "\n")
            sys.stdout.flush()
            n += 1
            if args.count <= 0 or n < args.count:
                time.sleep(args.interval)
    except KeyboardInterrupt:
        pass
    except GtpError as e:
        print("gogadget watch: %s" % e, file=sys.stderr)
        return 1
    finally:
        conn.close()
    return 0


def parser():
    p = argparse.ArgumentParser(prog="gogadget", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gtp", help="the board as a GTP engine on stdin/stdout")
    _add_board_options(g)
    g.set_defaults(func=cmd_gtp)
    pl = sub.add_parser("play", help="play the person at the board against a GTP engine")
    _add_board_options(pl)
    pl.add_argument("--engine", required=True, help='engine command, e.g. "gnugo --mode gtp --level 1"')
    pl.add_argument("--colour", "--color", default="black", choices=("black", "white", "b", "w"),
                    help="the person's colour")
    pl.add_argument("--size", type=int, default=19)
    pl.add_argument("--komi", type=float, default=7.5)
    pl.add_argument("--handicap", type=int, default=0)
    pl.add_argument("--out", default=None, help="save the game record here")
    pl.add_argument("--max-moves", type=int, default=0, help="stop after this many moves (0: no limit)")
    pl.add_argument("--quiet", action="store_true")
    pl.add_argument("--gui", action="store_true",
                    help="--sim: you play at the simulator's window instead of a simulated person")
    pl.set_defaults(func=cmd_play)
    pu = sub.add_parser("pull", help="download the games stored on the board")
    _add_board_options(pu)
    pu.add_argument("--dest", default="games")
    pu.add_argument("--force", action="store_true", help="overwrite games already downloaded")
    pu.set_defaults(func=cmd_pull)
    w = sub.add_parser("watch", help="mirror the board in the terminal")
    _add_board_options(w)
    w.add_argument("--interval", type=float, default=0.5)
    w.add_argument("--count", type=int, default=0, help="stop after this many refreshes (0: never)")
    w.add_argument("--plain", action="store_true", help="no screen clearing (for logs)")
    w.set_defaults(func=cmd_watch)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except (LinkClosed, OSError) as e:
        print("gogadget %s: %s" % (args.command, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
