"""`gogadget remote`: a plain Pico (no Wi-Fi) plays a board elsewhere through
the room's broker, via the host it is plugged into (docs/ROOM.md, Pairing).

    gogadget remote --port /dev/ttyACM0 --broker mqtt://HOST:PORT --board-id b1 \\
        --game g1 --opponent b2 --colour B [--password PW | --credentials FILE]
    gogadget remote --sim [--sim-store DIR] ...
        # the simulator running on DIR (make sim), or one of its own there with
        # you at it (host_sim/room/atsim.py); two on one machine: two folders

It is `gogadget publish` (host_sim/room/publish.py: the board's game read
over GTP into a Mirror, published by the firmware's Broadcaster) with the
firmware's pairing.Follower riding on the Broadcaster's connection, as on a
Pico W.  The Follower's Remote acts on the board through LinkReferee: the
opponent's moves go to the board as GTP `play` (the board lights them to be
placed, as an engine's), the rest as `gogadget-remote` (the remote colour,
whose stones and Pass the board then refuses; a take-back to confirm; a
resignation; the count).  What the Remote reads -- the record, the phase,
the result -- is the Mirror, walked to the board at every look.
"""
import sys

from gogadget.board import OK
from gogadget.compat import ticks_ms
from gogadget.pairing import Follower
from gogadget.points import colour_name, vertex
from host_sim.room.publish import HostPublisher
from host_sim.base.serialport import GtpError


class LinkReferee:
    """The board's referee as pairing.Remote uses it, over the GTP link."""

    def __init__(self, host):
        self.host = host
        self._remote = 0
        self.told = False  # the board knows the remote colour (told again after every reopen)
        self._ask = 0
        self.said = []  # the Remote's events (the host's log)
        self.dirty = False  # (the Follower sets it; the board redraws itself)
        self._theirs = None  # their clock, as the board has not been told it yet

    # What the Remote reads: the Mirror.
    @property
    def board(self):
        return self.host.mirror.board

    @property
    def log(self):
        return self.host.mirror.log

    @property
    def phase(self):
        return self.host.mirror.phase

    @property
    def result(self):
        return self.host.mirror.result

    @property
    def komi(self):
        return self.host.mirror.komi

    @property
    def rules(self):
        return self.host.mirror.rules

    @property
    def now(self):
        return self.host.now()

    @property
    def clock(self):
        """The board's clock as its status says it (mirror.MirrorClock),
        with whose turn it is here; the Follower gives it their figure
        (theirs), which goes to the board as `gogadget-remote clock`."""
        clock = self.host.mirror.clock
        if clock is not None:
            m = self.host.mirror
            clock.remote_turn = m.phase == "play" and bool(self._remote) \
                and m.board.to_move() == self._remote
            clock.theirs = self._their_clock
        return clock

    def _their_clock(self, ref, ms, n, running, took=-1):
        self._theirs = "gogadget-remote clock %d %d %d %d" % (ms, n, 1 if running else 0, took)
        self.tell_clock()

    def tell_clock(self):
        """Their clock to the board (again at the next look if the link is away)."""
        if self._theirs is not None and self.told and self.host.link is not None:
            try:
                self._send(self._theirs)
                self._theirs = None
            except (OSError, GtpError):
                pass

    def outstanding(self):
        return 0  # the board itself holds the lights

    def event(self, kind, text):
        self.said.append((kind, text))
        # The pairing stopped is always said; its prompts (a take-back to
        # confirm, the other board's count) with --verbose.
        say = self.host.notice if kind in ("error", "clock") else self.host.log
        say("%s: %s: %s" % (self.host.pub.board_id, kind, text))

    # What the Remote does: GTP commands.
    @property
    def remote(self):
        return self._remote

    @remote.setter
    def remote(self, colour):
        self._remote = colour
        self.told = False

    def tell(self):
        """Give the board the remote colour (at every (re)opened link)."""
        if not self.told and self.host.link is not None:
            self._send("gogadget-remote colour " + colour_name(self._remote))
            self.told = True
        self.tell_clock()

    @property
    def ask_undo(self):
        return self._ask

    @ask_undo.setter
    def ask_undo(self, n):
        if n != self._ask:
            self._send("gogadget-remote ask-undo %d" % n)
        self._ask = n

    def external_move(self, colour, pt):
        try:
            self._send("play %s %s" % (colour_name(colour), vertex(self.board.size, pt)))
        except GtpError as e:
            if "illegal" in str(e):
                return 1
            raise ValueError(str(e))
        self.host.said_in(self.board.moves + 1, colour, pt)
        self.host.look()  # the Mirror holds the move before the Remote looks again
        return OK

    def resign(self, colour):
        self._send("gogadget-remote resign " + colour_name(colour))
        self.host.look()

    def told_result(self, result):
        """Their board called their own flag (pairing: B+T / W+T): the board
        ends the game with it, journalled there (`gogadget-result`)."""
        self._send("gogadget-result " + result)
        self.host.look()

    def count_result(self):
        return self._send("gogadget-remote count").strip()

    def confirm_count(self):
        self._send("gogadget-remote confirm-count")
        self.host.look()

    def _send(self, command):
        link = self.host.link
        if link is None:
            raise OSError(107, "no link to the board")
        try:
            return link.send(command)
        except GtpError:
            raise
        except Exception as exc:  # noqa: BLE001  the link went: the Remote tries again later
            self.host._lost(exc)
            raise OSError(104, "link lost: %s" % exc)


