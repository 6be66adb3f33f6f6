"""The referee's rare jobs, loaded for the job and let go of after it
(referee._rare): on MicroPython a module's bytecode is heap, and a game in
progress needs none of this between a new game and its end.

    new_game       a new game from the buttons, the host or the count
    keep_unsaved   the last game that could not be kept, before a new one
    undo           a take-back the host or the remote opponent asked for
    status         the host's status line
    sgf            the game's record
    ask_stuck      a place contradicting the game for stuck_ms: is its sensor stuck?
    ignore_sensor  the person's answer (Confirm): it is
"""
from gogadget import journal as jn
from gogadget import signals as sg
from gogadget.compat import const, forget
from gogadget.gamelog import pack_rules, unpack_rules
from gogadget.points import BLACK, WHITE, colour_name, vertex
from gogadget.rules import PRESETS, format_points
from gogadget.view import F_IGNORED, M_CONTRA, age_ms

_TB_NONE = const(0)  # play._TB_NONE
_TB_CONFIRMED = const(9)  # a slot of Referee._state (referee.py's)


def new_game(ref, size=None, komi=None, handicap=None, preset=None, free=False):
    """Start a new game; None keeps the current size and komi (komi:
    the new preset's when a preset is given), no handicap; free: the
    handicap is placed where Black likes, whatever the preset says."""
    size = ref.size if size is None else size
    if komi is None and preset is None:
        komi = ref.komi
    preset = ref.rules.name if preset is None else preset
    if preset not in PRESETS and preset != "custom":
        raise ValueError("unknown rules " + preset)
    keep = ref.rules if ref.rules.name == "custom" and preset == "custom" else None
    if keep is not None:
        preset = ref.config.preset
    ref.start(size, komi, handicap or 0, preset, free)
    if keep is not None:
        # Options changed one by one (GTP) stay for the next game.
        unpack_rules(ref.rules, keep.ko, pack_rules(keep))
        ref.rules.name = "custom"
        ref.board.ko = keep.ko
        ref.board.suicide = keep.suicide
    ref.alarm = False
    ref.log.header(ref)
    ref.event("new-game", "%dx%d komi %s rules %s handicap %d" % (
        size, size, format_points(ref.komi), ref.rules.name, ref.handicap))
    ref.refresh()
    return True


def keep_unsaved(ref):
    """The game that could not be kept is still the journal's: try to keep
    it again before a new game replaces the journal; if that fails too,
    move the journal aside whole.  Nothing is lost either way."""
    from gogadget import ending  # (the referee lets it go when play resumes)
    how = ref.unsaved
    if ending.keep(ref, how):
        return
    ref.unsaved = ""
    if ref.journal is not None:
        from gogadget.journalread import set_aside  # (let go of with this module)
        name = set_aside(ref.journal)
        forget("journalread")
        if name:
            ref.event("error", "the %s game is kept as its journal, %s" % (how, name))


def undo(ref):
    """Take back the last move; the LEDs prompt the physical fix.
    False if there is nothing to take back."""
    if not ref.board.moves:
        return False
    colour, pt = ref.board.last_move()  # pyright: ignore[reportGeneralTypeIssues]
    ref.board.undo()
    ref.log.append(ref, jn.K_UNDO)
    if ref.clock is not None and ref.clock.take_back(colour):
        ref.clock.save(ref, colour)
    ref.sync_want()
    ref.last_seen = True
    ref.takeback = _TB_NONE
    ref.tb_ready = False
    ref._state[_TB_CONFIRMED] = 0
    ref.result = ""
    ref.phase = "play"
    ref.event("undo", colour_name(colour) + " " + vertex(ref.size, pt))
    ref.dirty = True
    ref.refresh()
    return True


def sgf(ref):
    from gogadget import sgf
    try:
        return sgf.record(ref.board, ref.rules, ref.komi, ref.result, ref.date(), ref.clock)
    finally:
        sgf = None
        forget("sgf")  # asked for by the host now and then: not kept on the heap


def status(ref):
    b = ref.board
    text = "%s: %s to move, move %d, prisoners B %d W %d, %d outstanding" % (
        ref.phase, colour_name(b.to_move()), b.moves, b.prisoners[BLACK],
        b.prisoners[WHITE], ref.unresolved)
    if ref.result:
        text += ", result %s" % ref.result  # (a string of 11: no name)
    if ref.has_fault:
        text += ", sensor fault"
    if ref.damage:
        text += ", " + ref.damage
    if ref.clock is not None:
        from gogadget.clockio import status  # (clock.py holds only the running clock)
        text += ", " + status(ref.clock, ref.now)
    return text


def ask_stuck(ref, now_ms):
    """Ask about the place that has contradicted the game longest, if it
    has for stuck_ms and its light only asks for a stone to be put right."""
    mark = ref.mark
    since = ref.since
    prompt = ref.prompt
    limit = ref.config.stuck_ms
    # Prompts the question may follow: a stone to put right.
    askable = (sg.P_PUT_BLACK, sg.P_PUT_WHITE, sg.P_REMOVE, sg.P_WRONG_COLOUR, sg.P_ILLEGAL,
               sg.P_KO, sg.P_SUPERKO)
    best = -1
    best_age = 0
    for pl in range(ref.n):
        if mark[pl] & M_CONTRA and prompt[pl] in askable:
            a = age_ms(now_ms, since[pl])
            if a >= limit and a > best_age:
                best = pl
                best_age = a
    if best >= 0:
        ref.ask_stuck = best
        ref.event("fault", "sensor %s stuck? put the stone right, or press Confirm to ignore it"
                  % vertex(ref.size, ref.pt(best)))
    return best


def ignore_sensor(ref, pl):
    """The person's answer: the sensor at pl is stuck; ignore it until it
    agrees with the game again."""
    ref.fault[pl] = F_IGNORED
    ref.mark[pl] &= ~M_CONTRA
    ref.ask_stuck = -1
    ref.event("fault", "sensor %s stuck: ignored until it agrees with the game"
              % vertex(ref.size, ref.pt(pl)))
