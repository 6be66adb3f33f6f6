"""Guides the person through a stored game on the LEDs, move by move (gogadget-replay)."""


class Replay:
    """Guides the person through a recorded game: each recorded move is
    prompted on the LEDs (as an external move) once the previous one has
    been placed, and a warning event is raised when the board departs."""

    def __init__(self, link, game):
        self.link = link
        self.moves = game.moves
        self.next = 0
        self.base = link.referee.board.moves
        self.warned = False

    def step(self):
        referee = self.link.referee
        if self.next >= len(self.moves) or referee.outstanding():
            return
        board = referee.board
        if board.moves != self.base + self.next:
            if not self.warned:
                self.warned = True
                self.link.note("replay", "board departs from the record at move " + str(self.next + 1))
            return
        colour, pt = self.moves[self.next]
        code = referee.external_move(colour, pt)
        if code:
            self.link.note("replay", "recorded move " + str(self.next + 1) + " is illegal here")
            self.next = len(self.moves)
            return
        self.next += 1
        self.warned = False
        if self.next == len(self.moves):
            self.link.note("replay", "end of the record")

    def event(self, event):
        if event[0] in ("illegal", "fault", "error") and not self.warned:
            self.warned = True
            self.link.note("replay", "board departs from the record at move %d: %s" % (
                self.next, event[1]))
