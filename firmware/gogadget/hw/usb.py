"""The Pico's USB serial line as the App's host stream: what a controller
types reaches the GTP link (gogadget/link.py), which the App loads only
once the first byte has arrived (a board with no host attached keeps no
GTP on its heap)."""
import sys


class StdioStream:
    """The Pico's USB CDC serial line (sys.stdin / sys.stdout), read without
    blocking.  Ctrl-C is turned off so a 0x03 in the noise is just a byte."""

    def __init__(self):
        import select
        self._in = getattr(sys.stdin, "buffer", sys.stdin)
        self._out = getattr(sys.stdout, "buffer", sys.stdout)
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
        # MicroPython's ipoll yields from the poller itself: poll() would
        # make a new list on every call, and readinto runs every scan cycle
        # (32 bytes a cycle, an automatic collection every few seconds of
        # play, 18 ms that a stone then waits on the emulated Pico).
        self._poll = getattr(poller, "ipoll", poller.poll)
        self._one = bytearray(1)
        self.closed = False
        try:
            import micropython
            micropython.kbd_intr(-1)
        except (ImportError, AttributeError):
            pass

    def readinto(self, buf):
        n = 0
        one = self._one
        while n < len(buf) and self._ready():
            if not self._in.readinto(one):  # pyright: ignore[reportAttributeAccessIssue]  (MicroPython's stdin reads bytes)
                self.closed = True  # end of input (host side closed)
                break
            buf[n] = one[0]
            n += 1
        return n

    def _ready(self):
        for _ in self._poll(0):
            return True
        return False

    def write(self, data):
        self._out.write(data)
        try:
            self._out.flush()
        except AttributeError:
            pass
