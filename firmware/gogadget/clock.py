"""The game clock: the board is the clock, and the move is the button.

Loaded only when the config names a time control (referee.start); with
"none" this module never comes onto the heap.

Time systems, named as OGS names its time controls (config.py holds the
parameters, docs/CLOCK.md says how each maps to OGS, GTP and SGF):

    absolute   main_time for the whole game
    fischer    main_time, time_increment added after each move, capped at
               max_time (0: no cap)
    byoyomi    main_time, then `periods` periods of period_time each; a move
               made inside a period keeps it, a period that runs out is used
    canadian   main_time, then stones_per_period stones in period_time; the
               period starts again full when its stones are played

Everything is whole milliseconds, below 2**30 (config.validate bounds the
settings), measured with ticks_diff on an injected ms clock (the referee's
`now`), so a wrapped tick counter never charges anyone.  tick() allocates
nothing: it is called on every scan while a clock runs.

The clock decides nothing about who runs: the referee does, through
follow() (the board asking something stops both clocks; docs/CLOCK.md),
made() (a move or pass), complete() (a move made off the board),
take_back() (a take-back gives no time back) and tick().  The state is
journalled as K_CLOCK records (see record()).

This module is what a running clock needs, and nothing more (a game on
the clock holds it: host_sim/tools/memory.py's "clocked" phase); its words,
its SGF properties and the journal's read-back are clockio.py's, GTP's
settings clockgtp.py's, each loaded for its job.
"""
from array import array  # (the per-move record's type, below)

from gogadget import frame as fr
from gogadget import journal as jn
from gogadget.compat import const, forget, ticks_diff
from gogadget.points import BLACK

# The systems by number, SYSTEMS.index(config.time_control).  The consts
# here are private (inlined: no global, no interned name on the board);
# clockmake.py, clocktold.py and the tests hold their own copies.
SYSTEMS = ("none", "absolute", "fischer", "byoyomi", "canadian")
_NONE = const(0)
_FISCHER = const(2)
_BYOYOMI = const(3)
_CANADIAN = const(4)

_WARN_MS = const(10000)  # the last 10 s of main time or of a period blink the turn light
_SHOWN_MS = const(2000)  # a byo-yomi period used shows this long
_CAP_MS = const(65000000)  # fischer without max_time: config.MAX_TIME_S, so ints stay small
_SAVE_MS = const(10000)  # a running clock is journalled this often (a power cut loses less)

# tick()'s answer, bits
_CH_LIGHTS = const(1)  # the warning or a period shown began or ended
_CH_PERIOD = const(2)  # a byo-yomi period was used up
_CH_FLAG = const(4)  # the running player is out of time
_CH_SAVE = const(8)  # time to journal the running clock

_UNKNOWN = const(0xFFFF)  # a move's time left not known (the record leaves it out)
_DONE = const(16)  # K_CLOCK's arg bit: the mover's time left after its move (its BL/WL)

# The clock's own small ints, slots of one list (Clock._state, made by
# clockmake.make): on the board each attribute is a slot of the instance's
# dict and its name is interned for good.  (clockmake.py copies these.)
_MAX_MS = const(0)  # fischer's cap (0: none)
_INDEX = const(1)  # the move the pending completion (_MOVING) belongs to
_SINCE = const(2)  # the tick up to which the running player was charged
_SAVED = const(3)  # running time not yet journalled
_MOVING = const(4)  # the colour whose move waits for its prisoners to be lifted
_TURN_C = const(5)  # the colour whose turn _TURN times
_TURN = const(6)  # ms charged to _TURN_C since its turn began
_WARNING = const(7)  # 1: the running player is in its last 10 s
_SHOWN_AT = const(8)  # when the period being shown (shown) was used
_UNDO = const(9)  # bit per colour: _SNAP holds its last move's state
_SNAP = const(10)  # 3 per colour (at 3 * colour): main, period, count before its last move's bonus


