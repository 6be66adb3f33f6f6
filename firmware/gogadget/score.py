"""Counting a finished game: area or territory, dead stones, komi, result.

Area scoring (000 and 002 Rules 9-10): a player's score is their stones on
the board plus the empty points only their stones surround.  Prisoners and
pass stones are not part of an area score.

Territory scoring (001, 003, 004): a player's score is their territory plus
their prisoners: stones they captured, the opponent's dead stones, and, when
rules.pass_stones is on (003), one stone for every opponent pass.

Dead stones are taken off a private copy of the board first, so their
points join the surrounding territory; `dead` names points, and every point
marks its whole chain (a chain lives or dies as one).

Seki, under territory scoring only (Japanese practice: the eyes of stones in
seki are not territory).  The precise rule used here, after dead stones are
removed:
  * a *seki point* is an empty point that touches both colours where a play
    by either colour would capture nothing and leave the played stone's
    chain with at most one liberty ("neither player can afford to play at
    x, y or z", 003 Diagram 14);
  * a *chain in seki* is a chain that has a seki point as a liberty;
  * an empty region bordered by one colour only is territory unless one of
    the chains bordering it is in seki.
Area scoring counts seki stones and their eyes like any others (002: "no
special exceptions for territory in a seki").  tests/test_oracle_score.py
checks both counts against GNU Go's on finished games with seki.

Counting is not on the scan loop's hot path: it allocates one work copy of
the board and a few buffers per call.
"""

from gogadget.compat import const, zeros
from gogadget.points import EMPTY, BLACK, WHITE, EDGE, colour_name
from gogadget.rules import (SCORING_AREA, TIE_WHITE, game_over, komi_prisoners,  # noqa: F401 (score.game_over)
                            format_points)

_DEAD = const(4)  # work-copy marks: a dead stone's point (empty for the fill)


class Count:
    """The count of one position.  Lists are indexed by colour ([0] unused).

    black, white: totals, komi and compensation included
    result: "B+3.5", "W+0.5", "0" (SGF RE / GTP final_score text)
    winner: BLACK, WHITE or EMPTY (a draw)
    owner: bytearray by point, BLACK/WHITE where the point scores for that
        colour under the rule in use, EMPTY elsewhere (for the LEDs)
    territory: empty points counted as territory under the rule in use
    area: stones left on the board plus every empty point they surround
        (seki eyes included), i.e. the area score before komi
    stones: live stones on the board; dead: stones marked dead;
    prisoners: captured stones + the opponent's dead stones (+ pass stones)
    komi: what White receives on top (komi, komi prisoners, compensation)
    seki: number of seki points found
    """

    owner: "bytearray | None"  # for the type checker: None until counted

    def __init__(self):
        self.black = 0
        self.white = 0
        self.result = "0"
        self.winner = EMPTY
        self.owner = None
        self.territory = [0, 0, 0]
        self.area = [0, 0, 0]
        self.stones = [0, 0, 0]
        self.dead = [0, 0, 0]
        self.prisoners = [0, 0, 0]
        self.komi = 0
        self.seki = 0

    def __repr__(self):
        return "Count(%s B=%s W=%s)" % (self.result, format_points(self.black),
                                         format_points(self.white))


# The helpers' arguments: cells, the work copy of the board (dead stones
# off); todo, the flood's stack of points; mark, a byte per point.


def _chain_neighbours(cells, todo, mark, start, w):
    # Flood over one colour from start; returns the chain's length in todo.
    colour = cells[start]
    mark[start] = 1
    todo[0] = start
    n = 1
    k = 0
    while k < n:
        p = todo[k]
        k += 1
        for q in (p - 1, p + 1, p - w, p + w):
            if cells[q] == colour and not mark[q]:
                mark[q] = 1
                todo[n] = q
                n += 1
    return n


def _self_atari(cells, todo, mark, pt, colour, w):
    """Would `colour` at pt capture nothing and end with <= 1 liberty?
    (cells is restored afterwards)."""
    opp = 3 - colour
    cells[pt] = colour
    result = True
    for q in (pt - 1, pt + 1, pt - w, pt + w):
        if cells[q] == opp and _liberties(cells, todo, mark, q, w, 1) == 0:
            result = False  # it captures: a fill, not a seki
            break
    if result:
        result = _liberties(cells, todo, mark, pt, w, 2) <= 1
    cells[pt] = EMPTY
    return result


def _liberties(cells, todo, mark, start, w, n):
    """Liberties of the chain at start, counting no further than n."""
    for i in range(len(mark)):
        mark[i] = 0
    libs = 0
    for k in range(_chain_neighbours(cells, todo, mark, start, w)):
        p = todo[k]
        for q in (p - 1, p + 1, p - w, p + w):
            if cells[q] == EMPTY and mark[q] != 2:
                mark[q] = 2
                libs += 1
                if libs >= n:
                    return libs
    return libs


