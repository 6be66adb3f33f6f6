"""A small grid router for the controller board: two signal layers (F.Cu
and B.Cu), tracks on a 0.5 mm grid (the tile sockets' pitch, half; a node
inside every pad down to the SOICs' 0.6 mm), vias where a route changes
layer.  The power nets (GND, 5 V)
are the inner planes; their SMD pads get a via to the plane.

Clearances are kept on a grid of half that pitch: a track may pass where
every half-step cell along it is at least CLEAR_MM (the fab's clearance and
half the track, plus the slack that covers what lies between two checked
cells) from copper of another net.  Pure Python, no pcbnew: the generator
(controller.py) turns the result into tracks and vias.
"""
import heapq
import math

from host_sim.tools.fab.fabrules import FAB

GRID_MM = 0.5
FINE_MM = GRID_MM / 2
TRACK_MM = 0.25
VIA_MM = FAB["min_via_diameter"]
VIA_DRILL_MM = FAB["min_drill"]


def slack(mm):
    """A distance kept at the checked half-step cells that keeps mm between
    them too (a corner of copper may poke in half a cell from both)."""
    return math.sqrt(mm * mm + (FINE_MM / 2) ** 2) + 0.01


# Copper of another net at least the clearance from a track's edge.
CLEAR_MM = slack(FAB["min_clearance"] + TRACK_MM / 2)
LAYERS = ("F.Cu", "B.Cu")
VIA_COST = 12
FREE = 0
BLOCKED = -1


class Unroutable(Exception):
    pass


