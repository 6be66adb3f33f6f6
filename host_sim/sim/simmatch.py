"""The controller thread beside the simulator: a Match against an engine, a GtpRelay from a GTP controller."""
import threading
import time

from gogadget.gtp import _clean
from gogadget.points import BLACK
from host_sim.sim.enginegame import WORDS, check_engine, move_word, play_game
from host_sim.sim.recordtext import (PLAYER, opinion_note, plural, result_words, with_players,
                                 with_result)
from host_sim.base.serialport import GtpClient, GtpError, LinkClosed, engine

ENGINE_WAIT_S = 60.0  # longest the terminal waits for the engine or the board


class _Watched:
    """A GtpClient that tells the match what the controller is waiting for."""

    def __init__(self, client, match, role):
        self.client = client
        self.match = match
        self.role = role

    def send(self, command, timeout=None):
        words = command.split()
        self.match._waiting_on(self.role, words[0] if words else "", command)
        try:
            answer = self.client.send(command, timeout)
        finally:
            self.match._waiting_on(None, "", "")
        if self.role == "engine" and words and words[0] == "genmove":
            self.match.last_engine = (words[1], answer)
        return answer


class Match:
    """Relays one game between an engine and the simulator's board.

    sim must have been built with stream=wire.board.  The controller
    starts with start(); status() and busy() are for the main thread."""

    def __init__(self, sim, wire, command, colour=BLACK, komi=None, handicap=0, max_moves=0,
                 out=None, size=None, new=False, player=None, where=""):
        check_engine(command)
        self.sim = sim
        self.wire = wire
        self.command = command
        self.colour = colour
        self.size = size or sim.size  # the size asked for (a kept game may be another)
        self.komi = sim.referee.komi if komi is None else komi
        self.handicap = handicap
        self.max_moves = max_moves
        self.out = out
        self.new = new  # a new game even when the board holds an unfinished one
        self.player = player or PLAYER
        self.where = where
        self.name = command.split()[0].rsplit("/", 1)[-1]
        self.log = []  # lines for the person: relayed moves, result, errors
        self.history = None  # the engine's own move list at the end, [(colour, vertex)]
        self.result = ""
        self.engine_says = ""
        self.error = None
        self.done = False
        self.counting = False  # waiting for the person to confirm the count
        self.last_engine = None  # ("b"/"w", vertex) of the engine's last genmove
        self._role = "setup"
        self._word = ""
        self._thread = None
        self._engine = None
        self._saved = None

    def start(self):
        self._thread = threading.Thread(target=self._run, name="gogadget-match", daemon=True)
        self._thread.start()
        return self

    def _waiting_on(self, role, word, command):
        self._role = role
        self._word = word

    def _say(self, text):
        self.log.append(text)

    def _counting(self, flag):
        self.counting = flag

    def _run(self):
        try:
            self._engine = engine(self.command)
            eng = _Watched(self._engine, self, "engine")
            board = _Watched(GtpClient(self.wire.host), self, "board")
            try:
                self.name = eng.send("name") or self.name
            except GtpError:
                pass
            self._say("%s plays %s" % (self.name, WORDS[3 - self.colour]))
            outcome = play_game(board, eng, self.colour, self.size, self.komi, self.handicap,
                                self.max_moves, self._say, waiting=self._counting,
                                resume=not self.new, where=self.where)
            self.result, self.engine_says = outcome.result, outcome.engine_says
            self.history = self._engine_history()
            if self.result:
                self._say("result %s after %s"
                          % (result_words(self.result), plural(len(outcome.moves), "move")))
            else:
                self._say("stopped after %s" % plural(len(outcome.moves), "move"))
            if self.engine_says:
                self._say("%s's opinion: %s %s" % (self.name, self.engine_says,
                                                   opinion_note(self.name)))
            if self.history is not None:
                self._say("engine history: " + " ".join(
                    "%s %s" % (c, v) for c, v in self.history))
        except (GtpError, LinkClosed, OSError, TimeoutError, ValueError) as exc:
            if not self.wire.closed:
                self.error = str(exc)
                self._say("error: %s" % exc)
        finally:
            self.done = True
            self._role = None

    def _engine_history(self):
        """The engine's own record (GNU Go's move_history, newest first),
        so a game can be checked against the engine and not only the relay."""
        try:
            text = self._engine.send("move_history")
        except GtpError:
            return None
        out = []
        for line in text.splitlines():
            words = line.split()
            if len(words) == 2:
                out.append(("B" if words[0].lower().startswith("b") else "W", move_word(words[1])))
        out.reverse()
        return out

    # -- the main thread ---------------------------------------------------

    def busy(self):
        """True while the game is moving without the person: the engine is
        thinking or the board has a command or answer in flight."""
        if self.done:
            return False
        if self.wire.pending():
            return True
        if self.counting:
            # Waiting for the person's Confirm; once the board has moved on
            # the relay is catching up.
            return self.sim.referee.phase not in ("count",)
        link = self.sim.link
        # A genmove the link holds is the person's turn; one it has already
        # answered (or not yet read) is still on its way.
        return not (self._role == "board" and self._word == "genmove" and link.waiting)

    def wait(self, step, timeout=ENGINE_WAIT_S):
        """Run step() until the match waits for the person (or ends)."""
        end = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > end:
                raise TimeoutError("%s did not answer in %.0f s" % (self.name, timeout))
            step()
            time.sleep(0.001)  # let the controller thread and the engine run

    def status(self):
        """Whose turn it is, in words for the person."""
        if self.error:
            return "%s: %s" % (self.name, self.error)
        ref = self.sim.referee
        you = WORDS[self.colour]
        them = WORDS[3 - self.colour]
        waiting = ""
        if self.last_engine is not None and ref.outstanding() and ref.phase == "play":
            c, v = self.last_engine
            if v.lower() != "pass":
                waiting = "%s's %s %s is waiting to be placed (lit)" % (self.name, them, v.upper())
        if self.done:
            if self.result:
                text = "game over: %s by the board's count" % self.result
                if self.result.endswith("+R"):
                    text = "game over: %s" % self.result
                if self.engine_says:
                    text += " (%s's opinion: %s)" % (self.name, self.engine_says)
            else:
                text = "game stopped"
            return text + ("; " + waiting if waiting else "")
        if self.counting or ref.phase == "count":
            return "two passes: lift dead stones, then press Confirm"
        if self._role == "engine" and self._word == "genmove":
            return "%s to play: %s is thinking..." % (them.capitalize(), self.name)
        if waiting:
            return "%s to play (you): %s" % (you.capitalize(), waiting)
        if self._role == "board" and self._word == "genmove" and self.sim.link.waiting:
            if ref.outstanding():  # handicap stones, or a stone knocked off
                return "%s to play (you): first set the lit stones" % you.capitalize()
            return "%s to play (you): put a stone down or press Pass" % you.capitalize()
        if self._role == "setup":
            return "starting %s..." % self.name
        return "relaying to %s..." % self.name

    def record(self):
        """The firmware's record, with the result of a resignation and the
        players' names added."""
        names = (self.player, self.name) if self.colour == BLACK else (self.name, self.player)
        return with_players(with_result(self.sim.referee.sgf(), self.result), *names)

    def save(self):
        """Write the firmware's record to --out (again, if it changed)."""
        if not self.out:
            return False
        text = self.record()
        if text == self._saved:
            return False
        with open(self.out, "w") as f:
            f.write(text)
        self._saved = text
        return True

    def close(self):
        self.wire.close()  # a controller waiting on the board gets LinkClosed
        if self._thread is not None:
            self._thread.join(1)
            if self._thread.is_alive() and self._engine is not None:
                self._engine.transport.proc.kill()  # it was waiting on the engine
            self._thread.join(5)
        if self._engine is not None:
            self._engine.close()


