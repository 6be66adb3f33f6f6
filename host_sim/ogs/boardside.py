"""The seat's board side: the board brought to the server's game, the count's dead stones."""
import time

from gogadget import sgf as sgf_mod
from gogadget.points import BLACK, WHITE, vertex
from host_sim.ogs import proto
from host_sim.base.serialport import GtpError, status_words

BOARD_WAIT_S = 10.0


class SeatError(Exception):
    """The bridge cannot go on without guessing; the text says why."""


def board_record(board):
    """(size, setup [(colour, vertex)], moves [(colour, vertex)]) of the
    board's game (its own SGF)."""
    game = sgf_mod.parse(board.send("gogadget-sgf", BOARD_WAIT_S))
    size = game.size
    return (size, [(c, vertex(size, p)) for c, p in game.setup],
            [(c, vertex(size, p)) for c, p in game.moves])


class BoardSide:
    """The board's half of seat.Seat (its game, moves, send_board, log)."""

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
