"""The tournament room's figure: boards x move rate one relay keeps up with,
the time from a board's accepted move to the page's event stream (p50, p99),
the relay's CPU and memory.

    make bench BENCH=room                     # the ladder below, up to the ceiling
    ROOM_LADDER=500x10,1000x10 make bench BENCH=room    # boards x seconds per move

How it is measured (this machine: Mosquitto, the relay and the load share it):
* Mosquitto with the project's generated config; the relay is `python -m
  host_sim.room.relay` in its own process (its CPU and RSS read from /proc).
* The load: every board is the firmware's Broadcaster (the real message
  format, event then snapshot) on a referee-like game (host_sim.room.
  mirror.Mirror: a rules-core Board, game and seq) playing random legal
  moves, one per board every P seconds at random phases.  Not one MQTT
  connection per board: LOADGEN_CLIENTS paho connections carry all the
  boards, as users "loadgen-N" whose ACL entry may write every board's topic
  (the room's shipped ACL gives each board only its own); QoS 1, PUBACKs
  counted, not waited for one by one.
* Latency: from the moment a board's Broadcaster hands its move event to
  MQTT to the moment an SSE client of the relay's /events (what the page's
  EventSource reads) receives the update with that board's seq; one clock,
  one process.  The page's updates are batched every 50 ms (--coalesce).
* The first step also opens the page in headless Chromium (host_sim/room/
  chromium.py) and, every animation frame, notes the cards whose move
  number changed: move to the browser's frame, by the wall clock (the
  browser's performance.timeOrigin + now() against time.time()).
* Falling behind: after the load stops, every board's last seq must reach
  the SSE client within 5 s, and p99 must stay under 500 ms.
"""
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

from gogadget.broadcast import Broadcaster
from gogadget.roomnames import TOPIC_ROOT
from gogadget.board import OK
from host_sim.room.client import NullClient

DURATION_S = float(os.environ.get("ROOM_SECONDS", 20))
LADDER = os.environ.get("ROOM_LADDER", "500x10,1000x10,2000x10,4000x10,4000x5,4000x2.5,4000x1.25")
LOADGEN_CLIENTS = 4
TARGET_MS = 500.0


class Shared:
    """One paho connection carrying many boards' messages (umqtt's publish
    API for the Broadcaster; returns once queued, QoS 1)."""

    def __init__(self, host, port, user, password, n):
        import paho.mqtt.client as mqtt
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="loadgen-%d" % n,
                             protocol=mqtt.MQTTv311)
        self.c.username_pw_set(user, password)
        self.c.max_inflight_messages_set(1000)
        self.c.max_queued_messages_set(0)
        self.acked = 0
        self.sent = 0
        self.c.on_publish = self._acked
        up = threading.Event()
        self.c.on_connect = lambda *a: up.set()
        self.c.connect(host, port, 60)
        self.c.loop_start()
        if not up.wait(10):
            raise RuntimeError("loadgen could not connect")

    def _acked(self, *args):
        self.acked += 1

    def client(self):
        shared = self

        class Client(NullClient):
            def publish(self, topic, msg, retain=False, qos=0):
                shared.sent += 1
                shared.c.publish(bytes(topic).decode(), bytes(msg), qos, retain)
        return Client()

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


class LoadBoard:
    def __init__(self, board_id, shared, rng, period):
        from host_sim.room.mirror import Mirror
        self.id = board_id
        self.m = Mirror()
        m = self.m
        m.known = True
        m.phase = "play"
        m.komi = 6.5
        m.rules.name = "japanese"
        m.log.game = 1
        from gogadget.board import Board
        from gogadget.rules import KO_SIMPLE, SUICIDE_FORBIDDEN
        # The relay checks every move by the game's rules: these are Japanese.
        m.board = Board(19, ko=KO_SIMPLE, suicide=SUICIDE_FORBIDDEN, capacity=800)
        self.pub = Broadcaster(shared.client, board_id, referee=m)
        self.rng = rng
        self.period = period
        self.wall = {}  # move number -> wall time it was handed to MQTT (the browser sample)
        self.next = time.monotonic() + rng.uniform(0, period)

    def move(self, sent):
        m, bd = self.m, self.m.board
        colour = bd.to_move()
        pts = bd.points()
        for _ in range(30):
            pt = self.rng.choice(pts)
            if bd.cells[pt] == 0 and bd.legal(colour, pt) == OK:
                bd.play(colour, pt)
                break
        else:
            bd.pass_move(colour)
        m.log.seq += 1
        sent[(self.id, m.log.seq)] = time.monotonic()
        self.wall[bd.moves] = time.time()


