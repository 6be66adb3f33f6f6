"""The end of a stress game: passes, dead stones lifted and counted (or a resignation), the result checked."""
from gogadget import points, score, signals
from host_sim.person.hand import slides
from host_sim.person.verdicts import Failure
from host_sim.sim.virtual import code_name


class Counting:
    """Two passes, dead stones, Confirm; or a resignation (mixed into
    host_sim.person.stress_player.Player)."""

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

    def mark_dead_again(self, dead):
        """Put back what the lights ask for (lifted dead stones, maybe), then
        lift the dead chains again: counting must go on with the same dead."""
        self.obey()
        if not self.wait_until(lambda: self.phase_light() == signals.PHASE_CODES["count"]):
            raise Failure("counting not resumed", "phase light %s" % code_name(self.phase_light()))
        for chain in dead:
            self.lift_all(chain)
        self.sim.settle()
