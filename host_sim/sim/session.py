"""Running a game on the virtual board: the one module the window, the
terminal mode and the `gogadget` command line all use.

* open_session() builds the simulator (and Match) the window and the
  terminal mode run; host_sim/faces/launch.py opens one or the other around it.
* BoardSim is the Simulator with its game folder its own, a kept game's
  stones put back and a live port.

The rest lives beside it, each with one job, and is named here too:

* enginegame.py: play_game() relays a game between the board (over GTP,
  as on USB) and a GTP engine; the result is the board's own count,
  confirmed at the board.
* recordtext.py: the result in words and the record with its players.
* simwire.py: Wire is an in-process byte pipe pair: the board end is read
  without blocking by the firmware's Link in the scan loop (on the main
  thread, driven by the window or the terminal), the host end blocks in a
  controller thread that never touches the firmware objects.  LivePort
  serves the running simulator on a pty too, named in a small file per
  user, so `gogadget watch --sim`, `pull --sim` and `gtp --sim` in another
  terminal reach the live virtual board.
* simmatch.py: Match is that controller thread: against an engine
  (play_game) or relaying a GTP controller on stdin/stdout (`gogadget gtp
  --sim`), so a person at the window or terminal answers genmove.
* simstore.py: the game folder one simulator's alone, and where a running
  one announces itself.
"""
import os
import re

from gogadget.points import BLACK, EMPTY, WHITE, place_point
# The names callers reach through session (session.play_game, session.Wire...);
# a setting such as GAMES_DIR is patched where it is read (enginegame).
from host_sim.sim.enginegame import (  # noqa: F401
    COUNT_POLL_S, GAMES_DIR, WORDS, GameOutcome, board_clock, check_engine, colour_word,
    engine_not_found, move_word, play_game, tell_engine_time_left, tell_engine_time_settings,
    wait_for_count)
from host_sim.sim.recordtext import (  # noqa: F401
    PLAYER, opinion_note, plural, record_moves, result_words, with_players, with_result)
from host_sim.sim.simmatch import ENGINE_WAIT_S, GtpRelay, Match  # noqa: F401
from host_sim.sim.simstore import (  # noqa: F401
    ANNOUNCE, STORE_LOCK, SimulatorBusy, claim_running, claim_store, default_store, live_file,
    live_port, live_sim, live_sims, release)
from host_sim.sim.simwire import LivePort, Wire  # noqa: F401
from host_sim.sim.virtual import Simulator


KEPT = re.compile(r"\b(kept as )(\d{4}\.sgf)")
RESUMED = re.compile(r"^(resumed \d+ moves? of a \S+ game)")


