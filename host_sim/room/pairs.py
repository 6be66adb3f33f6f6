"""Two boards playing one game: when their pair messages bind them, which card shows it."""


def lead(a, ca, b, cb):
    """Of two boards' records of one paired game (a played as colour ca, b
    as cb), the one whose card shows it: the same moves (Black's), or the
    one a move ahead with its own player's move (the move its board just
    took, which the other board has still to place).  None when they are not
    one game so: a board can then neither hide another's moves behind its
    own record nor show moves on its behalf (docs/ROOM.md, Threat model)."""
    x, y = a.moves, b.moves
    if len(x) == len(y):
        return (a if ca == "B" else b) if x == y else None
    if len(x) == len(y) + 1 and x[-1][0] == ca and x[:-1] == y:
        return a
    if len(y) == len(x) + 1 and y[-1][0] == cb and y[:-1] == x:
        return b
    return None



class Pairs:
    """The pairing side of games.Room (its boards, _touch)."""

    def _unpair(self, board_id):
        st = self.boards.get(board_id)
        if st is None or st.pair is None:
            return "duplicate"
        other = self.boards.get(st.pair["opponent"])
        st.pair = None
        self._touch(st)
        if other is not None:
            self._touch(other)
        return "applied"

    def paired(self, st):
        """The opponent's BoardState while the two boards play one game: both
        pair messages agree (the same game id, each naming the other, the
        two colours) and both boards show the same game (size, komi, rules,
        set-up, and the same moves, or one board a move ahead with its own
        player's move: lead()).  The pairing belongs to the two games it
        was first seen on (neither of them over), and ends with either (see
        _end_pair); else None.  So no board can hide another's card by
        naming it, and a pair message left from an earlier game counts for
        nothing."""
        p = st.pair
        if p is None or st.game is None:
            return None
        other = self.boards.get(p["opponent"])
        q = other.pair if other is not None else None
        if q is None or q["pair"] != p["pair"] or q["opponent"] != st.id \
                or q["colour"] == p["colour"] or other.game is None:
            return None
        a, b = st.game, other.game
        if p["game"] is not None or q["game"] is not None:
            if p["game"] != a.game or q["game"] != b.game:
                return None  # bound to two other games
        elif a.phase == "over" or b.phase == "over":
            return None  # a finished game takes up no pairing
        if (a.size, a.komi, a.rules, a.setup, a.handicap) \
                != (b.size, b.komi, b.rules, b.setup, b.handicap) \
                or (a.phase == "over" and b.phase == "over"):
            return None  # two games, or one game over (its pairing with it)
        if lead(a, p["colour"], b, q["colour"]) is None:
            return None
        if p["game"] is None:
            p["game"], q["game"] = a.game, b.game  # bound to these two games
        return other

    def _end_pair(self, st, g):
        """st's game g is over or replaced: the pairing bound to it is spent,
        and so is the opponent's pair message if it named st for the same
        game; neither id is taken from them again.  (A pair message not yet
        bound to a game -- one that came before its game's first snapshot --
        is the next game's, and stays.)"""
        p = st.pair
        if p is None or p["game"] != g.game:
            return
        other = self.boards.get(p["opponent"])
        for b in (st, other):
            if b is not None and b.pair is not None and b.pair["pair"] == p["pair"] \
                    and (b is st or b.pair["opponent"] == st.id):
                b.ended_pairs.add(b.pair["pair"])
                b.pair = None
                self._touch(b)
