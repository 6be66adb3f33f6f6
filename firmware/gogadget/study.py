"""Study mode: problems on the board alone.

A problem collection is a folder of SGF files on the flash (`problems/`
beside the games' folder; config.problems, where set, names another),
each read by tsumego.py.  This module, and the reader, are loaded only in
study mode (held New turns it on and off: referee.py) and let go of
afterwards: a game never holds them.

The problem's stones are lit to be set up (the referee's "setup" phase);
once they stand, the person plays the side to move.  A move found in the
tree is answered with the tree's reply, lit to be placed, as an engine's
move is; a move that ends a correct line shows the "right" figure (a
steady green ring round the board's edge), one off the tree or on a line
not marked correct the "wrong" figure (a red cross blinking over the
board), each for VERDICT_MS, until the next stone moves.  No prompt of a
game draws either shape.

Buttons in study mode: New the next problem, Pass the previous one
(both wrap round), held Pass sets the problem up again, Confirm takes back
a wrong try (the lights ask for the stones to be lifted; after a right
one it goes on to the next problem), held New goes on to review mode
(review.py: a kept game stepped through; held New there ends study, a new
game).  A take-back by the board's own gesture (lift the last stone,
Confirm) works as in a game.

Progress (solved, tries, the current problem) is kept in the folder's
progress.txt, written whole (a new file, then renamed) at each verdict
and each change of problem: a power cut loses at most the try under way.
While study mode is on, a file "study" beside the journal says so: a
board whose power went comes back in study mode at the problem it was
on (position.resume), not with the problem's stones as a game.
"""
import os

from gogadget.board import OK
from gogadget.compat import const, forget
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN, BTN_STUDY
from gogadget.journal import _replace, _sync, _exists
from gogadget.points import vertex
from gogadget.tsumego import F_KID, F_LINE, F_RIGHT, read

PROGRESS = "progress.txt"
VERSION = "gogadget-study 1"
VERDICT_MS = const(3000)
_P_RIGHT = const(16)  # signals._P_RIGHT: the solved ring
_P_WRONG = const(17)  # signals._P_WRONG: the wrong cross
# Study.state
S_NONE = const(0)  # no problem to show (an empty folder, a file that cannot be read)
S_SETUP = const(1)  # the problem's stones are being set up
S_SOLVING = const(2)  # the person's move
S_RIGHT = const(3)  # solved; stones put now are free play
S_WRONG = const(4)  # a wrong try: Confirm takes it back
_WHO = ("", "Black", "White")  # by colour: what the person is told


def folder(ref):
    """The problems' folder: config.problems, else problems/ beside the
    games' folder (on the board: /problems; host_sim/sim/study.py's sim_folder)."""
    f = getattr(ref.config, "problems", None)
    if f:
        return f
    store = ref.journal.dir if ref.journal is not None else ref.config.store
    cut = store.rstrip("/").rfind("/")
    return store[:cut + 1] + "problems"


def _sgf_names(path):
    """The problem files' names in the folder (a generator: no list of a
    big collection on the heap)."""
    lister = getattr(os, "ilistdir", None)
    try:
        entries = lister(path) if lister is not None else os.listdir(path)
    except OSError:
        return
    for e in entries:
        name = e if isinstance(e, str) else e[0]
        if name[-4:].lower() == ".sgf":
            yield name


def neighbour(path, cur, step):
    """The problem after (step 1) or before (step -1) cur in name order,
    wrapping round; cur "": the first (or the last).  None: no problems."""
    best = end = None
    for name in _sgf_names(path):
        if step > 0:
            if name > cur and (best is None or name < best):
                best = name
            if end is None or name < end:
                end = name
        else:
            if (not cur or name < cur) and (best is None or name > best):
                best = name
            if end is None or name > end:
                end = name
    return best if best is not None else end


def rank(path, name):
    """(number of name in order, from 1; problems in the folder)."""
    before = total = 0
    for other in _sgf_names(path):
        total += 1
        if other < name:
            before += 1
    return before + 1, total


def read_progress(path, name):
    """(current problem, solved, tries of name) from progress.txt; a file
    of another version is kept aside (progress.old) and counts as none."""
    cur = ""
    solved = tries = 0
    try:
        f = open(path + "/" + PROGRESS)
    except OSError:
        return cur, solved, tries
    with f:
        first = f.readline().strip()
        if first != VERSION:
            f.close()
            try:
                _replace(path + "/" + PROGRESS, path + "/progress.old")
            except OSError:
                pass
            return cur, solved, tries
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("current "):
                cur = line[8:]
                continue
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[2] == name:
                try:
                    solved, tries = int(parts[0]), int(parts[1])
                except ValueError:
                    pass  # a damaged line counts as none
    return cur, solved, tries


