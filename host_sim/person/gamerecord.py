"""A game record read for a person to replay (sgfmill), and a firmware record compared with it."""
from sgfmill import sgf as sgfmill_sgf, sgf_grammar

from gogadget import points, rules as rules_mod
from gogadget.points import BLACK, WHITE

COLOURS = {"b": BLACK, "w": WHITE}
NAMES = {BLACK: "Black", WHITE: "White"}
DEFAULT_PRESET = "japanese"  # the historical records the simulator ships were played so


class Game:
    """A game record reduced to what a person at the board needs."""

    def __init__(self, size, komi, setup, moves, rules, props):
        self.size = size
        self.komi = komi
        self.setup = setup  # [(colour, place)] set up before the first move
        self.moves = moves  # [(colour, place or None for a pass)]
        self.rules = rules
        self.props = props


def load_game(data, to_replay=False):
    """SGF bytes or text -> Game, ValueError with the reason if it cannot be
    replayed.  to_replay: a record a person will play on the board, whose
    passes after the two that end the game are dropped (servers such as
    NNGS record a third; the board is counting by then, a pass there is no
    move).  The firmware's own records are read as they are."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        game = sgfmill_sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise ValueError("not a readable SGF game: %s" % exc)
    size = game.get_size()
    if not points.MIN_SIZE <= size <= points.MAX_SIZE:
        raise ValueError("board size %d is not supported" % size)
    root = game.get_root()
    black, white, empty = root.get_setup_stones()
    if empty:
        raise ValueError("the record clears points before play (AE); cannot replay")
    setup = [(BLACK, r * size + c) for r, c in sorted(black)]
    setup += [(WHITE, r * size + c) for r, c in sorted(white)]
    moves = []
    # The root node may hold a move too (many old records put the first
    # B[..] beside the game info); sgfmill and GNU Go read it as move 1.
    for n, node in enumerate(game.get_main_sequence()):
        if n and node.has_setup_stones():
            raise ValueError("node %d adds or removes stones mid-game; cannot replay" % n)
        colour, move = node.get_move()
        if colour is None:
            continue
        moves.append((COLOURS[colour], None if move is None else move[0] * size + move[1]))
    while to_replay and len(moves) >= 3 and all(pt is None for _, pt in moves[-3:]):
        moves.pop()
    ru = root.get("RU").lower() if root.has_property("RU") else ""
    props = {k: root.get_raw_list(k) for k in root.properties()}
    return Game(size, game.get_komi(), setup, moves, ru, props)


def game_trees(data):
    """The SGF bytes of every game tree in a file's bytes (one for most files)."""
    trees = sgf_grammar.parse_sgf_collection(data)
    if len(trees) == 1:
        return [data]
    return [sgf_grammar.serialise_game_tree(t) for t in trees]


def pick(data, index):
    """Game tree `index` (1-based) of a file's bytes; ValueError if there is none."""
    try:
        trees = game_trees(data)
    except ValueError as exc:
        raise ValueError("not a readable SGF file: %s" % exc)
    if not 1 <= index <= len(trees):
        raise ValueError("the file holds %d game(s), not a game %d" % (len(trees), index))
    return trees[index - 1]


def turn_problem(game):
    """None if the record's colours take turns as the board expects, else why
    not.  The board alternates colours from Black (White after two or more
    black set-up stones, a handicap); it cannot be told that White starts a
    set-up position (no PL), nor that a side passed without a pass in the record."""
    blacks = all(c == BLACK for c, _ in game.setup)
    want = WHITE if blacks and 2 <= len(game.setup) <= points.max_handicap(game.size) else BLACK
    for i, (colour, _) in enumerate(game.moves):
        if colour != want:
            if i == 0:
                return "%s plays first; after this set-up the board expects %s (it cannot be " \
                       "told who starts)" % (NAMES[colour], NAMES[want])
            return "move %d is %s's second in a row (no pass recorded between); the board " \
                   "alternates colours" % (i + 1, NAMES[colour])
        want = BLACK + WHITE - colour
    return None


def preset_for(game, wanted=None):
    if wanted:
        if wanted not in rules_mod.PRESETS:
            raise ValueError("unknown rules %s (one of %s)" % (wanted, ", ".join(rules_mod.PRESETS)))
        return wanted
    return game.rules if game.rules in rules_mod.PRESETS else DEFAULT_PRESET


def sgf_moves(text):
    game = load_game(text)
    return game.setup, game.moves


def compare(game, firmware_sgf):
    """None if the firmware's record holds the game's moves, else what differs."""
    try:
        setup, moves = sgf_moves(firmware_sgf)
    except ValueError as exc:
        return "firmware SGF unreadable: %s" % exc
    if sorted(setup) != sorted(game.setup):
        return "set-up stones differ: %d in the firmware's record, %d in the game" % (
            len(setup), len(game.setup))
    for i, (want, got) in enumerate(zip(game.moves, moves)):
        if want != got:
            return "move %d: game has %s, firmware recorded %s" % (
                i + 1, describe(game.size, want), describe(game.size, got))
    if len(moves) != len(game.moves):
        return "the game has %d moves, the firmware recorded %d" % (len(game.moves), len(moves))
    return None


def describe(size, move):
    colour, place = move
    where = "pass" if place is None else points.vertex(size, points.place_point(size, place))
    return points.colour_name(colour) + " " + where
