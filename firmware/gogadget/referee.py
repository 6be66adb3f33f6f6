"""The referee: settled scans and buttons in; moves, prompts and a record out.

The referee compares what the sensors see (settle.py's settled view, one
whole physical change at a time) with what the game says belongs on the
board (`want`, by place), and the phase decides what the differences mean:

    position.py   "setup": clearing the board, handicap, a given position;
                  "resume": after a power cut, the journalled game put back
    play.py       "play": moves, captures, illegal stones, strays, take-back
    counting.py   "count": dead stones marked by lifting them
    ending.py     the result journalled, shown and kept; "over"
    view.py       the comparison itself (gameops.py: the stuck-sensor question)
    gameops.py    the rare jobs: a game's start in memory, a new game, ...
    gamelog.py    the game's journal records, written and replayed

This module holds the state they share, the buttons, the events and the
public API (docs/ARCHITECTURE.md).  Data flows one way: settle -> referee
(-> rules core) -> prompts -> signals.paint -> frame.

Buttons.  Pass (held: resign), Confirm and New.  Confirm answers whatever
the board is asking, most pressing first: a new game (New, then Confirm:
the unfinished game is kept), a take-back, whether a sensor is stuck, the
count, the free handicap.  New with no move played starts over at once.
"""
# A game's state is set up in gameops.start (loaded for a game's start and
# let go), where pyright cannot follow it.
# pyright: reportAttributeAccessIssue=false

from gogadget import board as core
from gogadget import view
from gogadget import journal as jn
from gogadget import signals as sg
from gogadget.compat import const, forget, ticks_diff, zeros
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN, BTN_STUDY
from gogadget.gamelog import GameLog, komi_code
from gogadget.points import EMPTY, WHITE, PASS, colour_name, vertex
from gogadget.scan import S_EMPTY

_EVENT_SLOTS = const(16)  # events nobody collects are dropped, oldest first
_STUCK_RETRY_MS = const(1000)  # a contradiction that may not be asked about: look again later
# _FAST[0] is Referee.sync_want's pass: its viper twin on the RP2040
# (hw/rp2fast.py installs it with use_fast), elsewhere the plain loop of
# refereeplain.py (loaded when the first Referee is made).
#
# The phase modules other than play's are loaded when their phase comes
# and let go of when play resumes (on MicroPython a module's bytecode is
# heap): a game in progress holds neither the set-up and resume code nor
# the count's.  _FAST[_COUNTING..._ENDING] keep them while in use (no
# import per scan).  (One list: every global and every function is a name
# the board interns for ever.)
_FAST = [None, None, None, None, None]  # type: list
_COUNTING = const(1)
_POSITION = const(2)
_PLAY = const(3)
_ENDING = const(4)


def use_fast(sync_want):
    _FAST[0] = sync_want


def _plain():
    # Imported by name: a Pico, which never loads it, never learns the
    # module's name either (an import statement's names are interned with
    # this module; a string this long is not).
    use_fast(__import__("gogadget.refereeplain", None, None, ("sync_want",)).sync_want)


_TB_NONE = const(0)  # play._TB_NONE: no take-back under way (gameops.start sets it)
# Referee._state: the small numbers the referee and its phase modules
# keep, one preallocated array (an attribute is a name the board interns
# and a slot in the instance).  The phase modules hold copies of the slots
# they use (tests/test_memory_budget.py checks them).
_BATCH = const(0)  # the settler adopted a batch not yet looked at
_BOOTED = const(1)  # the settled view has been taken from the board
_HELD = const(2)  # a phase module other than play's may be loaded
_BRIGHTNESS = const(3)  # the global brightness cap of the LED frame
_ASK_NEW_MS = const(4)  # when New was pressed (waiting for Confirm)
_STUCK_NEXT = const(5)  # when a contradiction may next be asked about
_MULTI = const(6)  # play: new stones last reported as too many
_REPORTED = const(7)  # play: place whose illegal stone was last reported (-1: none)
_RESUMED = const(8)  # counting ended by a stone here: play tries it as a move (-1: none)
_TB_CONFIRMED = const(9)  # play, takeback: Confirm pressed before the take-back was ready
_TB_CONFIRMED_MS = const(10)  # ... when
_OVER_MS = const(11)  # ending: when the game ended (the result's ticker)
_CLEARED = const(12)  # ending: the board was empty at the last look (1), not (0), none yet (-1)
_STATE_SLOTS = const(13)


