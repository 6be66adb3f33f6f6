"""Referee.sync_want's pass as a plain loop: what every board but the Pico
runs (the Pico runs its viper twin, hw/vipergame.sync_want, line for line
the same), so a Pico never holds this module's bytecode.  referee.py loads
it when a Referee is made and no twin was installed (hw/rp2fast.install)."""
from gogadget.points import EMPTY
from gogadget.view import M_REMOVE, M_STRAY


def sync_want(ref):
    """ref.want <- the board; places that lost their stone must be lifted."""
    cells = ref.board.cells
    want = ref.want
    mark = ref.mark
    size = ref.size
    for pl in range(ref.n):
        c = cells[(pl // size + 1) * (size + 1) + pl % size]
        if c == EMPTY and want[pl] != EMPTY:
            mark[pl] |= M_REMOVE
        elif c != EMPTY:
            mark[pl] &= ~(M_REMOVE | M_STRAY)
        want[pl] = c
