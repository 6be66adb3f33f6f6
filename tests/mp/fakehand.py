"""A fake hand at a fake board: puts and lifts stones in a scan bytearray and
feeds the referee one scan every scan period of its config (10 ms at the
default 100 scans/s), as the scan loop does.

Plain Python for both interpreters (the scenarios run under CPython and
MicroPython alike).
"""
from gogadget import frame as fr
from gogadget.config import Config
from gogadget.points import parse_vertex, place, BLACK, WHITE
from gogadget.referee import Referee
from gogadget.scan import S_EMPTY, S_BLACK, S_WHITE, S_STONE, new_scan
from gogadget import signals as sg



class Hand:
    def __init__(self, size=9, journal=None, occupancy=False, t=1000, flicker=0, seed=1,
                 **settings):
        self.config = Config(size=size, **settings)
        if occupancy:
            self.config.sensors = "occupancy"
        self.config.validate()
        self.occupancy = occupancy
        self.ref = Referee(self.config, journal)
        self.size = size
        self.scan = new_scan(size)
        self.t = t
        self.period = self.config.scan_period_ms()
        self.log = []  # every event seen, in order
        # flicker: sensors that misread for one scan, per scan (noise)
        self.flicker = flicker
        self.flickers = 0
        self._seed = seed
        self._noisy = new_scan(size)

    def _rand(self, n):
        # A fixed LCG: the same flickers under CPython and MicroPython.
        self._seed = (self._seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._seed >> 8) % n

    # -- geometry ----------------------------------------------------------

    def pl(self, v):
        return place(self.size, parse_vertex(self.size, v))

    def pt(self, v):
        return parse_vertex(self.size, v)

    # -- the hand ----------------------------------------------------------

    def put(self, v, colour=BLACK):
        if self.occupancy:
            self.scan[self.pl(v)] = S_STONE
        else:
            self.scan[self.pl(v)] = S_BLACK if colour == BLACK else S_WHITE

    def lift(self, v):
        self.scan[self.pl(v)] = S_EMPTY

    def scans(self, n=1):
        for _ in range(n):
            scan = self.scan
            if self.flicker:
                scan = self._noisy
                scan[:] = self.scan
                for _ in range(self.flicker):
                    pl = self._rand(len(scan))
                    if self.occupancy:
                        scan[pl] = S_EMPTY if scan[pl] != S_EMPTY else S_STONE
                    else:
                        scan[pl] = (scan[pl] + 1 + self._rand(2)) % 3  # EMPTY/BLACK/WHITE
                    self.flickers += 1
            self.ref.update(scan, self.t)
            self.t += self.period
        self.drain()

    def settle(self):
        """Scan long enough for a change to be adopted (the debounce is
        longer for a second after boot and while the sensors flicker)."""
        self.scans(self.ref.settler.debounce + 1)

    def wait_ms(self, ms):
        self.scans(ms // self.period + 1)

    def press(self, button):
        self.ref.press(button, self.t)
        self.drain()
        self.settle()

    def drain(self):
        while True:
            ev = self.ref.poll_event()
            if ev is None:
                return
            self.log.append(ev)

    def events(self, kind=None):
        """Events since the last call (of one kind, or all), then forgets them."""
        out = [e for e in self.log if kind is None or e[0] == kind]
        self.log = []
        return out

    def play(self, v, colour=None, tidy=True):
        """Put the stone of the colour to move (or the one given), let it settle,
        and (tidy) lift every stone the LEDs ask to remove."""
        if colour is None:
            colour = self.ref.to_move()
        self.put(v, colour)
        self.settle()
        if tidy:
            self.follow()

    def follow(self):
        """Do what the LEDs say: put prompted stones, lift prompted ones."""
        for _ in range(3):
            done = True
            for pl in range(self.size * self.size):
                p = self.ref.prompt[pl]
                if p == sg.P_PUT_BLACK:
                    self.scan[pl] = S_STONE if self.occupancy else S_BLACK
                    done = False
                elif p == sg.P_PUT_WHITE:
                    self.scan[pl] = S_STONE if self.occupancy else S_WHITE
                    done = False
                elif p in (sg.P_REMOVE, sg.P_DEAD, sg.P_ILLEGAL, sg.P_KO, sg.P_SUPERKO,
                           sg.P_WRONG_COLOUR):
                    self.scan[pl] = S_EMPTY
                    done = False
            if done:
                self.settle()
                return
            # several places at once look like a hand: the referee waits
            self.wait_ms(self.config.hand_settle_ms + self.period * (self.ref.settler.stable_scans + 1))

    def moves(self, text):
        """Play "D4 E5 pass ..." in turn, tidying up after each."""
        from gogadget.events import BTN_PASS
        for v in text.split():
            if v == "pass":
                self.press(BTN_PASS)
            else:
                n = self.ref.board.moves
                self.play(v)
                assert self.ref.board.moves == n + 1, "move %s not accepted: %s" % (v, self.ref.status())

    # -- what the LEDs show --------------------------------------------------

    def code(self, v):
        return self.ref.frame[1 + self.pl(v)]

    def colour_at(self, v):
        return self.code(v) & 0x0F

    def pattern_at(self, v):
        return self.code(v) & 0xF0

    def status_pixel(self, which):
        return self.ref.frame[1 + self.size * self.size + which]

    def lit(self, palette):
        """Places showing this palette colour."""
        out = []
        for pl in range(self.size * self.size):
            if self.ref.frame[1 + pl] & 0x0F == palette:
                out.append(pl)
        return out


def colour_code(colour):
    return fr.PUT_BLACK if colour == BLACK else fr.PUT_WHITE


WHITE = WHITE
