"""The heap in pieces, for tests of what a long game's heap can still do:
fill it with holes of `hole` bytes, each pinned apart from the next by a
small list that stays, until nothing more fits, then free the holes.
Plenty is free afterwards, in no block larger than about `hole` bytes.
Returns the chain of pins (keep it while the heap must stay in pieces)."""
import gc


def fragment(hole):
    gc.collect()
    chain = None
    try:
        while True:
            chain = [chain, bytearray(hole)]
    except MemoryError:
        pass
    node = chain
    while node is not None:
        node[1] = None
        node = node[0]
    gc.collect()
    return chain
