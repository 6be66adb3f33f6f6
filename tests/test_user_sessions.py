"""A new user's whole game, tested as the user does it.

`gogadget play --sim` in a real terminal (tmux): the person types actions at
the prompt, places GNU Go's lit stones, lifts prisoners and, after two
passes, the stones GNU Go names dead, then presses Confirm.  The record's
RE[] is the board's own count, and `gogadget pull --sim` finds the game.
`gogadget gtp --sim` in a terminal: a GTP controller's genmove is answered
by the person typing at the terminal.
"""
import os
import re
import shlex
import subprocess
import sys
import time

import pytest
from sgfmill import sgf as sgfmill_sgf

from conftest import ROOT, require

GOGADGET = str(ROOT / ".venv" / "bin" / "gogadget")
PROMPT = "action (help, quit)>"
MINE = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5"]  # the person's first choices


class Terminal:
    """One tmux window running a command, read as the person sees it."""

    def __init__(self, name, command, env):
        self.tmux = require("tmux", "(apt-get install tmux; .ci/run does)")
        self.name = name
        envs = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in env.items())
        script = "cd %s && env %s %s; echo EXIT=$?; sleep 600" % (shlex.quote(str(ROOT)), envs,
                                                                   command)
        subprocess.run([self.tmux, "kill-session", "-t", name], capture_output=True)
        subprocess.run([self.tmux, "new-session", "-d", "-s", name, "-x", "110", "-y", "50",
                        script], check=True)
        self.sent = 0

    def screen(self):
        return subprocess.run([self.tmux, "capture-pane", "-p", "-J", "-S", "-", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def wait(self, test, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            text = self.screen()
            if test(text):
                return text
            time.sleep(0.1)
        pytest.fail("the terminal never showed %s:\n%s" % (what, self.screen()[-3000:]))

    def prompts(self, text):
        return text.count(PROMPT)

    def type(self, action):
        subprocess.run([self.tmux, "send-keys", "-t", self.name, action, "Enter"], check=True)

    def do(self, action, timeout=60):
        """Type an action; return the screen once the next prompt is up."""
        before = self.prompts(self.screen())
        subprocess.run([self.tmux, "send-keys", "-t", self.name, action, "Enter"], check=True)
        text = self.wait(lambda t: self.prompts(t) > before and t.rstrip().endswith(PROMPT),
                         "the prompt after %r" % action, timeout)
        return text.rsplit(PROMPT + " " + action, 1)[-1]

    def close(self):
        subprocess.run([self.tmux, "kill-session", "-t", self.name], capture_output=True)


def last(text, prefix):
    lines = [l for l in text.splitlines() if l.startswith(prefix)]
    return lines[-1][len(prefix):] if lines else ""


def lights(text):
    line = last(text, "lights: ")
    if not line or line == "none":
        return {}
    return dict(item.split(" ", 1) for item in line.split(", "))


def occupied(text):
    """The points with a stone in the last board drawn."""
    rows = re.findall(r"^ ?(\d+) ((?:[.XO+] )+)\d+$", text, re.M)[-9:]
    out = set()
    for row, cells in rows:
        for col, ch in enumerate(cells.split()):
            if ch in "XO":
                out.add("ABCDEFGHJ"[col] + row)
    return out


def dead_stones(gnugo, sgf_path):
    """The stones GNU Go judges dead in a record: what the person lifts."""
    r = subprocess.run([gnugo, "--mode", "gtp"], input="loadsgf %s\nfinal_status_list dead\nquit\n"
                       % sgf_path, capture_output=True, text=True, timeout=60)
    blocks = r.stdout.split("\n\n")
    return blocks[1][1:].split()


def test_a_whole_game_against_gnugo_in_the_terminal_then_pull(gnugo_path, tmp_path):
    env = {"NO_COLOR": "1", "DISPLAY": "", "XDG_DATA_HOME": os.environ["XDG_DATA_HOME"],
           "XDG_RUNTIME_DIR": os.environ["XDG_RUNTIME_DIR"]}
    out = tmp_path / "game.sgf"
    term = Terminal("gg-user-%d" % os.getpid(),
                    "%s play --sim --engine %s --size 9 --komi 7.5 --out %s"
                    % (GOGADGET, shlex.quote(gnugo_path + " --mode gtp --level 0"), out), env)
    try:
        text = term.wait(lambda t: t.rstrip().endswith(PROMPT), "the first prompt")
        assert "Black to play (you): put a stone down or press Pass" in last(text, "game: ")
        mine = list(MINE)
        for _ in range(200):
            status = last(text, "game: ")
            lit = lights(text)
            lift = [v for v, c in lit.items()
                    if c.split("/")[0] in ("remove", "illegal", "ko", "superko", "wrong-colour")]
            put = [v for v, c in lit.items() if c.startswith("put-")]
            if status.startswith("game over"):
                break
            if lift:
                text = term.do("lift " + lift[0])
            elif put:
                text = term.do("put " + put[0])  # the colour the light asks for
            elif status.startswith("two passes"):
                text = term.do("save " + str(tmp_path / "final.sgf"))
                for v in dead_stones(gnugo_path, tmp_path / "final.sgf"):
                    text = term.do("lift " + v)
                text = term.do("confirm")
            elif "(you)" in status:
                taken = occupied(text)
                while mine and mine[0] in taken:
                    mine.pop(0)
                text = term.do("put b " + mine.pop(0) if mine else "pass")
            else:
                text = term.do("show")
        status = last(text, "game: ")
        result = re.match(r"game over: (\S+) by the board's count", status)
        assert result, text[-2000:]
        result = result.group(1)
        term.type("quit")
        term.wait(lambda t: "EXIT=0" in t, "the command ending with 0")
    finally:
        term.close()
    game = sgfmill_sgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_root().get("RE") == result
    seq = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert len(seq) > 10 and seq[-1][1] is None and seq[-2][1] is None
    # The finished game was kept on the virtual board: pull finds it.
    dest = tmp_path / "pulled"
    r = subprocess.run([GOGADGET, "pull", "--sim", "--dest", str(dest)], capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, **env))
    assert r.returncode == 0, r.stderr
    assert "1 games on the board" in r.stdout
    (pulled,) = list(dest.iterdir())
    assert "RE[%s]" % result in pulled.read_text()


CONTROLLER = r"""
import subprocess, sys
p = subprocess.Popen([sys.argv[1], "gtp", "--sim", "--sim-size", "9"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
def send(cmd):
    p.stdin.write(cmd + "\n"); p.stdin.flush()
    lines = []
    while True:
        line = p.stdout.readline()
        if not line.strip():
            if lines: break
            continue
        lines.append(line.rstrip("\n"))
    return "\n".join(lines)
answers = [send(c) for c in ("boardsize 9", "clear_board", "play b E5", "genmove w",
                              "genmove b", "quit")]
p.wait(30)
with open(sys.argv[2], "w") as f:
    f.write("\n".join(answers) + "\nEXIT %d\n" % p.returncode)
"""


def test_gtp_sim_a_person_in_the_terminal_answers_genmove(tmp_path):
    """A controller runs `gogadget gtp --sim` with pipes; with no display the
    person's side is the terminal the controller was started from."""
    script = tmp_path / "controller.py"
    script.write_text(CONTROLLER)
    answers = tmp_path / "answers.txt"
    env = {"NO_COLOR": "1", "DISPLAY": "", "XDG_DATA_HOME": os.environ["XDG_DATA_HOME"],
           "XDG_RUNTIME_DIR": os.environ["XDG_RUNTIME_DIR"]}
    term = Terminal("gg-gtp-%d" % os.getpid(), "%s %s %s %s" % (
        sys.executable, script, GOGADGET, answers), env)
    try:
        text = term.wait(lambda t: "White to play (you)" in t and t.rstrip().endswith(PROMPT),
                         "the person asked for White's move")
        assert "E5 put-black" in last(text, "lights: ")  # the controller's stone, lit
        text = term.do("put E5")
        assert "White to play (you): put a stone down or press Pass" in last(text, "game: ")
        text = term.do("put w C3")
        term.wait(lambda t: "Black to play (you)" in t and t.rstrip().endswith(PROMPT),
                  "the person asked for Black's move")
        term.type("pass")  # the controller's last genmove: then it quits
        term.wait(lambda t: "EXIT=0" in t, "the session ending when the controller quits")
    finally:
        term.close()
    got = answers.read_text().split("\n")
    assert got[3] == "= C3" and got[4].lower() == "= pass" and got[-2] == "EXIT 0", got
