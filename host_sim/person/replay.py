"""A simulated person plays a recorded game on the virtual board.

The person has human habits: prisoners come off in random order after
random delays, sometimes only after the next stone is down; now and then a
stone gets bumped to the next point and is put right once the lights ask
for it.  The person knows only the game record and what the LEDs show --
never the rules core -- so every capture, ko and correction must come from
the firmware's prompts.  At the end the firmware's own SGF (referee.sgf())
must hold exactly the moves of the input; sgfmill, an independent SGF
implementation, reads both.

    python -m host_sim replay GAME.sgf [--sensors colour|occupancy] [--noise P]
                                       [--seed N] [--out OUT.sgf] [--json]
                                       [--physics nominal|worst] [--game K]
    python -m host_sim.person.corpus --corpus DIR [--corpus DIR2] [--physics nominal|worst]
                              [--sensors colour|occupancy] [--seed N] [--jobs J]

With --physics the sensors are host_sim.sim.physics's model under the firmware's
own drivers, calibrated the maker's way first (the flicker is then off).
--game K replays the K-th game of a file that holds a collection.  --corpus
replays every game under the folders (host_sim/person/corpus.py; `make corpus`
fetches the professional games into build/corpus).
"""
import argparse
import json
import random
import sys

from sgfmill import sgf as sgfmill_sgf, sgf_grammar

from gogadget import frame, points, rules as rules_mod, scan
from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.sim.virtual import LIFT_CODES, PUT_CODES, Simulator, make_config

COLOURS = {"b": BLACK, "w": WHITE}
NAMES = {BLACK: "Black", WHITE: "White"}
DEFAULT_PRESET = "japanese"  # the historical records the simulator ships were played so


class Game:
    """A game record reduced to what a person at the board needs."""

    def __init__(self, size, komi, setup, moves, rules, props):
        self.size = size
        self.komi = komi
        self.setup = setup  # [(colour, place)] set up before the first move
        self.moves = moves  # [(colour, place or None for a pass)]
        self.rules = rules
        self.props = props


def load_game(data, to_replay=False):
    """SGF bytes or text -> Game, ValueError with the reason if it cannot be
    replayed.  to_replay: a record a person will play on the board, whose
    passes after the two that end the game are dropped (servers such as
    NNGS record a third; the board is counting by then, a pass there is no
    move).  The firmware's own records are read as they are."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        game = sgfmill_sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise ValueError("not a readable SGF game: %s" % exc)
    size = game.get_size()
    if not points.MIN_SIZE <= size <= points.MAX_SIZE:
        raise ValueError("board size %d is not supported" % size)
    root = game.get_root()
    black, white, empty = root.get_setup_stones()
    if empty:
        raise ValueError("the record clears points before play (AE); cannot replay")
    setup = [(BLACK, r * size + c) for r, c in sorted(black)]
    setup += [(WHITE, r * size + c) for r, c in sorted(white)]
    moves = []
    # The root node may hold a move too (many old records put the first
    # B[..] beside the game info); sgfmill and GNU Go read it as move 1.
    for n, node in enumerate(game.get_main_sequence()):
        if n and node.has_setup_stones():
            raise ValueError("node %d adds or removes stones mid-game; cannot replay" % n)
        colour, move = node.get_move()
        if colour is None:
            continue
        moves.append((COLOURS[colour], None if move is None else move[0] * size + move[1]))
    while to_replay and len(moves) >= 3 and all(pt is None for _, pt in moves[-3:]):
        moves.pop()
    ru = root.get("RU").lower() if root.has_property("RU") else ""
    props = {k: root.get_raw_list(k) for k in root.properties()}
    return Game(size, game.get_komi(), setup, moves, ru, props)


def game_trees(data):
    """The SGF bytes of every game tree in a file's bytes (one for most files)."""
    trees = sgf_grammar.parse_sgf_collection(data)
    if len(trees) == 1:
        return [data]
    return [sgf_grammar.serialise_game_tree(t) for t in trees]


def pick(data, index):
    """Game tree `index` (1-based) of a file's bytes; ValueError if there is none."""
    try:
        trees = game_trees(data)
    except ValueError as exc:
        raise ValueError("not a readable SGF file: %s" % exc)
    if not 1 <= index <= len(trees):
        raise ValueError("the file holds %d game(s), not a game %d" % (len(trees), index))
    return trees[index - 1]


