"""Settling raw scans into the stable view of the board the referee reads.

A physical change -- a stone put down, a prisoner lifted, a stone slid from
one point to the next, a capture done in one motion -- reaches the referee
whole, as one *batch*, never a half of it.

Time.  Every wait is set in milliseconds (config.py) and turned into scans
at the scan period (Config.scans), so a faster scan takes no change sooner.
What is counted in scans is what is about single readings: a flicker is one
scan's misreading, the boot vote is three readings, and the noise estimate
is flickers per scan (the sensors misread per reading, not per second).

Debouncing, per place.  A place's new reading is *ready* once the sensor
has given it for config.stable_ms (more while the sensors flicker
a lot: measured as flickers per scan over the last _NOISE_MEMORY_MS or so, up
to NOISE_EXTRA_MS is added so that chance runs of equal misreadings stay
below settlelimits._FALSE_PER_S a second).  A reading that differs for a single scan is a
flicker and is forgiven: it neither starts a change nor restarts one on its
way, so noise cannot keep a stone from settling, however many places wait.
A new stone beside a stone that reads the same may have been slid from it,
and a slid stone's near end may lift well after its far end reads: such a
stone is ready only after config.slide_ms.

Batches.  Ready places are adopted into `stable` together, and only when
nothing else is on its way: no other place shows a stone that is not ready
yet (a stone lifted holds nothing up: the referee takes a prisoner lifted
before or after its capturing stone alike), and no place beside a ready
one is the other end of a slide on its way: beside a stone come, a neighbour that read the same and changed
in the last stable_ms (lifting, or bouncing); beside a stone gone,
a neighbour taking its reading.  A one-scan flicker holds nothing up.

`fresh` marks the places adopted since the board was last clean, so the
referee can tell a slide (a stone gone and one come together) from two
separate acts.  A batch is `clean` once a scan after it shows no new stone on its
way (two stones put down together, one of them misread for a scan, would
otherwise come one at a time) and none of its own places reading otherwise
(a stone set down for a moment, then nudged to the next point): the referee takes no move from a batch that
is not clean.  Only a change that never settles (a sensor flapping for more
than _STALL_MS) lets the ready places through without it, and then the
batch is clean only once the other end of any slide beside it has settled:
every stone adopted since the board was clean has been seen once with no
neighbour of its reading changed in the last k scans.  Each stone is seen
on its own scan, not all on one: under flicker some place among dozens of
fresh stones' neighbours has almost always flickered in the last k scans
(a board put back after a power cut, 3% flicker, stayed unclean for good).

A hand or sleeve over the board shows as many places changing at once:
when hand_places or more places have a change that has lasted 2 or more
scans and began within the last hand_window_ms, nothing is adopted until
hand_settle_ms after that stops.  Single-scan flickers never count towards
it, so sensor noise spread over the board is not a hand.  Two-scan
misreadings do, and under a lot of flicker they are common (3% on 9x9:
one starts somewhere every 14 scans), so while the sensors flicker the
count needed grows by up to settlelimits._HAND_EXTRA places, keeping the chance that
misreadings make up a hand with one real change below _FALSE_PER_S:
a stone put back beside two such misreadings was held 300 ms as under a
hand, knocked to the next point meanwhile, and taken there as a move.

Boot.  The first three scans are voted place by place into `stable`, so
the settled view starts from what the board holds (stones left on it over
a power cut are not fresh changes); places the three scans disagree on are
settled like any change before the first view is handed on (`primed`),
for _BOOT_WAIT_MS at most.  The first WARM_MS after boot use the longest
debounce, while the flicker estimate builds up from what the sensors really do.

An unchanged scan with every place settled costs one buffer comparison and
allocates nothing; while places settle, one pass over the board per scan
(no allocation either).  So that the idle scan stays one comparison, the
caller may skip feed() while `resting` is true and the scan equals `last`.
"""

