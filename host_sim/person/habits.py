"""The stress person's habits: which they have, and each mishap at the board (bumps, extra stones, ...)."""
from gogadget import frame, points
from gogadget.board import REASONS
from gogadget.points import EMPTY
from host_sim.person.hand import neighbours, slides
from host_sim.person.verdicts import Failure
from host_sim.sim.virtual import LIFT_CODES, code_name

SLOW_MS = 31000  # a slow person: past the firmware's stuck-sensor time (30 s)
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


class Habits:
    """Whether a habit fires now, and what each one does at the board
    (mixed into host_sim.person.stress_player.Player)."""

    def habit(self, name):
        """Does the habit fire now?  Counts it if so."""
        if name not in self.spec.habits:
            return False
        if name in MOVE_HABITS and self.rng.random() >= MOVE_HABITS[name]:
            return False
        self.used.add(name)
        self.doing = name
        return True

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