def turn_problem(game):
    """None if the record's colours take turns as the board expects, else why
    not.  The board alternates colours from Black (White after two or more
    black set-up stones, a handicap); it cannot be told that White starts a
    set-up position (no PL), nor that a side passed without a pass in the record."""
    blacks = all(c == BLACK for c, _ in game.setup)
    want = WHITE if blacks and 2 <= len(game.setup) <= points.max_handicap(game.size) else BLACK
    for i, (colour, _) in enumerate(game.moves):
        if colour != want:
            if i == 0:
                return "%s plays first; after this set-up the board expects %s (it cannot be " \
                       "told who starts)" % (NAMES[colour], NAMES[want])
            return "move %d is %s's second in a row (no pass recorded between); the board " \
                   "alternates colours" % (i + 1, NAMES[colour])
        want = BLACK + WHITE - colour
    return None


def preset_for(game, wanted=None):
    if wanted:
        if wanted not in rules_mod.PRESETS:
            raise ValueError("unknown rules %s (one of %s)" % (wanted, ", ".join(rules_mod.PRESETS)))
        return wanted
    return game.rules if game.rules in rules_mod.PRESETS else DEFAULT_PRESET


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


def load_into(sim, data):
    """Play a game record onto the simulator's board through a tidy hand."""
    game = load_game(data, to_replay=True)
    if game.size != sim.size:
        raise ValueError("the record is %dx%d, the board %dx%d: start a new game of that size"
                         % (game.size, game.size, sim.size, sim.size))
    if game.setup:
        sim.referee.set_position([(c, points.place_point(game.size, pl)) for c, pl in game.setup])
    person = Person(sim, random.Random(0), late=0.0, bump=0.0, max_delay_ms=sim.period_ms)
    if not person.play_game(game):
        raise ValueError("the lights never cleared while loading; board left as it is")
    return game


def sgf_moves(text):
    game = load_game(text)
    return game.setup, game.moves


def compare(game, firmware_sgf):
    """None if the firmware's record holds the game's moves, else what differs."""
    try:
        setup, moves = sgf_moves(firmware_sgf)
    except ValueError as exc:
        return "firmware SGF unreadable: %s" % exc
    if sorted(setup) != sorted(game.setup):
        return "set-up stones differ: %d in the firmware's record, %d in the game" % (
            len(setup), len(game.setup))
    for i, (want, got) in enumerate(zip(game.moves, moves)):
        if want != got:
            return "move %d: game has %s, firmware recorded %s" % (
                i + 1, describe(game.size, want), describe(game.size, got))
    if len(moves) != len(game.moves):
        return "the game has %d moves, the firmware recorded %d" % (len(game.moves), len(moves))
    return None


def describe(size, move):
    colour, place = move
    where = "pass" if place is None else points.vertex(size, points.place_point(size, place))
    return points.colour_name(colour) + " " + where


def final_count(referee):
    """The firmware's own count of the final position, or None."""
    try:
        from gogadget import score
        rules = getattr(referee, "rules", None)
        if rules is None:
            return None
        c = score.count(referee.board, rules)
        return {"black": c.black, "white": c.white, "result": c.result}
    except (ImportError, AttributeError, ValueError):
        return None


def replay(data, sensors=scan.SENSOR_COLOUR, noise=0.0, seed=0, preset=None, late=0.1, bump=0.03,
           physics=None, trace=None):
    """Play a game record through the firmware; returns (summary dict, firmware SGF).
    physics: a host_sim.sim.physics setting (or its name) for the sensors; trace:
    a write function for one line per action, light change and event."""
    game = load_game(data, to_replay=True)
    problem = turn_problem(game)
    if problem:
        raise ValueError("cannot replay: " + problem)
    rng = random.Random(seed)
    handicap = len(game.setup) if all(c == BLACK for c, _ in game.setup) else 0
    fixed = False
    if 2 <= handicap <= points.max_handicap(game.size):
        spots = sorted(r * game.size + c for r, c in points.handicap_points(game.size, handicap))
        fixed = spots == sorted(pl for _, pl in game.setup)
    cfg = make_config(size=game.size, sensors=sensors, preset=preset_for(game, preset),
                      komi=float(game.komi), handicap=handicap if fixed else 0)
    tracer = None
    if trace is None:
        sim = Simulator(cfg, noise=noise, seed=rng.random(), physics=physics)
    else:
        # The same run, watched: stress's simulator prints every light change and event.
        from host_sim.sim.watch import Tracer, WatchedSim
        tracer = Tracer(trace)
        sim = WatchedSim(cfg, noise, rng.random(), tracer, physics=physics)
        tracer.clock = sim.clock
    try:
        if game.setup and not fixed:
            sim.referee.set_position([(c, points.place_point(game.size, pl)) for c, pl in game.setup])
        if tracer is None:
            person = Person(sim, random.Random(rng.random()), late=late, bump=bump)
        else:
            person = TracedPerson(sim, random.Random(rng.random()), tracer, late=late, bump=bump)
        finished = person.play_game(game)
        fw = sim.referee.sgf()
        problem = compare(game, fw) if finished else "the person got stuck: the lights never cleared"
        kinds = {}
        for _, kind, _ in sim.events:
            kinds[kind] = kinds.get(kind, 0) + 1
        summary = {
            "size": game.size, "sensors": sensors, "noise": noise, "seed": seed,
            "rules": cfg.preset, "komi": game.komi,
            "moves": len(game.moves), "captures": kinds.get("capture", 0),
            "prompts_shown": person.stats["prompts_shown"],
            "person": person.stats, "events": kinds,
            "flickers": sim.sensors.flickers, "scans": sim.steps, "virtual_ms": sim.clock.now_ms,
            "status": sim.referee.status(), "result": sim.referee.result,
            "count": final_count(sim.referee),
            "match": problem is None, "problem": problem,
        }
        if physics is not None:
            summary["physics"] = getattr(physics, "name", physics)
        return summary, fw
    finally:
        sim.close()


