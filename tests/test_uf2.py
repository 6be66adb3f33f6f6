"""`make uf2`: the images a maker flashes, one per board (host_sim/tools/uf2.py).

Built once per session by the uf2_images fixture (conftest.py); the Pico
image plays CI's on-board game in tests/test_rp2_board.py.  Here: the files,
their SHA256SUMS, what each image has frozen in, the version stamp, the Pico
W image booting on the emulated RP2040 (its CYW43 radio is not emulated, so
Wi-Fi and MQTT are not run), and the tree check that refuses another
MicroPython.
"""
import asyncio
import hashlib
import struct
import subprocess

import pytest

from conftest import ROOT, need_emulator

from host_sim import rp2
from host_sim.tools import mpy, uf2

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FAMILY_ID_PRESENT = 0x00002000


def test_images_and_their_sums(uf2_images):
    from gogadget import VERSION
    assert sorted(uf2_images) == ["pico", "pico-w"]
    sums = (uf2.OUT / "SHA256SUMS").read_text().splitlines()
    assert len(sums) == 2, sums
    for board, path in uf2_images.items():
        assert path.name == "gogadget-%s-%s.uf2" % (board, VERSION)
        data = path.read_bytes()
        assert "%s  %s" % (hashlib.sha256(data).hexdigest(), path.name) in sums
        # Every 512-byte block: the UF2 magic, the RP2040 family, 256 bytes
        # for flash from 0x10000000 on, numbered 0..n-1 of n.
        assert len(data) % 512 == 0
        n = len(data) // 512
        for i in range(n):
            m0, m1, flags, addr, size, no, total, family = struct.unpack_from("<8I", data, i * 512)
            m2, = struct.unpack_from("<I", data, i * 512 + 508)
            assert (m0, m1, m2) == UF2_MAGIC and flags & FAMILY_ID_PRESENT
            assert family == int(uf2.UF2_FAMILY, 16) and size == 256
            assert (no, total) == (i, n) and addr == 0x10000000 + 256 * i
    # sha256sum itself agrees (what the README tells a maker to run).
    res = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=uf2.OUT, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def _expected_frozen():
    """Every firmware module (main.py included), as frozen names."""
    return {rel.as_posix() for rel in mpy.sources()}


@pytest.mark.parametrize("board", ["pico", "pico-w"])
def test_frozen_modules(uf2_images, board):
    frozen = set(uf2.frozen_modules(board))
    missing = _expected_frozen() - frozen
    assert not missing, missing
    assert {"umqtt/simple.py", "gogadget/stamp.py", "gogadget/hw/net.py"} <= frozen
    assert "manifest.py" not in frozen
    if board == "pico-w":
        # The board's own manifest comes first: its networking bundle.
        assert {"mip/__init__.py", "ntptime.py"} <= frozen, sorted(frozen)
    else:
        assert not any(n.startswith(("mip/", "aioble/")) for n in frozen), sorted(frozen)
    stamp = (uf2.OUT / board / "stage" / "gogadget" / "stamp.py").read_text()
    assert "COMMIT = %r" % uf2.commit_id() in stamp and "IMAGE = %r" % board in stamp


@pytest.mark.parametrize("board", sorted(uf2.BOARDS))
def test_frozen_viper_code_starts_word_aligned(uf2_images, board):
    # Without the mpy-tool fix the build applies, the RP2040's viper loops
    # were frozen 2 bytes off a word and their first long jump went astray
    # (host_sim/tools/micropython-mpy-tool-armv6m-align4.patch).
    content = (uf2.cmake_dir(board) / "frozen_content.c").read_text()
    viper = [line for line in content.splitlines()
             if line.startswith("static const byte fun_data_gogadget_hw_rp2viper")
             and "section(" in line]  # machine code (the module's own body is bytecode)
    assert viper, "no frozen rp2viper machine code"
    assert all("aligned (4)" in line for line in viper), viper[0]


def test_stamp_is_not_in_the_repository():
    assert not (ROOT / "firmware" / "gogadget" / "stamp.py").exists()
    from gogadget import describe
    assert describe().endswith("(dev)")


@pytest.mark.timeout(900)
def test_pico_w_image_boots_and_imports_the_app(uf2_images, tmp_path):
    """rp2040py has a Pico W board (the RP2040 with a CYW43439 stand-in),
    but no Wi-Fi to join: boot, the version, and every module the room
    publisher needs imported from the frozen image (hw/net.py, umqtt,
    network); the app itself built with CONFIRM held, as on a board."""
    need_emulator()
    from host_sim.rp2 import pins
    pico = rp2.Pico(None, size=19, hold_confirm=True, firmware=uf2_images["pico-w"],
                    board="pico_w")
    code = ("import gc, network\n"
            "import gogadget, gogadget.app, gogadget.hw.net, umqtt.simple\n"
            "gc.collect()\n"
            "print('W', gogadget.describe(), gogadget.hw.net.__name__, "
            "umqtt.simple.MQTTClient.__name__, 'WLAN' in dir(network), gc.mem_free())\n")

    async def run():
        await pico.start()
        assert await pico.run_until(lambda: "not starting" in pico.console(), 50, 20000), \
            pico.console()
        pico.press(pins.BUTTON_CONFIRM, False)
        out, err = await pico.exec(code, timeout=300)
        pico.stop()
        return out, err

    out, err = asyncio.run(run())
    assert not err, err
    from gogadget import VERSION
    assert "W %s (%s, pico-w image) gogadget.hw.net MQTTClient True" \
        % (VERSION, uf2.commit_id()) in out, out
    assert "gogadget %s (%s, pico-w image)" % (VERSION, uf2.commit_id()) in pico.console()


def _fake_tree(path, marker):
    (path / "ports" / "rp2").mkdir(parents=True)
    (path / "ports" / "rp2" / "CMakeLists.txt").write_text("")
    (path / "MICROPYTHON_COMMIT").write_text(marker)
    return path


def test_make_uf2_refuses_another_micropython(tmp_path):
    tree = _fake_tree(tmp_path / "mp", "v1.27.0 9fd3b9d4c1f8e1d1bb6e4a0e0b4c7f2d9a7e0a11\n")
    res = subprocess.run(["make", "uf2", "MICROPY_DIR=%s" % tree], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode != 0
    err = res.stdout + res.stderr
    assert "is MicroPython v1.27.0" in err and uf2.MICROPYTHON_TAG in err, err
    assert "git -C %s checkout %s" % (tree, uf2.MICROPYTHON_TAG) in err, err
    # The right version without its submodules is refused too, saying which.
    tree = _fake_tree(tmp_path / "mp2", "%s %s\n" % (uf2.MICROPYTHON_TAG, uf2.MICROPYTHON_COMMIT))
    with pytest.raises(SystemExit, match="lacks the submodules lib/pico-sdk"):
        uf2.check_tree(tree)


def test_the_readme_names_the_pinned_tree():
    """A maker without ../shared clones the same tree: the README says how,
    with the tag and the submodules the build uses."""
    text = (ROOT / "README.md").read_text()
    assert "git clone --branch %s https://github.com/micropython/micropython" \
        % uf2.MICROPYTHON_TAG in text
    assert "git submodule update --init %s" % " ".join(uf2.SUBMODULES) in text
    hw = (ROOT / "hardware" / "README.md").read_text()
    assert "sha256sum -c SHA256SUMS" in hw
