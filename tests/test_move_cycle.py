"""The cycle that takes a move does before its light only what must come
before it (issue 39: on the emulated Pico that cycle took 10.3 ms of the
10 ms scan period).  The move is journalled in it (a promise: on flash
before the light), but its event's text ("B D4": each new string is a look
through the board's table of names, 0.7 ms there) is made when the event is
collected, after the light; the text is the same."""
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
from fakehand import Hand  # noqa: E402

from gogadget import play, points, referee  # noqa: E402


def test_a_moves_event_text_is_made_when_collected_not_in_its_cycle(monkeypatch):
    h = Hand(9)
    h.settle()
    made = []

    def vertex(size, pt):
        made.append(pt)
        return points.vertex(size, pt)

    monkeypatch.setattr(play, "vertex", vertex)
    monkeypatch.setattr(referee, "vertex", vertex, raising=False)
    h.put("D4")
    ref = h.ref
    for _ in range(ref.settler.debounce + 3):  # the scans, the events not collected
        ref.update(h.scan, h.t)
        h.t += h.period
    assert ref.board.moves == 1
    assert made == []  # no text in the move's cycle
    assert ref.poll_event() == ("move", "B D4")
    assert made == [points.parse_vertex(9, "D4")]
