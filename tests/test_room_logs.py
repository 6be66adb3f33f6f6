"""Log lines a flood cannot multiply (host_sim/room/logs.py; issue 36,
finding 6): one line a key every 10 s, the others counted and said."""
import logging

from gogadget.roomnames import T_MOVE, topic
from host_sim.room.games import Room
from host_sim.room.logs import Limited


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_one_line_a_key_a_window_and_the_count_after(caplog):
    caplog.set_level(logging.WARNING, logger="test.limited")
    clock = Clock()
    limited = Limited(logging.getLogger("test.limited"), every=10.0, clock=clock)
    for _ in range(1000):
        limited.warning("a", "drop a: %s", "bad")
    limited.warning("b", "drop b: %s", "bad")
    assert [r.getMessage() for r in caplog.records] == ["drop a: bad", "drop b: bad"]
    clock.t += 10.0
    limited.flush()
    assert caplog.records[-1].getMessage() == "a: 999 more lines like the last held back in 10 s"
    limited.warning("a", "drop a: %s", "again")
    assert caplog.records[-1].getMessage() == "drop a: again"
    assert len(caplog.records) == 4


def test_a_boards_bad_messages_are_one_line_with_a_count(caplog):
    caplog.set_level(logging.WARNING, logger="gogadget.relay")
    room = Room()
    for _ in range(5000):
        assert room.handle(topic("table-1", T_MOVE), b'{"v":1}') == "dropped"
    room.handle(topic("table-2", T_MOVE), b'{"v":1}')
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and lines[0].startswith("drop gogadget/board/table-1/move"), lines
    assert room.counts["dropped"] == 5001  # every one counted
