"""Spec-conformant boards for the room tests (docs/ROOM.md): the messages a
board publishes, built by hand from the document, and a paho publisher that
sends them.  Independent of the firmware's own publisher (broadcast.py), so
the relay is tested against the document, not against one implementation.
"""
import json
import random
import threading
import time

from gogadget.board import OK, Board
from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS, topic
from gogadget.points import BLACK, PASS, WHITE, parse_sgf_coord, sgf_coord


class SpecGame:
    """One board's game and the messages describing it."""

    def __init__(self, board_id, game=1, size=9, komi=6.5, rules="japanese", black="Black",
                 white="White", setup=(), handicap=0):
        self.id = board_id
        self.game = game
        self.size = size
        self.komi = komi
        self.rules = rules
        self.black, self.white = black, white
        self.setup = list(setup)  # [("B", "cc"), ...]
        self.handicap = handicap
        self.seq = 0
        self.moves = []  # [("B", "pd"), ("W", "")]
        self.phase = "play"
        self.result = ""
        self.bd = Board(size)
        for c, p in self.setup:
            self.bd.setup(BLACK if c == "B" else WHITE, parse_sgf_coord(size, p))

    def snapshot(self):
        return {"v": 1, "game": self.game, "seq": self.seq, "size": self.size, "komi": self.komi,
                "rules": self.rules, "handicap": self.handicap, "black": self.black,
                "white": self.white,
                "setup": "".join("A%s[%s]" % (c, p) for c, p in self.setup),
                "moves": "".join(";%s[%s]" % (c, p) for c, p in self.moves),
                "phase": self.phase, "result": self.result,
                "prisoners": [self.bd.prisoners[BLACK], self.bd.prisoners[WHITE]]}

    def to_move(self):
        return "B" if self.bd.to_move() == BLACK else "W"

    def play(self, p, c=None):
        """A move event (p "" for a pass)."""
        c = c or self.to_move()
        col = BLACK if c == "B" else WHITE
        if p:
            assert self.bd.play(col, parse_sgf_coord(self.size, p)) == OK, (c, p)
        else:
            self.bd.pass_move(col)
        self.moves.append((c, p))
        self.seq += 1
        return {"v": 1, "game": self.game, "seq": self.seq, "t": "move", "n": len(self.moves),
                "c": c, "p": p}

    def undo(self):
        n = len(self.moves)
        self.moves.pop()
        self.bd.undo()
        self.seq += 1
        return {"v": 1, "game": self.game, "seq": self.seq, "t": "undo", "n": n}

    def end(self, result):
        self.phase, self.result = "over", result
        self.seq += 1
        return {"v": 1, "game": self.game, "seq": self.seq, "t": "end", "result": result}

    def random_move(self, rng, pass_chance=0.0, fight=False):
        """A random legal point for the side to move (not into its own eye).
        fight: of a few candidates, the one that captures most or touches
        most stones (games that look played, with prisoners)."""
        col = self.bd.to_move()
        if rng.random() < pass_chance:
            return ""
        pts = self.bd.points()
        rng.shuffle(pts)
        best, best_score, tried = None, -1.0, 0
        w = self.size + 1
        for pt in pts:
            if self._own_eye(col, pt) or self.bd.legal(col, pt) != OK:
                continue
            if not fight:
                return sgf_coord(self.size, pt)
            before = self.bd.prisoners[col]
            self.bd.play(col, pt)
            caps = self.bd.prisoners[col] - before
            libs = self.bd.chain_liberties(pt)
            self.bd.undo()
            near = sum(self.bd.cells[q] in (BLACK, WHITE) for q in (pt - 1, pt + 1, pt - w, pt + w))
            r, c = divmod(pt, w)
            line = min(r - 1, c, self.size - r, self.size - 1 - c)  # 0: the first line
            score = (10 * caps + 0.7 * near + (0 if libs > 1 else -5)
                     + (1.2 if line in (2, 3) else -1.0 if line == 0 else 0) + 2.5 * rng.random())
            if score > best_score:
                best, best_score = pt, score
            tried += 1
            if tried >= 12:
                break
        return sgf_coord(self.size, best) if best is not None else ""

    def _own_eye(self, col, pt):
        w = self.size + 1
        return all(self.bd.cells[q] in (col, 3) for q in (pt - 1, pt + 1, pt - w, pt + w))


def status(online=True, faults=0, note=""):
    return {"v": 1, "online": online, "faults": faults, "note": note}


def encode(msg):
    return json.dumps(msg, separators=(",", ":")).encode()


class Publisher:
    """A board on the broker: paho, QoS 1, a persistent session, its last will."""

    def __init__(self, broker, board_id, password, clean=False):
        import paho.mqtt.client as mqtt
        self.id = board_id
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="board-" + board_id,
                             clean_session=clean, protocol=mqtt.MQTTv311)
        self.c.username_pw_set(board_id, password)
        self.c.will_set(topic(board_id, T_STATUS), encode(status(False)), qos=1, retain=True)
        self.c.reconnect_delay_set(0.1, 1)
        self.connected = threading.Event()
        self.status = None
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = lambda c, u, f, rc, p=None: self.connected.clear()
        self.c.connect_async(broker.host, broker.port, keepalive=10)
        self.c.loop_start()
        self.infos = []
        if not self.connected.wait(20):
            raise TimeoutError("board %s could not connect" % board_id)

    def _on_connect(self, client, userdata, flags, rc, properties=None):
        # As a board does: every (re)connection says it is online again (the
        # broker may have published its last will meanwhile).
        if self.status is not None:
            client.publish(topic(self.id, T_STATUS), encode(self.status), qos=1, retain=True)
        self.connected.set()

    def send(self, leaf, msg, retain=None):
        retain = leaf != T_MOVE if retain is None else retain
        payload = msg if isinstance(msg, bytes) else encode(msg)
        info = self.c.publish(topic(self.id, leaf), payload, qos=1, retain=retain)
        self.infos.append(info)
        return info

    def event(self, game, msg):
        """An event, then the snapshot that includes it (docs/ROOM.md)."""
        self.send(T_MOVE, msg)
        self.send(T_GAME, game.snapshot())

    def online(self, faults=0, note=""):
        self.status = status(True, faults, note)
        self.send(T_STATUS, self.status)

    def flush(self, timeout=20):
        end = time.monotonic() + timeout
        for info in self.infos:
            # Not is_published(): a message queued while the broker was away
            # carries a "not connected" code and is still sent on reconnect.
            while not info._published:
                if time.monotonic() > end:
                    raise TimeoutError("board %s: broker did not acknowledge" % self.id)
                time.sleep(0.01)
        self.infos = []

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


def random_game(board_id, rng=None, moves=40, size=9, **kw):
    """A SpecGame and its (event, snapshot after it) pairs: `moves` random
    legal moves (with a take-back or two on the way), then two passes."""
    rng = rng or random.Random(1)
    g = SpecGame(board_id, size=size, **kw)
    events = []
    while len(g.moves) < moves:
        events.append((g.play(g.random_move(rng)), g.snapshot()))
        if rng.random() < 0.05 and g.moves:
            events.append((g.undo(), g.snapshot()))
    for _ in range(2):
        events.append((g.play(""), g.snapshot()))
    return g, events


def wait_for(cond, timeout=20, what="the condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


def close_room(boards, relay, broker):
    """The end of a room test: every board's publisher, the relay, the broker."""
    for b in boards:
        b.pub.close()
    relay.stop()
    broker.stop()


__all__ = ["SpecGame", "Publisher", "random_game", "status", "encode", "wait_for", "close_room",
           "PASS"]
