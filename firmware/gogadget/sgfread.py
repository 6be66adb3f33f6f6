"""The SGF reader: the main line of a record's first game tree, tolerant
of what other programs write (sgf.py has the writer and parse(), which
loads this module: the board reads a record only for a GTP loadsgf or
gogadget-replay, and lets go of it afterwards)."""
from gogadget.points import BLACK, WHITE, PASS, MIN_SIZE, MAX_SIZE, parse_sgf_coord
from gogadget.rules import RU_NAMES

# The main line (first variation) of the first game tree only: that is all a
# game record on the board ever needs, and it keeps the parser iterative (no
# recursion depth to run out of on a Pico).

def ru_to_rules(text):
    """SGF RU text -> preset name (the text itself, lower-cased, if unknown)."""
    low = text.strip().lower()
    for preset, ru in RU_NAMES:
        if ru.lower() == low:
            return preset
    if low in ("new zealand", "new_zealand", "nz"):
        return "new-zealand"
    return low


class Game:
    """What the reader found: the main line of the first game tree."""

    def __init__(self):
        self.size = 19
        self.komi = 0.0
        self.handicap = 0
        self.setup = []  # (colour, point) in the order given
        self.moves = []  # (colour, point), point PASS for a pass
        self.result = ""
        self.rules = ""
        self.props = {}  # root properties: name -> list of raw (unescaped) values


def _fail(msg, pos):
    raise ValueError("SGF: " + msg + " at character " + str(pos))


def _nodes(text):
    """The main-line nodes as lists of (name, [values]), read without recursion."""
    n = len(text)
    i = text.find("(")
    if i < 0:
        raise ValueError("SGF: no game tree (missing '(')")
    nodes = []
    node = None
    depth = 0  # open parentheses on the main line
    while True:
        if i >= n:
            raise ValueError("SGF: unexpected end of file (missing ')')")
        ch = text[i]
        if ch == "(":
            depth += 1
            i += 1
        elif ch == ")":
            break  # the main line ends at its first close
        elif ch == ";":
            node = []
            nodes.append(node)
            i += 1
        elif ch.isalpha():
            start = i
            while i < n and text[i].isalpha():
                i += 1
            # FF[3] allowed lower-case letters in names (AddBlack -> AB).
            name = "".join(c for c in text[start:i] if c.isupper())
            if node is None:
                _fail("property outside a node", start)
            if not name:
                _fail("bad property name " + text[start:i], start)
            values = []
            while True:
                while i < n and text[i] in " \t\r\n":
                    i += 1
                if i >= n or text[i] != "[":
                    break
                i, value = _value(text, i + 1)  # pyright: ignore[reportGeneralTypeIssues]
                values.append(value)
            if not values:
                _fail("property " + name + " has no value", start)
            node.append((name, values))
        elif ch in " \t\r\n":
            i += 1
        else:
            _fail("unexpected " + repr(ch), i)
    # The other variations are skipped, but they must close: a truncated
    # file is reported rather than half read.
    while depth > 0:
        if i >= n:
            raise ValueError("SGF: unexpected end of file (missing ')')")
        ch = text[i]
        if ch == "[":
            i, _ = _value(text, i + 1)  # pyright: ignore[reportGeneralTypeIssues]
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        i += 1
    return nodes


def _value(text, i):
    """Read a value after '['; returns (index after ']', value)."""
    n = len(text)
    out = []
    start = i
    while i < n:
        ch = text[i]
        if ch == "]":
            return i + 1, "".join(out)
        if ch == "\\":
            i += 1
            if i >= n:
                break
            ch = text[i]
            if ch == "\n" or ch == "\r":
                # A soft line break: both the backslash and the newline go.
                if i + 1 < n and text[i + 1] in "\r\n" and text[i + 1] != ch:
                    i += 1
                i += 1
                continue
        out.append(ch)
        i += 1
    _fail("unterminated value", start - 1)


