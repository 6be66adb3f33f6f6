"""A game clock made from its settings (Clock.__init__): its time system's
parameters, the preallocated state, full time for both players.  Once a
game, so the running clock (clock.py) does not hold this code: loaded for
it and let go."""
from array import array

from gogadget.compat import const

_FISCHER = const(2)  # clock._FISCHER, _BYOYOMI, _CANADIAN (clock.py imports this module)
_BYOYOMI = const(3)
_CANADIAN = const(4)
_MAX_MS = const(0)  # clock._MAX_MS, _INDEX, _SNAP: Clock._state's slots
_INDEX = const(1)
_SNAP = const(10)


def make(clock, system, main_ms, period_ms, periods, stones, inc_ms, max_ms, play_on, moves):
    clock.system = system
    clock.main_ms = main_ms
    clock.period_ms = period_ms if system in (_BYOYOMI, _CANADIAN) else 0
    clock.periods = periods if system == _BYOYOMI else stones if system == _CANADIAN else 0
    clock.inc_ms = inc_ms if system == _FISCHER else 0
    clock.play_on = play_on
    # Preallocated, changed in place: [unused, black, white].
    clock.main = [0, main_ms, main_ms]  # main time left
    clock.period = [0, clock.period_ms, clock.period_ms]  # the current period's time left
    clock.count = [0, clock.periods, clock.periods]  # periods (byoyomi) / stones (canadian) left
    # The clock's own small ints (clock.py's _MAX_MS ... _SNAP), all 0 but
    # fischer's cap and _INDEX, the move the pending completion belongs to.
    clock._state = [0] * (_SNAP + 9)
    clock._state[_MAX_MS] = max_ms if system == _FISCHER else 0
    clock._state[_INDEX] = -1
    # Per move, for the record (SGF BL/WL, OB/OW): whole seconds left after
    # it (config.MAX_TIME_S keeps them in 16 bits) and the periods/stones
    # left; not known until the move is complete.  Allocated once.
    clock.secs = array("H", range(moves))
    for i in range(moves):
        clock.secs[i] = clock.unknown
    clock.counts = bytearray(moves)
    clock.running = 0  # the colour whose time runs now (0: nobody)
    clock.started = False  # the first move starts the clock
    clock.paused = False  # after a power cut, until Confirm
    clock.flagged = 0  # the colour out of time (0: none)
    clock.told = 0  # the flag the referee has acted on (time_out)
    clock.remote_turn = False  # a remote player is to move (follow; pairing's stopwatch)
    clock.remote_run = 0  # the remote colour whose clock their board last said runs
    clock.remote_at = 0  # when their figure came (display counts it down from there)
    clock.last = 0  # the colour of the last move completed
    clock.took = -1  # ms it took, as its board said (-1: not known)
    clock.seen = [0, 0]  # display's answer: ms and periods/stones shown
    clock.remote = 0  # the remote colour (follow copies Referee.remote)
    clock.shown = 0  # the colour whose used period is being shown
