"""The referee's rare jobs, loaded for the job and let go of after it
(referee._rare): on MicroPython a module's bytecode is heap, and a game in
progress needs none of this between a new game and its end.

    start          a fresh game in memory (Referee.start: the board's start too)
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
from gogadget.board import Board
from gogadget.compat import const, forget, zeros
from gogadget.frame import new_frame
from gogadget.gamelog import pack_rules, unpack_rules
from gogadget.points import (EMPTY, BLACK, WHITE, check_size, colour_name, handicap_points,
                             max_handicap, point, vertex)
from gogadget.rules import PRESETS, Rules, format_points
from gogadget.settle import Settler
from gogadget.view import F_IGNORED, M_CONTRA, age_ms

_TB_NONE = const(0)  # play._TB_NONE
_TB_CONFIRMED = const(9)  # a slot of Referee._state (referee.py's)


def start(ref, size, komi, handicap, preset, free=False):
    """Referee.start's fresh game in memory (no journal, no events), but
    for the referee's small numbers: True when the buffers were made anew
    (a new size), so the referee sets the LED frame's brightness cap."""
    check_size(size)
    if ref.unsaved:
        keep_unsaved(ref)
    rules = Rules(preset)  # ValueError for an unknown preset
    if handicap and not 2 <= handicap <= max_handicap(size):
        raise ValueError("invalid handicap")
    # Before the game's big buffers: the clock's module and arrays are
    # small pieces that would otherwise split the heap they leave.
    ref.set_clock(size)
    n = size * size
    made = ref.size != size
    if made:
        ref.size = size
        ref.n = n
        ref.want = bytearray(n)  # EMPTY/BLACK/WHITE: what belongs on each place
        ref.prompt = bytearray(n)  # signals.P_* per place
        ref.mark = bytearray(n)  # view.M_* bits per place
        ref.fault = bytearray(n)  # view.F_*: ignored places
        ref.since = zeros("H", n)  # see view.M_CONTRA
        ref.settler = Settler(size, ref.config)
        ref.stable = ref.settler.stable  # the settled reading of every place
        ref.frame = new_frame(size)
    ref.rules = rules
    ref.komi = rules.komi if komi is None else float(komi)
    # Room for a long game in one allocation: growing the move log
    # later would need the old and the new log at once.
    ref.board = None  # the old game's board may go before the new one is built
    ref.board = Board(size, rules.ko, rules.suicide, n + n // 8)
    ref.starts += 1
    ref.handicap = handicap
    ref.setups = []
    # Free handicap stones arrive later (placed and confirmed, or as
    # set-up records); fixed ones are known now.
    ref.free = bool(handicap) and (free or bool(rules.free_placement))
    if handicap and not ref.free:
        for r, c in handicap_points(size, handicap):
            ref.board.setup(BLACK, point(size, r, c))
        ref.handicap_done()
    ref.result = ""
    ref.phase = "setup"
    ref.resume_phase = "play"
    ref.log.restart()
    for i in range(ref.n):
        ref.want[i] = ref.mark[i] = ref.fault[i] = 0
    ref.settler.restart()
    ref.ncontra = ref.oldest = 0
    ref.ask_stuck = -1  # place the board asks about (is its sensor stuck?)
    ref._ask_new = False  # New pressed: waiting for Confirm (_ASK_NEW_MS)
    ref.takeback = _TB_NONE
    ref.tb_ready = False
    ref.ask_undo = 0  # the remote opponent took back move N: Confirm takes it back here
    ref.counted = None
    ref.text = None
    ref.scroll = -1
    # Text the host asked to show (gogadget-show: a clock) in place of
    # the prompts until shown_until, or until anything happens.
    ref.shown = None
    ref.shown_until = 0
    ref.has_fault = False
    ref.extras = ref.missings = ref.wrong = ref.pending = ref.unresolved = 0
    ref.extra = ref.missing = -1
    ref.placed = 0
    ref.winner = EMPTY
    ref.last_seen = True  # the last move has been on the board (take-back allowed)
    ref.sync_want()
    ref.log.seen(rules)
    ref.dirty = True
    return made


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