def _points(size, values, name):
    """Point list values, with FF[4] compressed rectangles ("aa:cc")."""
    pts = []
    for v in values:
        if ":" in v:
            a, b = v.split(":", 1)
            p, q = _point(size, a, name), _point(size, b, name)
            w = size + 1
            r0, c0, r1, c1 = p // w, p % w, q // w, q % w
            for r in range(min(r0, r1), max(r0, r1) + 1):
                for c in range(min(c0, c1), max(c0, c1) + 1):
                    pts.append(r * w + c)
        else:
            pts.append(_point(size, v, name))
    return pts


def _point(size, text, name):
    try:
        pt = parse_sgf_coord(size, text.strip())
    except ValueError:
        raise ValueError("SGF: bad point [" + text + "] in " + name)
    if pt == PASS:
        raise ValueError("SGF: " + name + " needs a point, not a pass")
    return pt


def parse(text):
    """SGF text (str or bytes) -> Game; ValueError with a clear message."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeError:
            raise ValueError("SGF: not UTF-8 text")
    nodes = _nodes(text)
    if not nodes:
        raise ValueError("SGF: game tree has no nodes")
    game = Game()
    root = nodes[0]
    props = game.props
    for name, values in root:
        props[name] = props.get(name, []) + values
    if "GM" in props and props["GM"][0].strip() != "1":
        raise ValueError("SGF: not a Go record (GM[" + props["GM"][0] + "])")
    # The store's format is SGF's own FF (the board writes FF[4]); a newer
    # one is not guessed at (FF[1]..FF[3] are read).
    ff = props.get("FF", ["4"])[0].strip()
    if not ff.isdigit() or int(ff) > 4:
        raise ValueError("SGF: FF[" + ff + "] is newer than this firmware reads (FF[4])")
    if "SZ" in props:
        sz = props["SZ"][0].strip()
        if ":" in sz:
            a, b = sz.split(":", 1)
            if a.strip() != b.strip():
                raise ValueError("SGF: rectangular boards are not supported (SZ[" + sz + "])")
            sz = a.strip()
        if not sz.isdigit() or not MIN_SIZE <= int(sz) <= MAX_SIZE:
            raise ValueError("SGF: board size SZ[" + sz + "] not supported (%d-%d)"
                             % (MIN_SIZE, MAX_SIZE))
        game.size = int(sz)
    if "KM" in props:
        try:
            game.komi = float(props["KM"][0].strip() or "0")
        except ValueError:
            raise ValueError("SGF: bad komi KM[" + props["KM"][0] + "]")
    if "HA" in props:
        ha = props["HA"][0].strip()
        if not ha.isdigit():
            raise ValueError("SGF: bad handicap HA[" + ha + "]")
        game.handicap = int(ha)
    game.result = props.get("RE", [""])[0]
    game.rules = props.get("RU", [""])[0]
    size = game.size
    board = {}  # point -> colour, so AE and repeats behave as set-up does
    order = []
    for k, node in enumerate(nodes):
        colour_moves = []
        for name, values in node:
            if name in ("AB", "AW", "AE"):
                if k and game.moves:
                    raise ValueError("SGF: set-up stones (" + name + ") after moves are not supported")
                for pt in _points(size, values, name):
                    if name == "AE":
                        board.pop(pt, None)
                    else:
                        if pt not in board:
                            order.append(pt)
                        board[pt] = BLACK if name == "AB" else WHITE
            elif name == "B" or name == "W":
                v = values[0].strip()
                try:
                    pt = parse_sgf_coord(size, v)
                except ValueError:
                    raise ValueError("SGF: bad move " + name + "[" + v + "] in node " + str(k))
                colour_moves.append((BLACK if name == "B" else WHITE, pt))
        if len(colour_moves) > 1:
            raise ValueError("SGF: node " + str(k) + " has more than one move")
        game.moves.extend(colour_moves)
    game.setup = [(board[pt], pt) for pt in order if pt in board]
    return game
