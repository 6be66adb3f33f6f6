"""What the person at the virtual board should do next, in words.

Both faces of the simulator (the Tk window, host_sim/faces/gui.py, and the
terminal, host_sim/faces/tui.py) show one line saying what to do next.  It is read
off the firmware's own outputs only: the referee's phase, the LED frame (the
lights are what the board waits for) and the referee's events.  No rule of Go
is re-implemented here, so the words cannot disagree with the lights.
"""
from gogadget import clockio, frame, points
from gogadget.points import BLACK, WHITE

WORDS = {BLACK: "Black", WHITE: "White"}
MAX_LISTED = 4  # vertices named in one instruction before "..."

# What each lit code means to the person, for legends (gui) and the text lights.
ILLEGAL_WORDS = {frame.ILLEGAL: "suicide", frame.KO: "ko", frame.SUPERKO: "superko"}


# The lights whose palette colour is shared: named by what they mean.
LIGHT_NAMES = {frame.OK_GREEN | frame.BLINK: "takeback/blink",
               frame.OK_GREEN | frame.DIM: "placed/dim"}


def light_name(code):
    """A frame code as a word: "put-black/blink", "territory-black/dim", "takeback/blink"."""
    if code in LIGHT_NAMES:
        return LIGHT_NAMES[code]
    name = frame.NAMES[code & 0x0F]
    pattern = code & 0xF0
    return name + {frame.BLINK: "/blink", frame.FAST: "/fast", frame.DIM: "/dim"}.get(pattern, "")


star_points = points.star_points  # the firmware's, as GTP showboard draws them


def lights(sim):
    """{code: [vertex, ...]} of every lit point, in place order."""
    out = {}
    for pl, code in sorted(sim.leds.lit().items()):
        out.setdefault(code, []).append(sim.vertex(pl))
    return out


def _named(vertices):
    if len(vertices) <= MAX_LISTED:
        return " ".join(vertices)
    return " ".join(vertices[:MAX_LISTED]) + " ..."


def _with(lit, colour, pattern=None):
    """Vertices lit in a palette colour (any pattern, or one pattern)."""
    found = []
    for code, where in lit.items():
        if code & 0x0F == colour and (pattern is None or code & 0xF0 == pattern):
            found += where
    return found


def turn_colour(sim):
    """Whose stone the turn light asks for (BLACK/WHITE), or None."""
    code = sim.leds.status(frame.STATUS_TURN) & 0x0F
    return BLACK if code == frame.PUT_BLACK else WHITE if code == frame.PUT_WHITE else None


def result_words(result):
    """ "B+3.5" -> "Black wins by 3.5 points"; "W+R" -> "White wins by resignation"."""
    if not result:
        return ""
    if result in ("0", "Draw", "draw"):
        return "a draw (equal scores)"
    who, _, margin = result.partition("+")
    name = {"B": "Black", "W": "White"}.get(who.upper())
    if name is None:
        return result
    if margin.upper() in ("R", "RESIGN"):
        return "%s wins by resignation" % name
    if margin.upper() in ("T", "TIME"):
        return "%s wins on time" % name
    if margin in ("0", ""):
        return "%s wins (equal scores go to %s)" % (name, name)
    return "%s wins by %s point%s" % (name, margin, "" if margin == "1" else "s")


def current_count(sim):
    """The last count the referee announced in this counting phase ("B+3.5"), or ""."""
    for _, kind, text in reversed(sim.events):
        if kind != "count":
            if kind in ("move", "pass", "undo", "new-game"):
                return ""
            continue
        if " " not in text:
            return text
        return ""  # "two passes: ..." came after any count: none yet
    return ""


def takeback_waiting(sim, lit):
    """Vertices of the stone (and prisoners) of a take-back waiting for Confirm.

    The take-back light says so; so does the referee's "take-back ready"
    event while the last move's point is still lit to be put back."""
    lights_on = _with(lit, frame.OK_GREEN, frame.BLINK)
    if lights_on:
        return lights_on
    ready = False
    for _, kind, text in reversed(sim.events):
        if kind == "prompt" and text.startswith("take-back ready"):
            ready = True
        elif kind == "move" and ready:
            where = text.split()[-1]
            asked = _with(lit, frame.PUT_BLACK, frame.BLINK) + _with(lit, frame.PUT_WHITE, frame.BLINK)
            return [where] if where in asked else []
        elif kind in ("move", "pass", "undo", "new-game", "result", "resume", "count"):
            return []
    return []