class BoardSim(Simulator):
    """The Simulator plus what a session needs: its game folder its own
    (claim_store), the stones of a resumed game put back (they never left
    the physical board), a live port, and a kept game named by its full
    path (the board says only NNNN.sgf: on a computer the folder matters)."""

    def __init__(self, config=None, noise=0.0, seed=None, store_dir=None, stream=None, live=True,
                 what="a simulator"):
        self._lock = claim_store(store_dir, what) if store_dir else None
        try:
            Simulator.__init__(self, config, noise=noise, seed=seed, store_dir=store_dir,
                               stream=stream)
        except BaseException:
            release(self._lock)
            raise
        # The virtual board's flash: gogadget-config writes its config.json
        # here (firmware/gogadget/configgtp.py), not where the simulator was
        # started from.
        setattr(self.config, "file", os.path.join(self.store_dir, "config.json"))
        self.live = None
        if live:
            try:
                self.live = LivePort(self)
            except OSError:
                self.live = None
        self.fit()
        restore_stones(self)

    def fit(self):
        """The firmware plays another size than the virtual board has (a
        kept game of another size resumed, or a host's boardsize): the
        simulator swaps in an empty board of that size, as a person would."""
        size = self.app.referee.size
        if size == self.stones.size:
            return False
        self.config.size = size
        self.stones.__init__(size)
        self.sensors._clean = bytearray(size * size)
        self.sensors._seen_changes = -1
        return True

    def step(self):
        self.fit()
        Simulator.step(self)
        self.fit()
        if self.live is not None:
            self.live.poll(self.clock.now_ms)

    def _tap_events(self):
        Simulator._tap_events(self)
        take = self.app.referee.poll_event
        folder = self.store_dir

        def poll_event():
            ev = take()
            if ev is not None and (KEPT.search(ev[1]) or RESUMED.search(ev[1])):
                text = KEPT.sub(lambda m: m.group(1) + os.path.join(folder, m.group(2)), ev[1])
                ev = (ev[0], RESUMED.sub(lambda m: m.group(1) + " kept in " + folder, text))
                self.events[-1] = self.events[-1][:2] + (ev[1],)
            return ev

        self.app.referee.poll_event = poll_event

    def start_over(self, size=None):
        """A new game (of `size`) instead of the one kept (--new, another
        size asked): New and Confirm pressed and the stones swept off, as a
        person does; the board keeps an unfinished game as NNNN.sgf first."""
        self.press("new")
        self.until_quiet()
        ref = self.referee
        if ref.phase != "setup" and ref.board.moves:
            self.press("confirm")  # "new game? press Confirm (this game is kept)"
            self.until_quiet()
        if size and ref.size != size:
            # New keeps the size; another is the host's to ask (GTP boardsize does the same).
            cfg = self.config
            ref.new_game(size=size, komi=cfg.komi, handicap=cfg.handicap, preset=cfg.preset)
        for pl in range(len(self.stones.cells)):
            if self.stones.cells[pl] != EMPTY:
                self.stones.lift(pl)
        self.until_quiet()
        self.fit()

    def close(self):
        if self.live is not None:
            self.live.close()
            self.live = None
        Simulator.close(self)
        release(self._lock)
        self._lock = None


def restore_stones(sim):
    """After a restart the board asks for the stones of the kept game back;
    on a real board they never moved, so put them where the lights ask."""
    sim.step()
    ref = sim.referee
    if ref.phase != "resume":
        return
    size = sim.size
    for pl in range(size * size):
        colour = ref.board.cells[place_point(size, pl)]
        if colour in (BLACK, WHITE) and sim.stones.cells[pl] == EMPTY:
            sim.stones.put(pl, colour)
    sim.until_quiet()


def start(config, command, colour=BLACK, komi=None, handicap=0, max_moves=0, out=None,
          noise=0.0, seed=None, store_dir=None, live=True, new=False, player=None,
          what="a simulator"):
    """A simulator served on a Wire and a Match relaying it to the engine."""
    wire = Wire()
    size = config.size
    sim = BoardSim(config, noise=noise, seed=seed, stream=wire.board, store_dir=store_dir,
                   live=live, what=what)
    try:
        match = Match(sim, wire, command, colour, komi, handicap, max_moves, out, size=size,
                      new=new, player=player, where=store_dir or "")
    except ValueError:
        sim.close()
        raise
    return sim, match.start()


def start_gtp(config, stdin, stdout, noise=0.0, seed=None, store_dir=None, live=False,
              what="a simulator"):
    """A simulator served on a Wire and a GtpRelay from stdin/stdout to it."""
    wire = Wire()
    sim = BoardSim(config, noise=noise, seed=seed, stream=wire.board, store_dir=store_dir,
                   live=live, what=what)
    return sim, GtpRelay(sim, wire, stdin, stdout).start()


# -- a session for the window or the terminal ------------------------------------

def choices_from(size=None, sensors=None, preset=None, komi=None, handicap=None):
    """The simulator's full set of choices (the window's menus need every
    one), the board's defaults filled in; ValueError when one is bad."""
    from host_sim.sim.virtual import make_config
    cfg = make_config(size=size, sensors=sensors, preset=preset, komi=komi, handicap=handicap)
    return {"size": cfg.size, "sensors": cfg.sensors, "preset": cfg.preset, "komi": cfg.komi,
            "handicap": cfg.handicap}


