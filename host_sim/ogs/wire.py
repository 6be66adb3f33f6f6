"""The account's way in to OGS: REST login, then one websocket of JSON
arrays.  Every message is kept in a Trace (tests compile each one against
the goban package's types, tests/ogs/)."""
import http.cookiejar
import json
import os
import re
import stat
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import connect

from host_sim.base.secretfile import private_file

CLIENT = "gogadget"
CLIENT_VERSION = "0.1.0"


class OgsError(Exception):
    """The server refused (bad login, no such game) or cannot be reached."""


# What a trace file never holds: the account's tokens (the authenticate
# message's JWT, chat and notification auth) and any JWT-shaped string.
_SECRET_KEY = re.compile(r"jwt|auth|token|password|secret", re.I)
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*")
REDACTED = "<redacted>"


def redact(value, key=""):
    """A copy of a message with every secret replaced by REDACTED."""
    if isinstance(value, dict):
        return {k: redact(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, key) for v in value]
    if isinstance(value, str):
        if key and _SECRET_KEY.search(key) and value:
            return REDACTED
        return _JWT.sub(REDACTED, value)
    return value


class Trace:
    """Every message both ways, as (direction, message): "out" what we send,
    "in" what arrives; a JSON-lines file too when given a path, written
    0600 with the tokens redacted (it is made to be shared in a report)."""

    def __init__(self, path=None):
        self.items = []
        self.path = path
        self.lock = threading.Lock()

    def add(self, direction, message):
        message = json.loads(json.dumps(message))  # as it went: later changes are not its
        with self.lock:
            self.items.append((direction, message))
            if self.path:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                             | getattr(os, "O_NOFOLLOW", 0), 0o600)
                with os.fdopen(fd, "a") as f:
                    if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
                        os.fchmod(fd, 0o600)  # an older trace of ours, made 0644
                    f.write(json.dumps([direction, redact(message)]) + "\n")


def credentials(env=None, path=None):
    """(username, password) from OGS_USERNAME / OGS_PASSWORD, or from a file
    of two lines (OGS_CREDENTIALS or --credentials): never the command line,
    where other users and the shell history would see the password."""
    env = os.environ if env is None else env
    path = path or env.get("OGS_CREDENTIALS")
    if path:
        try:
            private_file(path)  # as ssh does with a key: a password others may read is refused
        except ValueError as e:
            raise OgsError(str(e))
        with open(path) as f:
            lines = [line.strip() for line in f.read().splitlines() if line.strip()]
        if len(lines) < 2:
            raise OgsError("%s: expected the username on one line and the password on the next"
                           % path)
        return lines[0], lines[1]
    user, password = env.get("OGS_USERNAME"), env.get("OGS_PASSWORD")
    if not user or not password:
        raise OgsError("no OGS account: set OGS_USERNAME and OGS_PASSWORD, or give a "
                       "credentials file (--credentials or OGS_CREDENTIALS)")
    return user, password


def ws_url_for(server):
    """https://host -> wss://host/ (the websocket lives on the site's host)."""
    parts = urllib.parse.urlsplit(server)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urllib.parse.urlunsplit((scheme, parts.netloc, "/", "", ""))


class Account:
    """A logged-in person: REST for the login and the game list."""

    def __init__(self, server, username, password, timeout=20):
        self.server = server.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self._request("POST", "/api/v0/login", {"username": username, "password": password})
        config = self._request("GET", "/api/v1/ui/config")
        self.jwt = config.get("user_jwt") or ""
        user = config.get("user") or {}
        self.user_id = user.get("id")
        self.username = user.get("username", username)
        if not self.jwt or not self.user_id:
            raise OgsError("logged in, but the server gave no user_jwt (is the account a guest?)")

    def _request(self, method, path, body=None):
        data = None
        headers = {"Accept": "application/json", "User-Agent": "%s/%s" % (CLIENT, CLIENT_VERSION)}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        # Django's CSRF check wants the token back as a header.
        for c in self.jar:
            if c.name == "csrftoken":
                headers["X-CSRFToken"] = c.value
                headers["Referer"] = self.server + "/"
        req = urllib.request.Request(self.server + path, data=data, headers=headers, method=method)
        try:
            with self.opener.open(req, timeout=self.timeout) as r:
                text = r.read().decode()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:200]
            if path == "/api/v0/login" and exc.code in (401, 403):
                raise OgsError("login refused by %s: check the username and password" % self.server)
            raise OgsError("%s %s: HTTP %d %s" % (method, path, exc.code, detail))
        except (urllib.error.URLError, OSError) as exc:
            raise OgsError("cannot reach %s: %s" % (self.server, getattr(exc, "reason", exc)))
        try:
            return json.loads(text) if text.strip() else {}
        except ValueError:
            raise OgsError("%s %s: not JSON" % (method, path))

    def games(self):
        """The person's live and correspondence games: [(id, summary dict)]."""
        overview = self._request("GET", "/api/v1/ui/overview")
        out = []
        for g in overview.get("active_games") or []:
            out.append(g)
        return out


class Socket:
    """The websocket: [command, data, id] out, [event, data] or [id, data,
    error] in.  reconnect() opens a fresh one and authenticates again."""

    def __init__(self, url, jwt, trace=None, open_timeout=10):
        self.url = url
        self.jwt = jwt
        self.trace = trace or Trace()
        self.open_timeout = open_timeout
        self.ws = None
        self.next_id = 1
        self.replies = {}
        self.drift = 0
        self.latency = 0
        self.lock = threading.Lock()

    def open(self):
        try:
            # legacy=True: a plain connection we close ourselves (Seat
            # reconnects in its own way, with the game's resync).
            self.ws = connect(self.url, open_timeout=self.open_timeout, max_size=2 ** 22,
                              legacy=True,
                              user_agent_header="%s/%s" % (CLIENT, CLIENT_VERSION))
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            self.ws = None
            raise OgsError("cannot open %s: %s" % (self.url, exc))
        # authenticate also connects chat (the player shows online; without
        # it OGS auto-scores the stone removal phase).
        self.send("authenticate", {"jwt": self.jwt, "client": CLIENT,
                                   "client_version": CLIENT_VERSION}, want_reply=True)

    def close(self):
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:  # noqa: BLE001 - closing a broken socket
                pass
            self.ws = None

    def send(self, command, data, want_reply=False):
        msg = [command, data]
        if want_reply:
            with self.lock:
                msg.append(self.next_id)
                self.next_id += 1
        self.trace.add("out", msg)
        if self.ws is None:
            raise ConnectionClosed(None, None)
        self.ws.send(json.dumps(msg))
        return msg[2] if want_reply else None

    def ping(self):
        self.send("net/ping", {"client": int(time.time() * 1000), "drift": self.drift,
                               "latency": self.latency})

    def recv(self, timeout):
        """One message as a list, or None after timeout; ConnectionClosed
        when the socket has gone."""
        if self.ws is None:
            raise ConnectionClosed(None, None)
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        msg = json.loads(text)
        self.trace.add("in", msg)
        if msg and msg[0] == "net/pong":
            data = msg[1]
            now = time.time() * 1000
            self.latency = int(now - data["client"])
            self.drift = int(now - self.latency / 2 - data["server"])
        return msg