from gogadget.compat import const, forget, ticks_add, ticks_diff, zeros
# The settler's own timings, not settings (the docstring says why each is
# so): timed in milliseconds, never in scans, like the settings it derives
# its scan counts from (config.scans()).
WARM_MS = const(1000)  # after boot the longest debounce, while the flicker rate is measured
_BOOT_WAIT_MS = const(500)  # longest wait for the places the boot vote doubted
_STALL_MS = const(2000)  # a change that never settles (a flapping sensor) holds the rest this long
NOISE_EXTRA_MS = const(60)  # the most the debounce grows while sensors flicker a lot
_NOISE_MEMORY_MS = const(1280)  # the flicker rate is measured over about this long
MAX_SCANS = const(250)  # the per-place counters saturate just past this (configfile checks)
from gogadget.scan import S_EMPTY, new_scan

_PRIME_SCANS = const(3)  # readings voted into the first settled view
_NO_DEV = const(255)  # Settler._dev: no reading is off by one scan

# What a per-place pass found (Settler._out, by index): places still busy,
# ready, stones on their way, recent changes (the hand detector), flickers,
# new stones coming, places pending; the ready ones lie in lo..hi-1.
_O_BUSY = const(0)
_O_READY = const(1)
_O_MOVING = const(2)
_O_RECENT = const(3)
_O_FLICK = const(4)
_O_COMING = const(5)
_O_PENDING = const(6)
_O_LO = const(7)
_O_HI = const(8)

# The settler's own counters and flags (Settler._state, by index: one
# array, where an attribute each would intern a name each for good).
_PRIME = const(0)  # boot readings still to vote
_BOOTING = const(1)  # scans left for the places the vote disagreed on to settle
_FLICK = const(2)  # the flicker sum (see _noise)
# The longest debounce for the first scans after boot, while the flicker of
# the sensors is being measured (see _noise): scans left.
_WARM = const(3)
_BOOT_SCANS = const(4)  # _BOOT_WAIT_MS in scans
_LEAK = const(5)  # the flicker sum leaks 1/2**this a scan
_HAND = const(6)  # places changing at once that make a hand, as things stand
# A place part-way through settling (or an unclean batch) must still be
# looked at on the next scan, even if that scan equals the last one.
_BUSY = const(7)
_WAITING = const(8)  # 1: ready places wait for the other end of a slide ...
_WAIT_FROM = const(9)  # ... since this tick
_QUIET = const(10)  # 1: a hand was over the board ...
_QUIET_UNTIL = const(11)  # ... nothing is adopted until this tick
_STALLED = const(12)  # 1: the last batch went through only after _STALL_MS
_STATE_N = const(13)

# The per-place pass and the adoption: viper twins on the RP2040
# (hw/rp2fast.py installs them), the plain loops of settleplain.py
# elsewhere (loaded when the first Settler is made).
_FAST = [None, None]  # type: list


def use_fast(places, mark):
    """Run the per-place pass and the adoption as the given functions,
    called with the settler as their first argument (settleplain's
    signatures)."""
    _FAST[0] = places
    _FAST[1] = mark


