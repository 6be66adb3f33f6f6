"""Review mode: a kept game stepped through at the board, and played on
from any move as a new variation.  Loaded only in review mode (New held
twice: the study mode's problems, then this; held New again leaves) and
let go of afterwards.

The record's main line is read once (sgf.parse) into an array of two
bytes a move.  The referee holds the position: a step forward is the
record's next move made as an engine's (lit to be placed, its prisoners lit
to be lifted); a step back is a take-back (the stone lit to be lifted, its
prisoners to be put back).  Placing the record's next move by hand steps
forward too.  Any other stone of the side to move starts a variation from
that move; Confirm keeps it as a new record (the next NNNN.sgf): the main
line with the variation beside it as an SGF variation.  The game reviewed
is never written.

Buttons: New the next move, Pass the move before, held Pass the game kept
before this one (from the oldest: the newest), Confirm keeps the
variation (with none: on to the position before the next move an engine
marked, GC[gogadget-drops: N ...], `gogadget hint --drops`), held New
leaves review mode (a new game).
"""
from gogadget import journal as jn
from gogadget.board import OK
from gogadget.compat import forget, zeros
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN, BTN_STUDY
from gogadget.points import PASS, sgf_coord, vertex

_LETTER = "?BW"  # SGF's colour letters, by colour


