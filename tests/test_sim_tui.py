"""The terminal simulator driven by a piped script of physical actions."""
import re
import subprocess
import sys
from pathlib import Path

from sgfmill import sgf as sgfmill_sgf

from gogadget import frame

ROOT = Path(__file__).resolve().parent.parent

# Black surrounds and captures White's E5 on 9x9, then handles stones sloppily.
SCRIPT = """\
put b D5
put w E5
put b F5
put w A1
put b E6
put w A2
put b E4   # captures E5
lift E5
lift D5    # knocked off by accident
put Z99    # a typo: an error, nothing lost
put b D5
put D3     # no colour: the stone the turn light asks for (white)
pass
hand
wait 500
sgf
quit
put b J9   # never reached
"""


def run(script, *args):
    return subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--size", "9", *args],
                          cwd=ROOT, input=script, capture_output=True, text=True, timeout=120)


def blocks(out):
    """Output after each echoed action line, by action."""
    parts = re.split(r"^> (.*)$", out, flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


def test_piped_script_plays_captures_and_prompts():
    r = run(SCRIPT, "--no-color")
    assert r.returncode == 0, r.stderr
    steps = blocks(r.stdout)
    actions = [a.split("#")[0].strip() for a, _ in steps]
    assert actions[-1] == "quit" and "put b J9" not in actions
    after = {a.split("#")[0].strip(): text for a, text in steps}
    capture = after["put b E4"]
    assert "event capture: B captured 1: E5" in capture
    assert "E5 remove" in capture  # the prisoner's light asks for it
    assert "E5 remove" not in after["lift E5"]
    assert "D5 put-black" in after["lift D5"]  # the missing stone is asked back
    assert "D5 put-black" not in after["put b D5"]
    assert "error: invalid coordinate" in after["put Z99"]
    assert "event move: W D3" in after["put D3"]
    assert "event pass: B" in after["pass"]
    record = after["sgf"].strip()
    game = sgfmill_sgf.Sgf_game.from_string(record)
    moves = [n.get_move() for n in game.get_main_sequence()[1:]]
    assert moves == [("b", (4, 3)), ("w", (4, 4)), ("b", (4, 5)), ("w", (0, 0)), ("b", (5, 4)),
                     ("w", (1, 0)), ("b", (3, 4)), ("w", (2, 3)), ("b", None)]


def test_ansi_colours_show_the_lights():
    r = run("put b D5\nput w E5\nput b F5\nput w A1\nput b E6\nput w A2\nput b E4\nquit\n")
    assert r.returncode == 0, r.stderr
    last = r.stdout.rsplit("> put b E4", 1)[1]
    # The prisoner's light is drawn as its palette colour behind the stone.
    rgb = frame.PALETTE[frame.REMOVE]
    scale = [tuple(v * b // 255 for v in rgb) for b in range(96, 256)]
    found = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+)m\x1b\[[0-9;]*mO", last)
    assert any(tuple(map(int, f)) in scale for f in found), found


def test_occupancy_sensors_in_the_terminal():
    r = run("put D4\nput E4\nlift D4\nquit\n", "--sensors", "occupancy", "--no-color")
    assert r.returncode == 0, r.stderr
    assert "event move: B D4" in r.stdout and "event move: W E4" in r.stdout
    assert "D4 put-black" in r.stdout.rsplit("> lift D4", 1)[1]


def test_bad_flags_are_clear_errors():
    r = subprocess.run([sys.executable, "-m", "host_sim", "--tui", "--handicap", "12"],
                       cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "handicap" in r.stderr and "Traceback" not in r.stderr
