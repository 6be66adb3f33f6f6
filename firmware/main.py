# Go Gadget: MicroPython runs /main.py at boot, compiled from this source on
# the board; everything else is in gogadget/ as .mpy files (loop.py the scan
# loop, boot.py the start it lets go of).
from gogadget.loop import main

if __name__ == "__main__":
    main()
