"""gogadget update: the firmware onto a board that keeps its game, its
calibration, config and secrets; an update cut at any step boots (the old
firmware or the new one whole) and loses nothing; a downgrade over files
the old firmware cannot read, a board that is not a Go Gadget and an image
for the other board are refused with nothing changed.

The board is a flash folder run by the MicroPython unix port (MICROPYPATH
= the folder, as the board's root), with the firmware as `make mpy`
builds it.  tests/test_update_rp2.py does the same on the emulated Pico
through mpremote."""
import io
import json

import pytest

from conftest import ROOT
from host_sim import cli
from host_sim.tools import formats as fm
from host_sim.tools import update as up

# main.py as the first firmware (0.1.0) had it: no switch of its own.
OLD_MAIN = b"from gogadget.loop import main\n\nif __name__ == \"__main__\":\n    main()\n"

GAME = r"""
import sys
import machine
machine.install_colour(9, seed=11, noise=200)
class Stream:
    def readinto(self, buf): return 0
    def write(self, b): pass
import main
from gogadget.points import place
app = main.main(cycles=2, stream=Stream())
ref = app.referee
print("RESUMED", ref.board.moves, "DAMAGE", repr(ref.damage))
for i in range(int(sys.argv[-1]) if sys.argv[-1].isdigit() else 0):
    for x in range(9 * 9):
        if ref.board.cells[x] == 0 and ref.external_move(ref.to_move(), x) == 0:
            break
print("MOVES", ref.board.moves)
"""


@pytest.fixture(scope="module")
def new_files():
    return up.build_files(stream=io.StringIO())


def old_files(new_files):
    """The first firmware as a board holds it: no manifest, its main.py."""
    files = {k: v for k, v in new_files.items() if k != fm.MANIFEST}
    files["main.py"] = OLD_MAIN
    return files


def make_board(tmp_path, files):
    flash = tmp_path / "flash"
    for rel, data in files.items():
        (flash / rel).parent.mkdir(parents=True, exist_ok=True)
        (flash / rel).write_bytes(data)
    (flash / "config.json").write_text('{"size": 9}')
    (flash / "secrets.json").write_text('{"wifi_password": "pw"}')
    return flash


def boot(micropython, flash, moves=0):
    r = micropython(code=GAME, args=["x", str(moves)], cwd=str(flash),
                    path=[flash, ROOT / "tests" / "mp"])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    return out


def snapshot(flash, skip=("gogadget", "main.py", "lib", "gogadget.new", "gogadget.old")):
    """The board's own files (everything but the firmware's)."""
    return {str(p.relative_to(flash)): p.read_bytes() for p in flash.rglob("*")
            if p.is_file() and p.relative_to(flash).parts[0] not in skip}


def test_an_update_keeps_a_game_under_way_which_goes_on(micropython, tmp_path, new_files):
    flash = make_board(tmp_path, old_files(new_files))
    assert "MOVES 12" in boot(micropython, flash, 12)
    kept = snapshot(flash)
    assert "games/journal.bin" in kept
    out = io.StringIO()
    up.update(up.DirFlash(flash), new_files, stream=out)
    text = out.getvalue()
    assert "firmware 0.1.0 or older (no manifest) -> 0.2.0" in text, text
    assert "done:" in text and "now runs 0.2.0" in text, text
    assert snapshot(flash) == kept  # nothing of the board's own was written
    assert json.loads((flash / fm.MANIFEST).read_text())["version"] == "0.2.0"
    assert (flash / "main.py").read_bytes() == new_files["main.py"]
    assert not (flash / "gogadget.new").exists() and not (flash / "gogadget.old").exists()
    got = boot(micropython, flash, 3)
    assert "RESUMED 12 DAMAGE ''" in got and "MOVES 15" in got, got


class Cut(Exception):
    pass