def parser(prog="python -m host_sim replay"):
    """replay's options (host_sim.person.corpus reads the same)."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", help="SGF file to replay")
    ap.add_argument("--sensors", choices=scan.SENSOR_KINDS, default=None,
                    help="sensor kind (default colour; --corpus: both)")
    ap.add_argument("--noise", type=float, default=0.0, help="flicker chance per point per scan")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default=None, help="rules preset (default: the record's RU or japanese)")
    ap.add_argument("--late", type=float, default=0.1, help="chance prisoners come off after the reply")
    ap.add_argument("--bump", type=float, default=0.03, help="chance per move of bumping a stone")
    ap.add_argument("--physics", choices=("nominal", "worst"), default=None,
                    help="sensors as physics (host_sim/sim/physics.py), calibrated first")
    ap.add_argument("--out", help="write the firmware's SGF here")
    ap.add_argument("--json", action="store_true", help="print a JSON summary")
    ap.add_argument("--trace", action="store_true",
                    help="print every action of the hand, light change and event")
    ap.add_argument("--game", type=int, default=None, metavar="K", dest="index",
                    help="the K-th game of a file holding a collection (1-based)")
    ap.add_argument("--corpus", action="append", default=None, metavar="DIR",
                    help="replay every game under DIR (repeatable) on both sensor kinds and "
                         "both physics settings unless --sensors / --physics say which")
    ap.add_argument("--jobs", type=int, default=1, help="--corpus: parallel worker processes")
    ap.add_argument("--report", help="--corpus: write every replay's result here as JSON")
    ap.add_argument("--sample", type=int, default=None, metavar="N",
                    help="--corpus: only N games, drawn with --seed (the whole corpus on both "
                         "kinds and settings takes hours on two cores)")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if not 0.0 <= args.noise < 1.0:
        ap.error("--noise must be a probability below 1")
    if args.corpus or args.sample is not None:  # host_sim.person.corpus runs the folders itself
        ap.error("folders of games: python -m host_sim.person.corpus --corpus DIR [--jobs N]")
    if not args.game:
        ap.error("give a game file, or --corpus DIR")
    if args.sensors is None:
        args.sensors = scan.SENSOR_COLOUR
    try:
        with open(args.game, "rb") as f:
            data = f.read()
        if args.index is not None:
            data = pick(data, args.index)
        summary, fw = replay(data, args.sensors, args.noise, args.seed, args.rules,
                             args.late, args.bump, args.physics,
                             sys.stdout.write if args.trace else None)
    except (OSError, ValueError) as exc:
        print("replay: %s" % exc, file=sys.stderr)
        return 2
    summary["game"] = args.game
    if args.out:
        with open(args.out, "w") as f:
            f.write(fw)
    if args.json:
        print(json.dumps(summary, indent=1, sort_keys=True))
    else:
        print("%s: %d moves, %d captures, %d prompts shown, %s" % (
            args.game, summary["moves"], summary["captures"], summary["prompts_shown"],
            "record matches" if summary["match"] else "MISMATCH: " + summary["problem"]))
    return 0 if summary["match"] else 1


if __name__ == "__main__":
    sys.exit(main())
