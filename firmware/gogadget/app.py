"""The pin-free application: config -> resume from the journal -> one step() per scan.

Drivers are duck-typed and injected (hw/ on the board, host_sim on the
desktop, fakes in tests):

* sensors.read(scan) fills a scan bytearray; sensors.kind is "colour" or
  "occupancy";
* leds.show(frame, now_ms) displays a frame;
* buttons.poll(now_ms) returns a BTN_* code (BTN_NONE when nothing happened);
* stream (optional): the host's serial line (readinto, write); the GTP
  link (link.py, with gtp.py 19 KB of bytecode) is loaded when its first
  byte arrives: a board with no host attached never holds it;
* broadcast (optional): a broadcast.Broadcaster, polled once per step
  after the host link (it publishes the game over MQTT, docs/ROOM.md).
"""
from gogadget.compat import forget
from gogadget.events import BTN_NONE
from gogadget.journal import Journal
from gogadget.referee import Referee
from gogadget.scan import new_scan


class App:
    def __init__(self, config, sensors, leds, buttons, store_dir, stream=None, broadcast=None):
        self.config = config
        self.sensors = sensors
        self.leds = leds
        self.buttons = buttons
        self.store_dir = store_dir
        kind = getattr(sensors, "kind", None)
        if kind is not None:
            config.sensors = kind
        self.journal = Journal(store_dir) if store_dir else None
        self.referee = Referee(config, self.journal)
        self.scan = new_scan(self.referee.size)
        self.stream = stream
        self.link = None  # the GTP link, from the host's first byte on
        self._knock = bytearray(1)
        if stream is not None and getattr(stream, "readinto", None) is None:
            self.open_link()  # a stream that only read()s (desktop tools): no knock
        self.broadcast = broadcast
        if broadcast is not None:
            broadcast.attach(self.referee)

    def boot(self, now_ms):
        """Resume the journalled game (the LEDs then guide the person to put
        the position back); a damaged journal is recovered and reported."""
        records, report = ([], "")
        if self.journal is not None:
            from gogadget import journalread  # once a boot: let go of below
            try:
                records, report = journalread.load(self.journal)
            except OSError as exc:
                records, report = [], "journal unreadable: %s" % exc
            journalread = None
        self.referee.resume(records, report, now_ms)
        records = None
        forget("journalread")
        if len(self.scan) != self.referee.n:  # the journal's game is of another size
            self.scan = new_scan(self.referee.size)

    def step(self, now_ms):
        """One cycle: sensors -> referee -> buttons -> LEDs (-> host link
        -> broadcast)."""
        ref = self.referee
        scan = self.scan
        if len(scan) != ref.n:  # a new game of another size (from the host)
            scan = self.scan = new_scan(ref.size)
        self.sensors.read(scan)
        ref.update(scan, now_ms)
        button = self.buttons.poll(now_ms)
        if button != BTN_NONE:
            ref.press(button, now_ms)
        self.leds.show(ref.frame, now_ms)
        if self.stream is not None:
            self.poll_host(now_ms)
        if self.broadcast is not None:
            self.broadcast.poll(now_ms)

    def open_link(self):
        """The GTP link, loaded now if no host has spoken yet."""
        if self.link is None:
            from gogadget.link import Link
            self.link = Link(self, self.stream)
        return self.link

    def poll_host(self, now_ms):
        """One slice of the host link's work; until a host has spoken, one
        look for a byte on the line (allocating nothing).  (A method of its
        own: host_sim/bench/rp2/cycle.py times it apart.)"""
        link = self.link
        if link is None:
            if not self.stream.readinto(self._knock):
                return
            link = self.open_link()
            link.take(self._knock, 1)
        link.poll(now_ms)
