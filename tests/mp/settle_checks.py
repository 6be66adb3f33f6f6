"""Settler checks (firmware/gogadget/settle.py) shared by CPython and MicroPython.

Plain asserts; every check_* returns a short text so tests/test_settle.py can
compare the two interpreters line by line.  Scans are fed 20 ms apart, at
50 scans/s with a 60 ms debounce (3 scans) unless a check says otherwise:
the counts below were worked out there (check_same_in_ms_at_any_rate
feeds other rates); a deterministic LCG stands in for random so both
interpreters see the same noise.
"""
from gogadget.config import Config
from gogadget.settle import Settler

STEP = 20  # ms between scans at the Rig's scan_hz


class Rig:
    """A Settler, the raw scan the sensors give and the clock."""

    def __init__(self, size=9, boot=True, **cfg):
        self.size = size
        if "scan_hz" not in cfg:
            cfg["scan_hz"] = 1000 // STEP
        if "stable_ms" not in cfg and "stable_scans" not in cfg:
            cfg["stable_ms"] = 3 * STEP
        self.config = Config(size=size, **cfg)
        self.step = self.config.scan_period_ms()
        self.s = Settler(size, self.config)
        self.scan = bytearray(size * size)
        self.t = 1000
        if boot:
            self.boot()

    def boot(self):
        """Power-up: the settled view is voted from the first scans, and the
        noise estimate (pessimistic at first) decays to what is measured."""
        assert not self.s.primed
        assert not self.feed() and not self.feed()
        for _ in range(30):  # the vote, then what it doubted settles
            if self.feed():
                break
        assert self.s.primed
        for _ in range(2000):
            if self.s.resting:
                return
            assert not self.feed()
        raise AssertionError("never came to rest after boot")

    def feed(self):
        self.t += self.step
        return self.s.feed(self.scan, self.t)

    def run(self, count):
        """Feed `count` unchanged scans; how many reported a change."""
        hits = 0
        for _ in range(count):
            if self.feed():
                hits += 1
        return hits

    def rest(self, limit=40):
        """Feed unchanged scans until the settler rests (run counters
        saturate a few scans after the last change): how many it took."""
        for i in range(limit):
            if self.s.resting:
                return i
            assert not self.feed()
        raise AssertionError("never came to rest")

    def adopt(self, pl, value, limit=60):
        """Set a place and feed until it is adopted: the scans it took."""
        self.scan[pl] = value
        for i in range(1, limit + 1):
            got = self.feed()
            if self.s.stable[pl] == value:
                assert got, "stable changed but feed() returned False"
                return i
            assert not got or self.s.stable[pl] != value
        raise AssertionError("place %d never adopted %d" % (pl, value))


class Flicker:
    """Single-scan flickers: each scan restores the last ones and sets
    `per_scan` new places (disjoint from the restored ones) to 1."""

    def __init__(self, rig, places, per_scan):
        assert 2 * per_scan <= len(places)
        self.rig = rig
        self.places = places
        self.per_scan = per_scan
        self.i = 0

    def step(self):
        scan = self.rig.scan
        places = self.places
        m = len(places)
        k = self.per_scan
        for j in range(k):
            scan[places[(self.i - k + j) % m]] = 0
        for j in range(k):
            scan[places[(self.i + j) % m]] = 1
        self.i = (self.i + k) % m
        return self.rig.feed()

    def stop(self):
        k = self.per_scan
        for j in range(k):
            self.rig.scan[self.places[(self.i - k + j) % len(self.places)]] = 0


def far_rows(size, first_row):
    return [pl for pl in range(first_row * size, size * size)]


def check_adopted_after_k_equal_scans():
    out = []
    for k in (2, 3, 5):
        r = Rig(stable_scans=k)
        before = bytes(r.s.stable)
        r.scan[40] = 1
        for i in range(k - 1):
            assert not r.feed(), "adopted after %d of %d scans" % (i + 1, k)
            assert bytes(r.s.stable) == before
        assert r.feed() and r.s.stable[40] == 1
        assert sum(r.s.stable) == 1  # nothing else adopted
        out.append("k%d:%d" % (k, k))
        # Taking it away settles the same way.
        out.append("off%d" % r.adopt(40, 0))
        r.rest()
    return " ".join(out)


