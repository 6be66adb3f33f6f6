"""`gogadget`: host tools for the board on a USB serial port (or --sim).

  gogadget play  --engine CMD    you, at the board, against a GTP engine
  gogadget gtp                   the board as a GTP engine on stdin/stdout
                                 (attach it to Sabaki, GoGui, Quarry, gomill ...)
  gogadget pull  [--dest DIR]    download the games stored on the board
  gogadget watch                 mirror the board live in the terminal
  gogadget publish --broker URL --board-id NAME
                                 the board's game to a tournament room's broker
  gogadget remote --broker URL --board-id NAME --game ID --opponent NAME --colour B|W
                                 play a board elsewhere through the room's broker
  gogadget relay --broker URL    a tournament room's live web page and archive
  gogadget online [--game ID]    you, at the board, in your own game on online-go.com
  gogadget version               the board's firmware version and build (and the host's)
  gogadget image --firmware UF2  the one file to drag onto the board: the official
                                 MicroPython UF2 with this firmware on its flash

Every command but relay, image and room (which need no board) takes --sim
instead of --port: the simulator's virtual board.  With --sim you are the person at
it: the simulator's window when there is a display, the terminal mode
otherwise (--tui).  `watch`, `pull`, `gtp`, `version`, `play`, `publish`
and `remote` with --sim reach a simulator already running (`make sim`,
`gogadget play --sim`) on --sim-store's folder (without --sim-store, the
one running); without one, `publish --sim` and `remote --sim` open a
simulator of their own on that folder, with you at it.  One folder is one
simulator's: two boards on one machine are two folders.  --auto puts a
scripted person at the virtual board instead of you (host_sim/sim/simboard.py).
"""
import argparse
import errno
import os
import sys
import time

from gogadget.gtp import _clean
from gogadget.points import BLACK, parse_colour
from host_sim import data_dir
from host_sim.base import enginetime
from host_sim.base.serialport import (DEFAULT_PORT, GtpClient, GtpError, LinkClosed,
                                      SerialTransport, engine)
from host_sim.faces import launch
from host_sim.room import publish as room_publish
from host_sim.room import relay as room_relay
from host_sim.sim import session

LIVE_WAIT_S = 10  # a running simulator answers between its scans


def _add_board_options(p, person=True):
    p.add_argument("--port", default=None, help="serial port of the board (default %s)" % DEFAULT_PORT)
    p.add_argument("--sim", action="store_true",
                   help="use the simulator's virtual board instead of a port")
    p.add_argument("--sim-size", type=int, default=9,
                   help="--sim: size the virtual board starts with (default 9)")
    p.add_argument("--sim-store", default=None,
                   help="--sim: the virtual board's game folder, kept between runs as a board's "
                        "flash is (default %s); the simulator running on it, if any, and "
                        "never one on another folder" % session.default_store())
    if person:
        p.add_argument("--tui", action="store_true",
                       help="--sim: you play in the terminal even with a display")
        p.add_argument("--auto", action="store_true",
                       help="--sim: a scripted person plays at the virtual board instead of you")
        p.add_argument("--person", default="random",
                       help="--sim --auto: how the scripted person chooses moves: random or "
                            "engine:COMMAND")
        p.add_argument("--seed", type=int, default=0, help="--sim --auto: seed of the scripted person")
        p.add_argument("--state-file", default=None,
                       help="--sim window: keep a JSON picture of the board here (for tests)")


def _add_own_sim_options(p):
    """publish and remote: --sim with no simulator running opens one."""
    p.add_argument("--tui", action="store_true",
                   help="--sim with no simulator running on the folder: you are at the one it "
                        "opens in the terminal even with a display")


def _store(args):
    return args.sim_store or session.default_store()


