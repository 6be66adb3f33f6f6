"""Screenshots without image libraries: read an X window dump (xwd), write PNG.

The GUI test grabs the Xvfb screen with `xwd` (x11-apps) and checks pixels
here; the same code makes the screenshots in docs/:

    .venv/bin/python -m host_sim.faces.screenshot            # all of them
    .venv/bin/python -m host_sim.faces.screenshot gui-9x9.png

(needs Xvfb, xdotool and xwd, and xterm for the terminal mode's: a game is
played onto the window or typed into the terminal, and the picture is saved
while the lights that ask for something are lit).
"""
import struct
import subprocess
import zlib


class Image:
    """RGB pixels, row by row from the top."""

    def __init__(self, width, height, rgb):
        self.width = width
        self.height = height
        self.rgb = rgb  # bytes, 3 per pixel

    def pixel(self, x, y):
        i = 3 * (y * self.width + x)
        return tuple(self.rgb[i:i + 3])

    def crop(self, x0, y0, x1, y1):
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(self.width, x1), min(self.height, y1)
        rows = [self.rgb[3 * (y * self.width + x0):3 * (y * self.width + x1)] for y in range(y0, y1)]
        return Image(x1 - x0, y1 - y0, b"".join(rows))

    def count(self, test):
        """How many pixels satisfy test(r, g, b)."""
        data = self.rgb
        return sum(1 for i in range(0, len(data), 3) if test(data[i], data[i + 1], data[i + 2]))

    def png(self):
        def chunk(kind, body):
            c = kind + body
            return struct.pack(">I", len(body)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)

        stride = 3 * self.width
        raw = b"".join(b"\x00" + self.rgb[y * stride:(y + 1) * stride] for y in range(self.height))
        return (b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

    def save_png(self, path):
        with open(path, "wb") as f:
            f.write(self.png())


def read_xwd(data):
    """Decode a TrueColor ZPixmap X window dump (what xwd writes for Xvfb)."""
    if len(data) < 100:
        raise ValueError("not an xwd dump: too short")
    h = struct.unpack(">25I", data[:100])
    header_size, version, fmt = h[0], h[1], h[2]
    width, height, byte_order = h[4], h[5], h[7]
    bits_per_pixel, bytes_per_line = h[11], h[12]
    masks = h[14:17]
    ncolors = h[19]
    if version != 7 or fmt != 2 or bits_per_pixel not in (24, 32):
        raise ValueError("unsupported xwd dump (version %d, format %d, %d bpp)"
                         % (version, fmt, bits_per_pixel))
    start = header_size + 12 * ncolors
    step = bits_per_pixel // 8
    order = "<" if byte_order == 0 else ">"
    shifts = [(m, (m & -m).bit_length() - 1) for m in masks]
    out = bytearray(3 * width * height)
    o = 0
    for y in range(height):
        row = data[start + y * bytes_per_line:start + y * bytes_per_line + width * step]
        if step == 4:
            values = struct.unpack(order + "%dI" % width, row)
        else:
            values = [int.from_bytes(row[i:i + 3], "little" if order == "<" else "big")
                      for i in range(0, len(row), 3)]
        for v in values:
            for m, s in shifts:
                out[o] = (v & m) >> s
                o += 1
    return Image(width, height, bytes(out))


def grab(display, window="root"):
    """The screen (or one window id) of an X display as an Image."""
    cmd = ["xwd", "-silent", "-display", display]
    cmd += ["-root"] if window == "root" else ["-id", str(window)]
    data = subprocess.run(cmd, capture_output=True, check=True, timeout=30).stdout
    return read_xwd(data)


# -- the screenshots in docs/ -------------------------------------------------

DOCS_GAME = "host_sim/games/shusaku-ear-reddening-1846.sgf"
DOCS_MOVES = 60  # a middle-game position
DOCS_SLIDE = ("Q15", "P15")  # a sloppy hand slides a stone: "put back" and "lift" light up
# 9x9: Black surrounds White's E5; the capturing move is played in the
# window, so the prisoner still stands there, asked to be lifted.
SMALL_GAME = "(;GM[1]FF[4]SZ[9]KM[7.5];B[de];W[ee];B[fe];W[ai];B[ed];W[ah])\n"
SMALL_CAPTURE = "E4"  # Black's E4 takes E5 (D5 F5 E6 stand round it)


def first_moves(sgf_text, n):
    """The game record cut after its first n moves (main line, no variations)."""
    import re
    head, _, rest = sgf_text.partition(";B[")
    moves = re.findall(r";[BW]\[[a-z]{0,2}\]", ";B[" + rest)
    return head + "".join(moves[:n]) + ")\n"


class _Xvfb:
    """A private X display for the length of a with block."""

    def __enter__(self):
        import os
        import time
        for n in range(90, 200):
            if not os.path.exists("/tmp/.X%d-lock" % n):
                break
        self.display = ":%d" % n
        self.proc = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1280x1024x24",
                                      "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def window_screenshot(out, size=19, sgf_text=None, slide=None, click=None, finish=False,
                      timeout=60, study=None):
    """Run the window on a private Xvfb with a game loaded, then act as a
    person: slide a stone, click a point, or pass twice and confirm (the
    result in digits), or (study: the answer's point) press Study, set the
    first problem up where the lights ask and play the answer; save the
    window when the LEDs that ask are lit."""
    import json
    import os
    import sys
    import tempfile
    import time
    from pathlib import Path
    from host_sim.tools import geometry

    root = Path(__file__).resolve().parents[2]
    work = Path(tempfile.mkdtemp(prefix="gogadget-shot-"))
    sgf = work / "game.sgf"
    sgf.write_text(sgf_text)
    stones_at_start = sgf_text.count(";B[") + sgf_text.count(";W[")
    state_file = work / "state.json"
    gui = None

    def state():
        try:
            return json.loads(state_file.read_text())
        except (OSError, ValueError):
            return None

    def wait(test):
        end = time.time() + timeout
        while time.time() < end:
            s = state()
            if s and test(s):
                return s
            time.sleep(0.1)
        s = state() or {}
        raise RuntimeError("the window never showed what the screenshot needs: lights %s, %s"
                           % (s.get("lights"), s.get("next")))

    with _Xvfb() as x:
        env = dict(os.environ, DISPLAY=x.display)

        def xdo(*args):
            subprocess.run(["xdotool", *args], env=env, check=True, timeout=30)

        def press(xy):
            xdo("mousemove", str(int(xy[0])), str(int(xy[1])), "click", "1")

        try:
            gui = subprocess.Popen([sys.executable, "-m", "host_sim", "--size", str(size),
                                    "--load", str(sgf), "--state-file", str(state_file)],
                                   cwd=root, env=env)
            wait(lambda s: s.get("mapped") and len(s["stones"]) >= stones_at_start - 10 and
                 not any(v.split("/")[0] in ("put-black", "put-white", "remove")
                         for v in s["lights"].values()))
            wid = subprocess.run(["xdotool", "search", "--name", "Go Gadget simulator"], env=env,
                                 capture_output=True, text=True, timeout=30).stdout.split()[0]
            xdo("windowsize", wid, "1040", "900")
            time.sleep(1.5)
            s = state()
            if slide:
                (x0, y0), (x1, y1) = s["screen"][slide[0]], s["screen"][slide[1]]
                xdo("mousemove", str(int(x0)), str(int(y0)), "mousedown", "1",
                    "mousemove", str(int(x1)), str(int(y1)), "mouseup", "1")
                s = wait(lambda s: s["lights"].get(slide[0], "").startswith(("put-", "remove")))
                asking = slide[0]
            elif click:
                press(s["screen"][click])
                s = wait(lambda s: any(v.startswith("remove") for v in s["lights"].values()))
                asking = next(v for v, c in s["lights"].items() if c.startswith("remove"))
            elif study:
                press(s["buttons"]["study"])
                s = wait(lambda s: "study" in s.get("last_event", ""))
                for _ in range(60):
                    time.sleep(0.5)
                    s = state()
                    put = [v for v, c in s["lights"].items() if c.startswith("put-")]
                    if not put:
                        break
                    press(s["screen"][put[0]])
                    time.sleep(0.4)
                time.sleep(1.0)
                press(s["screen"][study])
                s = wait(lambda s: sum(c.startswith("ok") for c in s["lights"].values()) >= 20)
                asking = None
            elif finish:
                for name in ("pass", "pass", "confirm"):
                    press(s["buttons"][name])
                    time.sleep(0.5)
                s = wait(lambda s: s["phase"] == "over" and "digit" in s["lights"].values())
                asking = None
            else:
                asking = None
            geo = dict(line.split("=") for line in subprocess.run(
                ["xdotool", "getwindowgeometry", "--shell", wid], env=env, capture_output=True,
                text=True, timeout=30).stdout.split())
            left, top = int(geo["X"]), int(geo["Y"])
            box = (left, top, left + int(geo["WIDTH"]), top + int(geo["HEIGHT"]))
            shot = grab(x.display)
            if asking:
                # Blinking LEDs: the picture in which this one is on.
                x0, y0 = s["screen"][asking]
                f = geometry.led_offset_pitch() * s["cell"]
                for _ in range(40):
                    lit = shot.pixel(int(x0 + f), int(y0 - f))
                    if abs(lit[0] - 0xdc) + abs(lit[1] - 0xb3) + abs(lit[2] - 0x5c) > 90:
                        break
                    time.sleep(0.05)
                    shot = grab(x.display)
            shot.crop(*box).save_png(str(out))
            return out
        finally:
            if gui is not None:
                gui.terminate()
                gui.wait(timeout=10)


