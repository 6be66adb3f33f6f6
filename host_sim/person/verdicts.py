"""The stress person's verdicts: the invariants checked as a game goes, a breach raised as Failure."""
import os

from sgfmill import sgf as sgfmill_sgf

from gogadget import frame, signals
from host_sim.person.gamerecord import compare


class Failure(Exception):
    """A broken invariant: cause (short, for grouping) and detail."""

    def __init__(self, cause, detail=""):
        super().__init__("%s: %s" % (cause, detail) if detail else cause)
        self.cause = cause
        self.detail = detail


class Verdicts:
    """The invariants, checked against the firmware's record, the stones,
    and the kept games (mixed into host_sim.person.stress_player.Player)."""

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

    def record(self):
        board = self.sim.referee.board
        return [tuple(board.move(i)) for i in range(board.moves)]

    def check_records(self):
        """The game is over: the kept file and referee.sgf() hold the intended game."""
        self.check_kept(self.intent, finished=True)
        problem = compare(self.intent.game(), self.sim.referee.sgf())
        if problem:
            raise Failure("record differs", problem)

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
