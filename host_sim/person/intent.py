"""What the stress person means the game to be: their own rules core, the set-up and the moves."""
from gogadget import points
from gogadget.board import KO, OK, REASONS, SUICIDE, SUPERKO, Board
from gogadget.points import BLACK, EMPTY, PASS, WHITE
from host_sim.person.gamerecord import Game

CAPTURE_BIAS = 0.6  # chance a player takes a capture when there is one
CONTACT_BIAS = 0.5  # chance a player plays next to an opponent's stone


class Intent:
    """The person's own rules core (the firmware's Board, configured from the
    preset), the set-up stones and the moves in order, by place."""

    def __init__(self, size, rules):
        self.size = size
        self.rules = rules
        self.board = Board(size, rules.ko, rules.suicide)
        self.setup = []  # [(colour, place)]
        self.history = []  # [(colour, point)], point PASS for a pass

    def pt(self, place):
        return points.place_point(self.size, place)

    def place(self, pt):
        return points.place(self.size, pt)

    def vertex(self, place):
        return points.vertex(self.size, self.pt(place))

    def handicap(self, places):
        for pl in places:
            self.board.setup(BLACK, self.pt(pl))
            self.setup.append((BLACK, pl))
        # As the referee does after handicap stones: White moves first.
        self.board.handicap = len(places)
        self.board.first = WHITE

    def to_move(self):
        return self.board.to_move()

    def play(self, colour, place):
        """The move is intended from now on; returns the places it captured."""
        code = self.board.play(colour, self.pt(place))
        if code != OK:
            raise ValueError("the person meant an illegal move: " + REASONS[code])
        self.history.append((colour, self.pt(place)))
        return [self.place(p) for p in self.board.captured_stones()]

    def pass_move(self, colour):
        self.board.pass_move(colour)
        self.history.append((colour, PASS))

    def passed_out(self):
        """Have the players passed the game out (two passes in a row, the
        last White's where the preset says White passes last)?"""
        b = self.board
        if b.consecutive_passes() < 2:
            return False
        return not self.rules.white_passes_last or b.last_move()[0] == WHITE

    def undo(self):
        self.board.undo()
        self.history.pop()

    def captured(self, i=-1):
        return [self.place(p) for p in self.board.captured_stones(i)]

    def expected(self):
        """What should lie on each place."""
        cells = self.board.cells
        return bytes(cells[self.pt(pl)] for pl in range(self.size * self.size))

    def empties(self):
        cells = self.board.cells
        return [pl for pl in range(self.size * self.size) if cells[self.pt(pl)] == EMPTY]

    def _own_eye(self, colour, pt):
        cells = self.board.cells
        w = self.board.stride
        return all(cells[n] in (colour, points.EDGE) for n in (pt - 1, pt + 1, pt - w, pt + w))

    def _try(self, colour, pt):
        """(code, self-capture?, stones captured) of a play, the board unchanged."""
        b = self.board
        code = b.play(colour, pt)
        if code != OK:
            return code, False, 0
        suicide = b.cells[pt] == EMPTY
        captures = b.last_captures
        b.undo()
        return code, suicide, captures

    def _touches(self, colour, pt):
        cells = self.board.cells
        w = self.board.stride
        return any(cells[n] == 3 - colour for n in (pt - 1, pt + 1, pt - w, pt + w))

    def random_move(self, rng, colour, avoid=(), self_capture=False):
        """A random legal place that does not fill an own single-point eye
        (so random games end); a self-capture only when asked for.  Captures
        and contact plays are preferred, so prisoners come up often.  None:
        nothing sensible left, pass."""
        empties = [pl for pl in self.empties()
                   if pl not in avoid and not self._own_eye(colour, self.pt(pl))]
        rng.shuffle(empties)
        if not self_capture and rng.random() < CAPTURE_BIAS:
            for pl in empties:
                code, suicide, captures = self._try(colour, self.pt(pl))
                if code == OK and captures and not suicide:
                    return pl
        if rng.random() < CONTACT_BIAS:
            empties.sort(key=lambda pl: not self._touches(colour, self.pt(pl)))
        for pl in empties:
            code, suicide, _ = self._try(colour, self.pt(pl))
            if code == OK and suicide == self_capture:
                return pl
        return None

    def illegal_place(self, rng, colour):
        """(place, reason code) of an empty point where colour may not play."""
        empties = self.empties()
        rng.shuffle(empties)
        for pl in empties:
            code = self.board.legal(colour, self.pt(pl))
            if code in (SUICIDE, KO, SUPERKO):
                return pl, code
        return None

    def chains(self):
        """Every chain on the board, as lists of places."""
        seen = set()
        out = []
        cells = self.board.cells
        for pl in range(self.size * self.size):
            pt = self.pt(pl)
            if cells[pt] != EMPTY and pt not in seen:
                chain = self.board.chain(pt)
                seen.update(chain)
                out.append([self.place(p) for p in chain])
        return out

    def game(self, komi=0.0):
        """The intended game as host_sim.person.gamerecord reads a record."""
        moves = [(c, None if pt == PASS else self.place(pt)) for c, pt in self.history]
        return Game(self.size, komi, list(self.setup), moves, self.rules.name, {})

    def describe(self, move):
        colour, pt = move
        return points.colour_name(colour) + " " + ("pass" if pt == PASS else points.vertex(self.size, pt))
