"""The virtual board behind a serial port, with a simulated person at it.

`gogadget ... --sim` and the end-to-end tests use this instead of a USB
cable: the firmware's App (and so its own Link) runs in a thread on the
master end of a pty, and host tools open the slave path with pyserial as
they would /dev/ttyACM0.  The person follows the LED prompts (puts the
stones the LEDs ask for, lifts prisoners) and, on its own turns, places a
stone a policy chooses, or presses pass.
"""
import os
import pty
import random
import shlex
import shutil
import tempfile
import threading
import time
import tty

from gogadget import events, frame
from gogadget.board import OK
from gogadget.points import BLACK, EMPTY, PASS, place, place_point, vertex, parse_vertex
from host_sim.sim import virtual
from host_sim.base.serialport import FdStream, GtpClient, PipeTransport


class RandomPolicy:
    """Random legal moves that do not fill the player's own eyes; pass when
    nothing is left (so a game between two of them ends)."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, board, colour):
        pts = board.points()
        self.rng.shuffle(pts)
        w = board.stride
        cells = board.cells
        for pt in pts:
            if cells[pt] != EMPTY:
                continue
            if all(cells[q] in (colour, 3) for q in (pt - 1, pt + 1, pt - w, pt + w)):
                continue  # own eye
            if board.legal(colour, pt) == OK:
                return pt
        return PASS

    def dead(self, board):
        return []  # plays until nothing is left: every stone is alive

    def close(self):
        pass


class ScriptPolicy:
    """A person who plays a written game: the n-th move of their colour is
    the n-th of `moves` (a vertex, "pass", "resign" or "wait": no move, as
    if thinking until the clock runs out; a move taken back is played
    again), then passes; at the count lifts `dead`."""

    def __init__(self, moves, dead=(), handicap=()):
        self.script = [m.strip() for m in moves if m.strip()]
        self.dead_vertices = list(dead)
        self.handicap = list(handicap)  # where this person puts a free handicap

    def handicap_stone(self, board, k):
        return parse_vertex(board.size, self.handicap[k])

    def choose(self, board, colour):
        n = sum(1 for i in range(board.moves) if board.move(i)[0] == colour)
        word = self.script[n] if n < len(self.script) else "pass"
        if word.lower() in ("resign", "wait"):
            return word.lower()  # wait: thinking until the clock runs out
        return parse_vertex(board.size, word)

    def dead(self, board):
        return [parse_vertex(board.size, v) for v in self.dead_vertices]

    def close(self):
        pass


class EnginePolicy:
    """A GTP engine (GNU Go) chooses the person's moves; it is kept in step
    with the referee's record and asked with reg_genmove."""

    def __init__(self, command):
        self.gtp = GtpClient(PipeTransport(shlex.split(command)))
        self.known = None  # (size, moves as (colour, pt)) the engine has

    def _sync(self, board):
        record = [board.move(i) for i in range(board.moves)]
        size = board.size
        if self.known is None or self.known[0] != size or \
                self.known[1] != record[:len(self.known[1])] or self.known[2] != board.handicap:
            self.gtp.send("boardsize %d" % size)
            self.gtp.send("clear_board")
            from gogadget import sgf
            for colour, pt in sgf.initial_stones(board):
                self.gtp.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
            self.known = (size, [], board.handicap)
        known = self.known[1]
        for colour, pt in record[len(known):]:
            self.gtp.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
            known.append((colour, pt))

    def choose(self, board, colour):
        self._sync(board)
        answer = self.gtp.send("reg_genmove " + ("b" if colour == BLACK else "w")).strip().lower()
        if answer == "resign":
            return "resign"
        return parse_vertex(board.size, answer)

    def dead(self, board):
        """The stones the engine judges dead in the finished position."""
        self._sync(board)
        return [parse_vertex(board.size, v)
                for v in self.gtp.send("final_status_list dead").split()]

    def close(self):
        self.gtp.close()


