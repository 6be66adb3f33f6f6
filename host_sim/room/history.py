"""The relay's rules-core Board with every earlier position indexed, so
superko costs O(1) a move (issue 36, finding 9).

The firmware's Board (gogadget/board.py) keeps a 30-bit Zobrist key per
position and a 1024-bucket filter that proves most positions new; past a
thousand positions the filter is full, and each move looks through the
whole history: a new game's 8 KB snapshot (about 1300 moves) cost the
relay ~40 ms under positional or situational superko.  On the Pico that
is the right trade (no heap); on the host memory is cheap.

HashedBoard is that Board, unchanged in every rule, with one addition: the
positions of its history (0 .. moves) counted in a dict by a key of the
whole position: the host's hash of the cells, so equal positions have
equal keys and no repetition is missed, while a collision (the hash is
random per process: no board can aim at one) only costs the firmware's
own look.  When a move's key is no earlier position's, the firmware's
superko could find no repetition either, so OK is answered at once;
otherwise the firmware's own check decides, as on the board: the host
never re-implements a rule.
"""
from gogadget.board import OK, Board
from gogadget.rules import KO_POSITIONAL, KO_SITUATIONAL

SUPERKO = (KO_POSITIONAL, KO_SITUATIONAL)


def board_for(ko):
    """The Board class for a game under this ko rule."""
    return HashedBoard if ko in SUPERKO else Board


class HashedBoard(Board):
    """gogadget.board.Board with an exact index of its history's positions,
    for a game under superko (positional or situational: the ko rules that
    look further back than the last two moves; judge.build_board makes a
    plain Board for the others)."""

    def clear(self):
        super().clear()
        self._reindex()

    def _reindex(self):
        here = hash(bytes(self.cells))
        self._path = [here]  # position i's key, i = 0 .. moves
        self._times = {here: 1}  # key -> how many positions of the path have it
        self._here = here

    def setup(self, colour, pt):
        super().setup(colour, pt)
        self._reindex()  # position 0 is the set-up position

    def _repetition(self, i, colour, n):
        here = self._here = hash(bytes(self.cells))
        if here not in self._times:
            return OK  # no earlier position is this one: no superko to find
        return super()._repetition(i, colour, n)

    def _count(self, colour, n):
        # (The firmware calls this once a play is kept.)
        super()._count(colour, n)
        self._add(self._here)

    def pass_move(self, colour):
        super().pass_move(colour)
        self._add(self._path[-1])  # the same position again

    def _add(self, here):
        self._path.append(here)
        self._times[here] = self._times.get(here, 0) + 1

    def _unmake(self):
        # A take-back, or a play refused after it was made: either way the
        # path ends at the position now on the board.
        super()._unmake()
        path, times = self._path, self._times
        while len(path) > self.moves + 1:
            here = path.pop()
            if times[here] == 1:
                del times[here]
            else:
                times[here] -= 1
