"""The virtual board: the firmware on simulated sensors, LEDs and buttons, its physics, and the session behind its serial port."""