class Person:
    """Does what the LEDs ask; moves for `colour` (None: for whichever colour
    the link's genmove waits for, i.e. the side the host gave the board)."""

    def __init__(self, sim, policy, colour=None, confirm_count=True):
        self.sim = sim
        self.policy = policy
        self.colour = colour
        self.confirm_count = confirm_count
        self._wait_moves = -1  # the referee has not yet taken our last stone
        self._wait_until = 0
        self._confirm_at = -1  # counting: when the dead stones are off, confirm
        # True: moves only when the host's genmove asks (play, gtp); False:
        # whenever it is this colour's turn (`gogadget online` watches the
        # board instead of holding the link with a genmove).
        self.asked = True
        self.think_ms = 0  # virtual ms the person looks at the board before each move
        self._think_move = -1
        self._think_from = 0
        self.moves = 0
        self.fixes = 0

    def act(self, now_ms):
        sim = self.sim
        ref = sim.app.referee
        stones = sim.stones
        size = stones.size
        if size != ref.board.size:
            stones.__init__(ref.board.size)  # the host started another size: a new board
            sim.sensors._clean = bytearray(len(stones.cells))
            sim.sensors._seen_changes = -1
            return
        prompts = sim.leds.prompts()
        if prompts:
            for pl, code in prompts.items():
                c = code & 0x0F
                have = stones.cells[pl]
                if c in virtual.LIFT_CODES or c == frame.WRONG_COLOUR:
                    if have != EMPTY:
                        stones.lift(pl)
                        self.fixes += 1
                elif c in virtual.PUT_CODES and have == EMPTY:
                    stones.put(pl, virtual.PUT_CODES[c])
                    self.fixes += 1
            self._wait_moves = -1
            return
        if ref.phase == "setup" and getattr(ref, "free", False):
            self._free_handicap(ref, now_ms)
            return
        if ref.phase == "count":
            if not self.confirm_count:
                return
            if self._confirm_at < 0:
                # As players do: lift the dead stones (the referee marks
                # them), let the count settle on the LEDs, then confirm.
                for pt in self.policy.dead(ref.board):
                    if stones.cells[place(size, pt)] != EMPTY:
                        stones.lift(place(size, pt))
                self._confirm_at = now_ms + 500
            elif now_ms >= self._confirm_at:
                sim.buttons.press(events.BTN_CONFIRM)
                self._confirm_at = -1
            return
        self._confirm_at = -1
        if ref.phase != "play" or ref.outstanding():
            return
        board = ref.board
        if not self._matches(board):
            return  # the lights have not yet caught up with a new game: wait for them
        if self._wait_moves >= 0:
            if board.moves == self._wait_moves and now_ms < self._wait_until:
                return  # our stone is not yet taken
            self._wait_moves = -1
        turn = board.to_move()
        # A person waits to be asked: a stone put down before the host has
        # set up the game would only be an extra stone to lift again.
        if (self.asked and sim.link.waiting != turn) or self.colour not in (None, turn):
            return
        if self.think_ms:
            if self._think_move != board.moves:
                self._think_move = board.moves
                self._think_from = now_ms
                return
            if now_ms - self._think_from < self.think_ms:
                return
        choice = self.policy.choose(board, turn)
        if choice == "wait":
            return
        self.moves += 1
        if choice == "resign":
            sim.buttons.press(events.BTN_RESIGN)
        elif choice == PASS:
            sim.buttons.press(events.BTN_PASS)
        else:
            stones.put(place(size, choice), turn)
        self._wait_moves = board.moves
        self._wait_until = now_ms + 2000


    def _free_handicap(self, ref, now_ms):
        """Black's free handicap: one stone at a time where the policy says
        (a random empty point without one), then Confirm once they count."""
        if self.colour not in (None, BLACK) or now_ms < self._wait_until:
            return
        stones = self.sim.stones
        size = stones.size
        down = sum(1 for c in stones.cells if c == BLACK)
        if down < ref.handicap:
            pick = getattr(self.policy, "handicap_stone", None)
            pt = pick(ref.board, down) if pick else self.policy.choose(ref.board, BLACK)
            stones.put(place(size, pt), BLACK)
            self._wait_until = now_ms + 300
        elif ref.placed == ref.handicap:
            self.sim.buttons.press(events.BTN_CONFIRM)
            self._wait_until = now_ms + 1000

    def _matches(self, board):
        """The physical stones are the referee's position."""
        cells = self.sim.stones.cells
        size = board.size
        for pl in range(size * size):
            if cells[pl] != board.cells[place_point(size, pl)]:
                return False
        return True


