"""Run under MicroPython (cwd: a board's flash, calibrated): main.py's whole
app through a game's end -- two passes, the count, confirm (the result and
the SGF save), a new game -- on a fragmented heap, with the names
MicroPython knows counted before and after.  Prints the interpreter's
qstr_info line before ("NAMES BEFORE") and after ("NAMES AFTER") the end,
then one JSON line.

    micropython end_names.py [clock]

The end must intern no name: MicroPython's table of names grows by
doubling, one block each time, and a fragmented heap may have no block
that big (the emulated Pico W could not keep a game so: boot.learn_names)."""
import gc
import json
import os
import sys

import machine
import micropython

SIZE = 9
CLOCK = len(sys.argv) > 1 and sys.argv[1] == "clock"
board = machine.install_colour(SIZE, seed=11, noise=200)
config = {"size": SIZE, "scan_hz": 50}
if CLOCK:
    config.update(time_control="byoyomi", main_time=600, period_time=30, periods=5)
with open("config.json", "w") as f:
    f.write(json.dumps(config))


class Stream:
    def readinto(self, buf):
        return 0

    def write(self, data):
        pass


import main  # noqa: E402

app = main.main(cycles=30, stream=Stream(), watchdog=False)
ref = app.referee
now = [100000]


def steps(n, until=None):
    for _ in range(n):
        app.step(now[0])
        now[0] += 20
        if until is not None and until():
            return


OPENING = [2 * SIZE + 2, 6 * SIZE + 6, 2 * SIZE + 6, 6 * SIZE + 2, 4 * SIZE + 4, 4 * SIZE + 2]
for i, p in enumerate(OPENING):
    want = ref.board.moves + 1
    board.stones[p] = 1 + i % 2
    steps(40, lambda: ref.board.moves == want)
    assert ref.board.moves == want, ref.status()
    steps(3)
from gogadget.events import BTN_CONFIRM, BTN_PASS  # noqa: E402  (main has it loaded)

# The heap in pieces: every free block under 1 KB (holes of ~700 bytes),
# plenty free in all.
from fragment import fragment  # noqa: E402

pins = fragment(700)
print("FREE", gc.mem_free())
print("NAMES BEFORE", end=" ")
micropython.qstr_info()
ref.press(BTN_PASS, now[0])
steps(3)
ref.press(BTN_PASS, now[0])
assert ref.phase == "count", ref.phase
steps(10)
ref.press(BTN_CONFIRM, now[0])
steps(3)
assert ref.phase == "over", ref.phase
saved = [n for n in os.listdir("games") if n.endswith(".sgf")]
ref.new_game()
steps(5)
print("NAMES AFTER", end=" ")
micropython.qstr_info()
print(json.dumps({"saved": saved, "unsaved": ref.unsaved, "phase": ref.phase}))
