"""Screenshots without image libraries: read an X window dump (xwd), write PNG.

The GUI test grabs the Xvfb screen with `xwd` (x11-apps) and checks pixels
here; the same code writes docs/screenshot.png.
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
