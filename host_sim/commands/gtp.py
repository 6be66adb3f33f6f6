"""`gogadget gtp` and `play`: the board as a GTP engine, and the person against an engine."""
import sys

from gogadget.gtp import _clean
from gogadget.points import BLACK, parse_colour
from host_sim.base import enginetime
from host_sim.faces import launch
from host_sim.sim import session
from host_sim.commands.link import Connection, sim_store
from host_sim.base.serialport import GtpError, LinkClosed, engine


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
                          store_dir=sim_store(args), state_file=args.state_file,
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
        return launch.run(choices, tui=args.tui, versus=versus, store_dir=sim_store(args),
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
