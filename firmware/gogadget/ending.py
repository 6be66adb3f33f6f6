"""The game's end: the result journalled and shown across the board, the
game kept as SGF, and the "over" phase.  Loaded when a game ends (the count
confirmed, a resignation, a result from the host or the clock, a resume of
a finished game), without the count's modules: the record is saved with
neither counting.py nor score.py on the heap.

Over ("over").  The result is drawn in digits, scrolling when it is wider
than the board; clearing the board starts the next game.
"""
from gogadget import journal as jn
from gogadget import signals as sg
from gogadget.compat import const, forget, ticks_diff
from gogadget.scan import S_EMPTY

_OVER_MS = const(11)  # slots of Referee._state (referee.py's)
_CLEARED = const(12)
_SCROLL_MS = const(180)  # one column of score text per step when it is wider than the board


def finish(ref, winner, result, margin=None):
    """The game ends with a result (margin: the count's, points): journal
    it, show it, keep the game."""
    if margin is not None:
        ref.log.append(ref, jn.K_RESULT, winner, int(margin * 2 + 0.5))
    ref.result = result
    forget("counting", "score")  # counting is over: the record is saved without them
    over(ref, winner)
    ref.event("result", result)
    keep(ref, "")
    ref.refresh()


def keep(ref, kind):
    """Keep the game beside the journal as the next NNNN.sgf, streamed to
    flash a few bytes at a time (a long game's record never sits in RAM);
    kind: "" or the kind of game ("unfinished"), as the events say it.
    True when it is kept.  When it cannot be (flash full, out of memory) the
    journal still holds the game: ref.unsaved says so, and the next new
    game tries again before it replaces the journal (referee.new_game)."""
    if ref.journal is None:
        return True
    ok = False
    # The journal's open file goes first: on the official firmware an open
    # file is one block of ~1.1 KB (littlefs's cache), and the save opens
    # two (sgf.mpy, read to load it, and the record); closed, the journal's
    # leaves a hole that fits them in a fragmented heap.  The next record
    # opens it again.
    ref.journal.close()
    try:
        from gogadget import sgf
        name = sgf.save_game(ref.journal.dir, ref.board, ref.rules, ref.komi, ref.result,
                             ref.date(), ref.clock)
        ref.event("prompt", ("%s game kept as %s" % (kind, name)).strip())
        ok = True
    except (OSError, MemoryError) as exc:
        sgf = None
        exc = "out of memory" if isinstance(exc, MemoryError) else repr(exc)
        ref.event("error", "could not keep the game (%s): it stays in the journal, "
                  "tried again at the next new game" % exc)
    finally:
        sgf = None
        forget("sgf")  # used once a game: its bytecode need not stay on the heap
    ref.unsaved = "" if ok else (kind or "finished")
    return ok


def over(ref, winner):
    """The game has a result: show it."""
    from gogadget import font
    ref.phase = "over"
    ref.winner = winner
    ref._state[_CLEARED] = -1  # not looked at yet
    ref.text = font.render(ref.result)
    font = None
    forget("font")
    ref._state[_OVER_MS] = ref.now
    ref.scroll = -999
    ref.dirty = True


def refresh(ref):
    # The "over" phase's look at the board (Referee.refresh_phase).
    # Clearing the board after a finished game starts the next one.
    scan = ref.stable
    empty = True
    for pl in range(ref.n):
        if scan[pl] != S_EMPTY:
            empty = False
            break
    if empty and ref._state[_CLEARED] == 0:  # cleared since the last look
        ref.new_game(handicap=ref.config.handicap)
        return
    ref._state[_CLEARED] = 1 if empty else 0
    ref.unresolved = 0
    ref.has_fault = False
    ref.scroll = -999
    scroll(ref, ref.now)


def scroll(ref, now):
    cols = ref.text
    assert cols is not None  # set with the result, before any scrolling
    size = ref.size
    span = 0
    if len(cols) <= size:
        offset = -((size - len(cols)) // 2)
    else:
        # A ticker: the text, a gap of three columns, the text again.
        span = len(cols) + 3
        offset = (ticks_diff(now, ref._state[_OVER_MS]) // _SCROLL_MS) % span
    if offset != ref.scroll:
        ref.scroll = offset
        sg.draw_text(ref.prompt, size, cols, offset, span)
        ref.paint()
