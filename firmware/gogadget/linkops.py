"""The GTP commands a controller sends once a game or less, loaded for the command and let go."""
# (a game's SGF, the stored games, a new game or a set-up, a replay, a
# remote opponent's word, the marked stones, a result told, a text shown,
# the config: link.Link._run calls the function of the handler's name with
# the Link, so the link a host holds keeps only what runs every move)
from gogadget import journal
from gogadget.compat import forget, ticks_add
from gogadget.gtp import GtpError, _int
from gogadget.points import BLACK, PASS


def sgf(link, args):
    return _no_blank_lines(link.referee.sgf())


def games(link, args):
    if not link.store:
        return ""
    return "\n".join(journal.game_names(link.store))


def _read_game(link, args):
    link._args(args, 1)
    name = args[0]
    # Stored games are NNNN.sgf (journal.save_game): the only names the
    # link serves, so no path can reach outside the game folder.
    if not (len(name) == 8 and name.endswith(".sgf") and name[:4].isdigit()
            and "/" not in name and "\\" not in name):
        raise GtpError("bad game name (expected NNNN.sgf)")
    if not link.store:
        raise GtpError("no game folder")
    try:
        with open(link.store + "/" + name) as f:
            return f.read()
    except OSError:
        raise GtpError("no such game " + name)


def fetch(link, args):
    return _no_blank_lines(_read_game(link, args))


def new(link, args):
    """gogadget-new [size=N] [komi=K] [handicap=H] [rules=PRESET]
    [placement=free|fixed] (free: Black places the handicap where it likes,
    whatever the preset says, as an online game's free handicap)."""
    opts = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep or key not in ("size", "komi", "handicap", "rules", "placement"):
            raise GtpError("expected size=N komi=K handicap=H rules=PRESET placement=free, got "
                           + a)
        if key == "placement" and value not in ("free", "fixed"):
            raise GtpError("placement is free or fixed")
        try:
            opts[key] = value if key in ("rules", "placement") else (
                float(value) if key == "komi" else int(value))
        except ValueError:
            raise GtpError("bad value for " + key)
    link._new_game(size=opts.get("size"), komi=opts.get("komi"),
                   handicap=opts.get("handicap"), preset=opts.get("rules"),
                   free=opts.get("placement") == "free")
    return ""


def setup(link, args):
    """gogadget-setup [b V V ...] [w V V ...]: a position for the person to
    set up by LED prompts (no arguments: the empty board)."""
    colour = 0
    stones = []
    seen = set()
    for a in args:
        if a.lower() in ("b", "black", "w", "white"):
            colour = link._colour(a)
            continue
        if not colour:
            raise GtpError("colour expected before " + a)
        pt = link._vertex(a)
        if pt == PASS or pt in seen:
            raise GtpError("bad vertex " + a)
        seen.add(pt)
        stones.append((colour, pt))
    link._new_game(stones)
    return ""


def guide(link, args):
    """gogadget-replay NAME | stop: guide the person through a stored game."""
    if args and args[0] == "stop":
        link.replay = None
        return ""
    text = _read_game(link, args)
    from gogadget import sgf
    try:
        game = sgf.parse(text)
    except ValueError as e:
        raise GtpError("cannot load %s: %s" % (args[0], e))
    finally:
        text = sgf = None
        forget("sgf", "sgfread")  # rare: on the .mpy path its bytecode need not stay on the heap
    link._new_game(size=game.size, komi=game.komi)
    if game.setup:
        link._new_game(game.setup)
    from gogadget.guide import Replay
    link.replay = Replay(link, game)  # (it holds its class: the module can go)
    Replay = None
    forget("guide")
    return str(len(game.moves))


def remote(link, args):
    """gogadget-remote colour B|W|none | ask-undo N | resign B|W | count |
    confirm-count | clock MS N RUNNING [TOOK_MS]: a remote opponent played
    through the host (`gogadget remote`, gogadget.pairing.Remote on the
    host): its moves come as `play`; `clock` is their clock as their
    board says it (clock.Clock.theirs)."""
    link._args(args, 1, 5)  # (clock, with its numbers: Link.remote's own)
    ref = link.referee
    what = args[0]
    if len(args) > 2:
        raise GtpError("syntax error")
    if what == "colour":
        link._args(args, 2)
        ref.remote = 0 if args[1] == "none" else link._colour(args[1])
        return ""
    if what == "ask-undo":
        link._args(args, 2)
        n = _int(args[1])
        if n and n == ref.board.moves and ref.ask_undo != n:
            ref.event("prompt", "opponent takes back move %d: press Confirm" % n)
        ref.ask_undo = n
        return ""
    if what == "resign":
        link._args(args, 2)
        if ref.phase not in ("play", "count"):
            raise GtpError("no game to resign")
        ref.resign(link._colour(args[1]))
        return ""
    if what == "count":
        if ref.phase != "count":
            raise GtpError("not counting")
        return ref.count_result()
    if what == "confirm-count":
        if ref.phase != "count":
            raise GtpError("not counting")
        ref.confirm_count()
        return ref.result
    raise GtpError("expected colour, ask-undo, resign, count or confirm-count")


