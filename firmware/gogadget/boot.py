"""The board's start: the config from flash (defaults if missing or
damaged), the sensor calibration, the drivers, the sensor self-test
(faults named over USB and on the LEDs), the room's publisher, the App
resumed from its journal.  Run once by the scan loop (loop.py), which lets
this module go afterwards (compat.forget): on the official firmware its
bytecode would otherwise stay on the heap for the whole game.

Hold CONFIRM while powering up to skip the loop (maintenance: mpremote and
`make deploy` can then reach the REPL, which the GTP link otherwise keeps).

With a broker in the config (and Wi-Fi on a Pico W) the board publishes
its game to the tournament room over MQTT (docs/ROOM.md): the passwords
come from secrets.json, beside config.json.
"""
import time

from gogadget.compat import const, forget
from gogadget.hw.buttons import CONFIRM, CalibrateButton

_WATCHDOG_MS = const(4000)  # longest cycle the board survives: a game save is ~100 ms
# (boot's own names are interned for good though boot is let go: the
# jobs done once are in start() itself, its strings longer than 10 characters.)


def make_broadcast(config):
    """The room publisher when the config names a broker, else None (and
    None, said on the console, when the room's modules or the Wi-Fi are missing)."""
    if not config.broker:
        return None
    try:
        from gogadget.broadcast import Broadcaster
        from gogadget.hw import net
        factory = net.mqtt_factory(config)
    except ImportError as exc:
        print("gogadget: not publishing, %s: the firmware's files are incomplete "
              "(make deploy, or make image)" % exc)
        return None
    ready = None
    if config.wifi_ssid:
        try:
            wifi = net.Wifi(config.wifi_ssid, config.wifi_password, config.board_id).start()
        except (ImportError, OSError) as exc:
            print("gogadget: not publishing, no Wi-Fi: %s" % exc)
            return None
        ready = wifi.ready
        print("gogadget: joining Wi-Fi " + config.wifi_ssid)
    print("gogadget: publishing as %s to %s:%d" % (config.board_id, config.broker,
                                                  config.broker_port))
    peer = None
    if config.opponent:
        # Two boards, one game: the opponent's moves come on the same connection.
        from gogadget.pairing import Follower
        peer = Follower(config.board_id, config.opponent, 1 if config.pair_colour == "B" else 2,
                        config.pair)
        print("gogadget: playing %s of %s against %s" % (config.pair_colour, config.pair,
                                                         config.opponent))
    return Broadcaster(factory, config.board_id, ready=ready, peer=peer)


def learn_names(config):
    """Every name the board will need, interned first, while the heap is in
    one piece.  The VM interns every name and string constant of a module
    as it loads it and never frees one; its table of names grows by
    doubling, one block each time (past ~1,260 names, 7.7 KB).  On the
    emulated Pico W with the room, the save's sgf.py crossed that line at a
    game's end, when the largest free block was 1,568 bytes of 43,600
    free, and the game could not be kept; a host's first word (the GTP
    link's names) could cross it in the middle of a game.  So the modules a
    game's end loads are loaded here once and let go (none is interned
    later: tests/test_save_heap.py), then the App's and the room's, which
    stay.  With the room the board is past that line (the emulated Pico W:
    1,441 names with the host's, the table grown before the App was built,
    2.5 KB the largest free block after it): the host's names are learnt
    too, so that the table grows here.  Without it (the Pico: ~1,100
    names) they are not, so that it need not grow at all."""
    import gc
    import sys
    for _ in "0123456789.+BWRT?":
        pass  # (a one-character string is a name: the result's, drawn by font)
    # What a game's end loads (the count, its score, the result's text, the
    # save, a new game's position; the clock's words for a game on the
    # clock), what a game loads now and then (a take-back, a sensor's fault,
    # the calibration's drift written back); with the room, what a host's
    # first word loads (the GTP link; linkops and guide for its rare
    # commands) and the room's start of a connection (each connection's
    # and each game's start); a paired board's pairing
    # and what it does seldom (pairops: the start, the opponent's snapshot,
    # the end taken from there), pairing loaded again with the room's.
    late = ("counting", "score", "font", "sgf", "position", "ending", "gameops", "takeback",
            "viewplain", "hw.calibfile") + (
        ("clockio",) if config.time_control != "none" else ()) + (
        ("link", "linkops", "guide", "gtp", "ruleopts", "roomjoin") if config.broker else ()) + (
        ("pairing", "pairops") if config.broker and config.opponent else ())
    for name in late:
        if "gogadget." + name not in sys.modules:  # (one in use stays)
            __import__("gogadget." + name)
    forget(*late)
    gc.collect()  # (their holes, for what stays)
    import gogadget.app  # noqa: F401  (held from here on)
    if config.broker:  # the room's publisher
        for name in ("mqtt", "broadcast", "hw.net"):
            __import__("gogadget." + name)


