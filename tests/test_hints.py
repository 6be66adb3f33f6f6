"""Hints and territory from an engine, lit on the board (issue 37): the
GNU Go side against the real /usr/games/gnugo, the KataGo and Leela Zero
parsers against samples written from their GTP documentation
(tests/study/*.txt, not recorded runs), and the board's refusals."""
import pytest

from conftest import GNUGO, ROOT
from gogadget import frame as fr
from host_sim.base import hints
from host_sim.base.serialport import engine
from host_sim.sim.session import Wire
from host_sim.sim.virtual import Simulator

SAMPLES = ROOT / "tests" / "study"


class Direct:
    """The host's side of the simulator's GTP link, in process."""

    def __init__(self, sim):
        self.sim = sim

    def send(self, command):
        out = self.sim.link.handle(command)
        if not out.startswith("="):
            raise hints.HintError(out.strip())
        return out[1:].strip()


def _sim(moves):
    sim = Simulator(size=9, stream=Wire().board)
    sim.settle()
    for v in moves.split():
        sim.stones.put(v, sim.referee.to_move())
        sim.settle()
    assert sim.referee.board.moves == len(moves.split())
    return sim


def test_kata_analyze_sample_parsed():
    cands, own = hints.parse_analyze((SAMPLES / "kata-analyze.txt").read_text(), 9)
    assert [c["move"] for c in cands] == ["E5", "C3", "G7"]
    assert cands[0]["visits"] == 120 and cands[0]["winrate"] == pytest.approx(0.5612)
    assert cands[0]["pv"] == ["E5", "C3", "G3"]
    assert len(own) == 81
    m = hints.territory_map([own[r * 9:(r + 1) * 9] for r in range(9)], {(0, 0)},
                            white_positive=False)
    assert m[0] == "." and m[1] == "b" and m[8] == "w" and m[4] == "."


def test_lz_analyze_sample_parsed():
    cands, own = hints.parse_analyze((SAMPLES / "lz-analyze.txt").read_text())
    assert [(c["move"], c["order"]) for c in cands] == [("D4", 0), ("Q16", 1), ("C3", 2)]
    assert cands[0]["winrate"] == pytest.approx(0.4821) and own is None
    with pytest.raises(hints.HintError, match="no info lines"):
        hints.parse_analyze("= \n")


def test_gnugo_top_moves_lit_best_distinct(gnugo_path):
    sim = _sim("E5 C3 G3")
    eng = engine(GNUGO + " --mode gtp")
    try:
        moves = hints.gnugo_hint(Direct(sim), eng)
    finally:
        eng.close()
    assert 1 <= len(moves) <= 3 and moves[0][1] >= moves[-1][1]
    sim.run(40)
    best = sim.stones.place(moves[0][0])
    assert sim.leds.code(best) == fr.INFO
    for v, _ in moves[1:]:
        assert sim.leds.code(sim.stones.place(v)) == fr.INFO | fr.DIM
    assert any(e[1] == "hint" and "hint at move 4: %s" % moves[0][0] in e[2]
               for e in sim.events), sim.events[-3:]
    assert "C[engine hints: hint at move 4]" in Direct(sim).send("gogadget-sgf")  # the record


def test_gnugo_territory_lit_and_score_said(gnugo_path):
    sim = _sim("E5 C3 G3 C7 G7")
    eng = engine(GNUGO + " --mode gtp")
    try:
        m, score = hints.gnugo_territory(Direct(sim), eng)
    finally:
        eng.close()
    assert score[:2] in ("B+", "W+") and "b" in m and "w" in m
    sim.run(40)
    codes = [sim.leds.code(p) for p in range(81)]
    assert codes.count(fr.TERRITORY_BLACK | fr.DIM) == m.count("b")
    assert codes.count(fr.TERRITORY_WHITE | fr.DIM) == m.count("w")
    assert any(e[1] == "territory" and "estimated " + score in e[2] for e in sim.events)


def test_the_board_refuses_hints_in_a_room_game_or_while_it_asks():
    sim = _sim("E5 C3")
    d = Direct(sim)
    sim.stones.lift("E5")  # the board now asks for E5 back
    sim.settle()
    with pytest.raises(hints.HintError, match="showing what to do"):
        d.send("gogadget-lights hint D4")
    sim.stones.put("E5", 1)
    sim.settle()
    d.send("gogadget-lights hint D4")
    sim.referee.room = True  # (broadcast.Broadcaster.attach sets it)
    with pytest.raises(hints.HintError, match="no hints in a room game"):
        d.send("gogadget-lights hint D4")


def test_the_gesture_asks_and_the_host_answers_with_gnugo(gnugo_path):
    from gogadget.events import BTN_CONFIRM
    sim = _sim("E5 C3 G3")
    d = Direct(sim)
    d.send("gogadget-events")  # what happened so far
    sim.press(BTN_CONFIRM)  # nothing to confirm in play: a hint asked
    sim.run(40)
    ticks = iter(range(3))
    said = []
    eng = engine(GNUGO + " --mode gtp")
    try:
        n = hints.watch(d, eng, 2, clock=lambda: next(ticks), sleep=lambda s: sim.run(20),
                        say=said.append)
    finally:
        eng.close()
    assert n == 1 and said[0].startswith("hint lit: "), said
    assert fr.INFO in [sim.leds.code(p) for p in range(81)]


GAME = ("(;GM[1]FF[4]SZ[9]KM[7.5]PB[Person]C[a 9x9 game];B[ee];W[cc];B[gc];W[cg];B[ge];W[ai]"
        ";B[ec];W[ce];B[eg])\n")  # White's A1 (move 6) gives away the move


def test_drops_marked_by_gnugo_and_review_jumps_to_them(gnugo_path, tmp_path):
    import sys
    sys.path.insert(0, str(ROOT / "tests" / "mp"))
    from gogadget import sgf
    eng = engine(GNUGO + " --mode gtp")
    try:
        text, marked = hints.mark_drops(GAME, eng, 2)
    finally:
        eng.close()
    # (only moves that lost their mover points are marked: at most 2)
    assert 1 <= len(marked) <= 2 and all(loss > 0 for _, loss in marked), marked
    assert 6 in [k for k, _ in marked], marked
    g = sgf.parse(text)
    assert g.moves == sgf.parse(GAME).moves and g.props["PB"] == ["Person"]
    assert g.props["GC"] == ["gogadget-drops: %s" % " ".join(str(k) for k, _ in marked)]
    assert text.count("C[drop: ") == len(marked)
    # the board: review mode's Confirm goes to the position before each marked move
    import study_scenarios as sc
    from gogadget.events import BTN_CONFIRM, BTN_STUDY
    games = sc._fresh(str(tmp_path / "games"))
    with open(games + "/0001.sgf", "w") as f:
        f.write(text)
    h = sc._hand(sc._fresh(str(tmp_path / "problems")), games)
    h.ref.resume([], "", h.t)
    h.press(BTN_STUDY)
    h.press(BTN_STUDY)
    h.settle()
    h.events()
    h.press(BTN_CONFIRM)
    first = marked[0][0]
    assert h.ref.board.moves == first - 1 and h.ref.study.at == first - 1
    said = [e[1] for e in h.events("review")]
    assert "before move %d, marked by the engine: New plays it" % first in said, said
    h.follow()  # the stones lit are placed
    assert h.ref.outstanding() == 0
