"""Two virtual boards playing one game over a real broker (issue 18): the
harness shared by tests/test_room_remote.py and `gogadget remote --sim`'s
test.  Each board is the simulator's App with the firmware's Broadcaster
and pairing.Follower on paho (host_sim.room.client), its own MQTT user
under the generated ACL; each person (host_sim.person.replay.Person) plays their
own colour and does what their board's lights ask, the opponent's moves
included."""
import random
import time

from gogadget.board import OK
from gogadget.broadcast import Broadcaster
from gogadget.pairing import Follower
from gogadget.points import BLACK, PASS, WHITE
from host_sim.person.replay import Person
from host_sim.sim.virtual import Simulator, make_config


class Side:
    """One board and the person at it."""

    def __init__(self, broker, bid, opponent, colour, pair, folder, seed, size=9):
        self.id, self.opponent, self.colour, self.pair = bid, opponent, colour, pair
        self.broker = broker
        store = folder / bid
        store.mkdir(parents=True, exist_ok=True)
        # The firmware's default rules and komi, as the MicroPython board's.
        self.sim = Simulator(make_config(size=size), seed=seed, store_dir=str(store))
        self.store = store
        self.rng = random.Random(seed)
        self.person = Person(self.sim, random.Random(seed + 100), late=0.0, bump=0.0,
                             max_delay_ms=self.sim.period_ms * 3)
        self.cuts = 0
        self._connect()

    def _connect(self):
        from host_sim.room.client import factory
        self.follower = Follower(self.id, self.opponent, self.colour, self.pair)
        self.pub = Broadcaster(factory(self.broker.url, self.id, self.broker.creds[self.id],
                                       timeout=2.0), self.id, peer=self.follower)
        self.sim.app.broadcast = self.pub  # what App(broadcast=) does
        self.pub.attach(self.sim.app.referee)

    @property
    def ref(self):
        return self.sim.referee

    def power_cut(self):
        """Everything in RAM goes: the App, the Broadcaster, the Follower
        (its connection dropped without DISCONNECT).  The config (the
        pairing) and the journal stay."""
        if self.pub._client is not None:
            self.pub._client.close()  # (no DISCONNECT: the will goes out)
        self.pub._client = None
        self.sim.reboot()
        self._connect()
        self.cuts += 1

    def choose(self):
        """A random legal move for this side (never into its own eye)."""
        b = self.ref.board
        pts = b.points()
        self.rng.shuffle(pts)
        w = b.size + 1
        for pt in pts:
            if b.cells[pt] == 0 and b.legal(self.colour, pt) == OK and not all(
                    b.cells[q] in (self.colour, 3) for q in (pt - 1, pt + 1, pt - w, pt + w)):
                return pt
        return PASS

    def idle(self):
        """Everything this board's record holds is on the broker (its
        publisher has looked at the latest, and nothing is waiting)."""
        from gogadget.broadcast import _GAME, _SEQ
        pub, log = self.pub, self.ref.log
        return pub.connected and not pub.pending() and pub._st[_SEQ] == log.seq \
            and pub._st[_GAME] == log.game

    def habit(self, name):
        """One of the person's habits (host_sim/person/stress_player.py names
        them) between moves; the record must not change, and the lights
        must lead back to the position.  Returns whether it was done."""
        sim, person, ref = self.sim, self.person, self.ref
        board = ref.board
        stones = [pl for pl in range(ref.n) if sim.stones.cells[pl]]
        empty = [pl for pl in range(ref.n) if not sim.stones.cells[pl]]
        last = board.last_move()
        if name == "bump":  # a stone slid onto a neighbouring point
            person.bump()
        elif name == "knock_off" and stones:  # knocked off, put back when the lights ask
            person.lift(self.rng.choice(stones))
            sim.settle()
        elif name == "drop" and empty:  # dropped and picked up within a scan or two
            pl = self.rng.choice(empty)
            person.put(self.colour, pl)
            sim.step()
            person.lift(pl)
        elif name == "hand":  # a hand over the board
            sim.stones.hand(sim.clock.now_ms, hands=self.rng.choice((1, 2)))
            sim.until_quiet()
        elif name == "lift_back" and last is not None and last[1] != PASS:
            pl = ref.place(last[1])  # the last stone lifted to look at it, put back
            colour = person.lift(pl)
            sim.settle()
            person.put(colour, pl)
        elif name == "stray_confirm" and ref.phase == "play" and not ref.ask_undo:
            sim.press("confirm")  # nothing to confirm
        elif name == "out_of_turn" and board.to_move() != self.colour and empty:
            # A stone of ours on the opponent's turn: not a move; the lights ask it off.
            person.put(self.colour, self.rng.choice(empty))
        else:
            return False
        sim.settle()
        assert person.tidy(), (name, ref.status())
        return True


def pump(sides, until, timeout=30.0, what="the condition"):
    """Step every board (a scan each, its Broadcaster's poll included) until
    until() holds; the broker runs on the wall clock, the boards on their own."""
    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for %s: %s" % (what, [
                (s.id, s.ref.status(), s.pub.connected, s.pub.pending(), s.pub.error,
                 s.follower.agreed, s.follower.count, s.follower.outcome, s.follower.note)
                for s in sides]))
        for s in sides:
            s.sim.step()
        time.sleep(0.0005)


