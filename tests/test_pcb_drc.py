"""KiCad's own DRC (pcbnew.WriteDRCReport, Debian's kicad 6) on every board
under hardware/pcb/, against the fab class of host_sim/tools/fab/fabrules.py:
0 errors and 0 unconnected items each.  Small fixture boards show the check
can fail: tracks too close, a net left unrouted, a ring under the floor."""
import pytest

from pcbtools import BOARDS, ROOT, drc, fixture_board, need_pcbnew


def _summary(result):
    lines = ["%s: %s at %s" % (e["type"], e["text"], "; ".join(e["where"]))
             for e in result["errors"] + result["unconnected"]]
    return "\n".join(lines[:40])


@pytest.fixture(scope="module")
def board_results():
    need_pcbnew()
    if not BOARDS:
        return {}
    results, _ = drc(*BOARDS)
    return {r["board"]: r for r in results}


@pytest.mark.parametrize("board", BOARDS, ids=[str(b.relative_to(ROOT / "hardware" / "pcb")) for b in BOARDS])
def test_board_is_drc_clean(board_results, board):
    result = board_results[str(board)]
    assert result["copper_layers"] in (4, 6)  # the controller's 4, the tiles' 6
    assert not result["errors"] and not result["unconnected"], (
        "%s: %d DRC errors, %d unconnected\n%s" % (board.name, len(result["errors"]),
                                                   len(result["unconnected"]), _summary(result)))


def test_fixture_boards(tmp_path):
    """The runner passes a clean board (whose GND pins meet only through a
    zone the file leaves unfilled: the refill is needed) and fails each
    broken one for its own reason."""
    need_pcbnew()
    kinds = ("good", "tight", "unrouted", "ring")
    results, status = drc(*(fixture_board(tmp_path, k) for k in kinds))
    assert status == 1
    by_kind = dict(zip(kinds, results))
    good = by_kind["good"]
    assert not good["errors"] and not good["unconnected"], _summary(good)
    tight = by_kind["tight"]
    assert any(e["type"] == "clearance" and "actual 0.1000 mm" in e["text"] for e in tight["errors"]), \
        _summary(tight)
    unrouted = by_kind["unrouted"]
    assert len(unrouted["unconnected"]) == 1 and not unrouted["errors"]
    assert all("[B]" in w for w in unrouted["unconnected"][0]["where"])
    ring = by_kind["ring"]
    assert [e["type"] for e in ring["errors"]] == ["annular_width"] * 2


def test_runner_refuses_a_missing_board(tmp_path):
    need_pcbnew()
    from pcbtools import system_python
    r = system_python("-m", "host_sim.tools.fab.drc", tmp_path / "nothing.kicad_pcb")
    assert r.returncode == 2 and "no board file" in r.stderr
