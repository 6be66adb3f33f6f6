"""A local OGS for tests and demos: the REST login and game list, and the
websocket protocol as the goban package's types define it
(ClientToServer.d.ts / ServerToClient.d.ts), for one person's games.

The opponent is a script of actions, taken in order as each becomes
possible: a vertex or "pass" (its move on its turn), "resign", "flag" (the
person's clock runs out on the person's turn), "drop" (on the opponent's
turn the server drops the person's websocket, as a network fault does,
and the opponent's next move is made while the person is away), "refuse" (the person's
next move comes back as game/<id>/error), "mark V ..." (in the stone
removal phase the opponent marks those stones removed: a dispute),
"accept" (the opponent accepts the removed stones once the person has),
"reject" (it rejects them: play resumes).  Legality and the count come
from the firmware's own rules core.
"""
import argparse
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve

from gogadget import score
from gogadget.board import Board, OK
from gogadget.points import BLACK, EMPTY, WHITE, point, row_col
from gogadget.rules import Rules
from host_sim.ogs import proto
from host_sim.ogs.wire import Trace

TICK_S = 0.02


def _pt(size, x, y):
    return point(size, size - 1 - y, x)


def _xy(size, pt):
    r, c = row_col(size, pt)
    return c, size - 1 - r


class Game:
    """One game on the server, between the person and a scripted opponent."""

    def __init__(self, game_id, person, opponent, person_colour=BLACK, size=9, komi=6.5,
                 rules="chinese", handicap=0, free=True, script=(), main_time=600,
                 initial=None, moves=()):
        self.id = game_id
        self.size = size
        self.komi = komi
        self.rules = rules
        self.handicap = handicap
        self.free = free
        self.players = {"black": person if person_colour == BLACK else opponent,
                        "white": opponent if person_colour == BLACK else person}
        self.person = person
        self.opponent = opponent
        self.person_colour = person_colour
        self.script = list(script)
        self.phase = "play"
        self.moves = []  # [x, y, ms]
        self.colours = []
        self.initial = initial or {"black": "", "white": ""}
        self.board = Board(size, capacity=1024)
        preset = Rules(proto.RULES.get(rules, "chinese"))
        self.board.ko = preset.ko
        self.board.suicide = preset.suicide
        self.rules_core = preset
        for colour, key in ((BLACK, "black"), (WHITE, "white")):
            for x, y in proto.decode_list(self.initial[key]):
                self.board.setup(colour, _pt(size, x, y))
        self.removed = set()  # (x, y)
        self.accepted = {}
        self.outcome = ""
        self.winner = 0
        self.score = None
        self.refuse = 0
        self.start = int(time.time() * 1000)
        self.last_move = self.start
        self.time = {BLACK: float(main_time), WHITE: float(main_time)}
        for x, y in moves:
            self._play(self.next_colour(), x, y)

    # -- the game ----------------------------------------------------------

    def next_colour(self):
        return proto.colours(self.gamedata(brief=True), len(self.moves) + 1)[-1]

    def colour_of(self, player_id):
        return BLACK if self.players["black"]["id"] == player_id else \
            WHITE if self.players["white"]["id"] == player_id else 0

    def _play(self, colour, x, y):
        """None when played, else the reason it is not."""
        if x < 0:
            self.board.pass_move(colour)
        else:
            if not (0 <= x < self.size and 0 <= y < self.size):
                return "Move is off the board"
            code = self.board.play(colour, _pt(self.size, x, y))
            if code != OK:
                return "Illegal move"
        now = int(time.time() * 1000)
        self.time[colour] = max(0.0, self.time[colour] - (now - self.last_move) / 1000.0)
        self.moves.append([x, y, now - self.last_move])
        self.colours.append(colour)
        self.last_move = now
        return None

    def two_passes(self):
        return len(self.moves) >= 2 and self.moves[-1][0] < 0 and self.moves[-2][0] < 0

    def finish(self, winner_colour, outcome):
        self.phase = "finished"
        self.outcome = outcome
        self.winner = self.players["black" if winner_colour == BLACK else "white"]["id"] \
            if winner_colour else 0

    def count(self):
        dead = [_pt(self.size, x, y) for x, y in self.removed
                if self.board.cells[_pt(self.size, x, y)] != EMPTY]
        c = score.count(self.board, self.rules_core, dead, self.komi)
        margin = abs(c.black - c.white)
        self.score = {}
        for colour, key in ((BLACK, "black"), (WHITE, "white")):
            self.score[key] = {"total": c.black if colour == BLACK else c.white,
                               "stones": c.stones[colour], "territory": c.territory[colour],
                               "prisoners": c.prisoners[colour], "scoring_positions": "",
                               "handicap": 0, "komi": self.komi if colour == WHITE else 0}
        self.finish(c.winner, "%s points" % (("%.1f" % margin).rstrip("0").rstrip(".")))

    # -- what the server sends -------------------------------------------------

    def clock(self):
        now = int(time.time() * 1000)
        turn = self.next_colour()
        current = self.players["black" if turn == BLACK else "white"]["id"]
        left = self.time[turn] * 1000 - (now - self.last_move)
        return {"game_id": self.id, "title": "game %d" % self.id,
                "expiration": int(self.last_move + self.time[turn] * 1000),
                "black_player_id": self.players["black"]["id"],
                "white_player_id": self.players["white"]["id"],
                "current_player": current, "last_move": self.last_move, "now": now,
                "black_time": {"thinking_time": self.time[BLACK], "skip_bonus": False},
                "white_time": {"thinking_time": self.time[WHITE], "skip_bonus": False},
                "expiration_delta": int(left)}

    def gamedata(self, brief=False):
        data = {"game_id": self.id, "game_name": "Go Gadget test game %d" % self.id,
                "width": self.size, "height": self.size, "komi": self.komi,
                "handicap": self.handicap, "free_handicap_placement": self.free,
                "rules": self.rules, "phase": self.phase, "initial_player": "black",
                "initial_state": dict(self.initial),
                "players": {k: {"id": v["id"], "username": v["username"]}
                            for k, v in self.players.items()},
                "moves": [list(m) for m in self.moves]}
        if brief:
            return data
        data.update({"time_control": {"system": "fischer", "speed": "live",
                                      "initial_time": 600, "time_increment": 10,
                                      "max_time": 600, "pause_on_weekends": False},
                     "clock": self.clock(), "removed": proto.encode_list(self.removed),
                     "start_time": self.start // 1000, "allow_superko": False,
                     "allow_self_capture": False, "score_territory": self.rules != "chinese"})
        if self.phase == "finished":
            data["outcome"] = self.outcome
            data["winner"] = self.winner
            data["end_time"] = int(time.time())
            if self.score is not None:
                data["score"] = self.score
        return data

    def overview_entry(self):
        return {"id": self.id, "name": "Go Gadget test game %d" % self.id,
                "width": self.size, "height": self.size,
                "black": dict(self.players["black"]), "white": dict(self.players["white"]),
                "time_per_move": 60, "json": self.gamedata()}