class CutFlash(up.DirFlash):
    """A flash whose power goes at the n-th file written, half of it on
    flash; or (step) before a step."""

    def __init__(self, root, puts=None, step=None):
        super().__init__(root)
        self.puts = puts
        self.step = step

    def put(self, rel, data):
        if self.puts is not None:
            self.puts -= 1
            if self.puts < 0:
                super().put(rel, data[:len(data) // 2])
                raise Cut(rel)
        super().put(rel, data)

    def cut(self, step):
        if step == self.step:
            raise Cut(step)


CUTS = [("old", "step", s) for s in up.STEPS[1:]] + [("old", "puts", 1), ("old", "puts", 20),
                                                     ("new", "puts", 20), ("new", "step", "lib"),
                                                     ("new", "step", "switch")]


@pytest.mark.parametrize("base,how,where", CUTS, ids=["%s-%s-%s" % c for c in CUTS])
def test_an_update_cut_boots_and_loses_nothing(micropython, tmp_path, new_files, base, how,
                                              where):
    """base: the firmware on the board before, the first (its main.py
    knows no switch: an update cut before main.py leaves it running) or
    this one (its main.py finishes a complete package, removes a half one)."""
    flash = make_board(tmp_path, old_files(new_files) if base == "old" else new_files)
    boot(micropython, flash, 7)
    kept = snapshot(flash)
    cut = CutFlash(flash, **{how: where})
    with pytest.raises(Cut):
        up.update(cut, new_files, stream=io.StringIO(), cut=cut.cut)
    got = boot(micropython, flash, 1)
    assert "RESUMED 7 DAMAGE ''" in got and "MOVES 8" in got, got
    # the old firmware or the new one, whole: never a mix, never neither
    for rel, data in new_files.items():
        if rel.startswith("gogadget/") and rel != fm.MANIFEST:
            assert (flash / rel).read_bytes() == data  # (the old one is this build without it)
    assert not (flash / "gogadget.old").exists()
    switched = how == "step" and where in ("switch", "clean") or (
        base == "new" and how == "step" and where in ("lib", "main"))
    if base == "new":
        assert (flash / fm.MANIFEST).exists()
        assert not (flash / "gogadget.new").exists()  # finished, or a half one removed
        assert ("update switched in" in got) == switched, got
        assert ("update cut short was removed" in got) == (how == "puts"), got
    else:
        assert (flash / fm.MANIFEST).exists() == switched, got
    kept["games/journal.bin"] = (flash / "games" / "journal.bin").read_bytes()  # (its move)
    assert snapshot(flash) == kept
    up.update(up.DirFlash(flash), new_files, stream=io.StringIO())  # then done again, whole
    assert "RESUMED 8" in boot(micropython, flash)


def newer_board(tmp_path, new_files, micropython):
    flash = make_board(tmp_path, new_files)
    boot(micropython, flash, 5)  # journal format 1
    return flash


def test_a_downgrade_over_a_journal_it_cannot_read_is_refused(micropython, tmp_path, new_files):
    flash = newer_board(tmp_path, new_files, micropython)
    before = {str(p.relative_to(flash)): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    older = old_files(new_files)
    older[fm.MANIFEST] = json.dumps({"version": "0.1.0", "commit": "c7bb464",
                                     "formats": fm.FORMATS_BEFORE}).encode()
    with pytest.raises(up.UpdateError) as err:
        up.update(up.DirFlash(flash), older, stream=io.StringIO())
    assert "refused, a downgrade over files it cannot read: games/journal.bin is format 1, " \
        "firmware 0.1.0 reads up to 0" in str(err.value)
    assert "config.json is format 0" not in str(err.value)
    after = {str(p.relative_to(flash)): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    assert after == before
    out = io.StringIO()
    up.update(up.DirFlash(flash), older, force=True, stream=out)  # told to
    assert "forced: games/journal.bin is format 1" in out.getvalue()


def test_a_folder_that_is_not_a_go_gadget_is_left_alone(tmp_path, new_files):
    (tmp_path / "main.py").write_text("print('my own project')\n")
    with pytest.raises(up.UpdateError) as err:
        up.update(up.DirFlash(tmp_path), new_files, stream=io.StringIO())
    assert "not a Go Gadget" in str(err.value)
    assert [p.name for p in tmp_path.iterdir()] == ["main.py"]


def test_an_image_for_the_other_board_is_refused(tmp_path, new_files):
    import test_uf2
    from host_sim.tools import uf2, mpy
    build = tmp_path / "build"
    mpy.build(out=build, stream=io.StringIO())
    firmware = test_uf2.fake_firmware(tmp_path / "RPI_PICO_W.uf2", board="pico-w")
    image = uf2.make_image(firmware, build=build, out=tmp_path / "w.uf2", commit="abc",
                           stream=io.StringIO())
    files, board = up.image_files(image)
    assert board == "pico-w" and json.loads(files[fm.MANIFEST])["board"] == "pico-w"
    flash = make_board(tmp_path, dict(new_files, **{fm.MANIFEST: fm.manifest("pico", "abc")}))
    before = {str(p.relative_to(flash)): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    with pytest.raises(up.UpdateError) as err:
        up.update(up.DirFlash(flash), files, image_board=board, stream=io.StringIO())
    assert "the image is for the Pico W, this board is a Pico" in str(err.value)
    after = {str(p.relative_to(flash)): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    assert after == before
    (tmp_path / "junk.uf2").write_bytes(b"not an image")
    with pytest.raises(up.UpdateError) as err:
        up.image_files(tmp_path / "junk.uf2")
    assert "is not a UF2 image" in str(err.value)


def test_update_on_the_simulators_store(tmp_path, capsys):
    from host_sim.sim.simboard import SimBoard
    store = tmp_path / "store"
    sim = SimBoard(size=9, store_dir=str(store))
    sim.app.referee.external_move(1, 10)
    sim.close()
    journal = (store / "journal.bin").read_bytes()
    assert cli.main(["update", "--sim", "--sim-store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "now runs 0.2.0" in out and "keeping journal.bin" in out, out
    assert (store / "journal.bin").read_bytes() == journal
    assert (store / "gogadget" / "manifest.json").exists()
