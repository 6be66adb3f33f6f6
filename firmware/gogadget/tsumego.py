"""A problem (tsumego) read from an SGF file, streamed: the study mode's
reader (study.py), loaded only while the board is in study mode.

A problem is the first game tree of the file: set-up stones (AB, AW) and
the board size (SZ) in its first node, who moves in PL (else the colour
of the first move), and a tree of answers below.  A line is correct when
it ends in a node whose comment marks it so; every other reply is wrong.
The markers understood, as public collections write them:

* "RIGHT" as a word anywhere in the comment (goproblems.com's files);
* a comment that begins with "Correct" (any case; "Incorrect" is not);
* a comment that is "+" alone.

A comment-only node (no move) marks the move before it.  Set-up stones
after the first node, and more than one game tree, are not read.

The file is read in small chunks twice: once to count (the nodes, the
stones, and every error, before anything is allocated), once to fill
arrays of exactly that size, seven bytes a node.  A tree of more than
MAX_NODES moves is refused with a message, never half loaded: the heap
holds MAX_NODES * 7 bytes at most (tests/test_study.py feeds 5,000 nodes).
"""
from gogadget.compat import const, zeros
from gogadget.points import BLACK, WHITE, PASS, point

MAX_NODES = const(1000)
_CHUNK = const(128)
# Node flags.
F_KID = const(1)  # the node has a child: node i + 1
F_RIGHT = const(2)  # its comment marks a correct line's end
F_LINE = const(4)  # on a correct line: it, or a node below it, is F_RIGHT
# Property idents as numbers (letters A=1 ... Z=26, base 32): no strings per property.
_B = const(2)
_W = const(23)
_C = const(3)
_AB = const(34)
_AW = const(55)
_SZ = const(634)
_PL = const(524)
_RIGHT = b"RIGHT"
_CORRECT = b"correct"


class Problem:
    """What the reader found.  Nodes are numbered in the file's order
    (node 0 is the first node, with no move): a node's first child is the
    next node (F_KID), its brothers follow sib[]."""

    def __init__(self, size, n, stones):
        self.size = size
        self.first = 0  # BLACK/WHITE: who moves first (PL, else the first move's colour)
        self.n = n
        self.stones = zeros("H", stones)  # colour << 14 | point: the set-up
        self.move = zeros("H", n)  # colour << 14 | point (PASS: 0)
        self.sib = zeros("H", n)  # next brother (0: none; node 0 is nobody's brother)
        self.parent = zeros("H", n)
        self.flags = bytearray(n)

    def colour(self, i):
        return self.move[i] >> 14

    def pt(self, i):
        return self.move[i] & 0x3FFF

    def child(self, i, colour, pt):
        """The child of node i that plays colour at pt, or -1."""
        if not self.flags[i] & F_KID:
            return -1
        k = i + 1
        want = colour << 14 | pt
        while k:
            if self.move[k] == want:
                return k
            k = self.sib[k]
        return -1

    def reply(self, i):
        """The tree's answer below node i (the first child on a correct line,
        else the first child), or -1."""
        if not self.flags[i] & F_KID:
            return -1
        k = i + 1
        while k:
            if self.flags[k] & F_LINE:
                return k
            k = self.sib[k]
        return i + 1


def _stone_point(size, code):
    """A set-up stone as read (colour << 14 | x << 5 | y, SGF's x, y from
    the top left) -> colour << 14 | point; ValueError off the board."""
    x = code >> 5 & 31
    y = code & 31
    if x >= size or y >= size:
        raise ValueError("a set-up stone off the %dx%d board" % (size, size))
    return (code & 0xC000) | point(size, size - 1 - y, x)


