"""The simulator's settings live on its flash as a board's do (issue 38):
`gogadget config --sim` and GTP gogadget-config write the store folder's
config.json whichever simulator answers (one of its own, or `make sim`'s
BoardSim: it wrote config.json into the directory the simulator was
started from), and a simulator started on the folder reads that file
with the firmware's own loader, as a board reads its file at its start;
the command line's own choices win.  A file that does not load is said
and set aside from the start, never half read."""
import json
import os

from host_sim.sim import session


def answer(sim, line):
    return sim.app.open_link().handle(line).strip()


def test_a_running_simulator_saves_its_settings_in_its_folder(tmp_path, monkeypatch):
    store, elsewhere = tmp_path / "store", tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    choices = session.choices_from(size=9)
    sim, _ = session.open_session(choices, store_dir=str(store))
    try:
        assert answer(sim, "gogadget-config max_brightness 40").endswith("applied now")
    finally:
        sim.close()
    assert not (elsewhere / "config.json").exists()
    assert json.loads((store / "config.json").read_text())["max_brightness"] == 40


def test_a_simulator_starts_with_the_settings_of_its_folder(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "config.json").write_text(json.dumps(
        {"format": 1, "max_brightness": 30, "confirm_ms": 4000, "komi": 7.5, "size": 13}))
    stored = session.stored_settings(str(store))
    assert stored == {"max_brightness": 30, "confirm_ms": 4000, "komi": 7.5, "size": 13}
    sim, _ = session.open_session(session.choices_from(**session.chosen(stored, size=None)),
                                  store_dir=str(store))
    try:
        assert sim.config.max_brightness == 30 and sim.config.confirm_ms == 4000
        assert sim.config.komi == 7.5 and sim.referee.size == 13
    finally:
        sim.close()
    # The command line's choice wins over the file's.
    assert session.chosen(stored, size=9, komi=None)["size"] == 9


def test_a_folder_config_that_does_not_load_is_said_and_not_used(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    for text, why in (('{"size": 9,', "not valid JSON"),
                      ('{"max_brightness": 300}', "max_brightness must be a whole number"),
                      ('{"colour": 1}', "colour")):
        (store / "config.json").write_text(text)
        try:
            session.stored_settings(str(store))
        except ValueError as exc:
            assert why in str(exc), (text, exc)
        else:
            raise AssertionError("%s was read" % text)
        assert (store / "config.json").read_text() == text  # kept as it is
    assert os.listdir(str(store)) == ["config.json"]
