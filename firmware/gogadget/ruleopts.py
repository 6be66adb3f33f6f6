"""The rule options by name, as the GTP engine offers them
(gogadget-set-rule, gogadget-rules-info): rules.Rules holds the options as
numbers; this module, loaded with gtp.py, is what names them, so that a
board with no host does not hold the tables."""
from gogadget.rules import format_points

# The rule text each preset follows (README.md, "Rules", cites each text's
# public source), by rules.PRESETS's names.
SOURCES = {
    "000": "000 Go Gadget reference rules, 7A not in effect",
    "000-7a": "000 Go Gadget reference rules with optional Rule 7A",
    "001": "001 basic rules for players",
    "002": "002 rules of Go, reference statement with the concise statement's passes",
    "003": "003 illustrated beginner's rules",
    "004": "004 short rules sheet",
    "tromp-taylor": "Tromp-Taylor logical rules",
    "chinese": "Chinese rules",
    "japanese": "Japanese rules",
    "aga": "AGA rules",
    "new-zealand": "New Zealand rules",
}

# gogadget-set-rule keys -> (the rules.Rules attribute each sets, the names
# of its values in the order of rules.py's numbers: KO_*, SUICIDE_*,
# SCORING_*, TIE_*, COMP_*; placement: fixed 0, free 1).
KEYS = {
    "ko": ("ko", ("none", "simple", "previous", "positional", "situational")),
    "suicide": ("suicide", ("forbidden", "multi", "allowed")),
    "scoring": ("scoring", ("area", "territory")),
    "pass-stones": ("pass_stones", ("off", "on")),
    "white-passes-last": ("white_passes_last", ("off", "on")),
    "tie": ("tie", ("draw", "white")),
    "komi-prisoners": ("komi_prisoners", ("off", "on")),
    "handicap-compensation": ("compensation", ("none", "n", "n-1")),
    "handicap-placement": ("free_placement", ("fixed", "free")),
}


def set_rule(rules, key, value):
    """Change one option by its GTP names (gogadget-set-rule); the rules
    become "custom"."""
    if key not in KEYS:
        raise ValueError("unknown rule " + key)
    attr, names = KEYS[key]
    if value not in names:
        raise ValueError(key + " must be one of " + ", ".join(names))
    setattr(rules, attr, names.index(value))
    rules.name = "custom"
    rules.changes += 1


def get_rule(rules, key):
    attr, names = KEYS[key]
    return names[getattr(rules, attr)]


def describe_rules(rules, komi=None):
    """Options as "key=value" words, in the order of KEYS' documentation;
    komi: the game's, when not the rules' (GTP's komi command)."""
    out = ["preset=%s komi=%s" % (rules.name, format_points(rules.komi if komi is None else komi))]
    for key in ("ko", "suicide", "scoring", "pass-stones", "white-passes-last", "tie",
                "komi-prisoners", "handicap-compensation", "handicap-placement"):
        out.append(key + "=" + get_rule(rules, key))
    return " ".join(out)
