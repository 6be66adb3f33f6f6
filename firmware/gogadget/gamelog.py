"""The game in the journal: the records the referee writes (replay.py
rebuilds a game from them after a power cut).

A game's journal opens with its header -- K_NEW (size, komi, handicap,
preset, whether set-up stones follow), K_RULES and K_GAME (the game's
number) -- written once, before the first record that needs it, followed
by its set-up stones (K_SETUP).
Moves, passes, take-backs, resignation and result follow one record each.
replay.py rebuilds the game from them at boot.
Rule and komi changes during a game (GTP komi, rules, gogadget-set-rule)
are journalled as K_RULES / K_KOMI records before the next record they may
matter to, and replayed in order.

The room (docs/ROOM.md, broadcast.py) names a game by its number and its
events by `seq`: GameLog.game is the number of the NNNN.sgf the game will be
kept as (one more than the last kept game when its header is written), and
GameLog.seq counts the game's events -- moves, passes, take-backs and the
end (resignation or result) -- as they are journalled.  Both are rebuilt by
replay.py, so after a power cut the board goes on with the same numbers.
"""
from gogadget import journal as jn
from gogadget.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)
# The records that are events of the game (GameLog.seq counts them).
EVENTS = (jn.K_MOVE, jn.K_UNDO, jn.K_RESIGN, jn.K_RESULT)


# K_RESULT's value is the margin times two; a result that is no count (a
# game lost on time or by forfeit, told by an online server) has a code.
RESULT_WORDS = {0xFFFF: "T", 0xFFFE: "F"}


def komi_code(komi):
    return int(komi * 2) + 32768


def pack_rules(r):
    return (r.suicide | r.scoring << 2 | r.pass_stones << 3 | r.white_passes_last << 4
            | r.tie << 5 | r.komi_prisoners << 6 | r.compensation << 7 | r.free_placement << 9)


def unpack_rules(rules, ko, value):
    """The rules from a K_RULES record's arg (ko) and value (pack_rules)."""
    rules.ko = ko
    rules.suicide = value & 3
    rules.scoring = (value >> 2) & 1
    rules.pass_stones = (value >> 3) & 1
    rules.white_passes_last = (value >> 4) & 1
    rules.tie = (value >> 5) & 1
    rules.komi_prisoners = (value >> 6) & 1
    rules.compensation = (value >> 7) & 3
    rules.free_placement = (value >> 9) & 1


class GameLog:
    """Writes one game's records to the journal (None: nothing is kept)."""

    def __init__(self, journal):
        self.journal = journal
        self.started = False  # the journal holds this game's header
        self.changes = -1  # Rules.changes as last journalled
        self.seq = 0  # the game's events so far (see the module notes)
        self.game = 0  # the game's number, set when its header is written

    def restart(self):
        """A new game: its header goes first, with its first record."""
        self.started = False
        self.seq = 0

    def number(self):
        """The number a game started now gets: one more than the last kept
        game (journal.game_names), and more than this game's."""
        n = 0
        if self.journal is not None:
            names = jn.game_names(self.journal.dir)
            if names:
                n = int(names[-1][:4])
        return max(n, self.game) + 1

    def seen(self, rules):
        """Remember the rules as journalled (see rules()); their options
        packed, as a K_RULES record's value."""
        self.changes = rules.changes
        return pack_rules(rules)

    def header(self, ref):
        """Write the game's header and set-up stones, once; they are on
        flash when this returns."""
        if self.started:
            return
        self.game = self.number()
        if self.journal is None:
            self.started = True
            return
        r = ref.rules
        preset = PRESET_NAMES.index(r.name) if r.name in PRESET_NAMES else 255
        value = self.seen(r)
        # b6 bit 0: the handicap stones follow as K_SETUP records; its high
        # nibble the journal's format.
        recs = [jn.encode(jn.K_NEW, ref.size, komi_code(ref.komi), ref.handicap, preset,
                          (1 if (ref.free or ref.setups) else 0) | jn.FORMAT << 4),
                # K_RULES b4: 1 + preset index, 255 custom, 0 (older journals) unknown.
                jn.encode(jn.K_RULES, r.ko, value, preset + 1 if preset != 255 else 255),
                jn.encode(jn.K_GAME, 0, self.game)]
        for colour, pt in ref.setups:
            recs.append(jn.encode(jn.K_SETUP, colour, pt))
        if ref.tc_record is not None:
            recs.append(ref.tc_record)  # a time control set over GTP (clockgtp)
        self.journal.start(recs)
        self.started = True

    def rules(self, rules):
        """Journal a rule change made in place (GTP), if there was one;
        allocates nothing when there was none."""
        if self.journal is not None and self.started and rules.changes != self.changes:
            name = rules.name  # K_RULES b4 as in header()
            self.journal.append(jn.encode(jn.K_RULES, rules.ko, self.seen(rules),
                                          PRESET_NAMES.index(name) + 1
                                          if name in PRESET_NAMES else 255))

    def append(self, ref, kind, arg=0, value=0, b4=0):
        """Journal one record (after the header and any rule change); it is
        on flash before the LEDs confirm anything."""
        self.header(ref)
        if self.journal is not None:
            self.rules(ref.rules)
            self.journal.append(jn.encode(kind, arg, value, b4))
        if kind in EVENTS:
            self.seq += 1