def count(board, rules, dead=None, komi=None):
    """Count the position on `board` under `rules`; see the module notes.

    Raises ValueError if a dead point holds no stone."""
    w = board.stride
    cells = board.cells
    work = bytearray(cells)
    n = len(work)
    mark = bytearray(n)
    stack = zeros("H", n)
    c = Count()

    if dead is not None:
        for pt in dead:
            if not 0 < pt < n or cells[pt] not in (BLACK, WHITE):
                raise ValueError("dead point %s holds no stone" % pt)
            if work[pt] == _DEAD:
                continue
            for i in range(n):
                mark[i] = 0
            k = _chain_neighbours(work, stack, mark, pt, w)
            colour = work[pt]
            c.dead[colour] += k
            for j in range(k):
                work[stack[j]] = _DEAD
        for i in range(n):
            if work[i] == _DEAD:
                work[i] = EMPTY

    territory_rule = rules.scoring != SCORING_AREA

    # Seki points and the chains that touch them (territory scoring only).
    in_seki = bytearray(n)
    if territory_rule:
        seki_pts = []
        for pt in range(n):
            if work[pt] != EMPTY:
                continue
            touches = 0
            for q in (pt - 1, pt + 1, pt - w, pt + w):
                v = work[q]
                if v == BLACK or v == WHITE:
                    touches |= v
            if touches == 3 and _self_atari(work, stack, mark, pt, BLACK, w) \
                    and _self_atari(work, stack, mark, pt, WHITE, w):
                seki_pts.append(pt)
        c.seki = len(seki_pts)
        for pt in seki_pts:
            for q in (pt - 1, pt + 1, pt - w, pt + w):
                if (work[q] == BLACK or work[q] == WHITE) and not in_seki[q]:
                    for i in range(n):
                        mark[i] = 0
                    k = _chain_neighbours(work, stack, mark, q, w)
                    for j in range(k):
                        in_seki[stack[j]] = 1

    # Empty regions: who borders them, and whether a seki chain does.
    owner = bytearray(n)
    for i in range(n):
        mark[i] = 0
    for pt in range(n):
        v = work[pt]
        if v == BLACK or v == WHITE:
            c.stones[v] += 1
            if not territory_rule:
                owner[pt] = v
            continue
        if v != EMPTY or mark[pt]:
            continue
        mark[pt] = 1
        stack[0] = pt
        size_r = 1
        k = 0
        borders = 0
        seki = False
        while k < size_r:
            p = stack[k]
            k += 1
            for q in (p - 1, p + 1, p - w, p + w):
                u = work[q]
                if u == EMPTY:
                    if not mark[q]:
                        mark[q] = 1
                        stack[size_r] = q
                        size_r += 1
                elif u != EDGE:
                    borders |= u
                    if in_seki[q]:
                        seki = True
        if borders == BLACK or borders == WHITE:
            c.area[borders] += size_r
            if territory_rule and seki:
                continue
            c.territory[borders] += size_r
            for j in range(size_r):
                owner[stack[j]] = borders
    c.owner = owner
    for colour in (BLACK, WHITE):
        c.area[colour] += c.stones[colour]

    for colour in (BLACK, WHITE):
        opp = 3 - colour
        p = board.prisoners[colour] + c.dead[opp]
        if rules.pass_stones:
            p += board.passes[opp]  # 002 concise 4, 003: a pass hands over a stone
        c.prisoners[colour] = p
    # What White receives on top of the board count.  004 pays komi as
    # prisoners (5/4/3 by board size) before an even game and none in a
    # handicap game; that replaces the komi value altogether.  Otherwise
    # komi (the override, or the preset's) plus the handicap compensation
    # of area scoring.
    if rules.komi_prisoners:
        bonus = komi_prisoners(board.size) if board.handicap < 2 else 0
    else:
        bonus = (rules.komi if komi is None else komi) + rules.compensation_points(board.handicap)
    c.komi = bonus
    if territory_rule:
        c.black = c.territory[BLACK] + c.prisoners[BLACK]
        c.white = c.territory[WHITE] + c.prisoners[WHITE] + bonus
    else:
        c.black = c.area[BLACK]
        c.white = c.area[WHITE] + bonus

    margin = c.black - c.white
    if margin > 0:
        c.winner = BLACK
    elif margin < 0:
        c.winner = WHITE
    elif rules.tie == TIE_WHITE and board.handicap < 2:
        # 004: "in case the numbers of points are equal, the white player is
        # considered to be the winner (except for a game with a handicap)":
        # "W+0".
        c.winner = WHITE
    if c.winner != EMPTY:
        c.result = colour_name(c.winner) + "+" + format_points(abs(margin))
    return c
