"""A game clock made from its settings (Clock.__init__): its time system's
parameters, the preallocated state, full time for both players.  Once a
game, so the running clock (clock.py) does not hold this code: loaded for
it and let go."""
from array import array

_FISCHER = 2  # clock.FISCHER, BYOYOMI, CANADIAN (clock.py imports this module)
_BYOYOMI = 3
_CANADIAN = 4


def make(clock, system, main_ms, period_ms, periods, stones, inc_ms, max_ms, play_on, moves):
    clock.system = system
    clock.main_ms = main_ms
    clock.period_ms = period_ms if system in (_BYOYOMI, _CANADIAN) else 0
    clock.periods = periods if system == _BYOYOMI else stones if system == _CANADIAN else 0
    clock.inc_ms = inc_ms if system == _FISCHER else 0
    clock.max_ms = max_ms if system == _FISCHER else 0
    clock.play_on = play_on
    # Preallocated, changed in place: [unused, black, white].
    clock.main = [0, main_ms, main_ms]  # main time left
    clock.period = [0, clock.period_ms, clock.period_ms]  # the current period's time left
    clock.count = [0, clock.periods, clock.periods]  # periods (byoyomi) / stones (canadian) left
    clock._snap = [0, 0, 0, 0, 0, 0, 0, 0, 0]  # before each colour's last move's bonus
    # Per move, for the record (SGF BL/WL, OB/OW): whole seconds left after
    # it (config.MAX_TIME_S keeps them in 16 bits) and the periods/stones
    # left; not known until the move is complete.  Allocated once.
    clock.secs = array("H", range(moves))
    for i in range(moves):
        clock.secs[i] = clock.unknown
    clock.counts = bytearray(moves)
    clock.index = -1  # the move the pending completion (moving) belongs to
    clock.running = 0  # the colour whose time runs now (0: nobody)
    clock.since = 0  # the tick up to which the running player was charged
    clock.saved = 0  # running time not yet journalled
    clock.started = False  # the first move starts the clock
    clock.paused = False  # after a power cut, until Confirm
    clock.flagged = 0  # the colour out of time (0: none)
    clock.told = 0  # the flag the referee has acted on (time_out)
    clock.moving = 0  # the colour whose move waits for its prisoners to be lifted
    clock.remote_turn = False  # a remote player is to move (follow; pairing's stopwatch)
    clock.remote_run = 0  # the remote colour whose clock their board last said runs
    clock.remote_at = 0  # when their figure came (display counts it down from there)
    clock.turn_c = 0  # the colour whose turn `turn` times
    clock.turn = 0  # ms charged to turn_c since its turn began
    clock.last = 0  # the colour of the last move completed
    clock.took = -1  # ms it took, as its board said (-1: not known)
    clock.seen = [0, 0]  # display's answer: ms and periods/stones shown
    clock.remote = 0  # the remote colour (follow copies Referee.remote)
    clock.warning = False
    clock.shown = 0  # the colour whose used period is being shown
    clock.shown_ms = 0
    clock._undo = 0  # bit per colour: _snap holds its last move's state