def no_board(port, exc):
    """What to do when the board's port will not open (pyserial's own text
    repeats the port and names no next step)."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOENT:
        return ("no board found on %s: plug it in (or name its port with --port), "
                "or use --sim for the simulator" % port)
    why = os.strerror(code) if isinstance(code, int) else str(exc)
    hint = " (add yourself to the dialout group)" if code == errno.EACCES else ""
    return "cannot open %s: %s%s; or use --sim for the simulator" % (port, why, hint)


class Connection:
    """A GtpClient on the board: a serial port, a running simulator's live
    port, or (--sim without one) a virtual board of our own behind a pty."""

    def __init__(self, args, colour=None, size=None, use_live=True, running=None, timing=None):
        """running: the game folder of the running simulator to reach (and
        no other): the room's commands pin the one they found; timing: a
        virtual board of our own's time control (enginetime.time_settings)."""
        self.sim = None
        self._lock = None
        self.note = ""
        self.timeout = None  # seconds to wait for an answer (None: a board always answers)
        port = args.port or DEFAULT_PORT
        check = None
        if args.sim:
            live = None
            if running is not None:
                live = session.live_port(running)
                if live is None:
                    raise LinkClosed("the simulator on %s is not running" % running)
            elif use_live and not getattr(args, "auto", False):
                live = session.live_port(args.sim_store)
            if live:
                port = live
                self.note = "the running simulator"
                self.timeout = LIVE_WAIT_S
            else:
                from host_sim.sim.simboard import SimBoard, policy_from
                store = _store(args)
                self._lock = session.claim_store(store, "gogadget %s" % args.command)
                try:
                    self.sim = SimBoard(size=size or args.sim_size, colour=colour,
                                        policy=policy_from(getattr(args, "person", "random"),
                                                           getattr(args, "seed", 0)),
                                        seed=getattr(args, "seed", 0), store_dir=store,
                                        timing=timing).start()
                except BaseException:
                    session.release(self._lock)
                    raise
                port = self.sim.port
                check = self.sim.check
                self.note = "a virtual board on " + store
        try:
            transport = SerialTransport(port, check=check)
        except OSError as exc:  # pyserial's SerialException is one
            if args.sim:
                self._close_sim()
                raise
            raise LinkClosed(no_board(port, exc))
        self.board = GtpClient(transport)

    def send(self, command):
        """A query that the board answers at once (not genmove)."""
        try:
            return self.board.send(command, self.timeout)
        except TimeoutError:
            raise TimeoutError("%s did not answer %s in %d s (is it busy, or stopped?)"
                               % (self.note, command.split()[0], self.timeout))

    def close(self):
        try:
            self.board.transport.close()
        finally:
            self._close_sim()

    def _close_sim(self):
        if self.sim is not None:
            self.sim.close()
        session.release(self._lock)
        self._lock = None


def _relay_gtp(transport, stdin, out):
    """Relay GTP line by line: a controller's line to the board, the board's
    response back; genmove simply waits for the person's move."""
    while True:
        line = stdin.readline()
        if not line:
            break
        # Blank and comment lines get no response from an engine.
        if not _clean(line):
            continue
        transport.write(line.rstrip(b"\r\n") + b"\n")
        lines = []
        while True:
            got = transport.read_line(None)
            text = got.decode("utf-8", "replace").replace("\r", "")
            if not lines and not text.strip():
                continue
            if not text.strip():
                break
            lines.append(text)
        out.write("\n".join(lines) + "\n\n")
        out.flush()
        words = _clean(line).split()
        if words and words[0].isdigit():
            words.pop(0)
        if words and words[0] == "quit":
            break


def cmd_gtp(args):
    if args.sim and not args.auto and session.live_port(args.sim_store) is None:
        # You at a virtual board of our own: the window or the terminal.
        choices = session.choices_from(size=args.sim_size)
        return launch.run(choices, tui=args.tui, gtp=(sys.stdin.buffer, sys.stdout),
                          store_dir=_store(args), state_file=args.state_file,
                          what="gogadget gtp --sim")
    conn = Connection(args)
    if conn.note:
        print("gogadget gtp: using %s" % conn.note, file=sys.stderr)
    try:
        _relay_gtp(conn.board.transport, sys.stdin.buffer, sys.stdout)
    except (LinkClosed, BrokenPipeError):
        return 1
    finally:
        conn.close()
    return 0


def _engine_name(eng, command):
    try:
        return eng.send("name") or command.split()[0]
    except GtpError:
        return command.split()[0].rsplit("/", 1)[-1]


