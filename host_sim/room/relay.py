"""`gogadget relay`: the room's one subscriber, its web page and its archive
(docs/ROOM.md).

    gogadget relay --broker mqtt://HOST:PORT --http 127.0.0.1:8080 --archive DIR \\
        [--user relay --password PW | --credentials credentials.csv]

* MQTT (paho): subscribes to gogadget/board/# with QoS 1 under a fixed
  client id and a persistent session (clean_session False), so what is
  published while the relay or the broker is away is delivered when both
  are back; it reconnects by itself, subscribes again at every connection
  and catches up from the retained snapshots.  (The room's broker ties a
  client id to its user: the session is the relay user's.)  Each board it
  finds gets a connection of its own (lanes.py), so one board's flood
  waits in its own queue at the broker.  Every message goes through a
  board's token bucket and queue (inbox.py), the strict parser
  (messages.py) and the ordering rules (games.py).
* HTTP (stdlib, threaded, read-only: GET only, anything else 405):
    /                  the page (static/)
    /state.js          every board as the page is served (drawn in its first frame)
    /events            Server-Sent Events: `state` (every board) on connect,
                       then `update` (the boards changed) at most every
                       --coalesce seconds
    /games.json        every game: board, game number, players, size, moves,
                       phase, result, online
    /game/ID.sgf       a game's SGF, live or final; ID is <board>-<game>
    /archive/NAME      an archive file as written (/games.json's "files": every
                       file the relay wrote, this run and earlier ones)
    /stats.json        the relay's counters: messages, dropped, boards, SSE clients
  Nothing a browser sends ever reaches MQTT: the relay never publishes.
  Connections and event streams are capped per client address, and a
  request must come whole within the idle limit (guard.py).
* A slow browser cannot grow the relay's memory: each client has a bounded
  queue (bytes); one that falls behind is disconnected, and its EventSource
  reconnects to a fresh full state.
"""
import argparse
import csv
import logging
import os
import sys
import threading
import time

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, TOPIC_ROOT
from host_sim import data_dir
from host_sim.room.broker import default_dir, parse_url
from host_sim.room.games import Room
from host_sim.room.inbox import Inbox
from host_sim.base.stopflag import StopFlag
# The relay against floods and held connections (issue 36): web.py, inbox.py, lanes.py.
from host_sim.room.hub import CLIENT_QUEUE_BYTES, COALESCE_S, Hub
from host_sim.room.inbox import board_of
from host_sim.room.lanes import Lanes
from host_sim.room.web import (EVENTS_PER_ADDRESS, IDLE_S, MAX_CONNECTIONS, MAX_PER_ADDRESS,
                               STATIC, Handler, Server)
from host_sim.base.secretfile import private_file

from host_sim.room.games import heard  # (when a message was heard: its clock's age)

log = logging.getLogger("gogadget.relay")

CLIENT_ID = "gogadget-relay"
# CONNACK refusals that another try cannot mend (paho's MQTT 5 reason codes
# for 3.1.1's 2, 4, 5): the client id, the user or password, the ACL.
REFUSED = (133, 134, 135)
ALL_TOPICS = TOPIC_ROOT + "/#"
# What the main connection takes once lanes carry the boards: each board's
# status and snapshot, one of which every board sends first (and keeps
# retained), so a new board is found and its lane opened.
FIND_TOPICS = [(TOPIC_ROOT + "/+/" + T_STATUS, 1), (TOPIC_ROOT + "/+/" + T_GAME, 1)]
_EVENTS = "/" + T_MOVE  # a board's events: not retained, never sent again


