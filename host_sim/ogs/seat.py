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

from host_sim.ogs import proto
from host_sim.ogs.boardside import BOARD_WAIT_S, BoardSide, SeatError
from host_sim.ogs.wire import OgsError
from host_sim.base.serialport import GtpError, LinkClosed, status_words

POLL_S = 0.1  # how long one wait for the server lasts before the board is looked at
PING_S = 10.0  # net/ping's interval (ClientToServer.d.ts: "default interval is 10 seconds")
RECONNECT_S = (0.2, 0.5, 1, 2, 5, 10)  # back-off between attempts, the last repeated
BOARD_ERRORS = (GtpError, LinkClosed, OSError, TimeoutError, RuntimeError)


class Seat(BoardSide):
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
