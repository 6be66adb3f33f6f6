"""The simulated person of the stress harness (host_sim/stress.py).

They see only what a person sees -- the LED frame, the referee's events --
press buttons, and choose moves with their own instance of the firmware's
rules core (gogadget.board.Board configured from the preset), so nothing
here re-implements a rule.  Habits (MOVE_HABITS, GAME_HABITS) are drawn
from the game's seed; every invariant is checked as the game goes (see the
notes of host_sim/stress.py), and a breach raises Failure.
"""
import os

from sgfmill import sgf as sgfmill_sgf

from gogadget import frame, points, score, signals
from gogadget.board import KO, OK, REASONS, SUICIDE, SUPERKO, Board
from gogadget.points import BLACK, EMPTY, PASS, WHITE
from host_sim.gamerecord import Game, compare
from host_sim.hand import Person, neighbours, slides
from host_sim.virtual import LIFT_CODES, PUT_CODES, Simulator, code_name
from host_sim.watch import WatchedSim  # noqa: F401 (stress imports it from here)

CAPTURE_BIAS = 0.6  # chance a player takes a capture when there is one
CONTACT_BIAS = 0.5  # chance a player plays next to an opponent's stone

OBEY_MS = 20000  # longest a person follows the lights before calling them stuck
STALE_MS = 5000  # longest a light may ask for what the board already shows
ANSWER_MS = 3000  # longest a person waits for the board to react to one action
REACT_MS = 300  # a person acts again on a stone they touched only after looking anew
RESUME_MS = 2000  # a board whose stones never moved is ready this soon after a cut
SLOW_MS = 31000  # a slow person: past the firmware's stuck-sensor time (30 s)
CONFIRM_NEW_MS = (300, 3000)  # New, then Confirm within 10 s
# A game that takes longer than this never ends: 10 minutes, and 40 s a move
# (a slow person spends 31 s now and then).
GAME_BASE_MS = 10 * 60 * 1000
GAME_MOVE_MS = 40 * 1000

ILLEGAL_CODES = (frame.ILLEGAL, frame.KO, frame.SUPERKO)
TAKEBACK_CODE = frame.OK_GREEN | frame.BLINK

# Habits that may fire at any move: (chance per move once the game has the habit).
MOVE_HABITS = {
    "late": 0.3,  # prisoners lifted only after the next stone is down
    "one_motion": 0.4,  # prisoners lifted 0-40 ms after the capturing stone
    "under_hand": 0.3,  # the capture done under a hand over the board
    "prisoners_first": 0.2,  # prisoners lifted 0-40 ms before the capturing stone
    "bump": 0.08,  # a stone slid to a neighbouring empty point
    "bump_last": 0.08,  # the last move's stone slid
    "sleeve": 0.04,  # a sleeve drags two stones onto neighbouring points at once
    "knock_off": 0.05,  # a stone knocked off the board, put back when the lights ask
    "wrong_colour": 0.1,  # a stone of the other colour first (colour sensors)
    "illegal": 0.15,  # a suicide/ko/superko stone put down, lifted when it blinks
    "extra": 0.08,  # two stones down at once, one lifted
    "drop": 0.08,  # a stone dropped and picked up again within a scan or two
    "nudge": 0.1,  # a stone put on a neighbouring point and nudged into place
    "hand": 0.1,  # a hand over the board while the stone goes down
    "two_hands": 0.06,  # both players' hands over the board
    "takeback": 0.06,  # a wrong (legal) move accepted, then taken back
    "slow": 0.5,  # waits > 30 s with an illegal stone or a take-back pending
    "stray_confirm": 0.05,  # Confirm pressed with nothing to confirm
    "lift_back": 0.05,  # the last stone lifted to look at it, put back (no take-back)
    "pass_mid": 0.03,  # a pass in the middle of the game
    "self_capture": 0.15,  # a legal suicide, one stone or a chain (presets that allow it)
}
# Habits that happen once in a game.
GAME_HABITS = ("cut_clean", "cut_record", "cut_count", "count_bump", "new_mid_game",
               "dead_revived", "resign")
HABITS = tuple(MOVE_HABITS) + GAME_HABITS + ("free_handicap",)


class Failure(Exception):
    """A broken invariant: cause (short, for grouping) and detail."""

    def __init__(self, cause, detail=""):
        super().__init__("%s: %s" % (cause, detail) if detail else cause)
        self.cause = cause
        self.detail = detail


# -- what the person means the game to be -----------------------------------------


