"""gtp.py: one scripted conversation gives byte-identical output under
CPython and MicroPython, plus behaviour checks (some against GNU Go)."""
import os
import subprocess
import sys

import pytest

from conftest import FIRMWARE, ROOT, micropython_path
from gogadget.gtp import Engine
from gogadget.points import handicap_points, max_handicap

# Every command, the errors the spec names, malformed lines, junk and ids.
SCRIPT = b"""protocol_version
1 name
  2 version   # trailing comment
# a comment line

\t\tknown_command\tplay
known_command fly
list_commands
\x01na\x7fme\r
\xff\xfe\x00garbage \xc3\x28 here
PLAY b a1
99
boardsize
boardsize x
boardsize 1
boardsize 20
3 boardsize 5
komi 6.5
komi abc
komi nan
play b c3
play b c3
play x c3
play b z9
play b f1
play b
play w pass
undo
undo
undo
4 undo
play b b3
play w c3
play b c2
play w d2
play b c4
play w d4
play w e3
play b d3
list_stones black
list_stones white
captures black
captures white
is_legal w c3
is_legal w pass
is_legal w b3
is_legal q c3
5 play w c3
play b a5
play w c3
play b d3
showboard
fixed_handicap 2
clear_board
fixed_handicap 2
clear_board
boardsize 9
fixed_handicap 1
fixed_handicap 10
fixed_handicap x
fixed_handicap 5
set_free_handicap a1 b2
clear_board
set_free_handicap a1
set_free_handicap a1 a1
set_free_handicap a1 pass
set_free_handicap a1 b2 c3
showboard
kgs-rules japanese
gogadget-rules
kgs-rules new_zealand
gogadget-rules-info
kgs-rules klingon
gogadget-rules 000
gogadget-rules nonsense
gogadget-set-rule ko situational
gogadget-set-rule ko
gogadget-set-rule colour red
gogadget-set-rule suicide sometimes
gogadget-rules
gogadget-rules-info
gogadget-rules chinese
boardsize 5
komi 0
play b c1
play b c2
play b c3
play b c4
play b c5
play w d1
play w d2
play w d3
play w d4
play w d5
play w a1
final_score
gogadget-dead b5
gogadget-dead a1 a1
final_score
gogadget-dead
final_score
gogadget-dead a1
printsgf game.sgf
printsgf
printsgf ../up.sgf
printsgf /etc/passwd
printsgf sub/dir/x.sgf
loadsgf ../game.sgf
loadsgf /etc/passwd
loadsgf missing.sgf
loadsgf broken.sgf
loadsgf illegal.sgf
list_stones black
loadsgf game.sgf 3
list_stones black
list_stones white
loadsgf game.sgf
list_stones white
6 genmove b
quit
name
"""

FILES = {
    "broken.sgf": "(;GM[1]SZ[5];B[aa];W[",
    "illegal.sgf": "(;GM[1]SZ[5];B[aa];W[aa])",
}


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, input=SCRIPT, capture_output=True, cwd=cwd, env=env, timeout=60)


def folder(tmp_path, name):
    d = tmp_path / name
    d.mkdir()
    for file, text in FILES.items():
        (d / file).write_text(text)
    return d


def responses(out):
    assert out.endswith("\n\n")
    return out[:-2].split("\n\n")


