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
import json
import logging
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from gogadget.broadcast import T_GAME, T_MOVE, T_STATUS, TOPIC_ROOT
from host_sim import data_dir
from host_sim.room.broker import default_dir, parse_url
from host_sim.room.games import Room
from host_sim.room.inbox import Inbox
from host_sim.stopflag import StopFlag
# The relay against floods and held connections (issue 36).
from host_sim.room.guard import PerAddress, deadline_reader, gone
from host_sim.room.inbox import board_of
from host_sim.room.lanes import Lanes
from host_sim.room.logs import Limited
from host_sim.secretfile import private_file

from host_sim.room.games import heard  # (when a message was heard: its clock's age)

log = logging.getLogger("gogadget.relay")

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
CLIENT_ID = "gogadget-relay"
COALESCE_S = 0.05  # SSE pushes are batched this long: one write per client per batch
CLIENT_QUEUE_BYTES = 4 << 20  # a browser further behind than this is dropped
KEEPALIVE_S = 15.0
IDLE_S = 30.0  # a connection that sends nothing this long is closed
MAX_CONNECTIONS = 400  # browsers at once (each holds a socket and a thread)
# One client address holds at most this many connections, and this many event
# streams of them (a browser opens up to 6 connections a site, and one event
# stream a tab): whoever holds its own cap leaves the page to everyone else.
MAX_PER_ADDRESS = 32
EVENTS_PER_ADDRESS = 8
# CONNACK refusals that another try cannot mend (paho's MQTT 5 reason codes
# for 3.1.1's 2, 4, 5): the client id, the user or password, the ACL.
REFUSED = (133, 134, 135)
ALL_TOPICS = TOPIC_ROOT + "/#"
# What the main connection takes once lanes carry the boards: each board's
# status and snapshot, one of which every board sends first (and keeps
# retained), so a new board is found and its lane opened.
FIND_TOPICS = [(TOPIC_ROOT + "/+/" + T_STATUS, 1), (TOPIC_ROOT + "/+/" + T_GAME, 1)]
_EVENTS = "/" + T_MOVE  # a board's events: not retained, never sent again
_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml",
          ".png": "image/png", ".ico": "image/x-icon"}


class Client:
    """One browser on /events: a queue of byte chunks, bounded in bytes."""

    def __init__(self, limit):
        self.limit = limit
        self.chunks = []
        self.size = 0
        self.dropped = False
        self.cond = threading.Condition()
        self.sock = None

    def offer(self, data, first=False):
        """Queue data; False (and the client dropped) past the limit.  The
        first chunk, the full state, always fits: a room larger than the
        limit must not shut every browser out."""
        with self.cond:
            if self.dropped:
                return False
            if self.size + len(data) > self.limit and not first:
                self.dropped = True
                self.chunks, self.size = [], 0
                self.cond.notify()
                return False
            self.chunks.append(data)
            self.size += len(data)
            self.cond.notify()
            return True

    def drop(self):
        with self.cond:
            self.dropped = True
            self.chunks, self.size = [], 0
            self.cond.notify()

    def take(self, timeout):
        """Everything queued as one bytes (b"" after a timeout); None once dropped."""
        with self.cond:
            if not self.chunks and not self.dropped:
                self.cond.wait(timeout)
            if self.dropped:
                return None
            data, self.chunks, self.size = b"".join(self.chunks), [], 0
            return data


