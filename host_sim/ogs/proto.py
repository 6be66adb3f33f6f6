"""OGS's spellings of Go things, as the goban package's types define them.

An intersection is (x, y): x the column from the left, y the row from the
TOP, both from 0.  A move on the wire is packed as [x, y, ms] (pass: -1,
-1); a move sent is the two letters "ab" ("..": pass); a list of stones
(removed stones, initial state) is their letters run together.
"""
from gogadget.points import BLACK, COLUMNS, WHITE

LETTERS = "abcdefghijklmnopqrstuvwxyz"
# OGS rule sets -> the board's presets (firmware/gogadget/rules.py).
RULES = {"chinese": "chinese", "japanese": "japanese", "korean": "japanese", "aga": "aga",
         "nz": "new-zealand", "ing": "chinese"}


def to_vertex(size, x, y):
    """OGS (x, y) -> a GTP vertex ("pass" for -1, -1)."""
    if x < 0 or y < 0:
        return "pass"
    if x >= size or y >= size:
        raise ValueError("move %d,%d is off a %dx%d board" % (x, y, size, size))
    return _gtp(size, x, y)


def _gtp(size, x, y):
    return COLUMNS[x] + str(size - y)


def from_vertex(size, text):
    """A GTP vertex -> OGS (x, y); pass -> (-1, -1)."""
    t = text.strip().upper()
    if t == "PASS":
        return -1, -1
    x = COLUMNS.index(t[0])
    row = int(t[1:])
    if not (0 <= x < size and 1 <= row <= size):
        raise ValueError("vertex %s is off a %dx%d board" % (text, size, size))
    return x, size - row


def encode(x, y):
    """(x, y) -> the two letters game/move sends."""
    return ".." if x < 0 else LETTERS[x] + LETTERS[y]


def encode_vertex(size, text):
    return encode(*from_vertex(size, text))


def decode_list(text):
    """Letters run together -> [(x, y)]."""
    if len(text) % 2:
        raise ValueError("odd length stone list %r" % text)
    return [(LETTERS.index(text[i]), LETTERS.index(text[i + 1])) for i in range(0, len(text), 2)]


def encode_list(points):
    """[(x, y)] -> letters, sorted so two equal sets spell the same."""
    return "".join(encode(x, y) for x, y in sorted(set(points)))


def vertices_list(size, text):
    """Letters run together -> GTP vertices."""
    return [_gtp(size, x, y) for x, y in decode_list(text)]


def list_of_vertices(size, vertices):
    return encode_list([from_vertex(size, v) for v in vertices])


def packed_move(move):
    """AdHocPackedMove ([x, y, ms, ...]) or JGOFMove ({x, y}) -> (x, y)."""
    if isinstance(move, dict):
        return int(move["x"]), int(move["y"])
    return int(move[0]), int(move[1])


def colour_of(game, player_id):
    """BLACK / WHITE for a player of the game, 0 for a spectator."""
    players = game.get("players") or {}
    if (players.get("black") or {}).get("id") == player_id:
        return BLACK
    if (players.get("white") or {}).get("id") == player_id:
        return WHITE
    return 0


def colour_word(colour):
    return "black" if colour == BLACK else "white"


def result_of(game):
    """A finished game's result in SGF's spelling (B+R, W+T, B+3.5, 0), or
    "" when the game is not over or its winner is unknown."""
    if game.get("phase") != "finished":
        return ""
    winner = game.get("winner")
    players = game.get("players") or {}
    if winner in ("black", "white"):
        side = "B" if winner == "black" else "W"
    elif winner == (players.get("black") or {}).get("id"):
        side = "B"
    elif winner == (players.get("white") or {}).get("id"):
        side = "W"
    else:
        return "0" if str(game.get("outcome", "")).lower().startswith("draw") else ""
    outcome = str(game.get("outcome", "")).strip().lower()
    if outcome.startswith("resign"):
        return side + "+R"
    if outcome.startswith("timeout"):
        return side + "+T"
    word = outcome.split()[0] if outcome else ""
    try:
        margin = float(word)
    except ValueError:
        return side + "+F"  # disconnection, abandonment, moderator's decision
    return "%s+%s" % (side, ("%.1f" % margin).rstrip("0").rstrip("."))


def moves_of(game):
    """gamedata's moves -> [(x, y)]."""
    return [packed_move(m) for m in game.get("moves") or []]


def initial_stones(game):
    """gamedata's initial_state -> {"b": letters, "w": letters}."""
    state = game.get("initial_state") or {}
    return {"b": state.get("black") or "", "w": state.get("white") or ""}


def first_colour(game):
    """Who plays the first move of the move list."""
    return WHITE if game.get("initial_player") == "white" else BLACK


def colours(game, n):
    """The colour of each of the first n moves: free handicap stones are
    Black's first `handicap` moves in a row, then the turns alternate."""
    out = []
    colour = first_colour(game)
    # Handicap stones not in initial_state are Black's first moves (free
    # placement always; fixed placement too when the server sends no stones).
    extra = 0 if initial_stones(game)["b"] else int(game.get("handicap") or 0)
    for i in range(n):
        out.append(colour)
        if i + 1 >= extra:
            colour = 3 - colour
        elif colour != BLACK:
            colour = 3 - colour
    return out


def clock_text(clock_time, now_ms=None, running_since=None):
    """One side's ClockTime (ServerToClient.d.ts) as "m:ss" (+ periods)."""
    if clock_time is None:
        return "-"
    if isinstance(clock_time, (int, float)):
        left = clock_time / 1000.0
        extra = ""
    else:
        left = float(clock_time.get("thinking_time", 0))
        extra = ""
        if "periods" in clock_time:
            extra = " + %dx%ds" % (clock_time["periods"], clock_time.get("period_time", 0))
        elif "moves_left" in clock_time:
            extra = " + %d/%ds" % (clock_time["moves_left"], clock_time.get("block_time", 0))
    if running_since is not None and now_ms is not None:
        left = max(0.0, left - (now_ms - running_since) / 1000.0)
    s = int(left + 0.999)
    return ("%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) if s >= 3600
            else "%d:%02d" % (s // 60, s % 60)) + extra




def board_clock_text(seconds, size):
    """Time left as the board can draw it across `size` columns (3x5
    font): M.SS when it fits (13x13 and up), else seconds under 100, else
    whole minutes."""
    from gogadget.font import render
    s = int(seconds)
    text = "%d.%02d" % (s // 60, s % 60)
    if len(render(text)) <= size:
        return text
    return str(s) if s < 100 else str(min(s // 60, 99))
