"""The comparison at the heart of the referee: the settled view of the board
against what the game says belongs there (Referee.want), place by place.

diff() writes one prompt (signals.P_*) per place and counts what it found:
new stones (extras), missing stones, stones of the wrong colour, and
prisoners still to lift (pending).  Every phase starts from it.

It also remembers since when each place has contradicted the game.  A place
that contradicts it for stuck_ms (outside counting and take-backs) makes
the board ask whether its sensor is stuck (ask_stuck), while its light
goes on asking for the stone to be put right:
the person answers by putting the stone right, or by pressing Confirm to
have the sensor ignored until it agrees with the game again.  The board
never decides that on its own: a slow person is not a broken sensor.

An ignored place is blind: its light shows the fault, and the board takes
it to hold what the game says.  A stone slid onto it would go unseen, so
when a stone of the game goes missing beside a blind place that should be
empty (play phase), the board cannot tell a stone knocked off the board
from one slid onto the blind place: it stops ignoring that place and asks
about it at once, naming it ("check F9 ..."); its light asks as any other
place's does (a stone there is a stray, never a move).  The person lifts
what is there, or presses Confirm to have the sensor ignored again.
"""
from gogadget import signals as sg
from gogadget.compat import const
from gogadget.points import EMPTY, BLACK, vertex
from gogadget.scan import S_EMPTY, S_STONE, S_FAULT

# Bits of Referee.mark, one byte per place.
M_REMOVE = const(1)  # a stone here must be lifted (prisoner, undone move)
M_STRAY = const(2)  # a stray stone stands here: never a move until lifted
M_DEAD = const(4)  # counting: place of a chain marked dead
M_CONTRA = const(8)  # the place contradicts the game since Referee.since[place]
M_SLID = const(16)  # counting: knocked off its point, to be put back (not dead)

# Referee.fault per place.
_F_IGNORED = const(1)  # the person said the sensor is stuck: ignored until it agrees
F_DRIVER = const(2)  # the driver reads the sensor as faulty (S_FAULT)

TICK_SHIFT = const(7)  # Referee.since keeps time in 128 ms units, 16 bits (2 h range)

# Prompts the stuck-sensor question may follow: a stone to put right.
_ASKABLE = (sg.P_PUT_BLACK, sg.P_PUT_WHITE, sg.P_REMOVE, sg.P_WRONG_COLOUR, sg.P_ILLEGAL,
            sg.P_KO, sg.P_SUPERKO)


# The per-place pass of diff() as viper code on the RP2040 (hw/rp2fast.py
# installs it); None: the plain _places, which does the same.
_FAST = [None]


def use_fast(places):
    """Run diff's pass as the given (viper) function: places(ref) returns
    -1 when a sensor fault appears or clears (an event naming the place):
    the plain pass then runs from the start (a place done twice comes out
    as done once), else 0."""
    _FAST[0] = places


def diff(ref):
    """Prompts for every place where the board and the game disagree; sets
    the counts the phases decide on.  Allocates nothing (events aside)."""
    if _FAST[0] is None or _FAST[0](ref) < 0:
        if _places(ref):
            _places(ref)  # a blind place beside a stone that went: looked at anew
    asked = ref.ask_stuck
    if asked >= 0 and not ref.mark[asked] & M_CONTRA:
        ref.ask_stuck = -1  # put right (or faulty): the question is answered


