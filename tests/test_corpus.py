"""The game corpus (host_sim/tools/corpus.py fetches it, pinned)
and its replay on the sensors as physics (host_sim/person/corpus.py, `python -m host_sim.person.corpus`).

Only two short corpus games run here (both sensor kinds, both physics
settings, two worker processes); `make replay-corpus` replays them all."""
import hashlib
import io
import shutil
import subprocess
import sys
import tarfile

import pytest

from conftest import CI, ROOT
from host_sim.person import corpus, replay
from host_sim.tools import corpus as corpus_tool

KOMBILO = corpus_tool.SOURCES[0]
# The two shortest professional games of the pinned source (106 and 117 moves).
CI_GAMES = ("Gosei-Gos23-T12.sgf", "Gosei-Gos23-T11.sgf")

GAME = b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5];B[ee];W[cc];B[gg];W[cg])"


def tarball(members, mode="w:gz"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def fake_source(tmp_path, members, folder="fake-1.0/games/", archive=None):
    """A Source pinned to an archive made here (a tarball of {member name: bytes})."""
    archive = tarball(members) if archive is None else archive
    src = corpus_tool.Source("fake", "1.0", "https://example.invalid/fake-1.0.tar.gz",
                             hashlib.sha256(archive).hexdigest(), folder, "test", "test")
    return src, archive


def ar_archive(members):
    """A Debian package's outer layer: an ar archive of (name, bytes)."""
    out = [b"!<arch>\n"]
    for name, data in members:
        out.append(("%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name, 0, 0, 0, 100644, len(data))).encode())
        out.append(data + (b"\n" if len(data) & 1 else b""))
    return b"".join(out)


def test_fetch_refuses_an_archive_that_is_not_the_pinned_one(tmp_path):
    src, archive = fake_source(tmp_path, {"fake-1.0/games/a.sgf": GAME})
    with pytest.raises(ValueError, match="sha256"):
        corpus_tool.fetch(src, tmp_path, io.StringIO(), get=lambda url: archive + b"x")
    assert not corpus_tool.folder(src, tmp_path).exists()
    assert not corpus_tool.present(src, tmp_path)


def test_fetch_unpacks_only_the_records_and_checks_them_again(tmp_path):
    src, archive = fake_source(tmp_path, {
        "fake-1.0/games/a.sgf": GAME, "fake-1.0/games/B.SGF": GAME,
        "fake-1.0/games/notes.txt": b"not a record", "fake-1.0/games/deeper/c.sgf": GAME,
        "fake-1.0/other.sgf": GAME})
    calls = []

    def get(url):
        calls.append(url)
        return archive

    where = corpus_tool.fetch(src, tmp_path, io.StringIO(), get=get)
    assert sorted(p.name for p in where.iterdir()) == ["B.SGF", "SHA256SUMS", "a.sgf"]
    assert corpus_tool.present(src, tmp_path)
    corpus_tool.fetch(src, tmp_path, io.StringIO(), get=get)
    assert len(calls) == 1  # intact: nothing to fetch
    (where / "a.sgf").write_bytes(GAME + b"\n")
    assert not corpus_tool.present(src, tmp_path)
    corpus_tool.fetch(src, tmp_path, io.StringIO(), get=get)
    assert len(calls) == 2 and (where / "a.sgf").read_bytes() == GAME


def test_a_recursive_source_keeps_its_sub_folders(tmp_path):
    """GNU Go's regression games live in sub-folders (nngs/, kgs/...)."""
    members = {"fake-1.0/games/a.sgf": GAME, "fake-1.0/games/nngs/b.sgf": GAME,
               "fake-1.0/games/kgs/t10/c.sgf": GAME, "fake-1.0/games/../evil.sgf": GAME,
               "fake-1.0/other/d.sgf": GAME}
    src, archive = fake_source(tmp_path, members)
    src.recursive = True
    where = corpus_tool.fetch(src, tmp_path, io.StringIO(), get=lambda url: archive)
    got = sorted(str(p.relative_to(where)) for p in where.rglob("*.sgf"))
    assert got == ["a.sgf", "kgs/t10/c.sgf", "nngs/b.sgf"]
    assert corpus_tool.present(src, tmp_path)
    (where / "nngs" / "b.sgf").write_bytes(b"changed")
    assert not corpus_tool.present(src, tmp_path)


def test_fetch_reads_the_records_out_of_a_debian_package(tmp_path):
    data = tarball({"./usr/share/game/games/x.sgf": GAME, "./usr/bin/game": b"ELF"}, "w:xz")
    deb = ar_archive([("debian-binary", b"2.0\n"), ("control.tar.xz", b"odd"),
                      ("data.tar.xz", data)])
    src, _ = fake_source(tmp_path, {}, "./usr/share/game/games/", deb)
    where = corpus_tool.fetch(src, tmp_path, io.StringIO(), get=lambda url: deb)
    assert (where / "x.sgf").read_bytes() == GAME and corpus_tool.present(src, tmp_path)
    with pytest.raises(ValueError, match="without data.tar"):
        corpus_tool.extract(fake_source(tmp_path, {}, "./", ar_archive([("x", b"1")]))[0],
                            ar_archive([("x", b"1")]))


def test_records_split_collections_and_count_every_skip_with_its_reason(tmp_path):
    files = {
        "collection.sgf": GAME + b"\n" + GAME.replace(b"B[ee]", b"B[dd]"),
        "root-move.sgf": b"(;GM[1]SZ[9]PB[a]PW[b]B[ee];W[cc];B[gg])",
        "handicap.sgf": b"(;GM[1]SZ[9]PB[a]PW[b]HA[2]AB[gc][cg];W[ee];B[cc])",
        "fixture.sgf": b"(;GM[1]SZ[19];B[pd];W[dp])",
        "big.sgf": b"(;GM[1]SZ[25]PB[a]PW[b];B[aa])",
        "cleared.sgf": b"(;GM[1]SZ[9]PB[a]PW[b]AB[ee]AE[cc];W[dd])",
        "white-starts.sgf": b"(;GM[1]SZ[19]PB[a]PW[b]AB[dd][pp]AW[pd][dp];W[jj];B[nc])",
        "twice.sgf": b"(;GM[1]SZ[9]PB[a]PW[b];B[ee];B[cc])",
        "empty.sgf": b"(;GM[1]SZ[9]PB[a]PW[b])",
        "broken.sgf": b"(;GM[1]SZ[9]PB[a",
        "z/copy.sgf": b"(;GM[1]SZ[9]PB[c]PW[d]RE[B+R]\n;B[ee];W[cc];B[gg])",  # root-move's game
    }
    (tmp_path / "z").mkdir()
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    recs, skipped = corpus.records([tmp_path])
    names = sorted(r.name.rsplit("/", 1)[-1] for r in recs)
    assert names == ["collection.sgf#1", "collection.sgf#2", "handicap.sgf", "root-move.sgf"]
    why = {name.rsplit("/", 1)[-1]: reason for name, reason in skipped}
    assert set(why) == {"fixture.sgf", "big.sgf", "cleared.sgf", "white-starts.sgf",
                        "twice.sgf", "empty.sgf", "broken.sgf", "copy.sgf"}
    assert why["copy.sgf"].startswith("the same game as ") and "root-move.sgf" in why["copy.sgf"]
    assert "no players" in why["fixture.sgf"]
    assert "board size 25" in why["big.sgf"]
    assert "AE" in why["cleared.sgf"]
    assert why["white-starts.sgf"].startswith("White plays first")
    assert "move 2 is Black's second in a row" in why["twice.sgf"]
    assert why["empty.sgf"] == "no moves"
    assert "not a readable SGF" in why["broken.sgf"]
    rec = next(r for r in recs if r.name.endswith("#2"))
    assert rec.game.moves == replay.load_game(GAME.replace(b"B[ee]", b"B[dd]")).moves
    assert "--game 2" in rec.command("occupancy", "worst", 7)


def test_a_game_the_board_cannot_be_told_about_is_refused_not_misreplayed():
    with pytest.raises(ValueError, match="White plays first"):
        replay.replay(b"(;GM[1]SZ[9]PB[a]PW[b]AB[ee]AW[cc];W[gg];B[cg])", "occupancy")


def test_passes_after_the_two_that_end_the_game_are_not_moves():
    """NNGS records (GNU Go's incident278, incident59) end with a third
    pass: the board is counting after two, so the replay stops there."""
    g = replay.load_game(b"(;GM[1]SZ[9]PB[a]PW[b];B[ee];W[cc];B[];W[];B[])", to_replay=True)
    assert g.moves == [(1, 40), (2, 56), (1, None), (2, None)]
    # The firmware's own record is read as it is (a pass can end a count and resume play).
    assert len(replay.load_game(b"(;GM[1]SZ[9]PB[a]PW[b];B[ee];W[cc];B[];W[];B[])").moves) == 5
    summary, _ = replay.replay(b"(;GM[1]SZ[9]PB[a]PW[b];B[ee];W[cc];B[];W[];B[])", "colour")
    assert summary["match"], summary["problem"]
    # A pass mid-game is a move, and one pass at the end too.
    assert len(replay.load_game(b"(;GM[1]SZ[9]PB[a]PW[b];B[ee];W[];B[cc];W[])", True).moves) == 4


def test_cli_replays_one_game_of_a_collection(tmp_path):
    path = tmp_path / "two.sgf"
    path.write_bytes(GAME + GAME.replace(b"B[ee]", b"B[dd]"))
    r = subprocess.run([sys.executable, "-m", "host_sim", "replay", str(path), "--game", "2",
                        "--sensors", "occupancy"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "4 moves" in r.stdout and "record matches" in r.stdout
    r = subprocess.run([sys.executable, "-m", "host_sim", "replay", str(path), "--game", "3"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "holds 2 game(s)" in r.stderr


def test_a_sample_is_drawn_by_the_seed_in_the_corpus_order():
    recs = list(range(50))
    a = corpus.sample(recs, 7, 3)
    assert a == corpus.sample(recs, 7, 3) and a == sorted(a) and len(set(a)) == 7
    assert a != corpus.sample(recs, 7, 4)
    assert corpus.sample(recs, 80, 3) == recs


def test_trace_prints_the_same_replay_action_by_action():
    data = (ROOT / "host_sim" / "games" / "gnugo-selfplay-9x9-seed3.sgf").read_bytes()
    plain, _ = replay.replay(data, "occupancy", seed=5)
    lines = []
    traced, _ = replay.replay(data, "occupancy", seed=5, trace=lines.append)
    assert traced == plain  # watching changes nothing
    text = "".join(lines)
    assert sum("hand: put" in l for l in lines) == plain["person"]["puts"]
    assert sum("hand: lift" in l for l in lines) == plain["person"]["lifts"] > 0
    assert "event move: B" in text and "light " in text


def test_report_counts_by_kind_and_physics_and_names_each_failure(tmp_path, monkeypatch):
    (tmp_path / "g.sgf").write_bytes(GAME)
    recs, _ = corpus.records([tmp_path])
    real = replay.replay

    def fake(data, sensors, **kw):
        if sensors == "colour" and kw["physics"] == "worst":
            raise RuntimeError("boom")
        summary, fw = real(data, sensors, seed=kw["seed"])  # ideal sensors: quick
        if sensors == "occupancy" and kw["physics"] == "worst":
            summary["match"], summary["problem"] = False, "move 3: made up"
        return summary, fw

    monkeypatch.setattr(replay, "replay", fake)
    results = corpus.run(recs, seed=4, jobs=1)
    assert corpus.tally(results) == {("colour", "nominal"): [1, 1], ("occupancy", "nominal"): [1, 1],
                                     ("colour", "worst"): [0, 1], ("occupancy", "worst"): [0, 1]}
    out = io.StringIO()
    corpus.report(results, [("x.sgf", "no moves")], len(recs), 1.0, out)
    text = out.getvalue()
    assert "skipped 1, no moves: x.sgf" in text
    assert "colour     worst    0/1" in text and "occupancy  nominal  1/1" in text
    assert "FAILED 2 (" in text and "crashed: RuntimeError: boom" in text and "move 3: made up" in text
    assert "g.sgf --sensors occupancy --physics worst --seed 4\n" in text


@pytest.fixture(scope="module")
def corpus_games(tmp_path_factory):
    """CI_GAMES from the pinned source, fetched into build/corpus when absent
    (skips without the network; fails under CI=true)."""
    try:
        where = corpus_tool.fetch(KOMBILO, stream=io.StringIO())
    except (OSError, ValueError) as exc:
        if CI:
            pytest.fail("the corpus could not be fetched: %s (CI=true: it must be)" % exc)
        pytest.skip("the corpus could not be fetched: %s" % exc)
    d = tmp_path_factory.mktemp("corpus")
    for name in CI_GAMES:
        shutil.copy(where / name, d / name)
    return d


def test_corpus_games_replay_on_both_kinds_at_nominal_and_worst(corpus_games):
    r = subprocess.run([sys.executable, "-m", "host_sim.person.corpus", "--corpus", str(corpus_games),
                        "--jobs", "2", "--seed", "3"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "corpus: 2 games replayed, 0 skipped" in r.stdout
    for kind in ("colour", "occupancy"):
        for physics in ("nominal", "worst"):
            assert "%-9s  %-7s  2/2" % (kind, physics) in r.stdout, r.stdout
