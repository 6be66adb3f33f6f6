"""The board's own commands: pull its games, say its version, make its image, watch it."""
import os
import sys
import time

from host_sim.sim import session
from host_sim.commands.link import DEFAULT_PORT, Connection
from host_sim.base.serialport import GtpError, LinkClosed


def valid_game_name(name):
    # The board only serves NNNN.sgf; never trust a name from the wire for a path.
    return len(name) == 8 and name.endswith(".sgf") and name[:4].isdigit()


def cmd_pull(args):
    conn = Connection(args)
    try:
        names = [n for n in conn.send("gogadget-games").split() if n]
        os.makedirs(args.dest, exist_ok=True)
        got = 0
        for name in names:
            if not valid_game_name(name):
                print("skipping odd name %r" % name, file=sys.stderr)
                continue
            path = os.path.join(args.dest, name)
            if os.path.exists(path) and not args.force:
                continue
            text = conn.send("gogadget-fetch " + name)
            tmp = path + ".part"
            with open(tmp, "w") as f:
                f.write(text + "\n")
            os.replace(tmp, path)
            got += 1
        where = " (%s)" % conn.note if conn.note else ""
        print("%s on the board%s, %d downloaded to %s"
              % (session.plural(len(names), "game"), where, got, args.dest))
    except GtpError as e:
        print("gogadget pull: %s" % e, file=sys.stderr)
        return 1
    finally:
        conn.close()
    return 0


def cmd_version(args):
    """What a tournament director checks on every board before a round: the
    firmware's version and the commit its image was made from (GTP version)."""
    from gogadget import describe
    conn = Connection(args, use_live=True)
    try:
        board = conn.send("version")
        name = conn.send("name")
    except GtpError as e:
        print("gogadget version: %s" % e, file=sys.stderr)
        return 1
    finally:
        conn.close()
    where = conn.note or args.port or DEFAULT_PORT
    print("board: %s %s (%s)" % (name, board, where))
    print("host:  gogadget %s" % describe())
    return 0


def cmd_image(args):
    """The file a maker flashes (host_sim/tools/uf2.py, `make image`)."""
    from host_sim.tools import uf2
    return uf2.cmd_image(args)


def cmd_watch(args):
    conn = Connection(args)
    if conn.note and conn.sim is not None:
        print("gogadget watch: no simulator is running; showing %s" % conn.note, file=sys.stderr)
    n = 0
    try:
        while args.count <= 0 or n < args.count:
            status = conn.send("gogadget-status")
            diagram = conn.send("showboard")
            evs = conn.send("gogadget-events")
            if not args.plain:
                sys.stdout.write("\x1b[H\x1b[2J")
            sys.stdout.write(diagram.strip("\n") + "\n" + status + "\n")
            if evs:
                sys.stdout.write(evs + "\n")
            sys.stdout.flush()
            n += 1
            if args.count <= 0 or n < args.count:
                time.sleep(args.interval)
    except KeyboardInterrupt:
        pass
    except GtpError as e:
        print("gogadget watch: %s" % e, file=sys.stderr)
        return 1
    except (LinkClosed, OSError) as e:
        if args.sim and conn.sim is None:
            # The simulator we mirrored was closed: the end of the show, not a fault.
            print("gogadget watch: the simulator has quit; nothing more to watch", file=sys.stderr)
            return 0
        if not args.sim:
            print("gogadget watch: the board went away (%s): plug it in and start watch again"
                  % e, file=sys.stderr)
            return 1
        raise
    finally:
        conn.close()
    return 0
