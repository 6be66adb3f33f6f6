"""The board's clock between the host, the board and a GTP engine
(docs/CLOCK.md, GTP and engines): `--time`'s words, the board told its
time control over GTP, and the engine told the board's time control and,
before each genmove, its time left, as GTP v2 and KGS define them.

GTP v2 (draft 2, 6.2.5): `time_settings M T S` is Canadian byo-yomi (T 0:
absolute time; T above 0 with S 0: no limit); `time_left COLOUR SECONDS
STONES`, STONES 0 while in main time, otherwise the stones left to play in
the current period and SECONDS the period's time left.  KGS (kgsGtp's
documentation): `kgs-time_settings none | absolute M | byoyomi M T N |
canadian M T S`, sent instead of time_settings to an engine that knows
it; under byoyomi, time_left's last number is the periods left.  An
engine without kgs-time_settings (GNU Go 3.8) gets byo-yomi as Canadian
with one stone a period, as kgsGtp does: then time_left says 1 stone.
"""
from gogadget.points import BLACK
from host_sim.base.serialport import GtpError

# --time's fields after the time control's name, as config settings.
TIME_FIELDS = {"none": (), "absolute": ("main_time",),
               "fischer": ("main_time", "time_increment", "max_time"),
               "byoyomi": ("main_time", "period_time", "periods"),
               "canadian": ("main_time", "period_time", "stones_per_period")}
TIME_HELP = ("the board's game clock (docs/CLOCK.md), seconds: absolute:MAIN, "
             "fischer:MAIN:INCREMENT[:MAX], byoyomi:MAIN:PERIOD:PERIODS, "
             "canadian:MAIN:PERIOD:STONES (e.g. byoyomi:600:30:5)")

KGS = "kgs-time_settings"
V2 = "time_settings"


def time_settings(spec):
    """--time's CONTROL:N:N... -> config settings (ValueError when wrong)."""
    words = spec.split(":")
    fields = TIME_FIELDS.get(words[0])
    if fields is None:
        raise ValueError("--time: the time control is one of " + ", ".join(TIME_FIELDS))
    optional = 1 if words[0] == "fischer" else 0
    if not len(fields) - optional <= len(words) - 1 <= len(fields):
        raise ValueError("--time %s takes %s" % (words[0], ":".join(f.upper() for f in fields)))
    try:
        values = [int(w) for w in words[1:]]
    except ValueError:
        raise ValueError("--time: whole seconds and counts, not " + spec)
    return dict(zip(fields, values), time_control=words[0])


def board_command(timing):
    """The GTP line that gives a board --time's settings (time_settings()),
    or None for fischer, which GTP cannot say (the board's config can)."""
    system = timing["time_control"]
    if system == "fischer":
        return None
    values = [timing.get(f, 0) for f in TIME_FIELDS[system]]
    return " ".join([KGS, system] + [str(v) for v in values])


def set_board(board, timing):
    """Give the board --time's settings for the game it starts (its clocks
    full).  Fischer, which GTP cannot set, must be the board's own
    already (its config, or the simulator's --time): GtpError otherwise."""
    line = board_command(timing)
    if line is not None:
        board.send(line)
        return
    words = board.send("gogadget-clock").split()
    want = ["fischer", str(timing["main_time"]), str(timing["time_increment"])]
    if words[:3] != want:
        raise GtpError("--time fischer: GTP has no words for fischer, so the board's own "
                       "config must have it (time_control, main_time, time_increment), or "
                       "use --sim, whose board takes it; the board has: %s"
                       % (" ".join(words[:3]) or "no clock"))


def tell_settings(eng, clock):
    """The board's time control (session.board_clock) to the engine:
    kgs-time_settings, or GTP v2's time_settings for an engine that
    refuses it (byo-yomi as Canadian with one stone a period; fischer as
    absolute time, told again by every time_left).  Returns the command
    the engine took (KGS or V2), or "" when it took neither."""
    system, main, period, n = clock["system"], clock["main"], clock["period"], clock["n"]
    if system in ("byoyomi", "canadian"):
        kgs = "%s %s %d %d %d" % (KGS, system, main, period, n)
        v2 = "%s %d %d %d" % (V2, main, period, n if system == "canadian" else 1)
    else:
        kgs = "%s absolute %d" % (KGS, main)
        v2 = "%s %d 0 0" % (V2, main)
    for told, command in ((KGS, kgs), (V2, v2)):
        try:
            eng.send(command)
            return told
        except GtpError:
            pass
    return ""


def time_left_line(clock, colour, told=KGS):
    """`time_left COLOUR SECONDS STONES` for the engine's colour from the
    board's clock, as the engine was told the time control (told:
    tell_settings()'s answer).  Seconds are whole, rounded down (the
    engine keeps a margin), but never to 0 while time remains: 0 says the
    time is gone."""
    ms, n = clock["B" if colour == BLACK else "W"]
    secs = ms // 1000 if ms >= 1000 or ms <= 0 else 1
    if n and clock["system"] == "byoyomi" and told != KGS:
        n = 1  # told as Canadian with one stone a period
    return "time_left %s %d %d" % ("b" if colour == BLACK else "w", secs, n)