def terminal_screenshot(out, size=19, actions=(), cols=80, rows=24, timeout=60):
    """The terminal mode in an xterm of cols x rows on a private Xvfb, after
    typing actions (needs xterm: apt-get install xterm)."""
    import os
    import shutil
    import sys
    import time
    from pathlib import Path

    xterm = shutil.which("xterm")
    if xterm is None:
        raise RuntimeError("the terminal screenshots need xterm: apt-get install xterm")
    root = Path(__file__).resolve().parents[2]
    with _Xvfb() as x:
        env = dict(os.environ, DISPLAY=x.display, TERM="xterm-256color", COLORTERM="truecolor")
        env.pop("NO_COLOR", None)
        title = "gogadget-terminal-%d" % os.getpid()
        term = subprocess.Popen([xterm, "-T", title, "-geometry", "%dx%d+0+0" % (cols, rows),
                                 "-fa", "DejaVu Sans Mono", "-fs", "11", "-bg", "#101010",
                                 "-fg", "#e0e0e0", "-e", sys.executable, "-m", "host_sim",
                                 "--tui", "--size", str(size)], cwd=root, env=env)
        try:
            end = time.time() + timeout
            wid = []
            while not wid and time.time() < end:
                time.sleep(0.3)
                wid = subprocess.run(["xdotool", "search", "--name", title], env=env,
                                     capture_output=True, text=True).stdout.split()
            time.sleep(2)
            # xterm ignores keys sent to a window: the pointer over it gives
            # it the keyboard (no window manager), and the keys are typed.
            subprocess.run(["xdotool", "mousemove", "--window", wid[0], "100", "100"], env=env,
                           check=True, timeout=30)
            for action in actions:
                subprocess.run(["xdotool", "type", "--delay", "20", action], env=env, check=True,
                               timeout=30)
                subprocess.run(["xdotool", "key", "Return"], env=env, check=True, timeout=30)
                time.sleep(0.8)
            time.sleep(1.5)
            grab(x.display, wid[0]).save_png(str(out))
            return out
        finally:
            term.terminate()
            term.wait(timeout=10)