def start(stream=None, watchdog=True):
    """Everything up to the first scan cycle: (app, sensors, leds, buttons,
    guard, beat, display, wdt), or None when CONFIRM was held at power-up.
    guard is the App's buttons (hw/buttons.py's CalibrateButton)."""
    from gogadget import describe
    print("gogadget %s" % describe())
    from gogadget.hw import rp2fast
    rp2fast.install()  # viper scan, LED and rules loops on the RP2040
    # The config: the file's, else the defaults, saying why.
    from gogadget.config import SECRETS_FILE, Config
    wrong = ""  # a file refused (bad, or a newer firmware's): said on the board and over GTP
    try:
        config, how = Config.load("config.json"), "config config.json"
    except OSError:
        config, how = Config(), "no config.json: defaults"
    except ValueError as exc:
        config, how = Config(), "%s: defaults" % exc
        wrong = how  # (shown on the board too: the file is kept as it is)
    else:
        try:
            config.load_secrets(SECRETS_FILE)
        except ValueError as exc:
            how += "; %s: not publishing" % exc
            wrong = how
            config.broker = ""
    print("gogadget: %s" % how)
    learn_names(config)
    from gogadget.hw import pico
    calibration = None
    if config.sensors == "colour":
        calibration, how = pico.load_calibration(config.size)
        print("gogadget: %s" % how)
        if "newer" in how:
            wrong = (wrong + "; " if wrong else "") + how
    sensors = pico.make_sensors(config, calibration=calibration)
    leds = pico.make_leds(config)
    buttons = pico.make_buttons(config)
    beat = pico.make_heartbeat()
    display = pico.make_clock_display(config)  # None without a clock or a module
    # Started last (a watchdog started now would bite in a long self-test or
    # resume); holding the function keeps pico's code only until then.
    start_watchdog = pico.start_watchdog
    pico = rp2fast = None
    # The drivers are built and the viper loops handed out: the factories
    # and the loader leave the heap (the loops stay, held by their users).
    forget("hw.pico hw.rp2fast")
    if buttons.down_now(CONFIRM):
        print("gogadget: confirm held at power-up, not starting")
        return None
    from gogadget.hw import selftest
    beat.fault = selftest.run(sensors, config.size, leds, config.max_brightness)
    selftest = None
    # The self-test is done with, and the drivers took what they need of
    # the wiring at boot.
    forget("hw.selftest hw.pins")
    if stream is None:
        from gogadget.hw.usb import StdioStream
        stream = StdioStream()
    wdt = start_watchdog(_WATCHDOG_MS) if watchdog else None
    start_watchdog = None
    guard = CalibrateButton(buttons)
    from gogadget.app import App
    app = App(config, sensors, leds, guard, config.store, stream,
              broadcast=make_broadcast(config))
    app.boot(time.ticks_ms())
    if wrong:
        ref = app.referee
        ref.damage = (ref.damage + "; " if ref.damage else "") + wrong
        ref.alarm = True
        ref.event("error", wrong)
    return app, sensors, leds, buttons, guard, beat, display, wdt
