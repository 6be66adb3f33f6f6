"""`gogadget publish`: a plain Pico (no Wi-Fi) in the tournament room,
published through the host it is plugged into (docs/ROOM.md).

    gogadget publish --port /dev/ttyACM0 --broker mqtt://HOST:PORT --board-id NAME \\
        [--user U] [--password PW | --credentials credentials.csv]
    gogadget publish --sim --broker ...        # the running simulator (make sim),
                                               # or one of its own with you at it

The host reads the board's game over the GTP link (gogadget-status: phase,
moves, the game's number and seq, faults; gogadget-sgf: the header and the
moves; gogadget-rules-info: the preset) into a Mirror (mirror.py), a
stand-in for the referee with the attributes gogadget.broadcast.Broadcaster
reads, and publishes it with that same Broadcaster over host_sim.room.client (paho with
umqtt.simple's API).  The message format therefore has one implementation:
the firmware's.

* Every look at the board that finds its seq grown is walked to the board's
  state one event at a time (take-backs to the common start of the two move
  lists, then the new moves, then the result), the Broadcaster looking at
  each step: every event goes out with the board's own seq.  When the seq
  grew by more than those steps explain (the board was looked at too late
  to tell its events apart), the mirror jumps: the Broadcaster sends the
  snapshot and the relay fills the gap from it (docs/ROOM.md).
* The serial link gone (unplugged, the board reset): the publisher stays on
  the broker, says so in the board's status note, and opens the port again
  every second; once it answers, the board's game is read afresh.  A broker
  restart is the Broadcaster's business (what it has not had acknowledged
  is resent, with the same seq numbers).
* A publisher started afresh (or the host rebooted) publishes the board's
  status and snapshot, as a board after a power cut does.
"""
import os
import time

from gogadget.broadcast import Broadcaster
from gogadget.compat import ticks_ms
from gogadget.points import BLACK, vertex
from host_sim.room.broker import default_dir
from host_sim.room.hostcmd import run_host
from host_sim.room.mirror import Mirror, read_record
from host_sim.base.serialport import status_words

LOOK_S = 0.1  # how often the board is asked for its status
REOPEN_S = 1.0  # how often a lost serial port is tried again
ANSWER_S = 5.0  # a board answers a query between two scans; this long: gone