def docs_screenshot(out="docs/screenshot.png"):
    """docs/screenshot.png: a 19x19 middle game with a stone slid off its point."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    return window_screenshot(out, 19, first_moves((root / DOCS_GAME).read_text(), DOCS_MOVES),
                             slide=DOCS_SLIDE)


# A capture in the terminal: Black takes K10, the prisoner is asked off.
TERMINAL_CAPTURE = ("put b K11", "put w K10", "put b J10", "put w D4", "put b L10", "put w Q16",
                    "put b K9")

SHOTS = {
    "screenshot.png": docs_screenshot,
    "gui-9x9-study.png": lambda out: window_screenshot(out, 9, "(;GM[1]FF[4]SZ[9])\n",
                                                       study="D1"),
    "gui-9x9.png": lambda out: window_screenshot(out, 9, SMALL_GAME, click=SMALL_CAPTURE),
    "gui-9x9-result.png": lambda out: window_screenshot(out, 9, SMALL_GAME, finish=True),
    "terminal-19x19.png": lambda out: terminal_screenshot(out, 19, TERMINAL_CAPTURE),
    "terminal-9x9-result.png": lambda out: terminal_screenshot(
        out, 9, ("put b E5", "put w E6", "pass", "pass", "confirm")),
}


def main(argv):
    """python -m host_sim.faces.screenshot [NAME.png ...]: (re)make docs/NAME.png, all by default."""
    from pathlib import Path
    docs = Path(__file__).resolve().parents[2] / "docs"
    for name in argv or sorted(SHOTS):
        name = Path(name).name
        if name not in SHOTS:
            raise SystemExit("no screenshot %s (there are: %s)" % (name, ", ".join(sorted(SHOTS))))
        print("wrote", SHOTS[name](str(docs / name)))
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
