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

from conftest import ROOT, require, xvfb_display

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

    def type(self, action):
        subprocess.run([self.tmux, "send-keys", "-t", self.name, action, "Enter"], check=True)

    def do(self, action, timeout=60):
        """Type an action; return the screen once it is done (the screen is
        redrawn in place: the echo is in the log beside the board, and the
        prompt is back, empty, on the last line)."""
        before = self.screen()
        subprocess.run([self.tmux, "send-keys", "-t", self.name, action, "Enter"], check=True)
        return self.wait(lambda t: t != before and "> " + action in t and
                         t.rstrip().split("\n")[-1] == PROMPT,
                         "the prompt after %r" % action, timeout)

    def close(self):
        subprocess.run([self.tmux, "kill-session", "-t", self.name], capture_output=True)


def last(text, prefix):
    lines = [l for l in text.splitlines() if l.startswith(prefix)]
    return lines[-1][len(prefix):] if lines else ""


def grid(text, size=9):
    """{vertex: (stone, light glyph)} of the board on the screen."""
    out = {}
    for row, cells in re.findall(r"^ ?(\d+) (.{%d})\1" % (2 * size), text, re.M)[-size:]:
        for col in range(size):
            out["ABCDEFGHJKLMNOPQRST"[col] + row] = (cells[2 * col], cells[2 * col + 1])
    return out


def lights(text):
    """{vertex: light kind} as the grid shows them (a glyph beside each point)."""
    from gogadget import frame
    from host_sim.faces import tui
    kinds = {tui.glyph(code): frame.NAMES[code] for code in range(1, 16)}
    return {v: kinds[g] for v, (_, g) in grid(text).items() if g != " "}


def occupied(text):
    """The points with a stone in the last board drawn."""
    return set(v for v, (stone, _) in grid(text).items() if stone in "XO")


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
    assert "1 game on the board" in r.stdout
    (pulled,) = list(dest.iterdir())
    assert "RE[%s]" % result in pulled.read_text()


# A GTP controller's one helper: send a command, read its answer (up to the
# blank line that ends it).  `p` is the gogadget process the script starts.
SEND = r"""
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
"""

CONTROLLER = r"""
import subprocess, sys
p = subprocess.Popen([sys.argv[1], "gtp", "--sim", "--sim-size", "9"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
""" + SEND + r"""
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
        assert lights(text).get("E5") == "put-black"  # the controller's stone, lit
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


# -- the same game in the window (Xvfb, clicks by xdotool, pixels by xwd) ------

SHOTS = os.environ.get("GOGADGET_SHOTS")  # keep the screenshots here to look at them


@pytest.fixture
def display():
    with xvfb_display(171, "1024x768x24") as name:
        yield name


def gnugo_dead(gnugo, stones):
    """GNU Go's dead stones in a position given as {vertex: "B"/"W"}."""
    cmds = ["boardsize 9", "clear_board"] + ["play %s %s" % (c, v) for v, c in stones.items()]
    r = subprocess.run([gnugo, "--mode", "gtp"], input="\n".join(cmds + ["final_status_list dead",
                                                                         "quit"]) + "\n",
                       capture_output=True, text=True, timeout=60)
    return r.stdout.split("\n\n")[len(cmds)][1:].split()