class Hub:
    """The SSE side: coalesces the room's changes into one push per batch."""

    def __init__(self, room, coalesce=COALESCE_S, client_limit=CLIENT_QUEUE_BYTES):
        self.room = room
        self.coalesce = coalesce
        self.client_limit = client_limit
        self.clients = set()
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.running = False
        self.thread = None
        self.broker = {"connected": False, "since": time.time()}
        self.pushes = 0
        self.drops = 0

    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, name="relay-sse", daemon=True)
        self.thread.start()

    def stop(self):
        self.running = False
        self.wake.set()
        with self.lock:
            for c in list(self.clients):
                self._drop(c)
        if self.thread:
            self.thread.join(5)

    def changed(self):
        self.wake.set()

    def _relay_json(self):
        return json.dumps({"broker": self.broker["connected"]}, separators=(",", ":"))

    def _state_json(self):
        """Every board's state (under the lock the batches take)."""
        return '{"relay":%s,"boards":[%s]}' % (self._relay_json(), ",".join(self.room.full_state()))

    def state_now(self):
        """The state a page draws before its event stream opens (/state.js)."""
        with self.lock:
            return self._state_json()

    def add(self):
        """A new browser: its full state goes first, under the lock the
        batches take, so it misses nothing and sees nothing twice out of order."""
        c = Client(self.client_limit)
        with self.lock:
            text = self._state_json()
            c.offer(b"retry: 2000\nevent: state\ndata: " + text.encode() + b"\n\n", first=True)
            self.clients.add(c)
        return c

    def remove(self, c):
        with self.lock:
            self.clients.discard(c)

    def _drop(self, c):
        self.clients.discard(c)
        c.drop()  # wakes its thread, which ends the response
        if c.sock is not None:
            try:
                c.sock.shutdown(socket.SHUT_RDWR)  # unblocks a write stuck on a full socket
            except OSError:
                pass

    def push_relay_status(self):
        with self.lock:
            self._send(b"event: relay\ndata: " + self._relay_json().encode() + b"\n\n")

    def _send(self, data):
        for c in list(self.clients):
            if not c.offer(data):
                self.drops += 1
                log.info("SSE client fell %d bytes behind: dropped (it reconnects)", c.limit)
                self._drop(c)

    def _run(self):
        while self.running:
            self.wake.wait()
            if not self.running:
                break
            time.sleep(self.coalesce)
            self.wake.clear()
            with self.lock:
                boards = self.room.take_dirty()
                if boards:
                    self.pushes += 1
                    self._send(b"event: update\ndata: {\"boards\":[" +
                               ",".join(boards).encode() + b"]}\n\n")


class Handler(BaseHTTPRequestHandler):
    server_version = "GoGadgetRelay/1"
    protocol_version = "HTTP/1.1"
    relay = None  # set on the subclass the Relay makes

    timeout = IDLE_S  # socketserver: every read waits at most this long (idle keep-alive)
    # The whole request, from the wait for it to the end of its headers, in
    # this long: a client sending a byte now and then is cut here.
    request_s = IDLE_S
    deadline = 0.0

    def setup(self):
        super().setup()
        self.rfile = deadline_reader(self.connection, self)

    def handle_one_request(self):
        self.deadline = time.monotonic() + self.request_s
        super().handle_one_request()

    def log_message(self, fmt, *args):
        log.debug("http %s " + fmt, self.client_address[0], *args)

    def parse_request(self):
        """The request line and headers; a request that carries a body (no
        GET needs one) is answered and its connection closed, so no request
        hidden in a body is ever read as the next one."""
        # The request is in: the answer's writes wait the plain timeout.
        self.connection.settimeout(self.timeout)
        if not super().parse_request():
            return False
        if self.headers.get("Content-Length", "0").strip() not in ("", "0") \
                or "Transfer-Encoding" in self.headers:
            self.close_connection = True
        return True

    def end_headers(self):
        if self.close_connection:
            self.send_header("Connection", "close")
        super().end_headers()

    def __getattr__(self, name):
        # Every method but GET: 405 (BaseHTTPRequestHandler would say 501).
        if name.startswith("do_"):
            return self._not_allowed
        raise AttributeError(name)

    def _not_allowed(self):
        self.send_response(405)
        self.send_header("Allow", "GET")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _headers(self, code, ctype, length=None, extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data:; style-src 'self'")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()

    def _send(self, code, ctype, body, extra=()):
        self._headers(code, ctype, len(body), extra)
        self.wfile.write(body)

    def _error(self, code, text):
        self._send(code, "text/plain; charset=utf-8", (text + "\n").encode())

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        room = self.relay.room
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):])
        if path == "/events":
            return self._events()
        if path == "/state.js":
            # The room as it is, loaded before room.js: the page draws it in its
            # first frame, before the load event, so a headless snapshot (a
            # streaming overlay's) shows the boards; /events brings the rest.
            body = ("window.ROOM_STATE = %s;\n" % self.relay.hub.state_now()).encode()
            return self._send(200, "text/javascript; charset=utf-8", body)
        if path == "/games.json":
            body = json.dumps({"games": room.games(), "files": room.archive_files()},
                              separators=(",", ":")).encode()
            return self._send(200, "application/json", body)
        if path == "/stats.json":
            body = json.dumps(self.relay.stats(), separators=(",", ":")).encode()
            return self._send(200, "application/json", body)
        if path.startswith("/game/") and path.endswith(".sgf"):
            name = path[len("/game/"):-len(".sgf")]
            text = room.sgf(name)
            if text is None:
                return self._error(404, "no game " + name[:80])
            return self._send(200, "application/x-go-sgf; charset=utf-8", text.encode(),
                              [("Content-Disposition", 'inline; filename="%s.sgf"' % name)])
        if path.startswith("/archive/"):
            # Every file the archive holds (/games.json's "files"), as written.
            name = path[len("/archive/"):]
            text = room.archive_file(name)
            if text is None:
                return self._error(404, "no file " + name[:80])
            return self._send(200, "application/x-go-sgf; charset=utf-8", text.encode(),
                              [("Content-Disposition", 'inline; filename="%s"' % name)])
        return self._error(404, "not found")

    def _static(self, name):
        files = self.relay.static_files
        if name not in files:
            return self._error(404, "not found")
        with open(files[name], "rb") as f:
            body = f.read()
        self._send(200, _TYPES.get(os.path.splitext(name)[1], "application/octet-stream"), body)

    def _events(self):
        hub = self.relay.hub
        addr = self.client_address[0]
        self.close_connection = True
        if not self.server.events.take(addr):
            self.server.refusal_log.warning(
                "http %s events" % addr, "http %s: %d event streams open from that address, "
                "its cap: more are refused", addr, self.server.events.limit)
            return self._error(429, "too many event streams from this address")
        try:
            self._headers(200, "text/event-stream", extra=[("Connection", "close"),
                                                          ("X-Accel-Buffering", "no")])
            c = hub.add()
            c.sock = self.connection
            try:
                self.connection.settimeout(30)  # a browser that stops reading is dropped
                quiet = 0.0
                while hub.running:
                    data = c.take(1.0)
                    if data is None:
                        break
                    if not data:
                        # A browser gone is let go within a second, not at the
                        # next keep-alive: its slot is free for the next visitor.
                        if gone(self.connection):
                            break
                        quiet += 1.0
                        if quiet < KEEPALIVE_S:
                            continue
                        data = b": ping\n\n"
                    quiet = 0.0
                    self.wfile.write(data)
                    self.wfile.flush()
            except OSError:
                pass
            finally:
                hub.remove(c)
        finally:
            self.server.events.give(addr)


