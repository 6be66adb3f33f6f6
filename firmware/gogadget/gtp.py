"""GTP version 2 engine on the rules core.

The engine is a referee, not a player: it keeps the position, checks
legality, counts and reads/writes SGF, so programs and people can drive the
board with the Go Text Protocol.  `python -m gogadget.gtp` and
`micropython -m gogadget.gtp` run the same file on stdin/stdout.

The command table is a dict (`Engine.commands`, name -> handler taking the
argument list and returning the response text or raising GtpError), so
link.py can subclass Engine and add or replace commands for the physical
board.  A handler given as "MODULE:NAME" is the function NAME of
gogadget.MODULE, called with the engine first: the rarer commands live in
gtpmore.py and leave a board's heap again once they have answered.
"""
import os
import sys

from gogadget import describe
from gogadget.points import PASS, MIN_SIZE, MAX_SIZE, parse_colour, parse_vertex
from gogadget.rules import Rules, DEFAULT_PRESET
from gogadget.board import Board, OK, REASONS
from gogadget.compat import forget

PROTOCOL_VERSION = "2"
NAME = "GoGadget"


class GtpError(Exception):
    """A command failed; the message is the GTP error text."""


def _clean(line):
    """GTP 3.1 preprocessing: control characters go (except HT and LF),
    comments go, tabs become spaces.  Bytes are accepted; bytes that are not
    UTF-8 become '?' so junk can never raise."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = line.decode("utf-8")
        except UnicodeError:
            line = "".join(chr(b) if b < 128 else "?" for b in line)
    out = []
    for ch in line:
        o = ord(ch)
        if ch == "#":
            break
        if ch == "\t":
            out.append(" ")
        elif o >= 32 and o != 127:
            out.append(ch)
    return "".join(out).strip()


def _int(text):
    t = text[1:] if text[:1] in "+-" else text
    if not t.isdigit():
        raise GtpError("syntax error")
    return int(text)


def _float(text):
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error")
    if value != value or value in (float("inf"), float("-inf")):
        raise GtpError("syntax error")
    return value


class Engine:
    """GTP engine state: one board, its rules, komi and dead-stone marks."""

    def __init__(self, size=19, preset=DEFAULT_PRESET, folder="."):
        self.rules = Rules(preset)
        self.komi = None  # None: the preset's komi; set by the komi command
        if not folder.startswith("/"):
            # Absolute, so an absolute file name inside the folder is accepted.
            cwd = os.getcwd().rstrip("/")
            folder = cwd if folder in (".", "./", "") else cwd + "/" + folder
        self.folder = folder.rstrip("/") or "/"
        self.dead = []  # points marked dead for final_score
        self.done = False
        self.board = None
        self._new_board(size)
        self.commands = {
            "protocol_version": self.cmd_protocol_version,
            "name": self.cmd_name,
            "version": self.cmd_version,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "undo": self.cmd_undo,
            "showboard": "gtpmore:cmd_showboard",
            "fixed_handicap": "gtpmore:cmd_fixed_handicap",
            "set_free_handicap": "gtpmore:cmd_set_free_handicap",
            "final_score": self.cmd_final_score,
            "loadsgf": "gtpmore:cmd_loadsgf",
            "printsgf": "gtpmore:cmd_printsgf",
            "is_legal": self.cmd_is_legal,
            "captures": self.cmd_captures,
            "list_stones": "gtpmore:cmd_list_stones",
            "genmove": self.cmd_genmove,
            "kgs-rules": "gtpmore:cmd_kgs_rules",
            "gogadget-rules": "gtpmore:cmd_rules",
            "gogadget-set-rule": "gtpmore:cmd_set_rule",
            "gogadget-rules-info": "gtpmore:cmd_rules_info",
            "gogadget-dead": "gtpmore:cmd_dead",
        }

    # -- protocol -----------------------------------------------------------

    def handle(self, line):
        """One command line -> the full response text ("" for blank lines)."""
        words = _clean(line).split()
        if not words:
            return ""
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
        if not words:
            return "?" + ident + " syntax error\n\n"
        handler = self.commands.get(words[0])
        if handler is None:
            return "?" + ident + " unknown command\n\n"
        try:
            if isinstance(handler, str):
                result = self.rare(handler, words[1:])
            else:
                result = handler(words[1:])
        except GtpError as e:
            return "?" + ident + " " + str(e) + "\n\n"
        except (ValueError, IndexError) as e:
            # A handler's own check missed something: still answer, never die.
            return "?" + ident + " syntax error" + (": " + str(e) if str(e) else "") + "\n\n"
        # An empty line would end the response early: never send one inside.
        result = (result or "").rstrip()
        while "\n\n" in result:
            result = result.replace("\n\n", "\n")
        return "=" + ident + " " + result + "\n\n"

    def rare(self, handler, args):
        """Run a "MODULE:NAME" handler: the module is loaded for the call and
        let go afterwards (compat.forget), so it costs the heap nothing
        between calls."""
        mod, name = handler.split(":")
        fn = getattr(getattr(__import__("gogadget." + mod), mod), name)
        try:
            return fn(self, args)
        finally:
            fn = None
            forget(mod, "gtpmore", "sgf", "sgfread")  # and what it loaded

    # -- helpers for handlers -------------------------------------------------

    def _new_board(self, size):
        self.board = Board(size, ko=self.rules.ko, suicide=self.rules.suicide)
        self.dead = []

    def _apply_rules(self):
        self.board.ko = self.rules.ko
        self.board.suicide = self.rules.suicide

    def current_komi(self):
        return self.rules.komi if self.komi is None else self.komi

    def _args(self, args, low, high=None):
        if len(args) < low or len(args) > (low if high is None else high):
            raise GtpError("syntax error")

    def _colour(self, text):
        try:
            return parse_colour(text)
        except ValueError:
            raise GtpError("syntax error")

    def _vertex(self, text):
        try:
            return parse_vertex(self.board.size, text)
        except ValueError:
            raise GtpError("syntax error")

    # -- commands -------------------------------------------------------------

    def cmd_protocol_version(self, args):
        return PROTOCOL_VERSION

    def cmd_name(self, args):
        return NAME

    def cmd_version(self, args):
        return describe()

    def cmd_known_command(self, args):
        self._args(args, 1)
        return "true" if args[0] in self.commands else "false"

    def cmd_list_commands(self, args):
        # Sorted: dict order differs between interpreters.
        return "\n".join(sorted(self.commands))

    def cmd_quit(self, args):
        self.done = True
        return ""

    def cmd_boardsize(self, args):
        self._args(args, 1)
        size = _int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self._new_board(size)
        return ""

    def cmd_clear_board(self, args):
        self._new_board(self.board.size)
        return ""

    def cmd_komi(self, args):
        self._args(args, 1)
        self.komi = _float(args[0])
        return ""

    def cmd_play(self, args):
        self._args(args, 2)
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        if pt == PASS:
            self.board.pass_move(colour)
        else:
            reason = self.board.play(colour, pt)
            if reason != OK:
                raise GtpError("illegal move: " + REASONS[reason])
        self.dead = []
        return ""

    def cmd_undo(self, args):
        if not self.board.undo():
            raise GtpError("cannot undo")
        self.dead = []
        return ""

    def cmd_final_score(self, args):
        try:
            from gogadget import score
        except ImportError:
            raise GtpError("cannot score")
        return score.count(self.board, self.rules, dead=self.dead, komi=self.current_komi()).result

    def cmd_is_legal(self, args):
        self._args(args, 2)
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        if pt == PASS:
            return "1"
        return "1" if self.board.legal(colour, pt) == OK else "0"

    def cmd_captures(self, args):
        self._args(args, 1)
        return str(self.board.prisoners[self._colour(args[0])])

    def cmd_genmove(self, args):
        raise GtpError("cannot generate moves")


if __name__ == "__main__":
    # The command line is gtpmore's; its Engine is the imported gogadget.gtp's
    # (this file run as __main__ is a second copy with classes of its own).
    from gogadget import gtpmore
    sys.exit(gtpmore.main())
