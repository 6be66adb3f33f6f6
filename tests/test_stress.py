"""The randomized physical-play stress (host_sim/person/stress.py) in CI.

A seeded simulated person plays random legal games through the unmodified
firmware with every habit of issue 10 (late prisoners, bumps, wrong colours,
illegal and extra stones, hands, take-backs, power cuts, flicker 0-2% ...).
Every game must keep the record a prefix of the intended moves, never leave
the person waiting, and end with the intended record in referee.sgf() and
the kept game file.  Failing seeds are printed with the command that
replays them traced."""
import pytest

from gogadget import rules as rules_mod, scan
from host_sim.person import stress, stress_player
CHUNKS = 6
GAMES_PER_CHUNK = 50  # 300 games in all, a few seconds each chunk on two cores


def failure_text(results):
    lines = []
    for r in results:
        if not r["ok"]:
            lines.append("seed %d: %s [%s] %s\n    %s" % (
                r["seed"], r["cause"], r["doing"], r["detail"], stress.replay_command(r["seed"])))
    return "\n".join(lines)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_stress_games_keep_the_intended_record(chunk):
    seeds = stress.game_seeds(GAMES_PER_CHUNK, 7000 + chunk)
    results = stress.run_games(seeds, jobs=2)
    print(stress.report(results))
    failed = [r for r in results if not r["ok"]]
    assert not failed, "%d of %d stress games failed:\n%s" % (
        len(failed), len(results), failure_text(results))


def test_stress_covers_sizes_sensors_presets_noise_and_habits():
    # What the CI games draw, from their seeds alone (no game is played).
    specs = [stress.Spec(s) for c in range(CHUNKS)
             for s in stress.game_seeds(GAMES_PER_CHUNK, 7000 + c)]
    assert len(specs) >= 300
    assert {s.size for s in specs} == {9, 13, 19}
    assert {s.sensors for s in specs} == set(scan.SENSOR_KINDS)
    assert {s.preset for s in specs} == set(rules_mod.PRESETS)
    assert {s.noise_bucket() for s in specs} >= {"0", "<=0.5%", "<=1%", "<=2%"}
    assert max(s.noise for s in specs) <= 0.02
    assert 0.08 < sum(1 for s in specs if s.handicap) / len(specs) < 0.25
    assert any(s.free for s in specs)
    for habit in stress.HABITS:
        assert sum(1 for s in specs if habit in s.habits) >= 3, habit


def test_same_seed_same_game():
    a = stress.run_game(11, habits={"bump", "late"}, size=9, max_moves=20)
    b = stress.run_game(11, habits={"bump", "late"}, size=9, max_moves=20)
    for key in ("ok", "cause", "moves", "virtual_ms", "habits"):
        assert a[key] == b[key]


# -- the harness can fail: each broken invariant is caught -----------------------------

PLAIN = dict(habits=set(), noise=0.0, size=9, preset="chinese", handicap=0, sensors="colour",
             max_moves=20)


def test_plain_game_passes():
    r = stress.run_game(3, **PLAIN)
    assert r["ok"], r


def test_a_lost_move_is_caught():
    def lose_a_move(person, moves):
        if moves == 5:
            person.sim.referee.board.undo()  # a referee that forgets a move

    r = stress.run_game(3, sabotage=lose_a_move, **PLAIN)
    assert not r["ok"]
    assert r["cause"] == "accepted move lost"


def test_a_wrong_move_is_caught():
    def invent_a_move(person, moves):
        if moves == 5:
            ref = person.sim.referee
            ref.board.pass_move(ref.board.to_move())  # a referee that records a pass nobody made

    r = stress.run_game(3, sabotage=invent_a_move, **PLAIN)
    assert not r["ok"]
    assert r["cause"] in ("move nobody made accepted", "wrong move accepted")


def test_a_record_that_differs_at_the_end_is_caught(monkeypatch):
    from gogadget.referee import Referee

    honest = Referee.sgf

    def short_sgf(self):  # drops the last move from the SGF only
        text = honest(self)
        return text[:text.rindex(";")] + ")"

    monkeypatch.setattr(Referee, "sgf", short_sgf)
    r = stress.run_game(3, **PLAIN)
    assert not r["ok"]
    assert r["cause"] in ("kept game differs", "record differs")


