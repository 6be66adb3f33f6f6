"""Button events and referee events: the shared vocabulary of the firmware.

Button drivers (hw/buttons.py, the simulator) report BTN_* codes; the
referee reports EV_* events with a short text.
"""
from gogadget.compat import const

BTN_NONE = const(0)
BTN_PASS = const(1)
BTN_CONFIRM = const(2)  # confirm a take-back, the count, a set-up
BTN_NEW = const(3)  # new game
BTN_RESIGN = const(4)  # long press of pass
BTN_CALIBRATE = const(5)  # pass + new held together at boot
BTN_STUDY = const(6)  # new held: study mode on or off (study.py; the last code)