def pair_up(broker, folder, pair="g1", ids=("b1", "b2"), seed=1, size=9):
    black = Side(broker, ids[0], ids[1], BLACK, pair, folder, seed, size)
    white = Side(broker, ids[1], ids[0], WHITE, pair, folder, seed + 1, size)
    sides = [black, white]
    pump(sides, lambda: all(s.follower.agreed and s.follower.game >= 0 for s in sides), 30,
         "the pairing")
    return sides


def level(sides, timeout=30.0):
    """Until both records hold the same moves, every light answered."""
    def same():
        a, b = sides[0].ref.board, sides[1].ref.board
        return a.moves == b.moves and all(a.move(i) == b.move(i) for i in range(a.moves))

    pump(sides, same, timeout, "both records level")
    for s in sides:
        assert s.person.tidy(), s.ref.status()


HABITS = ("bump", "knock_off", "drop", "hand", "lift_back", "stray_confirm", "out_of_turn")


def habits(sides, rng, chance=0.35, done=None):
    """Now and then a habit at either board; both records stay as they were."""
    if rng.random() >= chance:
        return
    side = rng.choice(sides)
    name = rng.choice(HABITS)
    before = [[s.ref.board.move(i) for i in range(s.ref.board.moves)] for s in sides]
    if side.habit(name) and done is not None:
        done[name] = done.get(name, 0) + 1
    assert [[s.ref.board.move(i) for i in range(s.ref.board.moves)] for s in sides] == before, name


def play_move(sides, latencies=None):
    """The side to move plays: a stone put down (or Pass pressed), then the
    other board lights it and its person places it."""
    ref = sides[0].ref
    colour = ref.board.to_move()
    mover = sides[0] if sides[0].colour == colour else sides[1]
    other = sides[1] if mover is sides[0] else sides[0]
    pt = mover.choose()
    before = mover.ref.board.moves
    if pt == PASS:
        mover.person.press_pass()
    else:
        place = mover.ref.place(pt)
        mover.person.play_stone(colour, place)
        mover.person.tidy()
    assert mover.ref.board.moves == before + 1, mover.ref.status()
    t0 = time.monotonic()
    pump(sides, lambda: other.ref.board.moves == before + 1, 30, "the move at the other board")
    if latencies is not None:
        latencies.append(time.monotonic() - t0)
    assert other.ref.board.move(before) == mover.ref.board.move(before)
    assert other.person.tidy(), other.ref.status()
    return mover, pt


def takeback(sides, mover):
    """The mover takes back their last move (lift it, Confirm); the other
    board asks its person, who confirms."""
    other = sides[1] if mover is sides[0] else sides[0]
    ref = mover.ref
    n = ref.board.moves
    colour, pt = ref.board.last_move()
    assert colour == mover.colour and pt != PASS
    mover.person.lift(ref.place(pt))
    mover.person.wait_until(lambda: ref.tb_ready)
    mover.sim.press("confirm")
    mover.sim.settle()
    assert ref.board.moves == n - 1, ref.status()
    assert mover.person.tidy()
    pump(sides, lambda: other.ref.ask_undo == n, 30, "the take-back asked at the other board")
    assert other.ref.board.moves == n  # not taken back until the person there confirms
    other.sim.press("confirm")
    pump(sides, lambda: other.ref.board.moves == n - 1, 30, "the take-back confirmed")
    assert other.person.tidy(), other.ref.status()


# The stress person's habits that fit a game across two boards: every
# per-move habit but those that hold a move back or take one back across
# the link (late prisoners, a wrong move taken back, a pass mid-game: the
# take-back and the passes have tests of their own), and self-capture
# (the default rules forbid it).
STRESS_HABITS = ("one_motion", "under_hand", "prisoners_first", "bump", "bump_last", "sleeve",
                 "knock_off", "wrong_colour", "illegal", "extra", "drop", "nudge", "hand",
                 "two_hands", "lift_back", "slow")


def stress_persons(sides, seed, habits=STRESS_HABITS):
    """host_sim/person/stress_player.py's Player at each board (its own rules core
    for what it intends, its habits when it puts a stone down)."""
    from gogadget.rules import DEFAULT_PRESET
    from host_sim.person.stress import Spec
    from host_sim.person.stress_player import Player
    for i, s in enumerate(sides):
        spec = Spec(seed + i, sizes=(s.sim.size,), habits=set(habits), size=s.sim.size,
                    preset=DEFAULT_PRESET, handicap=0, noise=0.0, sensors="colour",
                    max_moves=400)
        s.player = Player(s.sim, spec, random.Random(seed * 7 + i))


def stress_move(sides, rng, latencies=None):
    """The side to move plays with the stress person's habits; the other
    board lights the move and its stress person follows the lights.  False
    when the side to move has no move left (it passes instead)."""
    colour = sides[0].ref.board.to_move()
    mover = sides[0] if sides[0].colour == colour else sides[1]
    other = sides[1] if mover is sides[0] else sides[0]
    before = mover.ref.board.moves
    place = mover.player.intent.random_move(rng, colour)
    if place is None:
        mover.player.intent.pass_move(colour)
        mover.person.press_pass()
    else:
        mover.player.move(colour, place)
    assert mover.ref.board.moves == before + 1, mover.ref.status()
    t0 = time.monotonic()
    pump(sides, lambda: other.ref.board.moves == before + 1, 30, "the move at the other board")
    if latencies is not None:
        latencies.append(time.monotonic() - t0)
    if place is None:
        other.player.intent.pass_move(colour)
    else:
        other.player.intent.play(colour, place)
    other.player.obey()
    other.player.check_position()
    assert other.ref.board.move(before) == mover.ref.board.move(before)
    return place is not None
