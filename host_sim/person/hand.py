"""A hand at the virtual board that does what the LED prompts ask, with a replaying person's habits."""
from gogadget import frame
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.person.gamerecord import NAMES
from host_sim.sim.virtual import LIFT_CODES, PUT_CODES


def neighbours(size, place):
    """The places next to a place (2 to 4 of them)."""
    r, c = divmod(place, size)
    return [(r + dr) * size + c + dc for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if 0 <= r + dr < size and 0 <= c + dc < size]


def slides(stones, sources=None):
    """[(from, to)]: every way a stone (of sources, default all) can be
    knocked onto a neighbouring empty point."""
    cells = stones.cells
    if sources is None:
        sources = [pl for pl, c in enumerate(cells) if c != EMPTY]
    return [(pl, to) for pl in sources if cells[pl] != EMPTY
            for to in neighbours(stones.size, pl) if cells[to] == EMPTY]


class Person:
    """A hand that follows the LED prompts, with habits drawn from rng."""

    def __init__(self, sim, rng, late=0.1, bump=0.03, max_delay_ms=300):
        self.sim = sim
        self.rng = rng
        self.late = late
        self.bump_chance = bump
        self.max_delay_ms = max_delay_ms
        self.stats = {"lifts": 0, "puts": 0, "bumps": 0, "bumps_unfixed": 0, "late": 0,
                      "prompts_shown": 0, "stuck": 0, "retries": 0}
        self._shown = set()

    def pause(self):
        self.sim.run(self.rng.randint(self.sim.period_ms, self.max_delay_ms))

    def look(self):
        """Read the lights; counts every prompt that newly appeared."""
        prompts = self.sim.leds.prompts()
        now = set(prompts)
        self.stats["prompts_shown"] += len(now - self._shown)
        self._shown = now
        return prompts

    # Every physical action goes through put/lift/slide, so a subclass can
    # watch (or trace) what the hand does.

    def put(self, colour, place):
        self.sim.stones.put(place, colour)
        self.stats["puts"] += 1

    def lift(self, place):
        colour = self.sim.stones.lift(place)
        self.stats["lifts"] += 1
        return colour

    def slide(self, src, dst):
        return self.sim.stones.slide(src, dst)

    def _do(self, place, code):
        """Do what one light asks (nothing if the board already shows it)."""
        colour = code & 0x0F
        here = self.sim.stones.cells[place]
        if colour in LIFT_CODES:
            if here != EMPTY:
                self.lift(place)
        elif colour in PUT_CODES:
            want = PUT_CODES[colour]
            if here != want:
                if here != EMPTY:
                    self.lift(place)
                self.put(want, place)
        elif colour == frame.WRONG_COLOUR and here != EMPTY:
            self.lift(place)
            self.put(BLACK + WHITE - here, place)

    def wait_until(self, seen, max_ms=3000):
        """Scan until seen() -- something the person sees on the lights -- or give up."""
        sim = self.sim
        end = sim.clock.now_ms + max_ms
        while sim.clock.now_ms < end:
            sim.step()
            if seen():
                return True
        return False

    def answered(self, done):
        """Wait until every light the person just acted on has changed."""
        code = self.sim.leds.code
        return self.wait_until(lambda: all(code(pl) != c for pl, c in done))

    def tidy(self, rounds=8):
        """Do what the lights ask until they ask nothing; False if they never stop."""
        self.sim.settle()
        for _ in range(rounds):
            prompts = self.look()
            if not prompts:
                return True
            lifts = [(p, c) for p, c in prompts.items() if c & 0x0F in LIFT_CODES]
            others = [(p, c) for p, c in prompts.items() if c & 0x0F not in LIFT_CODES]
            self.rng.shuffle(lifts)  # people clear prisoners in no fixed order
            self.rng.shuffle(others)
            # A stray stone comes off before the missing one goes back: put
            # back first, the stray would read as a fresh move of the side to play.
            done = lifts + others
            for place, code in done:
                self._do(place, code)
                self.pause()
            if not self.answered(done):
                self.sim.settle()
        if self.look():
            self.stats["stuck"] += 1
            return False
        return True

    def bump(self):
        """Knock a stone onto a neighbouring empty point."""
        stones = self.sim.stones
        candidates = slides(stones)
        if not candidates:
            return
        before = bytes(stones.cells)
        src, dst = self.rng.choice(candidates)
        self.slide(src, dst)
        self.stats["bumps"] += 1
        code = self.sim.leds.code
        self.wait_until(lambda: code(dst) & 0x0F in LIFT_CODES)
        self.tidy()
        if bytes(stones.cells) != before:
            self.stats["bumps_unfixed"] += 1

    def press_pass(self):
        sim = self.sim
        heard = len(sim.events)
        sim.press("pass")
        # The board beeps (an event) when it takes the pass.
        self.wait_until(lambda: len(sim.events) > heard)

    def play_stone(self, colour, place):
        """Put the move's stone down and wait for the lights to answer it."""
        sim = self.sim
        before = sim.leds.code(place)
        self.put(colour, place)
        self.wait_until(lambda: sim.leds.code(place) != before)

    def play_game(self, game):
        """Set up and play every move of the record."""
        sim = self.sim
        self.tidy()  # handicap stones the firmware asks for
        moves = game.moves
        skip_tidy = False
        for i, (colour, place) in enumerate(moves):
            if place is None:
                self.tidy()
                self.press_pass()
                continue
            self.pause()
            if sim.stones.cells[place] != EMPTY:
                # A prisoner left for later sits where the next stone goes: no
                # one can play through a stone, so it comes off first.
                self.tidy()
            if sim.stones.cells[place] != EMPTY:
                self.stats["stuck"] += 1
                return False
            self.play_stone(colour, place)
            prompts = self.look()
            nxt = moves[i + 1] if i + 1 < len(moves) else (None, None)
            removals = [p for p, c in prompts.items() if c & 0x0F == frame.REMOVE]
            if (removals and not skip_tidy and nxt[1] is not None and nxt[1] not in removals
                    and self.rng.random() < self.late):
                # Forgets the prisoners until after the reply.
                self.stats["late"] += 1
                skip_tidy = True
                continue
            skip_tidy = False
            for _ in range(3):
                self.tidy()
                if sim.stones.cells[place] == colour:
                    break
                if sim.stones.cells[place] != EMPTY:
                    self.stats["stuck"] += 1
                    return False
                # The lights took the stone back (prisoners were still on the
                # board); a person tries again once the board is tidy.
                self.stats["retries"] += 1
                self.play_stone(colour, place)
            if self.rng.random() < self.bump_chance:
                self.bump()
        self.tidy()
        return True


class TracedPerson(Person):
    """A Person whose every action goes to the tracer (replay --trace)."""

    def __init__(self, sim, rng, tracer, **habits):
        super().__init__(sim, rng, **habits)
        self.tracer = tracer

    def put(self, colour, place):
        self.tracer("hand: put %s %s" % (NAMES[colour], self.sim.vertex(place)))
        super().put(colour, place)

    def lift(self, place):
        self.tracer("hand: lift %s" % self.sim.vertex(place))
        return super().lift(place)

    def slide(self, src, dst):
        self.tracer("hand: bump %s to %s" % (self.sim.vertex(src), self.sim.vertex(dst)))
        return super().slide(src, dst)

    def press_pass(self):
        self.tracer("hand: press pass")
        super().press_pass()