class Server(ThreadingHTTPServer):
    """The threaded server, with a cap on connections (each holds a thread
    and a descriptor: unbounded, idle sockets exhaust the process's files
    and accept() spins) and one log line for a request that breaks off."""
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    max_connections = MAX_CONNECTIONS

    def __init__(self, *args, per_address=MAX_PER_ADDRESS, events_per_address=EVENTS_PER_ADDRESS,
                 **kw):
        self.open = 0
        self.refused = 0
        self.count_lock = threading.Lock()
        self.per_address = PerAddress(per_address)
        self.events = PerAddress(events_per_address)
        self.refusal_log = Limited(log)
        # A request broken off: one line an address every 10 s at most, with
        # the count of the others (a client that breaks off requests in a
        # loop cannot flood the log).
        self.error_log = Limited(log)
        super().__init__(*args, **kw)

    def process_request(self, request, client_address):
        with self.count_lock:
            full = self.open >= self.max_connections
            if not full:
                self.open += 1
            else:
                self.refused += 1
                first = self.refused == 1 or self.refused % 1000 == 0
        if full:
            if first:
                log.warning("http: %d connections open, the cap (--max-connections): new ones are "
                            "closed at once (%d so far)", self.max_connections, self.refused)
            self.shutdown_request(request)
            return
        addr = client_address[0]
        if not self.per_address.take(addr):
            self._closed()
            self.refusal_log.warning("http %s" % addr, "http %s: %d connections open from that "
                                     "address, its cap (--max-per-address): more are closed at "
                                     "once", addr, self.per_address.limit)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._closed(addr)
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._closed(client_address[0])

    def _closed(self, addr=None):
        if addr is not None:
            self.per_address.give(addr)
        with self.count_lock:
            self.open -= 1
            if self.open < self.max_connections * 3 // 4:
                self.refused = 0

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        self.error_log.warning("http %s" % client_address[0], "http %s: request broken off "
                               "(%s: %s)", client_address[0], type(exc).__name__, exc)


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
    own (one check: host_sim.secretfile)."""
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
