"""Run under MicroPython with the firmware's .mpy files (build/) on
MICROPYPATH: the names the board interns at its start, as boot.start
learns them, counted by the interpreter.  Prints qstr_info's line before
("NAMES BEFORE") and after ("NAMES AFTER") for a config of its argv:

    micropython boot_names.py [room] [clock] [pair]

room: a broker in the config (the Pico W's room; the host's names are
learnt too); clock: a game on byo-yomi; pair: with room, paired with a
remote board (pairing and pairops learnt too)."""
import sys

import machine  # tests/mp's pins (its own names are not the firmware's: counted before)
import micropython

machine.install_colour(19, seed=1)
print("NAMES BEFORE", end=" ")
micropython.qstr_info()
from gogadget.config import Config  # noqa: E402

cfg = Config(size=19)
if "clock" in sys.argv:
    cfg.time_control = "byoyomi"
if "room" in sys.argv:
    cfg.broker = "broker.local"
    cfg.board_id = "board01"
if "pair" in sys.argv:
    cfg.opponent = "board02"
    cfg.pair = "g1"
    cfg.pair_colour = "B"
from gogadget import boot  # noqa: E402

boot.learn_names(cfg)
# The drivers, as boot.start makes them.
from gogadget.hw import pico  # noqa: E402

drivers = (pico.make_sensors(cfg), pico.make_leds(cfg), pico.make_buttons(cfg),
           pico.make_heartbeat())
print("NAMES AFTER", end=" ")
micropython.qstr_info()
if "pair" in sys.argv:
    # What a paired game loads later (the pairing when the room's publisher
    # is made, its rare jobs mid-game): every name already known.
    import gogadget.pairing  # noqa: E402,F401
    import gogadget.pairops  # noqa: E402,F401
    print("NAMES LATER", end=" ")
    micropython.qstr_info()