def test_a_mismatching_intended_history_is_caught():
    def change_my_mind(person, moves):
        if moves == 5:
            colour, pt = person.intent.history[2]
            person.intent.history[2] = (3 - colour, pt)

    r = stress.run_game(3, sabotage=change_my_mind, **PLAIN)
    assert not r["ok"]
    assert r["cause"] in ("wrong move accepted", "kept game differs")


def test_trace_prints_actions_lights_and_events():
    lines = []
    r = stress.run_game(3, trace=True, out=lines.append, **PLAIN)
    text = "".join(lines)
    assert "put B" in text and "light " in text and "event move:" in text
    assert ("game passed" if r["ok"] else "FAILED") in text


def test_cli_replay_and_report(tmp_path, capsys):
    code = stress.main(["--games", "4", "--seed", "3", "--sizes", "9", "--report",
                        str(tmp_path / "findings.md")])
    out = capsys.readouterr().out
    assert "by habit:" in out and "by noise:" in out
    assert code == (0 if "stress: 4/4" in out else 1)
    assert (tmp_path / "findings.md").read_text().startswith("# Stress findings")


def test_reboot_keeps_the_stones_and_resumes_the_journalled_game():
    from host_sim.sim.virtual import Simulator

    sim = Simulator(size=9, sensors="colour", seed=1)
    try:
        sim.run(200)  # a stone already down at power-on is no move: boot first
        sim.stones.put("E5", 1)
        sim.run(500)
        sim.stones.put("C3", 2)
        sim.run(500)
        assert sim.referee.board.moves == 2
        heard = len(sim.events)
        old_app = sim.app
        sim.reboot()
        assert sim.app is not old_app
        assert sim.referee.board.moves == 2  # from the journal
        assert sim.stones.count() == 2  # the stones stayed where they were
        assert any(kind == "resume" for _, kind, _ in sim.events[heard:])
        assert sim.until_quiet()
        assert not sim.leds.prompts()
        sim.stones.put("D4", 1)
        sim.run(500)
        assert sim.referee.board.moves == 3
    finally:
        sim.close()


def test_replay_command_carries_the_run_options():
    opts = stress.Options(sizes=(9,), noise_max=0.03, habits={"bump", "late"})
    cmd = opts.replay_command(42)
    assert cmd == (".venv/bin/python -m host_sim.person.stress --replay 42 --sizes 9 --noise-max 0.03"
                   " --habits bump,late --trace")
    assert stress.replay_command(42) == ".venv/bin/python -m host_sim.person.stress --replay 42 --trace"
    assert stress.parse_habits("none") == set()
    assert stress.parse_habits("all") == set(stress.HABITS)
    assert stress.Options(habits=stress.HABITS).replay_command(1).endswith("--habits all --trace")
    with pytest.raises(Exception):
        stress.parse_habits("juggling")


@pytest.mark.parametrize("sensors", scan.SENSOR_KINDS)
def test_full_19x19_board_resumes_within_2_s_at_1_percent_flicker(sensors):
    # Issue 10: after a power cut with 1% flicker on a full 19x19 board the board
    # accepts the restored position within 2 s (the harness fails a slower resume).
    r = stress.run_game(5, habits={"cut_clean"}, size=19, sensors=sensors, noise=0.01,
                        preset="chinese", handicap=0, max_moves=361, moments={"cut_clean": 300})
    assert r["ok"], "%s [%s] %s" % (r["cause"], r["doing"], r["detail"])
    assert r["moves"] >= 250 and r["resume_ms"] is not None
    print("resumed %d moves in %d ms" % (r["moves"], r["resume_ms"]))
    assert r["resume_ms"] <= stress_player.RESUME_MS


