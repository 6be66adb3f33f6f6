"""`gogadget online`: the person at the board plays their own games on
online-go.com (OGS) through its real-time protocol (docs/ONLINE.md).

* proto.py: OGS's coordinates, moves, removed stones, results and clocks.
* wire.py: the account's REST login and the websocket, every message kept
  in a trace (tests check each one against the goban package's types).
* seat.py: the bridge between one OGS game and the board's GTP link; its
  board side (attaching, reconciling, the count's dead stones) in boardside.py.
* server.py: a local server speaking the same protocol, for tests and
  demos (CI cannot reach OGS).
"""