def marked(link, args):
    """gogadget-marked: the stones marked dead by lifting them while
    counting (kept once the count is confirmed), so a host can propose them
    as an online game's removed stones."""
    link._args(args, 0)
    from gogadget.view import M_DEAD
    ref = link.referee
    if ref.phase != "count" and ref.phase != "over":
        return ""
    mark = ref.mark
    return link.vertices([ref.pt(pl) for pl in range(ref.n) if mark[pl] & M_DEAD])


def result(link, args):
    """gogadget-result RESULT: the game ended off the board -- the opponent
    resigned or a clock ran out on an online server, or the server's agreed
    count differs from the board's.  RESULT is B+R, W+T, B+F, B+3.5 or 0.
    Journalled first, so a power cut keeps it; a game already over gets the
    new result in its kept record."""
    link._args(args, 1)
    from gogadget import counting
    from gogadget import journal as jn
    from gogadget.gamelog import RESULT_WORDS
    text = args[0].upper()
    ref = link.referee
    if ref.phase not in ("play", "count", "over"):
        raise GtpError("no game to end")
    if text == "0":
        winner = 0
        value = 0
    else:
        if len(text) < 3 or text[0] not in "BW" or text[1] != "+":
            raise GtpError("expected B+R, W+T, B+F, B+3.5 or 0, got " + args[0])
        winner = BLACK if text[0] == "B" else 3 - BLACK
        word = text[2:]
        value = -1
        for code in RESULT_WORDS:
            if RESULT_WORDS[code] == word:
                value = code
        if word == "R":
            value = 0
        elif value < 0:
            try:
                value = int(float(word) * 2 + 0.5)
            except ValueError:
                raise GtpError("bad margin " + word)
            if not 0 < value < 0xFF00:
                raise GtpError("bad margin " + word)
    if ref.result == text:
        return ""
    if text[2:] == "R":
        ref.log.append(ref, jn.K_RESIGN, 3 - winner)
    else:
        ref.log.append(ref, jn.K_RESULT, winner, value)
    if ref.phase != "over":
        ref.event("result", text + " (told by the host)")
        counting.finish(ref, winner, text)
        return ""
    # Already counted at the board: the told result replaces the board's
    # own, on the LEDs and in the game's kept record.
    ref.result = text
    counting.over(ref, winner)
    ref.event("result", text + " (told by the host)")
    path = "%s/%04d.sgf" % (link.store, ref.log.game)
    if link.store and journal._exists(path):
        from gogadget import sgf
        try:
            with open(link.store + "/game.tmp", "w") as f:
                sgf.write_record(f, ref.board, ref.rules, ref.komi, text, ref.date(),
                                 ref.clock)
            journal._replace(link.store + "/game.tmp", path)
            journal._sync()
        finally:
            sgf = None
            forget("sgf")
    ref.refresh()
    return ""


def show(link, args):
    """gogadget-show TEXT [MS]: TEXT (digits, B W R + - . ; a clock, a
    count) drawn across the board in the result's font for MS ms (default
    3000) in place of the prompts; a stone or a button ends it at once.
    Refused while a stone is waiting to be placed or lifted: the board never
    hides what it asks for."""
    link._args(args, 1, 2)
    ref = link.referee
    ms = _int(args[1]) if len(args) > 1 else 3000
    if not 0 < ms <= 60000:
        raise GtpError("MS must be 1..60000")
    if ref.phase != "play" or ref.outstanding():
        raise GtpError("the board is showing what to do")
    from gogadget import font
    from gogadget.signals import draw_text
    cols = font.render(args[0].upper())
    font = None
    forget("font")
    size = ref.size
    if len(cols) > size:
        raise GtpError("too wide for a %dx%d board" % (size, size))
    grid = bytearray(ref.n)
    draw_text(grid, size, cols, -((size - len(cols)) // 2))
    ref.shown = grid
    ref.shown_until = ticks_add(ref.now, ms)
    ref.paint()
    return ""


# -- the game clock's settings (clockgtp.py, through Link._clock_call) --


def time_settings(link, args):
    link._clock_call("gtp_settings", "time_settings", args)
    return ""


def kgs_time_settings(link, args):
    link._clock_call("gtp_settings", "kgs-time_settings", args)
    return ""


# -- the config, the restart, an engine's advice (each a module of its own) --


def config(link, args):
    """gogadget-config [KEY [VALUE]] (configgtp.command)."""
    return _config_call(link, "command", args)


def maintenance(link, args):
    """gogadget-maintenance: restart with the REPL free (gogadget update)."""
    return _config_call(link, "maintenance", args)


def _config_call(link, fn, args):
    from gogadget import configgtp
    try:
        return getattr(configgtp, fn)(link.referee, args)
    except ValueError as e:
        raise GtpError(str(e))
    finally:
        configgtp = None
        forget("configgtp", "configfile")


def lights(link, args):
    """gogadget-lights hint ... | territory ...: an engine's advice lit
    (hintshow.py, loaded for the command)."""
    from gogadget import hintshow
    try:
        return hintshow.show(link.referee, args)
    finally:
        hintshow = None
        forget("hintshow")


def _no_blank_lines(text):
    # A GTP response ends at the first empty line.
    return "\n".join(line for line in text.strip().split("\n") if line.strip())