class HostPublisher:
    """One board on a GTP link, published by a Broadcaster.

    open_link() returns an object with send(command) -> text (raising on a
    lost link) and close(); the publisher calls it again after a failure."""

    def __init__(self, open_link, connect, board_id, black="Black", white="White",
                 look_s=LOOK_S, reopen_s=REOPEN_S, log=None, notice=None, peer=None):
        self.open_link = open_link
        self.mirror = Mirror()
        # peer: a pairing.Follower (`gogadget remote`, host_sim/room/remote.py).
        self.pub = Broadcaster(connect, board_id, referee=self.mirror, black=black, white=white,
                               peer=peer)
        self.look_s = look_s
        self.reopen_s = reopen_s
        self.link = None
        self.next_look = 0.0
        self.next_open = 0.0
        self.log = log or (lambda text: None)
        # What the person must hear even without --verbose: the board not
        # there (once, until it is), the link back.
        self.notice = notice or self.log
        self._no_link_said = False
        self.looks = 0
        self.jumps = 0  # looks that could not tell the events apart
        self.link_losses = 0
        self.last_error = ""
        self._rules_game = None

    # -- the board side -----------------------------------------------------

    def _ask(self, command):
        return self.link.send(command)

    def look(self):
        """Read the board; walk the mirror to it (polling the Broadcaster at
        each step).  Raises when the link fails."""
        for _ in range(5):
            st = status_words(self._ask("gogadget-status"))
            if "seq" not in st or "game" not in st:
                raise RuntimeError("the board's firmware does not say its game and seq "
                                   "(gogadget-status); update it")
            m = self.mirror
            game, seq = int(st["game"]), int(st["seq"])
            phase = st.get("phase", "play")
            self.mirror.set_faults(int(st.get("faults", "0")))
            self.mirror.set_clock(st.get("clock", ""))
            if m.known and game == m.log.game and seq == m.log.seq \
                    and int(st.get("moves", "-1")) == m.board.moves \
                    and int(st.get("size", "0")) == m.board.size:
                if phase != m.phase:
                    self._set_phase(phase)
                    self._poll()
                return
            record = read_record(self._ask("gogadget-sgf"))
            self.mirror.set_record_clock(record)
            rules = None
            if not m.known or game != m.log.game or self._rules_game != (game, seq):
                info = status_words(self._ask("gogadget-rules-info").split("\n", 1)[0])
                rules = info.get("preset", m.rules.name)
            again = status_words(self._ask("gogadget-status"))
            if again.get("game") != st["game"] or again.get("seq") != st["seq"]:
                continue  # the board moved while we read it: read it again
            self._rules_game = (game, seq)
            self._apply(game, seq, phase, record, rules)
            return

    def _set_phase(self, phase):
        m = self.mirror
        if phase == "resume":
            m.resume_phase = m.phase if m.phase in ("play", "count", "over") else "play"
        m.phase = phase

    def _poll(self):
        self.pub.poll(ticks_ms())

    def _apply(self, game, seq, phase, rec, rules):
        m = self.mirror
        if rules is not None and rules != m.rules.name:
            m.rules.name = rules
            m.rules.changes += 1
        m.komi = rec["komi"]
        m.handicap = rec["handicap"]
        new = rec["moves"]
        same_game = m.known and game == m.log.game and rec["size"] == m.board.size \
            and list(m.board.setup_stones) == rec["setup"]
        if same_game:
            old = m.moves()
            k = 0
            for a, b in zip(old, new):
                if a != b:
                    break
                k += 1
            ended = 1 if rec["result"] and not m.result else 0
            steps = (len(old) - k) + (len(new) - k) + ended
            if seq - m.log.seq == steps:
                # One event at a time, as the board made them.
                for _ in range(len(old) - k):
                    self.said_takeback(m.board.moves, m.board.move(m.board.moves - 1))
                    m.board.undo()
                    m.result = ""
                    m.phase = "play"
                    m.log.seq += 1
                    self._poll()
                for colour, pt in new[k:]:
                    m.play(colour, pt)
                    self.said_move(m.board.moves, colour, pt)
                    m.log.seq += 1
                    self._poll()
                if rec["result"] and not m.result:
                    self.said_result(rec["result"], game)
                m.result = rec["result"]
                self._set_phase(phase)
                m.log.seq = seq
                self._poll()
                return
            self.jumps += 1
            self.log("%s: the board's seq went from %d to %d: sending its snapshot"
                     % (self.pub.board_id, m.log.seq, seq))
        # A new game, the first look, or more than the look can tell apart:
        # the mirror takes the board's game as it is.
        bd = m.new_board(rec)
        for colour, pt in new:
            if pt == 0:
                bd.pass_move(colour)
            else:
                bd.play(colour, pt)
        bd.handicap = rec["handicap"]
        m.board = bd
        m.log.game = game
        m.log.seq = seq
        m.result = rec["result"]
        self._set_phase(phase)
        m.known = True
        self._poll()

    # -- the story (--verbose) ---------------------------------------------------

    def _move_text(self, n, colour, pt):
        size = self.mirror.board.size
        return "move %d, %s %s" % (n, "black" if colour == BLACK else "white",
                                   "pass" if pt == 0 else vertex(size, pt))

    def said_move(self, n, colour, pt):
        """A move the board made, on its way to the broker."""
        self.log("%s: %s out" % (self.pub.board_id, self._move_text(n, colour, pt)))

    def said_takeback(self, n, move):
        self.log("%s: %s taken back at the board" % (self.pub.board_id,
                                                     self._move_text(n, *move)))

    def said_result(self, result, game):
        """The game over: where the board keeps it and the room archives it."""
        self.log("%s: game over, %s; the board keeps it as %04d.sgf, and the room's relay "
                 "archives it from the broker" % (self.pub.board_id, result, game))

    # -- the loop -------------------------------------------------------------

    def _lost(self, exc):
        self.link_losses += 1
        self.last_error = "%s: %s" % (type(exc).__name__, exc)
        self.log("%s: serial link lost (%s); trying again every %g s"
                 % (self.pub.board_id, self.last_error, self.reopen_s))
        try:
            self.link.close()
        except Exception:  # noqa: BLE001  (it is gone already)
            pass
        self.link = None
        self.mirror.set_note("host: no link to the board")
        self.next_open = time.monotonic() + self.reopen_s

    def step(self):
        """One turn of the loop: the link (open it, look at the board), then
        the Broadcaster.  Returns quickly; call it every few ms."""
        now = time.monotonic()
        if self.link is None and now >= self.next_open:
            try:
                self.link = self.open_link()
                (self.notice if self._no_link_said else self.log)(
                    "%s: link to the board open" % self.pub.board_id)
                self._no_link_said = False
                self.mirror.set_note("")
                self.next_look = now
            except Exception as exc:  # noqa: BLE001  (no port yet: try again later)
                self.last_error = "%s: %s" % (type(exc).__name__, exc)
                self.next_open = now + self.reopen_s
                if not self._no_link_said:
                    self._no_link_said = True
                    self.notice("%s: %s; trying again every %g s"
                                % (self.pub.board_id, exc, self.reopen_s))
        if self.link is not None and now >= self.next_look:
            self.next_look = now + self.look_s
            try:
                self.look()
                self.looks += 1
            except Exception as exc:  # noqa: BLE001  LinkClosed, OSError, TimeoutError, a garbled answer
                self._lost(exc)
        if self.mirror.known:
            self._poll()

    def idle(self):
        """Everything the board said is on the broker."""
        return self.mirror.known and self.pub.connected and not self.pub.pending()

    def run(self, stop=None):
        """Until stop() is true (or SIGINT/SIGTERM); then say offline."""
        try:
            while stop is None or not stop():
                self.step()
                time.sleep(0.01 if not self.pub.pending() else 0.001)
        finally:
            self.close()

    def close(self):
        self.pub.close()
        if self.link is not None:
            try:
                self.link.close()
            except Exception:  # noqa: BLE001
                pass
            self.link = None


