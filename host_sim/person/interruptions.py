"""A stress game interrupted: power cuts (clean, mid-record, while counting) and New mid-game."""
import os

from gogadget import frame, signals
from host_sim.person.verdicts import Failure
from host_sim.sim.virtual import code_name

RESUME_MS = 2000  # a board whose stones never moved is ready this soon after a cut
CONFIRM_NEW_MS = (300, 3000)  # New, then Confirm within 10 s


class Interruptions:
    """The board cut off or restarted under a game, and the checks that
    nothing was lost (mixed into host_sim.person.stress_player.Player)."""

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

    def power_cut_while_counting(self, dead):
        self.doing = "cut_count"
        self.say("power cut while counting")
        self.reboot()
        self.wait_for_boot()
        self.mark_dead_again(dead)
