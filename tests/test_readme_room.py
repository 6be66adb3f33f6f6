"""The README's tournament-room (and GTP) commands run as written, from a fresh
clone's point of view, and the room's failures are said (issue 20, items
1-3): the generator, Mosquitto, the relay and both publish lines, in a
shell, in a folder holding only `.venv`, with a home of their own; only the
ports are swapped for free ones (and the LAN address for localhost)."""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, require
from host_sim.room.broker import board_ids, find_mosquitto, free_port, wait_port


def room_section():
    text = (ROOT / "README.md").read_text()
    start = text.index("## The tournament room")
    return text[start:text.index("\n## ", start + 1)]


def code_lines(section):
    """Every line inside the section's ``` blocks."""
    out, inside = [], False
    for line in section.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.strip():
            out.append(line)
    return out


def commands():
    """The lines a person types: what starts with a program of the clone
    or the system (not a comment, not a file's contents)."""
    return [line for line in code_lines(room_section())
            if line.startswith((".venv/bin/", "/usr/sbin/", "mosquitto"))]


def password(creds, user):
    with open(creds, newline="") as f:
        return next(r["password"] for r in csv.DictReader(f) if r["user"] == user)


class Shell:
    """Runs README lines with bash in the fake clone; remembers what it started."""

    def __init__(self, clone, env):
        self.clone, self.env = clone, env
        self.procs = []

    def run(self, line, timeout=60):
        return subprocess.run(["bash", "-c", line], cwd=self.clone, env=self.env,
                              capture_output=True, text=True, timeout=timeout)

    def start(self, line):
        child = Child(["bash", "-c", "exec " + line], cwd=self.clone, env=self.env)
        self.procs.append(child)
        return child

    def stop(self, child, timeout=20):
        self.procs.remove(child)
        return child.stop(timeout)

    def close(self):
        for child in self.procs:
            child.kill()


