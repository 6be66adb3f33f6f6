"""`make image`: the official MicroPython UF2 plus the firmware's files on
its flash filesystem, one file a maker drags onto the board
(host_sim/tools/uf2.py); and where the emulated Pico finds its firmware
(host_sim/rp2.find_firmware).

The firmware here is a UF2 the test makes itself (no MicroPython binary:
none comes from a registry); the file is read back with this file's own
UF2 reader and littlefs-python.  Where a real UF2 is at hand
(GOGADGET_UF2 or the cache folder) the Pico W's image boots on the emulated
Pico W; the Pico's plays a game in tests/test_rp2_board.py.
"""
import asyncio
import io
import json
import os
import random
import struct
import subprocess
import sys

import pytest

import conftest
from conftest import ROOT, need_emulator

from host_sim import rp2
from host_sim.tools import mpy, uf2

MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FAMILY_PRESENT = 0x00002000
RP2040 = 0xE48BFF56
RP2350 = 0xE48BFF59
# Where the official builds mount their filesystem (the spec, written out
# here on purpose: the tool's own table is what is checked).
FS = {"pico": (0x100A0000, 352), "pico-w": (0x1012C000, 212)}
BANNER = b"MicroPython v1.29.0 on 2026-01-01"


def fake_firmware(path, board="pico", size=96 * 1024, family=RP2040, flags=FAMILY_PRESENT,
                  start=0x10000000, payload=256, seed=1):
    """A firmware-like UF2: size bytes of noise from start, with the banner
    and the board's name in it, numbered as picotool numbers its files."""
    rng = random.Random(seed)
    data = bytearray(rng.getrandbits(8) for _ in range(size))
    name = b"Raspberry Pi Pico W with RP2040" if board == "pico-w" else \
        b"Raspberry Pi Pico with RP2040"
    data[1000:1000 + len(BANNER) + 1] = BANNER + b"\0"
    data[3000:3000 + len(name) + 1] = name + b"\0"
    n = (size + payload - 1) // payload
    out = bytearray()
    for i in range(n):
        chunk = bytes(data[i * payload:(i + 1) * payload]).ljust(payload, b"\0")
        out += struct.pack("<8I", MAGIC[0], MAGIC[1], flags, start + i * payload, payload, i, n,
                           family)
        out += chunk + bytes(476 - payload) + struct.pack("<I", MAGIC[2])
    path.write_bytes(bytes(out))
    return path


def parse(data):
    """[(flags, address, size, number, total, family, payload)], every block
    checked for the UF2 magic."""
    assert len(data) % 512 == 0
    out = []
    for at in range(0, len(data), 512):
        m0, m1, flags, addr, size, no, total, family = struct.unpack_from("<8I", data, at)
        m2, = struct.unpack_from("<I", data, at + 508)
        assert (m0, m1, m2) == MAGIC, at // 512
        out.append((flags, addr, size, no, total, family, data[at + 32:at + 32 + size]))
    return out


