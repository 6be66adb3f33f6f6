"""Two boards, one game: a remote opponent on the board (docs/ROOM.md, Pairing).

Two halves, so that other links (OGS, a server) can reuse the first:

* Remote(colour): the generic remote opponent.  Attached to a referee, it
  takes the opponent's record as the other side knows it (sync(count,
  move, result)) and brings the local game level with it: an opponent's
  move the local record lacks is lit to be placed, exactly as an engine's
  move is (Referee.external_move); their take-back of their own last move
  is asked of the person (Confirm takes it back); the end (a resignation,
  an agreed count) is taken when the local board agrees.  Anything else --
  a move of ours they have and we never made, a move that is illegal here,
  records that part -- stops the pairing with a note (Remote.note, and the
  Broadcaster's status): the board never guesses.  A stopped pairing stays
  stopped: the two boards are paired again under a new game name.
* Follower(board_id, opponent, colour, pair_id): the MQTT half.  It mirrors
  the opponent board's published game (its `move` events and `game`
  snapshots, gogadget.broadcast's format) with the relay's rules -- an
  event applies only when its seq is one more than the last applied, a
  lower one is a duplicate, a gap waits for the snapshot that follows --
  and hands that record to the Remote.  Its own moves go out through the
  board's Broadcaster, unchanged; the Broadcaster subscribes the
  Follower's topics and publishes its pair message (retained) on every
  connection (Broadcaster(..., peer=follower)).

The pairing itself is each board's retained `pair` message:
{"v":1,"pair":"<game id>","colour":"B","opponent":"<board id>"}, cleared
(an empty retained message) once the game is over at both boards or a new
game starts here, so it names no later game.  Moves
are taken only once the opponent's pair message names the same game id,
the other colour and this board.  The pairing comes from the config (or
the host's command line), so a power cut loses nothing: the record is the
journal's, the opponent's is their retained snapshot.
"""
import json

from gogadget.board import OK
from gogadget.compat import ticks_diff
from gogadget.broadcast import T_GAME, T_MOVE, T_STATUS, topic, valid_board_id
from gogadget.points import BLACK, PASS, WHITE, parse_sgf_coord

T_PAIR = "pair"  # retained: which game this board plays, as which colour, against whom
COLOURS = "?BW"

# sync() outcomes
IN_STEP = 0  # both records are the same
WAITING = 1  # the opponent has not seen our latest move yet (or the board is busy)
LIT = 2  # an opponent's move is now lit to be placed
ASKED = 3  # the opponent took back their move: the person is asked to Confirm
ENDED = 4  # the result was taken
STOPPED = 5  # the records disagree: the pairing waits for a person
BUSY = 6  # the board could not be told (a host's link is away): tried again
COUNTING = 7  # their count is in; this board's count does not give it yet
RECOUNT_POLLS = 50  # while COUNTING, this board's count is looked at again this often
# The game clock (docs/CLOCK.md, remote play): each board runs its own
# player's clock and takes the opponent's from their snapshot.  A move their
# board says took longer than this board saw pass between the two moves
# (plus this much for the network) is shown, never corrected.
CLOCK_TOLERANCE_MS = 2000


def pair_message(pair_id, colour, opponent):
    return b'{"v":1,"pair":"%s","colour":"%s","opponent":"%s"}' % (
        pair_id.encode(), COLOURS[colour].encode(), opponent.encode())


def _code(colour, pt):
    return colour << 12 | pt


