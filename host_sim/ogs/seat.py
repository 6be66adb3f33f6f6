"""The person's seat in one OGS game: the bridge between the server's
websocket and the board's GTP link.

* The opponent's moves go to the board with `play`, exactly as `gogadget
  play` sends an engine's: the board lights them (captures too) until the
  person has placed them.
* The person's moves are seen by polling the board (gogadget-status, then
  its record): the link stays free for the opponent's moves, a result or
  an undo while the person thinks (a genmove would hold it).  A move goes
  out as game/move; one the server refuses (game/<id>/error) is taken back
  on the board (`undo`: the LEDs ask for the stone to be lifted) and never
  recorded.
* After two passes the stones the person lifts are proposed as removed
  stones; Confirm at the board accepts them; the server's agreed result is
  told to the board (gogadget-result) and lands in its record.
* The server's position is the truth: at every (re)connect, and after a
  power cut of the board, the board is brought to it -- moves it lacks are
  lit to be placed, a move the server never got is sent if it is the
  person's next one and otherwise taken back.  Nothing is guessed: what
  cannot be reconciled stops the bridge with the reason.
* No engine is consulted, ever: the board shows only the game.
"""
import time

from websockets.exceptions import ConnectionClosed

from gogadget import sgf as sgf_mod
from gogadget.points import BLACK, WHITE, vertex
from host_sim.ogs import proto
from host_sim.ogs.wire import OgsError
from host_sim.base.serialport import GtpError, LinkClosed, status_words

POLL_S = 0.1  # how long one wait for the server lasts before the board is looked at
PING_S = 10.0  # net/ping's interval (ClientToServer.d.ts: "default interval is 10 seconds")
RECONNECT_S = (0.2, 0.5, 1, 2, 5, 10)  # back-off between attempts, the last repeated
BOARD_WAIT_S = 10.0
BOARD_ERRORS = (GtpError, LinkClosed, OSError, TimeoutError, RuntimeError)


class SeatError(Exception):
    """The bridge cannot go on without guessing; the text says why."""


def board_record(board):
    """(size, setup [(colour, vertex)], moves [(colour, vertex)]) of the
    board's game (its own SGF)."""
    game = sgf_mod.parse(board.send("gogadget-sgf", BOARD_WAIT_S))
    size = game.size
    return (size, [(c, vertex(size, p)) for c, p in game.setup],
            [(c, vertex(size, p)) for c, p in game.moves])