class Server:
    """REST on one port, the websocket on another (OGS serves both from one
    host; the client takes the websocket's address as --ws-url here)."""

    def __init__(self, games, username="person", password="secret", user_id=1001,
                 host="127.0.0.1", trace_path=None):
        self.games = {g.id: g for g in games}
        self.username = username
        self.password = password
        self.user_id = user_id
        self.jwt = "jwt-" + secrets.token_hex(8)
        self.sessions = set()
        self.trace = Trace(trace_path)  # what the server sent ("in") and got ("out")
        self.lock = threading.RLock()
        self.sockets = []  # [(connection, set of game ids)]
        self.drops = 0
        self.connects = 0
        self._stop = threading.Event()
        server = self

        class Rest(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _json(self, code, body, cookie=None):
                text = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(text)))
                if cookie:
                    self.send_header("Set-Cookie", cookie)
                self.end_headers()
                self.wfile.write(text)

            def _session(self):
                for part in (self.headers.get("Cookie") or "").split(";"):
                    k, _, v = part.strip().partition("=")
                    if k == "sessionid" and v in server.sessions:
                        return True
                return False

            def do_POST(self):
                if self.path != "/api/v0/login":
                    return self._json(404, {"detail": "not found"})
                n = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(n) or b"{}")
                except ValueError:
                    return self._json(400, {"detail": "bad JSON"})
                if body.get("username") != server.username or \
                        body.get("password") != server.password:
                    return self._json(401, {"detail": "Invalid username or password"})
                sid = secrets.token_hex(8)
                server.sessions.add(sid)
                self._json(200, {"user": {"id": server.user_id, "username": server.username}},
                           cookie="sessionid=%s; Path=/" % sid)

            def do_GET(self):
                if not self._session():
                    return self._json(403, {"detail": "not logged in"})
                if self.path == "/api/v1/ui/config":
                    return self._json(200, {"user": {"id": server.user_id,
                                                     "username": server.username},
                                            "user_jwt": server.jwt})
                if self.path == "/api/v1/ui/overview":
                    with server.lock:
                        games = [g.overview_entry() for g in server.games.values()
                                 if g.phase != "finished"]
                    return self._json(200, {"active_games": games})
                self._json(404, {"detail": "not found"})

        self.http = ThreadingHTTPServer((host, 0), Rest)
        self.http.daemon_threads = True
        self.ws = serve(self._handler, host, 0)
        self.url = "http://%s:%d" % (host, self.http.server_address[1])
        self.ws_url = "ws://%s:%d/" % (host, self.ws.socket.getsockname()[1])
        self._threads = [threading.Thread(target=self.http.serve_forever, daemon=True),
                         threading.Thread(target=self.ws.serve_forever, daemon=True),
                         threading.Thread(target=self._opponent, daemon=True)]
        for t in self._threads:
            t.start()

    def close(self):
        self._stop.set()
        self.http.shutdown()
        self.http.server_close()
        self.ws.shutdown()
        for t in self._threads:
            t.join(5)

    # -- the websocket ---------------------------------------------------------

    def _send(self, conn, msg):
        self.trace.add("in", msg)
        try:
            conn.send(json.dumps(msg))
        except ConnectionClosed:
            pass

    def _broadcast(self, game, event, data):
        with self.lock:
            targets = [c for c, ids in self.sockets if game.id in ids]
        for c in targets:
            self._send(c, ["game/%d/%s" % (game.id, event), data])

    def _handler(self, conn):
        entry = (conn, set())
        authed = False
        with self.lock:
            self.sockets.append(entry)
            self.connects += 1
        try:
            for text in conn:
                msg = json.loads(text)
                self.trace.add("out", msg)
                command, data = msg[0], msg[1]
                reply_id = msg[2] if len(msg) > 2 else None
                if command == "authenticate":
                    authed = data.get("jwt") == self.jwt
                    if reply_id is not None:
                        self._send(conn, [reply_id, {"id": self.user_id,
                                                     "username": self.username}]
                                   if authed else [reply_id, None,
                                                   {"code": "auth", "message": "bad jwt"}])
                    continue
                if command == "net/ping":
                    self._send(conn, ["net/pong", {"client": data["client"],
                                                   "server": int(time.time() * 1000)}])
                    continue
                with self.lock:
                    game = self.games.get(data.get("game_id"))
                if game is None:
                    self._send(conn, ["ERROR", "no such game"])
                    continue
                if command == "game/connect":
                    entry[1].add(game.id)
                    with self.lock:
                        gd, clock = game.gamedata(), game.clock()
                    self._send(conn, ["game/%d/gamedata" % game.id, gd])
                    self._send(conn, ["game/%d/clock" % game.id, clock])
                elif not authed:
                    self._send(conn, ["game/%d/error" % game.id, "Not authenticated"])
                else:
                    self._game_command(conn, game, command, data)
        except ConnectionClosed:
            pass
        finally:
            with self.lock:
                if entry in self.sockets:
                    self.sockets.remove(entry)

    def _game_command(self, conn, game, command, data):
        with self.lock:
            me = game.person_colour
            if command == "game/move":
                if game.phase != "play" or game.next_colour() != me:
                    return self._send(conn, ["game/%d/error" % game.id, "Not your turn"])
                x, y = proto.decode_list(data["move"])[0] if data["move"] != ".." else (-1, -1)
                if game.refuse:
                    game.refuse -= 1
                    return self._send(conn, ["game/%d/error" % game.id, "Illegal Ko Move"])
                why = game._play(me, x, y)
                if why:
                    return self._send(conn, ["game/%d/error" % game.id, why])
                self._moved(game)
            elif command == "game/resign":
                if game.phase == "finished":
                    return
                game.finish(3 - me, "Resignation")
                self._finished(game)
            elif command == "game/removed_stones/set":
                if game.phase != "stone removal":
                    return
                pts = proto.decode_list(data["stones"]) if isinstance(data["stones"], str) \
                    else [proto.packed_move(m) for m in data["stones"]]
                self._mark(game, data["removed"], pts)
            elif command == "game/removed_stones/accept":
                if game.phase != "stone removal":
                    return
                if data["stones"] == proto.encode_list(game.removed):
                    game.accepted[game.person["id"]] = data["stones"]
            elif command == "game/removed_stones/reject":
                if game.phase == "stone removal":
                    self._resume(game)

    def _mark(self, game, removed, pts):
        for p in pts:
            (game.removed.add if removed else game.removed.discard)(tuple(p))
        game.accepted = {}
        self._broadcast(game, "removed_stones", {"removed": removed,
                                                 "stones": proto.encode_list(pts),
                                                 "all_removed": proto.encode_list(game.removed)})

    def _resume(self, game):
        game.phase = "play"
        game.removed = set()
        game.accepted = {}
        self._broadcast(game, "phase", "play")

    def _moved(self, game):
        x, y, ms = game.moves[-1]
        self._broadcast(game, "move", {"game_id": game.id, "move_number": len(game.moves),
                                       "move": [x, y, ms]})
        if game.two_passes():
            game.phase = "stone removal"
            self._broadcast(game, "phase", "stone removal")
        self._broadcast(game, "clock", game.clock())

    def _finished(self, game):
        self._broadcast(game, "phase", "finished")
        self._broadcast(game, "gamedata", game.gamedata())

    # -- the scripted opponent ----------------------------------------------------

    def _opponent(self):
        while not self._stop.wait(TICK_S):
            with self.lock:
                for game in self.games.values():
                    self._act(game)

    def _act(self, game):
        if not game.script or game.phase == "finished":
            return
        action = game.script[0]
        words = action.split()
        them = 3 - game.person_colour
        turn = game.next_colour()
        if words[0] == "drop" and turn == them:
            # On the opponent's turn, so its next move is made while the
            # person's client is away.
            game.script.pop(0)
            self.drops += 1
            for c, ids in list(self.sockets):
                if game.id in ids:
                    c.close()
            return
        if words[0] == "refuse":
            game.script.pop(0)
            game.refuse += 1
            return
        if game.phase == "play":
            if words[0] == "flag" and turn == game.person_colour:
                # The person's clock runs out (a blitz flag, compressed).
                game.script.pop(0)
                game.time[game.person_colour] = 0.0
                game.finish(them, "Timeout")
                self._finished(game)
            elif words[0] == "resign" and turn == them:
                game.script.pop(0)
                game.finish(game.person_colour, "Resignation")
                self._finished(game)
            elif turn == them and words[0] not in ("flag", "mark", "accept", "reject", "drop"):
                game.script.pop(0)
                x, y = proto.from_vertex(game.size, words[0])
                why = game._play(them, x, y)
                if why:
                    raise ValueError("script %s: %s" % (action, why))
                self._moved(game)
        elif game.phase == "stone removal":
            if words[0] == "mark":
                game.script.pop(0)
                self._mark(game, True, [proto.from_vertex(game.size, v) for v in words[1:]])
            elif words[0] == "reject":
                game.script.pop(0)
                self._resume(game)
            elif words[0] == "accept" and game.person["id"] in game.accepted:
                game.script.pop(0)
                stones = proto.encode_list(game.removed)
                game.count()
                seat = {"accepted_stones": stones, "accepted_strict_seki_mode": False}
                self._broadcast(game, "removed_stones_accepted", {
                    "player_id": game.opponent["id"], "stones": stones,
                    "strict_seki_mode": False, "players": {"black": seat, "white": seat},
                    "phase": "finished", "score": game.score, "winner": game.winner,
                    "outcome": game.outcome, "end_time": int(time.time())})
                self._finished(game)


def main(argv=None):
    """Serve one game against a scripted opponent (python -m host_sim.ogs.server)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--colour", default="black", choices=("black", "white"))
    p.add_argument("--script", default="", help="the opponent's actions, comma-separated")
    args = p.parse_args(argv)
    game = Game(1, {"id": 1001, "username": "person"}, {"id": 2002, "username": "opponent"},
                BLACK if args.colour == "black" else WHITE, size=args.size,
                script=[a.strip() for a in args.script.split(",") if a.strip()])
    server = Server([game])
    print("OGS_SERVER=%s OGS_WS_URL=%s OGS_USERNAME=person OGS_PASSWORD=secret (game 1)"
          % (server.url, server.ws_url), flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()
