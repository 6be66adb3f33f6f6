"""End to end: GNU Go plays a whole 9x9 game against the simulated person at
the virtual board, through the real serial path (pty + pyserial on the host,
the firmware's App and Link on the board side).  The person follows the LED
prompts to place GNU Go's stones and lift prisoners, and chooses its own
moves with a second GNU Go.  The board's SGF must equal GNU Go's record;
at the end the person lifts the stones GNU Go judges dead, confirms, and
the board's own count must equal GNU Go's final_score."""
import time

import pytest
from sgfmill import sgf as sgfmill_sgf, sgf_moves

from gogadget.points import BLACK, EMPTY, WHITE, parse_vertex, place, place_point
from host_sim.sim.session import play_game
from host_sim.base.serialport import board as board_client, engine
from host_sim.sim.simboard import EnginePolicy, SimBoard
from oracle_gtp import margin

pytestmark = pytest.mark.oracle


def record_of(text):
    """(size, black set-up, white set-up, moves, final position) of an SGF, by sgfmill."""
    game = sgfmill_sgf.Sgf_game.from_string(text)
    seq = [node.get_move() for node in game.get_main_sequence()[1:]]
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays:
        if move is not None:
            board.play(move[0], move[1], colour)
    black, white, _ = game.get_root().get_setup_stones()
    return game.get_size(), sorted(black), sorted(white), seq, sorted(board.list_occupied_points())


def wait_for_phase(board, phase, seconds=60):
    """The board's status once it reaches `phase` (the person acts in its
    own thread; counting ends when it confirms)."""
    deadline = time.monotonic() + seconds
    while True:
        status = board.send("gogadget-status")
        if "phase=" + phase in status or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def gnugo_moves(eng, size):
    """GNU Go's own move list (move_history is newest first)."""
    out = []
    for line in eng.send("move_history").splitlines():
        if not line.strip():
            continue
        colour, mv = line.split()
        c = "b" if colour.lower().startswith("b") else "w"
        if mv.lower() == "pass":
            out.append((c, None))
        else:
            col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(mv[0].upper())
            out.append((c, (int(mv[1:]) - 1, col)))
    return out[::-1]


@pytest.mark.parametrize("person,handicap,level", [(WHITE, 0, 1), (BLACK, 2, 0)])
def test_gnugo_plays_the_person_at_the_board(gnugo_path, person, handicap, level):
    gnugo = "%s --mode gtp --level %d --chinese-rules" % (gnugo_path, level)
    sim = SimBoard(size=9, preset="chinese", colour=person,
                   policy=EnginePolicy(gnugo + " --seed 7"))
    sim.start()
    board = board_client(sim.port)
    eng = engine(gnugo + " --seed 3")
    try:
        # count=False: the relay stops at two passes; this test confirms the
        # count itself, to compare it with GNU Go's.
        moves, result, gnugo_says = play_game(board, eng, person, 9, 7.5, handicap, max_moves=250,
                                     count=False)
        sim.check()
        assert len(moves) < 250, "the game did not end"
        assert [m[1] for m in moves[-2:]] == ["pass", "pass"] or result.endswith("+R"), moves[-3:]
        size, black, white, ours, position = record_of(board.send("gogadget-sgf"))
        assert size == 9 and white == [] and len(black) == handicap
        # The same moves as GNU Go's record, and the same final position as
        # GNU Go's printsgf (which writes the position as set-up stones).
        assert ours == gnugo_moves(eng, 9)
        theirs = record_of(eng.send("printsgf"))
        assert position == sorted([("b", p) for p in theirs[1]] + [("w", p) for p in theirs[2]])
        assert len(ours) == len(moves) - (1 if result.endswith("+R") else 0)
        assert len(ours) > 20
        dead = set()
        if not result.endswith("+R"):
            # Counting: the person lifts the stones GNU Go judges dead and
            # confirms; the board's own count must equal GNU Go's.
            dead = {place(9, parse_vertex(9, v))
                    for v in eng.send("final_status_list dead").split()}
            status = wait_for_phase(board, "over")
            assert "phase=over" in status, status
            assert margin(board.send("final_score")) == margin(gnugo_says), (status, gnugo_says)
        # The person placed every stone and lifted every prisoner (and the
        # dead stones): the physical board equals the record's position.
        status = board.send("gogadget-status")
        assert "outstanding=0" in status, status
        with sim.lock:
            cells = sim.app.referee.board.cells
            for pl in range(81):
                want = EMPTY if pl in dead else cells[place_point(9, pl)]
                assert sim.stones.cells[pl] == want, pl
    finally:
        eng.close()
        board.transport.close()
        sim.close()
