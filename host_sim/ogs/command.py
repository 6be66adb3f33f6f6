"""`gogadget online`: the command line around seat.Seat."""
import os
import sys
import urllib.parse

from host_sim.ogs import proto
from host_sim.ogs.boardside import SeatError, board_record
from host_sim.ogs.seat import Seat
from host_sim.ogs.wire import Account, OgsError, Socket, Trace, credentials, ws_url_for
from host_sim.base.serialport import GtpError, LinkClosed

OGS = "https://online-go.com"
BETA = "https://beta.online-go.com"  # where OGS asks developers to try things


def add_arguments(p):
    p.add_argument("--server", default=os.environ.get("OGS_SERVER", OGS),
                   help="the OGS site (default $OGS_SERVER or %s; OGS's beta server is %s)"
                   % (OGS, BETA))
    p.add_argument("--ws-url", default=os.environ.get("OGS_WS_URL"),
                   help="the real-time websocket (default: the site's host, wss://HOST/)")
    p.add_argument("--credentials", default=None,
                   help="a file with your OGS username on one line and password on the next, "
                        "readable by you only (chmod 600; default $OGS_CREDENTIALS, else "
                        "$OGS_USERNAME and $OGS_PASSWORD)")
    p.add_argument("--game", type=int, default=None,
                   help="the game to play (its number in the game's web address); default: "
                        "the game whose position is on the board")
    p.add_argument("--list", action="store_true", help="list your live and correspondence games")
    p.add_argument("--out", default=None, help="save the board's record of the game here")
    p.add_argument("--board-clock", type=float, default=0, metavar="SECONDS",
                   help="at the start of each of your turns show your time left as digits on "
                        "the board for this many seconds (default 0: only on the host)")
    p.add_argument("--trace", default=None,
                   help="append every message to and from the server to this file (JSON "
                        "lines, mode 0600, the account's tokens redacted; *.jsonl is git-ignored)")


def local(url):
    host = urllib.parse.urlsplit(url).hostname or ""
    return host in ("localhost", "::1") or host.startswith("127.")


def fair_play(args, live_port):
    """Why this command line must not run, or "": a person plays their own
    game -- no engine, and no scripted mover on a real server."""
    if args.sim and args.auto:
        if not args.person.startswith("script:") and args.person != "random":
            return "no engine plays or advises in an online game (--person %s)" % args.person
        if not local(args.server):
            return ("--auto puts a scripted mover at the board: only against a local test "
                    "server (python -m host_sim.ogs.server), never a real account's game")
    elif args.sim and live_port() is None:
        return ("--sim plays at a running simulator: start one first (make sim), "
                "or use --auto against a local test server")
    return ""


def describe(entry, user_id):
    g = entry.get("json") or {}
    players = g.get("players") or {"black": entry.get("black") or {},
                                   "white": entry.get("white") or {}}
    me = proto.colour_of({"players": players}, user_id)
    tc = (g.get("time_control") or {}).get("speed", "")
    return "%d  %s (B) vs %s (W)  %dx%d  move %d  %s%s" % (
        entry["id"], players["black"].get("username", "?"), players["white"].get("username", "?"),
        entry.get("width", 0), entry.get("height", 0), len(g.get("moves") or []),
        tc or "?", "" if me else "  (not yours)")


def matching_games(entries, board, user_id):
    """The games whose position is the board's: the same size and set-up
    stones, and the board's moves a beginning of the game's."""
    size, setup, moves = board_record(board)
    out = []
    for entry in entries:
        g = entry.get("json") or {}
        if not g or int(g.get("width", 0)) != size or not proto.colour_of(g, user_id):
            continue
        raw = proto.moves_of(g)
        cols = proto.colours(g, len(raw))
        server = [(c, proto.to_vertex(size, x, y)) for c, (x, y) in zip(cols, raw)]
        initial = proto.initial_stones(g)
        hand = 0 if initial["b"] else int(g.get("handicap") or 0)
        want_setup = sorted([(1, v) for v in proto.vertices_list(size, initial["b"])]
                            + [(2, v) for v in proto.vertices_list(size, initial["w"])]
                            + server[:hand])
        play = server[hand:]
        if sorted(setup) == want_setup and moves == play[:len(moves)]:
            out.append(entry)
    return out


def cmd_online(args, connection):
    """connection(colour) -> an object with .board (GtpClient), .sim, .close()."""
    say = lambda text: print(text, flush=True)  # noqa: E731
    try:
        user, password = credentials(path=args.credentials)
        account = Account(args.server, user, password)
    except (OgsError, OSError) as exc:
        print("gogadget online: %s" % exc, file=sys.stderr)
        return 1
    entries = [e for e in account.games()]
    mine = [e for e in entries if proto.colour_of(e.get("json") or {"players": {
        "black": e.get("black") or {}, "white": e.get("white") or {}}}, account.user_id)]
    if args.list:
        say("%d games of %s on %s:" % (len(mine), account.username, args.server))
        for e in mine:
            say("  " + describe(e, account.user_id))
        return 0
    conns = []
    colour = [0]  # the person's, once the game is known

    def open_board():
        if conns:
            try:
                conns[-1].close()
            except Exception:  # noqa: BLE001 - a board that went away
                pass
        conn = connection()
        if conn.sim is not None:
            # The scripted person waits to know its colour (-1: none yet).
            conn.sim.person.colour = colour[0] or -1
        conns.append(conn)
        return conn.board

    trace = Trace(args.trace)
    sock = Socket(args.ws_url or ws_url_for(args.server), account.jwt, trace)
    try:
        board = open_board()
        game_id = args.game
        if game_id is None:
            found = matching_games(mine, board, account.user_id)
            if len(found) != 1:
                print("gogadget online: %s; choose one with --game:" % (
                    "no game of yours matches the board" if not found else
                    "%d games match the board" % len(found)), file=sys.stderr)
                for e in (found or mine):
                    print("  " + describe(e, account.user_id), file=sys.stderr)
                return 2
            game_id = found[0]["id"]
        seat = Seat(sock, account.user_id, game_id, open_board, log=say,
                    board_clock=args.board_clock)

        def seated(mine):
            colour[0] = mine
            sim = conns[-1].sim if conns else None
            if sim is not None:
                sim.person.colour = mine
        seat.seated = seated
        result = seat.run()
        board = seat.board
        if args.out and board is not None:
            with open(args.out, "w") as f:
                f.write(board.send("gogadget-sgf") + "\n")
        say("result %s%s" % (result or "none", ", saved " + args.out if args.out else ""))
        return 0
    except (SeatError, OgsError, GtpError) as exc:
        print("gogadget online: %s" % exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        sock.close()
        for conn in conns[-1:]:
            try:
                conn.close()
            except (LinkClosed, OSError):
                pass
