"""Putting a position on the board before play: the "setup" and "resume"
phases.

Set-up: a new game asks for the board to be cleared and its handicap
stones (or a given position) put down; play starts when the board shows
it.  A free handicap is placed where the player likes: black stones put
down are counted (lit "placed") and Confirm takes them once there are as
many as the handicap.

Resume: after a power cut the journal's game is rebuilt (replay.py)
and the lights ask for its stones until the board shows them; then play
(or counting) goes on where it stopped.  The settled view starts from what
the sensors read at boot (settle.py), so stones that stayed on the board
are not fresh changes.
"""
from gogadget import signals as sg
from gogadget import journal as jn
from gogadget.compat import forget
from gogadget.points import BLACK, WHITE, colour_name, max_handicap
from gogadget.rules import game_over
from gogadget.view import M_REMOVE, diff


def refresh(ref):
    diff(ref)
    if ref.free:
        # Free handicap: black stones placed so far are counted, not errors.
        placed = 0
        for pl in range(ref.n):
            if ref.prompt[pl] == sg.P_REMOVE and not ref.mark[pl] & M_REMOVE:
                if ref.stable[pl] == WHITE:
                    ref.prompt[pl] = sg.P_WRONG_COLOUR
                else:
                    ref.prompt[pl] = sg.P_PLACED
                    placed += 1
        ref.placed = placed
        ref.unresolved = ref.handicap - placed if placed < ref.handicap else 0
        return
    if ref.unresolved == 0:  # faulty places are ignored, never waited for
        done = ref.phase
        ref.phase = ref.resume_phase if done == "resume" else "play"
        ref.alarm = False  # a recovered journal has been shown long enough
        ref.event("prompt", "board ready: %s to play" % colour_name(ref.board.to_move()))
        if ref.phase != "setup":
            ref.refresh_phase()


def confirm_handicap(ref):
    """Confirm in a free-handicap set-up: take the placed stones."""
    if ref.placed != ref.handicap or ref.missings or ref.wrong:
        ref.event("prompt", "place %d black stones, then Confirm" % ref.handicap)
        return
    ref.log.header(ref)
    for pl in range(ref.n):
        if ref.prompt[pl] == sg.P_PLACED:
            pt = ref.pt(pl)
            ref.setup_stone(BLACK, pt)
            ref.log.append(ref, jn.K_SETUP, BLACK, pt)
    ref.handicap_done()
    ref.alarm = False
    ref.sync_want()
    ref.event("prompt", "handicap placed: W to play")
    ref.phase = "play"
    ref.dirty = True
    ref.refresh()


def set_position(ref, stones):
    """A given position: the LEDs guide the person to set it up.  Only
    black stones (two or more) are a free handicap: White moves first."""
    stones = list(stones)
    for colour, pt in stones:
        if colour not in (BLACK, WHITE) or not ref.board.on_board(pt):
            raise ValueError("bad set-up stone")
    blacks = all(c == BLACK for c, _ in stones)
    handicap = len(stones) if blacks and 2 <= len(stones) <= max_handicap(ref.size) else 0
    ref.start(ref.size, ref.komi, handicap, ref.config.preset if ref.rules.name == "custom"
              else ref.rules.name, free=True)
    for colour, pt in stones:
        ref.setup_stone(colour, pt)
    if handicap:
        ref.handicap_done()
    ref.log.header(ref)
    ref.event("new-game", "set-up position of %d stones" % len(stones))
    ref.sync_want()
    ref.refresh()


def resume(ref, records, report, now_ms):
    """Rebuild the game from journal records (journal.Journal.load) and
    prompt the person to put the position back; returns the moves."""
    ref.now = now_ms
    ref.damage = report
    ref.alarm = bool(report)
    if ref.journal is not None and jn._exists(ref.journal.dir + "/" + "study"):
        # The power went in study mode (study.py's mark): back at the
        # problem it was on, not the problem's stones as a game.  (Names
        # the board knows already: a new one is RAM for ever.)
        return __import__("gogadget.study", None, None, ("resume",)).resume(ref)
    if not records:
        ref.log.header(ref)
        if report:
            ref.event("error", report)
        ref.refresh()
        return 0
    from gogadget import replay
    over, problem = replay.replay(ref, records)
    replay = None
    forget("replay", "clockio", "clockgtp")  # once a boot (and a game on the clock: its records were replayed)
    ref.log.started = True
    ref.log.seen(ref.rules)
    ref.sync_want()
    for i in range(ref.n):
        ref.mark[i] &= ~M_REMOVE  # what was lifted before the cut need not be again
    moves = ref.board.moves
    if ref.clock is not None and (ref.clock.started or moves):
        # Back at the times journalled, paused until Confirm (docs/CLOCK.md).
        ref.clock.started = ref.clock.paused = True
    if problem:
        ref.damage = (report + "; " if report else "") + problem
        ref.alarm = True
    if over is not None:
        ref.result = over[1]
        from gogadget import ending
        ending.over(ref, over[0])
    else:
        ref.resume_phase = "count" if game_over(ref.board, ref.rules) else "play"
        if ref.free:
            ref.resume_phase = "setup"
        ref.phase = "setup" if ref.free else "resume"
    if over is None:
        ref.event("resume", "resumed %d moves of a %dx%d game: put the stones back" % (
            moves, ref.size, ref.size))
    else:  # (nothing to put back: its result is shown)
        ref.event("resume", "the last game is over: %d moves of a %dx%d game, %s" % (
            moves, ref.size, ref.size, ref.result))
    if ref.damage:
        ref.event("error", ref.damage)
    ref.dirty = True
    ref.refresh()
    return moves
