"""Rule options and the presets: the one table of rule sets.

Every preset names the rule text it follows (README.md, "Rules", cites
each text's public source) so tests and docs can cite it.
"""
from gogadget.compat import const

# Ko: which repetitions a play may not create.
KO_NONE = const(0)
KO_SIMPLE = const(1)  # 000 Rule 8: no single-stone recapture of a single-stone capture
KO_PREVIOUS = const(2)  # 001: not the position after the same player's previous turn
KO_POSITIONAL = const(3)  # 002 Rule 8, 004: no earlier board position at all
KO_SITUATIONAL = const(4)  # no earlier position with the same player to move

# Suicide (self-capture, 000 Step 3).
SUICIDE_FORBIDDEN = const(0)  # 000 Rule 7A, 003, 004
SUICIDE_MULTI = const(1)  # several stones may be self-captured, a lone stone may not
SUICIDE_ALLOWED = const(2)  # 002 without 7A, Tromp-Taylor, New Zealand

SCORING_AREA = const(0)  # stones + territory (000, 002 Rules 9-10)
_SCORING_TERRITORY = const(1)  # territory + prisoners + dead stones (001, 003, 004)

_TIE_DRAW = const(0)
TIE_WHITE = const(1)  # 004: equal scores, White wins (not with handicap)

# What White receives for Black's handicap stones.
_COMP_NONE = const(0)
_COMP_N = const(1)  # one point per handicap stone (Chinese)
_COMP_N_MINUS_1 = const(2)  # one point per stone after the first (AGA)


# name: (ko, suicide, scoring, pass stones, white passes last, tie, komi,
#        komi as prisoners, handicap compensation, handicap placement); the
# rule text each follows is named in ruleopts.SOURCES (README.md, "Rules").
# Komi "as prisoners" (004) ignores the komi column and hands White
# 3 / 4 / 5 prisoners on 9x9 / 13x13 / 19x19 in even games.
PRESETS = {
    "000": (KO_SIMPLE, SUICIDE_ALLOWED, SCORING_AREA, 0, 0, _TIE_DRAW, 0.0, 0, _COMP_NONE, 0),
    "000-7a": (KO_SIMPLE, SUICIDE_FORBIDDEN, SCORING_AREA, 0, 0, _TIE_DRAW, 0.0, 0, _COMP_NONE, 0),
    "001": (KO_PREVIOUS, SUICIDE_FORBIDDEN, _SCORING_TERRITORY, 0, 0, _TIE_DRAW, 6.5, 0, _COMP_NONE, 0),
    "002": (KO_POSITIONAL, SUICIDE_ALLOWED, SCORING_AREA, 1, 1, _TIE_DRAW, 0.0, 0, _COMP_NONE, 0),
    "003": (KO_SIMPLE, SUICIDE_FORBIDDEN, _SCORING_TERRITORY, 1, 1, _TIE_DRAW, 0.0, 0, _COMP_NONE, 0),
    "004": (KO_POSITIONAL, SUICIDE_FORBIDDEN, _SCORING_TERRITORY, 0, 0, TIE_WHITE, 0.0, 1, _COMP_NONE, 0),
    "tromp-taylor": (KO_POSITIONAL, SUICIDE_ALLOWED, SCORING_AREA, 0, 0, _TIE_DRAW, 7.5, 0, _COMP_NONE, 1),
    "chinese": (KO_POSITIONAL, SUICIDE_FORBIDDEN, SCORING_AREA, 0, 0, _TIE_DRAW, 7.5, 0, _COMP_N, 0),
    "japanese": (KO_SIMPLE, SUICIDE_FORBIDDEN, _SCORING_TERRITORY, 0, 0, _TIE_DRAW, 6.5, 0, _COMP_NONE, 0),
    "aga": (KO_SITUATIONAL, SUICIDE_FORBIDDEN, SCORING_AREA, 1, 1, _TIE_DRAW, 7.5, 0, _COMP_N_MINUS_1, 0),
    "new-zealand": (KO_SITUATIONAL, SUICIDE_ALLOWED, SCORING_AREA, 0, 0, _TIE_DRAW, 7.0, 0, _COMP_NONE, 1),
}
DEFAULT_PRESET = "chinese"
# SGF RU values that other programs understand, for the presets that have one.
# Other presets are written under their own name, which we read back.
RU_NAMES = (("chinese", "Chinese"), ("japanese", "Japanese"), ("aga", "AGA"),
            ("new-zealand", "NZ"), ("tromp-taylor", "Tromp-Taylor"))


def game_over(board, rules):
    """Two consecutive passes end the game (000/002 Rule 9); with
    rules.white_passes_last the last of them must be White's (002 concise 7,
    003 "White must play last").  (Here, not in score.py: every pass asks,
    and the count's module is not loaded for it.)"""
    if board.consecutive_passes() < 2:
        return False
    if rules.white_passes_last:
        return board.last_move()[0] == 2  # WHITE
    return True


def komi_prisoners(size):
    """004: the prisoners Black hands White before an even game."""
    return 5 if size >= 19 else 4 if size >= 13 else 3


class Rules:
    """One rule set: a preset, possibly with options changed afterwards
    (ruleopts.py names the options, for the GTP engine)."""

    def __init__(self, preset=DEFAULT_PRESET):
        self.changes = 0  # bumped by load() and ruleopts.set_rule(): who keeps a copy can tell cheaply
        self.load(preset)

    def load(self, preset):
        entry = PRESETS.get(preset)
        if entry is None:
            raise ValueError("unknown rules " + preset)
        self.changes += 1
        self.name = preset
        self.preset = preset  # the preset loaded last (name: "custom" once an option changed)
        (self.ko, self.suicide, self.scoring, self.pass_stones,
         self.white_passes_last, self.tie, self.komi, self.komi_prisoners,
         self.compensation, self.free_placement) = entry

    def compensation_points(self, handicap):
        """Points White receives for `handicap` stones under area scoring."""
        if handicap < 2 or self.scoring != SCORING_AREA:
            return 0
        if self.compensation == _COMP_N:
            return handicap
        if self.compensation == _COMP_N_MINUS_1:
            return handicap - 1
        return 0


def format_points(value):
    """7.0 -> "7", 6.5 -> "6.5", the same on both interpreters."""
    if value == int(value):
        return str(int(value))
    return str(value)
