"""Study mode in the simulator's terminal (issue 37): the same firmware,
the README's demo script: the first composed problem set up and solved."""
import subprocess
import sys

from conftest import ROOT

# The README's script (README.md, "Study at the board"): keep them equal.
DEMO = ("study", "put b A1", "put b B2", "put b C2", "put w B1", "put w C1", "wait 800",
        "put b D1")


def run(script):
    return subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--size", "9",
                           "--no-color"], cwd=ROOT, input="\n".join(script) + "\nquit\n",
                          capture_output=True, text=True, timeout=120)


def test_a_problem_solved_in_the_terminal():
    r = run(DEMO)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "event study: problem 1 of 3, p01-capture.sgf (new): set up 5 stones" in out
    assert "next: set-up: put a black stone on A1 B2 C2, and put a white stone on B1 C1" in out
    assert "event study: set up: Black to play" in out
    solved = out[out.index("> put b D1"):]
    assert "event study: right: solved" in solved
    assert "A1 ok, B1 ok" in solved and "J9 ok" in solved  # the ring
    assert "next: solved: New for the next problem" in solved


def test_a_wrong_try_in_the_terminal_and_the_readme_shows_the_demo():
    r = run(DEMO[:-1] + ("put b D2", "wait 3500", "confirm"))
    assert r.returncode == 0, r.stderr
    wrong = r.stdout[r.stdout.index("> put b D2"):]
    assert "event study: answer: White D1" in wrong and "event study: wrong" in wrong
    assert "next: wrong: Confirm takes the try back" in wrong
    assert "event study: taken back" in r.stdout[r.stdout.index("> confirm"):]
    readme = (ROOT / "README.md").read_text()
    assert "\n".join(DEMO) in readme
