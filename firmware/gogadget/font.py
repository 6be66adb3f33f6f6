"""A 3x5 font for the score drawn across the LED grid (readable on 9x9).

A glyph is a tuple of column bit masks, bit 0 the top row of the glyph.
render() lays a text out as one list of column masks with a blank column
between glyphs; the counting phase is not a hot path, so it may allocate.

The glyphs are one bytes constant (three columns each, 0xFF: no column),
so the table costs the heap its 54 bytes, not a dict of tuples.  Drawn:

    0    1    2    3    4    5    6    7    8    9    B    W    R    +    -    .  ?
    ###  .#.  ###  ###  #.#  ###  ###  ###  ###  ###  ##.  #.#  ##.  ...  ...  .  ###
    #.#  ##.  ..#  ..#  #.#  #..  #..  ..#  #.#  #.#  #.#  #.#  #.#  .#.  ...  .  ..#
    #.#  .#.  ###  .##  ###  ###  ###  .#.  ###  ###  ##.  #.#  ##.  ###  ###  .  .##
    #.#  .#.  #..  ..#  ..#  ..#  #.#  .#.  #.#  ..#  #.#  ###  #.#  .#.  ...  .  ...
    ###  ###  ###  ###  ..#  ###  ###  .#.  ###  ###  ##.  #.#  #.#  ...  ...  #  .#.

and the space is two blank columns.
"""
from gogadget.compat import const

HEIGHT = const(5)



def glyph(text):
    """The column masks of one character (unknown characters draw as '?').
    (The characters and their columns are constants of this function: a
    global's name would be interned for good.)"""
    chars = "0123456789BWR+-.? "
    i = chars.find(text)
    if i < 0:
        i = chars.find("?")
    cols = (b"\x1f\x11\x1f\x12\x1f\x10\x1d\x15\x17\x11\x15\x1f\x07\x04\x1f\x17\x15\x1d"
            b"\x1f\x15\x1d\x01\x1d\x03\x1f\x15\x1f\x17\x15\x1f\x1f\x15\x0a\x1f\x08\x1f"
            b"\x1f\x05\x1a\x04\x0e\x04\x04\x04\x04\x10\xff\xff\x01\x15\x07\x00\x00\xff")
    return tuple(m for m in cols[3 * i:3 * i + 3] if m != 0xFF)


def render(text):
    """Text -> list of column masks (unknown characters draw as '?')."""
    out = []
    for i, ch in enumerate(text):
        if i:
            out.append(0)
        out.extend(glyph(ch))
    return out