def check_boot_votes_the_first_scans():
    """What the board holds at boot is the settled view at once (stones
    left over a power cut are not fresh changes); a flicker in one of the
    first three scans is outvoted."""
    r = Rig(boot=False)
    board = bytearray(81)
    for pl in range(0, 81, 7):
        board[pl] = 1 + pl % 2
    got = []
    for i in range(4):
        r.scan[:] = board
        if i == 0:
            r.scan[3] = 2  # flickers in scan 1 ...
        if i == 1:
            r.scan[7] = 0  # ... and in scan 2
        got.append(r.feed())
    assert got == [False, False, False, True] and r.s.primed
    assert bytes(r.s.stable) == bytes(board), "the vote missed the board"
    assert sum(r.s.fresh) == 0
    # A place misread in two of the three scans is settled before the first
    # view goes out: no phantom stone in it.
    r = Rig(boot=False)
    views = 0
    for i in range(30):
        r.scan[:] = board
        if i in (0, 1):
            r.scan[40] = 2  # scans 1 and 2 see a stone that is not there
        if r.feed():
            views += 1
            assert r.s.primed and r.s.stable[40] == 0 and bytes(r.s.stable) == bytes(board)
    assert views == 1
    # The longest debounce holds for about a second after boot.
    r.scan[40] = 1
    slow = 0
    while r.s.stable[40] != 1:
        r.feed()
        slow += 1
        assert slow < 40
    assert slow > r.s.stable_scans, slow
    return "slow=%d" % slow


def check_interrupted_run_starts_again():
    """One scan off is a flicker and is forgiven; two in a row start over."""
    r = Rig(stable_scans=3)
    seq = (1, 1, 0, 0, 1, 1, 2, 2)  # runs of 2 < stable_scans=3, broken by 2 scans
    for v in seq:
        r.scan[10] = v
        assert not r.feed() and r.s.stable[10] == 0
    r.scan[10] = 2
    assert r.feed() and r.s.stable[10] == 2  # third 2 in a row
    r.adopt(10, 0)
    r.rest()
    forgiven = (1, 1, 0, 1)  # the third scan is a flicker: 1 has read for 3 of 4
    for i, v in enumerate(forgiven):
        r.scan[10] = v
        got = r.feed()
        assert got == (i == 3) and r.s.stable[10] == (1 if i == 3 else 0), i
    return "ok"


def check_single_scan_flicker_never_adopted():
    total = 0
    for k in (2, 3):
        # The same place blinking every other scan.
        r = Rig(stable_scans=k)
        for i in range(200):
            r.scan[0] = 1 if i % 2 == 0 else 0
            total += r.feed()
        # Noise all over the board: every other scan a few places read
        # something else for that one scan.
        seed = 7
        for i in range(400):
            if i % 2 == 0:
                for _ in range(4):
                    seed = (seed * 1103515245 + 12345) & 0x3FFFFFFF
                    pl = (seed >> 8) % 81
                    r.scan[pl] = 1 + (seed >> 4) % 3
            else:
                for pl in range(81):
                    r.scan[pl] = 0
            total += r.feed()
        assert sum(r.s.stable) == 0, "a flicker was adopted (k=%d)" % k
    assert total == 0
    return "adopted=%d" % total


def check_k_lengthens_under_flicker_and_recovers():
    size = 9
    r = Rig(size, stable_scans=3)
    quiet = r.adopt(0, 1)
    r.adopt(0, 0)
    assert quiet == r.s.stable_scans
    # One flicker a scan, far from the corner.
    f = Flicker(r, far_rows(size, 4), 1)
    for _ in range(300):
        assert not f.step()
    r.scan[0] = 1
    noisy = 0
    while r.s.stable[0] != 1:
        f.step()
        noisy += 1
        assert noisy < 40
    assert quiet < noisy <= quiet + 3, noisy
    # Heavy noise: four flickers a scan, each of the 45 places misread one
    # scan in 11.  The debounce is capped at stable_scans + 3 and noise is
    # not a hand (no hand_settle_ms wait).
    f.stop()
    f2 = Flicker(r, far_rows(size, 4), 4)
    for _ in range(300):
        assert not f2.step()
    r.scan[8] = 1
    heavy = 0
    while r.s.stable[8] != 1:
        f2.step()
        heavy += 1
        assert heavy < 40
    assert noisy <= heavy <= quiet + 3, heavy
    # Flicker stops: after a few seconds the debounce is back to normal.
    f2.stop()
    r.run(250)
    assert sum(r.s.stable[4 * size:]) == 0
    back = r.adopt(2, 1)
    assert back == quiet, back
    return "quiet=%d noisy=%d heavy=%d back=%d" % (quiet, noisy, heavy, back)


