"""The SVG drawing primitives of the maker's diagrams (host_sim/tools/
wiring.py, pinouts.py, layout.py draw with them; they import nothing of
those, so the imports run one way)."""

ROW_H = 18  # pin rows of a chip or of the Pico box


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    def __init__(self, w, h, title):
        self.w, self.h = w, h
        self.parts = ['']  # the background, sized by render()
        self.add_text(20, 30, title, 20, weight="bold")

    def add_text(self, x, y, s, size=12, anchor="start", weight="normal", fill="black"):
        self.parts.append(
            '<text x="%d" y="%d" font-family="DejaVu Sans, Arial, sans-serif" font-size="%d" '
            'text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
            % (x, y, size, anchor, weight, fill, _esc(s)))

    def box(self, x, y, w, h, title, lines=(), fill="#eef4ff"):
        """A part; returns the baseline y of each text line (wires enter there)."""
        self.parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" '
                          'stroke="black"/>' % (x, y, w, h, fill))
        self.add_text(x + w // 2, y + 18, title, 13, "middle", "bold")
        ys = []
        for i, line in enumerate(lines):
            self.add_text(x + 8, y + 38 + 16 * i, line, 11)
            ys.append(y + 38 + 16 * i)
        return ys

    def wire(self, points, colour, width=2):
        # One <line> per stretch, grouped per wire: ImageMagick's own SVG
        # renderer closes thick polylines and paths with a stray diagonal.
        lines = "".join('<line x1="%d" y1="%d" x2="%d" y2="%d"/>' % (a + b)
                        for a, b in zip(points, points[1:]))
        self.parts.append('<g class="wire" stroke="%s" stroke-width="%d" stroke-linecap="square">'
                          '%s</g>' % (colour, width, lines))

    def dot(self, x, y, colour):
        self.parts.append('<circle cx="%d" cy="%d" r="3" fill="%s"/>' % (x, y, colour))

    def render(self):
        self.parts[0] = '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (self.w, self.h)
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\n'
                % (self.w, self.h, self.w, self.h) + "\n".join(self.parts) + "\n</svg>\n")
