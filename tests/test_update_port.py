"""gogadget update --port on a board behind a console (issue 38): the
firmware of this checkout under the unix port on a TCP console, as
tests/test_room_boards_port.py runs it (tests/test_update_rp2.py does the
same on the emulated Pico where a UF2 is at hand).  The board is asked to
restart for maintenance, its files are written through mpremote, and
after its reset the command waits until the board answers with the
version it wrote; the game under way goes on."""
import io
import json

from conftest import ROOT, run_micropython
from host_sim import cli
from host_sim.tools import formats as fm
from host_sim.tools import update as up
import test_update
from test_room_boards_port import port  # noqa: F401  (the fixture)


def old_board(tmp_path):
    """A flash running this firmware as 0.1.9, a game of 6 moves under way."""
    files = up.build_files(stream=io.StringIO())
    files[fm.MANIFEST] = json.dumps(dict(json.loads(fm.manifest("pico", "abc")),
                                         version="0.1.9")).encode()
    flash = test_update.make_board(tmp_path, files)
    r = run_micropython(code=test_update.GAME, args=["x", "6"], cwd=str(flash),
                        path=[flash, ROOT / "tests" / "mp"])
    assert "MOVES 6" in r.stdout, r.stdout + r.stderr
    return flash


def test_update_over_the_port_waits_for_the_board_it_wrote(port, tmp_path, capsys):  # noqa: F811
    flash = old_board(tmp_path)
    kept = {k: (flash / k).read_bytes() for k in ("config.json", "games/journal.bin")}
    port.plug(flash)
    assert cli.main(["update", "--port", port.url, "--wait", "60"]) == 0
    out = capsys.readouterr().out
    assert "restarting for the update" in out and "firmware 0.1.9" in out, out
    assert "-> 0.2.0" in out and ("%s: back, running 0.2.0" % port.url) in out, out
    t = up.transport_for(port.url)
    try:
        assert "moves=6" in up.ask(t, "gogadget-status", 30, every=10)  # the game goes on
    finally:
        t.close()
    assert {k: (flash / k).read_bytes() for k in kept} == kept
    assert not (flash / "gogadget.new").exists() and not (flash / "gogadget.old").exists()
    assert json.loads((flash / fm.MANIFEST).read_text())["version"] == "0.2.0"


def test_a_board_that_does_not_come_back_is_said_so(port, tmp_path, capsys):  # noqa: F811
    flash = old_board(tmp_path)
    port.plug(flash)
    port.dead_after_reset = True
    assert cli.main(["update", "--port", port.url, "--wait", "5"]) == 1
    err = capsys.readouterr().err
    assert "the files are written, but the board on %s did not answer in 5 s" % port.url in err
