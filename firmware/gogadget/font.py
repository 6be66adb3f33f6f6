"""A 3x5 font for the score drawn across the LED grid (readable on 9x9).

A glyph is a tuple of column bit masks, bit 0 the top row of the glyph.
render() lays a text out as one list of column masks with a blank column
between glyphs; the counting phase is not a hot path, so it may allocate.
"""
from gogadget.compat import const

HEIGHT = const(5)

# Rows top to bottom as strings are easier to check by eye than masks.
_ROWS = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "W": ("#.#", "#.#", "#.#", "###", "#.#"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "-": ("...", "...", "###", "...", "..."),
    ".": (".", ".", ".", ".", "#"),
    "?": ("###", "..#", ".##", "...", ".#."),
    " ": ("..",) * 5,
}


def _columns(rows):
    cols = []
    for c in range(len(rows[0])):
        m = 0
        for r in range(HEIGHT):
            if rows[r][c] == "#":
                m |= 1 << r
        cols.append(m)
    return tuple(cols)


GLYPHS = {ch: _columns(rows) for ch, rows in _ROWS.items()}


def render(text):
    """Text -> list of column masks (unknown characters draw as '?')."""
    out = []
    for i, ch in enumerate(text):
        if i:
            out.append(0)
        out.extend(GLYPHS.get(ch, GLYPHS["?"]))
    return out
