"""A game relayed between a board and a GTP engine until the board's count is confirmed; the engine checked."""
import os
import shlex
import shutil
import time

from gogadget import sgf as sgf_mod
from gogadget.points import BLACK, WHITE
from host_sim.base import enginetime
from host_sim.base.serialport import GtpError, status_words

COUNT_POLL_S = 0.2  # how often the relay asks the board whether the count is confirmed
WORDS = {BLACK: "black", WHITE: "white"}


def colour_word(colour):
    return WORDS[colour]


def move_word(move):
    """One spelling in every log: "pass", "resign" or an upper-case vertex."""
    m = move.strip()
    return m.lower() if m.lower() in ("pass", "resign") else m.upper()


class GameOutcome(tuple):
    """(moves, result, engine_says): moves as (colour, vertex) relayed; result
    the board's own (its confirmed count, or a resignation); engine_says the
    engine's final_score when it differs from the board's, else ""."""

    def __new__(cls, moves, result, engine_says=""):
        return tuple.__new__(cls, (moves, result, engine_says))

    moves = property(lambda self: self[0])
    result = property(lambda self: self[1])
    engine_says = property(lambda self: self[2])


def _resume_engine(board, eng, size, log, status, where=""):
    """If the board holds an unfinished game of this size (resumed after a
    restart, as the board does after a power cut), bring the engine to it;
    returns (turn, passes, moves) to go on from, or None to start a new game."""
    if status.get("phase") not in ("play", "count", "resume") or status.get("size") != str(size):
        return None
    if int(status.get("moves", "0")) == 0:
        return None
    game = sgf_mod.parse(board.send("gogadget-sgf"))
    eng.send("boardsize %d" % size)
    eng.send("clear_board")
    eng.send("komi %s" % game.komi)
    from gogadget.points import vertex
    for colour, pt in game.setup:
        eng.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
    passes = 0
    for colour, pt in game.moves:
        eng.send("play %s %s" % ("b" if colour == BLACK else "w", vertex(size, pt)))
        passes = passes + 1 if pt == 0 else 0
    turn = BLACK if status.get("turn", "B")[:1].upper() == "B" else WHITE
    if log is not None:
        # Never silently: the record will start where that game started.
        log("resuming the game kept on the board at move %d (%s to play%s; --new starts "
            "a new game instead)" % (len(game.moves) + 1, WORDS[turn].capitalize(),
                                     ", kept in " + where if where else ""))
    return turn, passes, len(game.moves)


def _keep_unfinished(board, status, log):
    """A new game over an unfinished one (--new, another size): GTP's
    boardsize and clear_board drop it on the board, so the host keeps its
    record (nothing a person played is lost)."""
    if status.get("phase") not in ("play", "count", "resume") or status.get("moves", "0") == "0":
        return None
    from host_sim import data_dir
    folder = data_dir("unfinished")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, time.strftime("%Y%m%d-%H%M%S") + "-game%s.sgf"
                        % status.get("game", ""))
    with open(path, "w") as f:
        f.write(board.send("gogadget-sgf") + "\n")
    if log is not None:
        log("a new game; the unfinished one (%s moves) is saved as %s"
            % (status.get("moves"), path))
    return path


def wait_for_count(board, log=None, waiting=None):
    """After two passes: the person lifts the dead stones and presses
    Confirm at the board.  Returns the board's phase when that is done
    ("over"), "play" when a stone put down resumed the game, or "new" when
    New game was pressed instead."""
    if log is not None:
        log("two passes: lift the dead stones at the board, then press Confirm")
    if waiting is not None:
        waiting(True)
    try:
        while True:
            status = status_words(board.send("gogadget-status"))
            phase = status.get("phase")
            if phase in ("over", "play", "setup"):
                if phase != "over" and status.get("moves") == "0":
                    return "new"  # New game pressed while counting
                return phase
            time.sleep(COUNT_POLL_S)
    finally:
        if waiting is not None:
            waiting(False)


def board_clock(board):
    """The board's clock (gogadget-clock) as a dict, or None without one
    (or from a board too old to have one)."""
    try:
        words = board.send("gogadget-clock").split()
    except GtpError:
        return None
    if len(words) != 11:
        return None
    system, main, period, n, running, paused, flagged = words[:7]
    return {"system": system, "main": int(main), "period": int(period), "n": int(n),
            "running": running, "paused": paused == "1", "flagged": flagged,
            "B": (int(words[7]), int(words[8])), "W": (int(words[9]), int(words[10]))}


def tell_engine_time_settings(eng, clock):
    """The board's time control to the engine (enginetime.tell_settings):
    the command it took, or "" (it plays without)."""
    return enginetime.tell_settings(eng, clock)


def tell_engine_time_left(board, eng, colour, told=enginetime.KGS):
    """time_left for the engine's colour, from the board's clock, before
    its genmove: the engine plays on the board's clock
    (enginetime.time_left_line; told: what tell_engine_time_settings took)."""
    clock = board_clock(board)
    if clock is None:
        return
    try:
        eng.send(enginetime.time_left_line(clock, colour, told))
    except GtpError:
        pass