# -- the command line ------------------------------------------------------------


def add_arguments(p):
    p.add_argument("--broker", required=True, help="the room's broker, mqtt://HOST:PORT")
    p.add_argument("--board-id", required=True,
                   help="the board's name in the room (1-32 of a-z A-Z 0-9 - _): its topic")
    p.add_argument("--user", default=None, help="MQTT user (default: the board id)")
    p.add_argument("--password", default=None,
                   help="MQTT password; discouraged: every user of this machine sees it in "
                        "`ps`. Prefer --credentials or the environment variable "
                        "GOGADGET_MQTT_PASSWORD")
    p.add_argument("--credentials", default=None,
                   help="the room's credentials.csv (python -m host_sim.room.broker writes it, "
                        "by default as %s): the user's password is taken from it"
                        % os.path.join(default_dir(), "credentials.csv"))
    p.add_argument("--black", default="Black", help="Black's name on the room's page")
    p.add_argument("--white", default="White", help="White's name on the room's page")
    p.add_argument("--interval", type=float, default=LOOK_S,
                   help="seconds between looks at the board (default %s)" % LOOK_S)
    p.add_argument("--verbose", action="store_true",
                   help="say every connection and link loss, and the game as it goes: each "
                        "move out (and, for remote, in), take-backs, the result")


def board_name(args):
    return args.port or ("the simulator" if args.sim else "/dev/ttyACM0")


def cmd_publish(args, open_link, **run):
    """open_link(): a new link to the board (the CLI's Connection); run:
    run_host's runner and out (host_sim/room/atsim.py)."""
    def make_host(connect, log, notice):
        return HostPublisher(open_link, connect, args.board_id, args.black, args.white,
                             look_s=args.interval, log=log, notice=notice)
    return run_host(args, "publish", make_host,
                    "%s -> %s as %s" % (board_name(args), args.broker, args.board_id), **run)
