"""The game clock's record and settings (the referee scenarios are in
tests/mp/clock_scenarios.py): SGF TM/OT and BL/WL, OB/OW read back by
sgfmill (an independent reader), and the config's limits."""
import sys

import pytest
from sgfmill import sgf as msgf

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
from fakehand import Hand  # noqa: E402
from gogadget import journal as jn  # noqa: E402
from gogadget.config import Config  # noqa: E402
from gogadget.events import BTN_PASS  # noqa: E402
from gogadget.points import BLACK, WHITE  # noqa: E402


def _game(tmp_path, **tc):
    h = Hand(9, journal=jn.Journal(str(tmp_path)), **tc)
    h.ref.resume([], "", h.t)
    h.settle()
    return h


def test_byoyomi_game_record_read_by_sgfmill(tmp_path):
    h = _game(tmp_path, time_control="byoyomi", main_time=10, period_time=30, periods=5)
    h.moves("E5")
    h.wait_ms(4000)
    h.moves("C3")  # white: 10 - 4 s
    h.wait_ms(25000)
    h.moves("D4")  # black: main over, 15 s into the first period, which it keeps
    h.press(BTN_PASS)  # white passes at once
    game = msgf.Sgf_game.from_string(h.ref.sgf())
    root = game.get_root()
    assert root.get("TM") == 10 and root.get("OT") == "5x30 byo-yomi"
    nodes = game.get_main_sequence()[1:]
    assert [n.get_move()[0] for n in nodes] == ["b", "w", "b", "w"]
    assert nodes[0].get("BL") == 10 and not nodes[0].has_property("OB")
    assert 5 <= nodes[1].get("WL") <= 6 and not nodes[1].has_property("OW")
    assert nodes[2].get("BL") == 30 and nodes[2].get("OB") == 5, "a move inside a period keeps it"
    assert nodes[3].get("WL") == nodes[1].get("WL")


def test_canadian_and_time_loss_in_the_kept_record(tmp_path):
    h = _game(tmp_path, time_control="canadian", main_time=0, period_time=60,
              stones_per_period=10)
    h.moves("E5 C3 D4")
    h.wait_ms(61000)  # white's period runs out
    assert h.ref.result == "B+T"
    game = msgf.Sgf_game.from_bytes(open(str(tmp_path / "0001.sgf"), "rb").read())
    root = game.get_root()
    assert root.get("RE") == "B+T" and root.get("TM") == 0 and root.get("OT") == "10/60 Canadian"
    nodes = game.get_main_sequence()[1:]
    assert nodes[1].get("OW") == 9 and 59 <= nodes[1].get("WL") <= 60
    assert nodes[2].get("OB") == 8, "black's second stone of the period"


def test_fischer_root_and_no_overtime_counts(tmp_path):
    h = _game(tmp_path, time_control="fischer", main_time=300, time_increment=20)
    h.moves("E5 C3")
    game = msgf.Sgf_game.from_string(h.ref.sgf())
    assert game.get_root().get("OT") == "20 fischer"
    b = game.get_main_sequence()[1]
    assert b.get("BL") == 320 and not b.has_property("OB")


def test_no_clock_no_time_properties(tmp_path):
    h = _game(tmp_path)
    h.moves("E5 C3")
    text = h.ref.sgf()
    assert "TM[" not in text and "BL[" not in text and "OT[" not in text


@pytest.mark.parametrize("settings,word", [
    (dict(time_control="hourglass"), "time_control"),
    (dict(time_control="byoyomi", main_time=60), "byoyomi needs"),
    (dict(time_control="canadian", period_time=60), "canadian needs"),
    (dict(time_control="absolute"), "absolute needs"),
    (dict(time_control="absolute", main_time=70000), "main_time"),
    (dict(time_control="byoyomi", period_time=30, periods=256), "periods"),
    (dict(time_control="absolute", main_time=60, play_on_time_out=1), "play_on_time_out"),
])
def test_config_refuses_a_bad_time_control(settings, word):
    with pytest.raises(ValueError, match=word):
        Config(**settings).validate()


def test_config_time_control_round_trip(tmp_path):
    path = str(tmp_path / "config.json")
    Config(time_control="canadian", main_time=600, period_time=300,
           stones_per_period=25).save(path)
    c = Config.load(path)
    assert (c.time_control, c.main_time, c.period_time, c.stones_per_period) == (
        "canadian", 600, 300, 25)


def test_a_journalled_clock_survives_other_colours():
    from gogadget.clock import Clock, CANADIAN
    c = Clock(CANADIAN, 0, 300000, stones=25)
    c.run(WHITE, 0)
    c.moved(WHITE, 1000)
    rec = jn.decode(c.record(WHITE), 0)
    d = Clock(CANADIAN, 0, 300000, stones=25)
    d.restore(*rec[1:])
    assert d.left(WHITE) == 299000 and d.overtime(WHITE) == 24 and d.left(BLACK) == 300000