def read_fs(blocks, board):
    """{path: bytes} of the littlefs the image puts at the board's address."""
    from littlefs import LittleFS, UserContext
    start, count = FS[board]
    fs_bytes = bytearray(b"\xff" * (count * 4096))
    for _f, addr, size, _n, _t, _fam, data in blocks:
        if start <= addr < start + count * 4096:
            fs_bytes[addr - start:addr - start + size] = data
    ctx = UserContext(buffsize=len(fs_bytes))
    ctx.buffer[:] = fs_bytes
    fs = LittleFS(context=ctx, block_size=4096, block_count=count, mount=True)
    files = {}
    for root, _dirs, names in fs.walk("/"):
        for n in names:
            p = (root.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                files[p] = f.read()
    return files


@pytest.fixture(scope="module")
def images(mpy_build, tmp_path_factory):
    """{board: (firmware path, merged path)} for both boards."""
    tmp = tmp_path_factory.mktemp("image")
    out = {}
    for board in FS:
        fw = fake_firmware(tmp / ("RPI_PICO%s-20260101-v1.29.0.uf2"
                                  % ("_W" if board == "pico-w" else "")), board)
        merged = uf2.make_image(fw, board, mpy_build, tmp / ("gogadget-%s.uf2" % board),
                                commit="0123456789ab", stream=io.StringIO())
        out[board] = (fw, merged)
    return out


@pytest.mark.parametrize("board", sorted(FS))
def test_blocks_numbered_counted_and_of_the_rp2040(images, board):
    blocks = parse(images[board][1].read_bytes())
    n = len(blocks)
    for i, (flags, _addr, size, no, total, family, _d) in enumerate(blocks):
        assert flags & FAMILY_PRESENT and family == RP2040, i
        assert size == 256 and (no, total) == (i, n), (i, no, total, n)


@pytest.mark.parametrize("board", sorted(FS))
def test_the_firmware_then_the_filesystem_where_the_board_mounts_it(images, board):
    fw, merged = images[board]
    want = parse(fw.read_bytes())
    got = parse(merged.read_bytes())
    start, count = FS[board]
    assert (uf2.LAYOUTS[board].fs_start, uf2.LAYOUTS[board].fs_blocks) == (start, count)
    # The firmware's blocks come first, in their order, byte for byte.
    assert [(b[1], b[6]) for b in got[:len(want)]] == [(b[1], b[6]) for b in want]
    assert max(b[1] for b in want) + 256 <= start
    # Then every 256-byte page of the filesystem once, in order, and nothing else.
    rest = [b[1] for b in got[len(want):]]
    assert rest == list(range(start, start + count * 4096, 256))
    assert start + count * 4096 == 0x10000000 + 2 * 1024 * 1024  # the end of the 2 MiB flash


def test_rp2040py_mounts_the_filesystem_where_the_tool_puts_it():
    from rp2040py.boards import BOARDS, resolve_layout
    for board, (start, count) in FS.items():
        layout = resolve_layout(BOARDS[uf2.LAYOUTS[board].emulated], "micropython")
        assert (0x10000000 + layout.fs_start, layout.fs_blockcount, layout.fs_blocksize) == \
            (start, count, 4096)


@pytest.mark.parametrize("board", sorted(FS))
def test_the_filesystem_holds_what_make_mpy_builds(images, mpy_build, board, tmp_path):
    files = read_fs(parse(images[board][1].read_bytes()), board)
    built = {rel: (mpy_build / rel).read_bytes() for rel in mpy.file_hashes(mpy_build)}
    assert "main.py" in built and "gogadget/app.mpy" in built and "lib/umqtt/simple.mpy" in built
    extra = {k: v for k, v in files.items() if k not in built}
    assert {k: files.get(k) for k in built} == built  # byte for byte
    assert sorted(extra) == ["config.json", "gogadget/manifest.json", "gogadget/stamp.mpy"]
    from gogadget.config import Config
    from gogadget.configfile import SECRETS
    config = json.loads(extra["config.json"])
    assert config == {k: v for k, v in Config().as_dict().items() if k not in SECRETS}
    # The files read back run: the version names the image.
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    res = subprocess.run([conftest.micropython_path(), "-c",
                          "import gogadget; print(gogadget.describe())"],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, MICROPYPATH=str(tmp_path)))
    from gogadget import VERSION
    assert res.stdout.strip() == "%s (0123456789ab, %s image)" % (VERSION, board), \
        res.stdout + res.stderr


def test_the_merged_file_is_named_by_board_and_version(mpy_build, tmp_path):
    from gogadget import VERSION
    fw = fake_firmware(tmp_path / "RPI_PICO_W-x.uf2", "pico-w")
    out = uf2.make_image(fw, None, mpy_build, tmp_path / "o.uf2", stream=io.StringIO())
    assert uf2.image_path("pico-w").name == "gogadget-pico-w-%s.uf2" % VERSION
    assert uf2.image_path("pico-w").parent == ROOT / "build"
    # No BOARD: the board the firmware names.
    assert read_fs(parse(out.read_bytes()), "pico-w")["gogadget/stamp.mpy"]
    assert uf2.banner(uf2.read_blocks(fw)) == \
        "MicroPython v1.29.0 on 2026-01-01; Raspberry Pi Pico W with RP2040"


def _refused(tmp_path, build, firmware, board=None, match=""):
    out = tmp_path / "out" / "gogadget.uf2"
    with pytest.raises(uf2.ImageError, match=match) as err:
        uf2.make_image(firmware, board, build, out, stream=io.StringIO())
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    return str(err.value)