class Seat:
    """One game: attach(), then run() until it is over (or stop is set)."""

    def __init__(self, socket, user_id, game_id, open_board, log=print, clock_log=None,
                 poll_s=POLL_S, ping_s=PING_S, reconnect_s=RECONNECT_S, board_clock=0):
        self.sock = socket
        self.user_id = user_id
        self.game_id = game_id
        self.open_board = open_board
        self.board = None
        self.log = log
        self.clock_log = clock_log or log
        self.poll_s = poll_s
        self.ping_s = ping_s
        self.reconnect_s = reconnect_s
        self.game = None  # the latest gamedata
        self.moves = []  # the server's moves as (colour, vertex)
        self.phase = ""
        self.me = 0
        self.size = 0
        self.handicap_moves = 0  # Black's first moves that are handicap stones
        self.pending = None  # (index, vertex) sent, not yet echoed
        self.proposed = set()  # removed stones we proposed (vertices)
        self.all_removed = set()  # the server's removed stones (vertices)
        self.accepted = False
        self.result = ""
        self.told = ""  # the result told to the board
        self.reconnects = 0
        self.board_restarts = 0
        self.refused = []  # (vertex, error) the server refused
        self.clock = None
        self.clock_at = 0.0  # when the clock message came (time.time())
        self.board_clock = board_clock  # seconds the person's time shows on the board
        self._clock_shown = -1  # the move number it was last shown for
        self.done = False
        self.stop = False
        self._seen = None  # the board's last (moves, phase) looked at
        self._last_ping = 0.0
        self._said = set()

    def seated(self, colour):
        """Told the person's colour once the board holds the game (the
        simulator's scripted person plays it from then on)."""

    # -- the socket --------------------------------------------------------

    def connect(self):
        self.sock.open()
        self.sock.send("game/connect", {"game_id": self.game_id, "chat": False})
        self._last_ping = time.monotonic()
        self.sock.ping()

    def _reconnect(self):
        self.sock.close()
        attempt = 0
        while not self.stop:
            time.sleep(self.reconnect_s[min(attempt, len(self.reconnect_s) - 1)])
            attempt += 1
            try:
                self.connect()
                self.reconnects += 1
                self.log("reconnected to the server (attempt %d)" % attempt)
                return
            except (OgsError, ConnectionClosed, OSError) as exc:
                self.log("cannot reconnect yet: %s" % exc)

    def _send(self, command, data):
        """Out now if the socket is up; a lost socket is noticed by recv and
        the reconnect's gamedata sorts out what got through."""
        try:
            self.sock.send(command, data)
        except (ConnectionClosed, OSError):
            pass

    # -- the board -------------------------------------------------------------

    def _board(self):
        if self.board is None:
            self.board = self.open_board()
            self._seen = None
        return self.board

    def _lost_board(self, exc):
        self.log("the board is gone (%s): waiting for it to come back" % exc)
        try:
            if self.board is not None:
                self.board.transport.close()
        except Exception:  # noqa: BLE001 - it is gone already
            pass
        self.board = None
        self.board_restarts += 1
        while not self.stop:
            time.sleep(0.5)
            try:
                self._board()
                self._board().send("gogadget-status")
                self.log("the board is back")
                self.sync()
                return
            except BOARD_ERRORS:
                self.board = None

    def send_board(self, command):
        # Every command here is answered at once (no genmove): a board that
        # says nothing for BOARD_WAIT_S has lost power or its cable.
        return self._board().send(command, BOARD_WAIT_S)

    # -- the loop ----------------------------------------------------------------

    def run(self):
        """Until the game is over and its result is on the board."""
        if self.game is None:
            self.connect()
        while not self.done and not self.stop:
            try:
                msg = self.sock.recv(self.poll_s)
            except (ConnectionClosed, OSError):
                self.log("lost the connection to the server: reconnecting")
                self._reconnect()
                continue
            try:
                if msg is not None:
                    self.handle(msg)
                elif self.game is not None:
                    self.look()
            except BOARD_ERRORS as exc:
                if isinstance(exc, GtpError):
                    raise SeatError("the board refused: %s" % exc)
                self._lost_board(exc)
            if time.monotonic() - self._last_ping > self.ping_s:
                self._last_ping = time.monotonic()
                self._send("net/ping", {"client": int(time.time() * 1000),
                                        "drift": self.sock.drift, "latency": self.sock.latency})
        return self.result

    def handle(self, msg):
        event = msg[0]
        if not isinstance(event, str):
            return  # a reply to a request ([id, data, error])
        prefix = "game/%d/" % self.game_id
        if not event.startswith(prefix):
            if event == "ERROR":
                self.log("server error: %s" % (msg[1],))
            return
        what, data = event[len(prefix):], msg[1] if len(msg) > 1 else None
        if what == "gamedata":
            self.gamedata(data)
        elif what == "move":
            self.moved(data)
        elif what == "clock":
            self.clocked(data)
        elif what == "phase":
            self.phase = data
            self.log("phase: %s" % data)
            if data == "stone removal":
                self.proposed = set()
                self.all_removed = set()
                self.accepted = False
            elif data == "play":
                self.log("stone removal rejected: play resumes (put a stone down)")
            elif data == "finished" and not self.done:
                # The outcome comes with the gamedata; ask for it in case
                # the server does not send it of itself.
                self._send("game/connect", {"game_id": self.game_id, "chat": False})
            self.look()
        elif what == "removed_stones":
            if "all_removed" in data:
                self.all_removed = set(proto.vertices_list(self.size, data["all_removed"]))
                self.accepted = False
                self.removal_changed()
        elif what == "removed_stones_accepted":
            self.game = dict(self.game, phase=data["phase"], outcome=data["outcome"],
                             winner=data["winner"], score=data.get("score"))
            self.phase = data["phase"]
            self.finished()
        elif what == "error":
            self.refused_move(data)

    # -- the server's side -----------------------------------------------------------

    def gamedata(self, data):
        first = self.game is None
        self.game = dict(data)
        self.phase = data.get("phase", "play")
        self.size = int(data["width"])
        if int(data.get("height", self.size)) != self.size:
            raise SeatError("the game is %dx%d: the board plays square games only"
                            % (self.size, data["height"]))
        me = proto.colour_of(data, self.user_id)
        if not me:
            raise SeatError("you are not a player of game %d" % self.game_id)
        self.me = me
        initial = proto.initial_stones(data)
        self.handicap_moves = 0 if initial["b"] else int(data.get("handicap") or 0)
        raw = proto.moves_of(data)
        cols = proto.colours(data, len(raw))
        self.moves = [(c, proto.to_vertex(self.size, x, y)) for c, (x, y) in zip(cols, raw)]
        # The server's moves are the truth: a move sent and not among them
        # never got there (the connection went), and sync() sends it again.
        self.pending = None
        if "removed" in data and self.phase == "stone removal":
            removed = data["removed"]
            self.all_removed = set(proto.vertices_list(self.size, removed)) \
                if isinstance(removed, str) else set(
                    proto.to_vertex(self.size, *proto.packed_move(m)) for m in removed)
        if first:
            self.attach()
            self.seated(me)
        else:
            self.sync()
        if self.phase == "finished":
            self.finished()

    def moved(self, data):
        n = int(data["move_number"])
        x, y = proto.packed_move(data["move"])
        v = proto.to_vertex(self.size, x, y)
        if n != len(self.moves) + 1:
            # A move missed: the gamedata of a fresh game/connect is the truth.
            self.log("move %d arrived after %d: asking the server for the game" % (n, len(self.moves)))
            self._send("game/connect", {"game_id": self.game_id, "chat": False})
            return
        colour = proto.colours(self.game, n)[-1]
        self.moves.append((colour, v))
        self.game["moves"] = list(self.game.get("moves") or []) + [data["move"]]
        if self.pending is not None and self.pending[0] == n - 1:
            self.pending = None
        if colour != self.me:
            self.log("%d. %s %s (the opponent)" % (n, proto.colour_word(colour), v))
        self.sync()

    def clocked(self, data):
        self.clock = data
        self.clock_at = time.time()
        b = proto.clock_text(data.get("black_time"))
        w = proto.clock_text(data.get("white_time"))
        turn = "black" if data.get("current_player") == data.get("black_player_id") else "white"
        self.clock_log("clock: black %s, white %s (%s to play)" % (b, w, turn))

    def refused_move(self, text):
        if self.pending is None:
            self.log("server: %s" % text)
            return
        index, v = self.pending
        self.pending = None
        self.refused.append((v, text))
        self.log("the server refused %s: %s -- take it back at the board (lit)" % (v, text))
        board_moves = self._board_moves()
        if len(board_moves) == index + 1 and board_moves[index][1] == v:
            self.send_board("undo")
        self._seen = None

    def finished(self):
        result = proto.result_of(self.game)
        if not result:
            self.log("the game is over: %s" % self.game.get("outcome", "no outcome given"))
            self.done = True
            return
        self.result = result
        if self.told != result:
            self._trim()
            status = status_words(self.send_board("gogadget-status"))
            if status.get("result") != result:
                self.send_board("gogadget-result %s" % result)
            self.told = result
            self.log("game over: %s (%s)" % (result, self.game.get("outcome", "")))
        self.done = True

    # -- attaching ------------------------------------------------------------------

    def attach(self):
        """Bring the board to the server's game: go on with the board's own
        game when it is this one (after a power cut, a restart of this
        command), else start it afresh there."""
        self.log("game %d: you play %s, %dx%d, komi %s" % (
            self.game_id, proto.colour_word(self.me), self.size, self.size, self.game.get("komi")))
        try:
            # OGS keeps the time (docs/CLOCK.md): the board's own clock, if its
            # config has one, must not end an online game on time.
            self.send_board("kgs-time_settings none")
        except GtpError:
            pass  # a board from before the clock
        if not self._board_is_this_game():
            komi = self.game.get("komi", 6.5)
            preset = proto.RULES.get(self.game.get("rules"), "chinese")
            new = "gogadget-new size=%d komi=%s rules=%s" % (self.size, komi, preset)
            if self.handicap_moves and self.me == BLACK and not self.moves:
                # The person places the handicap at the board, then Confirm.
                new += " handicap=%d placement=free" % self.handicap_moves
                self.log("place your %d handicap stones where you like, then press Confirm"
                         % self.handicap_moves)
            self.send_board(new)
            initial = proto.initial_stones(self.game)
            words = []
            for key in ("b", "w"):
                if initial[key]:
                    words.append(key)
                    words.extend(proto.vertices_list(self.size, initial[key]))
            if words:
                self.send_board("gogadget-setup " + " ".join(words))
            self.log("a new game on the board: place the stones as they light up")
        else:
            self.log("the board already holds this game: going on from it")
        self.sync()

    def _server_setup(self):
        """The stones the board holds as set-up: initial_state and the
        handicap moves (once they are all in)."""
        out = []
        initial = proto.initial_stones(self.game)
        for colour, key in ((BLACK, "b"), (WHITE, "w")):
            out.extend((colour, v) for v in proto.vertices_list(self.size, initial[key]))
        if self.handicap_moves and len(self.moves) >= self.handicap_moves:
            out.extend(self.moves[:self.handicap_moves])
        return sorted(out)

    def _server_play(self):
        """The server's moves the board holds as moves."""
        return self.moves[self.handicap_moves:] if len(self.moves) >= self.handicap_moves else []

    def _board_is_this_game(self):
        status = status_words(self.send_board("gogadget-status"))
        if status.get("phase") not in ("play", "count", "setup") or \
                status.get("size") != str(self.size):
            return False
        size, setup, moves = board_record(self._board())
        if not setup and not moves:
            return False
        if sorted(setup) != self._server_setup():
            return False
        play = self._server_play()
        n = min(len(play), len(moves))
        return moves[:n] == play[:n]

    def _board_moves(self):
        return board_record(self._board())[2]

    # -- the board's side ----------------------------------------------------------------

    def look(self):
        """Poll the board: a move of the person's, a resignation, a count."""
        if self.done:
            return
        status = status_words(self.send_board("gogadget-status"))
        seen = (status.get("moves"), status.get("phase"), status.get("result"))
        if seen != self._seen:
            self._seen = seen
            self.sync(status)
        if self.phase == "stone removal" and status.get("phase") in ("count", "over"):
            self.removal(status)
        if self.board_clock and self.phase == "play" and status.get("phase") == "play" \
                and status.get("outstanding") == "0" and self.pending is None \
                and self._clock_shown != len(self.moves) and self._my_turn():
            self.show_clock()

    def _my_turn(self):
        return proto.colours(self.game, len(self.moves) + 1)[-1] == self.me

    def my_time_left(self):
        """Seconds on the person's clock now (main time), or None."""
        clock = self.clock
        if not clock:
            return None
        mine = clock.get("black_time" if self.me == BLACK else "white_time")
        if isinstance(mine, dict):
            left = float(mine.get("thinking_time", 0))
        elif isinstance(mine, (int, float)):
            left = mine / 1000.0
        else:
            return None
        if clock.get("current_player") == self.user_id:
            left -= time.time() - self.clock_at
        return max(0.0, left)

    def show_clock(self):
        """The person's time left as digits on the board, once a turn."""
        self._clock_shown = len(self.moves)
        left = self.my_time_left()
        if left is None:
            return
        text = proto.board_clock_text(left, self.size)
        try:
            self.send_board("gogadget-show %s %d" % (text, int(self.board_clock * 1000)))
            self.log("your clock on the board: %s" % text)
        except GtpError:
            pass  # the board is asking for a stone: it never hides that

    def sync(self, status=None):
        """Reconcile the board's record with the server's moves."""
        if self.game is None or self.done:
            return
        if status is None:
            status = status_words(self.send_board("gogadget-status"))
        size, setup, moves = board_record(self._board())
        if self.handicap_moves:
            if len(self.moves) < self.handicap_moves:
                return self._handicap(setup)
            if sorted(setup) != self._server_setup():
                if moves:
                    raise SeatError("the board's handicap stones are not the game's")
                self.send_board("set_free_handicap " + " ".join(
                    v for _, v in self.moves[:self.handicap_moves]))
                self._seen = None
                size, setup, moves = board_record(self._board())
        play = self._server_play()
        k = 0
        while k < len(moves) and k < len(play) and moves[k] == play[k]:
            k += 1
        if k < len(moves):
            extra = moves[k:]
            colour, v = extra[0]
            mine = (len(extra) == 1 and k == len(play) and colour == self.me
                    and self.phase == "play")
            if mine:
                if self.pending is None:
                    index = len(self.moves)
                    self.pending = (index, v)
                    self.log("%d. %s %s (you)" % (index + 1, proto.colour_word(colour), v))
                    self._send("game/move", {"game_id": self.game_id,
                                             "move": proto.encode_vertex(self.size, v)})
            else:
                # Moves the server does not have and will not get from us:
                # a game across a link never shows a move the other side
                # did not make.
                for _ in extra:
                    self.send_board("undo")
                self.log("took back %d move(s) the server does not have: %s" % (
                    len(extra), " ".join(v for _, v in extra)))
                self._seen = None
                return self.sync()
        if k < len(play) and k == len(moves):
            for colour, v in play[k:]:
                self.send_board("play %s %s" % ("b" if colour == BLACK else "w", v))
            self._seen = None
        # The person resigned at the board.
        result = status.get("result", "")
        if status.get("phase") == "over" and result.endswith("+R") and self.phase == "play" \
                and result[0] != "BW"[self.me - 1]:
            self._say_once("resign", "you resigned at the board")
            self._send("game/resign", {"game_id": self.game_id})

    def _handicap(self, setup):
        """Free handicap still being placed on the server."""
        placed = self.moves
        if self.me == BLACK:
            # The person places them at the board (its set-up stones).
            stones = [v for c, v in setup if c == BLACK]
            if self.pending is None:
                for v in sorted(stones):
                    if (BLACK, v) not in placed:
                        self.pending = (len(self.moves), v)
                        self.log("%d. black %s (your handicap stone)" % (len(self.moves) + 1, v))
                        self._send("game/move", {"game_id": self.game_id,
                                                 "move": proto.encode_vertex(self.size, v)})
                        break
            return
        self._say_once("handicap", "the opponent is placing %d handicap stones"
                       % self.handicap_moves)

    def _trim(self):
        """The game ended on the server with a move of the person's still on
        its way (a flag fell as the stone went down): the board takes back
        what the server never had before it shows the result."""
        moves = self._board_moves()
        play = self._server_play()
        if len(moves) > len(play) and moves[:len(play)] == play:
            for _ in moves[len(play):]:
                self.send_board("undo")
            self.log("took back %s: the game ended before the server had it"
                     % " ".join(v for _, v in moves[len(play):]))

    def _say_once(self, key, text):
        if key not in self._said:
            self._said.add(key)
            self.log(text)

    # -- stone removal -----------------------------------------------------------------

    def removal(self, status):
        marked = set(self.send_board("gogadget-marked").split())
        if status.get("phase") == "count":
            add = marked - self.proposed
            drop = self.proposed - marked
            if add:
                self._send("game/removed_stones/set", {
                    "game_id": self.game_id, "removed": True,
                    "stones": proto.list_of_vertices(self.size, add)})
            if drop:
                self._send("game/removed_stones/set", {
                    "game_id": self.game_id, "removed": False,
                    "stones": proto.list_of_vertices(self.size, drop)})
            if add or drop:
                self.log("you mark dead: %s" % (" ".join(sorted(marked)) or "none"))
            self.proposed = marked
            return
        # Confirm pressed at the board: the person's count is the proposal.
        if self.accepted:
            return
        add = marked - self.all_removed
        drop = self.all_removed - marked
        if add:
            self._send("game/removed_stones/set", {"game_id": self.game_id, "removed": True,
                                                   "stones": proto.list_of_vertices(self.size, add)})
        if drop:
            self._send("game/removed_stones/set", {"game_id": self.game_id, "removed": False,
                                                   "stones": proto.list_of_vertices(self.size, drop)})
        self.all_removed = set(marked)
        self.proposed = set(marked)
        self._send("game/removed_stones/accept", {
            "game_id": self.game_id, "stones": proto.list_of_vertices(self.size, marked),
            "strict_seki_mode": False})
        self.accepted = True
        self.log("you accepted the count with %s dead" % (" ".join(sorted(marked)) or "no stones"))

    def removal_changed(self):
        if self.all_removed != self.proposed:
            theirs = sorted(self.all_removed - self.proposed)
            not_theirs = sorted(self.proposed - self.all_removed)
            text = []
            if theirs:
                text.append("the opponent marks dead: %s (lift them to agree)" % " ".join(theirs))
            if not_theirs:
                text.append("the opponent marks alive: %s" % " ".join(not_theirs))
            self.log("; ".join(text) + "; Confirm at the board proposes your own count")
