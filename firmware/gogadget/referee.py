"""The referee: stable scans and buttons in; moves, prompts and a record out.

The referee compares what the sensors see with what the game says should be
on the board (`want`, by place) and decides:

* exactly one new stone, of the colour to move (or any stone, for
  occupancy sensors), nothing missing: the rules core is asked, and the
  move is journalled, recorded and marked;
* anything else is prompted (signals.P_*) until the person has fixed it:
  prisoners to lift, stones to put back, illegal or wrong-colour stones,
  several new stones at once, a slid stone at both ends.

Stray stones.  A new stone that stands while a stone of the game is missing
or shows the wrong colour (the far end of a slid stone, a stone put down
while the position was not right) is prompted REMOVE and marked a stray: it
is never taken as a move, even after the missing stone is back, until its
place has read empty again (lifted, then placed again).  Several new stones
with nothing missing are not strays: "lift all but one", and the one left
standing is the move.

Raw scans are settled first (settle.py: per-place debounce, longer under
flicker, nothing adopted while a hand is over the board); the referee only
reads the settled view.  A place that contradicts the game for stuck_ms is
taken for a stuck sensor and ignored until it agrees with the game again.

Phases: "setup" (clearing the board, handicap or a given position),
"play", "count" (dead stones marked by lifting them; a new stone on an
empty point ends counting: dead marks are cleared and the stone is the next
move if legal), "over" (result shown), "resume" (after a power cut: put the
journalled position back).

Rule and komi changes during a game (GTP komi, rules, gogadget-set-rule)
are journalled as K_KOMI / K_RULES records and replayed on resume.
"""

from gogadget import board as core
from gogadget import signals as sg
from gogadget import journal as jn
from gogadget.compat import const, ticks_diff, zeros
from gogadget.points import (EMPTY, BLACK, WHITE, PASS, check_size, colour_name,
                             handicap_points, max_handicap, point, vertex)
from gogadget.rules import Rules, PRESETS, format_points
from gogadget.scan import S_EMPTY, S_STONE, S_FAULT
from gogadget.settle import Settler
from gogadget.frame import new_frame
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN

_ILLEGAL_PROMPT = (sg.P_NONE, sg.P_ILLEGAL, sg.P_ILLEGAL, sg.P_KO, sg.P_SUPERKO, sg.P_ILLEGAL)
_PRESET_NAMES = sorted(PRESETS)
_EVENT_SLOTS = 16  # events nobody collects are dropped, oldest first
# Bits of Referee._mark, one byte per place.
_M_REMOVE = const(1)  # a stone here must be lifted (prisoner, undone move)
_M_STRAY = const(2)  # a stray stone stands here: never a move until lifted
_M_DEAD = const(4)  # counting: place of a chain marked dead
_M_CONTRA = const(8)  # the place contradicts the game since _since[place]
_TICK_SHIFT = const(7)  # _since keeps time in 128 ms units, 16 bits (2 h range)
_SCROLL_MS = 180  # one column of score text per step when it is wider than the board


