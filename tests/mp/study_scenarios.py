"""Study mode at the board (issue 37), scripted physically through the
referee with the fake hand: set-up, right and wrong lines, take-back,
next and previous problem, progress kept across a power cut, and files
the reader cannot use.

Plain asserts for both interpreters (tests/test_study.py runs them under
CPython and the MicroPython unix port).  Each scenario takes a scratch
directory; SOURCE[0] names the folder of the composed problems
(host_sim/problems: the test says where, the unix port has no project root).
"""
import os

from gogadget import frame as fr
from gogadget import journal as jn
from gogadget import journalread as jr
from gogadget.events import BTN_PASS, BTN_CONFIRM, BTN_NEW, BTN_RESIGN, BTN_STUDY
from gogadget.points import BLACK, WHITE

from fakehand import Hand
from referee_scenarios import _fresh

SOURCE = [None]


def _folder(tmp, name, files=None):
    """A problems folder of its own: the composed problems (or files:
    name -> text)."""
    d = _fresh(tmp + "/" + name)
    if files is None:
        src = SOURCE[0]
        files = {}
        for f in os.listdir(src):
            with open(src + "/" + f) as fh:
                files[f] = fh.read()
    for f in files:
        with open(d + "/" + f, "w") as fh:
            fh.write(files[f])
    return d


def _hand(folder, journal_dir=None):
    h = Hand(9, journal=jn.Journal(journal_dir) if journal_dir else None)
    h.config.problems = folder
    h.settle()
    return h


def _study(h):
    h.press(BTN_STUDY)
    assert h.ref.study is not None


def _said(h, text):
    """The study events since the last look, and that one says text."""
    evs = [e[1] for e in h.events("study")]
    assert any(text in e for e in evs), (text, evs)
    return evs


def _set_up(h):
    """Put the problem's stones where the lights ask (a stone of the other
    colour lifted first, as a hand does)."""
    from gogadget import signals as sg
    from gogadget.scan import S_EMPTY
    lifted = False
    for pl in range(h.size * h.size):
        if h.ref.prompt[pl] in (sg.P_PUT_BLACK, sg.P_PUT_WHITE) and h.scan[pl] != S_EMPTY:
            h.scan[pl] = S_EMPTY
            lifted = True
    if lifted:
        h.wait_ms(h.config.hand_settle_ms + 100)
    h.follow()
    for _ in range(10):  # many stones at once: the settler takes its time
        if h.ref.phase == "play":
            break
        h.wait_ms(300)
        h.follow()
    assert h.ref.phase == "play", h.ref.status()
    assert h.ref.study.state == 2  # S_SOLVING