def test_refusals_write_nothing(mpy_build, tmp_path):
    text = tmp_path / "notes.uf2"
    text.write_text("hello\n" * 200)
    _refused(tmp_path, mpy_build, text, match="is not a UF2 file")
    good = fake_firmware(tmp_path / "RPI_PICO-good.uf2").read_bytes()
    cut = tmp_path / "cut.uf2"
    cut.write_bytes(good[:-100])
    _refused(tmp_path, mpy_build, cut, match="not whole 512-byte blocks")
    bad = bytearray(good)
    bad[512 * 3 + 508] ^= 1
    (tmp_path / "bad.uf2").write_bytes(bytes(bad))
    _refused(tmp_path, mpy_build, tmp_path / "bad.uf2", match="block 3 has no UF2 magic")
    (tmp_path / "empty.uf2").write_bytes(b"")
    _refused(tmp_path, mpy_build, tmp_path / "empty.uf2", match="is not a UF2 file")
    _refused(tmp_path, mpy_build, tmp_path / "missing.uf2", match="missing.uf2")
    # Another chip's family (the Pico 2's RP2350), or none named.
    why = _refused(tmp_path, mpy_build, fake_firmware(tmp_path / "p2.uf2", family=RP2350),
                   match="not firmware for the RP2040")
    assert "0xe48bff59" in why and "0xe48bff56" in why
    _refused(tmp_path, mpy_build, fake_firmware(tmp_path / "nofam.uf2", flags=0),
             match="names no family")
    # Firmware for the other board.
    why = _refused(tmp_path, mpy_build, fake_firmware(tmp_path / "w.uf2", "pico-w"), "pico",
                   match="is MicroPython for the RPI_PICO_W")
    assert "RPI_PICO-*.uf2" in why
    _refused(tmp_path, mpy_build, fake_firmware(tmp_path / "p.uf2", "pico"), "pico-w",
             match="is MicroPython for the RPI_PICO ")
    # Blocks that reach into the filesystem.
    for board, (start, _n) in FS.items():
        big = fake_firmware(tmp_path / "big.uf2", board, size=start - 0x10000000 + 256)
        why = _refused(tmp_path, mpy_build, big, board, match="into the filesystem")
        assert "0x%08x" % start in why
    # Pages that are not 256 bytes.
    _refused(tmp_path, mpy_build, fake_firmware(tmp_path / "p476.uf2", payload=476),
             match="not a 256-byte page")


def test_files_that_do_not_fit_are_refused(mpy_build, tmp_path):
    import shutil
    build = tmp_path / "build"
    shutil.copytree(mpy_build, build)
    # 900 KB that does not compress: more than the Pico W's 848 KiB.
    (build / "gogadget" / "big.mpy").write_bytes(random.Random(3).randbytes(900 * 1024))
    fw = fake_firmware(tmp_path / "w.uf2", "pico-w")
    why = _refused(tmp_path, build, fw, "pico-w", match="do not fit")
    assert "848 KiB" in why
    # The Pico's 1408 KiB takes it.
    out = uf2.make_image(fake_firmware(tmp_path / "p.uf2"), "pico", build, tmp_path / "p-out.uf2",
                         stream=io.StringIO())
    assert len(read_fs(parse(out.read_bytes()), "pico")["gogadget/big.mpy"]) == 900 * 1024