class Review:
    """The review mode of one referee (ref.study while it is on)."""

    def __init__(self, ref):
        self.ref = ref
        self.store = ref.journal.dir if ref.journal is not None else ref.config.store
        self.name = ""
        self.moves = zeros("H", 0)  # colour << 14 | point of the main line
        self.drops = zeros("H", 0)  # moves an engine marked (GC[gogadget-drops: ...])
        self.root = ""  # the record's first node, as SGF text (properties kept)
        self.at = 0  # moves of the main line on the board
        self.branch = -1  # the move the variation starts from (-1: none)
        self.state = 5  # (host_sim/faces/nextstep.py reads study.state: 5 is review)

    def say(self, text):
        self.ref.event("review", text)

    def open(self):
        names = jn.game_names(self.store)
        if not names:
            self.say("no kept games to review in %s/" % self.store)
            return
        self.go(names[-1])

    def go(self, name):
        ref = self.ref
        try:
            with open(self.store + "/" + name) as f:
                text = f.read()
            from gogadget import sgf
            g = sgf.parse(text)
            sgf = None
            forget("sgf", "sgfread")
            text = None
            if g.size != ref.size:
                raise ValueError("a %dx%d game: the board is %dx%d"
                                 % (g.size, g.size, ref.size, ref.size))
        except (OSError, ValueError, MemoryError) as exc:
            self.say("%s cannot be reviewed: %s" % (name, exc))
            return
        self.name = name
        moves = zeros("H", len(g.moves))
        for i in range(len(g.moves)):
            colour, pt = g.moves[i]
            moves[i] = colour << 14 | pt
        self.moves = moves
        gc = g.props.get("GC")
        marked = gc[0].split()[1:] if gc and gc[0].startswith("gogadget-drops:") else ()
        self.drops = zeros("H", len(marked))
        for i in range(len(marked)):
            self.drops[i] = int(marked[i])
        root = ";"
        for key in g.props:
            if key != "B" and key != "W":  # (a move in the first node is in moves)
                root += key
                for v in g.props[key]:
                    root += "[" + v.replace("\\", "\\\\").replace("]", "\\]") + "]"
        self.root = root
        setup = g.setup
        first = g.moves[0][0] if g.moves else 1
        g = None
        ref.start(ref.size, ref.komi, 0, ref.config.preset)
        for colour, pt in setup:
            ref.setup_stone(colour, pt)
        ref.board.first = first
        ref.log.header(ref)
        ref.sync_want()
        self.at = 0
        self.branch = -1
        self.say("review %s: %d moves; set the start up, then New steps forward, Pass back"
                 % (name, len(moves)))
        ref.dirty = True
        ref.refresh()

    # -- the board -----------------------------------------------------------

    def follow(self, now_ms):
        """After each scan: a move made by hand is a step forward (the
        record's) or a variation (another)."""
        ref = self.ref
        n = ref.board.moves
        if self.branch < 0:
            if n > self.at:
                colour, pt = ref.board.move(self.at)
                if self.at < len(self.moves) and self.moves[self.at] == colour << 14 | pt:
                    self.at += 1
                else:
                    self.branch = self.at
                    self.say("a variation from move %d: Confirm keeps it as a new record"
                             % self.at)
            elif n < self.at:
                self.at = n
        elif n <= self.branch:
            self.branch = -1  # taken back to where it left the record
            self.at = n
            self.say("back on the record at move %d" % n)

    def press(self, key, now_ms):
        ref = self.ref
        if key == BTN_STUDY:
            self.leave()
            return True
        if key == BTN_NEW:
            if self.branch >= 0:
                self.say("in a variation: Confirm keeps it, Pass steps back")
            elif self.at < len(self.moves):
                code = self.moves[self.at]
                if ref.external_move(code >> 14, code & 0x3FFF) == OK:
                    self.at += 1
                    self.say("move %d: %s %s" % (self.at, _LETTER[code >> 14],
                                                 vertex(ref.size, code & 0x3FFF)))
            else:
                self.say("the end of the record (%d moves)" % len(self.moves))
        elif key == BTN_PASS:
            if ref.board.moves:
                ref.undo()
                self.follow(now_ms)
                self.say("move %d" % ref.board.moves)
        elif key == BTN_RESIGN:
            names = jn.game_names(self.store)
            older = [n for n in names if n < self.name]
            if names:
                self.go(older[-1] if older else names[-1])
        elif key == BTN_CONFIRM:
            if ref.takeback or ref.ask_stuck >= 0:
                return False
            if self.branch >= 0:
                self.keep()
            else:
                self.jump()
        else:
            return False
        ref.dirty = True
        ref.refresh()
        return True

    def jump(self):
        """Confirm with no variation: on to the position before the next
        move an engine marked (host_sim/base/hints.py, mark_drops)."""
        ref = self.ref
        for k in self.drops:
            if k - 1 > self.at:
                while self.at < k - 1:
                    code = self.moves[self.at]
                    if ref.external_move(code >> 14, code & 0x3FFF) != OK:
                        break
                    self.at += 1
                self.say("before move %d, marked by the engine: New plays it" % k)
                return
        self.say("no marked move ahead" if len(self.drops) else
                 "no variation to keep: play a stone of the side to move")

    def keep(self):
        """The record with the variation as a new file; the original stays."""
        ref = self.ref
        size = ref.size
        parts = ["(", self.root]
        for i in range(self.branch):
            parts.append(self._node(self.moves[i]))
        parts.append("(")
        for i in range(self.branch, len(self.moves)):
            parts.append(self._node(self.moves[i]))
        parts.append(")(")
        for i in range(self.branch, ref.board.moves):
            colour, pt = ref.board.move(i)
            parts.append(self._node(colour << 14 | pt))
        parts.append("C[a variation at the board from move %d])" % self.branch)
        parts.append(")\n")
        try:
            name = jn.save_game(self.store, "".join(parts))
        except OSError as exc:
            self.say("variation not kept: %s" % exc)
            return
        self.say("variation kept as %s (%s unchanged)" % (name, self.name))
        size = None

    def _node(self, code):
        pt = code & 0x3FFF
        return ";%s[%s]" % (_LETTER[code >> 14], "" if pt == PASS else
                            sgf_coord(self.ref.size, pt))

    def leave(self):
        ref = self.ref
        ref.study = None
        ref.event("review", "review mode off: a new game")
        ref.new_game(handicap=ref.config.handicap)
        forget("review")


def start(ref):
    """Review mode on (held New in study mode)."""
    ref.study = Review(ref)
    ref.event("review", "review mode: New next move, Pass back, held Pass the game before, "
                        "Confirm keeps a variation, held New leaves")
    ref.study.open()
