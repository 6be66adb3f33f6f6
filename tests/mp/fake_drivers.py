"""The App's drivers without pins: a sensor grid the test sets, LEDs that
show nothing, buttons pressed from a queue.

Plain Python for both interpreters (room_board.py runs under MicroPython,
test_app.py under CPython)."""
from gogadget.events import BTN_NONE


class Sensors:
    kind = "colour"

    def __init__(self, size):
        self.board = bytearray(size * size)

    def read(self, scan):
        scan[:] = self.board


class Leds:
    def show(self, frame, now_ms):
        pass


class Buttons:
    def __init__(self):
        self.queue = []

    def poll(self, now_ms):
        return self.queue.pop(0) if self.queue else BTN_NONE