class Settler:
    """Raw scans in (feed), the settled reading of every place out (stable).
    `last`, `fresh`, `clean`, `primed`, `resting` and `stable_scans` are
    read-only for callers."""

    def __init__(self, size, config):
        if _FAST[0] is None:
            from gogadget import settleplain as p
            use_fast(p.places, p.mark)
        n = size * size
        self.size = size
        self.n = n
        self.config = config
        self.stable = new_scan(size)  # the adopted reading of every place
        self.last = new_scan(size)  # the last reading of every place
        self.fresh = bytearray(n)  # 1: adopted since the board was last clean
        self._run = bytearray(n)  # scans `last` has read since it began (saturates)
        # A reading that differs from `last` for one scan is forgiven (a
        # flicker does not restart a run); kept here until the next scan.
        self._dev = bytearray(b"\xff" * n)
        # Scans since the place last read otherwise than the scan before,
        # flickers included: a slid stone's near end may bounce.
        self._calm = bytearray(n)
        # Scans a new stone cut short (misread twice in a row) still counts
        # as on its way: it is likely to come back.
        self._hold = bytearray(n)
        # 1: a stone of a batch that went through after a stall, not yet
        # seen with its neighbours settled (_fresh_beside_change).
        self._doubt = bytearray(n)
        self._out = zeros("H", _O_HI + 1)  # what the last per-place pass found
        st = self._state = zeros("i", _STATE_N)
        st[_PRIME] = _PRIME_SCANS
        st[_WARM] = config.scans(WARM_MS)
        self.restart()
        self.resting = False

    @property
    def debounce(self):
        """Scans a new reading may need to be ready, as things stand."""
        return max(self._k, self._k_slide)

    @property
    def primed(self):
        """Has the settled view been taken from the board yet?"""
        st = self._state
        return st[_PRIME] == 0 and not st[_BOOTING]

    def restart(self):
        """Fresh timing for a new game; what the places read is kept (the
        stones on the board have not moved)."""
        config = self.config
        period = config.scan_period_ms()
        # Every wait in scans at this scan period.  A new reading is ready
        # on its k-th scan and its batch clean on the next: k periods after
        # it was first read, as long as stable_ms (2 scans at least: a
        # single scan's misreading is a flicker, never a change).
        k = max(2, config.scans(config.stable_ms))
        extra = config.scans(NOISE_EXTRA_MS)
        # Hand window in scans; run counters saturate just past it and past
        # the longest debounce, k + extra.
        self._window = min(max(2, config.hand_window_ms // period), MAX_SCANS)
        self._k_slide = min(max(k, config.slide_ms // period), MAX_SCANS)
        self._cap = min(max(k + extra, self._window, self._k_slide) + 1, 255)
        self._k = k
        self.stable_scans = k  # the debounce in scans with quiet sensors
        st = self._state
        st[_BOOT_SCANS] = config.scans(_BOOT_WAIT_MS)
        st[_FLICK] = 0
        # The flicker sum leaks 1/2**shift a scan: a memory of about
        # _NOISE_MEMORY_MS; each flicker adds 2**(10 - shift), so the sum
        # stays flickers per scan x1024 at any scan rate.
        shift = 0
        while shift < 10 and (2 << shift) * period <= _NOISE_MEMORY_MS:
            shift += 1
        st[_LEAK] = shift
        # The flicker and hand limits (settlelimits.py: floating point, once
        # per timing), loaded for that and let go of.
        from gogadget import settlelimits
        self.limits = settlelimits.limits(self.n, period, k, extra, config.hand_places)
        settlelimits = None
        forget("settlelimits")
        st[_HAND] = config.hand_places
        st[_BUSY] = 0 if self.last == self.stable else 1
        st[_WAITING] = st[_WAIT_FROM] = st[_QUIET] = st[_QUIET_UNTIL] = st[_STALLED] = 0
        self.clean = True  # the last batch stands, nothing else came with it
        # No place settling, no flicker rate decaying, no warm-up to count.
        self.resting = st[_PRIME] == 0 and not st[_WARM]

    def feed(self, scan, now_ms):
        """Take one raw scan; True when the settled view changed (a batch
        was adopted; `clean` follows on a later scan).  Allocates nothing."""
        if len(scan) != self.n:
            raise ValueError("scan is not %dx%d" % (self.size, self.size))
        st = self._state
        if st[_PRIME]:
            return self._vote(scan)
        changed = False
        if st[_BUSY] or scan != self.last:
            changed = self._debounce(scan, now_ms)
        elif st[_FLICK] or st[_WARM]:
            self._noise(0)
        else:
            return False
        self.resting = not (st[_BUSY] or st[_FLICK] or st[_WARM])
        return changed

    def _vote(self, scan):
        """Boot: scan 1 into stable, scan 2 into last, scan 3 decides by
        majority; True once the settled view is taken."""
        st = self._state
        st[_PRIME] -= 1
        stable = self.stable
        last = self.last
        if st[_PRIME] == 2:
            stable[:] = scan
            return False
        if st[_PRIME] == 1:
            last[:] = scan
            return False
        run = self._run
        calm = self._calm
        cap = self._cap
        for pl in range(self.n):
            s = scan[pl]
            a = stable[pl]
            if s == a == last[pl]:
                run[pl] = calm[pl] = cap  # all three agree: settled
            else:
                if s == last[pl]:
                    stable[pl] = s  # scans 2 and 3 outvote scan 1
                # otherwise scan 1 stands (with 2 or 3, or alone: no majority)
                run[pl] = 1
                calm[pl] = 0
            self._dev[pl] = _NO_DEV
        last[:] = scan
        st[_BUSY] = 1
        self.resting = False
        st[_BOOTING] = st[_BOOT_SCANS]
        return False

    def _debounce(self, scan, now):
        """Per-place debouncing, batches and the hand detector (see the
        module notes).  Kept within MicroPython's 11-word stack frame, like
        everything called once per scan: the per-place pass is
        settleplain.places (or its viper twin), and what it found is read
        back from _out."""
        _FAST[0](self, scan)
        out = self._out
        st = self._state
        # Places waiting to be adopted, and an unclean batch waiting for the
        # board to be still, keep the loop going after they settle.
        st[_BUSY] = out[_O_BUSY] + out[_O_READY] + (not self.clean)
        if st[_BOOTING]:
            # The first view goes out once what the vote doubted has settled
            # (a place misread in two of the three scans is no stone).
            st[_BOOTING] -= 1
            if out[_O_READY] or out[_O_PENDING]:
                if st[_BOOTING]:
                    if out[_O_READY] and not out[_O_MOVING]:
                        self._adopt(out[_O_LO], out[_O_HI], False)
                    return False
            st[_BOOTING] = 0
            self.clean = True
            return True
        self._noise(out[_O_FLICK])
        if out[_O_RECENT] >= st[_HAND]:
            st[_QUIET] = 1
            st[_QUIET_UNTIL] = ticks_add(now, self.config.hand_settle_ms)
        if not out[_O_READY]:
            st[_WAITING] = 0
            if not self.clean and not out[_O_COMING] \
                    and (not st[_STALLED] or not self._fresh_beside_change()):
                self.clean = True  # the batch stands, no stone follows: the referee may decide
            return False
        if st[_QUIET]:
            if ticks_diff(now, st[_QUIET_UNTIL]) < 0:
                return False
            st[_QUIET] = 0
        if out[_O_MOVING] or self._beside_change(out[_O_LO], out[_O_HI]):
            # Another place is on its way: hand both on together (a slid
            # stone's two ends), unless it never settles.
            if not st[_WAITING]:
                st[_WAITING] = 1
                st[_WAIT_FROM] = now
            if ticks_diff(now, st[_WAIT_FROM]) < _STALL_MS:
                return False
            return self._adopt(out[_O_LO], out[_O_HI], True)
        return self._adopt(out[_O_LO], out[_O_HI], False)

    def _adopt(self, lo, hi, stalled):
        """Adopt the ready places as one batch.  It is clean once a scan
        after it shows no new stone on its way (a second stone put down
        with it may be read a scan late) and, if it went through after a
        stall, nothing changing beside it."""
        st = self._state
        st[_WAITING] = 0
        _FAST[1](self, lo, hi)
        self.clean = False
        st[_STALLED] = stalled
        if stalled:  # (a slice copy: a loop's locals would put this frame on the heap)
            self._doubt[:] = self.fresh
        return True

    def _fresh_beside_change(self):
        """Is a stone adopted since the board was clean (in doubt since the
        stall) still next to the near end of a slide on its way (a
        neighbour of the same reading that changed in the last k scans)?
        A stone seen once with its neighbours settled is out of doubt, as
        the whole batch was when all its stones were seen so on one scan:
        under flicker, with dozens of stones, that one scan never comes."""
        fresh = self.fresh
        stable = self.stable
        doubt = self._doubt
        calm = self._calm
        k = self._k
        size = self.size
        n = self.n
        left = False
        for pl in range(n):
            if not doubt[pl]:
                continue
            c = stable[pl]
            if fresh[pl] and c != S_EMPTY:
                # A neighbour of the same reading, changed in the last k scans?
                col = pl % size
                if (col > 0 and stable[pl - 1] == c and calm[pl - 1] < k) \
                        or (col < size - 1 and stable[pl + 1] == c and calm[pl + 1] < k) \
                        or (pl >= size and stable[pl - size] == c and calm[pl - size] < k) \
                        or (pl + size < n and stable[pl + size] == c and calm[pl + size] < k):
                    left = True
                    continue
            doubt[pl] = 0
        return left

    def _beside_change(self, lo, hi):
        """Is a ready place in lo..hi-1 next to the other end of a slide
        still on its way?"""
        for pl in range(lo, hi):
            if self._ready(pl) and self._partner_moving(pl):
                return True
        return False

    def _ready(self, pl):
        """Has pl read its new value long enough, and on this scan too?"""
        r = self._run[pl]
        return r >= self._k and self.last[pl] != self.stable[pl] and self._dev[pl] == _NO_DEV \
            and (r >= self._k_slide or not self._source(pl))

    def _source(self, pl):
        """Could a stone now read at pl have been slid from a neighbour, one
        that reads the same?  Then it waits slide_ms: the near end may not
        have lifted yet."""
        c = self.last[pl]
        stable = self.stable
        if c == S_EMPTY or stable[pl] != S_EMPTY:
            return False  # a stone lifted, or turned over in place: no slide
        size = self.size
        col = pl % size
        return (col > 0 and stable[pl - 1] == c) or (col < size - 1 and stable[pl + 1] == c) \
            or (pl >= size and stable[pl - size] == c) \
            or (pl + size < self.n and stable[pl + size] == c)

    def _partner_moving(self, pl):
        """Is a neighbour of pl the other end of a slide, not yet settled?
        For a stone come to pl: a neighbour that held the same reading and
        has changed in the last k scans (lifting, or bouncing).  For a stone
        gone from pl: a neighbour that is taking its reading."""
        size = self.size
        col = pl % size
        return (col > 0 and self._partner(pl, pl - 1)) \
            or (col < size - 1 and self._partner(pl, pl + 1)) \
            or (pl >= size and self._partner(pl, pl - size)) \
            or (pl + size < self.n and self._partner(pl, pl + size))

    def _partner(self, pl, nb):
        if self._ready(nb):
            return False  # in the same batch
        came = self.last[pl]
        went = self.stable[pl]
        stable = self.stable
        if went == S_EMPTY:  # a stone come to an empty point: a neighbour that read
            # the same, changed in the last k scans
            return stable[nb] == came and self._calm[nb] < self._k
        if came == S_EMPTY:  # a stone gone, the point empty
            return stable[nb] == S_EMPTY and (self.last[nb] == went or self._dev[nb] == went)
        return False  # a stone turned over in place: no slide

    def _noise(self, n):
        """Track the flicker rate (a leaky sum over about _NOISE_MEMORY_MS,
        x1024 per flicker a scan; n flickers this scan); while it is high,
        lengthen the debounce and raise the count of places that make a
        hand.  (n is reused for each count: the frame stays within 11
        words, off the heap, on every scan it runs.)"""
        st = self._state
        f = st[_FLICK]
        leak = st[_LEAK]
        # Round the leak up so the sum really returns to 0 (and the settler
        # to rest) once the flicker stops.
        f += (n << (10 - leak)) - ((f + (1 << leak) - 1) >> leak)
        st[_FLICK] = f
        limits = self.limits[0]  # the debounce's (settlelimits.limits)
        n = 0  # scans added to the debounce
        while n < len(limits) and f > limits[n]:
            n += 1
        if st[_WARM]:
            # Until the flicker is measured the debounce is the longest, and
            # the hand count the measured one: both err towards waiting.
            st[_WARM] -= 1
            n = len(limits)
        self._k = self.stable_scans + n
        limits = self.limits[1]  # the hand's
        n = 0  # places added to the hand count
        while n < len(limits) and f > limits[n]:
            n += 1
        st[_HAND] = self.config.hand_places + n
