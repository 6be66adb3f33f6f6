"""Seeded random games full of captures, kos and suicide attempts, for the
oracle tests (GNU Go, sgfmill).  Moves are chosen with our Board, but every
turn is checked against the oracle before the move is made, so a wrong
Board cannot steer a game unnoticed."""
import random

from gogadget.board import Board, OK
from gogadget.points import BLACK, WHITE, EMPTY, PASS
from gogadget.ruleopts import KEYS


def new_board(size, ko="simple", suicide="forbidden"):
    return Board(size, ko=KEYS["ko"][1].index(ko), suicide=KEYS["suicide"][1].index(suicide))


def outcomes(board, colour):
    """{point: reason} for every point, and {point: (captured, self_capture)}
    for the legal ones (play and take back each point)."""
    reasons = {}
    legal = {}
    cells = board.cells
    for p in board.points():
        r = board.play(colour, p)
        reasons[p] = r
        if r == OK:
            n = board.last_captures
            self_capture = cells[p] == EMPTY
            # A ko shape: one stone taken by a lone stone left in atari.
            ko = (n == 1 and not self_capture and board.chain_liberties(p) == 1
                  and len(board.chain(p)) == 1)
            legal[p] = (n, self_capture, ko)
            board.undo()
    return reasons, legal


def _weight(board, colour, p, info):
    captured, self_capture, ko = info
    if ko:
        return 40  # kos and their repetitions are what the oracles are for
    if captured and not self_capture:
        return 12  # captures make kos and space for long games
    if self_capture:
        return 3
    cells = board.cells
    w = board.stride
    weight = 1
    for q in (p - 1, p + 1, p - w, p + w):
        c = cells[q]
        if c == 3 - colour:
            weight += 3 if board.chain_liberties(q) <= 2 else 1
        elif c == colour:
            weight += 1
    return weight


def choose(board, colour, legal, rng, pass_rate=0.03):
    if not legal or rng.random() < pass_rate:
        return PASS
    pts = sorted(legal)
    weights = [_weight(board, colour, p, legal[p]) for p in pts]
    return rng.choices(pts, weights)[0]


def random_game(size, seed, length, ko="simple", suicide="forbidden", twice_rate=0.0):
    """[(colour, point)] of a random game; twice_rate: how often the same
    colour moves again (GTP allows any colour to play)."""
    rng = random.Random(seed)
    board = new_board(size, ko, suicide)
    colour = BLACK
    moves = []
    for _ in range(length):
        _, legal = outcomes(board, colour)
        p = choose(board, colour, legal, rng)
        if p == PASS:
            board.pass_move(colour)
        else:
            assert board.play(colour, p) == OK
        moves.append((colour, p))
        if rng.random() >= twice_rate:
            colour = 3 - colour
    return moves


def stones(board, colour):
    return sorted(p for p in board.points() if board.cells[p] == colour)


__all__ = ["new_board", "outcomes", "choose", "random_game", "stones", "BLACK", "WHITE", "PASS"]