class SimBoard:
    """App + virtual drivers + person, served on a pty (or any stream)."""

    def __init__(self, size=9, preset=None, komi=None, sensors=None, policy=None, colour=None,
                 store_dir=None, seed=0, stream=None, speed=20.0, timing=None):
        """timing: the config's time control (enginetime.time_settings)."""
        from gogadget.app import App

        self.config = virtual.make_config(size=size, preset=preset, komi=komi, sensors=sensors,
                                          **(timing or {}))
        self.clock = virtual.Clock()
        self.stones = virtual.Stones(size)
        self.sensors = virtual.Sensors(self.stones, self.clock, self.config.sensors)
        self.leds = virtual.Leds(size)
        self.buttons = virtual.Buttons()
        self._own_store = store_dir is None
        self.store_dir = store_dir or tempfile.mkdtemp(prefix="gogadget-sim-")
        # The virtual board's flash: gogadget-config writes its config.json
        # and secrets.json here (firmware/gogadget/configgtp.py).
        setattr(self.config, "file", os.path.join(self.store_dir, "config.json"))
        self.port = None
        self._fds = []
        if stream is None:
            master, slave = pty.openpty()
            tty.setraw(slave)
            self._fds = [master, slave]
            self.port = os.ttyname(slave)
            stream = FdStream(master)
        self.stream = stream
        self.app = App(self.config, self.sensors, self.leds, self.buttons, self.store_dir,
                       stream=stream)
        # The App's own link (the board loads it at the host's first byte;
        # here it is there from the start).
        self.link = self.app.open_link()
        self._own_link = False
        self.person = Person(self, policy or RandomPolicy(seed), colour)
        self.period_ms = self.config.scan_period_ms()
        self.speed = speed  # virtual ms per real ms
        self.steps = 0
        self.error = None
        self._stop = threading.Event()
        self._thread = None
        self.lock = threading.Lock()
        self.app.boot(self.clock.now_ms)

    def step(self):
        now = self.clock.advance(self.period_ms)
        self.person.act(now)
        self.app.step(now)
        if self._own_link:
            self.link.poll(now)
        self.steps += 1

    def _run(self):
        pause = self.period_ms / 1000.0 / self.speed
        try:
            while not self._stop.is_set():
                with self.lock:
                    self.step()
                time.sleep(pause)
        except Exception as exc:  # noqa: BLE001 - reported to the host side by check()
            import traceback
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.error = "%s: %s (%s line %d)" % (type(exc).__name__, exc,
                                                   os.path.basename(where.filename), where.lineno)

    def start(self):
        self._thread = threading.Thread(target=self._run, name="gogadget-sim", daemon=True)
        self._thread.start()
        return self

    def check(self):
        if self.error is not None:
            raise RuntimeError("the simulated board stopped: %s" % (self.error,))

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self.person.policy.close()
        for fd in self._fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = []
        if self._own_store:
            shutil.rmtree(self.store_dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()


def policy_from(spec, seed=0):
    """"random", "script:MOVES[;dead:VERTICES]" (e.g. script:E5 C3 pass;dead:G7)
    or "engine:COMMAND" (e.g. engine:/usr/games/gnugo --mode gtp --level 1)."""
    if spec in (None, "", "random"):
        return RandomPolicy(seed)
    if spec.startswith("script:"):
        moves, _, dead = spec[len("script:"):].partition(";dead:")
        return ScriptPolicy(moves.split(), dead.split())
    if spec.startswith("engine:"):
        return EnginePolicy(spec[len("engine:"):])
    raise ValueError("person policy must be 'random' or 'engine:COMMAND'")

