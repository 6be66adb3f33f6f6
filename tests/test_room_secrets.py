"""The room's secrets (host_sim/room/broker.py, docs/ROOM.md "Security"):
written 0600 from the first byte, never through a planted symlink, only
into a folder of the caller's that no one else can write; credentials.csv
in plain LF lines."""
import os
import stat
import subprocess
import sys

import pytest

from conftest import ROOT
from host_sim.room import broker as room_broker
from host_sim.room.broker import room_config

SECRETS = ("passwd", "credentials.csv")


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_secrets_are_created_0600_exclusively(tmp_path, monkeypatch):
    """Every secret is opened with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600:
    no moment when another user could open it (a reader that opened it
    while it was 0644 would keep its handle)."""
    opened = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *a, **kw):
        opened.append((os.path.basename(path), flags, mode))
        return real_open(path, flags, mode, *a, **kw)
    monkeypatch.setattr(room_broker.os, "open", spy)
    room_config(str(tmp_path / "room"), ["table-1", "table-2"])
    for name in SECRETS:
        made = [(f, m) for n, f, m in opened if n.startswith("." + name + ".")]
        assert made, "%s was not created by os.open: %s" % (name, opened)
        for flags, m in made:
            assert flags & os.O_CREAT and flags & os.O_EXCL and flags & os.O_NOFOLLOW, name
            assert m == 0o600, (name, oct(m))
        assert mode(tmp_path / "room" / name) == 0o600
    assert not [n for n in os.listdir(tmp_path / "room") if n.endswith(".tmp")]


def test_a_planted_symlink_is_replaced_not_followed(tmp_path):
    room = tmp_path / "room"
    room.mkdir(mode=0o700)
    victim = tmp_path / "someone-elses-file"
    victim.write_text("theirs\n")
    for name in SECRETS + ("acl", "mosquitto.conf"):
        os.symlink(str(victim), str(room / name))
    creds = room_config(str(room), ["table-1"])
    assert victim.read_text() == "theirs\n"
    for name in SECRETS:
        assert not os.path.islink(room / name) and mode(room / name) == 0o600
    assert "table-1,%s\n" % creds["table-1"] in (room / "credentials.csv").read_text()


def test_a_folder_of_someone_else_or_writable_by_others_is_refused(tmp_path, monkeypatch):
    loose = tmp_path / "loose"
    loose.mkdir()
    os.chmod(loose, 0o777)
    with pytest.raises(ValueError, match="writable by others"):
        room_config(str(loose), ["table-1"])
    assert os.listdir(loose) == []
    group = tmp_path / "group"
    group.mkdir()
    os.chmod(group, 0o770)
    with pytest.raises(ValueError, match="writable by others"):
        room_config(str(group), ["table-1"])
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    # The folder's owner is someone else: as seen by a user of another uid.
    monkeypatch.setattr(room_broker.os, "geteuid", lambda: os.stat(theirs).st_uid + 1)
    with pytest.raises(ValueError, match="belongs to another user"):
        room_config(str(theirs), ["table-1"])
    assert os.listdir(theirs) == []


