"""The configuration's file and limits: every default of the application
in one place, config.json and secrets.json read and written, and
validate(), the single place that knows the limits.

config.py's Config is what the running game holds; it loads this module
for each of these jobs (building a Config, validate, load, load_secrets,
save, as_dict) and lets it go afterwards (compat.forget), so that on the
official firmware its bytecode is on the heap only while the config is
read or changed: at boot, a GTP command that changes a setting (the time
control), the host's gogadget-setup.
"""
import json

from gogadget.compat import const, forget
from gogadget.points import check_size, max_handicap
from gogadget.rules import PRESETS, DEFAULT_PRESET
from gogadget.scan import SENSOR_KINDS, SENSOR_COLOUR
from gogadget.settle import MAX_SCANS, NOISE_EXTRA_MS

# A config.json from before stable_ms says stable_scans, counted at the
# scan_hz in the same file or, without one, at the 50/s the board then ran.
_LEGACY_SCAN_HZ = const(50)
# config.json's and secrets.json's format ("format" in each; a file
# without one is format 0, what the first firmwares wrote, and reads the
# same).  A newer firmware reads every older format; this one refuses a
# newer one's file (the board then runs on the defaults, says why, and
# never writes the file: nothing on the board writes config.json).
FORMAT = const(1)
MAX_TIME_S = 65000  # a clock setting's longest (18 hours: the record keeps seconds in 16 bits)

# At 100 scans/s a stone is first read within 10 ms of landing; 30 ms of
# equal readings (3 scans) then make it a move on the next scan, and the
# referee, the journal and the LED write (about 20 ms with the 11 ms
# WS2812 bitstream) light it about 60 ms after it landed (emulated: mean
# 56, worst 64 ms; make bench BENCH=rp2, the latency section).  30 ms
# rather than 60 on the randomized stress's evidence (hardware/README.md).
# A single-scan flicker is forgiven, so the debounce is never shorter than
# 2 scans.
DEFAULTS = (
    ("size", 19),
    ("sensors", SENSOR_COLOUR),
    ("preset", DEFAULT_PRESET),
    ("komi", None),  # None: the preset's komi
    ("handicap", 0),
    ("stable_ms", 30),  # a change counts once it has read the same this long (3 scans at 100/s)
    # A new stone beside a stone reading the same (which it may have been
    # slid from) counts only after this long, so that a slid stone's two
    # ends reach the referee as one change (settle.py).
    ("slide_ms", 160),
    ("scan_hz", 100),  # scans a second; one scan period is 1000 // scan_hz ms
    ("budget_ma", 2000),  # what the supply can give the LED chain
    ("volts", 5),
    ("max_brightness", 160),  # before the current budget lowers it further
    ("long_press_ms", 800),  # pass held this long is a resignation
    ("store", "games"),  # directory for the journal and finished games
    # A hand or sleeve changes many places at once: when hand_places places
    # have changes that lasted 2+ scans and began within hand_window_ms,
    # nothing is adopted until hand_settle_ms after that stops (single-scan
    # flickers never count, and while the sensors flicker a lot a few more
    # places are needed; see settle.py).
    ("hand_places", 3),
    ("hand_window_ms", 120),
    ("hand_settle_ms", 300),
    # A place that contradicts the game this long is a sensor fault, not a
    # stone (people leave a wrong stone for seconds, not half a minute).
    ("stuck_ms", 30000),
    # New pressed mid-game waits this long for Confirm before it is dropped.
    ("confirm_ms", 10000),
    # The tournament room (docs/ROOM.md): with a broker set, the board
    # publishes its game over MQTT as board_id (1-32 of a-z A-Z 0-9 - _),
    # which is also its MQTT user unless mqtt_user says otherwise.  Wi-Fi
    # (Pico W) joins wifi_ssid; without one the network is taken to
    # be up already.  The two passwords belong in secrets.json (SECRETS).
    ("board_id", ""),
    ("broker", ""),  # host name or address of the MQTT broker; "" publishes nothing
    ("broker_port", 1883),
    ("mqtt_user", ""),
    ("mqtt_password", ""),
    ("wifi_ssid", ""),
    ("wifi_password", ""),
    # Two boards, one game (docs/ROOM.md, Pairing): with an opponent set,
    # this board plays `pair_colour` ("B" or "W") of the game named `pair` against
    # the board `opponent` through the same broker; the opponent's moves
    # light up to be placed.  Kept here, the pairing survives a power cut.
    ("opponent", ""),
    ("pair", ""),
    ("pair_colour", "B"),
    # The game clock (clock.py, docs/CLOCK.md): time_control is one of
    # clock.SYSTEMS, named as OGS names its time controls; times in
    # seconds.  main_time is OGS's main_time, fischer's initial_time and
    # absolute's total_time; periods (byoyomi) and stones_per_period
    # (canadian) follow period_time; time_increment and max_time (0: no
    # cap) are fischer's.  A player out of time loses (B+T / W+T) unless
    # play_on_time_out (casual games: the flag shows, play goes on).
    ("time_control", "none"),
    ("main_time", 0),
    ("period_time", 0),
    ("periods", 0),
    ("stones_per_period", 0),
    ("time_increment", 0),
    ("max_time", 0),
    ("play_on_time_out", False),
)
# Settings kept in a file of their own (SECRETS_FILE) beside config.json, so
# that the config can be shown, copied and shared without them; save()
# leaves them out of the config file.
SECRETS = ("mqtt_password", "wifi_password")


