"""The simulator's games outlive it, as a board's outlive a power cut (issue
27, item 1): `make sim` (python -m host_sim) keeps its games and the journal
of the game on it in the user's data folder, says the full path of a kept
game, and resumes an unfinished one at the next start (--new, or another
--size, starts a new game; the board keeps the unfinished one first).  One
folder is one simulator's: a second one on it is a clear error."""
import os
import re
import subprocess
import sys
import time

from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT


def make_sim(script, *args):
    """`make sim SIM_ARGS="--tui ..."`, as the Makefile runs it, with a
    piped script of the person's actions."""
    return subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--no-color", *args],
                          cwd=ROOT, input=script, capture_output=True, text=True, timeout=120)


def store():
    return os.path.join(os.environ["XDG_DATA_HOME"], "gogadget", "sim-store")


def moves(path):
    game = sgfmill_sgf.Sgf_game.from_bytes(open(path, "rb").read())
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        out.append((colour, move))
    return game.get_size(), out


def test_a_kept_game_is_found_again_after_quitting_and_an_unfinished_one_resumed():
    folder = store()
    # An unfinished game, then Quit: kept, and the person is told where.
    r = make_sim("put b E5\nput w C3\nquit\n", "--size", "9")
    assert r.returncode == 0, r.stderr
    assert "the unfinished game (2 moves) is kept in %s" % folder in r.stderr
    # The next start resumes it, and says from where; the game goes on to its count.
    r = make_sim("put b D4\npass\npass\nconfirm\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "event resume: resumed 2 moves of a 9x9 game kept in %s" % folder in r.stdout
    kept = os.path.join(folder, "0001.sgf")
    assert "event prompt: game kept as %s\n" % kept in r.stdout  # the full path
    assert "unfinished" not in r.stderr
    # After quitting, the game the board said it kept is there, whole.
    size, played = moves(kept)
    assert size == 9
    assert played == [("b", (4, 4)), ("w", (2, 2)), ("b", (3, 3)), ("w", None), ("b", None)]
    # --new: a new game over the finished one (its result shown again
    # meanwhile), then over an unfinished one, which the board keeps first.
    r = make_sim("put b E5\nquit\n", "--new")
    assert r.returncode == 0, r.stderr
    assert "the unfinished game (1 move) is kept" in r.stderr
    r = make_sim("show\nquit\n", "--new")
    assert r.returncode == 0, r.stderr
    assert "game kept as %s" % os.path.join(folder, "0002.sgf") in r.stdout
    assert re.search(r"referee: play: move 0\b", r.stdout.split("> show")[1])
    assert moves(os.path.join(folder, "0002.sgf")) == (9, [("b", (4, 4))])  # the kept size
    # Another --size than the kept game's: a new game of that size (the other kept).
    r = make_sim("put b C3\nquit\n", "--size", "9")
    assert "event resume" not in r.stdout  # the same size as the kept game's: no news
    r = make_sim("show\nquit\n", "--size", "13")
    assert r.returncode == 0, r.stderr
    assert "game kept as %s" % os.path.join(folder, "0003.sgf") in r.stdout
    assert "new-game: 13x13" in r.stdout
    assert sorted(n for n in os.listdir(folder) if n.endswith(".sgf")) == \
        ["0001.sgf", "0002.sgf", "0003.sgf"]


def test_a_second_simulator_on_the_same_folder_is_a_clear_error(tmp_path):
    from host_sim.sim import session
    from host_sim.sim.virtual import make_config
    first = session.BoardSim(make_config(size=9), store_dir=store(), live=False)
    try:
        r = make_sim("put b E5\nquit\n")
        assert r.returncode == 2
        assert "the game folder %s is in use by another simulator (pid %d" \
            % (store(), os.getpid()) in r.stderr
        assert "--sim-store DIR" in r.stderr and "Traceback" not in r.stderr
        # Another folder is another board.
        r = make_sim("put b E5\nquit\n", "--store", str(tmp_path / "other"))
        assert r.returncode == 0, r.stderr
    finally:
        first.close()
    r = make_sim("quit\n")  # the folder is free again once the first has quit
    assert r.returncode == 0, r.stderr


def test_a_command_reaches_the_simulator_on_its_folder_and_never_another(tmp_path):
    """Issue 27, item 2: each running simulator is announced with its folder;
    --sim-store DIR reaches the one on DIR only (with none there, the
    command's own board, never another's); without --sim-store, the one
    running, the default folder's among several, else a clear error."""
    from host_sim.sim import session
    from host_sim.sim.virtual import make_config
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    sims = [session.BoardSim(make_config(size=9), store_dir=a)]
    try:
        assert session.live_port(a) == sims[0].live.port
        assert session.live_port(b) is None  # another folder: not this simulator
        assert session.live_port() == sims[0].live.port  # the only one running
        sims.append(session.BoardSim(make_config(size=9), store_dir=b))
        assert session.live_port(b) == sims[1].live.port
        try:
            session.live_port()
            raise AssertionError("two simulators, none on the default folder: which?")
        except session.SimulatorBusy as exc:
            assert "2 simulators are running (on %s, %s): name one with --sim-store DIR" \
                % (os.path.realpath(a), os.path.realpath(b)) in str(exc)
        sims.append(session.BoardSim(make_config(size=9), store_dir=store()))
        assert session.live_port() == sims[2].live.port  # the default folder's
        # A command drives a running simulator alone: a second is told who has it.
        running = session.live_sim(a)
        claim = session.claim_running(running, "gogadget remote as table-1")
        try:
            session.claim_running(running, "gogadget remote as table-2")
            raise AssertionError("one simulator driven by two commands")
        except session.SimulatorBusy as exc:
            assert "already driven by pid %d, gogadget remote as table-1" % os.getpid() \
                in str(exc)
        finally:
            session.release(claim)
    finally:
        for sim in sims:
            sim.close()
    assert session.live_sims() == []


def test_gogadget_on_the_folder_make_sim_holds_is_told_so():
    """make sim and `gogadget play --sim` keep one folder by default: the one
    started second is told who holds it and what to do, and loses nothing."""
    sim = subprocess.Popen([sys.executable, "-m", "host_sim", "--tui", "--size", "9"], cwd=ROOT,
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        lock = os.path.join(store(), "sim.lock")
        for _ in range(300):
            if os.path.exists(lock) and open(lock).read():
                break
            time.sleep(0.05)
        r = subprocess.run([sys.executable, "-m", "host_sim.cli", "play", "--sim", "--auto",
                            "--engine", "cat"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert "gogadget play: the game folder %s is in use by another simulator (pid %d, " \
            "make sim (python -m host_sim))" % (store(), sim.pid) in r.stderr, r.stderr
    finally:
        sim.communicate("quit\n", timeout=30)
    assert sim.returncode == 0, sim.stderr