class Referee:
    """See the module notes; the public API is in docs/ARCHITECTURE.md."""

    def __init__(self, config, journal=None):
        self.config = config
        self.journal = journal
        self._journalled = False  # the journal holds this game's header
        self._events = []
        self.damage = ""  # what boot found wrong with the journal
        self._start(config.size, config.komi, config.handicap, config.preset)
        self._refresh()  # until the first scan, the board is taken to be empty

    # -- games -------------------------------------------------------------

    def _alloc(self, size):
        n = size * size
        self.size = size
        self.n = n
        self.want = bytearray(n)  # EMPTY/BLACK/WHITE: what belongs on each place
        self.prompt = bytearray(n)  # signals.P_* per place
        self._mark = bytearray(n)  # _M_* bits per place
        self._fault = bytearray(n)  # 1: stuck, 2: the driver says faulty; ignored
        self._since = zeros("H", n)  # see _M_CONTRA
        self._settler = Settler(size, self.config)
        self._stable = self._settler.stable  # the settled reading of every place
        self.frame = new_frame(size)
        self._brightness = sg.brightness_cap(len(self.frame) - 1, self.config.budget_ma,
                                             self.config.max_brightness)

    def _start(self, size, komi, handicap, preset, free=False):
        """A fresh game in memory (no journal, no events)."""
        check_size(size)
        rules = Rules(preset)  # ValueError for an unknown preset
        if handicap and not 2 <= handicap <= max_handicap(size):
            raise ValueError("invalid handicap")
        if getattr(self, "size", 0) != size:
            self._alloc(size)
        self.rules = rules
        self.komi = rules.komi if komi is None else float(komi)
        # Room for a long game in one allocation: growing the move log
        # later would need the old and the new log at once.
        n = size * size
        self.board = None  # the old game's board may go before the new one is built
        self.board = core.Board(size, rules.ko, rules.suicide, n + n // 8)
        self.handicap = handicap
        self._setups = []
        # Free handicap stones arrive later (placed and confirmed, or as
        # set-up records); fixed ones are known now.
        self._free = bool(handicap) and (free or bool(rules.free_placement))
        if handicap and not self._free:
            for r, c in handicap_points(size, handicap):
                self.board.setup(BLACK, point(size, r, c))
            self._handicap_done()
        self.result = ""
        self.phase = "setup"
        self._resume_phase = "play"
        self._journalled = False
        for i in range(self.n):
            self.want[i] = self._mark[i] = self._fault[i] = 0
        self._settler.restart()
        self._resumed = -1  # counting ended by a stone here: try it as a move
        self._ncontra = 0
        self._oldest = 0
        self._outstanding = 0
        self._takeback = False
        self._reported = -1  # place whose illegal stone was last reported
        self._multi = 0  # new stones last reported as too many
        self._counted = None
        self._text = None
        self._scroll = -1
        self._over_ms = 0
        self._now = 0
        self._alert = sg.ALERT_NONE
        self._has_fault = False
        self._extras = self._missings = self._wrong = self._pending = 0
        self._extra = self._missing = -1
        self._placed = 0
        self._winner = EMPTY
        self._cleared_before = None
        self._last_seen = True  # the last move has been on the board (take-back allowed)
        self._setups = []
        self._sync_want()
        self._rules_seen()
        self._dirty = True

    def _handicap_done(self):
        self.board.handicap = self.handicap
        self.board.first = WHITE
        self._free = False

    def _header(self):
        r = self.rules
        preset = _PRESET_NAMES.index(r.name) if r.name in _PRESET_NAMES else 255
        packed = _pack_rules(r)
        # b6 bit 0: the handicap stones follow as K_SETUP records.
        self._rules_seen()
        return [jn.encode(jn.K_NEW, self.size, _komi_code(self.komi), self.handicap, preset,
                          1 if (self._free or self._setups) else 0),
                jn.encode(jn.K_RULES, r.ko, packed, _rules_name_code(r))]

    def _rules_seen(self):
        """Remember the rules as journalled (see _rules_changed)."""
        r = self.rules
        self._seen_ko = r.ko
        self._seen_packed = _pack_rules(r)
        self._seen_name = r.name

    def _rules_changed(self):
        # GTP (link.py) changes self.rules in place: rules, kgs-rules,
        # gogadget-set-rule.  Allocates nothing.
        r = self.rules
        return r.ko != self._seen_ko or r.name != self._seen_name \
            or _pack_rules(r) != self._seen_packed

    def _log_rules(self):
        r = self.rules
        self._rules_seen()
        self.journal.append(jn.encode(jn.K_RULES, r.ko, self._seen_packed, _rules_name_code(r)))

    def _log(self, kind, arg=0, value=0, b4=0):
        """Journal one record; it is on flash before the LEDs confirm anything."""
        j = self.journal
        if j is None:
            return
        if not self._journalled:
            # The game's header (and set-up stones) go first, once.
            recs = self._header()
            for colour, pt in self._setups:
                recs.append(jn.encode(jn.K_SETUP, colour, pt))
            j.start(recs)
            self._journalled = True
            if kind == 0:
                return
        elif self._rules_changed():
            self._log_rules()  # before the record it may matter to
        j.append(jn.encode(kind, arg, value, b4))

    def new_game(self, size=None, komi=None, handicap=None, preset=None):
        """Start a new game; None keeps the current size and komi (komi:
        the new preset's when a preset is given), no handicap."""
        size = self.size if size is None else size
        if komi is None and preset is None:
            komi = self.komi
        preset = self.rules.name if preset is None else preset
        if preset not in PRESETS and preset != "custom":
            raise ValueError("unknown rules " + preset)
        keep = self.rules if self.rules.name == "custom" and preset == "custom" else None
        if keep is not None:
            preset = self.config.preset
        self._start(size, komi, handicap or 0, preset)
        if keep is not None:
            # Options changed one by one (GTP) stay for the next game.
            _unpack_rules(self.rules, keep.ko, _pack_rules(keep))
            self.rules.name = "custom"
            self.board.ko = keep.ko
            self.board.suicide = keep.suicide
        self._log(0)
        self._event("new-game", "%dx%d komi %s rules %s handicap %d" % (
            size, size, format_points(self.komi), self.rules.name, self.handicap))
        self._refresh()
        return True

    def set_komi(self, komi):
        self.komi = float(komi)
        self._log(jn.K_KOMI, 0, _komi_code(self.komi))

    def set_position(self, stones):
        """A given position: the LEDs guide the person to set it up.  Only
        black stones (two or more) are a free handicap: White moves first."""
        stones = list(stones)
        for colour, pt in stones:
            if colour not in (BLACK, WHITE) or not self.board.on_board(pt):
                raise ValueError("bad set-up stone")
        blacks = all(c == BLACK for c, _ in stones)
        handicap = len(stones) if blacks and 2 <= len(stones) <= max_handicap(self.size) else 0
        self._start(self.size, self.komi, handicap, self.config.preset if self.rules.name == "custom"
                    else self.rules.name, free=True)
        for colour, pt in stones:
            self._setup_stone(colour, pt)
        if handicap:
            self._handicap_done()
        self._log(0)
        self._event("new-game", "set-up position of %d stones" % len(stones))
        self._sync_want()
        self._refresh()

    def _setup_stone(self, colour, pt):
        self.board.setup(colour, pt)
        self._setups.append((colour, pt))

    # -- scans -------------------------------------------------------------

    def update(self, scan, now_ms):
        """Feed one scan; allocates nothing."""
        self._now = now_ms
        if self._journalled and self.journal is not None and self._rules_changed():
            self._log_rules()
        settler = self._settler
        # Skipping the call keeps an idle scan to one buffer comparison.
        if (not settler.resting or scan != settler.last) and settler.feed(scan, now_ms):
            self._dirty = True
        if self._ncontra and self.phase == "play" and \
                _age_ms(now_ms, self._oldest) >= self.config.stuck_ms:
            self._check_stuck(now_ms)
        if self.phase == "over":
            self._scroll_text(now_ms)
        if self._dirty:
            self._refresh()

    def _refresh(self):
        self._dirty = False
        phase = self.phase
        if phase == "play":
            self._refresh_play()
        elif phase == "count":
            self._refresh_count()
        elif phase == "over":
            self._refresh_over()
        else:
            self._refresh_setup()
        self._paint()

    def _paint(self):
        phase = self.phase
        if phase == "over":
            turn = self._winner
        else:
            turn = self.board.to_move()
        alert = sg.ALERT_NONE
        if self._outstanding:
            alert = sg.ALERT_PROMPT
        if self._has_fault:
            alert = sg.ALERT_FAULT
        if self.damage:
            alert = sg.ALERT_ERROR
        self._alert = alert
        sg.paint(self.frame, self.prompt, turn, phase, alert, self._brightness)

    def _diff(self):
        """Prompts for every place where the board and the game disagree;
        sets the counts the phases decide on.  Allocates nothing."""
        scan = self._stable
        want = self.want
        prompt = self.prompt
        mark = self._mark
        fault = self._fault
        since = self._since
        now = (self._now >> _TICK_SHIFT) & 0xFFFF
        extras = missing = wrong = pending = 0
        ncontra = 0
        oldest = now
        age = 0
        self._has_fault = False
        self._extra = -1
        self._missing = -1
        for pl in range(self.n):
            s = scan[pl]
            w = want[pl]
            if s == S_FAULT:
                if fault[pl] != 2:
                    fault[pl] = 2
                    self._event("fault", "sensor %s faulty" % vertex(self.size, self._pt(pl)))
                prompt[pl] = sg.P_FAULT
                self._has_fault = True
                mark[pl] &= ~_M_CONTRA
                continue
            if fault[pl] == 2 or (fault[pl] and (s == S_EMPTY) == (w == EMPTY)):
                # The driver's fault cleared, or a stuck place agrees with the
                # game again: trust it.
                fault[pl] = 0
                self._event("fault", "sensor %s ok" % vertex(self.size, self._pt(pl)))
            if fault[pl]:
                prompt[pl] = sg.P_FAULT
                self._has_fault = True
                mark[pl] &= ~_M_CONTRA
                continue
            m = mark[pl]
            p = sg.P_NONE
            if w == EMPTY:
                if s == S_EMPTY:
                    m &= ~(_M_REMOVE | _M_STRAY)
                elif m & _M_REMOVE:
                    p = sg.P_REMOVE
                    pending += 1
                else:
                    p = sg.P_REMOVE
                    extras += 1
                    self._extra = pl
            elif s == S_EMPTY:
                p = sg.P_PUT_BLACK if w == BLACK else sg.P_PUT_WHITE
                missing += 1
                self._missing = pl
            elif s != S_STONE and s != w:
                p = sg.P_WRONG_COLOUR
                wrong += 1
            prompt[pl] = p
            if p != sg.P_NONE and not m & _M_REMOVE:
                if not m & _M_CONTRA:
                    m |= _M_CONTRA
                    since[pl] = now
                elif (now - since[pl]) & 0xFFFF > age:
                    age = (now - since[pl]) & 0xFFFF
                    oldest = since[pl]
                ncontra += 1
            else:
                m &= ~_M_CONTRA
            mark[pl] = m
        if extras and (missing or wrong):
            # Stones put down while the position is not right: strays.
            for pl in range(self.n):
                if prompt[pl] == sg.P_REMOVE and not mark[pl] & _M_REMOVE \
                        and pl != self._resumed:
                    mark[pl] |= _M_STRAY
        self._extras = extras
        self._missings = missing
        self._wrong = wrong
        self._pending = pending
        self._ncontra = ncontra
        self._oldest = oldest
        self._outstanding = extras + missing + wrong + pending
        if self._reported >= 0 and (extras != 1 or self._extra != self._reported):
            self._reported = -1
        if extras < 2:
            self._multi = 0

    def _check_stuck(self, now):
        mark = self._mark
        since = self._since
        limit = self.config.stuck_ms
        for pl in range(self.n):
            if mark[pl] & _M_CONTRA and _age_ms(now, since[pl]) >= limit:
                mark[pl] &= ~_M_CONTRA
                self._fault[pl] = 1
                self._event("fault", "sensor %s stuck" % vertex(self.size, self._pt(pl)))
        self._dirty = True

    # -- play --------------------------------------------------------------

    def _refresh_play(self):
        self._diff()
        resumed = self._resumed
        self._resumed = -1
        if self._extras == 1 and (self._missings == 0 and self._wrong == 0
                                  or self._extra == resumed):
            pl = self._extra
            s = self._stable[pl]
            colour = self.board.to_move()
            if self._mark[pl] & _M_STRAY:
                self._report(pl, "stray stone at %s: lift it" % vertex(self.size, self._pt(pl)))
            elif s != S_STONE and s != colour:
                self.prompt[pl] = sg.P_WRONG_COLOUR
                self._report(pl, "%s stone at %s: %s to play" % (
                    colour_name(s), vertex(self.size, self._pt(pl)), colour_name(colour)))
            else:
                pt = self._pt(pl)
                code = self.board.play(colour, pt)
                if code == core.OK:
                    self._accepted(colour, pt)
                    self._last_seen = True
                    self._diff()
                else:
                    self.prompt[pl] = _ILLEGAL_PROMPT[code]
                    self._report(pl, "%s %s %s" % (colour_name(colour), vertex(self.size, pt),
                                                   core.REASONS[code]))
        elif self._extras >= 2 and self._multi != self._extras:
            self._multi = self._extras
            self._event("prompt", "%d new stones: lift all but one" % self._extras)
        last = self.board.last_move()
        if not self._last_seen and last is not None and (
                last[1] == PASS or self.prompt[self._place(last[1])] == sg.P_NONE):
            self._last_seen = last[1] != PASS
        self._takeback = self._last_seen and self._shows_before_last()
        if self._takeback:
            last = self.board.last_move()
            if last[1] != PASS:
                pl = self._place(last[1])
                self.prompt[pl] = sg.P_TAKEBACK
                for pt in self.board.captured_stones():
                    self.prompt[self._place(pt)] = sg.P_NONE
        self._mark_last()

    def _report(self, pl, text):
        if self._reported != pl:
            self._reported = pl
            self._event("illegal", text)

    def _mark_last(self):
        last = self.board.last_move()
        if last is not None and last[1] != PASS:
            pl = self._place(last[1])
            if self.prompt[pl] == sg.P_NONE:
                self.prompt[pl] = sg.P_LAST

    def _place(self, pt):
        w = self.size + 1
        return (pt // w - 1) * self.size + pt % w

    def _pt(self, pl):
        """The point (bordered numbering, see points.py) of a place."""
        size = self.size
        return (pl // size + 1) * (size + 1) + pl % size

    def _sync_want(self):
        """want <- the board; places that lost their stone must be lifted."""
        cells = self.board.cells
        want = self.want
        mark = self._mark
        size = self.size
        for pl in range(self.n):
            c = cells[(pl // size + 1) * (size + 1) + pl % size]
            if c == EMPTY and want[pl] != EMPTY:
                mark[pl] |= _M_REMOVE
            elif c != EMPTY:
                mark[pl] &= ~(_M_REMOVE | _M_STRAY)
            want[pl] = c

    def _accepted(self, colour, pt):
        """A move is in the rules core: journal it, then show it."""
        self._log(jn.K_MOVE, colour, pt)
        self._sync_want()
        self._event("move", colour_name(colour) + " " + vertex(self.size, pt))
        if self.board.last_captures:
            caps = self.board.captured_stones()
            self._event("capture", "%s captured %d: %s" % (
                colour_name(colour), len(caps), " ".join(vertex(self.size, p) for p in caps)))

    def _shows_before_last(self):
        """Does the board show the position before the last move (a take-back)?"""
        b = self.board
        last = b.last_move()
        if last is None or self.phase != "play":
            return False
        if last[1] == PASS:
            return self._outstanding == 0 and self._pending == 0
        if self._missings != 1 or self._missing != self._place(last[1]) or self._wrong:
            return False
        caps = b.captured_stones()
        if self._extras + self._pending != len(caps):
            return False
        scan = self._stable
        opp = 3 - last[0]
        for pt in caps:
            s = scan[self._place(pt)]
            if s == S_EMPTY or (s != S_STONE and s != opp):
                return False
        return True

    def _pass(self, colour):
        self.board.pass_move(colour)
        self._log(jn.K_MOVE, colour, PASS)
        self._event("pass", colour_name(colour))
        self._after_pass()

    def _after_pass(self):
        from gogadget import score
        if score.game_over(self.board, self.rules):
            self.phase = "count"
            self._counted = None
            # Only a stone put down from now on can end counting (see
            # _refresh_count); one already standing is a stray.
            for pl in range(self.n):
                if self.want[pl] == EMPTY and self._stable[pl] not in (S_EMPTY, S_FAULT) \
                        and not self._mark[pl] & _M_REMOVE:
                    self._mark[pl] |= _M_STRAY
            self._event("count", "two passes: lift dead stones, then confirm")
        self._dirty = True
        self._refresh()

    def external_move(self, colour, pt):
        """A move decided off the board (engine, remote player; pt may be
        PASS): checked, recorded at once and prompted on the LEDs until the
        person has placed it (and lifted its prisoners).  Returns the board
        reason code (core.OK when accepted)."""
        if self.phase == "over":
            raise ValueError("game is over")
        if pt == PASS:
            self._pass(colour)
            self._last_seen = False
            return core.OK
        code = self.board.play(colour, pt)
        if code != core.OK:
            return code
        if self.phase == "count":
            self.phase = "play"
        self._accepted(colour, pt)
        self._last_seen = False
        self._dirty = True
        self._refresh()
        return core.OK

    def undo(self):
        """Take back the last move from the host; the LEDs prompt the
        physical fix.  False if there is nothing to take back."""
        if not self.board.moves:
            return False
        colour, pt = self.board.last_move()  # pyright: ignore[reportGeneralTypeIssues]
        self.board.undo()
        self._log(jn.K_UNDO)
        self._undone(colour, pt)
        return True

    def _undone(self, colour, pt):
        self._sync_want()
        self._last_seen = True
        self.result = ""
        self.phase = "play"
        self._event("undo", colour_name(colour) + " " + vertex(self.size, pt))
        self._dirty = True
        self._refresh()

    # -- buttons -----------------------------------------------------------

    def press(self, button, now_ms):
        """One button event (events.BTN_*)."""
        self._now = now_ms
        phase = self.phase
        if button == BTN_NEW:
            self.new_game(handicap=self.config.handicap)
        elif button == BTN_PASS:
            if phase == "play":
                self._pass(self.board.to_move())
                self._last_seen = True
        elif button == BTN_RESIGN:
            if phase in ("play", "count"):
                colour = self.board.to_move()
                self._log(jn.K_RESIGN, colour)
                self._event("resign", colour_name(colour) + " resigns")
                self._finish(3 - colour, colour_name(3 - colour) + "+R")
        elif button == BTN_CONFIRM:
            self._confirm()

    def _confirm(self):
        phase = self.phase
        if phase == "play":
            if self._takeback:
                colour, pt = self.board.last_move()  # pyright: ignore[reportGeneralTypeIssues]
                self.board.undo()
                self._log(jn.K_UNDO)
                self._undone(colour, pt)
            else:
                self._event("prompt", "nothing to confirm")
        elif phase == "count":
            c = self._count_now()
            self._finish(c.winner, c.result, c)
        elif phase == "setup" and self._free:
            self._confirm_handicap()

    def _finish(self, winner, result, counted=None):
        if counted is not None:
            margin = abs(counted.black - counted.white)
            self._log(jn.K_RESULT, winner, int(margin * 2 + 0.5))
        self.result = result
        self._over(winner)
        self._event("result", result)
        if self.journal is not None:
            try:
                name = jn.save_game(self.journal.dir, self.sgf())
                self._event("prompt", "game kept as " + name)
            except OSError as exc:
                self._event("error", "could not keep the game: %s" % exc)
        self._refresh()

    def _over(self, winner):
        from gogadget import font
        self.phase = "over"
        self._winner = winner
        self._cleared_before = None
        self._text = font.render(self.result)
        self._over_ms = self._now
        self._scroll = -999
        self._dirty = True

    # -- counting ----------------------------------------------------------

    def _count_now(self):
        from gogadget import score
        dead = []
        for pl in range(self.n):
            if self._mark[pl] & _M_DEAD:
                dead.append(self._pt(pl))
        return score.count(self.board, self.rules, dead, self.komi)

    def _refresh_count(self):
        scan = self._stable
        want = self.want
        mark = self._mark
        board = self.board
        self._has_fault = False
        new = -1
        nnew = 0
        for pl in range(self.n):
            m = mark[pl] & ~_M_DEAD
            if want[pl] == EMPTY and scan[pl] != S_FAULT:
                if scan[pl] == S_EMPTY:
                    m &= ~(_M_REMOVE | _M_STRAY)
                elif not m & (_M_REMOVE | _M_STRAY):
                    new = pl
                    nnew += 1
            mark[pl] = m
        if nnew == 1:
            # 001/003: players who cannot agree on the count play on.  The
            # new stone ends counting and is the next move if it is legal;
            # the lifted dead stones are prompted back.
            self.phase = "play"
            self._counted = None
            self._resumed = new
            self._event("count", "new stone at %s: counting ends, play resumes"
                        % vertex(self.size, self._pt(new)))
            self._refresh_play()
            return
        # A chain with any stone lifted is dead; put them all back to revive it.
        for pl in range(self.n):
            if want[pl] != EMPTY and scan[pl] == S_EMPTY and not mark[pl] & _M_DEAD:
                for pt in board.chain(self._pt(pl)):
                    mark[self._place(pt)] |= _M_DEAD
        c = self._count_now()
        owner = c.owner
        outstanding = 0
        for pl in range(self.n):
            s = scan[pl]
            terr = owner[self._pt(pl)]
            t = sg.P_TERRITORY_BLACK if terr == BLACK else sg.P_TERRITORY_WHITE if terr == WHITE \
                else sg.P_NONE
            if s == S_FAULT:
                p = sg.P_FAULT
                self._has_fault = True
            elif want[pl] != EMPTY:
                if mark[pl] & _M_DEAD:
                    p = sg.P_DEAD if s != S_EMPTY else t
                else:
                    p = sg.P_WRONG_COLOUR if s != S_STONE and s != want[pl] else sg.P_NONE
            elif s != S_EMPTY:
                p = sg.P_REMOVE
                outstanding += 1
            else:
                p = t
            self.prompt[pl] = p
        self._outstanding = outstanding
        if self._counted != c.result:
            self._counted = c.result
            self._event("count", c.result)

    # -- set-up and resume ---------------------------------------------------

    def _refresh_setup(self):
        self._diff()
        if self._free:
            # Free handicap: black stones placed so far are counted, not errors.
            placed = 0
            for pl in range(self.n):
                if self.prompt[pl] == sg.P_REMOVE and not self._mark[pl] & _M_REMOVE:
                    if self._stable[pl] == WHITE:
                        self.prompt[pl] = sg.P_WRONG_COLOUR
                    else:
                        self.prompt[pl] = sg.P_PLACED
                        placed += 1
            self._placed = placed
            self._outstanding = self.handicap - placed if placed < self.handicap else 0
            return
        if self._outstanding == 0:  # faulty places are ignored, never waited for
            done = self.phase
            self.phase = self._resume_phase if done == "resume" else "play"
            self._event("prompt", "board ready: %s to play" % colour_name(self.board.to_move()))
            if self.phase == "play":
                self._refresh_play()
            elif self.phase == "count":
                self._refresh_count()

    def _confirm_handicap(self):
        if self._placed != self.handicap or self._missings or self._wrong:
            self._event("prompt", "place %d black stones, then confirm" % self.handicap)
            return
        self._log(0)
        for pl in range(self.n):
            if self.prompt[pl] == sg.P_PLACED:
                pt = self._pt(pl)
                self._setup_stone(BLACK, pt)
                self._log(jn.K_SETUP, BLACK, pt)
        self._handicap_done()
        self._sync_want()
        self._event("prompt", "handicap placed: W to play")
        self.phase = "play"
        self._dirty = True
        self._refresh()

    def resume(self, records, report="", now_ms=0):
        """Rebuild the game from journal records (journal.Journal.load) and
        prompt the person to put the position back."""
        self._now = now_ms
        self.damage = report
        if not records:
            self._log(0)
            if report:
                self._event("error", report)
            self._refresh()
            return 0
        problem = ""
        over = None
        for i, rec in enumerate(records):
            kind, arg, value, b4, b5, b6 = rec
            if kind == jn.K_NEW:
                preset = _PRESET_NAMES[b5] if b5 < len(_PRESET_NAMES) else self.config.preset
                self._start(arg, (value - 32768) / 2, b4, preset, free=bool(b6 & 1))
                over = None
            elif kind == jn.K_RULES:
                if 0 < b4 <= len(_PRESET_NAMES):
                    self.rules.load(_PRESET_NAMES[b4 - 1])  # its name and komi
                elif b4 == 255:
                    self.rules.name = "custom"
                _unpack_rules(self.rules, arg, value)
                self.board.ko = self.rules.ko
                self.board.suicide = self.rules.suicide
            elif kind == jn.K_SETUP:
                self._setup_stone(arg, value)
                if self._free and len(self._setups) == self.handicap:
                    self._handicap_done()
            elif kind == jn.K_MOVE:
                if value == PASS:
                    self.board.pass_move(arg)
                elif self.board.play(arg, value) != core.OK:
                    problem = "journal record %d replays an illegal move" % i
                    break
            elif kind == jn.K_UNDO:
                self.board.undo()
                over = None
            elif kind == jn.K_RESIGN:
                over = (3 - arg, colour_name(3 - arg) + "+R")
            elif kind == jn.K_RESULT:
                text = "0" if arg == EMPTY else colour_name(arg) + "+" + format_points(value / 2)
                over = (arg, text)
            elif kind == jn.K_KOMI:
                self.komi = (value - 32768) / 2
        self._journalled = True
        self._rules_seen()
        self._sync_want()
        for i in range(self.n):
            self._mark[i] &= ~_M_REMOVE  # what was lifted before the cut need not be again
        moves = self.board.moves
        if problem:
            self.damage = (report + "; " if report else "") + problem
        if over is not None:
            self.result = over[1]
            self._over(over[0])
        else:
            from gogadget import score
            self._resume_phase = "count" if score.game_over(self.board, self.rules) else "play"
            if self._free:
                self._resume_phase = "setup"
            self.phase = "setup" if self._free else "resume"
        self._event("resume", "resumed %d moves of a %dx%d game: put the stones back" % (
            moves, self.size, self.size))
        if self.damage:
            self._event("error", self.damage)
        self._dirty = True
        self._refresh()
        return moves

    # -- over --------------------------------------------------------------

    def _refresh_over(self):
        # Clearing the board after a finished game starts the next one.
        scan = self._stable
        empty = True
        for pl in range(self.n):
            if scan[pl] != S_EMPTY:
                empty = False
                break
        if empty and self._cleared_before is False:
            self.new_game(handicap=self.config.handicap)
            return
        self._cleared_before = empty
        self._outstanding = 0
        self._has_fault = False
        self._scroll = -999
        self._scroll_text(self._now)

    def _scroll_text(self, now):
        cols = self._text
        assert cols is not None  # set with the result, before any scrolling
        size = self.size
        span = 0
        if len(cols) <= size:
            offset = -((size - len(cols)) // 2)
        else:
            # A ticker: the text, a gap of three columns, the text again.
            span = len(cols) + 3
            offset = (ticks_diff(now, self._over_ms) // _SCROLL_MS) % span
        if offset != self._scroll:
            self._scroll = offset
            sg.draw_text(self.prompt, size, cols, offset, span)
            self._paint()

    # -- queries -----------------------------------------------------------

    def _event(self, kind, text):
        ev = self._events
        if len(ev) >= _EVENT_SLOTS:
            ev.pop(0)
        ev.append((kind, text))

    def poll_event(self):
        """The oldest event not yet collected, as (kind, text), or None."""
        if self._events:
            return self._events.pop(0)
        return None

    def to_move(self):
        return self.board.to_move()

    def outstanding(self):
        """Prompts the person has not resolved yet (faults not included)."""
        return self._outstanding

    def sgf(self):
        from gogadget import sgf
        return sgf.record(self.board, self.rules, self.komi, self.result, _date())

    def status(self):
        b = self.board
        text = "%s: %s to move, move %d, prisoners B %d W %d, %d outstanding" % (
            self.phase, colour_name(b.to_move()), b.moves, b.prisoners[BLACK],
            b.prisoners[WHITE], self._outstanding)
        if self.result:
            text += ", result " + self.result
        if self._has_fault:
            text += ", sensor fault"
        if self.damage:
            text += ", " + self.damage
        return text


def _age_ms(now_ms, then):
    """Milliseconds from a 16-bit _since tick to now (128 ms resolution)."""
    return (((now_ms >> _TICK_SHIFT) - then) & 0xFFFF) << _TICK_SHIFT


def _komi_code(komi):
    return int(komi * 2) + 32768


def _pack_rules(r):
    return (r.suicide | r.scoring << 2 | r.pass_stones << 3 | r.white_passes_last << 4
            | r.tie << 5 | r.komi_prisoners << 6 | r.compensation << 7 | r.free_placement << 9)


def _rules_name_code(r):
    # K_RULES b4: 1 + preset index, 255 custom, 0 (older journals) unknown.
    return _PRESET_NAMES.index(r.name) + 1 if r.name in _PRESET_NAMES else 255


def _unpack_rules(rules, ko, packed):
    rules.ko = ko
    rules.suicide = packed & 3
    rules.scoring = (packed >> 2) & 1
    rules.pass_stones = (packed >> 3) & 1
    rules.white_passes_last = (packed >> 4) & 1
    rules.tie = (packed >> 5) & 1
    rules.komi_prisoners = (packed >> 6) & 1
    rules.compensation = (packed >> 7) & 3
    rules.free_placement = (packed >> 9) & 1


def _date():
    try:
        import time
        t = time.localtime()
        if t[0] >= 2024:
            return "%04d-%02d-%02d" % (t[0], t[1], t[2])
    except (AttributeError, OverflowError, OSError):
        pass
    return ""
