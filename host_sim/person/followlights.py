"""The stress person follows the board: does what its lights ask, answers its questions, waits for it."""
from gogadget import frame
from gogadget.points import EMPTY
from host_sim.person.verdicts import Failure
from host_sim.sim.virtual import LIFT_CODES, PUT_CODES, code_name

OBEY_MS = 20000  # longest a person follows the lights before calling them stuck
STALE_MS = 5000  # longest a light may ask for what the board already shows
ANSWER_MS = 3000  # longest a person waits for the board to react to one action


class FollowingLights:
    """Reading and obeying the lights and the board's events (mixed into
    host_sim.person.stress_player.Player)."""

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

    def last_event_text(self, kind):
        for _, k, text in reversed(self.sim.events):
            if k == kind:
                return text
        return None

    def phase_light(self):
        return self.sim.leds.status(frame.STATUS_PHASE)
