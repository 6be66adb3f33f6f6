"""The relay's HTTP side against a hostile browser (issue 28): a request
hidden in a body is never served, an idle socket is closed, a request
broken off logs one line, and connections are capped with a log line.
No broker is needed: the relay serves its page while it looks for one."""
import logging
import select
import socket
import struct
import time

import pytest

from host_sim.room.broker import free_port
from host_sim.room.relay import Relay


@pytest.fixture
def relay(tmp_path):
    r = Relay("mqtt://127.0.0.1:%d" % free_port(), ("127.0.0.1", 0), str(tmp_path / "a"),
              max_connections=6, idle_s=0.5).start()
    yield r
    r.stop()


def addr(relay):
    return relay.httpd.server_address[:2]


def read_all(s, timeout=5):
    s.settimeout(timeout)
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            return out, False
        if not chunk:
            return out, True
        out += chunk


def test_a_request_hidden_in_a_body_is_never_served(relay):
    hidden = b"GET /stats.json HTTP/1.1\r\nHost: x\r\n\r\n"
    for method in (b"POST", b"GET"):
        s = socket.create_connection(addr(relay))
        s.sendall(method + b" /games.json HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                  % len(hidden) + hidden)
        data, closed = read_all(s)
        s.close()
        assert data.count(b"HTTP/1.1 ") == 1 and b'"messages"' not in data, (method, data)
        assert closed and b"Connection: close" in data, method
    s = socket.create_connection(addr(relay))
    s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"%x\r\n" % len(hidden) + hidden + b"\r\n0\r\n\r\n")
    data, closed = read_all(s)
    s.close()
    assert data.count(b"HTTP/1.1 ") == 1 and closed


def test_an_idle_socket_is_closed(relay):
    s = socket.create_connection(addr(relay))
    start = time.monotonic()
    data, closed = read_all(s, timeout=10)
    assert closed and data == b"" and time.monotonic() - start < 5
    s.close()
    # Keep-alive: after an answer, idle again, closed again.
    s = socket.create_connection(addr(relay))
    s.sendall(b"GET /stats.json HTTP/1.1\r\nHost: x\r\n\r\n")
    data, closed = read_all(s, timeout=10)
    assert closed and data.startswith(b"HTTP/1.1 200")
    s.close()


def test_a_broken_off_request_logs_one_line(relay, caplog):
    caplog.set_level(logging.DEBUG, logger="gogadget.relay")
    s = socket.create_connection(addr(relay))
    s.sendall(b"GET /games.json HTT")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()  # a reset mid-request
    end = time.monotonic() + 5
    while time.monotonic() < end and not [r for r in caplog.records if "broken off" in r.message]:
        time.sleep(0.05)
    lines = [r for r in caplog.records if "broken off" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in caplog.records]
    assert "\n" not in lines[0].getMessage()


def test_connections_are_capped_with_a_log_line(relay, caplog):
    caplog.set_level(logging.WARNING, logger="gogadget.relay")
    relay.idle_s = 30
    relay.httpd.RequestHandlerClass.timeout = 30
    # Six visitors (the cap per address would stop one address before).
    idle = [_visitor(relay, n) for n in range(2, 8)]
    time.sleep(0.3)
    extra = _visitor(relay, 8)
    data, closed = read_all(extra, timeout=5)
    assert closed and data == b""
    assert any("the cap" in r.getMessage() for r in caplog.records)
    for s in idle:
        s.close()
    time.sleep(0.3)
    s = socket.create_connection(addr(relay))
    s.sendall(b"GET /stats.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data, _ = read_all(s)
    assert data.startswith(b"HTTP/1.1 200")
    s.close()
    extra.close()


def _visitor(relay, n):
    """A socket from 127.0.0.n: another visitor's address, on loopback."""
    return socket.create_connection(addr(relay), timeout=5, source_address=("127.0.0.%d" % n, 0))


def _open_events(s):
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")


def _get(s, path):
    s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    return read_all(s)[0]


def test_one_address_holding_its_cap_leaves_the_page_to_others(tmp_path):
    """Issue 36, finding 7: one client opens event streams it never reads
    until the page refuses more: another address still gets the page, its
    games and an event stream."""
    r = Relay("mqtt://127.0.0.1:%d" % free_port(), ("127.0.0.1", 0), str(tmp_path / "a"),
              max_connections=20).start()
    held = []
    try:
        for _ in range(20):
            s = _visitor(r, 1)
            _open_events(s)
            held.append(s)
        time.sleep(0.5)
        data = _get(_visitor(r, 2), "/games.json")
        assert data.startswith(b"HTTP/1.1 200") and b'"games"' in data, data[:200]
        s = _visitor(r, 3)
        _open_events(s)
        s.settimeout(5)
        got = b""
        while b"event: state" not in got:
            chunk = s.recv(65536)
            assert chunk, got
            got += chunk
        assert got.startswith(b"HTTP/1.1 200")
        s.close()
    finally:
        for s in held:
            s.close()
        r.stop()


def test_a_request_sent_a_byte_at_a_time_is_cut_at_the_deadline(relay):
    """Slowloris: each byte comes well within the idle limit (0.5 s here),
    the whole request never does: the connection is closed at the request's
    deadline, not held while the bytes keep coming."""
    s = socket.create_connection(addr(relay))
    request = b"GET /games.json HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
    start = time.monotonic()
    closed_at = None
    for byte in request:
        try:
            s.sendall(bytes([byte]))
        except OSError:
            closed_at = time.monotonic()
            break
        readable = select.select([s], [], [], 0.2)[0]
        if readable:
            try:
                if s.recv(65536) == b"":
                    closed_at = time.monotonic()
                    break
            except OSError:
                closed_at = time.monotonic()
                break
        if time.monotonic() - start > 6:
            break
    s.close()
    assert closed_at is not None and closed_at - start < 3, "held %.1f s" % (
        (closed_at or time.monotonic()) - start)


def test_event_streams_closed_free_their_slots_at_once(relay):
    """Browsers that leave (a tab closed) free their connections within a
    second or two, not at the next keep-alive 15 s later: the page takes
    new visitors at once."""
    for _ in range(2):
        streams = []
        for n in range(2, 8):
            s = _visitor(relay, n)
            _open_events(s)
            s.settimeout(5)
            assert s.recv(65536).startswith(b"HTTP/1.1 200")
            streams.append(s)
        for s in streams:
            s.close()
        time.sleep(2.5)


def test_requests_broken_off_in_a_loop_log_a_line_with_a_count(relay, caplog):
    """Issue 36, finding 6: every broken-off request was a WARNING line
    (1,347 in 10 s from one client with no password): now one line an
    address every 10 s, the rest counted."""
    caplog.set_level(logging.DEBUG, logger="gogadget.relay")
    # 30: under the cap of connections an address may hold (32), which a
    # slow server would otherwise refuse (and count apart) past it.
    for _ in range(30):
        s = socket.create_connection(addr(relay))
        s.sendall(b"GET /games.json HTT")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    # Each request is broken off in the server's thread for it, in its own
    # time: under load (seen in a whole run) 14 of 50 after a second.
    deadline = time.monotonic() + 15
    while relay.httpd.error_log.held < 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    lines = [r.getMessage() for r in caplog.records if "broken off" in r.getMessage()]
    assert len(lines) == 1, lines
    # Counted, said with the next line.  (Not all 29: a reset that reaches
    # the server before the request's bytes is a connection closed unread,
    # which is not a request broken off; 24 of 30 seen.)
    assert relay.httpd.error_log.held >= 10