def _phase(k):
    """The phase module _COUNTING, _POSITION, _PLAY or _ENDING, loaded now
    if it is not."""
    if _FAST[k] is None:
        if k == _COUNTING:
            from gogadget import counting as m
        elif k == _POSITION:
            from gogadget import position as m
        elif k == _PLAY:
            from gogadget import play as m
        else:
            from gogadget import ending as m
        _FAST[k] = m
    return _FAST[k]


def _rare(name, *args):
    """One of the referee's rare jobs (gameops.py: a new game, a take-back
    asked for by the host, the status line, the record), its module loaded
    for the job and let go of after it."""
    from gogadget import gameops
    try:
        return getattr(gameops, name)(*args)
    finally:
        gameops = None
        forget("gameops")


class Referee:
    """See the module notes; the public API is in docs/ARCHITECTURE.md.
    Attributes without an underscore are shared with the phase modules."""

    # Set by gameops.start, as the rest of a game's state:
    n: int  # places (size * size)
    frame: bytearray  # the LED frame (frame.new_frame)

    def __init__(self, config, journal=None):
        if _FAST[0] is None:
            _plain()
        if view._FAST[0] is None and view._PLAIN[0] is None:
            # No viper twin of diff's pass: the plain pass, kept (view._PLAIN).
            from gogadget.viewplain import places
            view._PLAIN[0] = places
        self.config = config
        self.journal = journal
        self.log = GameLog(journal)
        self._events = []
        self._state = zeros("i", _STATE_SLOTS)  # _BATCH ... _STUCK_NEXT
        self.damage = ""  # what boot found wrong with the journal
        self.alarm = False  # the damage alert shows until the board is ready
        self.size = 0
        self.now = 0
        self.unsaved = ""  # the last game could not be kept as SGF (ending.keep)
        self.starts = 0  # games started (a new board): the link follows them
        # The colour a remote opponent plays (pairing.Remote sets it; 0: both
        # players are at this board): the local person never moves for it.
        self.remote = 0
        self.clock = None  # clock.Clock when the config sets a time control
        self.tc_record = None  # the time control set over GTP, journalled (clockgtp)
        self.study = None  # study.Study while in study mode (held New)
        self.start(config.size, config.komi, config.handicap, config.preset)
        self.refresh()  # until the settled view is taken, the board is taken to be empty

    # -- games -------------------------------------------------------------

    def start(self, size, komi, handicap, preset, free=False):
        """A fresh game in memory (no journal, no events): gameops.start,
        loaded for it; the referee's small numbers are reset here."""
        if _rare("start", self, size, komi, handicap, preset, free):
            # New buffers for a new size: the LED frame's brightness cap.
            self._state[_BRIGHTNESS] = sg.brightness_cap(
                len(self.frame) - 1, self.config.budget_ma, self.config.max_brightness)
        st = self._state
        st[_STUCK_NEXT] = st[_ASK_NEW_MS] = 0
        st[_RESUMED] = st[_REPORTED] = st[_CLEARED] = -1
        st[_TB_CONFIRMED] = st[_TB_CONFIRMED_MS] = st[_MULTI] = st[_OVER_MS] = 0

    def set_clock(self, size=0):
        """The config's time control, full and stopped (a new game, GTP
        time_settings); the clock module is loaded only for one."""
        self.clock = None
        if self.config.time_control != "none":
            # By name, as _plain's: a board with no clock never learns these.
            make = getattr(__import__("gogadget.clock", None, None, ("from_config",)),
                           "from_config")
            n = (size or self.size) ** 2
            self.clock = make(self.config, n + n // 8)

    def handicap_done(self):
        self.board.handicap = self.handicap
        self.board.first = WHITE
        self.free = False

    def setup_stone(self, colour, pt):
        self.board.setup(colour, pt)
        self.setups.append((colour, pt))

    def new_game(self, size=None, komi=None, handicap=None, preset=None, free=False):
        """Start a new game; None keeps the current size and komi (komi:
        the new preset's when a preset is given), no handicap; free: the
        handicap is placed where Black likes, whatever the preset says."""
        return _rare("new_game", self, size, komi, handicap, preset, free)

    def set_komi(self, komi):
        self.komi = float(komi)
        self.log.append(self, jn.K_KOMI, 0, komi_code(self.komi))

    def set_position(self, stones):
        """A given position: the LEDs guide the person to set it up."""
        _phase(_POSITION).set_position(self, stones)

    def resume(self, records, report="", now_ms=0):
        """Rebuild the game from journal records (journal.Journal.load) and
        prompt the person to put the position back."""
        return _phase(_POSITION).resume(self, records, report, now_ms)

    # -- scans -------------------------------------------------------------

    def update(self, scan, now_ms):
        """Feed one scan; allocates nothing while nothing happens."""
        self.now = now_ms
        clock = self.clock
        if clock is not None and (clock.running or clock.shown):
            ch = clock.tick(now_ms)  # allocates nothing
            if ch:
                clock.changed(self, ch)  # (a time-out ends the game before anything else)
        if self.rules.changes != self.log.changes:
            self.log.rules(self.rules)
        settler = self.settler
        # Skipping the call keeps an idle scan to one buffer comparison.
        if (not settler.resting or scan != settler.last) and settler.feed(scan, now_ms):
            self._state[_BATCH] = 1
            if not self._state[_BOOTED]:
                self._boot_view()
        if self._state[_BATCH] and settler.clean:
            # Only a clean batch is looked at (lights included): a change
            # still on its way must not show half-decided prompts.
            self._state[_BATCH] = 0
            self.dirty = True
        if self.ncontra and self.ask_stuck < 0 and self.phase != "count" \
                and self.phase != "over" and not self.takeback \
                and ticks_diff(now_ms, self._state[_STUCK_NEXT]) >= 0 \
                and view.age_ms(now_ms, self.oldest) >= self.config.stuck_ms:
            if _rare("ask_stuck", self, now_ms) < 0:
                self._state[_STUCK_NEXT] = now_ms + _STUCK_RETRY_MS
            self.dirty = True
        if self._ask_new and ticks_diff(now_ms, self._state[_ASK_NEW_MS]) >= self.config.confirm_ms:
            self._ask_new = False
            self.event("prompt", "new game not confirmed: play on")
            self.dirty = True
        if self.phase == "over":
            _phase(_ENDING).scroll(self, now_ms)
        if self.shown is not None and (self.dirty or ticks_diff(now_ms, self.shown_until) >= 0):
            self.shown = None
            self.dirty = True
        if self.dirty:
            self.refresh()
        if self.study is not None:
            self.study.follow(now_ms)

    def _boot_view(self):
        """The first settled view: stones found where the game has none were
        there before it (or came with a cut short record): never moves.
        (A free handicap being placed counts the stones already down.)
        (A method: in update() its loop would put update's frame on the heap.)"""
        self._state[_BOOTED] = 1
        if self.phase == "setup" and self.free:
            return
        for pl in range(self.n):
            if self.want[pl] == EMPTY and self.stable[pl] != S_EMPTY:
                self.mark[pl] |= view.M_STRAY

    def refresh(self):
        self.dirty = False
        self.refresh_phase()
        if self.clock is not None:
            self.clock.follow(self)
        self.paint()

    def refresh_phase(self):
        phase = self.phase
        if phase == "play":
            if self._state[_HELD] or _FAST[_COUNTING] is not None \
                    or _FAST[_POSITION] is not None or _FAST[_ENDING] is not None:
                self._state[_HELD] = 0
                _FAST[_COUNTING] = _FAST[_POSITION] = _FAST[_ENDING] = None
                forget("counting", "position", "score", "ending")
            _phase(_PLAY).refresh(self)
            return
        self._state[_HELD] = 1  # another phase's module: let go of when play resumes
        if phase == "count" or phase == "over":
            if _FAST[_PLAY] is not None:  # the game is over: play's module goes until the next
                _FAST[_PLAY] = None
                forget("play", "takeback")
        if phase == "count":
            _phase(_COUNTING).refresh(self)
        elif phase == "over":
            if _FAST[_COUNTING] is not None:  # the count is done: its modules go
                _FAST[_COUNTING] = None
                forget("counting", "score")
            _phase(_ENDING).refresh(self)
        else:  # "setup", "resume"
            _phase(_PLAY)  # loaded before play starts, not in the first move's cycle
            _phase(_POSITION).refresh(self)

    def paint(self):
        turn = self.winner if self.phase == "over" else self.board.to_move()
        alert = sg.ALERT_NONE
        waits = False
        if self.unresolved and not (self.last_seen or self.extras or self.wrong
                                    or self.missings != 1 or self.phase != "play"):
            # Is all that is out of place the move made off the board (an
            # engine's, a remote opponent's) waiting to be placed, with its
            # prisoners?  Waiting for it is no alert.
            last = self.board.last_move()
            waits = last is not None and last[1] != PASS and self.missing == self.place(last[1])
        if self.unresolved and not waits or self._ask_new or self.tb_ready:
            alert = sg.ALERT_PROMPT
        if self.has_fault or self.ask_stuck >= 0:
            alert = sg.ALERT_FAULT
        if self.alarm:
            alert = sg.ALERT_ERROR
        shown = self.shown
        sg.paint(self.frame, self.prompt if shown is None else shown, turn, self.phase, alert,
                 self._state[_BRIGHTNESS])
        if self.clock is not None and self.phase == "play":
            self.clock.lights(self.frame, 1 + self.n)

    # -- places and points ----------------------------------------------------

    def place(self, pt):
        w = self.size + 1
        return (pt // w - 1) * self.size + pt % w

    def pt(self, pl):
        """The point (bordered numbering, see points.py) of a place."""
        size = self.size
        return (pl // size + 1) * (size + 1) + pl % size

    def sync_want(self):
        """want <- the board; places that lost their stone must be lifted."""
        _FAST[0](self)

    # -- moves -------------------------------------------------------------

    def external_move(self, colour, pt):
        """A move decided off the board (engine, remote player; pt may be
        PASS): checked, recorded at once and prompted on the LEDs until the
        person has placed it (and lifted its prisoners).  Returns the board
        reason code (core.OK when accepted)."""
        clock = self.clock
        if clock is not None and clock.running:
            ch = clock.tick(self.now)
            if ch:
                clock.changed(self, ch)
        if self.phase == "over":
            raise ValueError("game is over")
        if pt == PASS:
            self._pass(colour)
            self.last_seen = False
            return core.OK
        code = self.board.play(colour, pt)
        if code != core.OK:
            return code
        if self.phase == "count":
            self.phase = "play"
        _phase(_PLAY).accept(self, colour, pt)
        if self.clock is not None:
            self.clock.complete(self)  # its stone and prisoners are the board asking
        self.last_seen = False
        self.dirty = True
        self.refresh()
        return core.OK

    def undo(self):
        """Take back the last move; the LEDs prompt the physical fix.
        False if there is nothing to take back."""
        return _rare("undo", self)

    # -- buttons -----------------------------------------------------------

    def press(self, key, now_ms):
        """One button event (key: events.BTN_*)."""
        self.now = now_ms
        if key == BTN_STUDY or self.study is not None:
            # Study mode (study.py, loaded only for it) takes the buttons.
            if self.study is None:
                __import__("gogadget.study", None, None, ("start",)).start(self)
                return
            if self.study.press(key, now_ms):
                return
        clock = self.clock
        if clock is not None and clock.running:
            ch = clock.tick(now_ms)  # a flag that fell first ends the game first
            if ch:
                clock.changed(self, ch)
        phase = self.phase
        asked = self._ask_new
        self._ask_new = False  # any button but Confirm drops the question
        if key == BTN_NEW:
            if phase in ("over", "setup") or (self.board.moves == 0 and not self.setups) \
                    or asked:
                self.new_game(handicap=self.config.handicap)
            else:
                self._ask_new = True
                self._state[_ASK_NEW_MS] = now_ms
                self.event("prompt", "new game? press Confirm (this game is kept)")
        elif key == BTN_PASS:
            if phase == "play" and self.board.to_move() == self.remote:
                self.event("prompt", "the opponent's turn")
            elif phase == "play":
                self._pass(self.board.to_move())
                self.last_seen = True
        elif key == BTN_RESIGN:
            if phase in ("play", "count"):
                # With a remote opponent, only the person here can resign here.
                self.resign(3 - self.remote if self.remote else self.board.to_move())
        elif key == BTN_CONFIRM:
            # Confirm answers whatever the board is asking, most pressing first.
            if asked:
                _phase(_ENDING).keep(self, "unfinished")
                self.new_game(handicap=self.config.handicap)
            elif self.ask_undo and self.ask_undo == self.board.moves and phase != "over":
                self.ask_undo = 0
                self.undo()  # the remote opponent's take-back, accepted here
            elif phase == "play" and self.takeback:
                _phase(_PLAY).take_back(self)
            elif self.ask_stuck >= 0:
                _rare("ignore_sensor", self, self.ask_stuck)
            elif phase == "count":
                self.confirm_count()
            elif phase == "setup" and self.free:
                _phase(_POSITION).confirm_handicap(self)
            elif phase == "play" and self.clock is not None and self.clock.paused:
                self.clock.paused = False
                self.event("clock", "clock restarted")
            else:
                self.event("prompt", "nothing to confirm")
        self.dirty = True
        self.refresh()

    def _pass(self, colour):
        if _phase(_PLAY).pass_move(self, colour):
            # The game is over: play's module goes before the count's comes.
            _FAST[_PLAY] = None
            forget("play", "takeback")
            _phase(_COUNTING).start(self)
        self.dirty = True
        self.refresh()

    def resign(self, colour):
        self.log.append(self, jn.K_RESIGN, colour)
        self.event("resign", colour_name(colour) + " resigns")
        _phase(_ENDING).finish(self, 3 - colour, colour_name(3 - colour) + "+R")

    def count_result(self):
        """The result the count would give now (the dead stones marked)."""
        return _phase(_COUNTING).count(self).result

    def confirm_count(self):
        c = _phase(_COUNTING).count(self)
        winner, result, margin = c.winner, c.result, abs(c.black - c.white)
        c = None
        # The count is done: its modules go before the record is kept.
        _FAST[_COUNTING] = None
        forget("counting", "score")
        _phase(_ENDING).finish(self, winner, result, margin)

    # -- queries -----------------------------------------------------------

    def event(self, kind, text):
        ev = self._events
        if len(ev) >= _EVENT_SLOTS:
            ev.pop(0)
        ev.append((kind, text))

    def poll_event(self):
        """The oldest event not yet collected, as (kind, text), or None."""
        if self._events:
            ev = self._events.pop(0)
            if type(ev[1]) is int:  # a move's, as play.accept keeps it: pt, size, colour
                code = ev[1]
                ev = (ev[0], colour_name(code & 3) + " " + vertex((code >> 2) & 31, code >> 7))
            return ev
        return None

    def to_move(self):
        return self.board.to_move()

    def outstanding(self):
        """Prompts the person has not resolved yet (faults not included)."""
        return self.unresolved

    def sgf(self):
        return _rare("sgf", self)

    def date(self):
        """Today as YYYY-MM-DD, or "" when the clock is not set.  (Here,
        not in gameops: every game's record asks, at its end.)"""
        try:
            import time
            t = time.localtime()
            if t[0] >= 2024:
                return "%04d-%02d-%02d" % (t[0], t[1], t[2])
        except (AttributeError, OverflowError, OSError):
            pass
        return ""

    def status(self):
        return _rare("status", self)
