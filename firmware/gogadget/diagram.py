"""A position as text, rows top to bottom: '.' empty, 'X' black, 'O' white.
For tests and tools: nothing on the board imports it, so a game's heap
never holds it (it was part of board.py's bytecode)."""
from gogadget.points import BLACK, WHITE


def diagram(board):
    """The board's position as rows top to bottom."""
    size = board.size
    w = board.stride
    cells = board.cells
    lines = []
    for r in range(size - 1, -1, -1):
        base = (r + 1) * w
        lines.append("".join(".XO"[cells[base + c]] for c in range(size)))
    return "\n".join(lines)


def load_diagram(board, text):
    """Set the board's position from a diagram (as diagram() writes) as
    set-up stones."""
    size = board.size
    rows = [line.strip().replace(" ", "") for line in text.strip().split("\n")]
    if len(rows) != size or any(len(r) != size for r in rows):
        raise ValueError("diagram is not %dx%d" % (size, size))
    board.clear()
    w = board.stride
    for i, line in enumerate(rows):
        r = size - 1 - i
        for c, ch in enumerate(line):
            if ch in "XxBb#":
                board.setup(BLACK, (r + 1) * w + c)
            elif ch in "OoWw":
                board.setup(WHITE, (r + 1) * w + c)
            elif ch not in ".+-":
                raise ValueError("bad diagram character " + ch)