class Remote:
    """The opponent at the other end of a link; see the module notes."""

    def __init__(self, colour, referee=None):
        if colour != BLACK and colour != WHITE:
            raise ValueError("a remote opponent plays black or white")
        self.colour = colour  # the remote player's
        self.ref = None
        self.note = ""  # why the pairing stopped ("" while it goes on)
        self.asked_back = -1  # we took back our move: they may still show this many moves
        self._back_seq = 0  # their record's seq when we took it back
        self._back_from = 0  # our moves after the take-back (theirs may differ from here on)
        self._asked = 0  # their take-back of move N asked here (Confirm accepts it)
        self.lit = 0  # opponent moves lit (figures for the host and the tests)
        self._seen = -1  # local moves at the last look (a local take-back)
        self.game = -1  # the local game's number, from the first look on
        self.counting = ""  # their count's result, not yet this board's
        if referee is not None:
            self.attach(referee)

    def attach(self, referee):
        self.ref = referee
        referee.remote = self.colour
        self._seen = referee.board.moves

    def stop(self, why):
        if not self.note:
            self.note = why
            self.ref.event("error", "remote game stopped: " + why)
        return STOPPED

    def local_changed(self, seq=0):
        """Called when the local record moved (seq: the version of their
        record seen so far): a take-back of our own move here is a request
        to the other side, until their record has moved on and shows it too.
        (Level with us before it moved on, it may simply not have had our
        move yet: it comes, and then goes when they confirm.)"""
        ref = self.ref
        moves = ref.board.moves
        if moves < self._seen:
            if self._asked == self._seen:
                self._asked = 0  # theirs, confirmed here
            elif self.asked_back < 0:
                self.asked_back = self._seen
                self._back_from = moves
                self._back_seq = seq
        self._seen = moves

    def sync(self, count, move, result, seq=0):
        """The opponent's record: `count` moves, move(i) -> (colour, pt),
        `result` its SGF RE ("" while it goes on); seq: a number that grows
        with every change of their record (their MQTT seq)."""
        ref = self.ref
        if self.note:
            return STOPPED
        if ref.phase == "setup" or ref.phase == "resume":
            return WAITING  # the person is still putting the position right
        if self.game < 0:
            self.game = ref.log.game
        elif ref.log.game != self.game:
            # New pressed here: the paired game is over or kept; its moves
            # must not be lit in the new one.
            return self.stop("a new game was started here: pair the boards again")
        board = ref.board
        mine = board.moves
        top = count if count < mine else mine
        k = 0
        while k < top and board.move(k) == move(k):
            k += 1
        if k < count and k < mine:
            if self.asked_back >= 0 and k >= self._back_from and count <= self.asked_back:
                # Our take-back, and a move played here since, before their
                # confirmation arrived: their record still shows the move
                # taken back.  It goes when they confirm.
                return WAITING
            if self._asked == mine and ref.ask_undo == mine and k == mine - 1 \
                    and count == mine:
                # Their take-back and their next move, before the person
                # here confirmed the take-back: still asked; Confirm, and
                # the new move is lit.
                return ASKED
            return self.stop("move %d differs: %s here, %s there" % (
                k + 1, _say(board, board.move(k)), _say(board, move(k))))
        if count < mine:
            # We are ahead: our own moves they have not seen yet, or their
            # last move, which they took back there (asked of the person).
            theirs = 0
            for i in range(count, mine):
                if board.move(i)[0] == self.colour:
                    theirs += 1
            if not theirs:
                return WAITING
            if count == mine - 1:
                if ref.ask_undo != mine:
                    ref.ask_undo = self._asked = mine
                    ref.event("prompt", "opponent takes back move %d: press Confirm" % mine)
                return ASKED
            return self.stop("they no longer show their move %d" % (count + 1))
        if count > mine:
            if self.asked_back >= 0 and count <= self.asked_back:
                return WAITING  # our take-back: they have not confirmed it yet
            if ref.phase == "over":
                return self.stop("they play on after the result")
            lit = False
            for i in range(mine, count):
                c, p = move(i)
                if c != self.colour:
                    return self.stop("move %d, ours, was not made here" % (i + 1))
                try:
                    code = ref.external_move(c, p)
                except ValueError as e:
                    return self.stop(str(e))
                if code != OK:
                    return self.stop("their move %d is illegal here" % (i + 1))
                lit = True
                self.lit += 1
            self._seen = board.moves
            return LIT if lit else WAITING
        if self.asked_back >= 0 and (seq > self._back_seq or mine >= self.asked_back):
            self.asked_back = -1  # they have confirmed our take-back (or we played on)
        if ref.ask_undo:
            ref.ask_undo = 0  # they played on: nothing to take back
        if result == ref.result:
            return IN_STEP
        if not result:
            return WAITING  # our result goes out; they take it when their board agrees
        if ref.result:
            return self.stop("results differ: %s here, %s there" % (ref.result, result))
        return self._end(result)

    def _end(self, result):
        ref = self.ref
        end = result[-2:]
        if end == "+R" or end == "+T":
            # A resignation, or their flag: each board calls only its own
            # player's (docs/CLOCK.md: the clock's owner calls its flag).
            loser = WHITE if result[0] == "B" else BLACK
            if loser != self.colour:
                return self.stop("they say we lost: " + result)
            if end == "+R":
                ref.resign(loser)
            else:
                _time_out(ref, loser, result)
            return ENDED
        if ref.phase != "count":
            return WAITING  # both passed there, the passes are still on their way here
        if ref.count_result() != result:
            # The person here may still be marking dead stones: asked, and
            # looked at again (Follower.poll); a Confirm here that gives
            # another result stops the pairing (results differ).
            if self.counting != result:
                self.counting = result
                ref.event("prompt", "the other board counts %s: mark the same dead stones" % result)
            return COUNTING
        ref.confirm_count()
        return ENDED


