"""Screenshots without image libraries: read an X window dump (xwd), write PNG.

The GUI test grabs the Xvfb screen with `xwd` (x11-apps) and checks pixels
here; the same code writes docs/screenshot.png:

    .venv/bin/python -m host_sim.screenshot docs/screenshot.png

(needs Xvfb, xdotool and xwd: the start of a 19x19 game is played onto the
window, a stone is slid and the window is saved while its prompts are lit).
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


# -- docs/screenshot.png ------------------------------------------------------

DOCS_GAME = "host_sim/games/shusaku-ear-reddening-1846.sgf"
DOCS_MOVES = 60  # a middle-game position
DOCS_SLIDE = ("Q15", "P15")  # a sloppy hand slides a stone: "put back" and "lift" light up


def first_moves(sgf_text, n):
    """The game record cut after its first n moves (main line, no variations)."""
    import re
    head, _, rest = sgf_text.partition(";B[")
    moves = re.findall(r";[BW]\[[a-z]{0,2}\]", ";B[" + rest)
    return head + "".join(moves[:n]) + ")\n"


def docs_screenshot(out, game=DOCS_GAME, moves=DOCS_MOVES, slide=DOCS_SLIDE, timeout=60):
    """Run the window on a private Xvfb, play the start of a game onto it, slide
    a stone, and save the window when the blinking prompts are lit."""
    import json
    import os
    import sys
    import tempfile
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    work = Path(tempfile.mkdtemp(prefix="gogadget-shot-"))
    sgf = work / "game.sgf"
    sgf.write_text(first_moves((root / game).read_text(), moves))
    state_file = work / "state.json"
    for n in range(90, 200):
        if not os.path.exists("/tmp/.X%d-lock" % n):
            break
    display = ":%d" % n
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display)
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

    def xdo(*args):
        subprocess.run(["xdotool", *args], env=env, check=True, timeout=30)

    try:
        time.sleep(1)
        gui = subprocess.Popen([sys.executable, "-m", "host_sim", "--size", "19", "--load", str(sgf),
                                "--state-file", str(state_file)], cwd=root, env=env)
        wait(lambda s: s.get("mapped") and len(s["stones"]) >= moves - 10 and not any(
            v.split("/")[0] in ("put-black", "put-white", "remove") for v in s["lights"].values()))
        wid = subprocess.run(["xdotool", "search", "--name", "Go Gadget simulator"], env=env,
                             capture_output=True, text=True, timeout=30).stdout.split()[0]
        xdo("windowsize", wid, "1040", "900")
        time.sleep(1.5)
        s = state()
        (x0, y0), (x1, y1) = s["screen"][slide[0]], s["screen"][slide[1]]
        xdo("mousemove", str(int(x0)), str(int(y0)), "mousedown", "1",
            "mousemove", str(int(x1)), str(int(y1)), "mouseup", "1")
        s = wait(lambda s: s["lights"].get(slide[0], "").startswith(("put-", "remove")))
        x, y = (int(v) for v in s["screen"][slide[0]])
        for _ in range(40):
            shot = grab(display)
            lit = shot.pixel(x + int(s["cell"] * 0.25), y + int(s["cell"] * 0.25))
            if lit[2] > lit[0] + 60 or min(lit) > 200:  # the put-back light is on
                break
            time.sleep(0.05)
        window = grab(display, wid)
        window.save_png(str(out))
        return out
    finally:
        if gui is not None:
            gui.terminate()
            gui.wait(timeout=10)
        xvfb.terminate()
        xvfb.wait(timeout=10)


if __name__ == "__main__":
    import sys
    print("wrote", docs_screenshot(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshot.png"))
