"""The rules core: a Go position with plays, passes, captures, undo and ko.

The board is a bordered bytearray (see points.py), every work buffer is
allocated once in __init__, and play() allocates nothing in the common case,
so it can run inside the scan loop of a microcontroller.

History is kept as a move log (point, colour, captured stones) plus one
30-bit Zobrist key per position.  A key match is only a hint: superko is
decided by rebuilding the earlier position from the log and comparing it
point by point, so a key collision can never forbid a legal move.

Longer than 500 lines because play, capture, superko and undo are one job
on one move log and one set of work buffers, and every phase of the board
holds this module (host_sim/tools/memory.py's CORE): split, it would cost
every phase a second module object, its globals and its names, for no
phase that could do without either half.
"""
from array import array

from gogadget.compat import const, zeros
from gogadget.points import EMPTY, BLACK, WHITE, EDGE, PASS, check_size
from gogadget.rules import (KO_NONE, KO_SIMPLE, KO_PREVIOUS,
                            KO_SITUATIONAL, SUICIDE_FORBIDDEN, SUICIDE_MULTI)

# Why a play is refused.  Index into REASONS for the words.
OK = const(0)
OCCUPIED = const(1)
SUICIDE = const(2)
KO = const(3)
SUPERKO = const(4)
OFF_BOARD = const(5)
REASONS = ("ok", "occupied", "suicide", "ko", "superko", "off board")

_SELF_CAPTURE = const(4)  # flag in the move log: the move removed its own chain
# (Superko scans the whole history of keys, a viper loop on the Pico: with
# it Board.play under positional superko takes 0.52 ms there on average,
# hardware/README.md.  A counting filter in front of it, which proved most
# positions new without the scan, held 512-1,024 bytes of heap at the paired
# Pico W's lowest point for less than a tenth of that.)


# Position keys (Zobrist): one 30-bit key per point for black; white's is
# the same key rotated by 7 bits within 30 (key()).  Black's key is
# computed from the point, not kept in a table (a table was 1.7 KB of heap
# on 19x19): two 15-bit halves, each the middle bits of the square of an
# affine map of the point, so the keys are unrelated bit patterns, as
# random ones would be (tests/test_board.py: all distinct, and as often
# linearly dependent as random keys).  Every product stays below 2**30, a
# small int; hw/vipergame.py's remove computes the same in machine words.
# A key only speeds up the search: a match is confirmed point by point
# (_same_position), so no key decides a move.
_ROT_LOW = const(0x7FFFFF)
_KA = const(7907)
_KB = const(1031)
_KC = const(4099)
_KD = const(2719)


def point_key(pt):
    """Black's key on pt."""
    x = (pt * _KA + _KB) & 0x7FFF
    y = (pt * _KC + _KD) & 0x7FFF
    return ((x * x) >> 7 & 0x7FFF) << 15 | ((y * y) >> 11 & 0x7FFF)


def key(pt, colour):
    """The key of a colour's stone on pt (hw/vipergame.py's remove does the same)."""
    k = point_key(pt)
    if colour == WHITE:
        k = (k & _ROT_LOW) << 7 | k >> 23
    return k


# The flood fill, the capture and the history search: viper twins on the
# RP2040 (hw/rp2fast.py installs them with use_fast()), the plain loops of
# boardplain.py elsewhere (loaded when the first Board is made), so the
# Pico holds no bytecode it never runs.
_FAST = [None, None, None]  # type: list


def use_fast(liberty, remove, find):
    """Run the flood fill, the capture and the history search as the given
    functions (boardplain's signatures)."""
    _FAST[0] = liberty
    _FAST[1] = remove
    _FAST[2] = find


def _plain():
    from gogadget import boardplain as p
    use_fast(p.liberty, p.remove, p.find)


