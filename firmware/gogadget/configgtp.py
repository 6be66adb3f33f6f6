"""gogadget-config [KEY [VALUE]]: the board's settings over GTP, for a
controller and for `gogadget config`.  Loaded for one command and let go
afterwards (link.py): settings change rarely.

A change is checked as the board would read it at its start: the file on
flash with the change, validated whole by configfile.validate (its one
place of limits); a refused change writes nothing.  Written to
config.json (a password to secrets.json) through a .tmp file renamed over
it, so a cut leaves the old file or the new one.  What the running game
reads each time (LIVE) is applied at once; a game's own settings (GAME)
are refused while a game is under way (komi and the rules change mid-game
with GTP komi and gogadget-rules, journalled); the rest are read at the
board's start."""
import json
import os

from gogadget.compat import const
from gogadget.config import SECRETS_FILE, Config
from gogadget.configfile import DEFAULTS, FORMAT, SECRETS, check_format, validate

LIVE = ("max_brightness", "budget_ma", "stuck_ms", "confirm_ms")
GAME = ("size", "preset", "komi", "handicap", "time_control", "main_time", "period_time",
        "periods", "stones_per_period", "time_increment", "max_time", "play_on_time_out")
_BRIGHTNESS = const(3)  # referee's _state slot of the LED cap (its _BRIGHTNESS)


def paths(config):
    """(config.json, secrets.json) of the board: the flash's root; the
    simulator's store folder when it names one (config.file)."""
    path = getattr(config, "file", "config.json")
    return path, path[:-11] + SECRETS_FILE


def shown(name, value):
    if name in SECRETS:
        return "(set)" if value else "(not set)"  # a password never leaves the board
    return json.dumps(value)


def read(path):
    """The file's settings (a missing file: none); ValueError when it does
    not parse or is a newer firmware's: then nothing may write over it."""
    try:
        f = open(path)
    except OSError:
        return {}
    try:
        data = json.load(f)
    except ValueError:
        raise ValueError("%s is not valid JSON: not changed (gogadget config --port P show, "
                         "then set each setting)" % path)
    finally:
        f.close()
    if not isinstance(data, dict):
        raise ValueError("%s must hold a JSON object: not changed" % path)
    check_format(data, path)
    return data


def write(path, data):
    data["format"] = FORMAT
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps(data))
    try:
        os.rename(path + ".tmp", path)
    except OSError:  # a flash file system that will not rename over a file
        os.remove(path)
        os.rename(path + ".tmp", path)


def told(config, name):
    """The setting as the board runs it, and as saved when that differs
    (read at the next start)."""
    running = getattr(config, name)
    cpath, spath = paths(config)
    try:
        saved = read(spath if name in SECRETS else cpath).get(name, running)
    except ValueError:
        saved = running
    if saved == running:
        return shown(name, running)
    return "%s (saved %s: from the next start)" % (shown(name, running), shown(name, saved))


def under_way(ref):
    return ref.phase in ("play", "resume", "setup") and (ref.board.moves or ref.setups)


def command(ref, args):
    """The answer to gogadget-config args; ValueError with the reason."""
    config = ref.config
    if not args:
        return "\n".join(n + " " + told(config, n) for n, _ in DEFAULTS)
    name = args[0]
    if not any(name == n for n, _ in DEFAULTS):
        raise ValueError("unknown setting %s (gogadget-config lists them)" % name)
    if len(args) == 1:
        return told(config, name)
    text = " ".join(args[1:])
    try:
        value = json.loads(text)  # 100, 6.5, true, null, "a b"
    except ValueError:
        value = text  # a bare word: a string
    if name in GAME and under_way(ref):
        raise ValueError("%s cannot change mid-game: finish the game or start a new one "
                         "first (komi and the rules change with GTP komi and gogadget-rules)"
                         % name)
    cpath, spath = paths(config)
    data = read(cpath)
    secrets = read(spath)
    (secrets if name in SECRETS else data)[name] = value
    trial = Config(**{k: data[k] for k in data if k != "format"})
    for k in secrets:
        if k != "format":
            setattr(trial, k, secrets[k])
    validate(trial)
    write(spath if name in SECRETS else cpath, secrets if name in SECRETS else data)
    if name in LIVE:
        setattr(config, name, value)
        from gogadget import signals
        ref._state[_BRIGHTNESS] = signals.brightness_cap(len(ref.frame) - 1, config.budget_ma,
                                                         config.max_brightness)
        ref.dirty = True
        return "%s %s: saved, applied now" % (name, shown(name, value))
    if name in GAME:
        return "%s %s: saved, for the next game (from the board's next start)" % (
            name, shown(name, value))
    return "%s %s: saved, read at the board's next start (reset it)" % (name, shown(name, value))


def maintenance(ref, args):
    """gogadget-maintenance: the board restarts in a moment without its
    game, its REPL free for mpremote (main.py reads the file "maint"
    once); the game under way is in its journal and goes on at the next
    start."""
    with open("maint", "w") as f:
        f.write("1")
    from gogadget.hw import restart
    if not restart.soon(500):  # (after the answer has gone out)
        return "maint written: restart the board"
    return "restarting for maintenance"