class HostRemote(HostPublisher):
    """HostPublisher whose Broadcaster carries a pairing.Follower acting on
    the board through LinkReferee."""

    def __init__(self, open_link, connect, board_id, opponent, colour, pair, now=None, **kw):
        """now(): the ms clock the Follower times their moves with
        (default ticks_ms; a test gives the simulated board's)."""
        self.follower = Follower(board_id, opponent, colour, pair)
        self.now = now or ticks_ms
        self.last_in = None  # (move number, colour, point) of the opponent's last move
        HostPublisher.__init__(self, open_link, connect, board_id, peer=self.follower, **kw)
        self.ref = LinkReferee(self)
        self.follower.attach(self.ref)

    def look(self):
        self.ref.tell()
        HostPublisher.look(self)

    # The story (--verbose): the opponent's moves come in and are placed
    # here; this board's go out.
    def said_in(self, n, colour, pt):
        self.last_in = (n, colour, pt)
        self.log("%s: %s in from %s%s" % (
            self.pub.board_id, self._move_text(n, colour, pt), self.follower.opponent,
            "" if pt == 0 else ", lit to be placed"))

    def said_move(self, n, colour, pt):
        if colour != self.follower.remote.colour:  # theirs was said as it came in
            HostPublisher.said_move(self, n, colour, pt)

    def _lost(self, exc):
        self.ref.told = False
        HostPublisher._lost(self, exc)


def add_arguments(p):
    from host_sim.room import publish
    publish.add_arguments(p)
    p.add_argument("--game", required=True,
                   help="the game's name, the same at both boards (1-32 of a-z A-Z 0-9 - _)")
    p.add_argument("--opponent", required=True, help="the other board's id")
    p.add_argument("--colour", "--color", required=True, choices=("B", "W", "b", "w"),
                   help="the colour played at this board")


def cmd_remote(args, open_link, **run):
    """open_link(): a new link to the board (the CLI's Connection); run:
    hostcmd.run_host's runner and out (host_sim/room/atsim.py)."""
    from host_sim.room import publish
    colour = 1 if args.colour.upper() == "B" else 2

    def make_host(connect, log, notice):
        return HostRemote(open_link, connect, args.board_id, args.opponent, colour, args.game,
                          black=args.black, white=args.white, look_s=args.interval,
                          log=log, notice=notice)
    return publish.run_host(args, "remote", make_host, "%s plays %s of %s against %s through %s"
                            % (publish.board_name(args), args.colour.upper(), args.game,
                               args.opponent, args.broker), **run)