def play_game(board, eng, person, size, komi, handicap=0, max_moves=0, log=None,
              count=True, resume=True, waiting=None, where="", timing=None):
    """Relay a game between the board (the person plays `person`) and a GTP
    engine until two passes in a row or a resignation, then (count=True)
    wait for the count confirmed at the board.  Returns a GameOutcome.
    resume=False: a new game even when the board holds an unfinished one
    (the board keeps that one as a file); where: the board's store, named
    when its game is resumed; timing: --time's settings
    (enginetime.time_settings) for a new game (a resumed one keeps its
    clock)."""
    moves = []
    turn = BLACK
    passes = 0
    before = 0  # moves of a resumed game, so the log numbers the board's moves
    status = status_words(board.send("gogadget-status"))
    resumed = _resume_engine(board, eng, size, log, status, where) if resume else None
    if resumed is not None:
        turn, passes, before = resumed
    else:
        _keep_unfinished(board, status, log)
        # On the board, boardsize and clear_board each start a new game
        # (and say so): one of them, once.
        if status.get("size") == str(size):
            board.send("clear_board")
        else:
            board.send("boardsize %d" % size)
        eng.send("boardsize %d" % size)
        eng.send("clear_board")
        for client in (board, eng):
            client.send("komi %s" % komi)
        if handicap:
            stones = board.send("fixed_handicap %d" % handicap)
            eng.send("set_free_handicap " + stones)
            turn = WHITE
        if timing:
            enginetime.set_board(board, timing)
    if timing and resumed is not None and log is not None:
        log("the resumed game keeps its own clock (--new starts one on --time's)")
    clock = board_clock(board)
    timed = tell_engine_time_settings(eng, clock) if clock is not None else ""
    result = ""
    while True:
        if passes < 2:
            c = "b" if turn == BLACK else "w"
            if turn == person:
                try:
                    mv = board.send("genmove " + c)
                except GtpError as exc:
                    if "new game" not in str(exc):
                        raise
                    # New game pressed at the board: the board keeps the
                    # unfinished game as a file; this relay ends here.
                    if log is not None:
                        log("a new game was started at the board: this game stops here")
                    return GameOutcome(moves, "", "")
                if mv.lower() != "resign":
                    eng.send("play %s %s" % (c, mv))
            else:
                if timed:
                    tell_engine_time_left(board, eng, turn, timed)
                mv = eng.send("genmove " + c)
                if mv.lower() != "resign":
                    board.send("play %s %s" % (c, mv))
            mv = move_word(mv)
            moves.append((turn, mv))
            if log is not None:
                log("%d. %s %s" % (before + len(moves), colour_word(turn), mv))
            if mv == "resign":
                result = ("W" if turn == BLACK else "B") + "+R"
                break
            passes = passes + 1 if mv == "pass" else 0
            if max_moves and len(moves) >= max_moves and passes < 2:
                break
            turn = 3 - turn
            if passes < 2:
                continue
        if not count:
            break
        after = wait_for_count(board, log, waiting)
        if after == "over":
            break
        if after == "new":
            if log is not None:
                log("a new game was started at the board: this game stops here")
            return GameOutcome(moves, "", "")
        # A stone put down while counting resumed play: go on from the board.
        status = status_words(board.send("gogadget-status"))
        turn = BLACK if status.get("turn", "B")[:1].upper() == "B" else WHITE
        passes = 0
        if log is not None:
            log("play resumed on the board")
    engine_says = ""
    if passes >= 2:
        try:
            result = board.send("final_score") if count else ""
        except GtpError:
            result = ""
        try:
            theirs = eng.send("final_score")
        except GtpError:
            theirs = ""
        if theirs and theirs != result:
            engine_says = theirs
    return GameOutcome(moves, result, engine_says)


def check_engine(command):
    """A clear error now rather than a dead thread later."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError("engine command: %s" % exc)
    if not argv:
        raise ValueError("engine command is empty")
    if shutil.which(argv[0]) is None:
        raise ValueError(engine_not_found(argv))
    return argv


GAMES_DIR = "/usr/games"  # where Debian installs GNU Go: not on a user's PATH by default


def engine_not_found(argv):
    """Say where the engine is (or how to get GNU Go), not only that it is not here."""
    name = argv[0]
    there = os.path.join(GAMES_DIR, os.path.basename(name))
    if "/" not in name and os.access(there, os.X_OK):
        return ("engine %r is not on PATH, but Debian has put it in %s: --engine %s"
                % (name, GAMES_DIR, shlex.quote(" ".join([there] + argv[1:]))))
    return ("engine %r not found; for GNU Go: apt-get install gnugo, then "
            "--engine '%s/gnugo --mode gtp' (Debian puts it in %s, which is not on "
            "PATH)" % (name, GAMES_DIR, GAMES_DIR))
