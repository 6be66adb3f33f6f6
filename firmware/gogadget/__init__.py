"""Go Gadget firmware logic: pin-free, runs on MicroPython and CPython."""

VERSION = "0.1.0"
