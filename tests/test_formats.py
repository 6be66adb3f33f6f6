"""Every file the board keeps carries its format, a firmware reads every
older format the project has shipped (tests/formats/format0: written by
the firmware before the formats were versioned), and a file of a newer
firmware is refused with the reason, on the board and over GTP, and left
as it was (an older firmware must not cut or overwrite it)."""
import shutil

from conftest import ROOT

from gogadget import configfile
from gogadget import journal as jn
from gogadget.app import App
from gogadget.config import Config
from gogadget.hw import calibderive
from gogadget.hw.calibfmt import MAGIC, CalibrationError
from gogadget import sgfread
from test_journal import Quiet  # drivers that see and show nothing

FORMAT0 = ROOT / "tests" / "formats" / "format0"


def copy_format0(tmp_path):
    """The samples as a board's flash (the binary files are kept as hex:
    the project carries no binaries)."""
    shutil.copytree(FORMAT0, tmp_path / "flash")
    for hexed in list((tmp_path / "flash").rglob("*.hex")):
        hexed.with_suffix("").write_bytes(bytes.fromhex(hexed.read_text()))
        hexed.unlink()
    return tmp_path / "flash"


def test_each_format0_file_is_read(tmp_path):
    flash = copy_format0(tmp_path)
    config = Config.load(str(flash / "config.json")).load_secrets(str(flash / "secrets.json"))
    assert (config.size, config.preset, config.time_control, config.periods) == (9, "japanese",
                                                                                 "byoyomi", 5)
    assert config.mqtt_password == "s3cret-07"
    cal = calibderive.load(str(flash / "calib.bin"), 9)
    assert cal.size == 9
    game = sgfread.parse((flash / "games" / "0001.sgf").read_bytes())
    assert len(game.moves) == 24 and game.result == "B+R"
    app = App(Config(size=9), Quiet(), Quiet(), Quiet(), str(flash / "games"))
    app.boot(0)
    assert app.referee.board.moves == 24 and app.referee.damage == ""


def test_what_the_firmware_writes_carries_its_format(tmp_path):
    Config(size=9).save(str(tmp_path / "config.json"))
    assert '"format": %d' % configfile.FORMAT in (tmp_path / "config.json").read_text()
    app = App(Config(size=9), Quiet(), Quiet(), Quiet(), str(tmp_path / "games"))
    app.boot(0)
    head = (tmp_path / "games" / jn.NAME).read_bytes()[:8]
    assert head[6] >> 4 == jn.FORMAT
    assert MAGIC[3:] == b"1"


def newer_files(flash):
    """Each file as a newer firmware might write it: the format one up
    (and a record kind this firmware does not know in the journal)."""
    text = (flash / "config.json").read_text()
    (flash / "config.json").write_text(text[:-1] + ', "format": %d}' % (configfile.FORMAT + 1))
    (flash / "secrets.json").write_text('{"format": %d, "mqtt_password": "x", "tls": 1}'
                                        % (configfile.FORMAT + 1))
    cal = bytearray((flash / "calib.bin").read_bytes())
    cal[3] = MAGIC[3] + 1
    (flash / "calib.bin").write_bytes(bytes(cal))
    data = bytearray((flash / "games" / jn.NAME).read_bytes())
    head = jn.encode(jn.K_NEW, data[1], data[2] | data[3] << 8, data[4], data[5],
                     (jn.FORMAT + 1) << 4)
    data[:8] = head
    data += b"\xac\x01\x02\x03\x04\x05\x06\x07"  # kind 12: not known here, no CRC of ours
    (flash / "games" / jn.NAME).write_bytes(bytes(data))
    return {p.relative_to(flash): p.read_bytes() for p in flash.rglob("*") if p.is_file()}


def test_newer_files_are_refused_and_kept(tmp_path):
    flash = copy_format0(tmp_path)
    before = newer_files(flash)
    for load in (lambda: Config.load(str(flash / "config.json")),
                 lambda: Config(size=9).load_secrets(str(flash / "secrets.json"))):
        try:
            load()
        except ValueError as exc:
            assert "newer firmware (format %d" % (configfile.FORMAT + 1) in str(exc)
        else:
            raise AssertionError("a newer format was read")
    try:
        calibderive.load(str(flash / "calib.bin"), 9)
    except CalibrationError as exc:
        assert "newer firmware (format 2)" in str(exc)
    else:
        raise AssertionError("a newer calibration was read")
    game = (flash / "games" / "0001.sgf").read_text().replace("FF[4]", "FF[5]")
    try:
        sgfread.parse(game)
    except ValueError as exc:
        assert "FF[5] is newer" in str(exc)
    else:
        raise AssertionError("a newer SGF was read")
    app = App(Config(size=9), Quiet(), Quiet(), Quiet(), str(flash / "games"))
    app.boot(0)
    ref = app.referee
    assert "journal of a newer firmware (format 2, this one reads 1): kept as journal-1.new" \
        in ref.damage and ref.alarm
    assert ref.board.moves == 0
    # nothing cut: the journal kept whole, byte for byte, the other files untouched
    after = {p.relative_to(flash): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    from pathlib import Path
    assert after.pop(Path("games/journal-1.new")) == before.pop(Path("games") / jn.NAME)
    after.pop(Path("games") / jn.NAME)  # the new game's header
    assert after == before


BOOT = r"""
import sys
import machine
machine.install_colour(9, seed=11, noise=200)
class Stream:
    def readinto(self, buf): return 0
    def write(self, b): pass
import main
app = main.main(cycles=3, stream=Stream())
ref = app.referee
print("MOVES", ref.board.moves, "ALARM", ref.alarm)
print("STATUS", app.open_link().handle("gogadget-status"))
"""


def test_format0_boots_under_micropython(micropython, tmp_path):
    flash = copy_format0(tmp_path)
    r = micropython(code=BOOT, cwd=str(flash), path=[ROOT / "firmware", ROOT / "tests" / "mp"])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "MOVES 24 ALARM False" in out, out
    assert "config config.json" in out and "calibration loaded" in out, out


def test_newer_files_said_on_the_board_and_over_gtp_under_micropython(micropython, tmp_path):
    flash = copy_format0(tmp_path)
    before = newer_files(flash)
    r = micropython(code=BOOT, cwd=str(flash), path=[ROOT / "firmware", ROOT / "tests" / "mp"])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "MOVES 0 ALARM True" in out, out  # the board's alert (signals.ALERT_ERROR)
    status = out.split("STATUS", 1)[1]
    assert "config.json is of a newer firmware (format 2" in status, out
    assert "journal of a newer firmware (format 2" in status, out
    from pathlib import Path
    after = {p.relative_to(flash): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    assert after[Path("games/journal-1.new")] == before[Path("games") / jn.NAME]
    for name in ("config.json", "secrets.json", "calib.bin", "games/0001.sgf"):
        assert after[Path(name)] == before[Path(name)], name
