"""The LED frame: what every light under the board shows.

A frame is a bytearray of 1 + size*size + STATUS_PIXELS bytes:

* frame[0] is the global brightness (0..255), already limited by the
  composer so the whole frame stays inside the current budget;
* frame[1 + place] is the code for that intersection;
* the STATUS_PIXELS after them are the status lights at the end of the chain.

A code is a palette colour (low nibble) plus a pattern (high nibble).  The
palette is the only place colours are defined; drivers turn codes into RGB
with rgb().
"""
from gogadget.compat import const

STATUS_PIXELS = const(3)
STATUS_TURN = const(0)  # whose turn / whose stone is expected
STATUS_PHASE = const(1)  # playing, counting, finished, set-up
STATUS_ALERT = const(2)  # faults, journal recovery, host link activity

# Patterns (high nibble).  Blink phases come from the frame clock, so every
# light with the same pattern blinks together.  The two blinking patterns
# differ in rhythm, not only in rate, so a light is told by its motion as
# well as its colour (a colour-blind player tells "remove" from "illegal"):
# their timing is defined once, in on(); hw/leds.py asks it.
STEADY = const(0x00)
BLINK = const(0x10)  # 1 Hz, on half the time: "do something here"
FAST = const(0x20)  # two short flashes a second: "this is wrong"
DIM = const(0x30)  # quarter brightness: information, no action needed
FLASH_MS = const(125)  # FAST: on, off, on for FLASH_MS each, then dark to the second

# Palette (low nibble): meaning -> colour.
OFF = const(0)
LAST = const(1)  # marks the last move
ILLEGAL = const(2)  # suicide or occupied by a misplaced stone
KO = const(3)  # ko (simple or previous-position) recapture
SUPERKO = const(4)
REMOVE = const(5)  # captured stone still on the board, or a stone to lift
PUT_BLACK = const(6)  # a black stone belongs here (put back, engine move, set-up)
PUT_WHITE = const(7)  # a white stone belongs here
WRONG_COLOUR = const(8)
TERRITORY_BLACK = const(9)
TERRITORY_WHITE = const(10)
DEAD = const(11)  # stones marked dead while counting
DIGIT = const(12)  # score digits
FAULT = const(13)  # a sensor that is stuck or out of range
OK_GREEN = const(14)  # confirmations, calibration progress
INFO = const(15)  # neutral status

# Full-brightness RGB per palette entry, chosen to be told apart on
# WS2812B under a wooden board and by people with red-green colour blindness
# (illegal is red/magenta/purple, prompts are blue/white/orange).
PALETTE = (
    (0, 0, 0),  # OFF
    (90, 90, 60),  # LAST
    (255, 0, 0),  # ILLEGAL
    (255, 0, 160),  # KO
    (140, 0, 255),  # SUPERKO
    (255, 110, 0),  # REMOVE
    (0, 60, 255),  # PUT_BLACK
    (200, 200, 200),  # PUT_WHITE
    (255, 200, 0),  # WRONG_COLOUR
    (0, 30, 140),  # TERRITORY_BLACK
    (120, 120, 120),  # TERRITORY_WHITE
    (120, 40, 0),  # DEAD
    (0, 200, 40),  # DIGIT
    (255, 40, 0),  # FAULT
    (0, 255, 0),  # OK_GREEN
    (60, 60, 255),  # INFO
)
NAMES = ("off", "last", "illegal", "ko", "superko", "remove", "put-black", "put-white",
         "wrong-colour", "territory-black", "territory-white", "dead", "digit", "fault",
         "ok", "info")

# WS2812B: about 20 mA per fully lit channel (60 mA white), ~1 mA idle.
MA_PER_CHANNEL = const(20)
MA_IDLE = const(1)


def new_frame(size):
    f = bytearray(1 + size * size + STATUS_PIXELS)
    f[0] = 255
    return f


def on(code, now_ms):
    """Is a light of this code's pattern (its high nibble: BLINK, FAST ...)
    on at this moment (now_ms) of the frame clock?  (The one definition of
    the blink rhythms.)"""
    pattern = code & 0xF0
    if pattern == BLINK:
        return now_ms % 1000 < 500
    if pattern == FAST:
        t = now_ms % 1000
        return t < FLASH_MS or 2 * FLASH_MS <= t < 3 * FLASH_MS
    return True


def rgb(code, brightness, now_ms=0):
    """RGB the LED should show for a code at a global brightness (0..255),
    at this moment of the frame clock (blink patterns)."""
    if code & 0x0F == OFF or not on(code, now_ms):
        return (0, 0, 0)
    r, g, b = PALETTE[code & 0x0F]
    if code & 0xF0 == DIM:
        brightness >>= 2
    return (r * brightness // 255, g * brightness // 255, b * brightness // 255)
