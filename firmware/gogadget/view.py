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
from gogadget.compat import const, forget

# Bits of Referee.mark, one byte per place.
M_REMOVE = const(1)  # a stone here must be lifted (prisoner, undone move)
M_STRAY = const(2)  # a stray stone stands here: never a move until lifted
M_DEAD = const(4)  # counting: place of a chain marked dead
M_CONTRA = const(8)  # the place contradicts the game since Referee.since[place]
M_SLID = const(16)  # counting: knocked off its point, to be put back (not dead)

# Referee.fault per place.
F_IGNORED = const(1)  # the person said the sensor is stuck: ignored until it agrees
_F_DRIVER = const(2)  # the driver reads the sensor as faulty (scan.S_FAULT)

_TICK_SHIFT = const(7)  # Referee.since keeps time in 128 ms units, 16 bits (2 h range)
# (Private: no other module reads them by name, so they are no names the
# board interns; viewplain.py and hw/vipergame.py hold copies.)



# The per-place pass of diff() as viper code on the RP2040 (hw/rp2fast.py
# installs it); None: viewplain.places, which does the same (and which the
# viper pass hands the rare places to: a sensor fault, a blind place).
_FAST = [None]
_PLAIN = [None]  # type: list  # viewplain.places, where no viper twin runs (the first Referee
# loads it, so a scan never does)


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
        places = _PLAIN[0]
        if places is None:
            # The RP2040: a sensor fault came or went, or a blind place is
            # beside a stone that went; the plain pass is loaded for it.
            from gogadget.viewplain import places
        if places(ref):
            places(ref)  # a blind place beside a stone that went: looked at anew
        if _PLAIN[0] is None:
            places = None
            forget("viewplain")
    asked = ref.ask_stuck
    if asked >= 0 and not ref.mark[asked] & M_CONTRA:
        ref.ask_stuck = -1  # put right (or faulty): the question is answered


def age_ms(now_ms, since):
    """Milliseconds from a 16-bit `since` tick to now (128 ms resolution)."""
    return (((now_ms >> _TICK_SHIFT) - since) & 0xFFFF) << _TICK_SHIFT


def beside(ref, pl, nb):
    """Are places pl and nb neighbours on the board?"""
    size = ref.size
    d = pl - nb
    return (d == 1 or d == -1) and pl // size == nb // size or d == size or d == -size


def mark_strays(ref, pl):
    """Stones put down while the position is not right are strays (but
    the one at pl, a stone that ended the count: Referee._state's _RESUMED;
    -1 for none)."""
    prompt = ref.prompt
    mark = ref.mark
    for p in range(ref.n):
        if prompt[p] == sg.P_REMOVE and not mark[p] & M_REMOVE and p != pl:
            mark[p] |= M_STRAY