def cmd_play(args):
    """You (or, with --sim --auto, a scripted person) at the board play
    --colour against a GTP engine."""
    try:
        session.check_engine(args.engine)
    except ValueError as exc:
        print("gogadget play: %s" % exc, file=sys.stderr)
        return 2
    try:
        timing = enginetime.time_settings(args.time) if args.time else {}
        if args.sim and not args.auto:
            choices = dict(session.choices_from(size=args.size, preset=args.rules,
                                                komi=args.komi, handicap=args.handicap), **timing)
            if timing:
                from host_sim.sim.virtual import make_config
                make_config(**choices)  # (a bad time is said here, not in the window)
    except ValueError as exc:
        print("gogadget play: %s" % exc, file=sys.stderr)
        return 2
    person = parse_colour(args.colour)
    if args.sim and not args.auto:
        running = session.live_sim(args.sim_store)
        if running is not None:
            # You at the simulator already running there, as the other
            # commands reach it (and no second command drives it).
            claim = session.claim_running(running, "gogadget play")
            if not args.quiet:
                _say("playing at the simulator running on %s" % running["store"])
            try:
                return _play(args, Connection(args, running=running["store"]), person, timing)
            finally:
                session.release(claim)
        versus = {"command": args.engine, "colour": person,
                  "max_moves": args.max_moves, "out": args.out, "new": args.new,
                  "player": args.player}
        return launch.run(choices, tui=args.tui, versus=versus, store_dir=_store(args),
                          state_file=args.state_file, what="gogadget play --sim")
    return _play(args, Connection(args, colour=person, size=args.size, use_live=False,
                                  timing=timing), person, timing)


def _play(args, conn, person, timing):
    """The game relayed between the board on conn and the engine."""
    eng = engine(args.engine)
    try:
        name = _engine_name(eng, args.engine)
        if args.rules:
            conn.board.send("gogadget-new rules=%s" % args.rules)
        outcome = session.play_game(conn.board, eng, person, args.size, args.komi, args.handicap,
                                    args.max_moves, None if args.quiet else _say,
                                    resume=not args.new, where=conn.note, timing=timing)
        record = session.with_result(conn.board.send("gogadget-sgf"), outcome.result)
        black, white = (args.player, name) if person == BLACK else (name, args.player)
        record = session.with_players(record, black, white)
        if args.out:
            with open(args.out, "w") as f:
                f.write(record + "\n")
        if outcome.result:
            text = "result " + session.result_words(outcome.result)
        else:
            text = "stopped"
        # The record's count: a resumed game's first moves are in it too.
        total = session.record_moves(record)
        earlier = total - len(outcome.moves)
        print("%s, %s%s%s" % (text, session.plural(total, "move"),
                              " (%d of them resumed)" % earlier if earlier > 0 else "",
                              ", saved " + args.out if args.out else ""), flush=True)
        if outcome.engine_says:
            print("%s's opinion: %s" % (name, outcome.engine_says), flush=True)
            random_person = args.auto and getattr(args, "person", "random") in (None, "", "random")
            print(session.opinion_note(name, random_person), flush=True)
    except GtpError as e:
        print("gogadget play: %s" % e, file=sys.stderr)
        return 1
    finally:
        eng.close()
        conn.close()
    return 0


def _say(text):
    print(text, flush=True)


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


def _board_link(args, running=None):
    """open_link() for the room's host commands (publish, remote): a new link
    to the board each time it is called; running: the game folder of the
    running simulator it drives (only that one, ever)."""
    from host_sim.room import publish

    def open_link():
        conn = Connection(args, running=running)
        conn.timeout = publish.ANSWER_S
        return conn
    return open_link


def _room_command(args, command, run_command):
    """publish or remote on the board: a port; with --sim, the simulator
    running on --sim-store's folder (any one running without --sim-store),
    taken for this command alone; with none running there, a simulator of
    its own with you at it (host_sim/room/atsim.py)."""
    if not args.sim:
        return run_command(args, _board_link(args))
    running = session.live_sim(args.sim_store)
    if running is None:
        from host_sim.room import atsim
        return atsim.run(args, command, run_command)
    claim = session.claim_running(running, "gogadget %s as %s" % (command, args.board_id))
    try:
        return run_command(args, _board_link(args, running["store"]))
    finally:
        session.release(claim)


def cmd_publish(args):
    """The board's game to the room's broker, through this host (a plain
    Pico has no Wi-Fi): host_sim/room/publish.py."""
    from host_sim.room import publish
    return _room_command(args, "publish", publish.cmd_publish)


