"""The game clock over GTP (link.py): time_settings, kgs-time_settings,
time_left and gogadget-clock.  Apart from clock.py so that a running clock
does not keep these on the heap: link.py loads this module for one command
and lets it go (compat.forget)."""
from gogadget import journal as jn
from gogadget.clock import SYSTEMS
from gogadget.compat import const

_TC_RECORD = const(8)  # K_CLOCK's arg bit: the record is a time control, not a player's clock


def gtp_settings(ref, name, args):
    """`time_settings M T S` (GTP v2: Canadian; T 0: absolute; S 0 with T
    above 0, or all 0: no limit) or `kgs-time_settings none | absolute M |
    byoyomi M T N | canadian M T S` (name: the command's): the config's time
    control from now, the clocks full (the game's clocks restart).
    ValueError says what is wrong."""
    kgs = name == "kgs-time_settings"
    words = args[1:] if kgs else args
    for w in words:
        if not w.isdigit():
            raise ValueError("times and counts are whole numbers 0 or more, not " + w)
    vals = [int(w) for w in words]
    if kgs:
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
    _set(config, system, vals[0] if vals else 0, vals[1] if len(vals) > 1 else 0, 0,
         vals[2] if system == "byoyomi" else 0, vals[2] if system == "canadian" else 0)
    ref.set_clock()
    # Journalled (docs/CLOCK.md, power cuts): at once when the game's header
    # is written, and by every later game's header (GameLog.header), since
    # the config file still holds the old time control.
    ref.tc_record = settings_record(config)
    if ref.log.started and ref.journal is not None:
        ref.journal.append(ref.tc_record)
    ref.dirty = True


_NAMES = ("time_control", "main_time", "period_time", "time_increment", "periods",
          "stones_per_period")


def _set(config, *values):
    """The config's time control, all of it or (ValueError) none of it."""
    old = [getattr(config, k) for k in _NAMES]
    for k, v in zip(_NAMES, values):
        setattr(config, k, v)
    try:
        config.validate()
    except ValueError:
        for k, v in zip(_NAMES, old):
            setattr(config, k, v)
        raise


def settings_record(config):
    """The config's time control as a K_CLOCK record: arg 8 + the system,
    value main_time, b4 b5 period_time (fischer: time_increment), b6 the
    periods or stones (fischer's max_time is not carried: GTP cannot set
    fischer, and only GTP's settings are journalled)."""
    system = SYSTEMS.index(config.time_control)
    p = config.time_increment if config.time_control == "fischer" else config.period_time
    return jn.encode(jn.K_CLOCK, _TC_RECORD | system, config.main_time, p & 0xFF, p >> 8,
                     config.periods or config.stones_per_period)


def replayed(ref, i, arg, value, b4, b5, b6):
    """Record i, a K_CLOCK, read back (gamelog.replay; here, not in the
    core, as this module is loaded for the job): a player's clock
    (clockio.restore; a clock set off since is ignored), or a time control
    set over GTP: the config's time control from here on, the clocks full
    (the players' records that follow set them).  Returns what is wrong,
    or ""."""
    if not arg & _TC_RECORD:
        if ref.clock is not None:
            from gogadget.clockio import restore
            restore(ref.clock, arg, value, b4, b5, b6, ref.board)
        return ""
    if arg & 7 >= len(SYSTEMS):
        return "journal record %d is a time control of an unknown kind" % i
    config = ref.config
    system = SYSTEMS[arg & 7]
    p = b4 | b5 << 8
    fischer = system == "fischer"
    try:
        _set(config, system, value, 0 if fischer else p, p if fischer else 0,
             b6 if system == "byoyomi" else 0, b6 if system == "canadian" else 0)
    except ValueError:
        return "journal record %d is a time control out of range" % i
    ref.set_clock()
    ref.tc_record = settings_record(config)
    return ""


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
    from gogadget.clocktold import set_left
    set_left(clock, colour, secs * 1000, count)
    clock.save(ref, colour)  # (after a power cut the clock is back as told)
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
