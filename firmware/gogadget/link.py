"""GTP on the board's USB serial line, served between scans.

The board is a GTP engine whose moves are made by the person at the board:
`play` from a controller becomes a "place this stone" prompt on the LEDs,
and `genmove` is answered later, when the sensors have seen the person's
move.  poll() is called once per scan cycle: it reads what has arrived
without blocking, assembles lines in a buffer allocated once, and runs at
most one command, so a slow command or a flood of noise never stalls the
scan loop.

The commands a controller sends once a game or less (SGF, stored games,
set-up, replay, config) are linkops.py's, loaded for the command and let
go (Link._run): the link a host holds keeps what runs every move.  Each
command is answered by the method or function of its own name (gtp.py),
so a GTP name and its handler's are one interned name on the board.
Longer than 500 lines because what is left runs every move or is polled
by a host (gogadget publish asks for the status every look), and the base
engine's commands the board answers its own way must be methods here.

Bytes are cleaned as GTP 2 section 3.1 says (control characters dropped,
tabs made spaces); bytes above 127 become '?', so any noise decodes as
ASCII and fails as an unknown command instead of raising.
"""
import gc

from gogadget.compat import const, forget
from gogadget.board import REASONS
from gogadget.gtp import Engine, GtpError, _clean, _int
from gogadget.points import BLACK, WHITE, MIN_SIZE, MAX_SIZE, colour_name, vertex

# Longest accepted command: the longest line anything sends the board.
# Controllers send short commands but for set_free_handicap, which GoGui
# (GtpSynchronizer) and Sabaki (EngineSyncer) send with every black set-up
# stone of the position, up to 360 on 19x19 (GTP 2: fewer than the points);
# the host's gogadget-setup names every point once.  Every point of 19x19
# as vertices is 912 characters and 361 spaces; with "gogadget-setup",
# " black", " white" and a 10-digit GTP id that is 1,310 bytes
# (tests/test_link.py sends both).
_MAX_LINE = const(1312)
# Bytes taken from the stream per poll: bounds the time one poll costs.
_RX_CHUNK = const(256)
# Referee events kept for gogadget-events; older ones are dropped (counted).
_EVENT_SLOTS = const(64)

# The link's small state, slots of one list (Link._state) allocated once:
# on the board every attribute's name is interned for good, and each is a
# slot of the instance's dict.
_RX_POS = const(0)  # next byte of _rx to read (tests read slots 0 and 1)
_RX_LEN = const(1)  # bytes in _rx
_N = const(2)  # bytes of the command line in _line so far
_OVERFLOW = const(3)  # 1: the line grew past _MAX_LINE (refused at its end)
_EV_HEAD = const(4)  # next event slot to write
_EV_COUNT = const(5)  # events kept
_EV_DROPPED = const(6)  # events dropped since the last gogadget-events
_WAIT = const(7)  # the colour a pending genmove waits for (0: none)
_WAIT_FROM = const(8)  # the move number it waits for
_PENDING = const(9)  # 1: genmove was just asked (handle answers it)
_REPORTED = const(10)  # moves the controller knows of
_STARTS = const(11)  # the referee's games started, as last seen
_ID = const(12)  # the GTP id of the command being answered
_WAIT_ID = const(13)  # the id of the pending genmove
_WAIT_END = const(14)  # what ends it without a move: "resign" / "?error text"
_SLOTS = const(15)