class Relay:
    """The relay in one object (the CLI and the tests run it the same way).

    relay = Relay("mqtt://127.0.0.1:1883", http=("127.0.0.1", 0), archive="archive",
                  user="relay", password="...").start()
    relay.url, relay.room, relay.stop()
    """

    def __init__(self, broker, http=("127.0.0.1", 8080), archive=None, user=None, password=None,
                 client_id=CLIENT_ID, coalesce=COALESCE_S, client_limit=CLIENT_QUEUE_BYTES,
                 static=STATIC, max_connections=MAX_CONNECTIONS, idle_s=IDLE_S,
                 max_per_address=None, events_per_address=None):
        self.broker_host, self.broker_port = parse_url(broker)
        self.http_addr = http
        self.max_connections = max_connections
        # By default a quarter of the cap at most: four addresses (or more)
        # are needed to fill it.
        self.max_per_address = max_per_address or min(MAX_PER_ADDRESS, max(2, max_connections // 4))
        self.events_per_address = events_per_address or min(EVENTS_PER_ADDRESS,
                                                            self.max_per_address)
        self.idle_s = idle_s
        self.user, self.password = user, password
        self.client_id = client_id
        self.room = Room(archive)
        # A dropped snapshot may still have moved a game (its moves taken,
        # its result refused): the page is told either way.
        self.inbox = Inbox(lambda topic, payload: self.room.handle(topic, payload),
                           on_done=lambda: self.hub.changed(), on_idle=self._flush_logs)
        self.hub = Hub(self.room, coalesce, client_limit)
        self.static_files = {n: os.path.join(static, n) for n in os.listdir(static)
                             if os.path.isfile(os.path.join(static, n))}
        self.mqtt = None
        self.lanes = None  # one connection a board (lanes.py)
        self.narrow = False  # the main connection takes only status messages
        self.wide_only = False  # a lane was refused: the main connection takes all
        self.main_lock = threading.Lock()
        self.httpd = None
        self.connected = threading.Event()
        # Set once the broker acknowledged the main connection's subscription
        # (connected is set before): what a board publishes from then on
        # reaches the relay.  (Tests wait for it before a board publishes.)
        self.subscribed = threading.Event()
        self.connects = 0
        self.stopping = False
        self.refused = None  # why the broker refused our login: retrying cannot help

    @property
    def url(self):
        host, port = self.httpd.server_address[:2]
        return "http://%s:%d" % (host, port)

    def stats(self):
        """The relay's counters (/stats.json): for the bench and the curious."""
        room, hub = self.room, self.hub
        with room.lock:
            out = dict(room.counts, boards=len(room.boards),
                       online=sum(1 for b in room.boards.values()
                                  if b.status and b.status["online"]))
        out.update(broker=hub.broker["connected"], broker_connects=self.connects,
                   inbox=self.inbox.pending(), inbox_dropped=self.inbox.dropped,
                   inbox_skipped=self.inbox.skipped, over_rate=self.inbox.over_rate,
                   lanes=self.lanes.count() if self.lanes else 0,
                   main="status, game" if self.narrow else ALL_TOPICS,
                   log_held=room.drop_log.held,
                   messages=(out["messages"] + self.inbox.skipped + self.inbox.dropped
                             + self.inbox.over_rate),
                   sse_clients=len(hub.clients), sse_pushes=hub.pushes, sse_dropped=hub.drops)
        return out

    def _flush_logs(self):
        self.room.drop_log.flush()
        if self.httpd is not None:
            self.httpd.error_log.flush()
            self.httpd.refusal_log.flush()

    # -- MQTT -----------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties=None):
        if reason_code.is_failure:
            if reason_code.value in REFUSED:
                self.refused = str(reason_code)
            log.warning("the broker at %s:%d refused the relay's login as %r: %s",
                        self.broker_host, self.broker_port, self.user, reason_code)
            return
        self.connects += 1
        # Subscribed at every connection, session kept or not: a session the
        # broker kept delivers what was queued for it, but it may not be the
        # session this relay left (another login as the relay's user, or a
        # broker that lost it, leaves one with no subscription).  Subscribing
        # again resends every board's retained status, snapshot and pair, so
        # whatever was missed (a game that ended meanwhile) is caught up from
        # them; the ordering rules drop what was already applied.
        self._subscribe_main(client)
        log.info("connected to %s:%d (session %s)", self.broker_host, self.broker_port,
                 "kept" if flags.session_present else "new")
        self.connected.set()
        self.hub.broker.update(connected=True, since=time.time())
        self.hub.push_relay_status()

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties=None):
        if all(not rc.is_failure for rc in reason_codes):
            self.subscribed.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None):
        self.connected.clear()
        self.subscribed.clear()
        if self.hub.broker["connected"] and not self.stopping:
            log.warning("lost the broker (%s); reconnecting", reason_code)
        self.hub.broker.update(connected=False, since=time.time())
        self.hub.push_relay_status()

    def _subscribe_main(self, client):
        """Every board's topics; only their status and snapshots once lanes
        are up (lanes.py): the main connection then finds new boards and no
        longer reads a copy of every lane's events, a flood's included."""
        if self.narrow:
            client.subscribe(FIND_TOPICS)
            client.unsubscribe(ALL_TOPICS)
        else:
            client.subscribe(ALL_TOPICS, qos=1)

    def _lanes_changed(self, up, refused):
        """From a lane's thread: the first lane up narrows the main
        connection; a lane refused widens it again, for good (that board
        has no lane user: its messages come on the main connection)."""
        with self.main_lock:
            narrow = self.narrow
            if refused:
                self.wide_only = True
            self.narrow = up and not self.wide_only
            if self.narrow != narrow and self.mqtt is not None:
                self._subscribe_main(self.mqtt)

    def _on_connect_fail(self, client, userdata):
        # No broker there (yet): said at every try, so a room set up in the
        # wrong order shows why its page stays empty.
        log.warning("no broker at %s:%d (is mosquitto running?); trying again",
                    self.broker_host, self.broker_port)

    def _on_message(self, client, userdata, msg):
        # A board with its own lane (lanes.py) is read there: this copy of
        # its status or snapshot is dropped unread (the lane's subscription
        # brought the newest of each, and brings every later one).  An event
        # is read all the same: the broker may have sent it here before the
        # lane subscribed, and then the lane never gets it; a copy both
        # bring is a duplicate the ordering rules drop.  Else filed under
        # its board and taken in turn (inbox.py).
        lanes = self.lanes
        if lanes is not None:
            board = board_of(msg.topic)
            if lanes.live(board):
                if not msg.topic.endswith(_EVENTS):
                    return
            else:
                lanes.wanted(board)
        self._file(msg.topic, msg.payload, msg.retain)

    def _file(self, topic, payload, retained):
        # Filed under its board and taken in turn (inbox.py): one board's
        # flood never holds up another's moves.  When it was heard goes with
        # it (games.heard): a retained snapshot's clock is of unknown age,
        # whether it came on the main connection or on the board's lane.
        self.inbox.put(topic, heard(payload, retained))

    def _start_mqtt(self):
        import paho.mqtt.client as mqtt
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                        clean_session=False, protocol=mqtt.MQTTv311)
        if self.user:
            c.username_pw_set(self.user, self.password)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_subscribe = self._on_subscribe
        c.on_connect_fail = self._on_connect_fail
        c.on_message = self._on_message
        c.reconnect_delay_set(min_delay=0.25, max_delay=4)
        c.max_inflight_messages_set(100)
        c.connect_async(self.broker_host, self.broker_port, keepalive=15)
        c.loop_start()  # its thread reconnects by itself, first connection included
        self.mqtt = c
        self.lanes = Lanes(self.broker_host, self.broker_port, self.user, self.password,
                           put=self._file, on_change=self._lanes_changed)

    # -- life -------------------------------------------------------------------

    def start(self):
        handler = type("RelayHandler", (Handler,), {"relay": self, "timeout": self.idle_s,
                                                    "request_s": self.idle_s})
        try:
            self.httpd = Server(self.http_addr, handler, per_address=self.max_per_address,
                                events_per_address=self.events_per_address)
        except OSError as e:
            raise OSError(e.errno, "cannot serve the page on %s:%d: %s (another relay? --http "
                          "HOST:PORT picks another address)" % (self.http_addr[0], self.http_addr[1],
                                                                e.strerror or e))
        self.httpd.max_connections = self.max_connections
        threading.Thread(target=self.httpd.serve_forever, name="relay-http", daemon=True).start()
        self.hub.start()
        self.inbox.start()
        self._start_mqtt()
        return self

    def stop(self):
        self.stopping = True
        if self.mqtt is not None:
            self.mqtt.disconnect()
            self.mqtt.loop_stop()
            self.mqtt = None
        if self.lanes is not None:
            self.lanes.stop()
        self.inbox.stop()
        self.hub.stop()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# -- the command line ------------------------------------------------------------