class Intent:
    """The person's own rules core (the firmware's Board, configured from the
    preset), the set-up stones and the moves in order, by place."""

    def __init__(self, size, rules):
        self.size = size
        self.rules = rules
        self.board = Board(size, rules.ko, rules.suicide)
        self.setup = []  # [(colour, place)]
        self.history = []  # [(colour, point)], point PASS for a pass

    def pt(self, place):
        return points.place_point(self.size, place)

    def place(self, pt):
        return points.place(self.size, pt)

    def vertex(self, place):
        return points.vertex(self.size, self.pt(place))

    def handicap(self, places):
        for pl in places:
            self.board.setup(BLACK, self.pt(pl))
            self.setup.append((BLACK, pl))
        # As the referee does after handicap stones: White moves first.
        self.board.handicap = len(places)
        self.board.first = WHITE

    def to_move(self):
        return self.board.to_move()

    def play(self, colour, place):
        """The move is intended from now on; returns the places it captured."""
        code = self.board.play(colour, self.pt(place))
        if code != OK:
            raise ValueError("the person meant an illegal move: " + REASONS[code])
        self.history.append((colour, self.pt(place)))
        return [self.place(p) for p in self.board.captured_stones()]

    def pass_move(self, colour):
        self.board.pass_move(colour)
        self.history.append((colour, PASS))

    def passed_out(self):
        """Have the players passed the game out (two passes in a row, the
        last White's where the preset says White passes last)?"""
        b = self.board
        if b.consecutive_passes() < 2:
            return False
        return not self.rules.white_passes_last or b.last_move()[0] == WHITE

    def undo(self):
        self.board.undo()
        self.history.pop()

    def captured(self, i=-1):
        return [self.place(p) for p in self.board.captured_stones(i)]

    def expected(self):
        """What should lie on each place."""
        cells = self.board.cells
        return bytes(cells[self.pt(pl)] for pl in range(self.size * self.size))

    def empties(self):
        cells = self.board.cells
        return [pl for pl in range(self.size * self.size) if cells[self.pt(pl)] == EMPTY]

    def _own_eye(self, colour, pt):
        cells = self.board.cells
        w = self.board.stride
        return all(cells[n] in (colour, points.EDGE) for n in (pt - 1, pt + 1, pt - w, pt + w))

    def _try(self, colour, pt):
        """(code, self-capture?, stones captured) of a play, the board unchanged."""
        b = self.board
        code = b.play(colour, pt)
        if code != OK:
            return code, False, 0
        suicide = b.cells[pt] == EMPTY
        captures = b.last_captures
        b.undo()
        return code, suicide, captures

    def _touches(self, colour, pt):
        cells = self.board.cells
        w = self.board.stride
        return any(cells[n] == 3 - colour for n in (pt - 1, pt + 1, pt - w, pt + w))

    def random_move(self, rng, colour, avoid=(), self_capture=False):
        """A random legal place that does not fill an own single-point eye
        (so random games end); a self-capture only when asked for.  Captures
        and contact plays are preferred, so prisoners come up often.  None:
        nothing sensible left, pass."""
        empties = [pl for pl in self.empties()
                   if pl not in avoid and not self._own_eye(colour, self.pt(pl))]
        rng.shuffle(empties)
        if not self_capture and rng.random() < CAPTURE_BIAS:
            for pl in empties:
                code, suicide, captures = self._try(colour, self.pt(pl))
                if code == OK and captures and not suicide:
                    return pl
        if rng.random() < CONTACT_BIAS:
            empties.sort(key=lambda pl: not self._touches(colour, self.pt(pl)))
        for pl in empties:
            code, suicide, _ = self._try(colour, self.pt(pl))
            if code == OK and suicide == self_capture:
                return pl
        return None

    def illegal_place(self, rng, colour):
        """(place, reason code) of an empty point where colour may not play."""
        empties = self.empties()
        rng.shuffle(empties)
        for pl in empties:
            code = self.board.legal(colour, self.pt(pl))
            if code in (SUICIDE, KO, SUPERKO):
                return pl, code
        return None

    def chains(self):
        """Every chain on the board, as lists of places."""
        seen = set()
        out = []
        cells = self.board.cells
        for pl in range(self.size * self.size):
            pt = self.pt(pl)
            if cells[pt] != EMPTY and pt not in seen:
                chain = self.board.chain(pt)
                seen.update(chain)
                out.append([self.place(p) for p in chain])
        return out

    def game(self, komi=0.0):
        """The intended game as host_sim.gamerecord reads a record."""
        moves = [(c, None if pt == PASS else self.place(pt)) for c, pt in self.history]
        return Game(self.size, komi, list(self.setup), moves, self.rules.name, {})

    def describe(self, move):
        colour, pt = move
        return points.colour_name(colour) + " " + ("pass" if pt == PASS else points.vertex(self.size, pt))


# -- the board, watched --------------------------------------------------------------


# -- the person ------------------------------------------------------------------------