def _fix_first(sim, lit):
    """The stone handling the board waits for, in any phase ("" if none)."""
    bad = []
    for colour, word in ILLEGAL_WORDS.items():
        where = _with(lit, colour)
        if where:
            bad.append("%s is illegal (%s): lift that stone" % (_named(where), word))
    if bad:
        return "; ".join(bad) + " and play elsewhere"
    wrong = _with(lit, frame.WRONG_COLOUR)
    if wrong:
        want = turn_colour(sim)
        stones = sim.stones
        text = []
        for v in wrong:
            have = stones.cells[stones.place(v)]
            if have in WORDS:
                text.append("%s holds a %s stone" % (v, WORDS[have].lower()))
            else:
                text.append("%s has the wrong colour" % v)
        fix = "; ".join(text)
        if sim.referee.phase == "play" and want in WORDS:
            return "%s, but %s is to play: lift it and put down a %s stone" % (
                fix, WORDS[want], WORDS[want].lower())
        return fix + ": turn it over or swap it for the other colour"
    asks = []
    for code, word in ((frame.PUT_BLACK, "black"), (frame.PUT_WHITE, "white")):
        where = _with(lit, code, frame.BLINK)
        if where:
            asks.append("put a %s stone on %s" % (word, _named(where)))
    lift = _with(lit, frame.REMOVE)
    if lift:
        asks.append("lift the stone%s on %s" % ("s" if len(lift) > 1 else "", _named(lift)))
    return ", and ".join(asks)


def next_step(sim):
    """One line: what the person should do now."""
    ref = sim.referee
    phase = ref.phase
    lit = lights(sim)
    faults = _with(lit, frame.FAULT)
    fault = ("; sensor under %s faulty or stuck: it is ignored until it reads right"
             % _named(faults)) if faults else ""
    if phase == "over":
        words = result_words(ref.result)
        return ("game over: %s (%s); press New game, or clear the board, for the next game"
                % (words, ref.result) if words else
                "game over; press New game, or clear the board, for the next game")
    if phase == "count":
        count = current_count(sim)
        fix = _fix_first(sim, lit)
        text = "two passes: lift dead stones, then Confirm (put a stone back to revive it)"
        if count:
            text += "; count now %s" % count
        if fix:
            text = fix + "; " + text
        return text + fault
    if phase == "resume":
        fix = _fix_first(sim, lit)
        return "after a power cut: set the position up again: " + (fix or "wait") + fault
    if phase == "setup":
        placed = _with(lit, frame.OK_GREEN, frame.DIM)
        if placed or (ref.handicap and not _with(lit, frame.PUT_BLACK)):
            if len(placed) >= ref.handicap:
                return ("handicap: all %d black stones placed: press Confirm" % ref.handicap
                        + fault)
            return ("handicap: %d of %d black stones placed; place them anywhere, then Confirm"
                    % (len(placed), ref.handicap)) + fault
        fix = _fix_first(sim, lit)
        if fix:
            return ("handicap: " if ref.handicap else "set-up: ") + fix + fault
        return "set-up: clear the board" + fault
    # play
    study = getattr(ref, "study", None)
    if study is not None and study.state in (3, 4, 0):  # study.S_RIGHT, S_WRONG, S_NONE
        fix = _fix_first(sim, lit)
        text = {3: "solved: New for the next problem (Confirm too), Pass for the previous",
                4: "wrong: Confirm takes the try back; held Pass sets the problem up again",
                0: "study: no problem here: New for the next, held New to leave"}[study.state]
        return (fix + "; " if fix and study.state != 4 else "") + text + fault
    takeback = takeback_waiting(sim, lit)
    if takeback:
        return ("take-back of %s ready: press Confirm to take back (put the stone back to go on)"
                % _named(takeback)) + fault
    fix = _fix_first(sim, lit)
    turn = turn_colour(sim)
    who = WORDS.get(turn, "")
    if fix:
        return fix + ("; then %s to play" % who if who and not _with(lit, frame.WRONG_COLOUR)
                      else "") + fault
    if who:
        return "%s to play: put a %s stone down, or press Pass" % (who, who.lower()) + fault
    return "play on" + fault


def detail(sim):
    """The game's figures, without a turn outside play ("move 12, prisoners B 1 W 0")."""
    ref = sim.referee
    b = ref.board
    text = "%s: move %d, prisoners B %d W %d" % (ref.phase, b.moves, b.prisoners[BLACK],
                                                  b.prisoners[WHITE])
    if ref.result:
        text += ", result " + ref.result
    clock = clock_words(ref)
    if clock:
        text += "\n" + clock
    return text


def clock_words(ref):
    """Both clocks, the running one marked ("clock: B 4:59 <  W 5:00 x3"),
    "" without a time control (docs/CLOCK.md)."""
    clock = getattr(ref, "clock", None)
    if clock is None:
        return ""
    parts = []
    for colour, name in ((BLACK, "B"), (WHITE, "W")):
        text = "%s %s" % (name, clockio.text(clock, colour, getattr(ref, "now", None)))
        if clock.running == colour or clock.remote_turn and clock.remote_run == colour:
            text += " <"  # (a remote player's: running at their board)
        elif clock.flagged == colour:
            text += " out of time"
        parts.append(text)
    text = "clock: " + "   ".join(parts)
    if clock.paused:
        text += "   (paused: press Confirm)"
    elif not clock.started:
        text += "   (starts with the first move)"
    return text


def resume_news(events):
    """The index in events of the resume worth saying at start (a kept game
    resumed, or the last game's result), or None: none was resumed, or a
    new game followed it (--new), so there are no stones to put back."""
    found = None
    for i, (_, kind, text) in enumerate(events):
        if kind == "resume" and not text.startswith("resumed 0 "):
            found = i
        elif kind == "new-game":
            found = None
    return found
