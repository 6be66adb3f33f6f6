"""The game clock written down and read back (clock.py keeps the time):
its words for the status and the terminal, the SGF record's TM/OT and
BL/WL, OB/OW, the status word the host reads (`gogadget publish`,
`remote`), and a K_CLOCK record read back after a power cut.

Apart from clock.py so that a game on the clock holds only what a running
clock needs (host_sim/tools/memory.py's "clocked" phase): this module is
loaded when a host asks the status, when the game is saved as SGF, at
a resume (position.py lets it go again), and for the events of a period
used and of a time-out (let go again).
"""
from gogadget.points import colour_name

# (Nothing from clock.py or the game's end is imported: the SGF writer
# loads this module, which would close a circle.  The system is the
# clock's own name for it, Clock.word.)


def restore(clock, arg, value, b4, b5, b6, board=None):
    """A K_CLOCK record of a player's clock read back (replay.py); arg's
    16 (clock.record's done): the time left after the player's last move
    on board, which the record's BL/WL (OB/OW) give."""
    c = arg & 3
    if c not in (1, 2):
        return
    ms = value | b4 << 16 | b5 << 24
    if arg & 16 and board is not None:
        i = board.moves - 1  # its move, or the one before when the next came first
        if i > 0 and board.move(i)[0] != c:
            i -= 1
        if 0 <= i < len(clock.secs):
            clock.secs[i] = min((ms + 999) // 1000, clock.unknown - 1)
            clock.counts[i] = b6 if arg & 4 else 0
    if arg & 4:
        clock.main[c] = 0
        clock.period[c] = ms
    else:
        clock.main[c] = ms
    clock.count[c] = b6
    if not ms and (not clock.period_ms or arg & 4):
        clock.flagged = clock.told = c  # (its result, if any, is journalled too)
    clock.started = True


# -- the record (sgf.emit) -----------------------------------------------------

def sgf_root(clock, put):
    """TM (main time, s) and OT (the overtime, as CGoban and KGS write it)."""
    put("TM[%d]" % (clock.main_ms // 1000))
    p = clock.period_ms // 1000
    w = clock.word
    if w == b"byoyomi":
        put("OT[%dx%d byo-yomi]" % (clock.periods, p))
    elif w == b"canadian":
        put("OT[%d/%d Canadian]" % (clock.periods, p))
    elif w == b"fischer":
        put("OT[%d fischer]" % (clock.inc_ms // 1000))


def sgf_move(clock, put, i, c):
    """BL/WL: the mover's time left after move i; OB/OW: its periods
    (byoyomi) or stones (canadian) left, in overtime."""
    if i >= len(clock.secs) or clock.secs[i] == clock.unknown:
        return
    b = colour_name(c)
    if clock.period_ms and clock.counts[i]:
        put("%sL[%d]O%s[%d]" % (b, clock.secs[i], b, clock.counts[i]))
    else:
        put("%sL[%d]" % (b, clock.secs[i]))


# -- words ------------------------------------------------------------------

def text(clock, c, now=None):
    """"5:00", "0:25 x3" (periods), "4:10 /7" (stones), "1:02:03"; with
    now, as Clock.display shows it then."""
    if now is None:
        s = clock.left(c)
        n = clock.overtime(c)
    else:
        s = clock.display(c, now)
        n = clock.seen[1]
    s = (s + 999) // 1000
    if s >= 3600:
        t = "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    else:
        t = "%d:%02d" % (s // 60, s % 60)
    if n:
        t += (" x%d" if clock.word == b"byoyomi" else " /%d") % n
    return t


def status(clock, now=None):
    t = "clock %s B %s W %s" % (clock.word.decode(), text(clock, 1, now), text(clock, 2, now))
    if clock.took >= 0:
        # The mover's board says how long its move took; a remote
        # player's, as their board's figures say it.
        t += (", %s took %d s there" if clock.last == clock.remote else ", %s took %d s") % (
            colour_name(clock.last), (clock.took + 500) // 1000)
    if clock.flagged:
        t += ", %s out of time" % colour_name(clock.flagged)
    elif clock.paused:
        t += ", paused: Confirm restarts it"
    return t


def period_used(clock, ref):
    """A byo-yomi period was used up (Clock.changed): said as an event."""
    ref.event("clock", "%s: byo-yomi period used, %d left" % (
        colour_name(clock.shown), clock.count[clock.shown]))


def time_out(clock, ref, c):
    """c is out of time (Clock.time_out): journalled and told; -> the
    result, B+T / W+T, journalled too, when the game ends (Clock.time_out
    ends it), None when the config lets play go on (casual games)."""
    clock.save(ref, c)
    ref.event("time", "%s out of time" % colour_name(c))
    if clock.play_on or ref.phase not in ("play", "count"):
        return None
    from gogadget.journal import K_RESULT
    winner = 3 - c
    ref.log.append(ref, K_RESULT, winner, 0xFFFF)  # gamelog.RESULT_WORDS: T
    return colour_name(winner) + "+T"


def told(ref, args):
    """`gogadget-remote clock MS N RUNNING [TOOK_MS]` (link.py): the remote
    player's clock as their board says it (Clock.theirs)."""
    if not 4 <= len(args) <= 5:
        raise ValueError("clock MS N RUNNING [TOOK_MS]")
    if ref.clock is not None:
        ref.clock.theirs(ref, int(args[1]), int(args[2]), args[3] == "1",
                         int(args[4]) if len(args) > 4 else -1)


def status_word(clock):
    """gogadget-status's clock=SYSTEM,RUNNING,B_MS,B_N,W_MS,W_N,FLAGGED,PAUSED
    (RUNNING and FLAGGED B, W or -): the clock as the room's snapshot has
    it, for `gogadget publish` and `remote` (host_sim/room/publish.py)."""
    return "clock=%s,%s,%d,%d,%d,%d,%s,%d" % (
        clock.word.decode(), "-BW"[clock.running], clock.left(1), clock.overtime(1),
        clock.left(2), clock.overtime(2), "-BW"[clock.flagged], 1 if clock.paused else 0)