def test_the_command_refuses_a_loose_folder_and_writes_lf_lines(tmp_path):
    loose = tmp_path / "loose"
    loose.mkdir()
    os.chmod(loose, 0o757)
    cmd = [sys.executable, "-m", "host_sim.room.broker", "--boards", "table-1..table-3"]
    r = subprocess.run(cmd + ["--dir", str(loose)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "writable by others" in r.stderr, r.stderr
    room = tmp_path / "room"
    r = subprocess.run(cmd + ["--dir", str(room)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert mode(room) == 0o700
    data = (room / "credentials.csv").read_bytes()
    assert b"\r" not in data
    line = [x for x in data.decode().split("\n") if x.startswith("table-3,")][0]
    assert line.split(",")[1].isprintable() and len(line.split(",")[1]) >= 16
    conf = (room / "mosquitto.conf").read_text()
    # The safe default: this machine only; --all-interfaces for a room's network.
    assert "listener 1883 127.0.0.1\n" in conf and "use_username_as_clientid true" in conf
    r = subprocess.run(cmd + ["--dir", str(room), "--all-interfaces"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "listener 1883 0.0.0.0\n" in (room / "mosquitto.conf").read_text()


def test_the_acl_allows_only_the_topics_the_format_defines(tmp_path):
    room_config(str(tmp_path / "r"), ["table-1"])
    acl = (tmp_path / "r" / "acl").read_text()
    writes = sorted(line.split()[-1] for line in acl.splitlines() if line.startswith("topic write"))
    assert writes == ["gogadget/board/table-1/%s" % leaf for leaf in ("game", "move", "pair", "status")]
    assert "#" not in "".join(writes) and "+" not in "".join(writes)


def test_passwords_are_safe_on_a_command_line(tmp_path):
    """A generated password never starts with "-" (argparse took one for an
    option after --password, which made test_readme_room flaky) and needs no
    quoting: letters and digits only, 130 bits."""
    folder = tmp_path / "room"
    folder.mkdir(mode=0o700)
    creds = room_config(str(folder), ["table-%d" % i for i in range(1, 41)])
    for user, pw in creds.items():
        assert pw.isalnum() and pw.isascii(), (user, pw)
        assert len(pw) == room_broker.PASSWORD_LENGTH


def _nobody():
    import pwd
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody on this machine")
    return pw.pw_uid, pw.pw_gid


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root (chown)")
def test_a_dir_that_is_someone_elses_symlink_or_folder_is_refused(tmp_path):
    """Issue 36, finding 8: in a world-writable sticky folder, nobody plants
    `room` as a symlink to a folder of root's; root's generator must refuse
    it (it followed it, and wrote a config nobody could later repoint), as
    it refuses a folder of nobody's, or one inside a folder nobody may change."""
    uid, gid = _nobody()
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    roots = tmp_path / "roots"
    roots.mkdir(mode=0o700)
    link = shared / "room"
    os.symlink(str(roots), str(link))
    os.lchown(str(link), uid, gid)
    with pytest.raises(ValueError, match="symbolic link"):
        room_config(str(link), ["table-1"])
    assert os.listdir(roots) == []
    cmd = [sys.executable, "-m", "host_sim.room.broker", "--boards", "table-1", "--dir", str(link)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "symbolic link" in r.stderr, r.stderr
    theirs = shared / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(str(theirs), uid, gid)
    with pytest.raises(ValueError, match="another user"):
        room_config(str(theirs), ["table-1"])
    # A folder of root's inside one of nobody's: nobody could rename it away
    # and put a folder of theirs in its place.
    os.chmod(str(theirs), 0o755)
    inner = theirs / "room"
    inner.mkdir(mode=0o700)
    with pytest.raises(ValueError, match="another user may change"):
        room_config(str(inner), ["table-1"])
    assert os.listdir(inner) == []


def test_the_config_names_real_paths(tmp_path):
    """A folder reached through a symlink of one's own is used under its real
    path: the config the broker loads names no link anyone could repoint."""
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    os.symlink(str(real), str(tmp_path / "via"))
    room_config(str(tmp_path / "via" / "room"), ["table-1"])
    conf = (real / "room" / "mosquitto.conf").read_text()
    where = os.path.realpath(str(real / "room"))
    assert "password_file %s/passwd\n" % where in conf, conf
    assert "acl_file %s/acl\n" % where in conf and "/via/" not in conf, conf


def test_relay_credentials_open_to_others_are_refused_as_online_refuses(tmp_path):
    """Issue 36, finding 9: `relay --credentials` took a credentials.csv at
    0644, which `gogadget online` refuses for its own; one check serves both."""
    from host_sim.ogs.wire import OgsError, credentials
    from host_sim.room.relay import read_credentials
    room = tmp_path / "room"
    creds = room_config(str(room), ["table-1"])
    path = room / "credentials.csv"
    assert read_credentials(str(path), "relay") == creds["relay"]  # 0600: taken
    os.chmod(path, 0o644)
    with pytest.raises(ValueError, match="chmod 600"):
        read_credentials(str(path), "relay")
    ogs = tmp_path / "ogs.txt"
    ogs.write_text("me\nsecret\n")
    os.chmod(ogs, 0o644)
    with pytest.raises(OgsError, match="open to other users"):
        credentials(env={}, path=str(ogs))
    r = subprocess.run([sys.executable, "-m", "host_sim.room.relay", "--broker",
                        "mqtt://127.0.0.1:1", "--http", "127.0.0.1:0", "--archive",
                        str(tmp_path / "a"), "--credentials", str(path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "chmod 600 %s" % path in r.stderr, r.stderr