def test_the_command_line_refuses_with_a_message_and_writes_nothing(tmp_path):
    fw = fake_firmware(tmp_path / "w.uf2", "pico-w")
    out = tmp_path / "x.uf2"
    for cmd in ([sys.executable, "-m", "host_sim.cli"], [sys.executable, "-m", "host_sim.tools.uf2"]):
        res = subprocess.run(cmd + ["image", "--firmware", str(fw), "--board", "pico", "--out",
                                    str(out), "--no-build"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert res.returncode == 2, res.stdout + res.stderr
        assert "is MicroPython for the RPI_PICO_W" in res.stderr and "nothing written" in res.stderr
        assert not out.exists()
    res = subprocess.run(["make", "-s", "image"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode != 0 and "make image FIRMWARE=" in res.stderr, res.stderr


def test_gogadget_image_builds_and_writes_the_file(tmp_path):
    """The command line's verb, as a maker runs it: make mpy's build into
    build/, then the file (here to --out)."""
    fw = fake_firmware(tmp_path / "RPI_PICO-20260101-v1.29.0.uf2")
    out = tmp_path / "gogadget-pico.uf2"
    res = subprocess.run([sys.executable, "-m", "host_sim.cli", "image", "--firmware", str(fw),
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "hold BOOTSEL while plugging the Pico in" in res.stdout, res.stdout
    files = read_fs(parse(out.read_bytes()), "pico")
    built = mpy.file_hashes(mpy.BUILD)
    assert sorted(files) == sorted(set(built) | {"config.json", "gogadget/stamp.mpy",
                                                 "gogadget/manifest.json"})


# -- where the emulated Pico's firmware comes from ------------------------------

@pytest.fixture
def no_firmware(monkeypatch, tmp_path):
    """Neither GOGADGET_UF2 nor a cache folder with anything in it."""
    monkeypatch.delenv(rp2.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def test_the_newest_of_each_board_in_a_folder(no_firmware, monkeypatch):
    folder = no_firmware / "fw"
    folder.mkdir()
    for name, board in (("RPI_PICO-20250415-v1.25.0.uf2", "pico"),
                        ("RPI_PICO-20260101-v1.29.0.uf2", "pico"),
                        ("RPI_PICO-20251201-v1.27.0.uf2", "pico"),
                        ("RPI_PICO_W-20260101-v1.29.0.uf2", "pico-w"),
                        ("RPI_PICO_W-20250415-v1.25.0.uf2", "pico-w"),
                        # named for the Pico, built for the W: told by content
                        ("RPI_PICO-20270101-v1.30.0.uf2", "pico-w")):
        fake_firmware(folder / name, board, size=4096)
    monkeypatch.setenv(rp2.ENV, str(folder))
    assert rp2.find_firmware("pico") == (folder / "RPI_PICO-20260101-v1.29.0.uf2", None)
    assert rp2.find_firmware("pico_w") == (folder / "RPI_PICO_W-20260101-v1.29.0.uf2", None)
    assert rp2.uf2_board(rp2.firmware_path("pico_w")) == "pico_w"
    # A file named in the variable is that file, for its own board only.
    one = folder / "RPI_PICO_W-20250415-v1.25.0.uf2"
    monkeypatch.setenv(rp2.ENV, str(one))
    assert rp2.find_firmware("pico_w") == (one, None)
    path, why = rp2.find_firmware("pico")
    assert path is None and "is not for the RPI_PICO" in why and rp2.ENV in why
    # --image wins over the variable.
    assert rp2.firmware_path("pico", folder) == folder / "RPI_PICO-20260101-v1.29.0.uf2"
    monkeypatch.setenv(rp2.ENV, str(no_firmware / "nowhere"))
    path, why = rp2.find_firmware("pico")
    assert path is None and "GOGADGET_UF2=%s does not exist" % (no_firmware / "nowhere") in why


def test_the_cache_folder(no_firmware, monkeypatch):
    cache = no_firmware / "cache" / "gogadget" / "firmware"
    assert rp2.cache_dir() == cache
    path, why = rp2.find_firmware("pico")
    assert path is None and str(cache) in why
    cache.mkdir(parents=True)
    fake_firmware(cache / "RPI_PICO-20260101-v1.29.0.uf2", size=4096)
    assert rp2.firmware_path("pico") == cache / "RPI_PICO-20260101-v1.29.0.uf2"
    assert rp2.firmware_path("pico_w") is None
    # No XDG_CACHE_HOME (or a relative one): ~/.cache, from HOME.
    monkeypatch.setenv("HOME", str(no_firmware / "home"))
    for value in (None, "relative/cache"):
        if value is None:
            monkeypatch.delenv("XDG_CACHE_HOME")
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert rp2.cache_dir() == no_firmware / "home" / ".cache" / "gogadget" / "firmware"


def test_no_firmware_is_a_skip_even_under_ci(no_firmware, monkeypatch):
    monkeypatch.setattr(conftest, "CI", True)
    monkeypatch.setattr(conftest, "UF2_AT_START", rp2.firmware_source())
    with pytest.raises(pytest.skip.Exception, match="GOGADGET_UF2"):
        need_emulator()
    # A missing emulator package is still a failure under CI.
    monkeypatch.setattr(rp2, "missing_packages", lambda: "rp2040py is not installed (make venv)")
    with pytest.raises(pytest.fail.Exception, match="rp2040py is not installed"):
        need_emulator()


def test_only_a_file_is_ever_booted(tmp_path):
    # rp2040py takes a name that is not a file for a version tag and
    # downloads that firmware: the emulated Pico refuses instead.
    with pytest.raises(FileNotFoundError):
        rp2.Pico(None, firmware="v1.29.0")


def test_figures_name_the_firmware(tmp_path):
    import hashlib
    fw = fake_firmware(tmp_path / "RPI_PICO-20260101-v1.29.0.uf2")
    line = rp2.describe_firmware(fw)
    assert line == ("MicroPython v1.29.0 on 2026-01-01; Raspberry Pi Pico with RP2040 "
                    "(RPI_PICO-20260101-v1.29.0.uf2, sha256 %s)"
                    % hashlib.sha256(fw.read_bytes()).hexdigest())


# -- a real firmware, where one is at hand ------------------------------------

@pytest.mark.timeout(900)
def test_pico_w_image_boots_and_imports_the_app(mpy_build, tmp_path):
    """rp2040py has a Pico W board (the RP2040 with a CYW43439 stand-in),
    but no Wi-Fi to join: the merged Pico W image boots alone, and the
    modules the room publisher needs import from its filesystem (hw/net.py,
    mqtt.py, broadcast.py, network) with CONFIRM held, as on a board."""
    firmware = need_emulator("pico_w")
    from host_sim.rp2 import pins
    merged = uf2.make_image(firmware, "pico-w", mpy_build, tmp_path / "w.uf2",
                            stream=io.StringIO())
    pico = rp2.Pico(None, size=19, hold_confirm=True, firmware=merged, board="pico_w")
    code = ("import gc, network\n"
            "import gogadget, gogadget.app, gogadget.hw.net, gogadget.mqtt, gogadget.broadcast\n"
            "gc.collect()\n"
            "print('W', gogadget.describe(), gogadget.hw.net.__name__, "
            "gogadget.mqtt.Client.__name__, 'WLAN' in dir(network), gc.mem_free())\n")

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
    assert "W %s (%s, pico-w image) gogadget.hw.net Client True" \
        % (VERSION, uf2.commit_id()) in out, out


# -- nothing of MicroPython's own in the project --------------------------------

# Spelled apart so that this file does not find itself.
BUILDS_MICROPYTHON = ("make " + "uf2", "MICROPY" + "_DIR", "LINKER" + "_FIX",
                      "shared/" + "micropython", "arm-none" + "-eabi", "submodule " + "update",
                      "git clone " + "--branch", "ports/" + "rp2", "mpy" + "-tool", "make" + "manifest")


def test_nothing_builds_patches_or_carries_micropython():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    hits = []
    for name in filter(None, files):
        path = ROOT / name
        if path.suffix in (".uf2", ".patch", ".elf", ".bin"):
            hits.append(name)
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            low = line.lower()
            if any(w.lower() in low for w in BUILDS_MICROPYTHON) or \
                    ("shared/" + "rp2" in low and "uf2" in low):
                hits.append("%s:%d: %s" % (name, n, line.strip()))
    assert hits == []


def test_the_readme_tells_a_maker_the_three_steps():
    text = " ".join((ROOT / "README.md").read_text().split())
    for words in ("https://micropython.org/download/RPI_PICO/",
                  "https://micropython.org/download/RPI_PICO_W/", "`mpflash`",
                  "make image FIRMWARE=", "gogadget image --firmware", "BOOTSEL", "RPI-RP2",
                  "`GOGADGET_UF2`", "`~/.cache/gogadget/firmware/`", "under `CI=true` too"):
        assert words in text, words
    assert rp2.ENV == "GOGADGET_UF2"


def test_the_bench_takes_the_firmware_it_is_given(no_firmware, monkeypatch):
    from host_sim.bench import rp2 as bench
    folder = no_firmware / "fw"
    folder.mkdir()
    pico = fake_firmware(folder / "RPI_PICO-20260101-v1.29.0.uf2", size=4096)
    w = fake_firmware(folder / "RPI_PICO_W-20260101-v1.29.0.uf2", "pico-w", size=4096)
    assert bench.image_arg(["--image", str(pico), "heap"]) == (("heap",), pico, None)
    assert bench.image_arg(["--image", str(w)])[1] == w  # the board told by content
    assert bench.image_arg(["rules", "--image", str(folder), "--board", "pico_w"])[:2] == \
        (("rules",), w)
    parts, firmware, why = bench.image_arg([])
    assert parts == bench.PARTS and firmware is None and rp2.ENV in why
    monkeypatch.setenv(rp2.ENV, str(folder))
    assert bench.image_arg([])[1] == pico
    with pytest.raises(SystemExit, match="does not exist"):
        bench.image_arg(["--image", str(folder / "none.uf2")])
