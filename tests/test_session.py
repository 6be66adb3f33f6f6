"""host_sim/sim/session.py: the one game-running module, and what it promises."""
import ast
import os
import json
import re
import subprocess
import sys
import time

from conftest import ROOT
from gogadget.points import BLACK
from host_sim.sim import session
from host_sim.sim.virtual import PUT_CODES, make_config


FOLDERS = ("base", "sim", "person", "faces")  # host_sim's own floors (tests/test_imports.py)


def imports_of(path):
    """host_sim modules a file imports (at any depth in the file)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module in ["host_sim"] + ["host_sim." + f for f in FOLDERS]:
                out.update(a.name for a in node.names)
            elif node.module.startswith("host_sim."):
                out.add(node.module.split(".")[-1])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("host_sim."):
                    out.add(a.name.split(".")[-1])
    return out


def test_no_import_circle_in_host_sim():
    """The window, the terminal and the CLI use session.py; nothing imports
    back up (the old circle was __main__ -> gui -> match -> cli -> __main__)."""
    graph = {p.stem: imports_of(p) for folder in ("",) + FOLDERS
             for p in (ROOT / "host_sim" / folder).glob("*.py") if p.stem != "__init__"}
    for user in ("gui", "cli", "__main__", "launch"):
        assert "session" in graph[user], user
    assert not {"gui", "tui", "launch", "cli", "__main__"} & graph["session"]
    assert "match" not in graph  # folded into session
    for name in ("__main__", "cli"):
        assert not any(name in deps for mod, deps in graph.items() if mod != name), name

    def reach(start, seen):
        for dep in graph.get(start, ()):
            if dep not in seen:
                seen.add(dep)
                reach(dep, seen)
        return seen

    for mod in graph:
        assert mod not in reach(mod, set()), "import circle through %s" % mod


def step_until(sim, test, what, seconds=30):
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, what
        sim.step()
        time.sleep(0.001)


def place_prompted(sim):
    for pl, code in sim.leds.prompts().items():
        colour = PUT_CODES.get(code & 0x0F)
        if colour and sim.stones.cells[pl] == 0:
            sim.stones.put(pl, colour)
    sim.until_quiet()


def test_new_game_at_the_board_stops_the_relay_without_an_error(gnugo_path, tmp_path):
    """New game pressed mid-game (then Confirm, as the board will ask): the
    relay ends quietly, the window or terminal stays up, nothing crashes."""
    sim, match = session.start(make_config(size=9), gnugo_path + " --mode gtp --level 0",
                               colour=BLACK, store_dir=str(tmp_path / "store"), live=False)
    try:
        match.wait(sim.step)
        assert match.status() == "Black to play (you): put a stone down or press Pass"
        sim.stones.put("E5", BLACK)
        sim.until_quiet()
        match.wait(sim.step)
        assert "waiting to be placed" in match.status()
        place_prompted(sim)
        match.wait(sim.step)
        sim.press("new")
        sim.run(200)
        sim.press("confirm")
        step_until(sim, lambda: match.done, "the relay to end")
        assert match.error is None, match.error
        assert "a new game was started at the board: this game stops here" in match.log
        assert match.status() == "game stopped"
    finally:
        match.close()
        sim.close()


def test_counting_waits_for_the_person_and_the_result_is_the_boards(gnugo_path, tmp_path):
    """Two passes: the status asks for the dead stones and Confirm (never
    "game over" yet); after Confirm the result is the board's count."""
    sim, match = session.start(make_config(size=9), gnugo_path + " --mode gtp --level 0",
                               colour=BLACK, store_dir=str(tmp_path / "store"), live=False,
                               out=str(tmp_path / "g.sgf"))
    try:
        match.wait(sim.step)
        for _ in range(60):  # the person passes; GNU Go plays until it passes too
            if sim.referee.phase == "count":
                break
            if sim.leds.prompts():
                place_prompted(sim)
            else:
                sim.press("pass")
                sim.until_quiet()
            match.wait(sim.step)
        assert sim.referee.phase == "count"
        assert match.status() == "two passes: lift dead stones, then press Confirm"
        assert not match.done and not match.busy()  # the person's turn to count
        sim.press("confirm")
        step_until(sim, lambda: match.done, "the result")
        assert match.result == sim.referee.result and match.result
        assert match.status().startswith("game over: %s by the board's count" % match.result)
        match.save()
        assert "RE[%s]" % match.result in (tmp_path / "g.sgf").read_text()
        assert any(re.match(r"\d+\. white pass$", line) for line in match.log)
    finally:
        match.close()
        sim.close()