class Router:
    """Occupancy of both layers on the fine grid: FREE, BLOCKED, or the
    number of the one net that may use a cell."""

    def __init__(self, width_mm, height_mm):
        self.nx = int(width_mm / GRID_MM) + 1  # coarse nodes
        self.ny = int(height_mm / GRID_MM) + 1
        self.fx = 2 * self.nx - 1
        self.fy = 2 * self.ny - 1
        self.cells = [[FREE] * (self.fx * self.fy) for _ in LAYERS]
        self.no_via = bytearray(self.nx * self.ny)  # coarse nodes a via may not take
        self.vias = set()
        self.width, self.height = width_mm, height_mm
        edge = FAB["min_copper_edge"] + TRACK_MM / 2 + 0.05
        via_edge = FAB["min_copper_edge"] + VIA_MM / 2 + 0.05
        for layer in range(len(LAYERS)):
            for fj in range(self.fy):
                for fi in range(self.fx):
                    x, y = fi * FINE_MM, fj * FINE_MM
                    if min(x, y, width_mm - x, height_mm - y) < edge:
                        self.cells[layer][fj * self.fx + fi] = BLOCKED
        for j in range(self.ny):
            for i in range(self.nx):
                x, y = i * GRID_MM, j * GRID_MM
                if min(x, y, width_mm - x, height_mm - y) < via_edge:
                    self.no_via[j * self.nx + i] = 1

    # --- marking copper --------------------------------------------------

    def _claim(self, layer, fi, fj, net):
        k = fj * self.fx + fi
        v = self.cells[layer][k]
        if v == FREE:
            self.cells[layer][k] = net
        elif v != net:
            self.cells[layer][k] = BLOCKED

    def mark_rect(self, layers, x0, y0, x1, y1, net, margin=CLEAR_MM):
        """Copper of net over the rectangle: its cells and those within
        margin are the net's (or nobody's where two nets meet)."""
        for layer in layers:
            for fj in range(max(0, int((y0 - margin) / FINE_MM)), min(self.fy, int((y1 + margin) / FINE_MM) + 2)):
                y = fj * FINE_MM
                dy = max(y0 - y, 0, y - y1)
                for fi in range(max(0, int((x0 - margin) / FINE_MM)), min(self.fx, int((x1 + margin) / FINE_MM) + 2)):
                    x = fi * FINE_MM
                    dx = max(x0 - x, 0, x - x1)
                    if dx * dx + dy * dy < margin * margin:
                        self._claim(layer, fi, fj, net)

    def mark_disc(self, layers, x, y, r, net, margin=CLEAR_MM):
        reach = r + margin
        for layer in layers:
            for fj in range(max(0, int((y - reach) / FINE_MM)), min(self.fy, int((y + reach) / FINE_MM) + 2)):
                for fi in range(max(0, int((x - reach) / FINE_MM)), min(self.fx, int((x + reach) / FINE_MM) + 2)):
                    if math.hypot(fi * FINE_MM - x, fj * FINE_MM - y) < reach:
                        self._claim(layer, fi, fj, net)

    def forbid_vias(self, x, y, r):
        """No via centre within r of (x, y) (holes and their copper)."""
        for j in range(max(0, int((y - r) / GRID_MM)), min(self.ny, int((y + r) / GRID_MM) + 2)):
            for i in range(max(0, int((x - r) / GRID_MM)), min(self.nx, int((x + r) / GRID_MM) + 2)):
                if math.hypot(i * GRID_MM - x, j * GRID_MM - y) < r:
                    self.no_via[j * self.nx + i] = 1

    def forbid_vias_rect(self, x0, y0, x1, y1, margin):
        """No via centre within margin of the rectangle (an SMD pad: no via in it)."""
        for j in range(max(0, int((y0 - margin) / GRID_MM)), min(self.ny, int((y1 + margin) / GRID_MM) + 2)):
            for i in range(max(0, int((x0 - margin) / GRID_MM)), min(self.nx, int((x1 + margin) / GRID_MM) + 2)):
                x, y = i * GRID_MM, j * GRID_MM
                dx, dy = max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1)
                if dx * dx + dy * dy < margin * margin:
                    self.no_via[j * self.nx + i] = 1

    def hole(self, x, y, drill):
        """A drilled hole: vias keep the fab's hole-to-hole distance and clear its pad."""
        self.forbid_vias(x, y, drill / 2 + VIA_DRILL_MM / 2 + FAB["min_hole_to_hole"] + 0.02)

    # --- searching ---------------------------------------------------------

    def _free(self, layer, fi, fj, net):
        v = self.cells[layer][fj * self.fx + fi]
        return v == FREE or v == net

    def _step_ok(self, layer, i, j, di, dj, net):
        return (self._free(layer, 2 * i + di, 2 * j + dj, net)
                and self._free(layer, 2 * (i + di), 2 * (j + dj), net))

    def _via_ok(self, i, j, net):
        if self.no_via[j * self.nx + i]:
            return False
        fi, fj = 2 * i, 2 * j
        # the via's copper (wider than a track) clear of other nets on both layers
        reach = int(math.ceil((VIA_MM / 2 - TRACK_MM / 2) / FINE_MM))
        for layer in range(len(LAYERS)):
            for dj in range(-reach, reach + 1):
                for di in range(-reach, reach + 1):
                    a, b = fi + di, fj + dj
                    if not (0 <= a < self.fx and 0 <= b < self.fy) or not self._free(layer, a, b, net):
                        return False
        return True

    def route(self, net, sources, targets, via_target=False):
        """Cheapest path from any source node (layer, i, j) to any target
        node, or (via_target) to any node where a via may stand.  Returns
        the nodes, source first."""
        targets = set(targets)
        dist = {}
        prev = {}
        heap = []
        for s in sources:
            dist[s] = 0
            heapq.heappush(heap, (0, s))
        while heap:
            d, node = heapq.heappop(heap)
            if d > dist.get(node, 1e18):
                continue
            layer, i, j = node
            if node in targets or (via_target and self._via_ok(i, j, net)):
                path = [node]
                while path[-1] in prev:
                    path.append(prev[path[-1]])
                return path[::-1]
            steps = []
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = i + di, j + dj
                if 0 <= a < self.nx and 0 <= b < self.ny and self._step_ok(layer, i, j, di, dj, net):
                    steps.append(((layer, a, b), 1))
            if self._via_ok(i, j, net):
                steps.append(((1 - layer, i, j), VIA_COST))
            for nxt, cost in steps:
                nd = d + cost
                if nd < dist.get(nxt, 1e18):
                    dist[nxt] = nd
                    prev[nxt] = node
                    heapq.heappush(heap, (nd, nxt))
        raise Unroutable("net %s" % net)

    def commit(self, net, path):
        """Mark a found path as the net's copper; its vias."""
        vias = []
        for a, b in zip(path, path[1:]):
            if a[0] != b[0]:
                vias.append((a[1], a[2]))
                x, y = a[1] * GRID_MM, a[2] * GRID_MM
                self.mark_disc(range(len(LAYERS)), x, y, VIA_MM / 2, net, margin=CLEAR_MM)
                self.forbid_vias(x, y, VIA_DRILL_MM + FAB["min_hole_to_hole"] + 0.02)
                continue
            x0, x1 = sorted((a[1] * GRID_MM, b[1] * GRID_MM))
            y0, y1 = sorted((a[2] * GRID_MM, b[2] * GRID_MM))
            self.mark_rect((a[0],), x0, y0, x1, y1, net, margin=slack(FAB["min_clearance"] + TRACK_MM))
        return vias


def segments(path):
    """A path of nodes as straight runs: [(layer, (i0, j0), (i1, j1))]."""
    runs = []

    def flush(group):
        if len(group) < 2:
            return
        start, heading = group[0], None
        for k in range(1, len(group)):
            d = (group[k][1] - group[k - 1][1], group[k][2] - group[k - 1][2])
            if heading is not None and d != heading:
                runs.append((start[0], start[1:], group[k - 1][1:]))
                start = group[k - 1]
            heading = d
        runs.append((start[0], start[1:], group[-1][1:]))

    group = [path[0]]
    for node in path[1:]:
        if node[0] != group[-1][0]:
            flush(group)
            group = [node]
        else:
            group.append(node)
    flush(group)
    return runs