def _hand(r, block_r, block_c, value):
    """A hand over a 3x3 block of places: they read `value`; the rest 0."""
    size = r.size
    for pl in range(size * size):
        r.scan[pl] = 0
    for dr in range(3):
        for dc in range(3):
            r.scan[(block_r + dr) * size + block_c + dc] = value


def check_hand_holds_off_until_settle_after_it_stops():
    r = Rig(9)
    settle = r.config.hand_settle_ms
    # The hand wanders for two seconds, 3 scans at each spot (the last spot
    # too, so its readings last 2+ scans and it still counts as a hand).
    hits = 0
    for i in range(102):
        _hand(r, 2 + (i // 9) % 4, (i // 3) % 7, 1 + (i // 3) % 2)
        hits += r.feed()
        assert sum(r.s.stable) == 0, "adopted under a hand at scan %d" % i
    assert hits == 0
    t_hand = r.t  # last scan with the hand over the board
    # It lifts, leaving a stone (and nothing else).
    for pl in range(81):
        r.scan[pl] = 0
    r.scan[40] = 1
    while not r.feed():
        assert r.t - t_hand < 2000
    waited = r.t - t_hand
    assert settle <= waited <= settle + STEP, waited
    assert r.s.stable[40] == 1 and sum(r.s.stable) == 1
    # Two places changing together are not a hand (hand_places=3).
    r.scan[0] = r.scan[80] = 2
    n = 0
    while not r.feed():
        n += 1
    assert n + 1 == r.s.stable_scans and r.s.stable[0] == r.s.stable[80] == 2
    return "waited=%d two=%d" % (waited, n + 1)


# A stone slides from A to its neighbour B: per-scan readings of A and B.
# The near end (A) may bounce for fewer than stable_scans scans.
SLIDES = (
    ("110000000000", "001111111111"),  # both ends change together
    ("110000000000", "011111111111"),  # far end first, by one scan
    ("100000000000", "001111111111"),  # near end lifts first, B follows
    ("100000000000", "000111111111"),  # ... two scans later
    ("111010000000", "001111111111"),  # near end flickers back
    ("111011010000000", "011111111111111"),  # ... and again
    ("110110000000", "001111111111"),  # near end reads 0 twice, back, off
)


def check_slid_stone_two_ends_adopted_together():
    size = 9
    a = 4 * size + 4
    out = []
    for db in (1, -1, size, -size):  # right, left, down, up
        b = a + db
        for sa, sb in SLIDES:
            r = Rig(size, stable_scans=3)
            r.adopt(a, 1)
            adopted_at = -1
            for i in range(len(sa)):
                r.scan[a] = int(sa[i])
                r.scan[b] = int(sb[i])
                got = r.feed()
                st = r.s.stable
                # Never both ends (a stone added) nor neither (one lifted).
                assert st[a] + st[b] == 1, "slide %s/%s to %+d: scan %d shows A=%d B=%d" % (
                    sa, sb, db, i, st[a], st[b])
                if got:
                    assert adopted_at < 0
                    adopted_at = i
            assert r.s.stable[b] == 1 and r.s.stable[a] == 0 and adopted_at >= 0
            out.append(str(adopted_at))
    return " ".join(out)


def check_slide_gap_within_stable_scans_is_one_change():
    """D4: the far end reads a stone up to stable_scans - 1 scans before the
    near end reads empty (or after it): still one batch, both ends."""
    size = 9
    a, b = 40, 49
    k = Rig(size).s.stable_scans
    out = []
    for gap in range(-(k - 1), k):
        r = Rig(size)
        r.adopt(a, 2)
        r.rest()
        on_b = max(0, gap)
        off_a = max(0, -gap)
        batches = 0
        for i in range(3 * k + 5):
            r.scan[b] = 2 if i >= on_b else 0
            r.scan[a] = 0 if i >= off_a else 2
            if r.feed():
                batches += 1
                assert r.s.fresh[a] and r.s.fresh[b], (gap, i)
            st = r.s.stable
            assert (st[a] == 2) + (st[b] == 2) == 1, "gap %d: scan %d shows A=%d B=%d" % (
                gap, i, st[a], st[b])
        assert batches == 1 and r.s.stable[b] == 2 and r.s.clean, (gap, batches)
        out.append(str(gap))
    return "gaps " + ",".join(out)


def check_flapping_neighbour_holds_then_unclean():
    """The near end never settles (a flapping sensor): the far end goes
    through after _STALL_MS rather than never, but the batch is not clean
    (no move is taken from it) until the neighbour is still."""
    r = Rig(9)
    a, b = 40, 41
    r.adopt(a, 1)
    r.scan[b] = 1
    t_on = r.t + STEP
    i = 0
    while r.s.stable[b] != 1:
        r.scan[a] = i % 2  # blinking every scan
        r.feed()
        i += 1
        assert i < 200
    waited = r.t - t_on - (r.s.debounce - 1) * STEP  # from ready (beside A: slide_ms) to adopted
    assert 2000 <= waited <= 2000 + STEP, waited
    assert not r.s.clean
    for j in range(20):
        r.scan[a] = j % 2
        r.feed()
        assert not r.s.clean, "clean while the neighbour flaps"
    r.scan[a] = 1
    n = 0
    while not r.s.clean:
        r.feed()
        n += 1
        assert n < 40
    return "waited=%d clean_after=%d" % (waited, n)



def _put_back_under_flicker(hz, per_scan, gap):
    """Stones left on the board over a power cut (every third place), then
    one stone put back beside each every `gap` scans while `per_scan`
    places a scan misread for that scan (never the same place two scans
    running): 2.5-3.7% flicker.  The put-back stones wait for each other
    and for their neighbours' flickers past STALL_MS and go through as a
    stalled batch.  Returns (stalled, ms from the last stone to a clean
    batch showing them all, or -1 if none within 5 s)."""
    size = 9
    n = size * size
    board = bytearray(n)
    for pl in range(0, n, 3):
        board[pl] = 3  # occupancy sensors: every stone reads the same
    r = Rig(size, boot=False, scan_hz=hz, stable_ms=60 if hz == 50 else 30)
    r.scan[:] = board
    r.boot()
    seed = [11]
    last = []

    def scan():
        for pl in range(n):
            r.scan[pl] = board[pl]
        now = []
        while len(now) < per_scan:
            seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
            pl = (seed[0] >> 8) % n
            if pl not in last and pl not in now:
                now.append(pl)
        for pl in now:
            r.scan[pl] = 0 if board[pl] else 3
        last[:] = now
        r.feed()

    for _ in range(100):
        scan()
    put = list(range(1, n, 3))
    for pl in put:
        board[pl] = 3
        for _ in range(gap):
            scan()
    t0 = r.t
    stalled = False
    while r.t - t0 < 5000:
        scan()
        stalled = stalled or r.s._state[12]  # settle._STALLED
        if r.s.clean and all(r.s.stable[pl] == 3 for pl in put):
            return stalled, r.t - t0
    return stalled, -1


def check_stalled_put_back_comes_clean_under_flicker():
    """Seed 2200083 of the stress: after a cut while counting, 27 stones
    put back beside the stones that stayed, under 3% flicker, went through
    only after the stall, and the batch never came clean (the lights asked
    for the stones for good): some neighbour of some fresh stone had always
    flickered in the last k scans.  Each stone needs one look with its own
    neighbours settled."""
    out = []
    for hz, per_scan, gap in ((50, 2, 3), (50, 2, 2), (100, 3, 6)):
        stalled, ms = _put_back_under_flicker(hz, per_scan, gap)
        assert stalled, (hz, per_scan, gap)
        assert 0 <= ms <= 3000, (hz, per_scan, gap, ms)
        out.append("%d/s:%dms" % (hz, ms))
    return " ".join(out)



def check_flicker_makes_no_hand():
    """Stress seed 2300711: at 3% flicker, each place misread on its own
    every scan (so two-scan misreadings come too), a stone put down beside
    two of them was held hand_settle_ms as under a hand.  40 stones put
    down and lifted one at a time at 100 scans/s: each is taken within a
    noisy debounce, none waits out a hand."""
    size = 9
    n = size * size
    r = Rig(size, scan_hz=100, stable_ms=30)
    board = bytearray(n)
    seed = [3]

    def rnd(m):
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
        return (seed[0] >> 8) % m

    def scan():
        for pl in range(n):
            v = board[pl]
            if rnd(1000) < 30:
                v = 0 if v else 3
            r.scan[pl] = v
        r.feed()

    for _ in range(200):
        scan()
    worst = 0
    for _ in range(40):
        pl = rnd(n)
        board[pl] = 3
        t0 = r.t
        while r.s.stable[pl] != 3:
            scan()
            assert r.t - t0 < 2000
        worst = max(worst, r.t - t0)
        for _ in range(30):
            scan()
        board[pl] = 0
        while r.s.stable[pl] != 0:
            scan()
        for _ in range(30):
            scan()
    assert worst < r.config.hand_settle_ms, worst
    return "worst=%dms" % worst


def _flicker_history(r, scans):
    f = Flicker(r, far_rows(r.size, 4), 2)
    for _ in range(scans):
        f.step()
    f.stop()
    r.feed()


def check_restart_keeps_readings_resets_timing():
    # Two settlers with the same history; one restarts.
    a = Rig(9, stable_scans=3)
    b = Rig(9, stable_scans=3)
    for r in (a, b):
        r.adopt(3, 2)
        _flicker_history(r, 300)
        assert not r.s.resting
    stable = a.s.stable
    before = bytes(stable)
    a.s.restart()
    # The stones on the board have not moved: same buffer (the referee
    # holds it), same readings, same last scan; nothing pending.
    assert a.s.stable is stable and bytes(a.s.stable) == before
    assert bytes(a.s.last) == bytes(a.scan) and a.s.resting
    assert not a.feed()
    # Fresh timing: the debounce is back to stable_scans at once.
    fresh = a.adopt(0, 1)
    stale = b.adopt(0, 1)
    assert fresh == a.s.stable_scans < stale, (fresh, stale)
    # A hand's hold-off does not outlive a restart.
    r = Rig(9, stable_scans=3)
    for i in range(9):
        _hand(r, 3, 3, 1)
        r.feed()
    for pl in range(81):
        r.scan[pl] = 0
    r.scan[40] = 1
    r.s.restart()
    after_hand = 0
    while not r.feed():
        after_hand += 1
        assert after_hand < 30
    assert (after_hand + 1) * STEP < r.config.hand_settle_ms
    # restart() reads the configuration again.
    r.config.stable_ms = 5 * STEP
    r.s.restart()
    five = r.adopt(70, 2)
    assert five == 5, five
    return "fresh=%d stale=%d hand=%d five=%d" % (fresh, stale, after_hand + 1, five)


def check_wrong_size_scan_raises():
    r = Rig(9, stable_scans=3)
    r.adopt(5, 1)
    r.scan[6] = 2  # a stone half-way through settling
    r.feed()
    stable = bytes(r.s.stable)
    last = bytes(r.s.last)
    msgs = []
    for n in (80, 82, 0, 361):
        try:
            r.s.feed(bytearray(n), r.t + STEP)
        except ValueError as e:
            msgs.append(str(e))
        else:
            raise AssertionError("a %d-place scan was accepted" % n)
        assert bytes(r.s.stable) == stable and bytes(r.s.last) == last
    for m in msgs:
        assert "9x9" in m, m
    # The bad scans cost nothing: the settling stone needs its 2 more scans.
    assert not r.feed()
    assert r.feed() and r.s.stable[6] == 2
    return msgs[0]


# Physical timelines, the same at every scan rate (ms from the first
# scan): ("name", stones down beforehand (place, reading), changes (from_ms,
# to_ms, place, reading: the place reads so from from_ms until to_ms), ms to
# watch).  9x9, stable_ms 60, slide_ms 160, hand_window_ms 120,
# hand_settle_ms 300.
TIMELINES = (
    ("stone", (), ((0, 9999, 40, 1),), 400),
    ("touch 20 ms", (), ((0, 20, 50, 2),), 400),
    ("touch 40 ms", (), ((0, 40, 50, 2),), 400),
    ("two stones 20 ms apart", (), ((0, 9999, 10, 1), (20, 9999, 70, 2)), 400),
    ("beside its colour", ((30, 1),), ((0, 9999, 31, 1),), 500),
    ("slide, near end lifts 40 ms late", ((40, 2),), ((0, 9999, 41, 2), (40, 9999, 40, 0)), 500),
    ("slide, far end 20 ms late", ((40, 2),), ((0, 9999, 40, 0), (20, 9999, 41, 2)), 500),
    ("stone and its prisoner lifted 100 ms later", ((60, 2),),
     ((0, 9999, 61, 1), (100, 9999, 60, 0)), 500),
    ("hand over the board 100 ms, one stone left", (),
     ((0, 100, 0, 1), (0, 100, 1, 1), (0, 100, 9, 2), (0, 9999, 2, 1)), 800),
    ("neighbour flapping every 40 ms", ((20, 1),),
     ((0, 9999, 21, 1),) + tuple((t, t + 40, 20, 0) for t in range(0, 2600, 80)), 3000),
)


def _timeline(hz, before, changes, until):
    """One timeline at hz scans/s: what the settler did, as (ms, what)."""
    r = Rig(9, scan_hz=hz, stable_ms=60, slide_ms=160, hand_window_ms=120,
            hand_settle_ms=300)
    for pl, v in before:
        r.adopt(pl, v)
    r.rest(200)
    base = bytes(r.scan)
    t0 = r.t + r.step
    log = []
    clean = r.s.clean
    prev = bytes(r.s.stable)
    for i in range(until // r.step + 1):
        ms = i * r.step
        r.scan[:] = base
        for a, b, pl, v in changes:
            if a <= ms < b:
                r.scan[pl] = v
        assert r.t + r.step == t0 + ms
        if r.feed():
            now = bytes(r.s.stable)
            log.append((ms, "adopt " + ",".join(
                "%d=%d" % (pl, now[pl]) for pl in range(81) if now[pl] != prev[pl])))
            prev = now
        if r.s.clean != clean:
            clean = r.s.clean
            log.append((ms, "clean" if clean else "unclean"))
    return log


def check_same_in_ms_at_any_rate():
    """The same physical timeline at 50, 100 and 200 scans/s: the same
    batches, in the same order, each within one 50/s scan period (20 ms) of
    the other rates' (the thresholds are in ms, the scans only sample)."""
    out = []
    for name, before, changes, until in TIMELINES:
        logs = [_timeline(hz, before, changes, until) for hz in (50, 100, 200)]
        slow = logs[0]
        for hz, log in zip((100, 200), logs[1:]):
            assert [w for _, w in log] == [w for _, w in slow], (name, hz, log, slow)
            for (ms, what), (ms50, _) in zip(log, slow):
                assert abs(ms - ms50) <= 20, (name, hz, what, ms, ms50)
        out.append("%s: %s" % (name, "; ".join(
            "%s@%d/%d/%d" % (w, a, b, c) for (a, w), (b, _), (c, _) in zip(*logs))))
    return " | ".join(out)


CHECKS = (
    check_boot_votes_the_first_scans,
    check_adopted_after_k_equal_scans,
    check_interrupted_run_starts_again,
    check_single_scan_flicker_never_adopted,
    check_k_lengthens_under_flicker_and_recovers,
    check_hand_holds_off_until_settle_after_it_stops,
    check_slid_stone_two_ends_adopted_together,
    check_slide_gap_within_stable_scans_is_one_change,
    check_flapping_neighbour_holds_then_unclean,
    check_stalled_put_back_comes_clean_under_flicker,
    check_flicker_makes_no_hand,
    check_restart_keeps_readings_resets_timing,
    check_wrong_size_scan_raises,
    check_same_in_ms_at_any_rate,
)


def run_all():
    for check in CHECKS:
        try:
            text = check()
        except AssertionError as e:
            text = "FAIL %s" % (e,)
        print("%s: %s" % (check.__name__, text))


def heap_check():
    """MicroPython only: feed() allocates nothing on an unchanged resting
    scan, while a stone settles, or under flicker.  Prints one line each."""
    import micropython

    r = Rig(19)
    r.adopt(60, 1)
    r.adopt(300, 2)
    r.rest()
    s = r.s
    scan = r.scan
    assert s.resting
    t = r.t
    changed = 0
    micropython.heap_lock()
    try:
        for _ in range(500):
            t += STEP
            changed += s.feed(scan, t)
        res = "RESTING-NO-ALLOC"
    except MemoryError:
        res = "RESTING-ALLOCATED"
    micropython.heap_unlock()
    print(res, changed, s.resting)
    # A stone settling and single-scan flickers.
    scan[100] = 2
    micropython.heap_lock()
    try:
        for i in range(400):
            scan[200 + (i % 50)] = 1
            t += STEP
            changed += s.feed(scan, t)
            scan[200 + (i % 50)] = 0
            t += STEP
            changed += s.feed(scan, t)
        res = "SETTLING-NO-ALLOC"
    except MemoryError:
        res = "SETTLING-ALLOCATED"
    micropython.heap_unlock()
    print(res, changed, s.stable[100])
    micropython.heap_lock()
    try:
        x = [t, t]
        res = "LOCK-NOT-ENFORCED"
    except MemoryError:
        res = "LOCK-ENFORCED"
    micropython.heap_unlock()
    print(res)