class Board:
    """A position and how it came about.

    `ko` and `suicide` take the constants of rules.py.  Colours are explicit
    in every call, so the board serves GTP (any colour may play) and the
    referee (which keeps the turn) alike.
    """

    def __init__(self, size, ko=KO_SIMPLE, suicide=SUICIDE_FORBIDDEN, capacity=256):
        check_size(size)
        if _FAST[0] is None:
            _plain()
        self.size = size
        self.ko = ko
        self.suicide = suicide
        w = size + 1
        self.stride = w
        n = w * (size + 2)
        self.cells = bytearray(n)
        self._mark = bytearray(n)
        self._gen = 0
        self._nfill = 0
        self._stack = zeros("H", size * size)
        self._capacity = 0
        self._grow(capacity)
        self.clear()

    def _grow(self, capacity):
        # Rare (past the preallocated capacity), so allocation is accepted here.
        extra = capacity - self._capacity
        if self._capacity == 0:
            self._log_pt = zeros("H", capacity)
            self._log_info = bytearray(capacity)
            self._log_ncap = zeros("H", capacity)
            self._history = zeros("i", capacity + 1)
            # Captured stones, a quarter of the moves (random games
            # capture about that, real ones less); more when they come.
            self._captured = zeros("H", capacity // 4)
        else:
            self._log_pt.extend(array("H", bytes(2 * extra)))
            self._log_info.extend(bytearray(extra))
            self._log_ncap.extend(array("H", bytes(2 * extra)))
            self._history.extend(array("i", bytes(4 * extra)))
        self._capacity = capacity

    def clear(self):
        """Empty board, no history, no prisoners."""
        size = self.size
        w = self.stride
        cells = self.cells
        for i in range(len(cells)):
            cells[i] = EDGE
        for r in range(size):
            base = (r + 1) * w
            for c in range(size):
                cells[base + c] = EMPTY
        self.moves = 0
        self.hash = 0
        self._history[0] = 0
        self._ncaptured = 0
        self.prisoners = [0, 0, 0]  # indexed by colour: stones that colour captured
        self.passes = [0, 0, 0]  # indexed by colour
        self.handicap = 0
        self.first = BLACK  # who plays first: White after handicap stones
        self.last_captures = 0
        self._selfcap = 0
        self.setup_stones = []  # (colour, point) put by setup(), in that order

    # -- set-up -------------------------------------------------------------

    def setup(self, colour, pt):
        """Put a stone before the first move (handicap, loaded positions)."""
        if self.moves:
            raise ValueError("setup after moves")
        if self.cells[pt] != EMPTY:
            raise ValueError("occupied")
        self.cells[pt] = colour
        self.setup_stones.append((colour, pt))
        self.hash ^= key(pt, colour)
        self._history[0] = self.hash

    # -- queries ------------------------------------------------------------

    def on_board(self, pt):
        return 0 < pt < len(self.cells) and self.cells[pt] != EDGE

    def points(self):
        """Every on-board point, bottom row first (allocates; not for hot paths)."""
        w = self.stride
        return [(r + 1) * w + c for r in range(self.size) for c in range(self.size)]

    def to_move(self):
        if self.moves == 0:
            return self.first
        return 3 - (self._log_info[self.moves - 1] & 3)

    def last_move(self):
        """(colour, point) of the last move, point PASS for a pass; None at start."""
        if self.moves == 0:
            return None
        i = self.moves - 1
        return self._log_info[i] & 3, self._log_pt[i]

    def move(self, i):
        """(colour, point) of move i (0-based)."""
        return self._log_info[i] & 3, self._log_pt[i]

    def captured_stones(self, i=-1):
        """Points removed by move i (default the last), as a new list."""
        if i < 0:
            i += self.moves
        end = self._ncaptured  # the log's end, less what later moves captured
        for j in range(self.moves - 1, i, -1):
            end -= self._log_ncap[j]
        return list(self._captured[end - self._log_ncap[i]:end])

    def consecutive_passes(self):
        n = 0
        i = self.moves - 1
        while i >= 0 and self._log_pt[i] == PASS:
            n += 1
            i -= 1
        return n

    def chain_liberties(self, pt):
        """Number of liberties of the chain at pt (0 for an empty point)."""
        colour = self.cells[pt]
        if colour != BLACK and colour != WHITE:
            return 0
        self._fill(pt, colour)
        libs = 0
        cells = self.cells
        mark = self._mark
        stack = self._stack
        w = self.stride
        # _fill left the chain's stones in the stack; count distinct empties.
        gen = self._gen
        for k in range(self._nfill):
            p = stack[k]
            for q in (p - 1, p + 1, p - w, p + w):
                if cells[q] == EMPTY and mark[q] != gen:
                    mark[q] = gen
                    libs += 1
        return libs

    def chain(self, pt):
        """Points of the chain at pt, as a new list."""
        colour = self.cells[pt]
        if colour != BLACK and colour != WHITE:
            return []
        self._fill(pt, colour)
        return list(self._stack[:self._nfill])

    # -- flood fills (allocation-free) ---------------------------------------

    def _next_gen(self):
        gen = self._gen + 1
        if gen > 255:
            mark = self._mark
            for i in range(len(mark)):
                mark[i] = 0
            gen = 1
        self._gen = gen
        return gen

    def _fill(self, start, colour):
        """Mark the chain of `colour` through start; its stones end up in
        _stack[0:_nfill]."""
        gen = self._next_gen()
        cells = self.cells
        mark = self._mark
        stack = self._stack
        w = self.stride
        mark[start] = gen
        stack[0] = start
        n = 1
        k = 0
        while k < n:
            p = stack[k]
            k += 1
            q = p - 1
            if cells[q] == colour and mark[q] != gen:
                mark[q] = gen
                stack[n] = q
                n += 1
            q = p + 1
            if cells[q] == colour and mark[q] != gen:
                mark[q] = gen
                stack[n] = q
                n += 1
            q = p - w
            if cells[q] == colour and mark[q] != gen:
                mark[q] = gen
                stack[n] = q
                n += 1
            q = p + w
            if cells[q] == colour and mark[q] != gen:
                mark[q] = gen
                stack[n] = q
                n += 1
        self._nfill = n

    def _has_liberty(self, start):
        """True if the chain through start touches an empty point.  Stops at
        the first liberty, so the usual case costs a few cell reads; else
        the flood fill, which leaves a chain without one in the stack."""
        cells = self.cells
        w = self.stride
        if (cells[start - 1] == EMPTY or cells[start + 1] == EMPTY
                or cells[start - w] == EMPTY or cells[start + w] == EMPTY):
            return True
        n = _FAST[0](self, start, self._next_gen())
        if n > 0:
            return True
        self._nfill = -n
        return False

    def _remove_filled(self):
        """Take the stones of the last fill off the board onto the capture log."""
        n = self._nfill
        top = self._ncaptured
        if top + n > len(self._captured):
            self._more_captured(n)
        self.hash = _FAST[1](self, n, top)
        self._ncaptured = top + n
        return n

    def _more_captured(self, n):
        # (A call of its own: inline, its stack would put _remove_filled's
        # frame on the heap on every capture.)
        self._captured.extend(array("H", bytes(2 * (n + len(self._captured) // 2))))

    # -- moves --------------------------------------------------------------
    #
    # On MicroPython a call whose locals plus working stack exceed 11 words
    # takes its frame from the heap (py/objfun.c, VM_MAX_STATE_ON_STACK), and
    # on a fragmented heap that allocation costs more than the move.  So a
    # move is a chain of small functions, each within that bound
    # (tests/test_rp2_frames.py measures it); the flood fill and the capture
    # run as viper code on the RP2040 (hw/rp2fast.py).

    def play(self, colour, pt):
        """Play a stone; returns OK or the reason it is refused (board unchanged)."""
        cells = self.cells
        if pt <= 0 or pt >= len(cells) or cells[pt] == EDGE:
            return OFF_BOARD
        if cells[pt] != EMPTY:
            return OCCUPIED
        if self.moves >= self._capacity:
            self._grow(2 * self._capacity)
        ncap = self._place(colour, pt)
        if ncap < 0:
            return SUICIDE
        return self._commit(colour, pt, ncap)

    def _place(self, colour, pt):
        """Put the stone and take off what it captures (step 2), then self-
        capture (step 3): the number of stones removed, -1 for a refused
        suicide (undone)."""
        self.cells[pt] = colour
        self._flip(pt, colour)
        before = self._ncaptured
        opp = 3 - colour
        self._capture(pt - 1, opp)
        self._capture(pt + 1, opp)
        self._capture(pt - self.stride, opp)
        self._capture(pt + self.stride, opp)
        ncap = self._ncaptured - before
        self._selfcap = 0
        if ncap == 0 and not self._has_liberty(pt):
            return self._suicide(colour, pt)
        return ncap

    def _flip(self, pt, colour):
        self.hash ^= key(pt, colour)

    def _capture(self, pt, colour):
        if self.cells[pt] == colour and not self._has_liberty(pt):
            self._remove_filled()

    def _suicide(self, colour, pt):
        if self.suicide == SUICIDE_FORBIDDEN or (
                self.suicide == SUICIDE_MULTI and self._nfill == 1):
            self.cells[pt] = EMPTY
            self._flip(pt, colour)
            return -1
        self._selfcap = _SELF_CAPTURE
        return self._remove_filled()

    def _commit(self, colour, pt, n):
        """Log the move just made; ko and superko may still refuse it."""
        i = self.moves
        self._log_pt[i] = pt
        self._log_info[i] = colour | self._selfcap
        self._log_ncap[i] = n
        self.moves = i + 1
        self._history[i + 1] = self.hash
        reason = self._repetition(i, colour, n)
        if reason != OK:
            self._unmake()
            return reason
        self._count(colour, n)
        return OK

    def _count(self, colour, n):
        if self._selfcap:
            self.prisoners[3 - colour] += n
        else:
            self.prisoners[colour] += n
        self.last_captures = n

    def _repetition(self, i, colour, n):
        """Ko and superko for move i, just made; OK or the reason to refuse."""
        ko = self.ko
        if ko == KO_NONE:
            return OK
        if ko == KO_SIMPLE:
            # 000 Rule 8: capturing just one stone, which was played on the
            # previous move, when that move also captured just one stone.
            if n != 1 or i == 0 or self._log_info[i] & _SELF_CAPTURE:
                return OK
            if self._log_ncap[i - 1] != 1 or self._log_info[i - 1] & _SELF_CAPTURE:
                return OK
            if self._captured[self._ncaptured - 1] == self._log_pt[i - 1]:
                return KO
            return OK
        if ko == KO_PREVIOUS:
            # 001: the position after the same player's previous turn.
            if i >= 2 and self._history[i - 1] == self.hash and self._same_position(i - 1):
                return KO
            return OK
        return self._superko(i, colour, n)

    def _superko(self, i, colour, n):
        # Positional superko looks at every earlier position; situational only
        # at those with the same player to move as now (the opponent).
        h = self.hash
        k = _FAST[2](self._history, i, h)
        while k >= 0:
            # (Who is to move in position k: who moved last before it.)
            if (self.ko != KO_SITUATIONAL or 3 - colour == (
                    self.first if k == 0 else 3 - (self._log_info[k - 1] & 3))) \
                    and self._same_position(k):
                return KO if k == i - 1 and n == 1 else SUPERKO
            k = _FAST[2](self._history, k - 1, h)
        return OK

    def _same_position(self, k):
        """Exactly compare the current position with position k, rebuilt from
        the move log in the flood fill's mark buffer (no allocation, and no
        buffer of its own: 421 bytes of heap on 19x19); the next fill then
        starts from cleared marks."""
        cells = self.cells
        scratch = self._mark
        self._gen = 255  # _next_gen() clears what is left here
        for j in range(len(cells)):
            scratch[j] = cells[j]
        top = self._ncaptured
        captured = self._captured
        for j in range(self.moves - 1, k - 1, -1):
            info = self._log_info[j]
            pt = self._log_pt[j]
            n = self._log_ncap[j]
            if pt != PASS:
                c = info & 3
                back = c if info & _SELF_CAPTURE else 3 - c
                for m in range(top - n, top):
                    scratch[captured[m]] = back
                scratch[pt] = EMPTY
            top -= n
        for j in range(len(cells)):
            if scratch[j] != cells[j]:
                return False
        return True

    def pass_move(self, colour):
        if self.moves >= self._capacity:
            self._grow(2 * self._capacity)
        i = self.moves
        self._log_pt[i] = PASS
        self._log_info[i] = colour
        self._log_ncap[i] = 0
        self.moves = i + 1
        self._history[i + 1] = self.hash
        self.passes[colour] += 1
        self.last_captures = 0

    def undo(self):
        """Take back the last move (play or pass); False if there is none."""
        i = self.moves - 1
        if i < 0:
            return False
        info = self._log_info[i]
        n = self._log_ncap[i]
        colour = info & 3
        if self._log_pt[i] == PASS:
            self.passes[colour] -= 1
        elif info & _SELF_CAPTURE:
            self.prisoners[3 - colour] -= n
        else:
            self.prisoners[colour] -= n
        self._unmake()
        return True

    def _unmake(self):
        """Restore the position before the last logged move (not the counters)."""
        i = self.moves - 1
        pt = self._log_pt[i]
        info = self._log_info[i]
        n = self._log_ncap[i]
        self.moves = i
        self.hash = self._history[i]
        if pt != PASS:
            cells = self.cells
            colour = info & 3
            back = colour if info & _SELF_CAPTURE else 3 - colour
            top = self._ncaptured
            captured = self._captured
            for m in range(top - n, top):
                cells[captured[m]] = back
            cells[pt] = EMPTY
            self._ncaptured = top - n
        self.last_captures = self._log_ncap[i - 1] if i > 0 else 0

    def legal(self, colour, pt):
        """OK or the reason `colour` may not play at pt; the board is unchanged."""
        reason = self.play(colour, pt)
        if reason == OK:
            self.undo()
        return reason
