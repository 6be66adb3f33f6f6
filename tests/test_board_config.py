"""gogadget config and gogadget-config: a board's settings changed over
its link, checked by the firmware's own validate() against the file as it
stands; a refused change (an unknown key, a value out of range, a config
that does not parse, a game's setting mid-game) says why and writes
nothing; what a running game reads is applied at once."""
import json

from conftest import ROOT

from host_sim import cli
from host_sim.sim.simboard import SimBoard


def sim(tmp_path):
    return SimBoard(size=9, store_dir=str(tmp_path / "flash"))


def answer(board, line):
    return board.link.handle(line).strip()


def test_a_live_setting_is_saved_and_applied(tmp_path):
    board = sim(tmp_path)
    try:
        assert answer(board, "gogadget-config max_brightness 40") == \
            "= max_brightness 40: saved, applied now"
        assert board.app.referee._state[3] == 40  # the LED cap (referee's _BRIGHTNESS)
        assert answer(board, "gogadget-config max_brightness") == "= 40"
        assert answer(board, "gogadget-config scan_hz 50").endswith(
            "saved, read at the board's next start (reset it)")
        assert board.config.scan_hz == 100  # the running scan is not changed under it
        assert answer(board, "gogadget-config scan_hz") == "= 100 (saved 50: from the next start)"
    finally:
        board.close()
    data = json.loads((tmp_path / "flash" / "config.json").read_text())
    assert data == {"max_brightness": 40, "scan_hz": 50, "format": 1}


def test_bad_changes_are_refused_and_change_nothing(tmp_path):
    board = sim(tmp_path)
    try:
        answer(board, "gogadget-config komi 6.5")
        path = tmp_path / "flash" / "config.json"
        before = path.read_bytes()
        for line, why in (("colour 1", "unknown setting colour"),
                          ("max_brightness 300", "max_brightness must be a whole number 1..255"),
                          ("komi 6.3", "komi must be a multiple of 0.5"),
                          ("broker room.local", "a broker needs a board_id")):
            got = answer(board, "gogadget-config " + line)
            assert got.startswith("? ") and why in got, (line, got)
            assert path.read_bytes() == before
        board.app.referee.external_move(1, 10)  # a game under way
        got = answer(board, "gogadget-config size 13")
        assert "size cannot change mid-game" in got and path.read_bytes() == before
        assert "applied now" in answer(board, "gogadget-config confirm_ms 5000")  # a live one may
        assert board.config.confirm_ms == 5000
        path.write_text('{"size": 9,')  # a config that does not parse
        got = answer(board, "gogadget-config confirm_ms 6000")
        assert "config.json is not valid JSON: not changed" in got
        assert path.read_text() == '{"size": 9,' and board.config.confirm_ms == 5000
    finally:
        board.close()


def test_a_password_goes_to_secrets_and_is_never_shown(tmp_path):
    board = sim(tmp_path)
    try:
        assert "saved" in answer(board, "gogadget-config wifi_password hunter22")
        assert answer(board, "gogadget-config wifi_password") == \
            "= (not set) (saved (set): from the next start)"
        assert "hunter22" not in answer(board, "gogadget-config")
    finally:
        board.close()
    assert json.loads((tmp_path / "flash" / "secrets.json").read_text())["wifi_password"] \
        == "hunter22"
    assert not (tmp_path / "flash" / "config.json").exists()  # (the password's own file only)


def test_the_command_on_the_simulator(tmp_path, capsys):
    store = str(tmp_path / "flash")
    assert cli.main(["config", "--sim", "--sim-store", store, "set", "stuck_ms", "20000"]) == 0
    assert "stuck_ms 20000: saved, applied now" in capsys.readouterr().out
    assert cli.main(["config", "--sim", "--sim-store", store, "set", "stuck_ms", "5"]) == 1
    err = capsys.readouterr().err
    assert "stuck_ms must be a whole number 1000..3600000" in err and "nothing changed" in err
    assert cli.main(["config", "--sim", "--sim-store", store, "set", "nonsense", "5"]) == 1
    assert "unknown setting nonsense" in capsys.readouterr().err
    assert json.loads((tmp_path / "flash" / "config.json").read_text())["stuck_ms"] == 20000
    assert cli.main(["config", "--sim", "--sim-store", store, "set", "stuck_ms"]) == 2


SCRIPT = r"""
import machine
machine.install_colour(9, seed=11, noise=200)
class Stream:
    def readinto(self, buf): return 0
    def write(self, b): pass
import main
app = main.main(cycles=2, stream=Stream())
link = app.open_link()
print("SET", link.handle("gogadget-config max_brightness 33"))
print("BAD", link.handle("gogadget-config max_brightness 0"))
print("CAP", app.referee.config.max_brightness)
print("MAINT", link.handle("gogadget-maintenance"))
"""


def test_gogadget_config_under_micropython(micropython, tmp_path):
    (tmp_path / "config.json").write_text('{"size": 9}')
    r = micropython(code=SCRIPT, cwd=str(tmp_path), path=[ROOT / "firmware", ROOT / "tests" / "mp"])
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "SET = max_brightness 33: saved, applied now" in out, out
    assert "BAD ? max_brightness must be a whole number 1..255, not 0" in out, out
    assert "CAP 33" in out
    # No machine to restart here (hw/restart.py): the flag is written, and
    # the answer says to restart the board by hand.
    assert "MAINT = maint written: restart the board" in out, out
    assert (tmp_path / "maint").read_text() == "1"
    assert json.loads((tmp_path / "config.json").read_text()) == {"size": 9, "max_brightness": 33,
                                                                 "format": 1}
