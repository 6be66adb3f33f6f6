"""What one snapshot costs the relay under each rule preset (issue 36,
finding 9): a new game's ~8 KB snapshot (about 1300 moves on 19x19, every
one checked with the game's own ko rule by the firmware's rules core), and
the same game's next snapshot (one move more).  Superko looks through the
positions before each move: the relay keeps them hashed (history.py), so a
snapshot's check grows with its moves, not with their square.

    .venv/bin/python -m host_sim.bench relayrules
"""
import json
import random
import time

from gogadget.board import OK, Board
from gogadget.points import BLACK, EMPTY, sgf_coord
from gogadget.rules import KO_POSITIONAL, PRESETS, SUICIDE_FORBIDDEN

SIZE = 19
LIMIT = 8000  # bytes of moves: the 8 KB message bound, less the header
RUNS = 7


def long_game(seed=1, limit=LIMIT - 300):
    """Random legal moves on 19x19 (legal under every preset: made under
    positional superko with suicide forbidden, the strictest of them),
    mostly not filling one's own eyes, so stones are taken and the board
    fills again: as SGF move nodes, about `limit` bytes."""
    rng = random.Random(seed)
    bd = Board(SIZE, KO_POSITIONAL, SUICIDE_FORBIDDEN, capacity=2048)
    pts = bd.points()
    w = bd.stride
    text = []
    size = 0
    colour = BLACK
    while size < limit:
        rng.shuffle(pts)
        node = ";%s[]" % "BW"[colour - 1]
        for pt in pts:
            if bd.cells[pt] != EMPTY:
                continue
            if all(bd.cells[q] in (colour, 3) for q in (pt - 1, pt + 1, pt - w, pt + w)) \
                    and rng.random() < 0.9:
                continue
            if bd.play(colour, pt) == OK:
                node = ";%s[%s]" % ("BW"[colour - 1], sgf_coord(SIZE, pt))
                break
        else:
            bd.pass_move(colour)
        text.append(node)
        size += len(node)
        colour = 3 - colour
    return "".join(text)


def snapshot(game, seq, rules, moves):
    return json.dumps({"v": 1, "game": game, "seq": seq, "size": SIZE, "komi": 6.5,
                       "rules": rules, "moves": moves, "phase": "play"},
                      separators=(",", ":")).encode()


def measure(moves, rules, runs=RUNS):
    """(new game ms, next snapshot ms): the best of `runs` fresh relays (the
    cost itself: on a shared machine the others only add what else ran)."""
    from gogadget.roomnames import T_GAME, topic
    from host_sim.room.games import Room
    t = topic("b1", T_GAME)
    nodes = moves.split(";")[1:]
    short = "".join(";" + n for n in nodes[:-1])
    new, nxt = [], []
    for _ in range(runs):
        room = Room()
        assert room.handle(t, snapshot(1, 1, rules, "")) == "applied"
        first = snapshot(2, len(nodes) - 1, rules, short)
        t0 = time.perf_counter()
        what = room.handle(t, first)
        new.append(time.perf_counter() - t0)
        assert what == "applied", what
        second = snapshot(2, len(nodes), rules, moves)
        t0 = time.perf_counter()
        what = room.handle(t, second)
        nxt.append(time.perf_counter() - t0)
        assert what == "applied", what
    return min(new) * 1000, min(nxt) * 1000


def main():
    moves = long_game()
    print("a new game's snapshot of %d moves (%d bytes of moves) and its next snapshot, "
          "best of %d" % (moves.count(";"), len(moves), RUNS))
    print("%-14s %-12s %14s %14s" % ("preset", "ko", "new game ms", "next ms"))
    ko_names = {0: "none", 1: "simple", 2: "previous", 3: "positional", 4: "situational"}
    for name in PRESETS:
        a, b = measure(moves, name)
        print("%-14s %-12s %14.1f %14.2f" % (name, ko_names[PRESETS[name][0]], a, b), flush=True)
    a, b = measure(moves, "custom")
    print("%-14s %-12s %14.1f %14.2f" % ("custom", "none", a, b), flush=True)


if __name__ == "__main__":
    main()
