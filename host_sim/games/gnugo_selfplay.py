"""Make a GNU Go self-play record for the replay games (see README.md).

One GNU Go process over GTP plays both colours (genmove black, genmove
white, ...) until two passes in a row or a resignation; the result is GNU
Go's final_score.  The record is written with sgfmill.

    python -m host_sim.games.gnugo_selfplay --size 9 --seed 1 --level 8 OUT.sgf
"""
import argparse
import subprocess
import sys

from sgfmill import common, sgf

GNUGO = "/usr/games/gnugo"


class Gtp:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("GNU Go closed the line after %r" % command)
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        reply = " ".join(lines)
        if not reply.startswith("="):
            raise RuntimeError("%s: %s" % (command, reply))
        return reply[1:].strip()

    def close(self):
        self.ask("quit")
        self.proc.wait(timeout=10)


def self_play(size, komi, seed, level, max_moves=400):
    """(moves, result): moves as [(colour 'b'/'w', (row, col) or None)]."""
    gtp = Gtp([GNUGO, "--mode", "gtp", "--seed", str(seed), "--level", str(level)])
    try:
        gtp.ask("boardsize %d" % size)
        gtp.ask("clear_board")
        gtp.ask("komi %s" % komi)
        moves = []
        colour = "b"
        while len(moves) < max_moves:
            vertex = gtp.ask("genmove " + ("black" if colour == "b" else "white"))
            if vertex.lower() == "resign":
                return moves, ("W" if colour == "b" else "B") + "+R"
            moves.append((colour, common.move_from_vertex(vertex, size)))
            if len(moves) >= 2 and moves[-1][1] is None and moves[-2][1] is None:
                break
            colour = "w" if colour == "b" else "b"
        return moves, gtp.ask("final_score")
    finally:
        gtp.close()


def record(size, komi, seed, level, moves, result):
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("RU", "Japanese")
    root.set("PB", "GNU Go 3.8 level %d" % level)
    root.set("PW", "GNU Go 3.8 level %d" % level)
    root.set("RE", result)
    root.set("GN", "GNU Go self-play, seed %d" % seed)
    for colour, move in moves:
        game.extend_main_sequence().set_move(colour, move)
    return game.serialise()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=6.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", type=int, default=8)
    args = ap.parse_args(argv)
    moves, result = self_play(args.size, args.komi, args.seed, args.level)
    with open(args.out, "wb") as f:
        f.write(record(args.size, args.komi, args.seed, args.level, moves, result))
    print("%s: %d moves, %s" % (args.out, len(moves), result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