def read(path, board_size):
    """The problem in the SGF file at path, for a board of board_size;
    ValueError with a clear message for anything it cannot use (OSError
    when the file cannot be read)."""
    buf = bytearray(_CHUNK)
    with open(path, "rb") as f:
        size, n, stones = _parse(f, buf, None, board_size)
    if n < 2:
        raise ValueError("no moves: a problem needs at least one answer")
    p = Problem(size, n, stones)
    with open(path, "rb") as f:
        _parse(f, buf, p, board_size)
    for k in range(stones):
        p.stones[k] = _stone_point(size, p.stones[k])
    # A correct line runs from a marked node up to the first node (a node's
    # parent comes before it in the file).
    flags = p.flags
    for i in range(n - 1, 0, -1):
        if flags[i] & F_LINE:
            flags[p.parent[i]] |= F_LINE
    if not flags[0] & F_LINE:
        raise ValueError("no correct line: no answer is marked RIGHT, Correct or +")
    if not p.first:
        p.first = p.colour(1)
    return p


def _parse(f, buf, p, board_size):
    """One pass over the file (p None: count; else fill p).  Returns
    (size, nodes, stones).  One function of locals: a call per character
    would be slow on the board."""
    size = 19
    n = 0  # nodes kept
    stones = 0
    stack = []  # the node each open '(' branches from
    cur = 0  # the node the next one hangs from
    started = False  # the first '(' seen
    in_node = False
    node_move = -1  # this node's move (colour << 14 | point), -1: none
    node_mark = 0
    ident = 0
    mode = 0  # 0: between properties, 1: in an ident, 2: in a value
    escape = False
    val = bytearray(6)
    vn = 0
    # the comment's markers
    rpos = cpos = lead = 0
    plus = prev_letter = False
    right = False
    pos = 0
    done = False
    while not done:
        got = f.readinto(buf)
        if not got:
            break
        for k in range(got):
            ch = buf[k]
            pos += 1
            if mode == 2:  # inside [...]
                if escape:
                    escape = False
                elif ch == 92:  # backslash
                    escape = True
                    continue
                elif ch == 93:  # ]
                    mode = 0
                    # the value is complete
                    if ident == _C:
                        if right or cpos == 7 or (plus and lead == 1):
                            node_mark = F_RIGHT | F_LINE
                    elif ident == _B or ident == _W:
                        if node_move >= 0:
                            raise ValueError("two moves in one node (character %d)" % pos)
                        colour = BLACK if ident == _B else WHITE
                        if vn == 0 or (vn == 2 and val[0] == 116 and val[1] == 116 and size <= 19):
                            node_move = colour << 14 | PASS
                        else:
                            x = val[0] - 97
                            y = val[1] - 97
                            if vn != 2 or not (0 <= x < size and 0 <= y < size):
                                raise ValueError("move [%s] off the %dx%d board (character %d)"
                                                 % (bytes(val[:vn]).decode(), size, size, pos))
                            node_move = colour << 14 | point(size, size - 1 - y, x)
                    elif ident == _AB or ident == _AW:
                        if n:
                            raise ValueError("set-up stones after the first node are not "
                                             "read (character %d)" % pos)
                        colour = BLACK if ident == _AB else WHITE
                        if vn == 2:
                            x0 = x1 = val[0] - 97
                            y0 = y1 = val[1] - 97
                        elif vn == 5 and val[2] == 58:  # aa:cc, a rectangle
                            x0 = val[0] - 97
                            y0 = val[1] - 97
                            x1 = val[3] - 97
                            y1 = val[4] - 97
                        else:
                            raise ValueError("bad set-up point (character %d)" % pos)
                        if not (0 <= x0 <= x1 < 26 and 0 <= y0 <= y1 < 26):
                            raise ValueError("bad set-up point (character %d)" % pos)
                        for x in range(x0, x1 + 1):
                            for y in range(y0, y1 + 1):
                                if p is not None:
                                    p.stones[stones] = colour << 14 | x << 5 | y
                                stones += 1
                    elif ident == _SZ:
                        size = 0
                        for j in range(vn):
                            if not 48 <= val[j] <= 57:
                                raise ValueError("SZ is not a square board's size")
                            size = size * 10 + val[j] - 48
                        _check_size(size, board_size)
                    elif ident == _PL and p is not None and vn:
                        p.first = WHITE if val[0] in (87, 119) else BLACK
                    continue
                if ident == _C:
                    letter = 65 <= ch <= 90 or 97 <= ch <= 122
                    if not right:
                        if rpos and ch == _RIGHT[rpos]:
                            rpos += 1
                            right = rpos == 5
                        else:
                            rpos = 1 if ch == 82 and not prev_letter else 0
                    prev_letter = letter
                    if ch > 32:
                        lead += 1
                        if lead == 1:
                            plus = ch == 43
                        if cpos == lead - 1 and cpos < 7 and (ch | 32) == _CORRECT[cpos]:
                            cpos += 1
                elif vn < 6:
                    val[vn] = ch
                    vn += 1
                continue
            if 65 <= ch <= 90:  # an ident's letter
                if mode != 1:
                    if not in_node:
                        raise ValueError("SGF: a property outside a node (character %d)" % pos)
                    mode = 1
                    ident = 0
                ident = ident * 32 + ch - 64
                continue
            if 97 <= ch <= 122 and mode == 1:
                continue  # FF[3]'s lower-case letters in an ident
            if ch == 91:  # [
                if mode == 0 and ident == 0 or not in_node:
                    raise ValueError("SGF: a value without a property (character %d)" % pos)
                mode = 2
                vn = 0
                rpos = cpos = lead = 0
                plus = prev_letter = right = False
                continue
            if ch in (32, 9, 10, 13):
                if mode == 1:
                    mode = 0
                continue
            if mode == 1:
                mode = 0
            if ch == 59 or ch == 40 or ch == 41:  # ; ( )
                if not started:
                    if ch != 40:
                        raise ValueError("SGF: no game tree (missing '(')")
                    started = True
                    continue
                if in_node:
                    # the node ends: kept when it has a move, else its mark
                    # goes to the move before it
                    in_node = False
                    if n == 0:
                        if node_move >= 0:
                            raise ValueError("the first node has a move: not a problem")
                        n = 1
                        cur = 0
                        if p is not None:
                            p.flags[0] = node_mark
                    elif node_move >= 0:
                        if n >= MAX_NODES:
                            raise ValueError("more than %d moves in the tree: too large for "
                                             "the board" % MAX_NODES)
                        if p is not None:
                            p.move[n] = node_move
                            p.parent[n] = cur
                            p.flags[n] = node_mark
                            fl = p.flags
                            if fl[cur] & F_KID:
                                j = cur + 1
                                while p.sib[j]:
                                    j = p.sib[j]
                                p.sib[j] = n
                            else:
                                fl[cur] |= F_KID
                        cur = n
                        n += 1
                    elif p is not None:
                        p.flags[cur] |= node_mark
                if ch == 59:
                    in_node = True
                    node_move = -1
                    node_mark = 0
                    ident = 0
                elif ch == 40:
                    stack.append(cur)
                else:
                    if not stack:
                        done = True  # the first game tree is read
                        break
                    cur = stack.pop()
                continue
            if not started:
                continue  # text before the tree
            raise ValueError("SGF: unexpected %r (character %d)" % (chr(ch), pos))
    if not done:
        if not started:
            raise ValueError("SGF: no game tree (missing '(')")
        raise ValueError("SGF: the file ends inside the tree (missing ')')")
    _check_size(size, board_size)
    return size, n, stones


def _check_size(size, board_size):
    if size > board_size:
        raise ValueError("a %dx%d problem: larger than the %dx%d board"
                         % (size, size, board_size, board_size))
    if size != board_size:
        raise ValueError("a %dx%d problem: the board is %dx%d (its edges would be wrong)"
                         % (size, size, board_size, board_size))