def parse_http(text):
    """'HOST:PORT' (or ':PORT', 'PORT') -> (host, port)."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise ValueError("expected --http HOST:PORT, got %r" % text)
    return host or "127.0.0.1", int(port)


def read_credentials(path, user):
    """The password of `user` in a credentials.csv (host_sim/room/broker.py);
    a file other users may read is refused, as `gogadget online` refuses its
    own (one check: host_sim.base.secretfile)."""
    private_file(path)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("user") == user:
                return row.get("password") or ""
    raise ValueError("no user %r in %s" % (user, path))


def blank_hint(password):
    """What to add to a refused login's message when the password carries
    white space at an end (a CRLF file cut with `cut`, a pasted space)."""
    if password and password != password.strip():
        end = "ends" if password[-1:].isspace() else "starts"
        return ("; the password %s with white space (%r): a line cut from a file with CRLF "
                "endings, or a pasted space?" % (end, password[-1:] if end == "ends"
                                                   else password[:1]))
    return ""


def add_arguments(p):
    p.add_argument("--broker", required=True, help="the room's broker, mqtt://HOST:PORT")
    p.add_argument("--http", default="127.0.0.1:8080",
                   help="address of the web page (default 127.0.0.1:8080; 0.0.0.0:8080 for the room)")
    p.add_argument("--archive", default=None,
                   help="folder for the finished games' SGF (default %s)" % data_dir("archive"))
    p.add_argument("--user", default="relay", help="MQTT user (default relay)")
    p.add_argument("--password", default=None,
                   help="MQTT password; discouraged: every user of this machine sees it in "
                        "`ps`. Prefer --credentials or the environment variable "
                        "GOGADGET_RELAY_PASSWORD")
    p.add_argument("--credentials", default=None,
                   help="the room's credentials.csv (python -m host_sim.room.broker writes it, "
                        "by default as %s): the user's password is taken from it"
                        % os.path.join(default_dir(), "credentials.csv"))
    p.add_argument("--client-id", default=CLIENT_ID,
                   help="MQTT client id (default %s); the room's generated broker replaces "
                        "it by the user name, so the relay's session is its user's" % CLIENT_ID)
    p.add_argument("--coalesce", type=float, default=COALESCE_S,
                   help="seconds the page's updates are batched (default %s)" % COALESCE_S)
    p.add_argument("--max-connections", type=int, default=MAX_CONNECTIONS,
                   help="browsers connected at once; more are closed with a log line "
                        "(default %d)" % MAX_CONNECTIONS)
    p.add_argument("--max-per-address", type=int, default=MAX_PER_ADDRESS,
                   help="connections from one client address at once (default %d; of them at "
                        "most %d event streams): one visitor cannot hold the page; raise it "
                        "behind a proxy, where every visitor has its address"
                        % (MAX_PER_ADDRESS, EVENTS_PER_ADDRESS))
    p.add_argument("--verbose", action="store_true", help="log every connection and game")


def cmd_relay(args):
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s relay: %(message)s", stream=sys.stderr)
    with StopFlag() as stop:
        try:
            http = parse_http(args.http)
            password = args.password or os.environ.get("GOGADGET_RELAY_PASSWORD")
            if args.credentials:
                password = read_credentials(args.credentials, args.user)
            archive = args.archive or data_dir("archive")
            relay = Relay(args.broker, http, archive, args.user, password,
                          client_id=args.client_id, coalesce=args.coalesce,
                          max_connections=args.max_connections,
                          max_per_address=args.max_per_address).start()
        except (ValueError, OSError) as e:
            print("gogadget relay: %s" % (e.strerror if isinstance(e, OSError) and e.strerror
                                          else e), file=sys.stderr)
            return 2
        try:
            print("gogadget relay: %s -> %s (archive %s)" % (args.broker, relay.url,
                                                             os.path.abspath(archive)), flush=True)
            while not stop.is_set() and relay.refused is None:
                stop.wait(0.2)
        finally:
            relay.stop()
    if relay.refused is not None:
        print("gogadget relay: the broker refused the login as %r (%s): check --user and "
              "--credentials (the room's credentials.csv) or GOGADGET_RELAY_PASSWORD%s"
              % (args.user, relay.refused, blank_hint(password)), file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_sim.room.relay", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    return cmd_relay(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