def from_config(config, moves=0):
    """A Clock from the config's time control (None for "none"); moves:
    how many moves' times to keep for the record."""
    system = SYSTEMS.index(config.time_control)
    if system == _NONE:
        return None
    return Clock(system, config.main_time * 1000, config.period_time * 1000, config.periods,
                 config.stones_per_period, config.time_increment * 1000,
                 config.max_time * 1000, config.play_on_time_out, moves)


class Clock:
    """Both players' time, indexed by colour (BLACK 1, WHITE 2)."""

    unknown = _UNKNOWN  # (for clockio, which imports nothing from here)

    # Set by clockmake.make (what each is: there); annotations cost nothing
    # on the board.
    system: int
    main_ms: int
    period_ms: int
    periods: int
    inc_ms: int
    play_on: bool
    main: "list[int]"
    period: "list[int]"
    count: "list[int]"
    _state: "list[int]"
    secs: "array"
    counts: bytearray
    running: int
    started: bool
    paused: bool
    flagged: int
    told: int
    remote_turn: bool
    remote_run: int
    remote_at: int
    last: int
    took: int
    seen: "list[int]"
    remote: int
    shown: int

    def __init__(self, system, main_ms, period_ms=0, periods=0, stones=0, inc_ms=0,
                 max_ms=0, play_on=False, moves=0):
        """The settings in ms (periods: byoyomi's; stones: canadian's);
        moves: how many moves' times the record keeps.  Full time, stopped
        until the first move (clockmake.make: once a game, let go)."""
        self.word = SYSTEMS[system].encode()  # for the room's snapshot (broadcast.py)
        from gogadget import clockmake
        clockmake.make(self, system, main_ms, period_ms, periods, stones, inc_ms, max_ms,
                       play_on, moves)
        clockmake = None
        forget("clockmake")

    # -- time ----------------------------------------------------------------

    def left(self, c):
        """What the player's display shows: main time, then the period's."""
        return self.main[c] if self.main[c] or not self.period_ms else self.period[c]

    def overtime(self, c):
        """Periods (byoyomi) or stones (canadian) left once main time is
        over; 0 while in main time and for absolute and fischer."""
        return self.count[c] if self.period_ms and not self.main[c] else 0

    def run(self, c, now):
        """From now on c's time runs (0: nobody's)."""
        self.tick(now)
        if c and c == self.flagged:
            c = 0
        s = self._state
        if c != self.running:
            self.running = c
            s[_UNDO] &= ~(1 << c)  # its time ran again: a take-back gives none back
            if c and c != s[_TURN_C]:
                s[_TURN_C] = c
                s[_TURN] = 0
        s[_SINCE] = now

    def tick(self, now):
        """Charge the running player up to now; _CH_* bits of what changed
        (allocates nothing)."""
        ch = 0
        s = self._state
        if self.shown and ticks_diff(now, s[_SHOWN_AT]) >= _SHOWN_MS:
            self.shown = 0
            ch = _CH_LIGHTS
        c = self.running
        if not c:
            return ch
        ms = ticks_diff(now, s[_SINCE])
        s[_SINCE] = now
        if ms <= 0:
            return ch
        s[_SAVED] += ms
        s[_TURN] += ms
        if s[_SAVED] >= _SAVE_MS:
            s[_SAVED] = 0
            ch |= _CH_SAVE
        ch |= self._charge(c, ms, now)
        warn = 1 if self.left(c) <= _WARN_MS else 0
        if warn != s[_WARNING]:
            s[_WARNING] = warn
            ch |= _CH_LIGHTS
        return ch

    def _charge(self, c, ms, now):
        m = self.main[c]
        if m > ms:
            self.main[c] = m - ms
            return 0
        ms -= m
        self.main[c] = 0
        if self.system == _BYOYOMI:
            ch = 0
            while self.count[c] > 0:
                p = self.period[c]
                if p > ms:
                    self.period[c] = p - ms
                    return ch
                ms -= p
                self.count[c] -= 1
                if self.count[c] == 0:
                    break
                self.period[c] = self.period_ms
                self.shown = c
                self._state[_SHOWN_AT] = now
                ch |= _CH_PERIOD | _CH_LIGHTS
            self.period[c] = 0
        elif self.system == _CANADIAN and self.count[c] > 0:
            p = self.period[c]
            if p > ms:
                self.period[c] = p - ms
                return 0
            self.period[c] = 0
        self.flagged = c
        self.running = 0
        return _CH_FLAG | _CH_LIGHTS

    def moved(self, c, now):
        """c's move is complete: charge it, then add what the move earns."""
        self.tick(now)
        self.started = True
        self.last = c
        s = self._state
        self.took = s[_TURN] if c == s[_TURN_C] else -1
        s[_TURN] = 0
        if c == self.flagged:
            return
        k = _SNAP + 3 * c
        s[k] = self.main[c]
        s[k + 1] = self.period[c]
        s[k + 2] = self.count[c]
        s[_UNDO] |= 1 << c
        sys_ = self.system
        if sys_ == _FISCHER:
            m = self.main[c] + self.inc_ms
            cap = s[_MAX_MS] or _CAP_MS
            if m > cap:
                m = max(cap, self.main[c])
            self.main[c] = m
        elif sys_ == _BYOYOMI and not self.main[c]:
            self.period[c] = self.period_ms  # a move inside a period keeps it
        elif sys_ == _CANADIAN and not self.main[c]:
            self.count[c] -= 1
            if self.count[c] <= 0:
                self.count[c] = self.periods
                self.period[c] = self.period_ms

    def take_back(self, c):
        """c's last move was taken back: what it earned (an increment, a
        period restored, a stone counted) goes too; the time it took does
        not come back.  True if c's clock changed."""
        s = self._state
        if s[_MOVING] == c:
            s[_MOVING] = 0  # taken back before it was complete: it earned nothing
            return False
        if not s[_UNDO] & (1 << c):
            return False
        s[_UNDO] &= ~(1 << c)
        k = _SNAP + 3 * c
        self.main[c] = s[k]
        self.period[c] = s[k + 1]
        self.count[c] = s[k + 2]
        return True

    # A clock told from elsewhere (GTP time_left, the remote board) and a
    # remote player's clock counted down for the eye are clocktold.py's,
    # loaded by the first board that needs them (GTP, remote play, a
    # clock display): a game on its own clock never holds that code.

    def theirs(self, ref, ms, n, running, took=-1):
        """The remote player's clock as their board says it (clocktold.theirs)."""
        _told().theirs(self, ref, ms, n, running, took)

    def display(self, c, now):
        """What c's clock shows at now (clocktold.display; allocates nothing
        once loaded)."""
        return _told().display(self, c, now)

    # -- the journal ------------------------------------------------------------

    def record(self, c, done=0):
        """c's clock as a K_CLOCK record: arg colour (+4 in overtime, +16
        after c's move is complete: the record's BL/WL, which a resume
        reads back), value and b4, b5 the milliseconds left, b6 the
        periods/stones left."""
        ms = self.left(c)
        over = 4 if self.period_ms and not self.main[c] else 0
        return jn.encode(jn.K_CLOCK, c | over | done, ms & 0xFFFF, (ms >> 16) & 0xFF,
                         (ms >> 24) & 0xFF, self.count[c] & 0xFF)

    # -- lights ------------------------------------------------------------------

    def lights(self, frame, base):
        """The status lights: the turn light blinks fast in the last 10 s,
        the phase light flashes the colour of a byo-yomi period just used,
        the alert light blinks while a player is out of time (play on)
        and the turn light blinks slowly while paused after a power cut."""
        if self._state[_WARNING] and self.running:
            frame[base + fr.STATUS_TURN] = (frame[base + fr.STATUS_TURN] & 0x0F) | fr.FAST
        elif self.paused:
            frame[base + fr.STATUS_TURN] = (frame[base + fr.STATUS_TURN] & 0x0F) | fr.BLINK
        if self.shown:
            frame[base + fr.STATUS_PHASE] = (fr.PUT_BLACK if self.shown == BLACK
                                             else fr.PUT_WHITE) | fr.FAST
        if self.flagged and self.play_on:
            frame[base + fr.STATUS_ALERT] = fr.ILLEGAL | fr.FAST

    # -- the referee's side -------------------------------------------------------

    def made(self, ref, c):
        """A move or pass by c is in the game (play.accept, play.pass_move):
        it is complete once its prisoners are off (follow)."""
        s = self._state
        prev = s[_MOVING]
        if prev and prev != c:
            self._complete(ref, prev)  # the next move came before the prisoners went
        s[_MOVING] = c
        s[_INDEX] = i = ref.board.moves - 1
        if 0 <= i < len(self.secs):
            self.secs[i] = _UNKNOWN  # until the move is complete
        self.run(c if self.started and not self.paused else 0, ref.now)

    def complete(self, ref):
        """The pending move is complete now: a move made off the board (an
        engine's, a remote player's: Referee.external_move) ends when the
        board accepts it; placing its stone and lifting its prisoners is
        the board asking, nobody's time (docs/CLOCK.md)."""
        if self._state[_MOVING]:
            self._complete(ref, self._state[_MOVING])

    def _complete(self, ref, c):
        self._state[_MOVING] = 0
        if c == ref.remote:
            # A remote player's clock is their board's (pairing.Follower
            # sets it from their snapshot): nothing is added here.
            self.started = True
        else:
            self.moved(c, ref.now)
        i = self._state[_INDEX]
        if 0 <= i < len(self.secs):
            s = (self.left(c) + 999) // 1000
            self.secs[i] = s if s < _UNKNOWN else _UNKNOWN - 1
            self.counts[i] = self.overtime(c)
        self.save(ref, c, _DONE)

    def save(self, ref, c, done=0):
        if ref.log.started and ref.journal is not None:
            ref.journal.append(self.record(c, done))

    def follow(self, ref):
        """Whose time runs, from the referee's state (Referee.refresh).
        Nobody's while the board asks something; the mover's while only the
        prisoners of its move remain to be lifted; then the player to move."""
        other = ref.takeback or ref.tb_ready or ref.ask_stuck >= 0 or ref._ask_new or ref.ask_undo
        asking = ref.unresolved or other
        who = 0
        s = self._state
        if ref.phase == "play" or s[_MOVING]:
            m = s[_MOVING]
            if m and not asking:
                self._complete(ref, m)
            elif m and ref.phase == "play" and ref.unresolved == ref.pending and not other:
                # lifting the prisoners is part of the move
                who = m if self.started and not self.paused else 0
            if ref.phase == "play" and not s[_MOVING] and not asking and self.started \
                    and not self.paused:
                who = ref.board.to_move()
            if who == ref.remote:
                who = 0  # their board runs their clock and says what it took
        self.remote = ref.remote
        self.remote_turn = ref.phase == "play" and ref.remote and ref.board.to_move() == ref.remote
        self.run(who, ref.now)
        self.time_out(ref)  # (run's charge may have been the last straw)

    def changed(self, ref, ch):
        """tick() said ch (Referee.update): journal, events, the time-out."""
        c = self.running or self.flagged
        if ch & (_CH_SAVE | _CH_PERIOD) and c:
            self.save(ref, c)  # (a period used is journalled at once)
        if ch & _CH_PERIOD:
            from gogadget import clockio
            clockio.period_used(self, ref)
            clockio = None
            forget("clockio")
        ref.dirty = True
        if ch & _CH_FLAG:
            self.time_out(ref)

    def time_out(self, ref):
        """The flagged player is out of time, if the referee has not acted on
        it yet: B+T / W+T (clockio.time_out), and the game ends unless the
        config lets play go on."""
        c = self.flagged
        if not c or self.told == c:
            return
        self.told = c
        from gogadget import clockio
        result = clockio.time_out(self, ref, c)
        clockio = None
        forget("clockio")
        if result:
            from gogadget import counting
            counting.finish(ref, 3 - c, result)


_TOLD: list = [None]  # clocktold, once loaded: an import statement allocates (display runs per frame)


def _told():
    m = _TOLD[0]
    if m is None:
        from gogadget import clocktold as m
        _TOLD[0] = m
    return m