def _time_out(ref, c, result):
    """c's board says c's time ran out: the same end here, journalled as a
    time-out of this board's own is (clockio.time_out), so a cut keeps it."""
    tell = getattr(ref, "told_result", None)
    if tell is not None:
        tell(result)  # a host's stand-in for the board's referee (`gogadget remote`)
        return
    from gogadget import ending
    from gogadget.journal import K_RESULT
    clock = ref.clock
    if clock is not None:
        clock.flagged = clock.told = c
        clock.remote_run = clock.running = 0
    ref.log.append(ref, K_RESULT, 3 - c, 0xFFFF)  # gamelog.RESULT_WORDS: T
    ref.event("time", result)
    ending.finish(ref, 3 - c, result)


def _say(board, m):
    from gogadget.points import vertex
    c, p = m
    return COLOURS[c] + " " + vertex(board.size, p)


class Follower:
    """The opponent's board on MQTT, mirrored as the relay does it."""

    def __init__(self, board_id, opponent, colour, pair_id):
        """colour: the local player's (BLACK/WHITE); pair_id: the game's name
        both boards were given."""
        for name in (board_id, opponent, pair_id):
            if not valid_board_id(name):
                raise ValueError("bad id %r (1-32 of a-z A-Z 0-9 - _)" % (name,))
        if board_id == opponent:
            raise ValueError("a board cannot play itself")
        self.board_id = board_id
        self.opponent = opponent
        self.pair_id = pair_id
        self.remote = Remote(3 - colour)
        self.topics = (topic(opponent, T_PAIR).encode(), topic(opponent, T_GAME).encode(),
                       topic(opponent, T_MOVE).encode(), topic(opponent, T_STATUS).encode())
        self.hello = (topic(board_id, T_PAIR).encode(), pair_message(pair_id, colour, opponent))
        # Replaced once the paired game is over at both boards (or a new
        # game was started here): the retained pair message is then cleared,
        # so it names no later game of this board's (the Broadcaster
        # publishes a new hello when it sees one).
        self.done = False
        self.agreed = False  # their pair message names this game, the other colour, us
        self.game = -1  # the opponent board's game number (-1: no snapshot yet)
        self.seq = 0  # the last event or snapshot applied
        self.size = 0
        self.komi = 0.0
        self.rules = ""
        self.moves = bytearray(0)  # theirs, 2 bytes a move: colour << 12 | point
        self.count = 0
        self.result = ""
        self.dropped = 0  # duplicates and gaps (figures)
        self.outcome = WAITING
        self._changed = False
        self._recount = 0
        self._local = -1  # the local seq at the last sync
        self.clock = None  # their snapshot's clock (docs/ROOM.md), not yet taken
        self._turn_at = -1  # when their turn began here (ref.now), -1: not their turn
        self._their_ms = -1  # their player's ms left when their turn began
        self.clock_note = ""  # the last disagreement of the two boards' clocks
        self._ipoll = None  # the connection's socket, polled without allocating

    def attach(self, referee):
        self.remote.attach(referee)
        self._changed = True

    @property
    def note(self):
        return self.remote.note

    # -- the Broadcaster's calls ------------------------------------------

    def connected(self, client):
        """A new connection: this Follower's callback and subscriptions on it."""
        client.set_callback(self.message)
        for t in self.topics:
            client.subscribe(t, 1)
        self._ipoll = _socket_poll(client)

    def check(self, client):
        """One message, if one is waiting (message() runs).  A client's
        check_msg reads a byte even when nothing came, which allocates: its
        socket is looked at first, with ipoll (no allocation)."""
        ipoll = self._ipoll
        if ipoll is not None:
            for _ in ipoll(0):
                break
            else:
                return
        client.check_msg()

    def message(self, topic_, msg):
        """One message from the opponent's topics (the client's callback)."""
        try:
            m = json.loads(msg)
            leaf = topic_[topic_.rfind(b"/") + 1:]
            if leaf == b"pair":
                self._pair(m)
            elif not self.agreed:
                return
            elif leaf == b"game":
                self._snapshot(m)
            elif leaf == b"move":
                self._event(m)
            elif not m.get("online"):
                # Their board is gone (its will): their figure stands, no
                # longer counted down here (docs/CLOCK.md: the owner gone).
                # Their next snapshot, on their next connection, says more.
                ref = self.remote.ref
                clock = ref.clock if ref is not None else None
                if clock is not None:
                    c = self.remote.colour  # (told as theirs: a host tells its USB board)
                    clock.theirs(ref, clock.left(c), clock.overtime(c), False)
        except (ValueError, KeyError, TypeError, IndexError):
            self.dropped += 1  # not the format: the snapshot that follows will do

    def poll(self):
        """Once per Broadcaster poll: sync when either record moved.
        Allocates nothing when nothing did."""
        ref = self.remote.ref
        if ref is None:
            return
        seq = ref.log.seq
        look = False
        if seq != self._local:
            self._local = seq
            self.remote.local_changed(self.seq)
            self._changed = True
            look = True
        if self.outcome == COUNTING:
            # Dead stones marked here change no seq: look again now and then.
            self._recount += 1
            if self._recount >= RECOUNT_POLLS:
                self._recount = 0
                self._changed = True
        if self._changed and self.agreed and self.game >= 0:
            self._changed = False
            look = True
            try:
                self._sync(ref)
            except OSError:
                self.outcome = BUSY
                self._changed = True
        if look and not self.done and self._over(ref):
            self.done = True
            self.hello = (self.hello[0], b"")
        if ref.clock is not None:
            self._follow_clock(ref)  # (after the sync: their move is in the game)

    def _over(self, ref):
        """Is the paired game over at both boards (the same result), or
        replaced here by a new game?"""
        remote = self.remote
        if remote.game >= 0 and ref.log.game != remote.game:
            return True
        return ref.phase == "over" and ref.result != "" and ref.result == self.result

    def _sync(self, ref):
        if self.size != ref.board.size or self.komi != ref.komi \
                or self.rules != ref.rules.name:
            # Set the two boards alike (size, rules, komi): the board does
            # not pick one side's settings for the person.
            self.outcome = self.remote.stop("the games differ: %dx%d %s komi %s there" % (
                self.size, self.size, self.rules, self.komi))
            return
        self.outcome = self.remote.sync(self.count, self._move, self.result, self.seq)
        if self.outcome == LIT or self.outcome == ENDED:
            self._local = -1  # look again: the local record moved

    # -- the opponent's messages -----------------------------------------------

    def _pair(self, m):
        ok = (m.get("pair") == self.pair_id and m.get("opponent") == self.board_id
              and m.get("colour") == COLOURS[self.remote.colour])
        if ok != self.agreed:
            self.agreed = ok
            self._changed = True

    def _snapshot(self, m):
        game = m["game"]
        seq = m["seq"]
        if game == self.game and seq < self.seq:
            self.dropped += 1
            return
        if self.game >= 0 and game != self.game:
            self.remote.stop("the opponent's board started another game")
        if m["setup"]:
            self.remote.stop("set-up stones are not played remotely")
        size = m["size"]
        self.komi = m["komi"]
        self.rules = m["rules"]
        text = m["moves"]
        self._reset(game, size, text.count(";"))
        i = 0
        while i < len(text):
            c = BLACK if text[i + 1] == "B" else WHITE
            if text[i + 3] == "]":
                pt = PASS
                i += 4
            else:
                pt = parse_sgf_coord(size, text[i + 3:i + 5])
                i += 6
            self._put(c, pt)
        self.result = m["result"]
        self.seq = seq
        self.clock = m.get("clock")
        self._changed = True

    def _follow_clock(self, ref):
        """Their player's clock from their snapshot; a move that took longer
        there than could have passed here is shown (an event, clock_note)."""
        clock = ref.clock
        c = self.remote.colour
        if clock.remote_turn and self._turn_at < 0:
            self._turn_at = ref.now
            self._their_ms = clock.left(c) if not clock.overtime(c) else -1
        rep = self.clock
        if rep is None:
            return
        self.clock = None
        i = 2 if c == BLACK else 4
        ms, n = rep[i], rep[i + 1]
        if rep[0].encode() != clock.word:
            self.clock_note = "the boards' time controls differ: %s there" % rep[0]
            ref.event("clock", self.clock_note)
            return
        took = -1
        if self._turn_at >= 0 and not clock.remote_turn:
            # Their move is here: what their board says it took, against
            # what this board saw pass (main time only: periods and
            # increments make "took" another sum).
            seen = ticks_diff(ref.now, self._turn_at)
            if self._their_ms >= 0 and not n and not clock.inc_ms:
                took = self._their_ms - ms
                if took > seen + CLOCK_TOLERANCE_MS:
                    self.clock_note = "%s's board says the move took %d s; %d s passed here" % (
                        COLOURS[c], took // 1000, seen // 1000)
                    ref.event("clock", self.clock_note)
            self._turn_at = -1
        # Their figure stands; while their board says it runs, this board's
        # display counts it down (display only: nothing is charged here).
        clock.theirs(ref, ms, n, rep[1] == COLOURS[c], took)

    def _event(self, m):
        if m["game"] != self.game:
            return  # its snapshot says what the game is
        seq = m["seq"]
        if seq != self.seq + 1:
            self.dropped += 1  # a duplicate, or a gap the snapshot fills
            return
        t = m["t"]
        if t == "move":
            if m["n"] != self.count + 1:
                return
            p = m["p"]
            self._put(BLACK if m["c"] == "B" else WHITE,
                      parse_sgf_coord(self.size, p) if p else PASS)
        elif t == "undo":
            if m["n"] != self.count:
                return
            self.count -= 1
        elif t == "end":
            self.result = m["result"]
        else:
            return
        self.seq = seq
        self._changed = True

    def _reset(self, game, size, moves):
        self.game = game
        self.size = size
        self.count = 0
        self.result = ""
        need = 2 * (moves + size * size)
        if len(self.moves) < need:
            self.moves = bytearray(need)

    def _put(self, colour, pt):
        i = 2 * self.count
        if i + 2 > len(self.moves):
            grown = bytearray(len(self.moves) * 2 + 64)
            grown[:i] = self.moves[:i]
            self.moves = grown
        v = _code(colour, pt)
        self.moves[i] = v & 0xFF
        self.moves[i + 1] = v >> 8
        self.count += 1

    def _move(self, i):
        v = self.moves[2 * i] | self.moves[2 * i + 1] << 8
        return v >> 12, v & 0xFFF


def _socket_poll(client):
    """The client socket's ipoll (MicroPython: allocation-free), or None
    (a client without a socket, or a port without ipoll: check_msg alone)."""
    sock = getattr(client, "sock", None)
    if sock is None:
        return None
    try:
        import select
        p = select.poll()
        p.register(sock, select.POLLIN)
        return getattr(p, "ipoll", None)
    except (ImportError, AttributeError, OSError, TypeError):
        return None
