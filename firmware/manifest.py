# pyright: reportUndefinedVariable=false
# (package/module/require are given to this file by MicroPython's makemanifest.py)
# What the project freezes into its UF2 images (`make uf2`, host_sim/tools/uf2.py):
# the generated manifest includes the board's own manifest first, then this
# file.  Frozen bytecode runs from flash, which leaves the RP2040's RAM to the
# game.  config.json, secrets.json, calib.bin and the games folder stay on the
# flash file system.  Relative paths are relative to this file.
package("gogadget")  # hw/ included; hw/rp2viper.py is compiled for the port's arch
module("main.py")  # a frozen main.py runs in preference to /main.py (which it hands over to)
require("umqtt.simple")  # the room publisher's MQTT client, from micropython-lib
