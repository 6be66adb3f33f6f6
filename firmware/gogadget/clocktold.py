"""A game clock told from elsewhere and a remote player's clock shown:
GTP's time_left and the remote board's figures (set_left, theirs), and
what a clock display shows while their board says their clock runs
(display).

Apart from clock.py, which keeps the time of a game on the board's own
clock: this module is loaded by the first call that needs it (an engine
over GTP, remote play, a clock display module, the host's status with
the time now) and then stays, since a display asks on every frame.
"""
from gogadget.compat import const, ticks_diff

_BYOYOMI = const(3)  # clock._BYOYOMI, clock._CANADIAN (not imported: clock imports this)
_CANADIAN = const(4)


def set_left(clock, c, ms, n):
    """c's clock as told from elsewhere (GTP time_left, the remote
    board): n 0 is main time, else the period's ms and periods/stones."""
    if n and clock.period_ms:
        clock.main[c] = 0
        clock.period[c] = ms
        clock.count[c] = n
    else:
        clock.main[c] = ms
    if clock.flagged == c and ms:
        clock.flagged = clock.told = 0


def theirs(clock, ref, ms, n, running, took=-1):
    """The remote player's clock as their board says it (pairing.Follower,
    `gogadget-remote clock`): their figure stands, nothing here changes
    it.  running: their board says it runs, so this board's display
    counts it down from now (display), for the eye only; took: what
    their last move took, if known."""
    c = clock.remote = ref.remote
    if not c:
        return
    new = ms != clock.left(c) or n != clock.overtime(c)
    set_left(clock, c, ms, n)
    clock.remote_run = c if running else 0
    clock.remote_at = ref.now
    if took >= 0:
        clock.last = c
        clock.took = took
    done = 0
    if not running:
        # Stopped there with their move the last: the time their move left
        # them, as their board measured it, is the record's (BL/WL, OB/OW)
        # here too (docs/CLOCK.md: the mover's board owns the figure).
        board = ref.board
        i = board.moves - 1
        if 0 <= i < len(clock.secs) and board.move(i)[0] == c:
            s = (ms + 999) // 1000
            clock.secs[i] = s if s < 0xFFFF else 0xFFFE
            clock.counts[i] = clock.overtime(c)
            done = 16  # (clock.record's: the move's time, read back at a resume)
    if new and not running:
        clock.save(ref, c, done)  # their move's figure (a cut brings it back)
    ref.dirty = True


def display(clock, c, now):
    """What c's clock shows at now (ms; clock.seen[1] the periods or
    stones): left(c), except that a remote player's clock their board
    says runs is counted down here from their last figure, through main
    time and the periods, without charging anything (their next figure
    replaces it).  Allocates nothing."""
    v = clock.seen
    ms = clock.left(c)
    v[1] = clock.overtime(c)
    if c == clock.remote_run and clock.remote_turn:
        e = ticks_diff(now, clock.remote_at)
        m = clock.main[c]
        n = clock.count[c] if clock.period_ms else 0
        p = clock.period[c]
        if m > e:
            ms = m - e
        elif clock.system == _BYOYOMI:
            e -= m
            while n > 0 and p <= e:
                e -= p
                n -= 1
                p = clock.period_ms
            ms = p - e if n > 0 else 0
            v[1] = n
        elif clock.system == _CANADIAN and n > 0:
            e -= m
            ms = p - e if p > e else 0
            v[1] = n
        else:
            ms = 0
    v[0] = ms
    return ms
