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
# The Remote's and the Follower's state is set up in pairops (loaded for the
# set-up and let go: docs/CLOCK.md, "Measured"), where pyright cannot follow it.
# pyright: reportAttributeAccessIssue=false

import json

from gogadget.board import OK
from gogadget.compat import forget, ticks_diff
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


def _job(name, *args):
    """gogadget.pairops's `name`(*args): what a paired game does seldom,
    loaded for the job and let go (the per-move paths stay here)."""
    from gogadget import pairops
    try:
        return getattr(pairops, name)(*args)
    finally:
        forget("pairops roomnames")  # (roomnames: the topics pairops names)


class Remote:
    """The opponent at the other end of a link; see the module notes."""

    def __init__(self, colour, referee=None):
        _job("remote", self, colour, referee)

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
            _job("back", self, moves, seq)
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
            return _job("says", self, 0)
        board = ref.board
        mine = board.moves
        top = count if count < mine else mine
        k = 0
        while k < top and board.move(k) == move(k):
            k += 1
        if k < count and k < mine:
            return _job("differs", self, k, count, mine, move)
        if count < mine:
            # We are ahead: our own moves they have not seen yet, or their
            # last move, which they took back there (asked of the person).
            theirs = 0
            for i in range(count, mine):
                if board.move(i)[0] == self.colour:
                    theirs += 1
            if not theirs:
                return WAITING
            return _job("took_back", self, count, mine)
        if count > mine:
            if self.asked_back >= 0 and count <= self.asked_back:
                return WAITING  # our take-back: they have not confirmed it yet
            if ref.phase == "over":
                return _job("says", self, 1)
            lit = False
            for i in range(mine, count):
                c, p = move(i)
                if c != self.colour:
                    return _job("stop", self, "move %d, ours, was not made here", i + 1)
                try:
                    code = ref.external_move(c, p)
                except ValueError as e:
                    return self.stop(str(e))
                if code != OK:
                    return _job("stop", self, "their move %d is illegal here", i + 1)
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
            return _job("says", self, 2, ref.result, result)
        end = result[-2:]
        if end == "+R" or end == "+T":
            return _job("end", self, result)  # (their resignation, or their flag)
        if ref.phase != "count":
            return WAITING  # both passed there, the passes are still on their way here
        if ref.count_result() != result:
            # The person here may still be marking dead stones: asked, and
            # looked at again (Follower.poll); a Confirm here that gives
            # another result stops the pairing (results differ).
            if self.counting != result:
                _job("counting", self, result)
            return COUNTING
        ref.confirm_count()
        return ENDED


class Follower:
    """The opponent's board on MQTT, mirrored as the relay does it."""

    def __init__(self, board_id, opponent, colour, pair_id):
        """colour: the local player's (BLACK/WHITE); pair_id: the game's name
        both boards were given."""
        # (one load of pairops for the whole start: the Remote is made
        # there, from the class handed over, since pairops cannot import
        # this module)
        _job("init", self, board_id, opponent, pair_id, colour, Remote, pair_message)

    def attach(self, referee):
        self.remote.attach(referee)
        self._changed = True

    @property
    def note(self):
        return self.remote.note

    # -- the Broadcaster's calls ------------------------------------------

    def connected(self, client):
        """A new connection: this Follower's callback and subscriptions on it."""
        _job("connected", self, client)

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
        """One message from the opponent's topics (the client's callback).
        msg: bytes, or a view of the client's window, or (a snapshot
        longer than it) the client, a stream (gogadget.mqttsub), valid
        during the call: parsed here, none of it kept."""
        try:
            leaf = topic_[topic_.rfind(b"/") + 1:]
            if leaf == b"game":
                if self.agreed:
                    _job("snapshot", self, msg)  # (parsed as it streams: ~5 KB late in a game)
                return
            try:
                m = json.loads(msg)
            except TypeError:  # CPython's json takes no memoryview (MicroPython's any buffer)
                m = json.loads(bytes(msg))
            if leaf == b"pair":
                _job("pair", self, m)
            elif not self.agreed:
                return
            elif leaf == b"move":
                self._event(m)
            elif not m.get("online"):
                _job("gone", self)  # their board is gone (its will)
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
            self.outcome = _job("differ", self)
            return
        self.outcome = self.remote.sync(self.count, self._move, self.result, self.seq)
        if self.outcome == LIT or self.outcome == ENDED:
            self._local = -1  # look again: the local record moved

    # -- the opponent's messages -----------------------------------------------

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
            _job("clock_note", self, ref, rep, c, -1, 0)
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
                    _job("clock_note", self, ref, rep, c, took, seen)
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

    def _put(self, colour, pt):
        i = 2 * self.count
        if i + 2 > len(self.moves):
            grown = bytearray(i + 256)  # 128 moves more (pairops.snapshot)
            grown[:i] = self.moves[:i]
            self.moves = grown
        v = colour << 12 | pt
        self.moves[i] = v & 0xFF
        self.moves[i + 1] = v >> 8
        self.count += 1

    def _move(self, i):
        v = self.moves[2 * i] | self.moves[2 * i + 1] << 8
        return v >> 12, v & 0xFFF
