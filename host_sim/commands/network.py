"""The commands through a network: the room's publish and remote, OGS's online."""
import sys

from host_sim.sim import session
from host_sim.commands.link import Connection


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