class SseReader(threading.Thread):
    def __init__(self, host, port):
        threading.Thread.__init__(self, daemon=True)
        self.host, self.port = host, port
        self.seen = {}  # board -> seq
        self.boards = set()  # the boards the page has
        self.arrived = {}  # (board, seq) -> time
        self.stop = False
        self.ready = threading.Event()

    def run(self):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        conn.request("GET", "/events")
        r = conn.getresponse()
        self.ready.set()
        while not self.stop:
            line = r.fp.readline()
            if not line:
                break
            if not line.startswith(b"data: "):
                continue
            t = time.monotonic()
            data = json.loads(line[6:])
            for b in data.get("boards", []):
                seq = b.get("seq")
                if seq is None:
                    continue
                self.boards.add(b["id"])
                last = self.seen.get(b["id"], 0)
                for s in range(last + 1, seq + 1):
                    self.arrived[(b["id"], s)] = t
                if seq > last:
                    self.seen[b["id"]] = seq


def _proc_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _proc_rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def _pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100.0 * len(values)))]


# Every frame, the cards whose move number changed, with the frame's wall time.
_WATCH = """window.__lat = []; const last = {};
function tick() {
  const t = performance.timeOrigin + performance.now();
  for (const c of document.querySelectorAll('.card')) {
    const b = c.dataset.board, n = +c.dataset.moves;
    if (last[b] !== undefined && n !== last[b]) window.__lat.push([b, n, t]);
    last[b] = n;
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick); 1"""


def _browser(port):
    """Headless Chromium on the page, watching the cards; None if it cannot."""
    from host_sim.room.chromium import Chromium, find_chromium
    if find_chromium() is None:
        return None
    br = Chromium(width=1400, height=900).start()
    br.goto("http://127.0.0.1:%d/" % port)
    br.wait("document.querySelectorAll('.card').length > 0", timeout=60)
    br.eval(_WATCH)
    return br


def _tear_down(relay, broker, folder):
    """Stop the relay's process and the broker, and remove the step's folder."""
    import shutil
    relay.terminate()
    try:
        relay.wait(10)
    except subprocess.TimeoutExpired:
        relay.kill()
    broker.stop()
    shutil.rmtree(folder, ignore_errors=True)


def _relay_reader(http_port):
    """Wait (20 s at most) until the relay on http_port is connected to its
    broker, then follow its page's event stream."""
    deadline = time.monotonic() + 20
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", http_port, timeout=2)
            c.request("GET", "/stats.json")
            if json.loads(c.getresponse().read()).get("broker"):
                break
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the relay did not start")
        time.sleep(0.1)
    reader = SseReader("127.0.0.1", http_port)
    reader.start()
    reader.ready.wait(10)
    return reader