def _places(ref):
    """diff's pass over every place (hw/rp2fast.py's diff_places is its
    viper twin: tests/test_rp2_fast.py).  True when a blind place beside a
    stone that went is no longer ignored (see the notes): the places before
    it in this pass need doing again."""
    scan = ref.stable
    want = ref.want
    prompt = ref.prompt
    mark = ref.mark
    fault = ref.fault
    since = ref.since
    now = (ref.now >> TICK_SHIFT) & 0xFFFF
    extras = missing = wrong = pending = 0
    ncontra = 0
    oldest = now
    age = 0
    ref.has_fault = False
    ref.extra = -1
    ref.missing = -1
    again = False
    for pl in range(ref.n):
        s = scan[pl]
        w = want[pl]
        if s == S_FAULT:
            if fault[pl] != F_DRIVER:
                fault[pl] = F_DRIVER
                ref.event("fault", "sensor %s faulty" % vertex(ref.size, ref.pt(pl)))
            prompt[pl] = sg.P_FAULT
            ref.has_fault = True
            mark[pl] &= ~M_CONTRA
            continue
        if fault[pl] == F_DRIVER or (fault[pl] and (s == S_EMPTY) == (w == EMPTY)):
            # The driver's fault cleared, or an ignored place agrees with the
            # game again: trust it.
            fault[pl] = 0
            ref.event("fault", "sensor %s ok" % vertex(ref.size, ref.pt(pl)))
        if fault[pl]:
            prompt[pl] = sg.P_FAULT
            ref.has_fault = True
            mark[pl] &= ~M_CONTRA
            continue
        m = mark[pl]
        p = sg.P_NONE
        if w == EMPTY:
            if s == S_EMPTY:
                m &= ~(M_REMOVE | M_STRAY)
            elif m & M_REMOVE:
                p = sg.P_REMOVE
                pending += 1
            else:
                p = sg.P_REMOVE
                extras += 1
                ref.extra = pl
        elif s == S_EMPTY:
            p = sg.P_PUT_BLACK if w == BLACK else sg.P_PUT_WHITE
            missing += 1
            ref.missing = pl
            if not m & M_CONTRA and _blind_beside(ref, pl):
                again = True
        elif s != S_STONE and s != w:
            p = sg.P_WRONG_COLOUR
            wrong += 1
        prompt[pl] = p
        # A prisoner still down counts too: a switch held closed by the
        # neighbours' field looks just like one (hardware/README, the reed).
        if p != sg.P_NONE:
            if not m & M_CONTRA:
                m |= M_CONTRA
                since[pl] = now
            elif (now - since[pl]) & 0xFFFF > age:
                age = (now - since[pl]) & 0xFFFF
                oldest = since[pl]
            ncontra += 1
        else:
            m &= ~M_CONTRA
        mark[pl] = m
    ref.extras = extras
    ref.missings = missing
    ref.wrong = wrong
    ref.pending = pending
    ref.ncontra = ncontra
    ref.oldest = oldest
    ref.unresolved = extras + missing + wrong + pending
    return again


def _blind_beside(ref, pl):
    """The stone at pl just went: a blind (ignored) empty place beside it
    may have got it.  True if one is asked about now (_unblind)."""
    size = ref.size
    col = pl % size
    found = pl >= size and _unblind(ref, pl - size, pl)
    found = pl + size < ref.n and _unblind(ref, pl + size, pl) or found
    found = col > 0 and _unblind(ref, pl - 1, pl) or found
    return col < size - 1 and _unblind(ref, pl + 1, pl) or found


def _unblind(ref, nb, pl):
    """Stop ignoring nb if it is blind and should be empty, and ask about it."""
    if ref.fault[nb] != _F_IGNORED or ref.want[nb] != EMPTY or ref.stable[nb] == S_EMPTY \
            or ref.phase != "play":
        return False  # (one that reads empty agrees: the pass clears it)
    ref.fault[nb] = 0
    ref.mark[nb] |= M_STRAY  # whatever it reads is not a move
    ref.ask_stuck = nb
    size = ref.size
    there = vertex(size, ref.pt(nb))
    ref.event("fault", "check %s (its sensor is ignored): the stone at %s went, and one slid "
              "onto %s is not seen; lift any stone there, or press Confirm to ignore the "
              "sensor again" % (there, vertex(size, ref.pt(pl)), there))
    return True


def age_ms(now_ms, then):
    """Milliseconds from a 16-bit `since` tick to now (128 ms resolution)."""
    return (((now_ms >> TICK_SHIFT) - then) & 0xFFFF) << TICK_SHIFT


def ask_stuck(ref, now_ms):
    """Ask about the place that has contradicted the game longest, if it
    has for stuck_ms and its light only asks for a stone to be put right."""
    mark = ref.mark
    since = ref.since
    prompt = ref.prompt
    limit = ref.config.stuck_ms
    best = -1
    best_age = 0
    for pl in range(ref.n):
        if mark[pl] & M_CONTRA and prompt[pl] in _ASKABLE:
            a = age_ms(now_ms, since[pl])
            if a >= limit and a > best_age:
                best = pl
                best_age = a
    if best >= 0:
        ref.ask_stuck = best
        ref.event("fault", "sensor %s stuck? put the stone right, or press Confirm to ignore it"
                  % vertex(ref.size, ref.pt(best)))
    return best


def ignore_sensor(ref, pl):
    """The person's answer: the sensor at pl is stuck; ignore it until it
    agrees with the game again."""
    ref.fault[pl] = _F_IGNORED
    ref.mark[pl] &= ~M_CONTRA
    ref.ask_stuck = -1
    ref.event("fault", "sensor %s stuck: ignored until it agrees with the game"
              % vertex(ref.size, ref.pt(pl)))
