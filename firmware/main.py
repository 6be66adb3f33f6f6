# Go Gadget: MicroPython runs /main.py at boot, compiled from this source on
# the board; everything else is in gogadget/ as .mpy files (loop.py the scan
# loop, boot.py the start it lets go of), and switch.mpy, which first
# finishes or undoes a firmware update (gogadget update).
import sys

try:
    from switch import run
except ImportError:  # the package in a ROMFS (mpy.romfs): no update to switch
    _run = True
else:
    _run = run()
    del run
    del sys.modules["switch"]

from gogadget.loop import main  # noqa: E402

if __name__ == "__main__" and _run:
    main()
