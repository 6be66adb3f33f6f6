"""Referee state -> LED frame: the only place prompts get their look.

The referee writes one prompt kind (P_*) per place into its `prompt`
bytearray and knows nothing about colours or blink patterns; paint() turns
prompts and the status of the game into frame codes (frame.py), and keeps
the global brightness low enough that no frame, whatever is lit, can draw
more than the current budget.
"""
from gogadget import frame as fr
from gogadget.compat import const
from gogadget.points import BLACK, WHITE

# What the referee wants shown on a place.
P_NONE = const(0)
P_LAST = const(1)  # the last move
P_PUT_BLACK = const(2)  # a black stone belongs here: put back, engine move, set-up
P_PUT_WHITE = const(3)
P_REMOVE = const(4)  # a captured stone, a slid stone's new spot, one of several new stones
P_ILLEGAL = const(5)  # suicide
P_KO = const(6)
P_SUPERKO = const(7)
P_WRONG_COLOUR = const(8)
P_FAULT = const(9)  # the sensor under this place is stuck or out of range
P_TERRITORY_BLACK = const(10)
P_TERRITORY_WHITE = const(11)
P_DEAD = const(12)  # a stone of a chain marked dead, still on the board
_P_DIGIT = const(13)  # (read by no other module: no name)
P_TAKEBACK = const(14)  # the board shows the position before the last move: confirm?
P_PLACED = const(15)  # a free handicap stone, counted, waiting for confirm
# Read by one module each, which holds a copy (no names the board interns
# at boot): study.py's verdicts, hintshow.py's engine advice.
_P_RIGHT = const(16)  # study: a problem solved (a ring round the board's edge)
_P_WRONG = const(17)  # study: a wrong try (a cross over the board)
_P_HINT = const(18)  # an engine's candidate move (hintshow.py)
_P_HINT_BEST = const(19)  # the engine's best move

# Prompt -> frame code.  Things to do blink (1 Hz), things that are wrong
# flash (two short flashes a second), information is steady or dim: a light
# is told by its rhythm as well as its colour (frame.on).  A point whose
# sensor cannot be read (or is ignored) is steady: nothing to do there.
CODES = (
    fr.OFF,
    fr.LAST,
    fr.PUT_BLACK | fr.BLINK,
    fr.PUT_WHITE | fr.BLINK,
    fr.REMOVE | fr.BLINK,
    fr.ILLEGAL | fr.FAST,
    fr.KO | fr.FAST,
    fr.SUPERKO | fr.FAST,
    fr.WRONG_COLOUR | fr.FAST,
    fr.FAULT,
    fr.TERRITORY_BLACK | fr.DIM,
    fr.TERRITORY_WHITE | fr.DIM,
    fr.DEAD | fr.BLINK,
    fr.DIGIT,
    fr.OK_GREEN | fr.BLINK,
    fr.OK_GREEN | fr.DIM,
    fr.OK_GREEN,
    fr.ILLEGAL | fr.BLINK,
    fr.INFO | fr.DIM,
    fr.INFO,
)

PHASE_CODES = {
    "setup": fr.INFO | fr.BLINK,
    "play": fr.OK_GREEN | fr.DIM,
    "count": fr.INFO,
    "over": fr.DIGIT,
    "resume": fr.INFO | fr.FAST,
}

# Alert levels the referee raises, most urgent last.
ALERT_NONE = const(0)
ALERT_PROMPT = const(1)  # something on the board is waiting for the person
ALERT_FAULT = const(2)  # a sensor fault
ALERT_ERROR = const(3)  # the journal was damaged and recovered
# A prompt is information (dim, neutral: not the orange of "remove"); a
# stone the board merely waits for (an engine's move) raises none.
ALERT_CODES = (fr.OFF, fr.INFO | fr.DIM, fr.FAULT | fr.FAST, fr.ILLEGAL | fr.BLINK)


def brightness_cap(leds, budget_ma, max_brightness=255):
    """Highest global brightness at which `leds` LEDs, every one lit in the
    hungriest colour, stay within budget_ma (idle current included)."""
    spare = budget_ma - leds * fr.MA_IDLE
    if spare <= 0:
        return 0
    worst = 0  # the hungriest palette colour at full brightness
    for r, g, b in fr.PALETTE:
        if r + g + b > worst:
            worst = r + g + b
    cap = spare * 255 * 255 // (leds * worst * fr.MA_PER_CHANNEL)
    return min(cap, max_brightness, 255)


def estimate_ma(frame):
    """Worst-case current of one frame (blinking lights counted as lit)."""
    b = frame[0]
    total = 0.0
    for i in range(1, len(frame)):
        total += fr.MA_IDLE
        code = frame[i]
        if code & 0x0F == fr.OFF:
            continue
        r, g, bl = fr.PALETTE[code & 0x0F]
        eff = b >> 2 if code & 0xF0 == fr.DIM else b
        total += (r + g + bl) * fr.MA_PER_CHANNEL / 255 * eff / 255
    return total


# paint's pass over the places as viper code on the RP2040 (hw/rp2fast.py
# installs it with use_fast): the function and CODES as bytes.
_FAST = [None, None]  # type: list


def use_fast(fast):
    _FAST[1] = bytes(CODES)
    _FAST[0] = fast  # hw/viperleds.paint_places


def paint(frame, prompt, colour, phase, alert, brightness):
    """Fill `frame` from the prompts and the status (allocates nothing).

    colour: BLACK/WHITE whose stone is expected (or the winner when over,
    0 for none); phase: the referee's phase name; alert: ALERT_*."""
    frame[0] = brightness
    n = len(prompt)
    if _FAST[0] is not None:
        _FAST[0](frame, prompt, _FAST[1], n)
    else:
        codes = CODES
        for i in range(n):
            frame[1 + i] = codes[prompt[i]]
    base = 1 + n
    if colour == BLACK:
        frame[base + fr.STATUS_TURN] = fr.PUT_BLACK
    elif colour == WHITE:
        frame[base + fr.STATUS_TURN] = fr.PUT_WHITE
    else:
        frame[base + fr.STATUS_TURN] = fr.INFO | fr.DIM
    frame[base + fr.STATUS_PHASE] = PHASE_CODES[phase]
    frame[base + fr.STATUS_ALERT] = ALERT_CODES[alert]


def draw_text(prompt, size, text, scroll, span=0):
    """Draw text, as font columns (font.render), into the prompt grid as
    digits (_P_DIGIT), vertically centred; column 0 lands at x = -scroll.
    With a span the text repeats every span columns (a ticker for text
    wider than the board)."""
    for i in range(len(prompt)):
        prompt[i] = P_NONE
    top = (size - 5) // 2  # glyph row 0 lands on board row size-1-top
    if top < 0:
        top = 0
    for x in range(size):
        k = x + scroll
        if span:
            k %= span
        if k < 0 or k >= len(text):
            continue
        m = text[k]
        for r in range(5):
            if m & (1 << r):
                row = size - 1 - top - r
                if 0 <= row < size:
                    prompt[row * size + x] = _P_DIGIT
