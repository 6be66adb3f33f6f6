"""How a light shows in the window: the wood's and lights' colours, and the mark each kind puts on its point."""
from gogadget import frame
from gogadget.points import BLACK, WHITE

WOOD = "#dcb35c"
WOOD_RGB = (0xdc, 0xb3, 0x5c)
STONE_R = 0.47  # stone radius, in cells
# The mark on the point for each kind of light (palette index -> shape).
LIFT = "cross"  # take this stone away: a bold cross on it, in the light's colour
WRONG = "barred"  # this stone may not stand here: a circle with a bar (no entry)
MARKS = {frame.LAST: "ring", frame.ILLEGAL: WRONG, frame.KO: WRONG, frame.SUPERKO: WRONG,
         frame.REMOVE: LIFT, frame.WRONG_COLOUR: WRONG, frame.PUT_BLACK: "ghost",
         frame.PUT_WHITE: "ghost", frame.TERRITORY_BLACK: "square",
         frame.TERRITORY_WHITE: "square", frame.DEAD: "triangle", frame.DIGIT: "block",
         frame.FAULT: "bang", frame.OK_GREEN: "dot", frame.INFO: "dot"}
OUTLINE = "#1a1008"  # round every mark, so it stands out on wood and on both stones
PATTERN_WORDS = {frame.STEADY: "steady", frame.BLINK: "blinks", frame.FAST: "flashes",
                 frame.DIM: "dim"}
RING_ON = {BLACK: "#ffffff", WHITE: "#d01010"}  # the last move's ring: it shows on that stone


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def through_wood(rgb, k, base=WOOD_RGB):
    """rgb seen through the wood at strength k (0: wood only, 1: the light)."""
    return hex_colour(tuple(int(w + (v - w) * k) for v, w in zip(rgb, base)))


def shown_bright(rgb):
    # LEDs under a wooden board: the hue is kept and the strength shown at a
    # readable level, so even a budget-dimmed light is seen.
    peak = max(rgb) or 1
    return tuple(v * 255 // peak for v in rgb)


def mark_shape(code):
    """The mark drawn on a point for a light code (a MARKS shape)."""
    if code == frame.OK_GREEN | frame.BLINK:
        return "takeback"
    return MARKS.get(code & 0x0F)


def draw_mark(c, x, y, cell, code, stone, tag):
    """The mark of a light code at a point (x, y) of a canvas, scaled to cell."""
    shape = mark_shape(code)
    rgb = shown_bright(frame.PALETTE[code & 0x0F])
    colour = hex_colour(rgb)
    # Whole-pixel widths: Tk repaints a deleted item's box from them, and a
    # fractional wide outline left slivers on the wood.
    w = max(2, int(round(cell * 0.09)))
    kw = dict(tags=tag) if tag else {}
    if shape == LIFT:
        d = cell * 0.24
        for width, fill in ((int(w * 1.9), OUTLINE), (w, colour)):
            c.create_line(x - d, y - d, x + d, y + d, width=width, fill=fill, capstyle="round", **kw)
            c.create_line(x - d, y + d, x + d, y - d, width=width, fill=fill, capstyle="round", **kw)
    elif shape == WRONG:
        r = cell * 0.26
        d = r * 0.7
        for width, fill in ((int(w * 1.9), OUTLINE), (w, colour)):
            c.create_oval(x - r, y - r, x + r, y + r, outline=fill, width=width, **kw)
            c.create_line(x - d, y - d, x + d, y + d, width=width, fill=fill, **kw)
    elif shape == "ring":  # the last move: a ring in the colour that shows on that stone
        r = cell * 0.2
        ink = RING_ON.get(stone, OUTLINE)
        c.create_oval(x - r, y - r, x + r, y + r, outline=ink, width=w, **kw)
    elif shape == "ghost":  # a stone of that colour belongs here: its outline, dashed
        r = cell * STONE_R
        ink = "#141414" if code & 0x0F == frame.PUT_BLACK else "#ffffff"
        # Half the stone's pixels, the wood and the lines showing through.
        c.create_oval(x - r, y - r, x + r, y + r, fill=ink, stipple="gray25", outline="", **kw)
        c.create_oval(x - r, y - r, x + r, y + r, outline=OUTLINE, width=int(w * 1.8), **kw)
        c.create_oval(x - r, y - r, x + r, y + r, outline=ink, width=w, dash=(6, 3), **kw)
        c.create_oval(x - r * 0.75, y - r * 0.75, x + r * 0.75, y + r * 0.75, outline=colour,
                      width=max(1, w // 2), **kw)
    elif shape == "takeback":
        r = cell * STONE_R
        c.create_oval(x - r, y - r, x + r, y + r, outline=colour, width=w, dash=(4, 3), **kw)
    elif shape == "square":
        r = cell * 0.16
        c.create_rectangle(x - r, y - r, x + r, y + r, fill=colour, outline=OUTLINE, **kw)
    elif shape == "triangle":
        r = cell * 0.22
        c.create_polygon(x, y - r, x + r, y + r * 0.7, x - r, y + r * 0.7, fill=colour,
                         outline=OUTLINE, width=max(1, w // 2), **kw)
    elif shape == "block":  # a pixel of the result's digits, over any stone
        r = cell * 0.46
        c.create_rectangle(x - r, y - r, x + r, y + r, fill=colour, outline="", **kw)
    elif shape == "bang":
        r = cell * 0.22
        c.create_polygon(x, y - r, x + r, y + r * 0.8, x - r, y + r * 0.8, fill=colour,
                         outline=OUTLINE, width=max(1, w // 2), **kw)
        c.create_text(x, y + r * 0.2, text="!", fill="#ffffff",
                      font=("TkDefaultFont", max(7, int(cell * 0.22)), "bold"), **kw)
    elif shape == "dot":
        r = cell * 0.1
        c.create_oval(x - r, y - r, x + r, y + r, fill=colour, outline=OUTLINE, **kw)
