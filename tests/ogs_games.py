"""Whole OGS games for the tests: a fixture of tests/ogs/games/ played by
the simulator's scripted person through `gogadget online`'s bridge against
the local OGS (host_sim/ogs/server.py), every message recorded."""
import json
import os
import threading
import time

from gogadget import sgf as sgf_mod
from gogadget.points import BLACK, WHITE, vertex
from host_sim.ogs import proto
from host_sim.ogs.seat import Seat
from host_sim.ogs.server import Game, Server
from host_sim.ogs.wire import Account, Socket, Trace
from host_sim.base.serialport import GtpClient, SerialTransport, status_words
from host_sim.sim.simboard import ScriptPolicy, SimBoard

from conftest import ROOT

GAMES = ROOT / "tests" / "ogs" / "games"
TRACES = ROOT / "tests" / "ogs" / "traces"
PERSON = {"id": 1001, "username": "person"}
OPPONENT = {"id": 2002, "username": "opponent"}
GAME_S = 60  # a whole game takes a second or two


def names():
    return sorted(p.stem for p in GAMES.glob("*.json"))


def load(name):
    with open(GAMES / (name + ".json")) as f:
        return json.load(f)


class Played:
    """What one game left behind."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def play(name, store):
    spec = load(name)
    person = BLACK if spec["person"] == "black" else WHITE
    game = Game(1, PERSON, OPPONENT, person, size=spec["size"], komi=spec["komi"],
                rules=spec["rules"], handicap=spec.get("handicap", 0), free=True,
                script=spec["opponent"], main_time=600)
    server = Server([game], username="person", password="secret", user_id=PERSON["id"])
    sims = []
    cut = spec.get("power_cut_after")

    def open_board():
        policy = ScriptPolicy(spec["person_moves"], spec.get("person_dead", []),
                              spec.get("person_handicap", []))
        # The person waits to be seated (-1: no colour yet), as at the
        # command line: no stone before the bridge has set up the game.
        sim = SimBoard(size=spec["size"], policy=policy, colour=seated_as[0],
                       store_dir=store).start()
        sim.person.asked = False
        sim.person.think_ms = spec.get("person_think_ms", 0)
        sims.append(sim)
        return GtpClient(SerialTransport(sim.port, check=sim.check))

    def power_cut():
        # The board loses power once it holds `cut` moves: its thread stops
        # where it is (the journal on its flash is all that is left).
        while not stop.is_set():
            sim = sims[-1] if sims else None
            if sim is not None and sim.app.referee.board.moves >= cut:
                with sim.lock:
                    sim.error = "power cut"
                    sim._stop.set()
                return
            time.sleep(0.005)

    seated_as = [-1]

    def seated(colour):
        assert colour == person
        seated_as[0] = colour
        if sims:
            sims[-1].person.colour = colour

    log = []
    stop = threading.Event()
    account = Account(server.url, "person", "secret")
    sock = Socket(server.ws_url, account.jwt, Trace())
    seat = Seat(sock, account.user_id, 1, open_board, log=log.append,
                reconnect_s=(0.05, 0.2, 0.5), board_clock=spec.get("board_clock", 0))
    seat.seated = seated
    outcome = {}

    def run():
        try:
            outcome["result"] = seat.run()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            outcome["error"] = exc

    threads = [threading.Thread(target=run, daemon=True)]
    if cut:
        threads.append(threading.Thread(target=power_cut, daemon=True))
    for t in threads:
        t.start()
    threads[0].join(GAME_S)
    stop.set()
    seat.stop = True
    try:
        assert not threads[0].is_alive(), "the game did not end in %d s: %s" % (GAME_S, log[-8:])
        if "error" in outcome:
            raise outcome["error"]
        record = seat.board.send("gogadget-sgf")
        status = status_words(seat.board.send("gogadget-status"))
    finally:
        sock.close()
        server.close()
        for sim in sims:
            sim.close()
    # Boot the board again on its flash: the result survives a power cut.
    again = SimBoard(size=spec["size"], store_dir=store).start()
    try:
        client = GtpClient(SerialTransport(again.port, check=again.check))
        rebooted = status_words(client.send("gogadget-status", 10))
        client.transport.close()
    finally:
        again.close()
    return Played(spec=spec, game=game, server=server, seat=seat, log=log, sims=sims,
                  trace=sock.trace.items, server_trace=server.trace.items,
                  result=outcome.get("result"), record=record, status=status,
                  rebooted=rebooted, store=store)


def board_moves(record):
    g = sgf_mod.parse(record)
    return [(c, vertex(g.size, p)) for c, p in g.moves], \
        sorted((c, vertex(g.size, p)) for c, p in g.setup), g


def server_moves(game):
    cols = proto.colours(game.gamedata(brief=True), len(game.moves))
    return [(c, proto.to_vertex(game.size, x, y)) for c, (x, y, _) in zip(cols, game.moves)]


GAME_COMMANDS = ("game/move", "game/resign", "game/removed_stones/set",
                 "game/removed_stones/accept", "game/removed_stones/reject")


def game_commands(trace):
    """What the person did, as the server was told it (no pings, clocks)."""
    return [[m[0], {k: v for k, v in m[1].items()}] for d, m in trace
            if d == "out" and m[0] in GAME_COMMANDS]


def trace_path(name):
    return TRACES / (name + ".jsonl")


def save_trace(name, items):
    os.makedirs(TRACES, exist_ok=True)
    with open(trace_path(name), "w") as f:
        for item in items:
            f.write(json.dumps(list(item)) + "\n")
