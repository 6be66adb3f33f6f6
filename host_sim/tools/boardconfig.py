"""`gogadget config [--port P | --sim] [show | get KEY | set KEY VALUE]`:
the board's settings, read and changed over its GTP link (gogadget-config,
firmware/gogadget/configgtp.py).  The board itself checks a change with the
firmware's own validate() against its config.json as it stands, writes
nothing when it refuses, applies at once what a game reads as it goes
(the LEDs' brightness and current, the stuck-sensor and New timeouts),
refuses a game's own settings while a game is under way, and says which.
With --sim the board is the simulator's (its store folder is the virtual
board's flash: config.json and secrets.json are written there)."""
import sys

from host_sim.base.serialport import GtpError


def add_arguments(p):
    p.add_argument("action", nargs="?", default="show", choices=("show", "get", "set"),
                   help="show every setting (the default), get KEY, or set KEY VALUE")
    p.add_argument("key", nargs="?", help="the setting (gogadget config show lists them)")
    p.add_argument("value", nargs="*", help="set: its value as JSON (100, 6.5, true, null) "
                   "or a bare word")


def gtp_line(args):
    """The gogadget-config command for the arguments; ValueError when they
    are short."""
    if args.action == "show":
        return "gogadget-config"
    if not args.key:
        raise ValueError("%s needs a KEY (gogadget config show lists them)" % args.action)
    if args.action == "get":
        return "gogadget-config " + args.key
    if not args.value:
        raise ValueError("set needs a KEY and a VALUE")
    return "gogadget-config %s %s" % (args.key, " ".join(args.value))


def cmd_config(args, connect, out=sys.stdout, err=sys.stderr):
    """connect(args) -> commands.link.Connection (send, close)."""
    try:
        line = gtp_line(args)
    except ValueError as exc:
        print("gogadget config: %s" % exc, file=err)
        return 2
    conn = connect(args)
    try:
        answer = conn.send(line)
    except GtpError as exc:
        text = str(exc)
        if "unknown command" in text:
            text = ("the board's firmware has no gogadget-config (older than this tool): "
                    "gogadget update brings it")
        print("gogadget config: %s: nothing changed" % text, file=err)
        return 1
    finally:
        conn.close()
    print(answer, file=out)
    return 0