def cmd_online(args):
    """You at the board in your own OGS game (host_sim/ogs/)."""
    from host_sim.ogs import command
    problem = command.fair_play(args, lambda: session.live_port(args.sim_store))
    if problem:
        print("gogadget online: %s" % problem, file=sys.stderr)
        return 2

    def connection():
        conn = Connection(args, use_live=not args.auto)
        if conn.sim is not None:
            conn.sim.person.asked = False  # no genmove holds the link online
        return conn

    return command.cmd_online(args, connection)


def cmd_remote(args):
    """Play a board elsewhere through the room's broker, via this host (a
    plain Pico has no Wi-Fi): host_sim/room/remote.py."""
    from host_sim.room import remote
    return _room_command(args, "remote", remote.cmd_remote)


def parser():
    p = argparse.ArgumentParser(prog="gogadget", description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    g = sub.add_parser("gtp", help="the board as a GTP engine on stdin/stdout",
                       description="The board as a GTP engine on stdin/stdout: a controller's "
                       "genmove is answered by the person's move at the board (with --sim, "
                       "you at the simulator's window or terminal).")
    _add_board_options(g)
    g.set_defaults(func=cmd_gtp)
    pl = sub.add_parser("play", help="you at the board against a GTP engine",
                        description="You at the board against a GTP engine.  With --sim you "
                        "play at the simulator's window (the terminal without a display or "
                        "with --tui); --auto lets a scripted person play instead.  The result "
                        "is the board's own count, confirmed at the board.")
    _add_board_options(pl)
    pl.add_argument("--engine", required=True, help='engine command, e.g. "/usr/games/gnugo --mode gtp --level 1" '
                    '(GNU Go, where Debian installs it)')
    pl.add_argument("--colour", "--color", default="black", choices=("black", "white", "b", "w"),
                    help="your colour (default black)")
    pl.add_argument("--size", type=int, default=19, help="board size (default 19)")
    pl.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    pl.add_argument("--handicap", type=int, default=0, help="handicap stones for Black (default 0)")
    pl.add_argument("--rules", default=None, help="the board's rules preset (default: its own)")
    pl.add_argument("--out", default=None, help="save the game record here")
    pl.add_argument("--time", default=None, metavar="CONTROL",
                    help=enginetime.TIME_HELP + "; the engine plays on the board's clock "
                    "(kgs-time_settings, or time_settings for an engine without it, and "
                    "time_left before each genmove)")
    pl.add_argument("--max-moves", type=int, default=0, help="stop after this many moves (0: no limit)")
    pl.add_argument("--quiet", action="store_true", help="do not print the moves as they are relayed")
    pl.add_argument("--new", action="store_true",
                    help="start a new game even when the board holds an unfinished one of this "
                         "size (its record is saved in %s first); without --new it is resumed"
                         % data_dir("unfinished"))
    pl.add_argument("--player", default=session.PLAYER,
                    help="your name in the record (PB/PW; default %s); the engine's is "
                         "its GTP name" % session.PLAYER)
    pl.add_argument("--gui", action="store_true", help=argparse.SUPPRESS)  # the old spelling of --sim
    pl.set_defaults(func=cmd_play)
    pu = sub.add_parser("pull", help="download the games stored on the board")
    _add_board_options(pu, person=False)
    pu.add_argument("--dest", default="games", help="folder to download into (default games)")
    pu.add_argument("--force", action="store_true", help="overwrite games already downloaded")
    pu.set_defaults(func=cmd_pull)
    from host_sim.sim import study as study_host
    study_host.add_push_parser(sub, _add_board_options, DEFAULT_PORT, _store)
    from host_sim.base import hints
    hints.add_parser(sub, _add_board_options, Connection)
    v = sub.add_parser("version", help="the board's firmware version and build",
                       description="The board's firmware version and the git commit its image "
                       "was made from ('dev' for a .mpy deploy), and the host tools' own.")
    _add_board_options(v, person=False)
    v.set_defaults(func=cmd_version)
    from host_sim.tools import uf2
    im = sub.add_parser("image", help="the one file to drag onto the board",
                        description="Write build/gogadget-BOARD-VERSION.uf2: the official "
                        "MicroPython firmware for the board (downloaded from "
                        "https://micropython.org/download/RPI_PICO/ or .../RPI_PICO_W/, or with "
                        "mpflash) with this firmware's .mpy files, main.py and a default "
                        "config.json on its flash filesystem.  Hold BOOTSEL while plugging the "
                        "Pico in and copy the file onto the RPI-RP2 drive: it replaces every "
                        "file on the board.")
    uf2.add_arguments(im)
    im.set_defaults(func=cmd_image)
    w = sub.add_parser("watch", help="mirror the board in the terminal")
    _add_board_options(w, person=False)
    w.add_argument("--interval", type=float, default=0.5, help="seconds between refreshes")
    w.add_argument("--count", type=int, default=0, help="stop after this many refreshes (0: never)")
    w.add_argument("--plain", action="store_true", help="no screen clearing (for logs)")
    w.set_defaults(func=cmd_watch)
    pb = sub.add_parser("publish", help="publish the board's game to a tournament room's broker",
                        description="Publish the board's game live to a tournament room's MQTT "
                        "broker through this host (a plain Pico has no Wi-Fi), with the "
                        "firmware's own publisher (docs/ROOM.md).  The link or the broker "
                        "lost: it reconnects and resends what the broker lacks.")
    _add_board_options(pb, person=False)
    _add_own_sim_options(pb)
    room_publish.add_arguments(pb)
    pb.set_defaults(func=cmd_publish)
    from host_sim.room import remote as room_remote
    rm = sub.add_parser("remote", help="play a board elsewhere through the room's broker",
                        description="Play one game against another board (or a simulator, or "
                        "a Pico W) through a room's MQTT broker, via this host: the opponent's "
                        "moves light up to be placed, this board's moves go out with the "
                        "firmware's own publisher (docs/ROOM.md, Pairing).  Both boards need "
                        "their room users (python -m host_sim.room.broker).  --sim drives "
                        "the simulator running on --sim-store's folder, or opens one of its own "
                        "there with you at it; two simulators on one machine are two folders.")
    _add_board_options(rm, person=False)
    _add_own_sim_options(rm)
    room_remote.add_arguments(rm)
    rm.set_defaults(func=cmd_remote)
    r = sub.add_parser("relay", help="serve a tournament room: MQTT -> web page and SGF archive",
                       description="Subscribe to every board of a room on an MQTT broker, serve "
                       "the live web page, /games.json and /game/ID.sgf, and archive each "
                       "finished game (docs/ROOM.md).")
    room_relay.add_arguments(r)
    r.set_defaults(func=room_relay.cmd_relay)
    from host_sim.tools import update as fw_update
    up = sub.add_parser("update", help="this checkout's firmware onto a running board, "
                        "keeping its games and settings",
                        description=fw_update.__doc__.split("\n\n")[0].split(":", 1)[1].strip())
    _add_board_options(up, person=False)
    fw_update.add_arguments(up)
    up.set_defaults(func=fw_update.cmd_update)
    from host_sim.room import boards as room_boards
    ro = sub.add_parser("room", help="a tournament room's boards",
                        description="A tournament room's boards (docs/ROOM.md).")
    rsub = ro.add_subparsers(dest="room_command", required=True)
    rb = rsub.add_parser("boards", help="each board's config and secrets from credentials.csv",
                         description=room_boards.__doc__.split("\n\n")[0].split(":", 1)[1].strip())
    room_boards.add_arguments(rb)
    rb.set_defaults(func=room_boards.cmd_boards)
    from host_sim.tools import boardconfig
    co = sub.add_parser("config", help="show or change the board's settings",
                        description=boardconfig.__doc__.split("\n\n")[0].split(":", 1)[1].strip())
    _add_board_options(co, person=False)
    boardconfig.add_arguments(co)
    co.set_defaults(func=lambda a: boardconfig.cmd_config(a, Connection))
    on = sub.add_parser("online", help="you at the board in your own game on online-go.com",
                        description="You at the board in your own game on online-go.com (OGS): "
                        "the opponent's moves light up to be placed, yours go out; passes, "
                        "resignation and the stone removal phase are done at the board.  Log in "
                        "with your own account (OGS_USERNAME and OGS_PASSWORD, or a credentials "
                        "file).  No engine is consulted.")
    _add_board_options(on)
    from host_sim.ogs import command as ogs_command
    ogs_command.add_arguments(on)
    on.set_defaults(func=cmd_online)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if getattr(args, "gui", False):
        args.sim = True
    try:
        return args.func(args)
    except (LinkClosed, OSError, RuntimeError, TimeoutError) as e:
        print("gogadget %s: %s" % (args.command, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
