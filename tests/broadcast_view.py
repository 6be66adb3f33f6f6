"""What a subscriber that follows docs/ROOM.md's rules shows of a board's
messages, for the Broadcaster's tests (CPython side): events applied only
in seq order, duplicates dropped, a gap waiting for the snapshot."""
import json

from gogadget.roomnames import T_GAME, T_MOVE, T_STATUS


class View:
    def __init__(self):
        self.game = None  # the game shown
        self.seq = 0
        self.moves = []  # [(colour, point)] as SGF letters
        self.result = ""
        self.shown = []  # (game, seq, kind) of every event applied, in order
        self.duplicates = 0
        self.gaps = 0
        self.snapshots = 0
        self.status = None
        self.snapshot = None  # the last snapshot applied

    def handle(self, topic, payload):
        leaf = topic.rsplit("/", 1)[-1]
        msg = json.loads(bytes(payload))
        assert msg["v"] == 1
        if leaf == T_STATUS:
            self.status = msg
        elif leaf == T_MOVE:
            self._event(msg)
        elif leaf == T_GAME:
            self._snapshot(msg)

    def _event(self, ev):
        if self.game is not None and ev["game"] < self.game:
            self.duplicates += 1
            return
        if ev["game"] != self.game or ev["seq"] != self.seq + 1:
            if ev["game"] == self.game and ev["seq"] <= self.seq:
                self.duplicates += 1
            else:
                self.gaps += 1
            return
        t = ev["t"]
        if t == "move":
            assert ev["n"] == len(self.moves) + 1, (ev, len(self.moves))
            self.moves.append((ev["c"], ev["p"]))
        elif t == "undo":
            assert ev["n"] == len(self.moves), (ev, len(self.moves))
            self.moves.pop()
            self.result = ""
        elif t == "end":
            self.result = ev["result"]
        self.seq = ev["seq"]
        self.shown.append((ev["game"], ev["seq"], t))

    def _snapshot(self, snap):
        if self.game is not None and (snap["game"] < self.game or (
                snap["game"] == self.game and snap["seq"] < self.seq)):
            return
        if self.game == snap["game"] and snap["seq"] == self.seq:
            # The snapshot that follows the events just applied: the same game.
            assert parse_moves(snap["moves"]) == self.moves, (snap, self.moves)
        self.game = snap["game"]
        self.seq = snap["seq"]
        self.moves = parse_moves(snap["moves"])
        self.result = snap["result"]
        self.snapshot = snap
        self.snapshots += 1


def parse_moves(text):
    out = []
    for node in text.split(";")[1:]:
        out.append((node[0], node[2:-1]))
    return out


def sgf_moves(board):
    """The board's moves as parse_moves gives them."""
    size = board.size
    out = []
    for i in range(board.moves):
        colour, pt = board.move(i)
        w = size + 1
        p = "" if pt == 0 else chr(97 + pt % w) + chr(97 + size - pt // w)
        out.append(("B" if colour == 1 else "W", p))
    return out
