"""The game clock over GTP (link.py): time_settings, kgs-time_settings,
time_left and gogadget-clock.  Apart from clock.py so that a running clock
does not keep these on the heap: link.py loads this module for one command
and lets it go (compat.forget)."""
from gogadget.clock import SYSTEMS



def gtp_settings(ref, how, args):
    """`time_settings M T S` (GTP v2: Canadian; T 0: absolute; S 0 with T
    above 0, or all 0: no limit) or `kgs-time_settings none | absolute M |
    byoyomi M T N | canadian M T S`: the config's time control from now,
    the clocks full (the game's clocks restart).  ValueError says what is
    wrong."""
    words = args[1:] if how == "kgs" else args
    for w in words:
        if not w.isdigit():
            raise ValueError("times and counts are whole numbers 0 or more, not " + w)
    vals = [int(w) for w in words]
    if how == "kgs":
        system = args[0].lower() if args else ""
        need = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}.get(system, -1)
        if need < 0:
            raise ValueError("expected none, absolute, byoyomi or canadian")
        if len(vals) != need:
            raise ValueError("%s takes %d numbers" % (system, need))
    else:
        if len(vals) != 3:
            raise ValueError("expected main_time byo_yomi_time byo_yomi_stones")
        m, t, n = vals
        if t > 0 and n == 0 or m == 0 and t == 0:
            system = "none"
            vals = []
        elif t == 0:
            system = "absolute"
            vals = [m]
        else:
            system = "canadian"
    config = ref.config
    names = ("time_control", "main_time", "period_time", "periods", "stones_per_period")
    old = [getattr(config, k) for k in names]
    config.time_control = system
    config.main_time = vals[0] if vals else 0
    config.period_time = vals[1] if len(vals) > 1 else 0
    config.periods = vals[2] if system == "byoyomi" else 0
    config.stones_per_period = vals[2] if system == "canadian" else 0
    try:
        config.validate()
    except ValueError:
        for k, v in zip(names, old):
            setattr(config, k, v)
        raise
    ref.set_clock()
    ref.dirty = True


def gtp_time_left(ref, colour, secs, count):
    """`time_left colour time stones`: the controller's clock for colour
    (count 0: main time; else the period's time and the periods/stones
    left).  Without a time control there is nothing to set."""
    clock = ref.clock
    if clock is None:
        return
    if secs < 0 or count < 0 or secs > 65000 or count > 255:
        raise ValueError("time_left out of range")
    clock.tick(ref.now)
    clock.set_left(colour, secs * 1000, count)
    ref.dirty = True


def gtp_clock(ref):
    """gogadget-clock: `SYSTEM MAIN_S PERIOD_S N RUNNING PAUSED FLAGGED B_MS B_N
    W_MS W_N`, or `none`.  PERIOD_S is fischer's increment; N the periods
    (byoyomi) or stones (canadian); RUNNING and FLAGGED are B, W or -;
    B_N, W_N the periods/stones left (0 in main time)."""
    clock = ref.clock
    if clock is None:
        return "none"
    return "%s %d %d %d %s %d %s %d %d %d %d" % (
        SYSTEMS[clock.system], clock.main_ms // 1000,
        (clock.period_ms or clock.inc_ms) // 1000, clock.periods,
        "-BW"[clock.running], 1 if clock.paused else 0, "-BW"[clock.flagged],
        clock.left(1), clock.overtime(1), clock.left(2), clock.overtime(2))
