"""The relay's read-only HTTP side: the page, /events, /games.json, SGF and archive files."""
import json
import logging
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from host_sim.room.guard import PerAddress, deadline_reader, gone
from host_sim.room.logs import Limited

log = logging.getLogger("gogadget.relay")

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
KEEPALIVE_S = 15.0
IDLE_S = 30.0  # a connection that sends nothing this long is closed
MAX_CONNECTIONS = 400  # browsers at once (each holds a socket and a thread)
# One client address holds at most this many connections, and this many event
# streams of them (a browser opens up to 6 connections a site, and one event
# stream a tab): whoever holds its own cap leaves the page to everyone else.
MAX_PER_ADDRESS = 32
EVENTS_PER_ADDRESS = 8
_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml",
          ".png": "image/png", ".ico": "image/x-icon"}


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
