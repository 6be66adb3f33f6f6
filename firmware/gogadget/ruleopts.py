"""The rule options by name, as the GTP engine offers them
(gogadget-set-rule, gogadget-rules-info): rules.Rules holds the options as
numbers; this module, loaded with gtp.py, is what names them, so that a
board with no host does not hold the tables."""
from gogadget.rules import format_points

# The names of each option's values, in the order of rules.py's numbers
# (KO_*, SUICIDE_*, SCORING_*, TIE_*, COMP_*; placement: fixed 0, free 1).
KO_NAMES = ("none", "simple", "previous", "positional", "situational")
SUICIDE_NAMES = ("forbidden", "multi", "allowed")
SCORING_NAMES = ("area", "territory")
TIE_NAMES = ("draw", "white")
COMP_NAMES = ("none", "n", "n-1")
PLACEMENT_NAMES = ("fixed", "free")

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

# gogadget-set-rule keys and the names each takes.
KEYS = {
    "ko": KO_NAMES,
    "suicide": SUICIDE_NAMES,
    "scoring": SCORING_NAMES,
    "pass-stones": ("off", "on"),
    "white-passes-last": ("off", "on"),
    "tie": TIE_NAMES,
    "komi-prisoners": ("off", "on"),
    "handicap-compensation": COMP_NAMES,
    "handicap-placement": PLACEMENT_NAMES,
}
_ATTRS = {
    "ko": "ko",
    "suicide": "suicide",
    "scoring": "scoring",
    "pass-stones": "pass_stones",
    "white-passes-last": "white_passes_last",
    "tie": "tie",
    "komi-prisoners": "komi_prisoners",
    "handicap-compensation": "compensation",
    "handicap-placement": "free_placement",
}


def set_rule(rules, key, value):
    """Change one option by its GTP names (gogadget-set-rule); the rules
    become "custom"."""
    names = KEYS.get(key)
    if names is None:
        raise ValueError("unknown rule " + key)
    if value not in names:
        raise ValueError(key + " must be one of " + ", ".join(names))
    setattr(rules, _ATTRS[key], names.index(value))
    rules.name = "custom"
    rules.changes += 1


def get_rule(rules, key):
    return KEYS[key][getattr(rules, _ATTRS[key])]


def describe_rules(rules):
    """Options as "key=value" words, in the order of KEYS' documentation."""
    out = ["preset=" + rules.name, "komi=" + format_points(rules.komi)]
    for key in ("ko", "suicide", "scoring", "pass-stones", "white-passes-last", "tie",
                "komi-prisoners", "handicap-compensation", "handicap-placement"):
        out.append(key + "=" + get_rule(rules, key))
    return " ".join(out)
