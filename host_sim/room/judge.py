"""The relay's check of a game by the firmware's rules core: each move, and its result."""
import re

from gogadget import score
from gogadget.board import OK, REASONS
from gogadget.points import BLACK, EMPTY, PASS, WHITE, parse_sgf_coord
from gogadget.rules import KO_NONE, PRESETS, SUICIDE_ALLOWED, Rules
from host_sim.room.game import COLOUR
from host_sim.room.history import board_for

_COUNTED = re.compile(r"([BW])\+(\d+(?:\.\d+)?)|0|Draw")


def game_rules(name):
    """The firmware's Rules for a snapshot's `rules` (a preset's name), or
    None when the relay cannot name them ("custom", unknown)."""
    return Rules(name) if name in PRESETS else None


def build_board(size, setup, moves, rules="", handicap=0):
    """A rules-core Board after setup and moves, with the game's own ko and
    suicide rules (anything goes under rules it cannot name); ValueError
    naming the first move it refuses.  (Under superko a HashedBoard: the
    firmware's Board with its positions indexed, so superko is O(1) a move.)"""
    r = game_rules(rules)
    ko = r.ko if r else KO_NONE
    bd = board_for(ko)(size, ko=ko, suicide=r.suicide if r else SUICIDE_ALLOWED,
                       capacity=max(64, 2 * len(moves)))
    for c, p in setup:
        bd.setup(COLOUR[c], parse_sgf_coord(size, p))
    if handicap and len(setup) == handicap and all(c == "B" for c, _ in setup):
        bd.handicap = handicap
        bd.first = WHITE
    elif setup:
        bd.first = EMPTY  # a set-up position: either side may begin
    for i, (c, p) in enumerate(moves):
        play_move(bd, c, p, i + 1)
    return bd


def play_move(bd, c, p, n):
    pt = parse_sgf_coord(bd.size, p)  # ValueError if off this board
    colour = COLOUR[c]
    turn = bd.to_move()
    if turn == EMPTY and bd.moves == 0:
        bd.first = colour  # a set-up position: the first move says who began
    elif colour != turn:
        raise ValueError("move %d %s[%s] is out of turn (%s to play)" % (n, c, p, "?BW"[turn]))
    if pt == PASS:
        bd.pass_move(colour)
        return
    why = bd.play(colour, pt)
    if why != OK:
        raise ValueError("move %d %s[%s] is %s" % (n, c, p, REASONS[why]))


def check_result(g):
    """The verdict on g's result: "checked" or "claim"; ValueError when no
    position and rules could give it (see the module notes)."""
    m = _COUNTED.fullmatch(g.result)
    if m is None:
        return "claim"  # R, T, F, Void, ?: nothing on the board says
    rules = game_rules(g.rules)
    if rules is None:
        return "claim"
    bd = g.bd
    if not score.game_over(bd, rules):
        raise ValueError("a count (%s) before the game is over by its rules (two passes)"
                         % g.result)
    claimed = 0.0 if m.group(1) is None else float(m.group(2)) * (1 if m.group(1) == "B" else -1)
    own = score.count(bd, rules, None, g.komi)
    if own.result == g.result or (claimed == 0 and own.black == own.white):
        return "checked"
    # Dead stones (the players') move the margin between these two ends.
    stones = [[], [], []]
    for pt in bd.points():
        if bd.cells[pt] in (BLACK, WHITE):
            stones[bd.cells[pt]].append(pt)
    best = score.count(bd, rules, stones[WHITE], g.komi)
    worst = score.count(bd, rules, stones[BLACK], g.komi)
    lo, hi = worst.black - worst.white, best.black - best.white
    frac = (own.black - own.white) % 1
    if not lo - 1e-9 <= claimed <= hi + 1e-9 or abs((claimed - frac) % 1) > 1e-9:
        raise ValueError("%s is not a count of this position with komi %s (between %s and %s)"
                         % (g.result, g.komi, _margin(lo), _margin(hi)))
    return "claim"


def _margin(v):
    return "B+%g" % v if v > 0 else "W+%g" % -v if v < 0 else "0"