class GtpRelay(Match):
    """`gogadget gtp --sim`: a GTP controller on stdin/stdout drives the board
    while a person at the window or terminal makes its moves (genmove is
    answered by the person's stone or button)."""

    ends_session = True  # the controller quits: the window or terminal closes

    def __init__(self, sim, wire, stdin, stdout):
        self.sim = sim
        self.wire = wire
        self.stdin = stdin
        self.stdout = stdout
        self.name = "the controller"
        self.log = []
        self.result = ""
        self.engine_says = ""
        self.error = None
        self.done = False
        self.counting = False
        self.out = None
        self.last_engine = None
        self.last_play = None  # the controller's last play, ("b"/"w", vertex)
        self._role = "controller"
        self._word = ""
        self._thread = None
        self._engine = None
        self._saved = None

    def _run(self):
        host = self.wire.host
        try:
            while True:
                self._role = "controller"
                line = self.stdin.readline()
                if not line:
                    break
                if isinstance(line, str):
                    line = line.encode()
                text = _clean(line.decode("utf-8", "replace"))
                if not text:
                    continue  # blank and comment lines get no response
                words = text.split()
                if words[0].isdigit():
                    words.pop(0)
                self._role, self._word = "board", (words[0] if words else "")
                host.write(line.rstrip(b"\r\n") + b"\n")
                lines = []
                while True:
                    got = host.read_line(None).decode("utf-8", "replace").replace("\r", "")
                    if not lines and not got.strip():
                        continue
                    if not got.strip():
                        break
                    lines.append(got)
                answer = "\n".join(lines)
                self._log(words, answer)
                self.stdout.write(answer + "\n\n")
                self.stdout.flush()
                if words and words[0] == "quit":
                    break
        except (LinkClosed, OSError, ValueError) as exc:
            if not self.wire.closed:
                self.error = str(exc)
                self._say("error: %s" % exc)
        finally:
            self.done = True
            self._role = None

    def _log(self, words, answer):
        if not words or not answer.startswith("="):
            return
        body = answer[1:].lstrip("0123456789").strip()
        if words[0] == "play" and len(words) == 3:
            self.last_play = (words[1].lower()[:1], move_word(words[2]))
            self._say("%s %s (from the controller)" % (
                "black" if self.last_play[0] == "b" else "white", self.last_play[1]))
        elif words[0] == "genmove" and len(words) == 2:
            self._say("%s %s (you)" % ("black" if words[1].lower()[:1] == "b" else "white",
                                        move_word(body)))

    def busy(self):
        if self.done:
            return False
        if self.wire.pending():
            return True
        if self._role == "controller":
            return False  # waiting for the controller's next command
        link = self.sim.link
        return not (self._word == "genmove" and link.waiting)

    def status(self):
        if self.error:
            return "controller: %s" % self.error
        ref = self.sim.referee
        if self.done:
            return "the controller has gone"
        if self._role == "board" and self._word == "genmove" and self.sim.link.waiting:
            you = WORDS[self.sim.link.waiting]
            if ref.outstanding():
                return "%s to play (you): first set the lit stones" % you.capitalize()
            return "%s to play (you): put a stone down or press Pass" % you.capitalize()
        if ref.outstanding() and self.last_play is not None and ref.phase == "play":
            c, v = self.last_play
            if v != "pass":
                return "the controller's %s %s is waiting to be placed (lit)" % (
                    "black" if c == "b" else "white", v)
        return "waiting for the controller (GTP on stdin)"

    def close(self):
        self.wire.close()
        if self._thread is not None:
            self._thread.join(0.5)