class Link(Engine):
    """GTP engine for the physical board.

    The first argument is a Referee, or an App (its referee and store
    folder are used); `stream` has readinto(buf) -> count or read(n) ->
    bytes/None, and write(bytes).  Commands the base Engine knows about the
    position are replaced here by methods of the same names that go through
    the referee.
    """

    def __init__(self, referee, stream, store=None):
        app = referee
        referee = getattr(app, "referee", None)
        if referee is None:
            referee = app
        self.referee = referee
        self.stream = stream
        if store is None:
            store = getattr(app, "store_dir", None)
        if store is None:
            config = getattr(referee, "config", None)
            store = getattr(config, "store", None)
        self.store = store
        state: list = [0] * _SLOTS  # (ints, and the ids' and _WAIT_END's strings)
        self._state = state
        state[_ID] = state[_WAIT_ID] = state[_WAIT_END] = ""
        Engine.__init__(self, referee.board.size, folder=store or ".")
        self._use_board()
        self._rx = bytearray(_RX_CHUNK)
        self._line = bytearray(_MAX_LINE)
        self._readinto = getattr(stream, "readinto", None)
        self._events = [None] * _EVENT_SLOTS
        commands = self.commands
        for name in ("status", "sgf", "games", "fetch", "events", "new", "setup", "frame",
                     "marked", "result", "show", "remote", "clock", "lights", "config",
                     "maintenance"):
            commands["gogadget-%s" % name] = name  # (a format longer than a name)
        commands["gogadget-replay"] = "guide"  # (self.replay is the Replay)
        commands["time_settings"] = "time_settings"
        commands["kgs-time_settings"] = "kgs_time_settings"
        commands["time_left"] = "time_left"

    # The base engine's queries (showboard, final_score, ...) must see the
    # game record, not a board of its own; and the link must not hold a
    # game's board after the referee has let it go (at a resume or a new
    # game the old board would stay on the heap, 11 KB on 19x19, until the
    # next poll): the board is always the referee's.
    @property
    def board(self):
        return self.referee.board

    @board.setter
    def board(self, value):
        pass  # Engine.__init__ assigns one; the referee's is the one

    def _new_board(self, size):
        self.dead = []  # no board of the engine's own (see board above)

    def _use_board(self):
        """The referee's game, new or resumed: its rules, its moves."""
        referee = self.referee
        self._state[_STARTS] = referee.starts
        rules = getattr(referee, "rules", None)
        if rules is not None:
            self.rules = rules
        self._state[_REPORTED] = referee.board.moves
        self.replay = None

    # -- the serial side ---------------------------------------------------

    def poll(self, now_ms=0):
        """One slice of link work: True if a response was written."""
        state = self._state
        if state[_STARTS] != self.referee.starts:
            # The referee started a game by itself (new-game button, resume).
            self._use_board()
        self._drain_events()
        if self.replay is not None:
            self.replay.step()
        if state[_WAIT]:
            if not self._check_genmove():
                return False
            return True
        if state[_RX_POS] >= state[_RX_LEN]:
            if self._readinto is not None:
                got = self._readinto(self._rx)
            else:
                data = self.stream.read(_RX_CHUNK)
                got = len(data) if data else 0
                if got:
                    self._rx[:got] = data
            if not got:
                return False
            state[_RX_LEN] = got
            state[_RX_POS] = 0
        rx = self._rx
        line = self._line
        n = state[_N]
        i = state[_RX_POS]
        end = state[_RX_LEN]
        while i < end:
            b = rx[i]
            i += 1
            if b == 10:
                state[_RX_POS] = i
                state[_N] = 0
                return self._finish(n)
            if b == 9:
                b = 32
            elif b < 32 or b == 127:
                continue  # CR, NUL and other controls: GTP says drop them
            elif b > 127:
                b = 63
            if n < _MAX_LINE:
                line[n] = b
                n += 1
            else:
                state[_OVERFLOW] = 1
        state[_RX_POS] = i
        state[_N] = n
        return False

    def take(self, data, n):
        """Bytes read from the stream before the link was made (the App's
        first look for a host): read before anything else."""
        self._rx[:n] = data[:n]
        self._state[_RX_LEN] = n
        self._state[_RX_POS] = 0

    def _finish(self, n):
        if self._state[_OVERFLOW]:
            self._state[_OVERFLOW] = 0
            self.send("? line too long\n\n")
            return True
        text = bytes(self._line[:n]).decode()  # ASCII by construction
        try:
            out = self.handle(text)
        except MemoryError:
            # A command's answer (an SGF, a long list) did not fit in the
            # heap: the game goes on, the host hears why.
            out = None
            gc.collect()
            out = "? out of memory\n\n"
        if out:
            self.send(out)
            return True
        return False

    def send(self, text):
        try:
            self.stream.write(text.encode())
        except OSError:
            pass  # host gone: the game goes on on the board

    # -- referee events ------------------------------------------------------

    def _drain_events(self):
        referee = self.referee
        while True:
            ev = referee.poll_event()
            if ev is None:
                return
            self._note(ev)

    def _note(self, event):
        kind = event[0]
        state = self._state
        if state[_WAIT]:
            if kind == "resign":
                state[_WAIT_END] = "resign"
            elif kind == "new-game":
                state[_WAIT_END] = "?new game started on the board"
        if state[_EV_COUNT] == _EVENT_SLOTS:
            state[_EV_DROPPED] += 1
        else:
            state[_EV_COUNT] += 1
        self._events[state[_EV_HEAD]] = event
        state[_EV_HEAD] = (state[_EV_HEAD] + 1) % _EVENT_SLOTS
        if self.replay is not None:
            self.replay.event(event)

    def note(self, kind, text):
        """Add a link event of its own (replay warnings) to the event stream."""
        self._note((kind, text))

    # -- genmove: the answer comes when the person has moved ----------------

    def handle(self, line):
        words = _clean(line).split()
        state = self._state
        state[_ID] = words[0] if words and words[0].isdigit() else ""
        out = Engine.handle(self, line)
        self.done = False  # quit ends the host's session, never the board's
        if state[_WAIT] and state[_PENDING]:
            state[_PENDING] = 0
            # The base answered "=": the real answer comes when the person
            # has moved (at once if they moved before the command came).
            self._check_genmove()
            return ""
        return out

    def genmove(self, args):
        self._args(args, 1)
        colour = self._colour(args[0])
        referee = self.referee
        board = referee.board
        state = self._state
        start = state[_REPORTED]
        if start > board.moves:
            start = board.moves
        word = "black" if colour == BLACK else "white"
        if start == board.moves:
            if referee.phase == "over":
                raise GtpError("game is over")
            if referee.to_move() != colour:
                raise GtpError("not %s's turn on the board" % word)
        elif board.move(start)[0] != colour:
            raise GtpError("the board's next move is not " + word)
        state[_WAIT] = colour
        state[_PENDING] = 1
        state[_WAIT_ID] = state[_ID]
        state[_WAIT_FROM] = start
        state[_WAIT_END] = ""
        return ""

    @property
    def waiting(self):
        """The colour a pending genmove waits for (0: none)."""
        return self._state[_WAIT]

    def _check_genmove(self):
        board = self.referee.board
        state = self._state
        end = state[_WAIT_END]
        start = state[_WAIT_FROM]
        if board.moves > start:
            colour, pt = board.move(start)
            state[_REPORTED] = start + 1
            if colour == state[_WAIT]:
                self._answer("=", vertex(board.size, pt))
            else:
                self._answer("?", "board moved for the other colour")
            return True
        if end:
            if end[0] == "?":
                self._answer("?", end[1:])
            else:
                self._answer("=", end)
            return True
        if board.moves < start:
            state[_REPORTED] = board.moves
            self._answer("?", "move taken back on the board")
            return True
        return False

    def _answer(self, mark, text):
        state = self._state
        state[_WAIT] = 0
        state[_WAIT_END] = ""
        self.send(mark + state[_WAIT_ID] + " " + text + "\n\n")

    # -- commands that go through the referee -------------------------------

    def _new_game(self, stones=None, **opts):
        """A new game (referee.new_game(**opts)), or the position of stones
        to set up (referee.set_position); a pending genmove is given up."""
        try:
            if stones is None:
                self.referee.new_game(**opts)
            else:
                self.referee.set_position(stones)
        except ValueError as e:
            raise GtpError(str(e))
        self._use_board()
        self.dead = []
        if self._state[_WAIT]:
            self._answer("?", "cancelled")

    def boardsize(self, args):
        self._args(args, 1)
        size = _int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self._new_game(size=size)
        return ""

    def clear_board(self, args):
        self._args(args, 0)
        self._new_game()
        return ""

    def set_komi(self, args):
        Engine.set_komi(self, args)
        self.referee.set_komi(self.komi)
        return ""

    def _board_empty(self):
        # fixed_handicap, set_free_handicap: the referee's board
        board = self.referee.board
        if board.moves:
            raise GtpError("board not empty")
        cells = board.cells
        for c in cells:
            if c == BLACK or c == WHITE:
                raise GtpError("board not empty")

    def _place_handicap(self, points):
        # As a set-up position, so presets with free placement get the GTP
        # fixed points too.
        self._new_game([(BLACK, pt) for pt in points])

    def play(self, args):
        self._args(args, 2)
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        if self._state[_WAIT]:
            raise GtpError("waiting for the board's move")
        try:
            code = self.referee.external_move(colour, pt)
        except ValueError as e:
            raise GtpError(str(e))
        if code:
            raise GtpError("illegal move: " + REASONS[code] if code < len(REASONS) else "illegal move")
        self._state[_REPORTED] = self.referee.board.moves
        self.dead = []
        return ""

    def undo(self, args):
        self._args(args, 0)
        if not self.referee.board.moves or self.referee.undo() is False:
            raise GtpError("cannot undo")
        moves = self.referee.board.moves
        if self._state[_REPORTED] > moves:
            self._state[_REPORTED] = moves
        self.dead = []
        return ""

    def final_score(self, args):
        result = self.referee.result
        if result and not self.dead:
            return result
        return Engine.final_score(self, args)

    # -- gogadget-* extensions for host tools ---------------------------------

    def status(self, args):
        """gogadget-status: phase=... turn=... (the formats are longer than
        a name: each word's name is not interned)."""
        referee = self.referee
        text = "phase=%s turn=%s moves=%d outstanding=%d size=%d" % (
            referee.phase, colour_name(referee.to_move()), referee.board.moves,
            referee.outstanding(), referee.board.size)
        log = getattr(referee, "log", None)
        if log is not None:
            # The room's numbers (docs/ROOM.md): `gogadget publish` reads them.
            text = "%s game=%d seq=%d" % (text, log.game, log.seq)
        if getattr(referee, "has_fault", False):
            text = "%s faults=%d" % (text, sum(1 for f in referee.fault if f))
        if referee.result:
            text = "%s result=%s" % (text, referee.result)
        if getattr(referee, "clock", None) is not None:
            from gogadget.clockio import status_word  # `gogadget publish`, `remote` read it
            text = text + " " + status_word(referee.clock)
        if self._state[_WAIT]:
            text = "%s waiting=%s" % (text, colour_name(self._state[_WAIT]))
        replay = self.replay
        if replay is not None:
            text = "%s replay=%d/%d" % (text, replay.next, len(replay.moves))
        said = referee.status()
        if said:
            text = "%s | %s" % (text, said.replace("\n", " "))
        return text

    def events(self, args):
        """gogadget-events: events since the last call, oldest first, one
        "kind text" a line."""
        lines = []
        state = self._state
        if state[_EV_DROPPED]:
            lines.append("dropped " + str(state[_EV_DROPPED]))
        start = (state[_EV_HEAD] - state[_EV_COUNT]) % _EVENT_SLOTS
        for k in range(state[_EV_COUNT]):
            i = (start + k) % _EVENT_SLOTS
            kind, text = self._events[i]  # pyright: ignore[reportGeneralTypeIssues]
            self._events[i] = None
            lines.append((kind + " " + text.replace("\n", " ")).strip())
        state[_EV_COUNT] = 0
        state[_EV_DROPPED] = 0
        return "\n".join(lines)

    def frame(self, args):
        """gogadget-frame: the LED frame as hex, for `gogadget watch`."""
        import binascii
        return binascii.hexlify(self.referee.frame).decode()

    # -- the base engine's answers the board cannot give ----------------------

    def loadsgf(self, args):
        raise GtpError("the board cannot jump to a position: use gogadget-replay or gogadget-setup")

    def printsgf(self, args):
        self._args(args, 0, 1)
        if args:
            raise GtpError("cannot save file: the board keeps its own records (gogadget-games)")
        return self.referee.sgf()

    def remote(self, args):
        """gogadget-remote clock MS N RUNNING [TOOK_MS]: the remote opponent's
        clock as their board says it (clock.Clock.theirs), sent every move of
        theirs; its other words (linkops.remote) come once a game or less."""
        if args and args[0] == "clock":
            self._args(args, 1, 5)
            from gogadget.clockio import told
            told(self.referee, args)
            return ""
        return _ops("remote", self, args)

    # -- the game clock (clockgtp.py, loaded for one command; time_settings
    # and kgs-time_settings are linkops's) --------------------------------------

    def time_left(self, args):
        self._args(args, 3)
        colour = self._colour(args[0])
        self._clock_call("gtp_time_left", colour, _int(args[1]), _int(args[2]))
        return ""

    def clock(self, args):
        """gogadget-clock (clockgtp.gtp_clock)."""
        return self._clock_call("gtp_clock")

    def _clock_call(self, fn, *args):
        from gogadget import clockgtp
        try:
            return getattr(clockgtp, fn)(self.referee, *args)
        except ValueError as e:
            raise GtpError(str(e))
        finally:
            clockgtp = None
            forget("clockgtp")
            if self.referee.clock is None:
                forget("clock")  # loaded for nothing: no time control

    def _run(self, handler, args):
        # A handler not among the link's methods is one of the commands a
        # controller sends once a game or less: linkops.py's function of
        # its name, the module loaded for the command.
        fn = getattr(self, handler, None)
        if fn is None:
            return _ops(handler, self, args)
        return fn(args)


def _ops(name, link, args):
    """linkops.py's `name`(link, args), its module let go of after it."""
    from gogadget import linkops
    try:
        return getattr(linkops, name)(link, args)
    finally:
        linkops = None
        forget("linkops")
