# pyright: reportUndefinedVariable=false
# (include/package are given to this file by MicroPython's makemanifest.py)
# Freeze the firmware into a custom MicroPython build for the Pico:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=<this tree>/firmware/manifest.py
# Frozen bytecode runs from flash, which leaves the RP2040's RAM to the game.
# main.py is not frozen: it stays a file on the flash file system, next to
# config.json, calib.bin and the games folder.  Relative paths are relative
# to this file.
include("$(PORT_DIR)/boards/manifest.py")  # the port's own modules (neopixel, ...)
package("gogadget")