@pytest.mark.gui
def test_a_whole_game_against_gnugo_in_the_window(display, gnugo_path, tmp_path):
    from host_sim.faces.screenshot import grab
    xdotool = require("xdotool", "(apt-get install xdotool; .ci/run does)")
    require("xwd", "(apt-get install x11-apps; .ci/run does)")
    state_file = tmp_path / "state.json"
    out = tmp_path / "game.sgf"
    env = dict(os.environ, DISPLAY=display)
    log = open(tmp_path / "window.log", "w")
    proc = subprocess.Popen([GOGADGET, "play", "--sim", "--engine", gnugo_path + " --mode gtp --level 0",
                             "--size", "9", "--komi", "7.5", "--out", str(out),
                             "--state-file", str(state_file)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    shots = {}

    def state():
        try:
            import json
            return json.loads(state_file.read_text())
        except (OSError, ValueError):
            return None

    def wait(test, what, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            assert proc.poll() is None, "the window closed: " + (tmp_path / "window.log").read_text()
            s = state()
            if s and test(s):
                return s
            time.sleep(0.05)
        pytest.fail("the window never showed %s; last state: %s" % (what, state()))

    def click_at(x, y):
        subprocess.run([xdotool, "mousemove", str(x), str(y), "click", "1"], env=env, check=True)

    def shot(name):
        img = grab(display)
        shots[name] = img
        img.save_png(str(tmp_path / (name + ".png")))
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            img.save_png(os.path.join(SHOTS, name + ".png"))
        return img

    try:
        s = wait(lambda s: s.get("mapped") and "Black to play (you)" in (s["game"] or ""),
                 "the person's turn")
        time.sleep(0.5)
        mine = list(MINE)
        seen_prompt = seen_count = False
        for _ in range(300):
            s = state()
            game = s["game"] or ""
            lit = s["lights"]
            lift = [v for v, c in lit.items()
                    if c.split("/")[0] in ("remove", "illegal", "ko", "superko", "wrong-colour")
                    and v in s["stones"]]
            put = [v for v, c in lit.items() if c.startswith("put-") and v not in s["stones"]]
            before = json_key(s)
            if game.startswith("game over"):
                break
            if lift:
                click_at(*s["screen"][lift[0]])
            elif put:
                if not seen_prompt:
                    seen_prompt = True
                    shot("1-engine-stone-lit")
                click_at(*s["screen"][put[0]])  # the hand takes the colour the light asks for
            elif game.startswith("two passes"):
                if not seen_count:
                    seen_count = True
                    # While the board waits for the dead stones, nothing says the game is over.
                    assert "game over" not in s["status"] + s["next"], s
                    for v in gnugo_dead(gnugo_path, s["stones"]):
                        click_at(*s["screen"][v])  # lift the dead stone
                        time.sleep(0.3)
                    time.sleep(0.5)
                    shot("2-counting")
                click_at(*s["buttons"]["confirm"])
            elif "(you)" in game:
                while mine and mine[0] in s["stones"]:
                    mine.pop(0)
                if mine:
                    click_at(*s["screen"][mine.pop(0)])
                else:
                    click_at(*s["buttons"]["pass"])
            wait(lambda t: json_key(t) != before, "a change after the click", 60)
            quiet(state, wait)  # the board has taken the stone and the relay has moved on
        s = wait(lambda s: (s["game"] or "").startswith("game over"), "the end of the game")
        result = re.match(r"game over: (\S+) by the board's count", s["game"])
        assert result, s["game"]
        result = result.group(1)
        time.sleep(0.5)
        shot("3-game-over")
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        log.close()
    game = sgfmill_sgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_root().get("RE") == result
    seq = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert len(seq) > 10 and seq[-1][1] is None and seq[-2][1] is None
    assert seen_prompt and seen_count and set(shots) == {"1-engine-stone-lit", "2-counting",
                                                         "3-game-over"}
    for img in shots.values():
        assert img.width >= 400 and img.height >= 300
    dest = tmp_path / "pulled"
    r = subprocess.run([GOGADGET, "pull", "--sim", "--dest", str(dest)], capture_output=True,
                       text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    assert "1 game on the board" in r.stdout
    assert "RE[%s]" % result in next(dest.iterdir()).read_text()


def quiet(state, wait, still_s=0.6):
    """Wait until the window's picture has not changed for still_s."""
    last, since = None, time.time()
    while True:
        s = wait(lambda t: True, "the window")
        if s["phase"] == "over":
            return s  # the result scrolls across the lights: never still
        key = json_key(s)
        if key != last:
            last, since = key, time.time()
        elif time.time() - since >= still_s:
            return s
        time.sleep(0.05)


def json_key(s):
    return (s["game"], tuple(sorted(s["stones"].items())), tuple(sorted(s["lights"].items())),
            s["phase"])


def test_watch_sim_mirrors_the_simulator_running_in_another_terminal(tmp_path):
    env = {"NO_COLOR": "1", "DISPLAY": "", "XDG_DATA_HOME": os.environ["XDG_DATA_HOME"],
           "XDG_RUNTIME_DIR": os.environ["XDG_RUNTIME_DIR"]}
    term = Terminal("gg-watch-%d" % os.getpid(), "%s -m host_sim --tui --size 9"
                    % sys.executable, env)
    try:
        term.wait(lambda t: t.rstrip().endswith(PROMPT), "the first prompt")
        term.do("put b D4")
        term.do("put w E5")
        time.sleep(0.5)
        r = subprocess.run([GOGADGET, "watch", "--sim", "--count", "1", "--plain"],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, **env))
        assert r.returncode == 0, r.stderr
        assert "moves=2" in r.stdout and "phase=play" in r.stdout
        assert "move B D4" in r.stdout and "move W E5" in r.stdout
        assert re.search(r"^ ?4 [.+] [.+] [.+] X", r.stdout, re.M), r.stdout
        assert re.search(r"^ ?5 [.+] [.+] [.+] [.+] O", r.stdout, re.M), r.stdout
    finally:
        term.close()


GTP_CONTROLLER = r"""
import subprocess, sys
p = subprocess.Popen([sys.argv[1], "gtp", "--sim", "--sim-size", "9", "--state-file",
                     sys.argv[2]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
""" + SEND + r"""
for c in ("boardsize 9", "clear_board", "play b E5", "genmove w", "quit"):
    print(send(c), flush=True)
print("EXIT %d" % p.wait(30), flush=True)
"""


@pytest.mark.gui
def test_gtp_sim_a_person_at_the_window_answers_genmove(display, tmp_path):
    import json
    xdotool = require("xdotool", "(apt-get install xdotool; .ci/run does)")
    script = tmp_path / "controller.py"
    script.write_text(GTP_CONTROLLER)
    state_file = tmp_path / "state.json"
    env = dict(os.environ, DISPLAY=display)
    proc = subprocess.Popen([sys.executable, str(script), GOGADGET, str(state_file)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        def state():
            try:
                return json.loads(state_file.read_text())
            except (OSError, ValueError):
                return {}

        def wait(test, what, timeout=30):
            end = time.time() + timeout
            while time.time() < end:
                s = state()
                if s and test(s):
                    return s
                time.sleep(0.05)
            pytest.fail("the window never showed %s: %s" % (what, state()))

        def click(vertex):
            x, y = state()["screen"][vertex]
            subprocess.run([xdotool, "mousemove", str(x), str(y), "click", "1"], env=env,
                           check=True)

        wait(lambda s: s.get("mapped") and "White to play (you)" in (s["game"] or ""),
             "the controller's genmove w")
        time.sleep(0.5)
        assert state()["lights"].get("E5", "").startswith("put-black")
        click("E5")  # the controller's stone, placed where it is lit
        wait(lambda s: "put a stone down or press Pass" in (s["game"] or ""), "White's turn")
        click("C3")  # the hand follows the turn: a white stone
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = out.splitlines()
    assert lines[3] == "= C3" and lines[-1] == "EXIT 0", lines