def test_a_count_that_ignores_a_lifted_chain_is_caught(monkeypatch):
    def mark_dead_and_forget_one(person):
        chains = sorted(person.intent.chains(), key=len)[-2:]  # the two biggest chains
        for chain in chains:
            person.lift_all(chain)
        person.sim.settle()
        return chains[:1]  # the person's count leaves the second one alive

    monkeypatch.setattr(stress.Player, "mark_dead", mark_dead_and_forget_one)
    r = stress.run_game(3, **PLAIN)
    assert not r["ok"]
    assert r["cause"] == "result differs from the dead stones lifted"


def test_an_exception_in_the_firmware_is_a_failure_with_its_place(monkeypatch):
    from gogadget.app import App

    step = App.step

    def broken_step(self, now_ms):
        if now_ms > 2000:
            raise IndexError("a referee bug")
        step(self, now_ms)

    monkeypatch.setattr(App, "step", broken_step)
    r = stress.run_game(3, **PLAIN)
    assert not r["ok"]
    assert r["cause"] == "exception IndexError"
    assert "a referee bug" in r["detail"] and "test_stress.py" in r["detail"]


# Seeds the stress found failing, each fixed in the firmware (or the person)
# since; replayed as they are drawn by the harness of the same commit.
REGRESSIONS = [
    (5004562, {}),  # a stone set down 60 ms, then nudged on: recorded where it landed
    (5001750, {}),  # a phantom from the boot vote counted as a placed handicap stone
    (8000219, {}),  # two stones in one scan, one misread twice: the other went alone
    (1400263, {}),  # a flipped stone flipped back on a light not yet changed
    (3000807, {"noise": 0.03}),  # after a self-capture a stray lift started a take-back
    (3000215, {"noise": 0.03}),  # a settling stone cut short: its partner became a move
    (3000630, {"noise": 0.03}),  # a turned-over stone waited out a slide guard
    (1800293, {}),  # a 4-scan phantom adopted, gone again: taken as a move a scan later
    (3000790, {"noise": 0.03}),  # double flickers kept the board unclean: stone never shown
    # Stones put back after a cut while counting went through after a stall
    # and never came clean under the flicker (the 50 scans/s board; the same
    # at 100/s: tests/mp/settle_checks.py, stalled_put_back).
    (2200083, {"noise": 0.03}),
    # A stone put back while counting, held as under a hand by two double
    # flickers and knocked to the next point meanwhile: taken as a move.
    (2300711, {"noise": 0.03}),
]


@pytest.mark.parametrize("seed,fixed", REGRESSIONS, ids=[str(s) for s, _ in REGRESSIONS])
def test_regression_seed(seed, fixed):
    r = stress.run_game(seed, **fixed)
    assert r["ok"], "seed %d: %s [%s] %s" % (seed, r["cause"], r["doing"], r["detail"])


def test_the_clock_changes_no_move():
    """A game on the board's clock is the same game as without one: the
    person does the same, the record is the intended one, and the clock
    charged no more than the virtual time (stress.check_clock)."""
    for i, clock in enumerate(stress.CLOCKS):
        fixed = dict(PLAIN, habits={"bump", "late", "cut_clean"}, max_moves=24)
        timed = stress.run_game(40 + i, clock=clock, **fixed)
        plain = stress.run_game(40 + i, clock=None, **fixed)
        assert timed["ok"], timed
        assert timed["clock"] == clock["time_control"] and plain["clock"] == ""
        for key in ("moves", "virtual_ms", "habits"):
            assert timed[key] == plain[key], (key, timed, plain)


def test_a_clock_that_overcharges_is_caught(monkeypatch):
    from gogadget import clock as clockmod
    charge = clockmod.Clock._charge
    monkeypatch.setattr(clockmod.Clock, "_charge",
                        lambda self, c, ms, now: charge(self, c, 3 * ms, now))
    r = stress.run_game(5, clock=stress.CLOCKS[0], **PLAIN)
    assert not r["ok"] and r["cause"] == "clock", r


def test_some_stress_games_are_on_a_clock():
    specs = [stress.Spec(s) for s in stress.game_seeds(200, 4200)]
    kinds = {s.clock["time_control"] for s in specs if s.clock}
    assert kinds == {"absolute", "byoyomi", "canadian", "fischer"}
    assert 0.15 < sum(1 for s in specs if s.clock) / len(specs) < 0.45
