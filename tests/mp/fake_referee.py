"""A stand-in for gogadget.referee.Referee with the agreed API, for testing
link.py alone (CPython and MicroPython).  The "person" is the test: it
calls person_move() / person_pass() / person_resign() and place_all()."""
from gogadget.board import Board, OK
from gogadget.points import BLACK, PASS, vertex
from gogadget.rules import Rules
from gogadget import sgf


class FakeReferee:
    def __init__(self, size=9):
        self.events = []
        self.clock = None  # no time control
        self.new_game(size=size)

    def new_game(self, size=None, komi=None, handicap=None, preset=None):
        if size is not None and not 2 <= size <= 19:
            raise ValueError("unacceptable size")
        size = size or getattr(self, "size", 9)
        self.size = size
        self.rules = Rules(preset or "chinese")
        self.komi = self.rules.komi if komi is None else komi
        self.board = Board(size, self.rules.ko, self.rules.suicide)
        self.starts = getattr(self, "starts", 0) + 1  # as Referee.start counts games
        self.phase = "play"
        self.result = ""
        self.prompts = []  # (colour, pt) the person still has to place
        self.frame = bytearray(1 + size * size + 3)
        if handicap:
            from gogadget.points import handicap_points, point
            for r, c in handicap_points(size, handicap):
                self.board.setup(BLACK, point(size, r, c))
            self.board.handicap = handicap
            self.board.first = 2
        self.events.append(("new-game", str(size)))

    def set_komi(self, komi):
        self.komi = komi

    def poll_event(self):
        if self.events:
            return self.events.pop(0)
        return None

    def to_move(self):
        return self.board.to_move()

    def outstanding(self):
        return len(self.prompts)

    def status(self):
        return "fake"

    def sgf(self):
        return sgf.record(self.board, self.rules, self.komi, self.result)

    def external_move(self, colour, pt):
        if colour != self.board.to_move():
            return 1
        if pt == PASS:
            self.board.pass_move(colour)
            self._after_pass()
            return OK
        code = self.board.play(colour, pt)
        if code == OK:
            self.prompts.append((colour, pt))
            self.events.append(("move", vertex(self.size, pt)))
        return code

    def _after_pass(self):
        self.events.append(("pass", ""))
        if self.board.consecutive_passes() >= 2:
            self.phase = "count"

    def place_all(self):
        self.prompts = []

    def person_move(self, pt):
        colour = self.board.to_move()
        if pt == PASS:
            self.board.pass_move(colour)
            self._after_pass()
            return OK
        code = self.board.play(colour, pt)
        if code == OK:
            self.events.append(("move", vertex(self.size, pt)))
        else:
            self.events.append(("illegal", vertex(self.size, pt)))
        return code

    def person_resign(self):
        self.phase = "over"
        self.result = ("W" if self.board.to_move() == BLACK else "B") + "+R"
        self.events.append(("resign", self.result))

    def undo(self):
        return self.board.undo()

    def set_position(self, stones):
        self.new_game()
        for colour, pt in stones:
            self.board.setup(colour, pt)
            self.prompts.append((colour, pt))


class FakeStream:
    """Bytes in, bytes out, readinto like the board's streams."""

    def __init__(self, data=b""):
        self.inbox = bytearray(data)
        self.out = bytearray()

    def feed(self, data):
        self.inbox += data

    def readinto(self, buf):
        if not self.inbox:
            return 0  # idle: allocate nothing (the MicroPython test locks the heap)
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox = self.inbox[n:]
        return n

    def write(self, data):
        self.out += data

    def take(self):
        text = bytes(self.out).decode()
        self.out = bytearray()
        return text