CHOICES = ("size", "sensors", "preset", "komi", "handicap")  # the simulator's own menus


def stored_settings(store_dir):
    """{key: value} of the settings the folder's config.json holds (what
    `gogadget config --sim` saved: the virtual board's flash), read by the
    firmware's own loader as a board reads its file at its start; {}
    without one.  ValueError, with the reason, for a file that does not
    load (it is left as it is)."""
    path = os.path.join(store_dir, "config.json")
    if not os.path.exists(path):
        return {}
    import json
    from gogadget import configfile
    from gogadget.config import Config
    try:
        config = configfile.load(Config, path)
        with open(path) as f:
            named = json.load(f)  # (the keys the file sets: the rest are defaults)
    except TypeError as exc:  # a key Config does not know
        raise ValueError("%s: %s" % (path, exc))
    except (OSError, ValueError) as exc:
        raise ValueError("%s: %s" % (path, exc))
    return {k: getattr(config, k) for k in named if k != "format"}


def chosen(stored, **given):
    """The simulator's choices (CHOICES) from the command line's (given,
    None where not given) over the folder's stored settings."""
    return {k: given[k] if given.get(k) is not None else stored.get(k)
            for k in CHOICES if given.get(k) is not None or k in stored}


def _config(choices, engine_side, store_dir=None):
    """The firmware Config of a session: its folder's stored settings
    (stored_settings) under the choices."""
    from host_sim.sim.virtual import make_config
    stored = {}
    if store_dir:
        try:
            stored = {k: v for k, v in stored_settings(store_dir).items() if k not in CHOICES}
        except ValueError:
            stored = {}  # (said at the start by the command: the defaults)
    if engine_side:
        # The relay sets handicap stones and komi over GTP, as a host does.
        return make_config(**dict(stored, **dict(choices, handicap=0)))
    return make_config(**dict(stored, **choices))


def open_session(choices, noise=0.0, seed=None, versus=None, gtp=None, store_dir=None, new=False,
                 size=None, host=None, what="a simulator"):
    """(sim, match) for the window or the terminal: an engine game, a GTP
    controller, or the board alone (match None).  The board alone resumes
    the game its folder keeps, whatever its size, unless new (a new game of
    the kept game's size, or of `size`) or `size` is not the kept game's
    (a new game of that size); the board keeps an unfinished game as
    NNNN.sgf first.  host(sim, wire): a host command's controller on the
    board's GTP link (`gogadget remote --sim`: host_sim/room/atsim.py);
    what: who holds the folder, for the error another simulator gets."""
    if store_dir:
        os.makedirs(store_dir, exist_ok=True)
    if host is not None:
        wire = Wire()
        sim = BoardSim(_config(choices, False, store_dir), noise=noise, seed=seed,
                       stream=wire.board,
                       store_dir=store_dir, what=what)
        return sim, host(sim, wire)
    if versus is not None:
        return start(_config(choices, True, store_dir), komi=choices.get("komi"),
                     handicap=choices.get("handicap") or 0, noise=noise, seed=seed,
                     store_dir=store_dir, what=what, **versus)
    if gtp is not None:
        return start_gtp(_config(choices, False, store_dir), gtp[0], gtp[1], noise=noise,
                         seed=seed,
                         store_dir=store_dir, what=what)
    sim = BoardSim(_config(choices, False, store_dir), noise=noise, seed=seed,
                   store_dir=store_dir, what=what)
    if new or (size and sim.referee.size != size):
        sim.start_over(size)
    return sim, None


def unfinished_note(sim, new=True):
    """What a person quitting should hear of the game left on the board
    (kept, and where: the next start resumes it), or ""; new: the command
    has --new."""
    ref = sim.referee
    if ref.phase not in ("play", "count", "resume") or not ref.board.moves:
        return ""
    return ("the unfinished game (%s) is kept in %s: the next start goes on with it%s"
            % (plural(ref.board.moves, "move"), sim.store_dir,
               " (--new starts a new game)" if new else ""))