def wait_for(check, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("waited %g s for %s" % (timeout, what))


class Child:
    """A started command whose stdout and stderr threads keep every line, so
    a wait for a line never hangs on a child that says nothing and the whole
    output is there at the end."""

    def __init__(self, argv, **kw):
        # stdin a pipe kept open: a simulator with a person at it reads them
        # there (and would take an inherited terminal's, or end at /dev/null's end).
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, **kw)
        self.lines = {"out": [], "err": []}
        self.seen = {"out": 0, "err": 0}
        self.pumps = [threading.Thread(target=self._pump, args=(s, self.lines[k]), daemon=True)
                      for k, s in (("out", self.proc.stdout), ("err", self.proc.stderr))]
        for t in self.pumps:
            t.start()

    @staticmethod
    def _pump(stream, lines):
        for line in stream:
            lines.append(line)

    def wait_line(self, which, word, timeout=20):
        end = time.monotonic() + timeout
        lines = self.lines[which]
        while time.monotonic() < end:
            while self.seen[which] < len(lines):
                line = lines[self.seen[which]]
                self.seen[which] += 1
                if word in line:
                    return line
            if self.proc.poll() is not None and not any(t.is_alive() for t in self.pumps) \
                    and self.seen[which] == len(lines):
                break
            time.sleep(0.02)
        raise AssertionError("no line with %r in %g s: %s" % (word, timeout,
                                                               "".join(self.lines["err"])))

    def type(self, line):
        """What the person types at the simulator's terminal."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def signal(self, signum):
        self.proc.send_signal(signum)

    def stop(self, timeout=20):
        """SIGTERM; (returncode, stdout, stderr)."""
        self.proc.send_signal(signal.SIGTERM)
        return self.finish(timeout)

    def finish(self, timeout=20):
        self.proc.wait(timeout)
        for t in self.pumps:
            t.join(timeout)
        return self.proc.returncode, "".join(self.lines["out"]), "".join(self.lines["err"])

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.finish()


def test_the_readme_room_commands_run_as_written(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    (generator, broker, relay, flash, publish_port, publish_sim,
     remote_port, remote_sim) = [c for c in commands() if "--sim-store" not in c]  # README order
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / ".venv").symlink_to(ROOT / ".venv")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "PYTHONPATH")}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path))
    bport, hport = free_port(), free_port()

    def as_run(line):
        return line.replace("1883", str(bport)).replace("8080", str(hport)) \
            .replace("192.168.1.10", "127.0.0.1")

    sh = Shell(clone, env)
    try:
        # 1. The room's config: outside the clone, git-proof, with the README's board ids.
        assert generator.startswith(".venv/bin/python -m host_sim.room.broker ")
        r = sh.run(as_run(generator))
        assert r.returncode == 0, r.stderr
        room = home / ".local" / "share" / "gogadget" / "room"
        assert sorted(os.listdir(clone)) == [".venv"]  # nothing written into the clone
        assert {"mosquitto.conf", "passwd", "acl", "credentials.csv", ".gitignore"} <= \
            set(os.listdir(room))
        assert (room / ".gitignore").read_text().splitlines()[-1] == "*"
        creds = room / "credentials.csv"
        section = room_section()
        for board in set(re.findall(r"\btable-\d+\b", section)):
            password(creds, board)  # every board id the README names is one the room has
        # 2. Mosquitto on that config.
        assert broker.split()[0].endswith("mosquitto")
        mosquitto = sh.start(as_run(broker))
        wait_port("127.0.0.1", bport, proc=mosquitto.proc)
        # 3. The relay, its page on the README's --http.
        assert relay.startswith(".venv/bin/gogadget relay ")
        rl = sh.start(as_run(relay))
        banner = rl.wait_line("out", "gogadget relay:")
        assert str(home / ".local" / "share" / "gogadget" / "archive") in banner
        # 4. A plain Pico on /dev/ttyACM0 through its host: there is none here,
        # so it says so (and keeps trying, as for an unplugged board).
        assert publish_port.startswith(".venv/bin/gogadget publish --port /dev/ttyACM0 ")
        pp = sh.start(as_run(publish_port))
        if not os.path.exists("/dev/ttyACM0"):
            pp.wait_line("err", "no board found on /dev/ttyACM0")
        rc, _, err = sh.stop(pp)
        assert rc == 0 and "Traceback" not in err, err
        # 5. The simulator published as table-3, with its password for PW.
        assert publish_sim.startswith(".venv/bin/gogadget publish --sim ")
        assert publish_sim.endswith(" --password PW")
        ps = sh.start(as_run(publish_sim)[:-2] + password(creds, "table-3"))

        def boards():
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/games.json" % hport,
                                            timeout=5) as f:
                    return [g["board"] for g in json.load(f)["games"]]
            except OSError:
                return []
        assert wait_for(lambda: "table-3" in boards(), 60, "table-3 on the relay's page")
        rc, _, err = sh.stop(ps)
        assert rc == 0 and "Traceback" not in err, err
        # 6. Two boards, one game: the Pico's line finds no board here and says
        # so; the simulator's plays table-2 and is on the page.
        assert remote_port.startswith(".venv/bin/gogadget remote --port /dev/ttyACM0 ")
        rp = sh.start(as_run(remote_port))
        if not os.path.exists("/dev/ttyACM0"):
            rp.wait_line("err", "no board found on /dev/ttyACM0")
        rc, _, err = sh.stop(rp)
        assert rc == 0 and "Traceback" not in err, err
        assert remote_sim.startswith(".venv/bin/gogadget remote --sim ")
        assert remote_sim.endswith(" --password PW")
        rs = sh.start(as_run(remote_sim)[:-2] + password(creds, "table-2"))
        assert wait_for(lambda: "table-2" in boards(), 60, "table-2 on the relay's page")
        rc, _, err = sh.stop(rs)
        assert rc == 0 and "Traceback" not in err, err
        # 7. Stopped as a service manager stops it: a clean exit.
        rc, _, err = sh.stop(rl)
        assert rc == 0 and "Traceback" not in err and "KeyboardInterrupt" not in err, err
        sh.stop(mosquitto)
        # The flashing line needs a board; what it copies names a board of the room.
        assert flash.startswith(".venv/bin/mpremote cp config.json secrets.json :")
    finally:
        sh.close()


def fake_clone(tmp_path):
    """A clone holding only .venv, a home of its own, one runtime folder
    (one machine, one user): (clone, home, env)."""
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / ".venv").symlink_to(ROOT / ".venv")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_DATA_HOME", "PYTHONPATH", "DISPLAY")}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path))
    return clone, home, env


def test_two_simulators_on_one_machine_play_a_game_as_the_readme_says(tmp_path):
    """Issue 27, item 2: the README's two `remote --sim --sim-store` lines, as
    written, with `make sim` already running on the same machine: each opens
    a simulator of its own (neither attaches to make sim's), the person at
    each types the moves, --verbose tells the game (connected, moves out and
    in, a take-back, the result and where it is kept), both folders keep the
    same game; the same line again while the first runs is refused."""
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    generator, broker = commands()[:2]
    first, second = [c for c in commands() if "--sim-store" in c]
    assert first.startswith(".venv/bin/gogadget remote --sim --sim-store ")
    assert "--colour B" in first and "--colour W" in second and "--verbose" in first
    clone, home, env = fake_clone(tmp_path)
    bport = free_port()

    def as_run(line):
        return line.replace("1883", str(bport))

    sh = Shell(clone, env)
    try:
        r = sh.run(as_run(generator))
        assert r.returncode == 0, r.stderr
        mosquitto = sh.start(as_run(broker))
        wait_port("127.0.0.1", bport, proc=mosquitto.proc)
        # make sim, running on the default folder, with its person at it.
        sim = sh.start(".venv/bin/python -m host_sim --tui --size 9")
        data = home / ".local" / "share" / "gogadget"
        wait_for(lambda: (data / "sim-store" / "sim.lock").exists(), 30, "make sim")
        b, w = sh.start(as_run(first)), sh.start(as_run(second))
        for side, name in ((b, "table-1"), (w, "table-2")):
            side.wait_line("err", "connected to the broker at 127.0.0.1:%d as %s" % (bport, name),
                           60)
        # The same board again, while it runs: refused, with what to do instead.
        again = sh.run(as_run(first), timeout=60)
        assert again.returncode == 1, again.stderr
        assert "already driven by pid %d, gogadget remote as table-1" % b.proc.pid \
            in again.stderr and "--sim-store DIR" in again.stderr

        def move(mover, other, n, colour, vertex):
            mover.type("put %s %s" % (colour[0], vertex))
            text = "move %d, %s %s" % (n, colour, vertex)
            mover.wait_line("err", text + " out")
            other.wait_line("err", text + " in from ")
            other.type("put %s %s" % (colour[0], vertex))  # the lit stone, placed

        move(b, w, 1, "black", "E5")
        move(w, b, 2, "white", "C3")
        move(b, w, 3, "black", "G7")
        # Black takes G7 back (lift, Confirm); White's board asks, White confirms.
        b.type("lift G7")
        b.type("confirm")
        b.wait_line("err", "move 3, black G7 taken back at the board")
        w.wait_line("err", "opponent takes back move 3: press Confirm")
        w.type("confirm")
        w.wait_line("err", "move 3, black G7 taken back at the board")
        w.type("lift G7")
        move(b, w, 3, "black", "D4")
        w.type("pass")
        w.wait_line("err", "move 4, white pass out")
        b.wait_line("err", "move 4, white pass in from table-2")
        b.type("pass")
        b.wait_line("err", "move 5, black pass out")
        w.wait_line("err", "move 5, black pass in from table-1")
        b.type("confirm")  # the count, confirmed at Black's board, taken at White's
        ends = []
        for side in (b, w):
            ends.append(side.wait_line("err", "game over, ", 30))
        assert all("W+" in e and "the board keeps it as 0001.sgf, and the room's relay archives"
                   in e for e in ends), ends
        for side in (b, w):
            rc, out, err = sh.stop(side)
            assert rc == 0 and "Traceback" not in err, err
            assert "gogadget remote: table-" in err and "link to the board open" in err
        kept = []
        for name in ("table-1", "table-2"):
            text = (data / name / "0001.sgf").read_text()
            kept.append(re.findall(r";([BW])\[(\w*)\]", text))
        # One game in both folders: E5 C3 D4 (G7 taken back), two passes.
        assert kept[0] == kept[1] == [("B", "ee"), ("W", "cg"), ("B", "df"), ("W", ""),
                                      ("B", "")], kept
        # make sim's board was never touched: nothing played, nothing kept.
        sim.type("show")
        sim.wait_line("out", "referee: play: move 0,")
        sim.type("quit")
        rc, out, err = sim.finish(30)
        assert rc == 0, err
        assert not any(n.endswith(".sgf") for n in os.listdir(data / "sim-store"))
        sh.procs.remove(sim)
        sh.stop(mosquitto)
    finally:
        sh.close()


def test_every_readme_room_line_is_a_command_this_test_runs_or_text():
    # A command added to the room section must be added to the test above.
    others = [line for line in code_lines(room_section()) if line not in commands()]
    for line in others:
        assert line.startswith(("#", "config.json ", "secrets.json ")), line


def test_the_generator_runs_with_a_plain_python_too(tmp_path):
    # -S: no site-packages, so no venv and no editable install of gogadget.
    r = subprocess.run([sys.executable, "-S", "-m", "host_sim.room.broker", "--dir",
                        str(tmp_path / "room"), "--boards", "3"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "room" / "credentials.csv", newline="") as f:
        assert [row["user"] for row in csv.DictReader(f)] == ["relay", "board01", "board02",
                                                              "board03"]


def test_board_ids_as_a_count_a_range_or_names():
    assert board_ids("3") == ["board01", "board02", "board03"]
    assert board_ids("table-1..table-3") == ["table-1", "table-2", "table-3"]
    assert board_ids("t08..t10") == ["t08", "t09", "t10"]
    assert board_ids("a, b") == ["a", "b"]
    for bad in ("t5..t2", "a1..b3", "x..y"):
        with pytest.raises(ValueError):
            board_ids(bad)


def test_the_room_folder_is_never_taken_by_git(tmp_path):
    # Inside a clone (--dir room, the old README): `git add .` leaves the passwords out.
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    r = subprocess.run([sys.executable, "-m", "host_sim.room.broker", "--dir",
                        str(repo / "room"), "--boards", "2"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    staged = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout
    assert staged == ""
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "/room/" in ignored and "/archive/" in ignored


# -- item 2: the room's failures are said -------------------------------------------


@pytest.fixture
def room(tmp_path):
    require(find_mosquitto() or "mosquitto", "(apt-get install mosquitto; .ci/run does)")
    from host_sim.room.broker import Broker
    b = Broker(str(tmp_path / "broker"), boards=["table-3"]).start()
    yield b
    b.stop()


def gogadget(*args, timeout=30):
    return subprocess.run([sys.executable, "-m", "host_sim.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_publish_with_a_wrong_password_is_an_error_that_ends_it(room):
    r = gogadget("publish", "--sim", "--broker", room.url, "--board-id", "table-3",
                 "--password", "wrong")
    assert r.returncode == 1, r.stderr
    assert "refused the login as 'table-3'" in r.stderr and "--credentials" in r.stderr
    assert "Traceback" not in r.stderr


def test_relay_with_a_wrong_password_is_an_error_that_ends_it(room):
    r = gogadget("relay", "--broker", room.url, "--http", "127.0.0.1:0", "--password", "wrong")
    assert r.returncode == 1, r.stderr
    assert "refused the login as 'relay'" in r.stderr and "Traceback" not in r.stderr


def test_a_password_cut_from_a_crlf_line_is_said(room):
    """grep '^table-3,' credentials.csv | cut -d, -f2 on a CRLF file gave a
    password ending in a carriage return: the refusal says so."""
    csv = (Path(room.folder) / "credentials.csv").read_bytes()
    assert b"\r" not in csv  # the generator writes LF lines now
    for command in (["publish", "--sim", "--board-id", "table-3"], ["relay", "--http", "127.0.0.1:0"]):
        user = "table-3" if command[0] == "publish" else "relay"
        env = dict(os.environ, GOGADGET_MQTT_PASSWORD=room.creds[user] + "\r",
                   GOGADGET_RELAY_PASSWORD=room.creds[user] + "\r")
        r = subprocess.run([sys.executable, "-m", "host_sim.cli", *command, "--broker", room.url],
                           cwd=ROOT, capture_output=True, text=True, timeout=30, env=env)
        assert r.returncode == 1, r.stderr
        assert "ends with white space ('\\r')" in r.stderr and "CRLF" in r.stderr, r.stderr


def test_a_second_relay_on_a_busy_port_names_the_address_and_the_option(room, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = gogadget("relay", "--broker", room.url, "--http", "127.0.0.1:%d" % port,
                     "--archive", str(tmp_path / "a"))
    assert r.returncode == 2, r.stderr
    assert "127.0.0.1:%d" % port in r.stderr and "--http" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def _absent_broker_is_said(args, what):
    child = Child([sys.executable, "-m", "host_sim.cli", *args], cwd=ROOT)
    try:
        first = child.wait_line("err", "no broker at 127.0.0.1:")
        again = child.wait_line("err", "no broker at 127.0.0.1:")
        assert "trying again" in first and "trying again" in again
    finally:
        rc, _, err = child.stop()
    assert rc == 0 and "Traceback" not in err, (what, err)


def test_an_absent_broker_is_said_at_every_try(tmp_path):
    port = free_port()
    url = "mqtt://127.0.0.1:%d" % port
    _absent_broker_is_said(["publish", "--sim", "--broker", url, "--board-id", "t1",
                            "--password", "x"], "publish")
    _absent_broker_is_said(["relay", "--broker", url, "--http", "127.0.0.1:0",
                            "--archive", str(tmp_path / "a")], "relay")


def test_the_relay_stops_cleanly_on_sigterm_whenever_it_comes(room, tmp_path):
    # The old handler raised KeyboardInterrupt wherever the main thread was,
    # even inside relay.stop(): a traceback now and then.
    for delay in (0.0, 0.3, 0.8):
        child = Child([sys.executable, "-m", "host_sim.cli", "relay", "--broker", room.url,
                       "--http", "127.0.0.1:0", "--archive", str(tmp_path / "a"),
                       "--password", room.creds["relay"]], cwd=ROOT)
        child.wait_line("out", "gogadget relay:")
        time.sleep(delay)
        child.signal(signal.SIGTERM)
        time.sleep(0.05)
        child.signal(signal.SIGTERM)  # a second one while it is stopping
        rc, _, err = child.finish()
        assert rc == 0 and "Traceback" not in err, err


# -- the GTP section's two commands, as written, from the project's root --------


def test_the_readme_gtp_commands_run_as_written():
    text = (ROOT / "README.md").read_text()
    start = text.index("## GTP")
    lines = code_lines(text[start:text.index("\n## ", start + 1)])
    assert len(lines) == 2, lines
    for line in lines:
        r = subprocess.run(["bash", "-c", line], cwd=ROOT, input="1 name\n2 play b D4\nquit\n",
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (line, r.stderr)
        assert r.stdout.split("\n\n")[:2] == ["=1 GoGadget", "=2 "], (line, r.stdout)
