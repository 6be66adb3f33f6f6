"""The simulated person of the stress harness (host_sim/person/stress.py).

They see only what a person sees -- the LED frame, the referee's events --
press buttons, and choose moves with their own instance of the firmware's
rules core (gogadget.board.Board configured from the preset), so nothing
here re-implements a rule.  Habits (MOVE_HABITS, GAME_HABITS) are drawn
from the game's seed; every invariant is checked as the game goes (see the
notes of host_sim/person/stress.py), and a breach raises Failure.

This module plays the game: the hand's traced actions, the moves and the
habits that go with putting a stone down.  The rest of the person sits
beside it, one job a module, mixed into Player: what they mean the game to
be (intent.py), their habits (habits.py), following the lights
(followlights.py), power cuts and New mid-game (interruptions.py), the end
of the game (counting.py) and the invariants (verdicts.py).
"""
from gogadget import frame, points, signals
from gogadget.points import BLACK, EMPTY, PASS
from host_sim.person.counting import Counting
from host_sim.person.followlights import FollowingLights
# stress imports the habits' names, Failure and WatchedSim from here; the tests RESUME_MS.
from host_sim.person.habits import GAME_HABITS, HABITS, MOVE_HABITS, Habits  # noqa: F401
from host_sim.person.hand import Person
from host_sim.person.intent import Intent
from host_sim.person.interruptions import RESUME_MS, Interruptions  # noqa: F401
from host_sim.person.verdicts import Failure, Verdicts
from host_sim.sim.watch import WatchedSim  # noqa: F401

REACT_MS = 300  # a person acts again on a stone they touched only after looking anew
# A game that takes longer than this never ends: 10 minutes, and 40 s a move
# (a slow person spends 31 s now and then).
GAME_BASE_MS = 10 * 60 * 1000
GAME_MOVE_MS = 40 * 1000


class Player(Habits, Interruptions, Counting, FollowingLights, Verdicts, Person):
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
