"""What the simulator says, said right (issue 35, finding 8): the terminal's
next: line broken at a word, a finished game at start said as finished
(not "put the stones back"), and the game: line kept current while the
person thinks."""
import io
import os
import subprocess
import sys

from conftest import ROOT
from host_sim.faces import launch, nextstep, tuiscreen
from host_sim.sim.virtual import Simulator, make_config


def _resigned(sim):
    sim.run(1500)  # the board's first view (a stone down before it is no move)
    for v, c in (("E5", 1), ("C3", 2), ("D4", 1)):
        sim.stones.put(v, c)
        sim.until_quiet()
    sim.press("resign")
    sim.until_quiet()
    assert sim.referee.phase == "over" and sim.referee.board.moves == 3


def test_next_line_is_broken_at_a_word_not_cut(tmp_path):
    sim = Simulator(make_config(size=9), store_dir=str(tmp_path))
    try:
        _resigned(sim)
        said = "next: " + nextstep.next_step(sim)
        assert len(said) > 79, said  # longer than an 80-column terminal's line
        for cols in (80, 60):
            lines = tuiscreen.screen_lines(sim, cols, 24, colour=False)
            start = next(i for i, line in enumerate(lines) if line.startswith("next: "))
            shown = [lines[start]]
            for line in lines[start + 1:]:
                if not line.startswith("  "):
                    break
                shown.append(line)
            assert all(len(line) <= cols - 1 for line in shown), shown
            joined = " ".join(line.strip() for line in shown)
            # Whole words: the sentence, or its head at a word with " ...".
            assert joined == said or (joined.endswith(" ...")
                                      and said.startswith(joined[:-4] + " ")), shown
    finally:
        sim.close()


def _start(store, *args):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--size", "9", "--store",
                           store, *args], cwd=ROOT, input="quit\n", capture_output=True,
                          text=True, timeout=120, env=env).stdout


def test_a_finished_game_at_start_is_said_as_finished(tmp_path):
    store = str(tmp_path / "store")
    sim = Simulator(make_config(size=9), store_dir=store)
    try:
        _resigned(sim)
    finally:
        sim.close()
    out = _start(store)
    assert "put the stones back" not in out, out
    assert "event resume: the last game is over: 3 moves of a 9x9 game, B+R" in out, out
    assert "result: Black wins by resignation (B+R)" in out
    out = _start(store, "--new")  # a new game: nothing was resumed to put back
    assert "event resume" not in out and "put the stones back" not in out, out
    assert "next: Black to play" in out


class _Game:
    def __init__(self):
        self.text = "table-2's white J2 is lit: place it"

    def status(self):
        return self.text


def test_the_game_line_follows_the_game_while_the_person_thinks(tmp_path):
    """The board alone looks the same, but the game's line changed (the
    other board, a controller): it is said again, current."""
    sim = Simulator(make_config(size=9), store_dir=str(tmp_path))
    game = _Game()
    out = io.StringIO()
    r, w = os.pipe()
    try:
        def show():
            out.write("game: " + game.status() + "\n")

        idle = launch.IdleInput(os.fdopen(r), sim, show, period_s=0.01, status=game.status)
        seen = idle._scan(idle._looks())
        assert out.getvalue() == ""  # nothing changed: nothing said
        game.text = "Black to play (you): put a stone down or press Pass"
        idle._scan(seen)
        assert out.getvalue() == "game: " + game.text + "\n"
    finally:
        os.close(w)
        sim.close()
