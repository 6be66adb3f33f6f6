"""The only code that touches pins: sensors, LEDs, buttons, self-test.

pins.py is the pin map; pico.py builds the drivers from it.  Everything here
takes its Pin/ADC/SPI/NeoPixel objects as arguments, so the pin-level fakes
in tests/mp can stand in for the hardware.
"""
