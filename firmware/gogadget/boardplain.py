"""The rules core's flood fill, capture and history search as plain loops:
what every board but the Pico runs (the Pico runs their viper twins,
hw/vipergame.liberty, remove and superko_find, line for line the same), so
a Pico never holds this module's bytecode.  board.py loads it when a Board
is made and no twin was installed (hw/rp2fast.install)."""
from gogadget.compat import const
from gogadget.points import EMPTY, WHITE

_ROT_LOW = const(0x7FFFFF)  # board.key()'s rotation of black's key into white's
_KA = const(7907)  # board.point_key()'s affine maps
_KB = const(1031)
_KC = const(4099)
_KD = const(2719)


def liberty(board, start, gen):
    """The chain through start, marked gen: 1 at its first liberty, else
    -(its size), its stones in board._stack.  (Its frame is more than 11
    words: on the RP2040 the viper twin runs instead.)"""
    cells = board.cells
    w = board.stride
    colour = cells[start]
    mark = board._mark
    stack = board._stack
    mark[start] = gen
    stack[0] = start
    n = 1
    k = 0
    while k < n:
        p = stack[k]
        k += 1
        # Unrolled: a tuple of neighbours would be a heap allocation.
        q = p - 1
        c = cells[q]
        if c == EMPTY:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + 1
        c = cells[q]
        if c == EMPTY:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p - w
        c = cells[q]
        if c == EMPTY:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
        q = p + w
        c = cells[q]
        if c == EMPTY:
            return 1
        if c == colour and mark[q] != gen:
            mark[q] = gen
            stack[n] = q
            n += 1
    return -n


def remove(board, n, top):
    """The n stones of the last fill off the board onto the capture log
    from index top: -> the position key without them."""
    cells = board.cells
    stack = board._stack
    captured = board._captured
    h = board.hash
    for k in range(n):
        p = stack[k]
        x = (p * _KA + _KB) & 0x7FFF  # board.point_key(p)
        y = (p * _KC + _KD) & 0x7FFF
        c = ((x * x) >> 7 & 0x7FFF) << 15 | ((y * y) >> 11 & 0x7FFF)
        if cells[p] == WHITE:
            c = (c & _ROT_LOW) << 7 | c >> 23  # board.key(): white's key
        h ^= c
        cells[p] = EMPTY
        captured[top + k] = p
    return h


def find(history, k, h):
    """The last index <= k at which history holds h, else -1: superko's
    look through every earlier position."""
    while k >= 0:
        if history[k] == h:
            return k
        k -= 1
    return -1