class Player(Person):
    """A person with habits who plays random legal games by the lights."""

    def __init__(self, sim, spec, rng, tracer=None, sabotage=None):
        super().__init__(sim, rng, late=0.0, bump=0.0, max_delay_ms=200)
        self.spec = spec
        self.tracer = tracer
        self.sabotage = sabotage
        self.used = set()  # habits that really happened
        self.done = set()  # once-a-game habits whose moment has come
        self.doing = "start"  # what the person is at (names a failure's context)
        self.pending = []  # prisoners left on the board for after the next move
        self.expect_shrink = False  # a take-back or a cut may shorten the record
        self.seen_moves = 0
        self.time_limit_ms = GAME_BASE_MS + GAME_MOVE_MS * spec.max_moves
        self.resume_ms = []  # how long the board took to be ready after each clean cut
        # On physical sensors a real switch can stick (hardware/README, the
        # occupancy reed): the person answers the board's "sensor stuck?"
        # question as a person would, after checking the point; on ideal
        # sensors a light that asks for what the board shows is a bug.
        self.answers_stuck = hasattr(sim.sensors, "board")
        self.stuck_answered = []  # vertices the person told the board to ignore
        self.kept = set(self._kept_names())
        self.touched = {}  # place -> virtual ms the hand last touched it
        self.intent = self._new_intent()
        sim.watcher = self.check_record

    def _new_intent(self):
        return Intent(self.spec.size, self.spec.rules)

    # -- physical actions, each traced ---------------------------------------------

    def say(self, text):
        if self.tracer is not None:
            self.tracer(text)

    def v(self, place):
        return self.sim.vertex(place)

    def put(self, colour, place):
        self.say("put %s %s" % (points.colour_name(colour), self.v(place)))
        self.touched[place] = self.sim.clock.now_ms
        super().put(colour, place)

    def lift(self, place):
        self.say("lift %s" % self.v(place))
        self.touched[place] = self.sim.clock.now_ms
        return super().lift(place)

    def slide(self, src, dst):
        self.say("slide %s -> %s" % (self.v(src), self.v(dst)))
        self.touched[src] = self.touched[dst] = self.sim.clock.now_ms
        return super().slide(src, dst)

    def just_touched(self, place):
        """Did the hand touch this point too recently for a person to have
        looked at its light anew?"""
        return self.sim.clock.now_ms - self.touched.get(place, -REACT_MS) < REACT_MS

    def hand(self, ms, hands=1):
        self.say("hand%s over the board for %d ms" % ("s" if hands > 1 else "", ms))
        self.sim.stones.hand(self.sim.clock.now_ms, ms, hands)

    def press(self, name):
        self.say("press %s" % name)
        self.sim.press(name)

    def wait(self, ms, why=""):
        self.say("wait %d ms%s" % (ms, " (" + why + ")" if why else ""))
        self.sim.run(ms)

    def scans(self, n):
        for _ in range(n):
            self.sim.step()

    def habit(self, name):
        """Does the habit fire now?  Counts it if so."""
        if name not in self.spec.habits:
            return False
        if name in MOVE_HABITS and self.rng.random() >= MOVE_HABITS[name]:
            return False
        self.used.add(name)
        self.doing = name
        return True

    # -- invariants ------------------------------------------------------------------

    def check_record(self):
        """After every scan: the firmware's record is a prefix of the intended moves."""
        board = self.sim.referee.board
        n = board.moves
        if n == self.seen_moves:
            return
        hist = self.intent.history
        if n < self.seen_moves and not self.expect_shrink:
            raise Failure("accepted move lost", "the record went from %d to %d moves" % (
                self.seen_moves, n))
        for i in range(max(0, min(n, self.seen_moves) - 1), n):
            got = board.move(i)
            if i >= len(hist):
                raise Failure("move nobody made accepted", "firmware move %d is %s; the person "
                              "meant %d moves" % (i + 1, self.intent.describe(got), len(hist)))
            if tuple(got) != hist[i]:
                raise Failure("wrong move accepted", "firmware move %d is %s, the person meant %s"
                              % (i + 1, self.intent.describe(got), self.intent.describe(hist[i])))
        self.seen_moves = n
        if self.sim.clock.now_ms > self.time_limit_ms:
            raise Failure("game never ends", "%d min of virtual time" % (self.time_limit_ms // 60000))

    def firmware_moves(self):
        return self.sim.referee.board.moves

    def position_matches(self):
        return bytes(self.sim.stones.cells) == self.intent.expected()

    def check_position(self):
        """The lights ask nothing: the stones must be the game's position.
        A point with a fault light is not quiet (the board says it cannot
        see there): a wrong stone there is a failure of its own."""
        if self.pending or self.phase_light() != signals.PHASE_CODES["play"]:
            return
        if not self.position_matches():
            want = self.intent.expected()
            diffs = [pl for pl, c in enumerate(self.sim.stones.cells) if c != want[pl]]
            code = self.sim.leds.code
            quiet = [self.v(pl) for pl in diffs if code(pl) & 0x0F != frame.FAULT]
            if quiet:
                raise Failure("lights quiet, position wrong", "stones differ from the game at %s"
                              % " ".join(quiet[:6]))
            raise Failure("position wrong under a fault light", "stones differ from the game at "
                          "%s, where the sensor is ignored" % " ".join(self.v(pl) for pl in diffs[:6]))

    # -- following the lights --------------------------------------------------------

    def shows(self, place, code):
        """Does the board already show what this light asks for?"""
        c = code & 0x0F
        here = self.sim.stones.cells[place]
        if c in LIFT_CODES:
            return here == EMPTY
        if c in PUT_CODES:
            return here == PUT_CODES[c]
        return here == EMPTY  # wrong colour over an empty point

    def describe_lights(self, prompts):
        return " ".join("%s=%s" % (self.v(p), code_name(c)) for p, c in sorted(prompts.items())[:6])

    def obey(self, limit_ms=OBEY_MS):
        """Do what the lights ask until they ask nothing (bounded)."""
        sim = self.sim
        start = sim.clock.now_ms
        stale_since = None
        sim.settle()
        while True:
            prompts = self.look()
            if not prompts:
                return
            now = sim.clock.now_ms
            todo = [(p, c) for p, c in prompts.items() if not self.shows(p, c)]
            if todo and all(self.just_touched(p) for p, _ in todo):
                sim.run(sim.period_ms)  # give the board (and the eye) a moment
                continue
            if todo:
                stale_since = None
                lifts = [(p, c) for p, c in todo if c & 0x0F in LIFT_CODES]
                others = [(p, c) for p, c in todo if c & 0x0F not in LIFT_CODES]
                self.rng.shuffle(lifts)
                self.rng.shuffle(others)
                done = []
                for place, code in lifts + others:
                    # A person looks at a light again before acting on it:
                    # the board may have changed its mind meanwhile.
                    if self.sim.leds.code(place) != code or self.just_touched(place):
                        continue
                    self._do(place, code)
                    done.append((place, code))
                    self.pause()
                self.answered(done)
            else:
                if stale_since is None:
                    stale_since = now
                elif now - stale_since >= STALE_MS:
                    if self.answers_stuck and self.answer_stuck(prompts):
                        stale_since = None
                        start = sim.clock.now_ms
                        continue
                    raise Failure("light asks for what the board shows",
                                  "%d s: %s" % (STALE_MS // 1000, self.describe_lights(prompts)))
                sim.run(100)
            if now - start > limit_ms:
                raise Failure("lights never clear", "%d s: %s" % (
                    limit_ms // 1000, self.describe_lights(prompts)))

    def answer_stuck(self, prompts):
        """Every light asks for what the board already shows: wait for the
        board's own question (config.stuck_ms after the contradiction
        began) and, when it names one of those points, press Confirm
        (ignore that sensor).  False if it never asks about one of them."""
        sim = self.sim
        ref = sim.referee
        limit = sim.clock.now_ms + ref.config.stuck_ms + ANSWER_MS
        while ref.ask_stuck < 0 and sim.clock.now_ms < limit:
            sim.run(100)
        pl = ref.ask_stuck
        if pl < 0 or pl not in prompts or not self.shows(pl, prompts[pl]):
            return False
        self.say("the board asks whether the sensor at %s is stuck: it is, the point shows "
                 "what the light asks" % self.v(pl))
        self.press("confirm")
        self.stuck_answered.append(self.v(pl))
        sim.settle()
        return True

    def wait_light(self, place, wanted, max_ms=ANSWER_MS):
        """Wait until the light at place has one of the wanted codes (colour nibble)."""
        code = self.sim.leds.code
        return self.wait_until(lambda: code(place) & 0x0F in wanted, max_ms)

    def wait_event(self, kind, heard, max_ms=ANSWER_MS):
        events = self.sim.events
        return self.wait_until(lambda: any(k == kind for _, k, _ in events[heard:]), max_ms)

    def phase_light(self):
        return self.sim.leds.status(frame.STATUS_PHASE)

    # -- a game ------------------------------------------------------------------------

    def play_game(self):
        self.start()
        moves = 0
        while moves < self.spec.max_moves:
            self.between_moves(moves)
            colour = self.intent.to_move()  # (a new game may have started)
            # A pass mid-game only after a stone: two in a row would end the game.
            if not self.intent.board.consecutive_passes() and self.habit("pass_mid"):
                self.pass_turn()
                moves += 1
                continue
            place = None
            if self.habit("self_capture"):
                # A legal suicide: the stone comes off with its chain (D3).
                place = self.intent.random_move(self.rng, colour, self_capture=True)
            if place is None:
                place = self.intent.random_move(self.rng, colour)
            if place is None:
                break
            if self.habit("takeback"):
                self.take_back_a_wrong_move(colour, place)
            self.move(colour, place)
            moves += 1
            if self.sabotage is not None:
                self.sabotage(self, moves)
        self.finish()

    def start(self):
        """Handicap and set-up: fixed stones by the lights, free ones placed and confirmed."""
        self.doing = "start"
        spec = self.spec
        if spec.free:
            self.place_free_handicap()
        else:
            self.obey()
            if spec.handicap:
                spots = sorted(r * spec.size + c
                               for r, c in points.handicap_points(spec.size, spec.handicap))
                self.intent.handicap(spots)
        self.check_position()

    def place_free_handicap(self):
        spec = self.spec
        self.doing = "free_handicap"
        places = self.rng.sample(range(spec.size * spec.size), spec.handicap)
        for pl in places:
            self.put(BLACK, pl)
            self.pause()
        placed = frame.OK_GREEN | frame.DIM
        code = self.sim.leds.code
        if not self.wait_until(lambda: all(code(pl) == placed for pl in places)):
            raise Failure("free handicap not counted", "no placed light on %s" % " ".join(
                self.v(pl) for pl in places if code(pl) != placed))
        heard = len(self.sim.events)
        self.press("confirm")
        self.intent.handicap(sorted(places))
        if not self.wait_until(lambda: self.phase_light() == signals.PHASE_CODES["play"]):
            raise Failure("free handicap not confirmed", "events: %s" % self.sim.events[heard:])
        if self.habit("free_handicap"):
            self.power_cut()

    def due(self, habit, moves):
        """Is it time for a once-a-game habit (at its drawn moment, or the
        first chance after it)?"""
        if habit in self.done or moves < self.spec.moments[habit]:
            return False
        self.done.add(habit)
        return self.habit(habit)

    def between_moves(self, moves):
        """Once-a-game habits that fall between two moves."""
        if self.pending:
            return
        if self.due("cut_clean", moves):
            self.power_cut()
        if self.due("cut_record", moves) and self.intent.history:
            self.power_cut(cut_record=True)
        if self.due("new_mid_game", moves) and self.intent.history:
            self.new_mid_game()
        if self.habit("stray_confirm"):
            self.obey()
            self.press("confirm")
            self.scans(5)

    # -- one move, with the habits that go with it ---------------------------------

    def move(self, colour, place):
        """Put the move's stone down (with habits), lift its prisoners, follow the lights."""
        self.doing = "move"
        if self.sim.stones.cells[place] != EMPTY:
            # A prisoner left for later sits where the stone goes: off it comes first.
            self.lift_pending()
            self.obey()
        if not self.pending:
            self.before_stone(colour, place)
        self.doing = "move"
        captured = self.intent.play(colour, place)
        self.put_stone(colour, place, captured)
        self.after_move(place)

    def before_stone(self, colour, place):
        """Habits before the intended stone goes down: none of them is a move."""
        if self.habit("illegal"):
            self.illegal_stone(colour)
        if self.habit("drop"):
            self.drop_stone(colour, place)
        if self.habit("wrong_colour"):
            self.wrong_colour_first(colour, place)

    def put_stone(self, colour, place, captured):
        """The stone goes down (habits: hands, nudge, extra stone) and its
        prisoners come off: before it, in the same motion, after the lights
        ask, or only after the next move."""
        sim = self.sim
        before = sim.leds.code(place)
        late = self.pending
        self.pending = []
        under_hand = bool(captured) and self.habit("under_hand")
        self.hands_over(under_hand)
        if captured and place not in captured and self.habit("prisoners_first"):
            # Anticipation: the prisoners come off 0-40 ms before the stone goes down.
            self.lift_all(captured, quick=True)
            self.scans(self.rng.randint(0, 2))
            self.set_down(colour, place)
            self.lift_all(late)
            return
        self.set_down(colour, place)
        if captured and (under_hand or self.habit("one_motion")):
            self.scans(self.rng.randint(0, 2))  # 0-40 ms
            self.lift_all(captured, quick=True)
        elif captured and self.habit("late"):
            self.pending = [pl for pl in captured if pl != place]
            self.wait_until(lambda: sim.leds.code(place) != before)
        else:
            self.wait_until(lambda: sim.leds.code(place) != before)
            self.lift_all(captured)
        self.lift_all(late)

    def hands_over(self, under_hand):
        if under_hand:
            self.hand(600)
        elif self.habit("two_hands"):
            self.hand(600, hands=2)
        elif self.habit("hand"):
            self.hand(300)

    def set_down(self, colour, place):
        if self.habit("nudge") and self.nudge_into(colour, place):
            return
        if self.habit("extra"):
            self.with_extra_stone(colour, place)
        else:
            self.put(colour, place)

    def lift_all(self, places, quick=False):
        places = [pl for pl in places if self.sim.stones.cells[pl] != EMPTY]
        self.rng.shuffle(places)  # prisoners come off in no fixed order
        for pl in places:
            self.lift(pl)
            if quick:
                self.scans(self.rng.randint(0, 1))
            else:
                self.pause()

    def lift_pending(self):
        pending, self.pending = self.pending, []
        self.lift_all(pending)

    def after_move(self, place):
        """The move is down: make sure the board took it, then post-move habits."""
        if self.pending:
            # Prisoners left for later: the board must take the move anyway.
            self.wait_until(lambda: self.firmware_moves() >= len(self.intent.history))
            if self.firmware_moves() >= len(self.intent.history):
                return
            self.lift_pending()
        self.doing = "move"
        self.obey()
        self.make_sure_taken()
        self.check_position()
        if self.habit("bump"):
            self.bump_stone(None)
        if self.habit("bump_last") and self.sim.stones.cells[place] != EMPTY:
            self.bump_stone([place])
        if self.habit("lift_back") and self.sim.stones.cells[place] != EMPTY:
            self.lift_and_put_back(place)
        if self.habit("sleeve"):
            self.sleeve()
        if self.habit("knock_off"):
            self.knock_off()

    def make_sure_taken(self):
        """The lights are quiet; the last intended move must be in the record.
        A person whose stone the lights had lifted puts it down again."""
        for _ in range(3):
            missing = len(self.intent.history) - self.firmware_moves()
            if missing <= 0:
                return
            self.replay_missing()
            self.obey()
        if len(self.intent.history) > self.firmware_moves():
            colour, pt = self.intent.history[self.firmware_moves()]
            raise Failure("move never taken", "%s stands, the lights are quiet, the record "
                          "has %d moves of %d" % (self.intent.describe((colour, pt)),
                                                  self.firmware_moves(), len(self.intent.history)))

    def replay_missing(self):
        """Play again (plainly) the intended moves the firmware does not have:
        after a cut mid-record, or a stone the lights made the person lift."""
        hist = self.intent.history
        while self.firmware_moves() < len(hist):
            i = self.firmware_moves()
            colour, pt = hist[i]
            if pt == PASS:
                heard = len(self.sim.events)
                self.press("pass")
                if not self.wait_event("pass", heard):
                    raise Failure("pass not taken", "move %d" % (i + 1))
                continue
            place = self.intent.place(pt)
            if self.sim.stones.cells[place] == EMPTY:
                self.put(colour, place)
            # Its prisoners are lifted again (the lights may have asked them back).
            self.wait_until(lambda: self.firmware_moves() > i)
            self.lift_all([pl for pl in self.intent.captured(i) if pl != place])
            self.obey()
            if self.firmware_moves() <= i:
                return

    # -- habits ---------------------------------------------------------------------

    def illegal_stone(self, colour):
        found = self.intent.illegal_place(self.rng, colour)
        if found is None:
            return
        place, reason = found
        self.say("(an illegal stone: %s %s is %s)" % (
            points.colour_name(colour), self.v(place), REASONS[reason]))
        self.put(colour, place)
        if not self.wait_light(place, ILLEGAL_CODES):
            raise Failure("illegal stone not shown", "%s %s (%s): light %s" % (
                points.colour_name(colour), self.v(place), REASONS[reason],
                code_name(self.sim.leds.code(place))))
        if self.habit("slow"):
            self.wait(SLOW_MS, "slow person, illegal stone still down")
        self.lift(place)
        self.obey()

    def drop_stone(self, colour, place):
        empties = [pl for pl in self.intent.empties() if pl != place
                   and self.sim.stones.cells[pl] == EMPTY]
        if not empties:
            return
        pl = self.rng.choice(empties)
        self.put(self.rng.choice((colour, 3 - colour)), pl)
        self.scans(self.rng.randint(1, 2))
        self.lift(pl)

    def wrong_colour_first(self, colour, place):
        self.put(3 - colour, place)
        if not self.wait_light(place, (frame.WRONG_COLOUR,)):
            raise Failure("wrong colour not shown", "%s on %s: light %s" % (
                points.colour_name(3 - colour), self.v(place), code_name(self.sim.leds.code(place))))
        self.lift(place)
        self.pause()

    def nudge_into(self, colour, place):
        near = [pl for pl in neighbours(self.spec.size, place)
                if self.sim.stones.cells[pl] == EMPTY]
        if not near:
            return False
        first = self.rng.choice(near)
        self.put(colour, first)
        self.scans(self.rng.randint(1, 2))  # read there for a scan or two
        self.slide(first, place)
        return True

    def with_extra_stone(self, colour, place):
        empties = [pl for pl in self.intent.empties() if pl != place
                   and self.sim.stones.cells[pl] == EMPTY]
        if not empties:
            self.put(colour, place)
            return
        extra = self.rng.choice(empties)
        self.put(colour, place)
        self.put(colour, extra)
        self.wait_light(extra, LIFT_CODES)
        self.pause()
        self.lift(extra)
        # Only once its light is off does the person look at the rest again.
        code = self.sim.leds.code
        self.wait_until(lambda: code(extra) & 0x0F not in LIFT_CODES)

    def bump_stone(self, sources):
        """A stone knocked onto a neighbouring empty point, put right when the lights ask."""
        choices = slides(self.sim.stones, sources)
        if not choices:
            return
        src, dst = self.rng.choice(choices)
        self.slide(src, dst)
        self.fix_when_asked([src, dst])

    def fix_when_asked(self, places):
        """Something was disturbed at places: once the lights ask about one
        of them, do what they ask; the position must then be the game's."""
        prompts = self.sim.leds.prompts
        self.wait_until(lambda: any(pl in prompts() for pl in places))
        self.obey()
        self.check_position()

    def sleeve(self):
        """A sleeve drags two stones at once onto empty neighbours."""
        choices = slides(self.sim.stones)
        self.rng.shuffle(choices)
        moved = []
        for src, dst in choices:
            if all(src not in m and dst not in m for m in moved) and \
                    self.sim.stones.cells[dst] == EMPTY:
                moved.append((src, dst))
            if len(moved) == 2:
                break
        for src, dst in moved:
            self.slide(src, dst)
        self.fix_when_asked([pl for move in moved for pl in move])

    def knock_off(self):
        """A stone knocked off the board: put back where the lights ask."""
        stones = [pl for pl, c in enumerate(self.sim.stones.cells) if c != EMPTY]
        if stones:
            place = self.rng.choice(stones)
            self.lift(place)
            self.fix_when_asked([place])

    def lift_and_put_back(self, place):
        """The last stone picked up and put down again: no take-back without Confirm."""
        colour = self.sim.stones.cells[place]
        self.lift(place)
        self.wait(self.rng.randint(100, 1500), "looks at the stone")
        self.put(colour, place)
        self.obey()
        self.check_position()

    def take_back_a_wrong_move(self, colour, intended):
        """A legal move the person did not mean: accepted, then taken back."""
        wrong = self.intent.random_move(self.rng, colour, avoid=(intended,))
        if wrong is None:
            return
        self.say("(a wrong move: %s %s)" % (points.colour_name(colour), self.v(wrong)))
        self.move(colour, wrong)
        self.doing = "takeback"
        # Prisoners left for later are still down: they need no putting back.
        self.pending = []
        captured = [pl for pl in self.intent.captured()
                    if pl != wrong and self.sim.stones.cells[pl] == EMPTY]
        heard = len(self.sim.events)
        self.lift(wrong)
        self.pause()
        for pl in self.rng.sample(captured, len(captured)):
            self.put(3 - colour, pl)
            self.pause()
        if self.habit("slow"):
            self.wait(SLOW_MS, "slow person, take-back pending")
        self.doing = "takeback"
        if not self.wait_until(lambda: self.takeback_offered(wrong, heard)):
            raise Failure("take-back not offered", "%s lifted, %d prisoners back: light %s, %s" % (
                self.v(wrong), len(captured), code_name(self.sim.leds.code(wrong)),
                self.describe_lights(self.look())))
        self.expect_shrink = True
        try:
            heard = len(self.sim.events)
            self.press("confirm")
            n = len(self.intent.history)
            if not self.wait_until(lambda: self.firmware_moves() < n):
                raise Failure("take-back not done", "Confirm pressed when it was offered; the board "
                              "said: %s" % "; ".join(t for _, _, t in self.sim.events[heard:][:3]))
            self.intent.undo()
            self.check_record()
        finally:
            self.expect_shrink = False
        self.obey()
        self.check_position()

    def takeback_offered(self, place, heard):
        """The take-back light on the lifted stone's point -- or, as the
        reworked referee does, a "take-back ready" prompt while the light
        asks to put the stone back (open question in the findings)."""
        if self.sim.leds.code(place) == TAKEBACK_CODE:
            return True
        return any(kind == "prompt" and text.startswith("take-back ready")
                   for _, kind, text in self.sim.events[heard:])

    def pass_turn(self):
        self.doing = "pass"
        self.lift_pending()
        self.obey()
        colour = self.intent.to_move()
        heard = len(self.sim.events)
        self.intent.pass_move(colour)
        self.press("pass")
        if not self.wait_event("pass", heard):
            raise Failure("pass not taken", "%s pass" % points.colour_name(colour))

    def power_cut(self, cut_record=False):
        """Power off and on; the stones stay.  cut_record: the cut came while
        the last record was being written (the journal loses 1-7 bytes)."""
        self.obey()
        if self.doing != "free_handicap":
            self.doing = "cut_record" if cut_record else "cut_clean"
        if cut_record:
            self.cut_last_record()
        else:
            self.say("power cut")
        self.reboot(lossy=cut_record)
        if not cut_record:
            self.check_quick_resume()
        self.wait_for_boot()
        self.obey()
        self.replay_missing()
        if len(self.intent.history) != self.firmware_moves():
            raise Failure("game not restored after the cut", "%d moves of %d" % (
                self.firmware_moves(), len(self.intent.history)))
        self.check_position()

    def cut_last_record(self):
        path = os.path.join(self.sim.store_dir, "journal.bin")
        size = os.path.getsize(path)
        cut = self.rng.randint(1, 7)
        self.say("power cut while the last record was written: journal %d -> %d bytes"
                 % (size, size - cut))
        with open(path, "r+b") as f:
            f.truncate(size - cut)

    def reboot(self, lossy=False):
        """Boot again; a clean cut (not lossy) must keep the journal whole and every move."""
        sim = self.sim
        before = self.record()
        heard = len(sim.events)
        self.expect_shrink = lossy
        try:
            sim.reboot()
            damage = [text for _, kind, text in sim.events[heard:] if kind == "error"]
            if damage and not lossy:
                raise Failure("clean power cut: journal damaged", damage[0])
            after = self.record()
            if not lossy and after != before:
                raise Failure("power cut lost moves", "%d moves before the cut, %d after" % (
                    len(before), len(after)))
            self.seen_moves = min(self.seen_moves, len(after))
            self.check_record()
        finally:
            self.expect_shrink = False

    def record(self):
        board = self.sim.referee.board
        return [tuple(board.move(i)) for i in range(board.moves)]

    def wait_for_boot(self):
        """A person looks at the board once it shows something: a prompt or a phase."""
        playing = (signals.PHASE_CODES["play"], signals.PHASE_CODES["count"])
        self.wait_until(lambda: self.sim.leds.prompts() or self.phase_light() in playing)

    def check_quick_resume(self):
        """Every stone stayed where it was: the board must be ready within RESUME_MS."""
        sim = self.sim
        booted = sim.clock.now_ms
        playing = (signals.PHASE_CODES["play"], signals.PHASE_CODES["count"])
        ready = self.wait_until(lambda: self.phase_light() in playing and not sim.leds.prompts(),
                                RESUME_MS)
        self.resume_ms.append(sim.clock.now_ms - booted)
        if not ready:
            raise Failure("slow resume", "not ready %d ms after the boot, nothing moved: "
                          "phase %s, %s" % (sim.clock.now_ms - booted, code_name(self.phase_light()),
                                            self.describe_lights(sim.leds.prompts())))

    def new_mid_game(self):
        """New pressed mid-game: confirm it; the unfinished game must be kept."""
        self.doing = "new_mid_game"
        self.obey()
        unfinished = self.intent
        # The record empties when the new game starts; whether the old one
        # was kept is checked below.
        self.expect_shrink = True
        try:
            self.press("new")
            self.wait(self.rng.randint(*CONFIRM_NEW_MS), "then confirm")
            self.press("confirm")
            self.scans(5)
            if self.firmware_moves() != 0:
                raise Failure("New did not start a new game", "New, then Confirm: %d moves"
                              % self.firmware_moves())
            self.intent = self._new_intent()
            self.seen_moves = 0
        finally:
            self.expect_shrink = False
        self.check_kept(unfinished, finished=False)
        self.obey()
        self.check_position()
        # A journal recovered in the old game is no news in the new one (D11).
        if self.sim.leds.status(frame.STATUS_ALERT) == signals.ALERT_CODES[signals.ALERT_ERROR]:
            raise Failure("damage alert carried into a new game", "status alert %s" % code_name(
                self.sim.leds.status(frame.STATUS_ALERT)))

    # -- the end of the game -------------------------------------------------------

    def finish(self):
        """Two passes (White last where the rules say so), dead stones, Confirm;
        or a resignation."""
        if self.habit("resign"):
            self.resign()
            return
        while not self.intent.passed_out():
            self.pass_turn()
        self.doing = "count"
        if not self.wait_until(lambda: self.phase_light() == signals.PHASE_CODES["count"]):
            raise Failure("two passes do not start counting", "phase light %s" % code_name(
                self.phase_light()))
        dead = self.mark_dead()
        if self.habit("count_bump"):
            self.bump_while_counting(dead)
        if self.habit("cut_count"):
            self.power_cut_while_counting(dead)
        expected = self.expected_result(dead)
        # The person waits for the board's running count to take in the
        # lifted stones (bounded), then confirms.
        self.wait_until(lambda: self.last_event_text("count") == expected)
        heard = len(self.sim.events)
        self.press("confirm")
        if not self.wait_event("result", heard):
            raise Failure("no result after Confirm", "events: %s" % self.sim.events[heard:][:4])
        shown = self.last_event_text("result")
        if shown != expected:
            raise Failure("result differs from the dead stones lifted", "board says %s; with %s "
                          "dead it is %s" % (shown, " ".join(self.v(c[0]) for c in dead) or "none",
                                             expected))
        self.check_records()

    def expected_result(self, dead):
        """The count with exactly the chains the person lifted as dead (the
        firmware's own scoring, on the person's board)."""
        intent = self.intent
        return score.count(intent.board, intent.rules, [intent.pt(c[0]) for c in dead]).result

    def last_event_text(self, kind):
        for _, k, text in reversed(self.sim.events):
            if k == kind:
                return text
        return None

    def resign(self):
        self.lift_pending()
        self.obey()
        heard = len(self.sim.events)
        winner = points.colour_name(3 - self.intent.to_move())  # the player to move resigns
        self.press("resign")
        if not self.wait_event("result", heard):
            raise Failure("no result after resigning", "events: %s" % self.sim.events[heard:][:4])
        if self.last_event_text("result") != winner + "+R":
            raise Failure("wrong result after resigning", "board says %s, %s+R expected" % (
                self.last_event_text("result"), winner))
        self.check_records()

    def check_records(self):
        """The game is over: the kept file and referee.sgf() hold the intended game."""
        self.check_kept(self.intent, finished=True)
        problem = compare(self.intent.game(), self.sim.referee.sgf())
        if problem:
            raise Failure("record differs", problem)

    def mark_dead(self):
        """Lift a few random chains as dead; sometimes put one back."""
        chains = self.intent.chains()
        dead = self.rng.sample(chains, min(len(chains), self.rng.randint(0, 3)))
        for chain in dead:
            self.lift_all(chain)
        if dead and self.habit("dead_revived"):
            chain = dead.pop()
            colour = self.intent.expected()[chain[0]]
            for pl in chain:
                self.put(colour, pl)
                self.pause()
        self.sim.settle()
        return dead

    def bump_while_counting(self, dead):
        """A stone knocked onto an empty neighbour while counting, slid back
        when the person notices; then the lights are followed."""
        choices = slides(self.sim.stones)
        if not choices:
            return
        src, dst = self.rng.choice(choices)
        self.slide(src, dst)
        self.wait(self.rng.randint(100, 600), "notices the bump")
        self.slide(dst, src)
        self.mark_dead_again(dead)

    def power_cut_while_counting(self, dead):
        self.doing = "cut_count"
        self.say("power cut while counting")
        self.reboot()
        self.wait_for_boot()
        self.mark_dead_again(dead)

    def mark_dead_again(self, dead):
        """Put back what the lights ask for (lifted dead stones, maybe), then
        lift the dead chains again: counting must go on with the same dead."""
        self.obey()
        if not self.wait_until(lambda: self.phase_light() == signals.PHASE_CODES["count"]):
            raise Failure("counting not resumed", "phase light %s" % code_name(self.phase_light()))
        for chain in dead:
            self.lift_all(chain)
        self.sim.settle()

    # -- kept games -----------------------------------------------------------------

    def _kept_names(self):
        try:
            names = os.listdir(self.sim.store_dir)
        except OSError:
            return []
        return sorted(n for n in names if len(n) == 8 and n.endswith(".sgf") and n[:4].isdigit())

    def check_kept(self, intent, finished):
        """A new NNNN.sgf holds exactly the game (with a result if finished)."""
        names = [n for n in self._kept_names() if n not in self.kept]
        if len(names) != 1:
            raise Failure("game not kept" if not names else "several games kept",
                          "%s game: new files %s" % ("finished" if finished else "unfinished", names))
        self.kept.add(names[0])
        with open(os.path.join(self.sim.store_dir, names[0]), "rb") as f:
            data = f.read()
        problem = compare(intent.game(), data.decode("utf-8", "replace"))
        if problem:
            raise Failure("kept game differs", "%s: %s" % (names[0], problem))
        root = sgfmill_sgf.Sgf_game.from_bytes(data).get_root()
        result = root.get("RE") if root.has_property("RE") else ""
        if finished and result != self.last_event_text("result"):
            raise Failure("kept game has another result", "%s: RE[%s], the board showed %s" % (
                names[0], result, self.last_event_text("result")))
        if not finished and result and "?" not in result and "void" not in result.lower():
            raise Failure("unfinished game kept with a result", "%s: RE[%s]" % (names[0], result))
