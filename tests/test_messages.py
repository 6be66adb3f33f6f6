"""The messages a newcomer meets when something is missing: each says what
to do next (issue 20, item 4)."""
import threading
import time

from host_sim import cli, rp2
from host_sim.sim import enginegame, session


def test_no_board_says_plug_it_in_or_use_the_simulator(capsys):
    for verb in (["watch", "--count", "1"], ["pull"], ["gtp"]):
        rc = cli.main(verb + ["--port", "/dev/nonexistent-gogadget"])
        err = capsys.readouterr().err
        assert rc == 1, verb
        assert "no board found on /dev/nonexistent-gogadget: plug it in" in err, err
        assert "--sim" in err and "Errno" not in err, err


def test_a_port_that_will_not_open_says_why_and_what_else(tmp_path):
    from host_sim.commands.link import no_board
    exc = OSError(13, "could not open port /dev/ttyACM0: [Errno 13] Permission denied")
    text = no_board("/dev/ttyACM0", exc)
    assert text.startswith("cannot open /dev/ttyACM0: Permission denied") and "dialout" in text
    assert "--sim" in text


def test_watch_ends_with_a_word_when_the_simulator_quits(tmp_path, capsys):
    from test_cli import Running
    live = Running(str(tmp_path / "store"))
    got = {}
    watcher = threading.Thread(target=lambda: got.update(rc=cli.main(
        ["watch", "--sim", "--interval", "0.05", "--plain"])))
    closed = False
    try:
        watcher.start()
        deadline = time.monotonic() + 20
        while "phase=" not in capsys.readouterr().out:
            assert time.monotonic() < deadline and watcher.is_alive()
            time.sleep(0.05)
        live.close()
        closed = True
        watcher.join(30)
    finally:
        if not closed:
            live.close()
    assert got.get("rc") == 0
    err = capsys.readouterr().err
    assert "the simulator has quit" in err and "Errno" not in err, err


def test_an_engine_not_on_path_is_found_where_debian_puts_it(tmp_path, monkeypatch):
    games = tmp_path / "games"
    games.mkdir()
    fake = games / "gnugo"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setattr(enginegame, "GAMES_DIR", str(games))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    try:
        session.check_engine("gnugo --mode gtp --level 1")
        raise AssertionError("a bare gnugo off PATH was taken")
    except ValueError as exc:
        text = str(exc)
    assert "Debian has put it in %s" % games in text
    assert "--engine '%s --mode gtp --level 1'" % fake in text
    fake.unlink()
    try:
        session.check_engine("gnugo --mode gtp")
        raise AssertionError("a missing engine was taken")
    except ValueError as exc:
        text = str(exc)
    assert "apt-get install gnugo" in text and "%s/gnugo --mode gtp" % games in text


def test_play_help_names_the_engine_where_debian_puts_it():
    pl = cli.parser()._subparsers._group_actions[0].choices["play"]
    (engine,) = [a for a in pl._actions if "--engine" in a.option_strings]
    assert "/usr/games/gnugo --mode gtp" in engine.help


def test_the_missing_uf2_skip_says_where_one_comes_from(monkeypatch, tmp_path):
    # Nothing at hand: neither the variable nor anything in the cache folder.
    monkeypatch.delenv(rp2.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for board, name in (("pico", "RPI_PICO"), ("pico_w", "RPI_PICO_W")):
        why = rp2.find_firmware(board)[1]
        assert "GOGADGET_UF2" in why and str(tmp_path / "cache" / "gogadget" / "firmware") in why
        assert "https://micropython.org/download/%s/" % name in why and "mpflash" in why
        assert "CI included" in why and "../shared" not in why
