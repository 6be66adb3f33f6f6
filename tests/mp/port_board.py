"""A board on a TCP console, as the emulated Pico's socket:// console: the
flash folder's own main.py under the unix port (MICROPYPATH = the folder),
its GTP link on the console; a folder without main.py is a plain
MicroPython whose console answers no GTP (tests/test_room_boards_port.py)."""
import os
import socket
import sys

try:
    os.stat("main.py")
    gadget = True
except OSError:  # no Go Gadget on it: a REPL that answers no GTP
    gadget = False
if gadget:
    import machine  # (the tests' own: a colour board's sensors)
    machine.install_colour(9, seed=11, noise=200)
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(socket.getaddrinfo("127.0.0.1", int(sys.argv[-1]))[0][-1])
listener.listen(1)
listener.setblocking(False)


class Console:
    """The link's stream: the host that is connected, the next one once it
    hangs up (a port opened and closed for each step, as the host tools do)."""
    conn = None

    def readinto(self, buf):
        if self.conn is None:
            try:
                self.conn = listener.accept()[0]
            except OSError:
                return 0
            self.conn.setblocking(False)
        try:
            n = self.conn.readinto(buf)
        except OSError:
            return 0
        if n == 0:
            self.conn.close()
            self.conn = None
        return n or 0

    def write(self, data):
        if self.conn is not None:
            try:
                self.conn.write(data)
            except OSError:
                pass


main = None
if gadget:
    import main
run = main is not None and getattr(main, "_run", True)  # (a main.py of before the switch)
print("BOARD", "app" if run else "repl")
if run:
    main.main(stream=Console(), watchdog=False)
else:
    import time
    console = Console()
    buf = bytearray(64)
    while True:
        console.readinto(buf)
        time.sleep_ms(20)