def _ring(h, code):
    n = h.size
    return all(h.ref.frame[1 + p] == code for p in
               (0, n - 1, n * (n - 1), n * n - 1, n // 2, n * n - 1 - n // 2))


def _cross(h, code):
    n = h.size
    return all(h.ref.frame[1 + i * n + i] == code and h.ref.frame[1 + i * n + n - 1 - i] == code
               for i in range(n))


def _progress(folder):
    with open(folder + "/progress.txt") as f:
        return f.read()


def scenario_study_sets_up_and_solves_with_reply(tmp):
    d = _folder(tmp, "solve")
    h = _hand(d)
    _study(h)
    _said(h, "problem 1 of 3, p01-capture.sgf")
    # the set-up is lit, blinking, in its colours
    assert h.code("A1") == fr.PUT_BLACK | fr.BLINK and h.code("B1") == fr.PUT_WHITE | fr.BLINK
    assert h.ref.phase == "setup"
    _set_up(h)
    _said(h, "Black to play")
    h.press(BTN_NEW)  # the next problem: the board asks to clear what differs
    _said(h, "problem 2 of 3, p02-straight-three.sgf")
    assert h.colour_at("A1") == fr.REMOVE  # p01's stone, not p02's
    _set_up(h)
    h.play("B1", tidy=False)
    # the tree answers White A1: lit to be placed, no verdict yet
    assert h.code("A1") == fr.PUT_WHITE | fr.BLINK, h.code("A1")
    _said(h, "answer: White A1")
    assert h.ref.study.state == 2
    h.follow()
    assert h.ref.board.moves == 2
    h.play("C1", tidy=False)  # captures six: right
    assert _ring(h, fr.OK_GREEN), "the solved ring"
    _said(h, "right: solved")
    assert "1 1 p02-straight-three.sgf" in _progress(d)
    # the figure goes after VERDICT_MS, the prompts (six prisoners) come back
    h.wait_ms(3100)
    assert h.colour_at("B2") == fr.REMOVE and not _ring(h, fr.OK_GREEN)


def scenario_study_wrong_try_taken_back_then_right(tmp):
    d = _folder(tmp, "wrong")
    h = _hand(d)
    _study(h)
    h.press(BTN_NEW)
    _set_up(h)
    h.events()
    h.play("A1", tidy=False)  # wrong: the tree's refutation White B1 is lit
    assert _cross(h, fr.ILLEGAL | fr.BLINK), "the wrong cross"
    _said(h, "wrong")
    assert h.ref.study.state == 4
    assert "0 1 p02-straight-three.sgf" in _progress(d)
    h.wait_ms(3100)
    assert h.code("B1") == fr.PUT_WHITE | fr.BLINK
    h.follow()  # the person puts the refutation down
    assert h.ref.board.moves == 2
    h.press(BTN_CONFIRM)  # take the try back
    _said(h, "taken back")
    # (White B1 took A1: only B1 is left to lift)
    assert h.colour_at("B1") == fr.REMOVE and h.code("A1") == fr.OFF
    h.follow()
    assert h.ref.board.moves == 0 and h.ref.study.state == 2
    h.play("B1")
    h.follow()
    h.play("C1")
    _said(h, "right")
    assert "1 2 p02-straight-three.sgf" in _progress(d)
    # a stone off the tree is wrong too, and held Pass sets the problem up again
    h.press(BTN_PASS)  # back to p01
    _set_up(h)
    h.events()
    h.play("J9")
    _said(h, "J9 is not in the problem's answers")
    h.press(BTN_RESIGN)
    _said(h, "problem 1 of 3")
    assert h.colour_at("J9") == fr.REMOVE
    _set_up(h)
    h.play("D1")
    _said(h, "right")


def scenario_study_white_to_play_and_wraps_round(tmp):
    d = _folder(tmp, "wrap")
    h = _hand(d)
    _study(h)
    h.press(BTN_PASS)  # before the first: the last
    _said(h, "problem 3 of 3, p03-live.sgf")
    _set_up(h)
    assert h.ref.to_move() == WHITE
    _said(h, "White to play")
    h.play("B1", WHITE)
    _said(h, "right")
    h.press(BTN_CONFIRM)  # after a right one: the next, wrapping round
    _said(h, "problem 1 of 3")
    h.press(BTN_STUDY)  # held New: review mode (no kept games here)
    assert h.ref.study is not None and h.ref.board.moves == 0
    said = [e[1] for e in h.events()]
    assert "problems off: review mode" in said, said
    assert said[-1].startswith("no kept games to review"), said
    h.press(BTN_STUDY)  # held New again: study off, a new game
    assert h.ref.study is None
    assert h.events("review")[-1][1] == "review mode off: a new game"


def scenario_study_progress_kept_across_power_cut(tmp):
    d = _folder(tmp, "cut")
    games = _fresh(tmp + "/cut-games")
    h = _hand(d, games)
    h.ref.resume([], "", h.t)
    _study(h)
    _set_up(h)
    h.play("D1")
    h.press(BTN_NEW)
    _set_up(h)
    h.play("A1")  # a wrong try at p02
    _said(h, "wrong")
    # the power goes; a new board on the same flash starts as app.boot does
    h2 = _hand(d, games)
    records, report = jr.load(h2.ref.journal)
    h2.ref.resume(records, report, h2.t)
    h2.drain()
    assert h2.ref.study is not None  # back in study mode by itself
    evs = _said(h2, "study mode again after a power cut")
    assert any("problem 2 of 3, p02-straight-three.sgf (tried 1 times)" in e for e in evs), evs
    assert h2.ref.phase == "setup" and h2.ref.board.moves == 0
    h2.press(BTN_PASS)
    _said(h2, "p01-capture.sgf (solved)")
    text = _progress(d)
    assert text.startswith("gogadget-study 1\ncurrent p01-capture.sgf\n"), text


def scenario_study_files_it_cannot_use(tmp):
    bad = {
        "a-broken.sgf": "(;SZ[9]AB[aa];B[bb]C[RIGHT]",  # the tree never closes
        "b-no-right.sgf": "(;SZ[9]AB[aa]AW[ba];B[bb]C[Wrong])",
        "c-big.sgf": "(;SZ[19]AB[aa]AW[ba];B[bb]C[RIGHT])",
        "d-good.sgf": "(;SZ[9]AB[aa]AW[ba];B[ca]C[RIGHT])",
    }
    d = _folder(tmp, "bad", bad)
    h = _hand(d)
    _study(h)
    _said(h, "a-broken.sgf: cannot be used: SGF: the file ends inside the tree")
    assert h.ref.study.problem is None
    h.press(BTN_NEW)
    _said(h, "no correct line")
    h.press(BTN_NEW)
    _said(h, "a 19x19 problem: larger than the 9x9 board")
    h.press(BTN_NEW)
    _said(h, "problem 4 of 4, d-good.sgf")
    _set_up(h)
    h.play("C9")
    _said(h, "right")
    for name in bad:  # nothing lost: every file as it was
        with open(d + "/" + name) as f:
            assert f.read() == bad[name]
    # an empty folder says so
    h2 = _hand(_fresh(tmp + "/empty"))
    _study(h2)
    _said(h2, "no problems in")


def _clear(h):
    for pl in range(h.size * h.size):
        h.scan[pl] = 0
    h.wait_ms(2000)


def scenario_review_steps_through_a_kept_game_and_keeps_a_variation(tmp):
    d = _folder(tmp, "review")
    games = _fresh(tmp + "/review-games")
    h = _hand(d, games)
    h.ref.resume([], "", h.t)
    h.moves("E5 D5 F5 D4 E4 J9")
    h.press(BTN_NEW)
    h.press(BTN_CONFIRM)  # the unfinished game is kept: 0001.sgf
    with open(games + "/0001.sgf") as f:
        original = f.read()
    _clear(h)
    h.press(BTN_STUDY)
    assert jn._exists(games + "/study")  # study mode on: kept across a power cut
    h.press(BTN_STUDY)  # held New twice: review mode
    assert not jn._exists(games + "/study")  # a power cut now resumes no study
    said = [e[1] for e in h.events()]
    assert "review 0001.sgf: 6 moves; set the start up, then New steps forward, Pass back" \
        in said, said
    h.settle()
    assert h.ref.phase == "play"
    h.press(BTN_NEW)  # forward: the record's first move lit to be placed
    assert h.code("E5") == fr.PUT_BLACK | fr.BLINK
    h.follow()
    h.press(BTN_NEW)
    assert h.code("D5") == fr.PUT_WHITE | fr.BLINK
    h.follow()
    h.press(BTN_NEW)
    h.follow()
    h.play("D4")  # the record's next move placed by hand: a step forward too
    assert h.ref.study.at == 4 and h.ref.study.branch == -1
    h.press(BTN_PASS)  # back: D4 lit to be lifted
    assert h.colour_at("D4") == fr.REMOVE
    h.follow()
    assert h.ref.board.moves == 3 and h.ref.study.at == 3
    h.events()
    h.play("C3")  # White plays elsewhere: a variation from move 3
    h.play("G7")
    said = [e[1] for e in h.events("review")]
    assert "a variation from move 3: Confirm keeps it as a new record" in said, said
    h.press(BTN_CONFIRM)
    said = [e[1] for e in h.events("review")]
    assert "variation kept as 0002.sgf (0001.sgf unchanged)" in said, said
    with open(games + "/0001.sgf") as f:
        assert f.read() == original
    with open(games + "/0002.sgf") as f:
        kept = f.read()
    from gogadget import sgf
    main = sgf.parse(kept)
    assert main.moves == sgf.parse(original).moves  # the main line is the record's
    assert "(;W[df];B[ef];W[ia])(;W[cg];B[gc]C[a variation at the board from move 3])" \
        in kept, kept
    assert "SZ[9]" in kept
    h.press(BTN_STUDY)  # held New: study off, a new game
    assert h.ref.study is None
