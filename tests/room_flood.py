"""One board's flood against a quiet board's moves, on a real Mosquitto with
the generated room config and the relay in its own process (as a room runs
it): tests/test_room_flood.py asserts the bound, `.venv/bin/python tests/room_flood.py`
prints the figures (docs/ROOM.md, "Security").

The flooder speaks raw MQTT 3.1.1 over one socket with its board's own
password: every PUBLISH is built beforehand and written as fast as the
socket takes it, harder than any client library (nothing waits for an
acknowledgement at QoS 0).  It stops by itself after `count` messages.
"""
import http.client
import json
import os
import socket
import struct
import subprocess
import sys
import random
import threading
import time

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from room_boards import Publisher, SpecGame, wait_for

QUIET, LOUD = "table-2", "table-1"


def _remaining(n):
    out = bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(b):
    return struct.pack("!H", len(b)) + b


def publish_packet(topic_name, payload, qos=0, retain=False):
    body = _string(topic_name.encode()) + (struct.pack("!H", 1) if qos else b"") + payload
    return bytes([0x30 | (qos << 1) | int(retain)]) + _remaining(len(body)) + body


def raw_login(host, port, user, password):
    """A socket logged in as `user` (MQTT 3.1.1, clean session)."""
    s = socket.create_connection((host, port), timeout=10)
    var = _string(b"MQTT") + bytes([4, 0xC2]) + struct.pack("!H", 60)
    body = var + _string(user.encode()) + _string(user.encode()) + _string(password.encode())
    s.sendall(bytes([0x10]) + _remaining(len(body)) + body)
    ack = s.recv(4)
    if len(ack) < 4 or ack[0] != 0x20 or ack[3] != 0:
        raise RuntimeError("the broker refused %s: %r" % (user, ack))
    return s


class Flooder(threading.Thread):
    """`count` QoS 0 messages on one of the board's own topics, as fast as
    the socket goes, then a DISCONNECT."""

    def __init__(self, broker, board, count, payload=b'{"v":1}', leaf=T_MOVE, qos=0):
        threading.Thread.__init__(self, daemon=True)
        self.sock = raw_login(broker.host, broker.port, board, broker.creds[board])
        self.board = board
        self.packet = publish_packet(topic(board, leaf), payload, qos)
        self.count = count
        self.seconds = None

    def hello(self):
        """The board's status, as a board says it at every connection: the
        relay knows the board (and opens its lane) before the flood."""
        status = b'{"v":1,"online":true,"faults":0,"note":""}'
        self.sock.sendall(publish_packet(topic(self.board, T_STATUS), status, 0, retain=True))

    def run(self):
        t0 = time.monotonic()
        batch = self.packet * 1000
        sent = 0
        try:
            while sent < self.count:
                n = min(1000, self.count - sent)
                self.sock.sendall(batch if n == 1000 else self.packet * n)
                sent += n
            self.sock.sendall(b"\xe0\x00")
        except OSError:
            pass
        self.seconds = time.monotonic() - t0
        self.sent = sent
        try:
            self.sock.close()
        except OSError:
            pass


class SseReader(threading.Thread):
    """The page's event stream: when each (board, seq) first reached it."""

    def __init__(self, host, port, source=None):
        threading.Thread.__init__(self, daemon=True)
        self.host, self.port, self.source = host, port, source
        self.seen = {}
        self.arrived = {}
        self.ready = threading.Event()
        self.stop = False

    def run(self):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60,
                                          source_address=self.source)
        conn.request("GET", "/events")
        r = conn.getresponse()
        self.ready.set()
        while not self.stop:
            try:
                line = r.fp.readline()
            except OSError:
                return
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            t = time.monotonic()
            for b in json.loads(line[6:]).get("boards", []):
                seq = b.get("seq")
                if seq is None:
                    continue
                last = self.seen.get(b["id"], -1)
                for s in range(last + 1, seq + 1):
                    self.arrived.setdefault((b["id"], s), t)
                if seq > last:
                    self.seen[b["id"]] = seq


def start_relay(broker, folder, log_path):
    """The relay as `gogadget relay` runs it, its log (WARNING) to log_path."""
    port = _free_port()
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_sim.room.relay", "--broker", broker.url,
         "--http", "127.0.0.1:%d" % port, "--archive", os.path.join(folder, "archive")],
        env=dict(os.environ, GOGADGET_RELAY_PASSWORD=broker.creds["relay"]),
        stdout=subprocess.DEVNULL, stderr=log)
    log.close()
    end = time.monotonic() + 30
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/stats.json")
            if json.loads(c.getresponse().read()).get("broker"):
                break
        except OSError:
            pass
        if time.monotonic() > end or proc.poll() is not None:
            proc.kill()
            raise RuntimeError("the relay did not start")
        time.sleep(0.1)
    return proc, port