@pytest.fixture(scope="module")
def conversation(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gtp")
    cp_dir, mp_dir = folder(tmp, "cpython"), folder(tmp, "micropython")
    cp = run([sys.executable, "-m", "gogadget.gtp"], cp_dir)
    env = dict(os.environ, MICROPYPATH=str(FIRMWARE))
    mp = run([micropython_path(), "-m", "gogadget.gtp"], mp_dir, env)
    return cp, mp, cp_dir, mp_dir


def test_cpython_and_micropython_answer_identically(conversation):
    cp, mp, cp_dir, mp_dir = conversation
    assert cp.returncode == 0 and mp.returncode == 0, (cp.stderr, mp.stderr)
    assert cp.stdout == mp.stdout
    assert (cp_dir / "game.sgf").read_text() == (mp_dir / "game.sgf").read_text()


def test_conversation_answers(conversation):
    out = conversation[0].stdout.decode()
    r = responses(out)
    # One answer per non-blank, non-comment line up to quit; nothing after.
    lines = [l for l in SCRIPT.split(b"\n") if l.split(b"#")[0].strip()]
    assert len(r) == lines.index(b"quit") + 1
    assert r[-1] == "= " and not out.endswith("= GoGadget\n\n")
    pairs = list(zip([l.decode("latin-1") for l in lines], r))
    answers = {}
    for line, answer in pairs:
        answers.setdefault(line, answer)  # the first answer to a repeated line
    every = lambda line: [a for l, a in pairs if l == line]  # noqa: E731
    assert answers["protocol_version"] == "= 2"
    assert answers["1 name"] == "=1 GoGadget"
    assert answers["  2 version   # trailing comment"].startswith("=2 ")
    assert answers["\t\tknown_command\tplay"] == "= true"
    assert answers["known_command fly"] == "= false"
    assert answers["\x01na\x7fme\r"] == "= GoGadget"
    assert answers["PLAY b a1"] == "? unknown command"
    assert answers["99"] == "?99 syntax error"
    assert answers["boardsize 1"] == "? unacceptable size"
    assert answers["3 boardsize 5"] == "=3 "
    assert answers["komi abc"] == "? syntax error"
    assert answers["play b z9"] == "? syntax error"
    assert answers["4 undo"] == "?4 cannot undo"
    assert answers["5 play w c3"] == "?5 illegal move: ko"
    assert answers["is_legal w pass"] == "= 1"
    assert every("list_stones black") == ["= C4 B3 D3 C2", "= C5 C4 C3 C2 C1", "= C2 C1"]
    assert every("list_stones white") == ["= D4 E3 D2", "= ", "= D5 D4 D3 D2 A1 D1"]
    assert every("final_score") == ["= W+6", "= B+5", "= W+6"]
    assert every("play w c3") == ["= ", "= "]  # the ko, then the retake after Black played a5
    assert every("play b d3") == ["= ", "? illegal move: ko"]  # the immediate retake
    assert answers["printsgf"].startswith("= (;GM[1]FF[4]") and "RU[Chinese]" in answers["printsgf"]
    assert answers["fixed_handicap 1"] == "? invalid number of stones"
    assert answers["fixed_handicap 5"] == "= C7 G7 E5 C3 G3"
    assert answers["set_free_handicap a1 a1"] == "? bad vertex list"
    assert answers["kgs-rules klingon"].startswith("? unknown rules")
    assert answers["gogadget-set-rule suicide sometimes"].startswith("? suicide must be one of")
    assert answers["gogadget-dead b5"] == "? no stone at b5"
    assert answers["gogadget-dead a1 a1"] == "= A1"
    assert answers["printsgf ../up.sgf"].startswith("? file name must stay inside")
    assert answers["loadsgf /etc/passwd"].startswith("? file name must stay inside")
    assert answers["loadsgf missing.sgf"] == "? cannot load file"
    assert answers["loadsgf broken.sgf"].startswith("? cannot load file: SGF: ")
    assert answers["loadsgf illegal.sgf"] == "? cannot load file: move 2 (W A5) is illegal: occupied"
    assert answers["6 genmove b"] == "?6 cannot generate moves"
    used = set()
    for line in answers:
        words = line.split("#")[0].split()
        used.add(words[1] if words[0].isdigit() and len(words) > 1 else words[0])
    assert set(Engine().commands) <= used, set(Engine().commands) - used


def test_play_ko_and_captures():
    e = Engine(5)
    ask = lambda line: e.handle(line)  # noqa: E731
    for line in ("play b b3", "play w c3", "play b c2", "play w d2", "play b c4", "play w d4",
                 "play w e3", "play b d3"):
        assert ask(line) == "= \n\n", line
    assert ask("captures b") == "= 1\n\n"
    assert ask("play w c3") == "? illegal move: ko\n\n"
    assert ask("play w a1") == "= \n\n"
    assert ask("play b a5") == "= \n\n"
    assert ask("play w c3") == "= \n\n"
    assert ask("captures white") == "= 1\n\n"
    assert ask("list_stones white") == "= D4 C3 E3 D2 A1\n\n"
    assert ask("list_stones black") == "= A5 C4 B3 C2\n\n"


def test_showboard():
    e = Engine(9)
    e.handle("play b e5")
    e.handle("play w c3")
    text = e.handle("showboard")
    lines = text.split("\n")
    assert lines[0] == "= "
    assert lines[1] == "   A B C D E F G H J"
    assert lines[2] == " 9 . . . . . . . . . 9"
    # As GNU Go draws it: five marked points on 9x9.
    assert lines[4] == " 7 . . + . . . + . . 7"
    assert lines[6] == " 5 . . . . X . . . . 5"
    assert lines[8] == " 3 . . O . . . + . . 3"
    assert lines[9].startswith(" 2 ") and lines[9].endswith("WHITE (O) has captured 0 stones")
    assert lines[10] == " 1 . . . . . . . . . 1     BLACK (X) has captured 0 stones"
    assert text.endswith("   A B C D E F G H J\n\n") and "\n\n" not in text[:-2]


def test_fixed_handicap_matches_gnugo(gnugo_path):
    commands = []
    for size in (9, 13, 19):
        for n in range(1, 11):
            commands += ["boardsize %d" % size, "fixed_handicap %d" % n]
    text = "\n".join(commands) + "\n"
    theirs = subprocess.run([gnugo_path, "--mode", "gtp"], input=text, capture_output=True,
                            text=True, timeout=30).stdout
    e = Engine()
    ours = "".join(e.handle(c) for c in commands)
    theirs = theirs.replace("invalid handicap", "invalid number of stones")
    assert ours == theirs
    assert max_handicap(9) == 9 and len(handicap_points(19, 9)) == 9


def test_final_score_with_dead_stones():
    e = Engine(5)
    for line in ["komi 0"] + ["play b c%d" % i for i in range(1, 6)] + \
            ["play w d%d" % i for i in range(1, 6)] + ["play w a1"]:
        assert e.handle(line).startswith("= "), line
    alive = e.handle("final_score")
    assert e.handle("gogadget-dead a1") == "= A1\n\n"
    # Area (chinese): Black's 5 stones + 10 points of A-B, White 10: B+5.
    assert e.handle("final_score") == "= B+5\n\n"
    assert alive != "= B+5\n\n"
    e.handle("kgs-rules japanese")
    e.handle("gogadget-dead a1")
    # Territory: Black 10 points + 1 dead stone, White 5 points: B+6.
    assert e.handle("final_score") == "= B+6\n\n"
    e.handle("play b pass")  # any change clears the marks
    assert e.dead == []


def test_kgs_rules_and_rule_options():
    e = Engine()
    for kgs, preset in (("chinese", "chinese"), ("japanese", "japanese"), ("aga", "aga"),
                        ("new_zealand", "new-zealand")):
        assert e.handle("kgs-rules " + kgs) == "= \n\n"
        assert e.handle("gogadget-rules") == "= " + preset + "\n\n"
    assert e.board.ko == e.rules.ko  # the board follows the preset
    assert e.handle("gogadget-set-rule ko simple") == "= \n\n"
    assert e.board.ko == 1 and e.handle("gogadget-rules") == "= custom\n\n"
    e.handle("komi 3.5")
    info = e.handle("gogadget-rules-info")
    assert "komi=3.5" in info and "ko=simple" in info
    assert e.handle("printsgf").count("KM[3.5]") == 1


def test_loadsgf_keeps_state_on_error(tmp_path):
    e = Engine(9, folder=str(tmp_path))
    e.handle("play b e5")
    (tmp_path / "bad.sgf").write_text("(;SZ[9];B[ee];W[ee])")
    assert e.handle("loadsgf bad.sgf").startswith("? cannot load file")
    assert e.handle("list_stones b") == "= E5\n\n"
    assert e.handle("printsgf " + str(tmp_path) + "/ok.sgf") == "= \n\n"
    assert e.handle("printsgf /tmp/../etc/x.sgf").startswith("? file name")
    e.handle("clear_board")
    assert e.handle("loadsgf " + str(tmp_path / "ok.sgf")) == "= \n\n"
    assert e.handle("list_stones b") == "= E5\n\n"


def test_absolute_names_inside_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    e = Engine(9)
    e.handle("play b c3")
    assert e.handle("printsgf " + str(tmp_path / "a.sgf")) == "= \n\n"
    assert e.handle("printsgf b.sgf") == "= \n\n"
    assert (tmp_path / "a.sgf").read_text() == (tmp_path / "b.sgf").read_text()
    assert e.handle("printsgf " + str(tmp_path) + "x/c.sgf").startswith("? file name")
    assert e.handle("loadsgf ..\\b.sgf").startswith("? file name")
