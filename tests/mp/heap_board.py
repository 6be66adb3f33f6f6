"""Run under MicroPython: prove Board.play (a normal and a capturing move)
and Board.legal allocate nothing once warmed up (heap locked)."""
import micropython
from gogadget.board import Board, OK
from gogadget.diagram import load_diagram
from gogadget.points import parse_vertex
from gogadget.rules import KO_POSITIONAL, KO_SIMPLE, KO_SITUATIONAL, SUICIDE_FORBIDDEN


def run(ko):
    b = Board(19, ko=ko, suicide=SUICIDE_FORBIDDEN)
    v = lambda t: parse_vertex(19, t)
    d4, e4, c4, d5, d3, q16 = v("D4"), v("E4"), v("C4"), v("D5"), v("D3"), v("Q16")
    # Warm up: a few moves, a capture, undo (every code path touched once).
    for colour, pt in ((1, q16), (2, d4), (1, e4), (2, v("A1")), (1, c4), (2, v("A2")),
                       (1, d5)):
        assert b.play(colour, pt) == OK
    assert b.legal(1, d3) == OK
    moves = b.moves
    out = []
    r16, k10 = v("R16"), v("K10")
    # A ko on a second board: the retake is refused (positional superko
    # confirms it by rebuilding the old position in the scratch buffer).
    k = Board(5, ko=ko)
    load_diagram(k, ".XO..\nXO.O.\n.XO..\n.....\n.....")
    b4, c4k = parse_vertex(5, "B4"), parse_vertex(5, "C4")
    assert k.play(1, c4k) == OK
    assert k.legal(2, b4) != OK
    micropython.heap_lock()
    try:
        r1 = b.play(2, r16)          # a normal move
        r2 = b.play(1, d3)                # captures D4
        r3 = b.legal(2, d4)               # the ko-ish retake (legal check only)
        r4 = b.legal(2, k10)         # an ordinary legality check
        r5 = b.play(2, k10)
        u = b.undo()
        r6 = k.legal(2, b4)
    finally:
        micropython.heap_unlock()
    out.append((r1, r2, r3, r4, r5, r6, u, b.moves - moves, b.prisoners[1]))
    return out


for ko in (KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL):
    print(ko, run(ko))