def write_progress(path, cur, name, solved, tries):
    """progress.txt with the current problem and name's figures, the other
    problems' lines copied: a new file, then renamed over the old."""
    full = path + "/" + PROGRESS
    tmp = full + ".tmp"
    with open(tmp, "w") as out:
        out.write(VERSION + "\ncurrent " + cur + "\n")
        if name:
            out.write("%d %d %s\n" % (solved, tries, name))
        try:
            f = open(full)
        except OSError:
            f = None
        if f is not None:
            with f:
                if f.readline().strip() == VERSION:
                    for line in f:
                        if line.startswith("current "):
                            continue
                        parts = line.rstrip("\r\n").split(" ", 2)
                        if len(parts) == 3 and parts[2] != name:
                            out.write(line if line.endswith("\n") else line + "\n")
    _sync()
    _replace(tmp, full)
    _sync()


class Study:
    """The study mode of one referee (ref.study while it is on)."""

    def __init__(self, ref):
        self.ref = ref
        self.path = folder(ref)
        self.name = ""
        self.problem = None
        self.state = S_NONE
        self.node = 0  # the tree's node the board's position stands at
        self.seen = 0  # moves of the board's game looked at
        self.tried_at = 0  # the moves before the wrong try
        self.solved = self.tries = 0

    def say(self, text):
        self.ref.event("study", text)

    # -- problems ------------------------------------------------------------

    def open(self):
        """Study mode starts at the problem it was left at."""
        cur = read_progress(self.path, "")[0]
        if cur:
            try:
                os.stat(self.path + "/" + cur)
            except OSError:
                cur = ""
        self.go(cur or neighbour(self.path, "", 1))

    def go(self, name):
        """Set up problem `name` (None: there are none)."""
        ref = self.ref
        self.problem = None
        self.state = S_NONE
        if name is None:
            self.name = ""
            self.say("no problems in %s/: push some SGF files there" % self.path)
            return
        self.name = name
        cur, self.solved, self.tries = read_progress(self.path, name)
        if cur != name:
            self._save()
        number, total = rank(self.path, name)
        try:
            p = read(self.path + "/" + name, ref.size)
        except (ValueError, OSError, MemoryError) as exc:
            self.say("problem %d of %d, %s: cannot be used: %s" % (number, total, name, exc))
            return
        self.problem = p
        # A fresh position in the referee: the lights ask for the set-up.
        ref.start(ref.size, ref.komi, 0, ref.config.preset)
        for k in range(len(p.stones)):
            code = p.stones[k]
            ref.setup_stone(code >> 14, code & 0x3FFF)
        ref.board.first = p.first
        ref.log.header(ref)
        ref.sync_want()
        self.node = self.seen = 0
        self.state = S_SETUP
        self.say("problem %d of %d, %s (%s): set up %d stones; %s to play" % (
            number, total, name,
            "solved" if self.solved else "tried %d times" % self.tries if self.tries
            else "new", len(p.stones), _WHO[p.first]))
        ref.dirty = True
        ref.refresh()

    def _save(self):
        try:
            write_progress(self.path, self.name, self.name, self.solved, self.tries)
        except OSError as exc:
            self.say("progress not kept: %s" % exc)

    # -- the board -----------------------------------------------------------

    def follow(self, now_ms):
        """After each scan: the moves the board took, judged against the
        tree (allocates nothing while nothing happened)."""
        ref = self.ref
        st = self.state
        if st == S_SETUP:
            if ref.phase == "play":
                self.state = S_SOLVING
                self.seen = ref.board.moves
                self.say("set up: %s to play" % _WHO[ref.board.to_move()])
            return
        moves = ref.board.moves
        if moves == self.seen or st == S_NONE:
            return
        if moves < self.seen:  # a take-back
            self._resync()
            return
        if st != S_SOLVING:
            self.seen = moves  # after the verdict: free play
            return
        p = self.problem
        m = self.seen
        colour, pt = ref.board.move(m)
        self.seen = m + 1
        k = p.child(self.node, colour, pt)
        if k < 0:
            self._verdict(False, m, "%s is not in the problem's answers" % vertex(ref.size, pt))
            return
        self.node = k
        if p.flags[k] & F_RIGHT:
            self._verdict(True, m, "")
            return
        r = p.reply(k)
        if r >= 0:
            code = ref.external_move(p.colour(r), p.pt(r))
            self.seen = ref.board.moves
            if code != OK:
                self._verdict(False, m, "the tree's answer %s is not legal here"
                              % vertex(ref.size, p.pt(r)))
                return
            self.node = r
            self.say("answer: %s %s (lit: put it down)" % (_WHO[p.colour(r)],
                                                            vertex(ref.size, p.pt(r))))
        if not p.flags[k] & F_LINE:
            self._verdict(False, m, "")
        elif r >= 0 and p.flags[r] & F_RIGHT or not p.flags[self.node] & F_KID:
            self._verdict(True, m, "")

    def _resync(self):
        """The tree's node for the board's moves (after a take-back)."""
        ref = self.ref
        p = self.problem
        node = 0
        state = S_SOLVING
        for m in range(ref.board.moves):
            colour, pt = ref.board.move(m)
            node = p.child(node, colour, pt)
            if node < 0:
                node = 0
                state = S_WRONG
                break
        self.node = node
        self.seen = ref.board.moves
        self.state = state
        if state == S_SOLVING:
            self.say("%s to play" % _WHO[ref.board.to_move()])

    def _verdict(self, right, m, why):
        ref = self.ref
        self.tries += 1
        if right:
            self.solved = 1
            self.state = S_RIGHT
            self.say("right: solved (New: the next problem)")
        else:
            self.state = S_WRONG
            self.tried_at = m
            self.say("wrong%s (Confirm takes it back)" % (": " + why if why else ""))
        self._save()
        # The figure, in place of the prompts until VERDICT_MS or the next change.
        size = ref.size
        n = ref.n
        fig = bytearray(n)
        code = _P_RIGHT if right else _P_WRONG
        for i in range(size):
            if right:
                fig[i] = fig[n - 1 - i] = fig[i * size] = fig[i * size + size - 1] = code
            else:
                fig[i * size + i] = fig[i * size + size - 1 - i] = code
        ref.shown = fig
        ref.shown_until = ref.now + VERDICT_MS
        ref.paint()

    # -- buttons -------------------------------------------------------------

    def press(self, key, now_ms):
        """A button in study mode; False: the game's meaning (the referee's)."""
        ref = self.ref
        if key == BTN_STUDY:
            self.leave()  # to review mode
            return True
        if key == BTN_NEW:
            self.go(neighbour(self.path, self.name, 1))
        elif key == BTN_PASS:
            self.go(neighbour(self.path, self.name, -1))
        elif key == BTN_RESIGN:
            if self.problem is not None:
                self.go(self.name)
        elif key == BTN_CONFIRM:
            if ref.takeback or ref.ask_stuck >= 0:
                return False  # the board's own take-back, a stuck sensor
            if self.state == S_WRONG:
                while ref.board.moves > self.tried_at:
                    ref.undo()
                self._resync()
                self.say("taken back: lift the lit stones; %s to play"
                         % _WHO[ref.board.to_move()])
            elif self.state == S_RIGHT:
                self.go(neighbour(self.path, self.name, 1))
            else:
                return False
        else:
            return False
        ref.dirty = True
        ref.refresh()
        return True

    def leave(self):
        """The problems end: this module and the reader let go of, review
        mode (review.py) next."""
        ref = self.ref
        _mark(ref, False)
        ref.study = None
        self.problem = None
        ref.event("study", "problems off: review mode")
        forget("study", "tsumego")
        __import__("gogadget.review", None, None, ("start",)).start(ref)


def start(ref):
    """Study mode on (held New): the unfinished game is kept first, as New
    and Confirm keep it."""
    if ref.board.moves and ref.phase in ("play", "count"):
        from gogadget import ending
        ending.keep(ref, "unfinished")
    _mark(ref, True)
    ref.study = Study(ref)
    ref.event("study", "study mode: New next, Pass previous, held Pass again, "
                       "Confirm takes back, held New leaves")
    ref.study.open()


def resume(ref):
    """At the start after a power cut in study mode: study mode on again,
    at the problem progress.txt names (its stones asked for anew; a try
    under way is lost).  Returns 0, the game's moves resumed."""
    ref.study = Study(ref)
    ref.event("study", "study mode again after a power cut")
    ref.study.open()
    return 0


def _mark(ref, on):
    """The file beside the journal that says study mode is on (read at the
    start by position.resume)."""
    if ref.journal is None:
        return
    path = ref.journal.dir + "/" + "study"  # (position.resume's look)
    try:
        if on:
            open(path, "w").close()
        elif _exists(path):
            os.remove(path)
        _sync()
    except OSError as exc:
        ref.event("study", "study mode not kept across a power cut: %s" % exc)
