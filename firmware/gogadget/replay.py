"""The replay that rebuilds a game from its journal records after a power
cut (gamelog.py writes them).  Loaded by the resume (position.py) and let
go afterwards: a game in progress never needs it again."""
from gogadget import board as core
from gogadget import journal as jn
from gogadget.gamelog import EVENTS, PRESET_NAMES, RESULT_WORDS, unpack_rules
from gogadget.points import EMPTY, PASS, colour_name
from gogadget.rules import format_points


def result_margin(value):
    """K_RESULT's value -> what follows "B+" in the result."""
    word = RESULT_WORDS.get(value)
    return word if word else format_points(value / 2)


def replay(ref, records):
    """Rebuild the game from journal records; returns (outcome, problem):
    outcome is None, or (winner, result text) for a finished game.
    The game's number and event count (ref.log.game, ref.log.seq) are
    rebuilt too."""
    over = None
    log = ref.log
    numbered = False
    problem = ""
    moved = -1  # the colour of the record before, if it was a move
    for i, rec in enumerate(records):
        kind, arg, value, b4, b5, b6 = rec
        if kind == jn.K_NEW:
            preset = PRESET_NAMES[b5] if b5 < len(PRESET_NAMES) else ref.config.preset
            ref.start(arg, (value - 32768) / 2, b4, preset, free=bool(b6 & 1))
            over = None
            numbered = False
        elif kind == jn.K_GAME:
            log.game = value
            numbered = True
        elif kind == jn.K_RULES:
            if 0 < b4 <= len(PRESET_NAMES):
                ref.rules.load(PRESET_NAMES[b4 - 1])  # its name and komi
            elif b4 == 255:
                ref.rules.name = "custom"
            unpack_rules(ref.rules, arg, value)
            ref.board.ko = ref.rules.ko
            ref.board.suicide = ref.rules.suicide
        elif kind == jn.K_SETUP:
            ref.setup_stone(arg, value)
            if ref.free and len(ref.setups) == ref.handicap:
                ref.handicap_done()
        elif kind == jn.K_MOVE:
            if value == PASS:
                ref.board.pass_move(arg)
            elif ref.board.play(arg, value) != core.OK:
                problem = "journal record %d replays an illegal move" % i
                break
        elif kind == jn.K_UNDO:
            ref.board.undo()
            over = None
        elif kind == jn.K_RESIGN:
            over = (3 - arg, colour_name(3 - arg) + "+R")
        elif kind == jn.K_RESULT:
            text = "0" if arg == EMPTY else colour_name(arg) + "+" + result_margin(value)
            over = (arg, text)
        elif kind == jn.K_KOMI:
            ref.komi = (value - 32768) / 2
        elif kind == jn.K_CLOCK:
            if arg & 11 == moved:
                # Older firmware marked no move's time (clock.record's
                # done, 16): the mover's clock right after its move is it.
                arg |= 16
            from gogadget.clockgtp import replayed
            problem = replayed(ref, i, arg, value, b4, b5, b6)
            if problem:
                break
        else:
            problem = "journal record %d is of an unknown kind %d" % (i, kind)
            break
        if kind in EVENTS:
            log.seq += 1
        moved = arg if kind == jn.K_MOVE else -1
    if not numbered:  # a journal written before games were numbered
        log.game = log.number() - (1 if over is not None else 0)
    return over, problem