def stop_relay(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stats(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/stats.json")
    return json.loads(c.getresponse().read())


def quiet_moves(broker, port, game, moves=20, period=0.25, flood=None):
    """The quiet board plays `moves` moves, one every `period` s (each event
    followed by its snapshot) of `game` (a SpecGame of QUIET's), while `flood` (a Flooder, started one second
    in) runs; returns the latencies in seconds of each move's snapshot, MQTT
    publish -> the page's event stream, and the flooder."""
    reader = SseReader("127.0.0.1", port)
    reader.start()
    assert reader.ready.wait(10)
    quiet = Publisher(broker, QUIET, broker.creds[QUIET], clean=True)
    try:
        g = game  # carried on from one call to the next: seq keeps growing
        quiet.send(T_GAME, g.snapshot())
        wait_for(lambda: reader.seen.get(QUIET, -1) >= g.seq, what="the quiet board's game")
        sent = {}
        rng = random.Random(36 + g.seq)
        t_flood = time.monotonic() + 1.0
        for _ in range(moves):
            if flood is not None and not flood.is_alive() and flood.seconds is None \
                    and time.monotonic() >= t_flood:
                flood.start()
            ev = g.play(g.random_move(rng))
            sent[g.seq] = time.monotonic()
            quiet.send(T_MOVE, ev)
            quiet.send(T_GAME, g.snapshot())
            time.sleep(period)
        if flood is not None:
            if flood.seconds is None and not flood.is_alive():
                flood.start()
            flood.join(120)
        wait_for(lambda: reader.seen.get(QUIET, -1) >= g.seq, timeout=60,
                 what="every quiet move on the page")
        return [reader.arrived[(QUIET, s)] - t for s, t in sorted(sent.items())]
    finally:
        reader.stop = True
        quiet.close()


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100.0 * len(values)))]


def measure(count=100000, size=0, qos=0, leaf=T_MOVE, moves=20, baseline=True):
    """The quiet board's latencies without the flood (baseline) and with it;
    {"alone": [...], "flooded": [...], "flood_s", "stats", "log_lines"}."""
    import tempfile
    import shutil
    from host_sim.room.broker import Broker
    folder = tempfile.mkdtemp(prefix="gogadget-flood-")
    broker = Broker(os.path.join(folder, "broker"), boards=[LOUD, QUIET]).start()
    log_path = os.path.join(folder, "relay.log")
    proc = None
    try:
        proc, port = start_relay(broker, folder, log_path)
        g = SpecGame(QUIET, size=19, game=5)
        out = {"alone": quiet_moves(broker, port, g, moves) if baseline else []}
        payload = b'{"v":1}' if not size else b'{"v":1,"x":"' + b"x" * size + b'"}'
        fl = Flooder(broker, LOUD, count, payload=payload, leaf=leaf, qos=qos)
        fl.hello()
        out["flooded"] = quiet_moves(broker, port, g, moves, flood=fl)
        out["flood_s"] = fl.seconds
        out["stats"] = stats(port)
        return out
    finally:
        if proc is not None:
            stop_relay(proc)
        broker.stop()
        with open(log_path, "rb") as f:
            out["log"] = f.read().decode("utf-8", "replace")
        shutil.rmtree(folder, ignore_errors=True)


def main():
    import argparse
    p = argparse.ArgumentParser(description="A quiet board's moves while another floods "
                                "(docs/ROOM.md): median and worst, alone and flooded.")
    p.add_argument("--count", type=int, default=100000)
    p.add_argument("--size", type=int, default=0, help="padding bytes a message")
    p.add_argument("--qos", type=int, default=0)
    p.add_argument("--leaf", default=T_MOVE)
    p.add_argument("--runs", type=int, default=1)
    args = p.parse_args()
    for _ in range(args.runs):
        r = measure(args.count, args.size, args.qos, args.leaf)
        print("%d x %d B QoS %d on %s (sent in %.2f s): quiet board alone p50 %.0f ms max %.0f "
              "ms; flooded p50 %.0f ms p99 %.0f ms max %.0f ms; relay log %d lines" % (
                  args.count, len(b'{"v":1}') + (args.size + 8 if args.size else 0), args.qos,
                  args.leaf, r["flood_s"], 1000 * pct(r["alone"], 50), 1000 * max(r["alone"]),
                  1000 * pct(r["flooded"], 50), 1000 * pct(r["flooded"], 99),
                  1000 * max(r["flooded"]), r["log"].count("\n")), flush=True)


if __name__ == "__main__":
    main()
