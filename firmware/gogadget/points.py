"""Points, colours and vertices: the one definition of board geometry.

Two numberings are used and both are defined here:

* a *point* is an index into the rules core's bordered board: the board is
  stored row by row with a stride of ``size + 1``; column ``size`` and the
  rows above and below the board hold EDGE, so every on-board point has four
  neighbours ``p - 1, p + 1, p - stride, p + stride`` without bounds checks.
* a *place* is the dense index ``row * size + col`` used by scans and LED
  frames, one entry per intersection.

Row 0 is the bottom row (GTP row 1) and column 0 is GTP column A.
"""
from gogadget.compat import const

EMPTY = const(0)
BLACK = const(1)
WHITE = const(2)
EDGE = const(3)

MIN_SIZE = const(2)
MAX_SIZE = const(19)
SIZES = (9, 13, 19)  # the sizes boards are built in

# GTP and most Go software skip the letter I.
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"

PASS = const(0)  # point 0 is always EDGE, so it can stand for a pass


def opponent(colour):
    return 3 - colour


def colour_name(colour):
    return "B" if colour == BLACK else "W"


def parse_colour(text):
    """GTP colour ("b", "black", "w", "white") -> BLACK/WHITE, else ValueError."""
    t = text.lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError("invalid color")


def check_size(size):
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError("unacceptable size")
    return size


def stride(size):
    return size + 1


def point(size, r, c):
    """The point of row r, column c."""
    return (r + 1) * (size + 1) + c


def row_col(size, pt):
    w = size + 1
    return pt // w - 1, pt % w


def place(size, pt):
    w = size + 1
    return (pt // w - 1) * size + pt % w


def place_point(size, pl):
    return point(size, pl // size, pl % size)


def vertex(size, pt):
    """Point -> GTP vertex such as "D4" (or "pass")."""
    if pt == PASS:
        return "pass"
    r, c = row_col(size, pt)
    return COLUMNS[c] + str(r + 1)


def parse_vertex(size, text):
    """GTP vertex -> point (PASS for "pass"); ValueError if malformed or off board."""
    t = text.upper()
    if t == "PASS":
        return PASS
    if len(t) < 2 or t[0] not in COLUMNS or not t[1:].isdigit():
        raise ValueError("invalid coordinate")
    c = COLUMNS.index(t[0])
    r = int(t[1:]) - 1
    if c >= size or not 0 <= r < size:
        raise ValueError("invalid coordinate")
    return point(size, r, c)


def sgf_coord(size, pt):
    """Point -> SGF coordinate ("" for pass; SGF counts rows from the top)."""
    if pt == PASS:
        return ""
    r, c = row_col(size, pt)
    return SGF_LETTERS[c] + SGF_LETTERS[size - 1 - r]


def parse_sgf_coord(size, text):
    """SGF coordinate -> point; "" and "tt" (on boards up to 19) are passes."""
    if text == "" or (text == "tt" and size <= 19):
        return PASS
    if len(text) != 2:
        raise ValueError("bad SGF point " + text)
    c = SGF_LETTERS.find(text[0])
    r = size - 1 - SGF_LETTERS.find(text[1])
    if not (0 <= c < size and 0 <= r < size):
        raise ValueError("bad SGF point " + text)
    return point(size, r, c)


def max_handicap(size):
    if size < 7:
        return 0
    return 9 if size % 2 and size >= 9 else 4


def handicap_points(size, count):
    """Fixed handicap placement of the GTP specification (section 4.1.1).

    Returns (row, col) pairs; ValueError if the count is not allowed."""
    if not 2 <= count <= max_handicap(size):
        raise ValueError("invalid handicap")
    edge = 2 if size < 13 else 3
    far = size - 1 - edge
    mid = size // 2
    spots = [(edge, edge), (far, far), (far, edge), (edge, far)]
    if count >= 6:
        spots += [(mid, edge), (mid, far)]
    if count >= 8:
        spots += [(edge, mid), (far, mid)]
    if count % 2 and count >= 5:
        spots.append((mid, mid))
    return spots[:count]


def star_points(size):
    """(row, col) of the marked points, for drawing: the four corner points
    and the centre on 9x9 and 13x13, nine on 19x19 (handicap spots, as GNU
    Go marks them)."""
    n = max_handicap(size)
    if n == 0:
        return []
    return handicap_points(size, 9 if size >= 19 else min(n, 5))