def run_step(boards, period, seconds=DURATION_S, browser=False):
    from host_sim.room.broker import Broker, free_port, password_hash
    folder = tempfile.mkdtemp(prefix="gogadget-bench-room-")
    broker = Broker(os.path.join(folder, "broker"), boards=[])
    pw = "loadgen-bench"
    # One user a connection: the broker ties each client id to its user.
    loadgens = ["loadgen-%d" % i for i in range(LOADGEN_CLIENTS)]
    with open(os.path.join(broker.folder, "passwd"), "a") as f:
        f.writelines("%s:%s\n" % (u, password_hash(pw)) for u in loadgens)
    with open(os.path.join(broker.folder, "acl"), "a") as f:
        f.write("\n# bench only: these users publish for every simulated board\n")
        f.writelines("user %s\ntopic write %s/#\n" % (u, TOPIC_ROOT) for u in loadgens)
    broker.start()
    http_port = free_port()
    relay = subprocess.Popen(
        [sys.executable, "-m", "host_sim.room.relay", "--broker", broker.url,
         "--http", "127.0.0.1:%d" % http_port, "--archive", os.path.join(folder, "archive"),
         "--user", "relay", "--password", broker.creds["relay"]],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shareds = []
    reader = None
    try:
        reader = _relay_reader(http_port)
        shareds = [Shared(broker.host, broker.port, "loadgen-%d" % i, pw, i)
                   for i in range(LOADGEN_CLIENTS)]
        rng = random.Random(1)
        room = [LoadBoard("b%05d" % i, shareds[i % len(shareds)], random.Random(rng.random()),
                          period) for i in range(boards)]
        sent = {}
        ms = int(time.monotonic() * 1000) & 0x3FFFFFFF
        for b in room:  # every board's empty game first (not measured)
            b.pub.poll(ms)
            while b.pub.pending():
                b.pub.poll(ms)
        # Measured once the page has every board and the relay is idle again.
        wait_end = time.monotonic() + 60
        while len(reader.boards) < boards and time.monotonic() < wait_end:
            time.sleep(0.1)
        br = None
        if browser:
            try:
                br = _browser(http_port)
            except Exception as exc:  # noqa: BLE001  (the figure is optional)
                print("chromium sample: not taken (%s)" % exc)
        time.sleep(2.0)
        cpu0, t0 = _proc_cpu(relay.pid), time.monotonic()
        for b in room:  # moves at random phases from now on
            b.next = t0 + b.rng.uniform(0, period)
        end = t0 + seconds
        moves = 0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            ms = int(now * 1000) & 0x3FFFFFFF
            for b in room:
                if now >= b.next:
                    b.move(sent)
                    moves += 1
                    b.next += period
                    b.pub.poll(ms)  # it looks, and publishes the event
                    while b.pub.pending():  # then the snapshot
                        b.pub.poll(ms)
            time.sleep(0.001)
        elapsed = time.monotonic() - t0
        cpu = _proc_cpu(relay.pid) - cpu0
        rss = _proc_rss_mb(relay.pid)
        # Caught up?  Every board's last seq at the SSE client within 5 s.
        last = {b.id: b.m.log.seq for b in room}
        wait_end = time.monotonic() + 5
        while time.monotonic() < wait_end:
            if all(reader.seen.get(i, 0) >= s for i, s in last.items()):
                break
            time.sleep(0.05)
        behind = sum(1 for i, s in last.items() if reader.seen.get(i, 0) < s)
        lat = [(reader.arrived[k] - t) * 1000 for k, t in sent.items() if k in reader.arrived]
        shown = []
        if br is not None:
            try:
                by_id = {b.id: b for b in room}
                for bid, n, t in br.eval("window.__lat"):
                    w = by_id[bid].wall.get(n)
                    if w is not None:
                        shown.append(t - w * 1000)
            finally:
                br.close()
        missing = len(sent) - len(lat)
        return {"boards": boards, "period": period, "moves": moves, "rate": moves / elapsed,
                "p50": _pct(lat, 50), "p99": _pct(lat, 99), "max": max(lat) if lat else 0,
                "cpu": 100.0 * cpu / elapsed, "rss": rss, "behind": behind, "missing": missing,
                "shown": shown, "acked": sum(s.acked for s in shareds), "published": sum(s.sent for s in shareds)}
    finally:
        if reader is not None:
            reader.stop = True
        for s in shareds:
            s.close()
        _tear_down(relay, broker, folder)


def flood(count=2000, quiet_moves=40):
    """One board floods the relay with `count` valid ~8 KB snapshots as fast
    as its connection goes, while another board plays a move every 0.1 s:
    the quiet board's move -> SSE latency, against the same without the
    flood.  Returns (p50, p99, max) in ms for both, and the flood's rate."""
    import paho.mqtt.client as mqtt
    from host_sim.room.broker import Broker, free_port
    from gogadget.roomnames import T_GAME, T_MOVE, topic
    folder = tempfile.mkdtemp(prefix="gogadget-bench-flood-")
    broker = Broker(os.path.join(folder, "broker"), boards=["loud", "quiet"]).start()
    http_port = free_port()
    relay = subprocess.Popen(
        [sys.executable, "-m", "host_sim.room.relay", "--broker", broker.url,
         "--http", "127.0.0.1:%d" % http_port, "--archive", os.path.join(folder, "archive")],
        env=dict(os.environ, GOGADGET_RELAY_PASSWORD=broker.creds["relay"]),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clients = []
    reader = None

    def client(user):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv311)
        c.username_pw_set(user, broker.creds[user])
        c.max_inflight_messages_set(1000)
        c.max_queued_messages_set(0)
        c.connect(broker.host, broker.port, 60)
        c.loop_start()
        clients.append(c)
        return c

    def snapshot(board, seq, moves):
        return json.dumps({"v": 1, "game": 1, "seq": seq, "size": 19, "komi": 6.5,
                           "rules": "japanese", "moves": moves, "phase": "play"},
                          separators=(",", ":")).encode()

    try:
        reader = _relay_reader(http_port)
        loud, quiet = client("loud"), client("quiet")
        time.sleep(0.5)
        # The loud board's game: 60 moves, then passes up to ~8 KB.
        from gogadget.board import Board
        bd = Board(19)
        rng = random.Random(7)
        text = []
        pts = bd.points()
        while len(text) < 60:
            pt = rng.choice(pts)
            col = bd.to_move()
            if bd.play(col, pt) == OK:
                text.append(";%s[%s]" % ("BW"[col - 1], "%s%s" % (
                    chr(97 + pt % 20), chr(97 + 19 - pt // 20))))
        while len(snapshot("loud", 1, "".join(text))) < 8000:
            text.append(";%s[]" % "BW"[len(text) % 2])
        moves = "".join(text)
        quiet.publish(topic("quiet", T_GAME), snapshot("quiet", 0, ""), 1, True)
        time.sleep(0.5)
        results = {}
        for phase in ("alone", "flooded"):
            sent = {}
            stop = threading.Event()
            flood_rate = [0.0]

            def pour():
                t0 = time.monotonic()
                for i in range(count):
                    loud.publish(topic("loud", T_GAME), snapshot("loud", i, moves), 1, True)
                flood_rate[0] = count / (time.monotonic() - t0)
            th = threading.Thread(target=pour, daemon=True)
            if phase == "flooded":
                th.start()
            base = reader.seen.get("quiet", 0)
            for k in range(quiet_moves):
                seq = base + k + 1
                col = "BW"[(seq - 1) % 2]
                p = chr(97 + (seq - 1) % 19) + chr(97 + (seq - 1) // 19)
                sent[seq] = time.monotonic()
                quiet.publish(topic("quiet", T_MOVE), json.dumps(
                    {"v": 1, "game": 1, "seq": seq, "t": "move", "n": seq, "c": col, "p": p}), 1)
                time.sleep(0.1)
            stop.set()
            th.join(120) if phase == "flooded" else None
            wait_end = time.monotonic() + 30
            while reader.seen.get("quiet", 0) < base + quiet_moves and time.monotonic() < wait_end:
                time.sleep(0.05)
            lat = [(reader.arrived[("quiet", s)] - t) * 1000 for s, t in sent.items()
                   if ("quiet", s) in reader.arrived]
            results[phase] = (_pct(lat, 50), _pct(lat, 99), max(lat) if lat else float("nan"),
                              len(sent) - len(lat), flood_rate[0])
        c = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
        c.request("GET", "/stats.json")
        results["stats"] = json.loads(c.getresponse().read())
        return results
    finally:
        if reader is not None:
            reader.stop = True
        for c in clients:
            c.disconnect()
            c.loop_stop()
        _tear_down(relay, broker, folder)


def main():
    from host_sim.room.broker import find_mosquitto
    if find_mosquitto() is None:
        print("room: mosquitto not installed (apt-get install mosquitto)")
        return
    print("%d s a step; %d loadgen connections; latency: a board's move event handed to MQTT"
          " -> the relay's /events (SSE) delivers its seq" % (DURATION_S, LOADGEN_CLIENTS))
    print("%6s %8s %9s %8s %8s %8s %9s %8s %7s" % ("boards", "s/move", "moves/s", "p50 ms",
                                                   "p99 ms", "max ms", "relay CPU", "RSS MB",
                                                   "behind"))
    ceiling = None
    for i, step in enumerate(LADDER.split(",")):
        boards, period = step.split("x")
        r = run_step(int(boards), float(period), browser=(i == 0))
        ok = r["p99"] < TARGET_MS and not r["behind"] and not r["missing"]
        print("%6d %8g %9.1f %8.1f %8.1f %8.1f %8.0f%% %8.1f %7d%s" % (
            r["boards"], r["period"], r["rate"], r["p50"], r["p99"], r["max"], r["cpu"], r["rss"],
            r["behind"], "" if ok else "  <- over the target (p99 %d ms) or behind" % TARGET_MS),
            flush=True)
        if r["shown"]:
            print("%6s headless Chromium on the page: %d moves reached a card, p50 %.0f ms, "
                  "p99 %.0f ms from the move to the first frame whose card has it"
                  % ("", len(r["shown"]), _pct(r["shown"], 50), _pct(r["shown"], 99)), flush=True)
        if not ok:
            break
        ceiling = r
    if ceiling is not None:
        print("ceiling here: %d boards at a move every %g s (%.0f moves/s) with p99 %.0f ms"
              % (ceiling["boards"], ceiling["period"], ceiling["rate"], ceiling["p99"]))
    if os.environ.get("ROOM_FLOOD", "1") != "0":
        r = flood()
        for phase in ("alone", "flooded"):
            p50, p99, mx, lost, rate = r[phase]
            print("flood: a quiet board's move -> SSE %s: p50 %.0f ms, p99 %.0f ms, max %.0f ms, "
                  "lost %d%s" % ("alone" if phase == "alone" else
                                 "while another board sends 2000 8 KB snapshots", p50, p99, mx,
                                 lost, "" if phase == "alone" else
                                 " (the flood at %.0f snapshots/s; the relay shed %d of them and "
                                 "skipped %d superseded)" % (rate, r["stats"].get("inbox_dropped", 0),
                                                             r["stats"].get("inbox_skipped", 0))),
                  flush=True)


if __name__ == "__main__":
    main()
