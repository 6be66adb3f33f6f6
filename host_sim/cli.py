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
import sys

from host_sim import data_dir
from host_sim.base import enginetime
from host_sim.sim import session
from host_sim.commands.board import cmd_image, cmd_pull, cmd_version, cmd_watch
from host_sim.commands.gtp import cmd_gtp, cmd_play
from host_sim.commands.link import DEFAULT_PORT, Connection
from host_sim.commands.link import sim_store as _store  # (the parser's name for it)
from host_sim.commands.network import cmd_online, cmd_publish, cmd_remote
from host_sim.room import publish as room_publish
from host_sim.room import relay as room_relay
from host_sim.base.serialport import LinkClosed


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