def test_replay_json_reports_the_komi_the_count_used(tmp_path):
    """A record without KM[]: the count and the reported komi agree (0)."""
    text = (ROOT / "host_sim" / "games" / "aya-gnugo-olympiad-2006-9x9.sgf").read_text()
    game = tmp_path / "no-komi.sgf"
    game.write_text(text.replace("KM[6.5]", ""))
    r = subprocess.run([sys.executable, "-m", "host_sim", "replay", str(game), "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    summary = json.loads(r.stdout)
    count = summary["count"]
    assert summary["komi"] == count["komi"] == 0.0
    margin = count["black"] - count["white"]
    assert count["result"] == ("B+%g" % margin if margin > 0 else "W+%g" % -margin)


def test_a_kept_game_is_resumed_with_its_stones_or_another_size_starts_anew(gnugo_path, tmp_path):
    """As the board after a power cut: the kept game comes back (its stones
    never left the board) and the engine is brought to it; asking for
    another size starts a new game on a board of that size."""
    store = str(tmp_path / "store")
    engine = gnugo_path + " --mode gtp --level 0"
    sim, match = session.start(make_config(size=9), engine, store_dir=store, live=False)
    try:
        match.wait(sim.step)
        sim.stones.put("E5", BLACK)
        sim.until_quiet()
        match.wait(sim.step)
        reply = [sim.vertex(pl) for pl in sim.leds.prompts()]
        place_prompted(sim)
    finally:
        match.close()
        sim.close()
    sim, match = session.start(make_config(size=9), engine, store_dir=store, live=False)
    try:
        match.wait(sim.step)
        assert ("resuming the game kept on the board at move 3 (Black to play, kept in %s; "
                "--new starts a new game instead)" % store) in match.log
        assert {sim.vertex(pl) for pl, c in enumerate(sim.stones.cells) if c} == {"E5"} | set(reply)
        assert match.status() == "Black to play (you): put a stone down or press Pass"
        sim.stones.put("C7", BLACK)
        sim.until_quiet()
        match.wait(sim.step)
        assert match.log[-2].startswith("3. black C7") and match.log[-1].startswith("4. white ")
    finally:
        match.close()
        sim.close()
    sim, match = session.start(make_config(size=13), engine, store_dir=store, live=False)
    try:
        match.wait(sim.step)
        sim.until_quiet()
        assert match.error is None and sim.size == 13 and sim.stones.size == 13
        assert sim.referee.board.moves == 0 and sim.stones.count() == 0
        assert not any("resuming" in line for line in match.log)
        # The 9x9 game left unfinished is not lost to the new size: its record is kept.
        (kept,) = [line.rsplit(" ", 1)[1] for line in match.log
                   if line.startswith("a new game; the unfinished one (4 moves) is saved as ")]
        assert ";B[ee];W[" in open(kept).read()
    finally:
        match.close()
        sim.close()


def test_a_controllers_boardsize_resizes_the_virtual_board(tmp_path):
    import io
    r_fd, w_fd = os.pipe()
    stdin = os.fdopen(r_fd, "rb")
    feed = os.fdopen(w_fd, "wb", buffering=0)
    answers = io.StringIO()
    sim, relay = session.start_gtp(make_config(size=9), stdin, answers)
    try:
        feed.write(b"1 boardsize 13\n2 clear_board\n3 play b G7\n")
        step_until(sim, lambda: "=3" in answers.getvalue(), "the answers")
        sim.until_quiet()
        assert sim.size == 13 and sim.stones.size == 13
        assert [sim.vertex(pl) for pl in sim.leds.prompts()] == ["G7"]
        place_prompted(sim)
        assert sim.referee.board.moves == 1 and sim.referee.outstanding() == 0
    finally:
        feed.close()
        relay.close()
        sim.close()


FAKE_ENGINE = r"""
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "genmove":
        sys.exit(3)  # the engine dies when asked to move
    sys.stdout.write("= %s\n\n" % ("Fake" if word == "name" else ""))
    sys.stdout.flush()
"""


def test_an_engine_that_dies_ends_the_session_with_a_clear_error(tmp_path):
    engine = tmp_path / "fake.py"
    engine.write_text(FAKE_ENGINE)
    r = subprocess.run([sys.executable, "-m", "host_sim.cli", "play", "--sim", "--tui", "--engine",
                        "%s %s" % (sys.executable, engine), "--size", "9", "--colour", "white"],
                       cwd=ROOT, input="put E5\nput D4\nput C3\nquit\n", capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, DISPLAY=""))
    assert r.returncode == 1, (r.stdout[-2000:], r.stderr)
    assert "gogadget:" in r.stderr and "exited" in r.stderr and "Traceback" not in r.stderr