def fill(config, values):
    """Config(**values): the defaults, then values (an old config's
    stable_scans as the stable_ms it meant)."""
    for name, default in DEFAULTS:
        setattr(config, name, default)
    for name in values:
        if name == "stable_scans" or name == "format":
            continue
        if not any(name == known for known, _ in DEFAULTS):
            raise ValueError("unknown setting " + name)
        setattr(config, name, values[name])
    if "stable_scans" in values:
        # An old config's stable_scans, as the milliseconds it meant.
        if "stable_ms" in values:
            raise ValueError("stable_scans is the old name of stable_ms: give stable_ms only")
        scans = values["stable_scans"]
        _int_range("stable_scans", scans, 2, 50)
        hz = values.get("scan_hz", _LEGACY_SCAN_HZ)
        _int_range("scan_hz", hz, 1, 1000)
        config.stable_ms = scans * (1000 // hz)


def check_format(data, path):
    """ValueError when the file's data is of a newer format than FORMAT."""
    got = data.get("format", 0)
    if not isinstance(got, int) or got < 0:
        raise ValueError("%s: format must be a whole number, not %s" % (path, got))
    if got > FORMAT:
        raise ValueError("%s is of a newer firmware (format %d, this one reads %d), kept"
                         % (path, got, FORMAT))


def as_dict(config):
    return {name: getattr(config, name) for name, _ in DEFAULTS}


def validate(config):
    """Raise ValueError naming the first bad setting; return config."""
    if not isinstance(config.size, int):
        raise ValueError("size must be a number")
    try:
        check_size(config.size)
    except ValueError:
        raise ValueError("size must be 2..19, not %s" % config.size)
    if config.sensors not in SENSOR_KINDS:
        raise ValueError("sensors must be one of " + ", ".join(SENSOR_KINDS))
    if config.preset not in PRESETS:
        raise ValueError("preset must be one of " + ", ".join(sorted(PRESETS)))
    if config.komi is not None:
        if not isinstance(config.komi, (int, float)) or config.komi * 2 != int(config.komi * 2):
            raise ValueError("komi must be a multiple of 0.5, not %s" % (config.komi,))
        if not -1000 <= config.komi <= 1000:
            raise ValueError("komi out of range")
    if not isinstance(config.handicap, int) or config.handicap < 0 or config.handicap == 1 \
            or config.handicap > max(max_handicap(config.size), 0) and config.handicap:
        raise ValueError("handicap must be 0 or 2..%d on %dx%d"
                         % (max_handicap(config.size), config.size, config.size))
    _int_range("stable_ms", config.stable_ms, 10, 1000)
    _int_range("slide_ms", config.slide_ms, 0, 2000)
    _int_range("scan_hz", config.scan_hz, 1, 1000)
    _int_range("budget_ma", config.budget_ma, 100, 100000)
    _int_range("volts", config.volts, 3, 24)
    _int_range("max_brightness", config.max_brightness, 1, 255)
    _int_range("long_press_ms", config.long_press_ms, 100, 10000)
    _int_range("hand_places", config.hand_places, 2, 361)
    _int_range("hand_settle_ms", config.hand_settle_ms, 0, 10000)
    _int_range("hand_window_ms", config.hand_window_ms, 0, 5000)
    # The settler counts these in scans, in bytes.
    for name in ("stable_ms", "slide_ms", "hand_window_ms"):
        if config.scans(getattr(config, name)) + config.scans(NOISE_EXTRA_MS) > MAX_SCANS:
            raise ValueError("%s is more than %d scans at scan_hz %d: lower one of them"
                             % (name, MAX_SCANS, config.scan_hz))
    _int_range("stuck_ms", config.stuck_ms, 1000, 3600000)
    _int_range("confirm_ms", config.confirm_ms, 1000, 600000)
    if not isinstance(config.store, str) or not config.store:
        raise ValueError("store must be a directory name")
    for name in ("board_id", "broker", "mqtt_user", "mqtt_password", "wifi_ssid",
                 "wifi_password", "opponent", "pair", "pair_colour"):
        if not isinstance(getattr(config, name), str):
            raise ValueError("%s must be a string" % name)
    if config.broker:
        # (only then: roomnames is loaded for nothing otherwise)
        if not config.board_id:
            raise ValueError("a broker needs a board_id")
        if not valid_board_id(config.board_id):
            raise ValueError("board_id must be 1-32 of a-z A-Z 0-9 - _, not %s"
                             % config.board_id)
    _int_range("broker_port", config.broker_port, 1, 65535)
    if config.opponent:
        if not config.broker:
            raise ValueError("an opponent needs a broker")
        if not valid_board_id(config.opponent) or config.opponent == config.board_id:
            raise ValueError("opponent must be another board's id, not %s" % config.opponent)
        if not valid_board_id(config.pair):
            raise ValueError("pair must name the game (1-32 of a-z A-Z 0-9 - _)")
        if config.pair_colour not in ("B", "W"):
            raise ValueError("pair_colour must be B or W, not %s" % config.pair_colour)
    # The clock.  The names are clock.SYSTEMS (not imported: the clock module is
    # loaded only when a time control is set).
    # (One string split: a short name would be interned for good.)
    systems = "none absolute fischer byoyomi canadian".split()
    if config.time_control not in systems:
        raise ValueError("time_control must be one of " + ", ".join(systems))
    # Every time in ms stays far below 2**30 (clock.py's ints).
    for name in ("main_time", "period_time", "max_time"):
        _int_range(name, getattr(config, name), 0, MAX_TIME_S)
    _int_range("time_increment", config.time_increment, 0, 3600)
    # Journalled in a byte (clock.record).
    _int_range("periods", config.periods, 0, 255)
    _int_range("stones_per_period", config.stones_per_period, 0, 255)
    if not isinstance(config.play_on_time_out, bool):
        raise ValueError("play_on_time_out must be true or false")
    tc = systems.index(config.time_control)
    if tc in (1, 2) and config.main_time <= 0:  # absolute, fischer
        raise ValueError("%s needs a main_time" % systems[tc])
    if tc == 3 and (config.periods <= 0 or config.period_time <= 0):
        raise ValueError("byoyomi needs periods and a period_time")
    if tc == 4 and (config.stones_per_period <= 0 or config.period_time <= 0):
        raise ValueError("canadian needs stones_per_period and a period_time")
    return config


def load(cls, path):
    """Read a JSON file; missing keys keep their defaults."""
    with open(path) as f:
        try:
            data = json.load(f)  # parsed from the file: its text is never one block
        except ValueError:
            raise ValueError("config %s is not valid JSON" % path)
    if not isinstance(data, dict):
        raise ValueError("config %s must hold a JSON object" % path)
    check_format(data, path)
    return validate(cls(**data))


def load_secrets(config, path):
    """Read the SECRETS from their own JSON file (missing: unchanged);
    any other key there is an error.  Returns config, validated."""
    try:
        f = open(path)
    except OSError:
        return validate(config)
    try:
        data = json.load(f)
    except ValueError:
        raise ValueError("%s is not valid JSON" % path)
    finally:
        f.close()
    if not isinstance(data, dict):
        raise ValueError("%s must hold a JSON object" % path)
    check_format(data, path)
    for name in data:
        if name == "format":
            continue
        if name not in SECRETS:
            raise ValueError("%s may hold only %s, not %s" % (path, ", ".join(SECRETS), name))
        setattr(config, name, data[name])
    return validate(config)


def save(config, path):
    """Write the config file; the SECRETS stay out of it."""
    validate(config)
    data = as_dict(config)
    for name in SECRETS:
        del data[name]
    data["format"] = FORMAT
    with open(path, "w") as f:
        f.write(json.dumps(data))


def valid_board_id(name):
    """roomnames.valid_board_id, its module loaded for the check and let go."""
    from gogadget import roomnames
    try:
        return roomnames.valid_board_id(name)
    finally:
        roomnames = None
        forget("roomnames")


def _int_range(name, value, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError("%s must be a whole number %d..%d, not %s" % (name, lo, hi, value))
