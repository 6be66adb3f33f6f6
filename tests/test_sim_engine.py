"""A person at the terminal simulator plays GNU Go: the engine's moves come
only as LED prompts, the person's only through the virtual sensors."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill_sgf

from gogadget import points

ROOT = Path(__file__).resolve().parent.parent
WANTED = ["E5", "C3", "G7", "C7", "G3", "D6"]  # the person's moves, first free one each turn


class Console:
    """The TUI driven one action at a time, reading each answer block."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "host_sim", "--tui", "--no-color", *args], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, DISPLAY=""))
        self.transcript = []

    def block(self):
        """Lines up to and including the "game:" status after a board."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                pytest.fail("simulator exited: %s\n%s" % ("".join(self.transcript + lines),
                                                          self.proc.stderr.read()))
            lines.append(line)
            if line.startswith("game: ") and len(lines) > 1 and lines[-2].startswith("referee:"):
                self.transcript += lines
                return "".join(lines)

    def do(self, action):
        self.proc.stdin.write(action + "\n")
        self.proc.stdin.flush()
        return self.block()

    def finish(self):
        out, err = self.proc.communicate("quit\n", timeout=60)
        self.transcript.append(out)
        return self.proc.returncode, err


def lights(block):
    line = [l for l in block.splitlines() if l.startswith("lights: ")][-1]
    if line == "lights: none":
        return {}
    return dict(item.split(" ", 1) for item in line[len("lights: "):].split(", "))


def status(block):
    return block.rstrip("\n").splitlines()[-1][len("game: "):]


def sgf_moves(text):
    game = sgfmill_sgf.Sgf_game.from_string(text)
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        vtx = "pass" if move is None else points.COLUMNS[move[1]] + str(move[0] + 1)
        out.append((colour.upper(), vtx))
    return out


def test_person_plays_gnugo_in_the_terminal(gnugo_path, tmp_path):
    out = tmp_path / "game.sgf"
    con = Console("--size", "9", "--engine", gnugo_path + " --mode gtp --level 0",
                  "--max-moves", "6", "--out", str(out))
    try:
        first = con.block()
        assert "Black to play (you)" in status(first), first
        taken = set()
        log = []
        for turn in range(3):
            if turn == 1:
                answer = con.do("pass")  # the Pass button goes to the engine as a pass
                log.append(("B", "pass"))
                assert "event pass: B" in answer
            else:
                mine = next(v for v in WANTED if v not in taken)
                taken.add(mine)
                answer = con.do("put b " + mine)
                log.append(("B", mine))
                assert "event move: B %s" % mine in answer
            prompts = {v: c for v, c in lights(answer).items() if c.startswith("put-white")}
            assert len(prompts) == 1, answer  # GNU Go's reply, lit and not yet on the board
            reply = next(iter(prompts))
            assert "GNU Go's white %s is waiting to be placed" % reply in status(answer), answer
            taken.add(reply)
            log.append(("W", reply))
            placed = con.do("put " + reply)  # no colour: the one the light asks for
            assert "put-white" not in placed and "event move" not in placed
            if turn < 2:
                assert "Black to play (you)" in status(placed), placed
        assert "game stopped" in status(placed)  # --max-moves 6
        code, err = con.finish()
    finally:
        if con.proc.poll() is None:
            con.proc.kill()
    assert code == 0, err
    text = "".join(con.transcript)
    relayed = re.findall(r"^game: \d+\. (black|white) (\S+)$", text, re.M)
    assert [(c[0].upper(), v) for c, v in relayed] == log  # one spelling: "pass"
    history = re.search(r"^game: engine history: (.*)$", text, re.M).group(1).split()
    history = list(zip(history[::2], history[1::2]))
    assert history == log  # GNU Go's own record of the game
    assert sgf_moves(out.read_text()) == log  # the firmware's record


def test_engine_that_does_not_exist_is_a_clear_error():
    r = subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--engine", "no-such-engine-x"],
                       cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "not found" in r.stderr and "Traceback" not in r.stderr


def test_gogadget_play_sim_gui_with_handicap_as_white(gnugo_path, tmp_path):
    """`gogadget play --sim --gui` makes you the person (the terminal here:
    no display); the handicap stones are prompted before White's first move."""
    out = tmp_path / "game.sgf"
    r = subprocess.run(
        [sys.executable, "-m", "host_sim.cli", "play", "--sim", "--gui", "--engine",
         gnugo_path + " --mode gtp --level 0", "--size", "9", "--colour", "white",
         "--handicap", "2", "--komi", "0.5", "--out", str(out)],
        cwd=ROOT, input="put C3\nput G7\nput E5\nquit\n", capture_output=True, text=True,
        timeout=120, env=dict(os.environ, DISPLAY="", NO_COLOR="1"))
    assert r.returncode == 0, r.stderr
    blocks = re.split(r"^> .*$", r.stdout, flags=re.M)
    start, after_c3, after_g7, after_e5 = blocks[:4]
    assert lights(start) == {"C3": "put-black/blink", "G7": "put-black/blink"}
    assert "White to play (you): first set the lit stones" in status(start)
    assert "put a stone down" in status(after_g7) and lights(after_g7) == {}
    reply = [v for v, c in lights(after_e5).items() if c.startswith("put-black")]
    assert len(reply) == 1 and "GNU Go's black %s is waiting" % reply[0] in status(after_e5)
    game = sgfmill_sgf.Sgf_game.from_string(out.read_text())
    assert game.get_handicap() == 2 and game.get_komi() == 0.5
    assert sgf_moves(out.read_text()) == [("W", "E5"), ("B", reply[0])]
