"""controller.py's design into a KiCad 6 board with pcbnew: footprints from
parts.py, the wide supply copper, the routes the grid router finds, the two
inner planes; then the file's timestamps and ids made deterministic."""
import math
import os
import re
import uuid

import pcbnew

from host_sim.tools.fab import drc, fabrules, router
from host_sim.tools.fab.parts import PARTS, PICO_SIZE

MM = pcbnew.FromMM
PLANES = {"GND": "In1.Cu", "+5V": "In2.Cu"}
ATTEMPTS = 12
SIGNAL_LAYERS = (pcbnew.F_Cu, pcbnew.B_Cu)


def _pt(x, y):
    return pcbnew.wxPoint(MM(x), MM(y))


def _footprint(board, nets, part):
    ref, kind, x, y, rot, pad_nets, pads, value, mpn = part
    pvalue, fpname, ppads, maker, pmpn, lcsc, smd = PARTS.get(kind, (None,) * 7)
    if kind == "hdr":
        fpname, maker, smd = "PinHeader_%d_2.54mm" % len(pads), "Samtec", False
    elif kind == "socket":
        fpname, maker, smd = "JST_SH_SM08B", "JST", True
    fp = pcbnew.FOOTPRINT(board)
    fp.SetReference(ref)
    fp.SetValue(value or pvalue)
    fp.SetFPID(pcbnew.LIB_ID("GoGadget", fpname))
    fp.SetAttributes(pcbnew.FP_SMD if smd else pcbnew.FP_THROUGH_HOLE)
    for prop, v in (("Manufacturer", maker), ("MPN", mpn or pmpn), ("LCSC", lcsc)):
        if v:
            fp.SetProperty(prop, v)
    fp.SetPosition(_pt(x, y))
    fp.Reference().SetLayer(pcbnew.F_Fab)
    fp.Value().SetLayer(pcbnew.F_Fab)
    board.Add(fp)
    for num, dx, dy, w, h, drill, shape in pads or ppads:
        pad = pcbnew.PAD(fp)
        pad.SetNumber(num)
        pad.SetSize(pcbnew.wxSize(MM(w), MM(h)))
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if shape == "rect" else pcbnew.PAD_SHAPE_CIRCLE)
        if drill:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            pad.SetDrillSize(pcbnew.wxSize(MM(drill), MM(drill)))
            pad.SetLayerSet(pad.PTHMask())
        else:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetLayerSet(pad.SMDMask())
        pad.SetPos0(_pt(dx, dy))
        pad.SetPosition(_pt(x + dx, y + dy))
        net = pad_nets.get(num)
        if net:
            pad.SetNet(nets[net])
        fp.Add(pad)
    if kind == "pico":  # the module's outline, on the fab layer (its pads reach its edge)
        w, h = PICO_SIZE
        for a, b in (((-w / 2, -h / 2), (w / 2, -h / 2)), ((w / 2, -h / 2), (w / 2, h / 2)),
                     ((w / 2, h / 2), (-w / 2, h / 2)), ((-w / 2, h / 2), (-w / 2, -h / 2))):
            line = pcbnew.FP_SHAPE(fp)
            line.SetShape(pcbnew.SHAPE_T_SEGMENT)
            line.SetStart0(_pt(*a))
            line.SetEnd0(_pt(*b))
            line.SetLayer(pcbnew.F_Fab)
            line.SetWidth(MM(0.1))
            fp.Add(line)
    fp.SetOrientationDegrees(rot)
    return fp


def _track(board, net, layer, a, b, width):
    t = pcbnew.PCB_TRACK(board)
    t.SetStart(_pt(*a))
    t.SetEnd(_pt(*b))
    t.SetWidth(MM(width))
    t.SetLayer(layer)
    t.SetNet(net)
    board.Add(t)


def _via(board, net, x, y):
    v = pcbnew.PCB_VIA(board)
    v.SetPosition(_pt(x, y))
    v.SetWidth(MM(router.VIA_MM))
    v.SetDrill(MM(router.VIA_DRILL_MM))
    v.SetViaType(pcbnew.VIATYPE_THROUGH)
    v.SetNet(net)
    board.Add(v)


def _zone(board, net, layer, w, h):
    z = pcbnew.ZONE(board)
    z.SetLayer(layer)
    z.SetNet(net)
    z.SetLocalClearance(MM(0.3))
    z.SetMinThickness(MM(0.25))
    z.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL)
    outline = z.Outline()
    outline.NewOutline()
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        outline.Append(MM(x), MM(y))
    board.Add(z)


def _pad_box(pad):
    box = pad.GetBoundingBox()
    return (pcbnew.ToMM(box.GetX()), pcbnew.ToMM(box.GetY()), pcbnew.ToMM(box.GetRight()),
            pcbnew.ToMM(box.GetBottom()))


def build(design, width, height, first=()):
    # Every item's id from a seeded generator: the same design, the same
    # ids, so KiCad writes its items in the same order.
    pcbnew.KIID.SeedGenerator(34)
    board = pcbnew.BOARD()
    board.SetCopperLayerCount(fabrules.FAB["layers"])
    bds = board.GetDesignSettings()
    bds.SetBoardThickness(MM(fabrules.FAB["thickness"]))
    drc.apply_fab_rules(board, pcbnew)  # into the project file KiCad writes beside the board
    nets = {}
    for name in sorted(design.nets | set(PLANES)):
        nets[name] = pcbnew.NETINFO_ITEM(board, name)
        board.Add(nets[name])
    corners = ((0, 0), (width, 0), (width, height), (0, height))
    for a, b in zip(corners, corners[1:] + corners[:1]):
        edge = pcbnew.PCB_SHAPE(board)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(_pt(*a))
        edge.SetEnd(_pt(*b))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(MM(0.1))
        board.Add(edge)
    fps = [_footprint(board, nets, part) for part in design.parts]

    r = router.Router(width, height)
    ids = {name: k + 1 for k, name in enumerate(sorted(nets))}
    # The module's underside: no copper of ours on F.Cu and no via under it.
    px, py = design.pico
    pw, ph = PICO_SIZE
    r.mark_rect((0,), px - pw / 2 + 3.6, py - ph / 2, px + pw / 2 - 3.6, py + ph / 2, router.BLOCKED, margin=0.3)
    for j in range(r.ny):
        for i in range(r.nx):
            x, y = i * router.GRID_MM, j * router.GRID_MM
            if abs(x - px) < pw / 2 + 0.5 and abs(y - py) < ph / 2 + 0.5:
                r.no_via[j * r.nx + i] = 1
    # Under each tile socket's housing (behind its contacts, to its retention
    # pads): no copper of ours on F.Cu, so the routes leave the contacts forwards.
    for ref, kind, x, y, rot, nets_, pads_, value, mpn in design.parts:
        if kind == "socket":  # (x, y) the origin; the contact row 2 mm in front (+y)
            r.mark_rect((0,), x - 4.2, y - 2.6, x + 4.2, y + 1.1, router.BLOCKED, margin=0.2)
    pads = []  # (net, layers, box, centre, pad)
    for fp in fps:
        for pad in fp.Pads():
            name = pad.GetNetname()
            net = ids.get(name, router.BLOCKED)
            box = _pad_box(pad)
            pos = pad.GetPosition()
            centre = (pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y))
            layers = (0, 1) if pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH else (0,)
            r.mark_rect(layers, *box, net)
            if layers == (0, 1):
                r.hole(centre[0], centre[1], pcbnew.ToMM(pad.GetDrillSize().x))
            else:
                r.forbid_vias_rect(*box, router.VIA_MM / 2 + 0.05)
            pads.append((name, layers, box, centre))
    # Each tile socket's signal contacts break out before anything is routed:
    # a stub forward to a via, every other one a millimetre further, so the
    # routes of one contact cannot wall in its neighbours (1 mm apart).
    breakouts = {}
    bus_taps = {}  # net -> [(i, j)] of its breakout vias
    for fp in fps:
        if not fp.GetFPID().GetLibItemName().wx_str().startswith("JST_SH"):
            continue
        for pad in fp.Pads():
            name = pad.GetNetname()
            if not name or name in PLANES:
                continue
            pos = pad.GetPosition()
            cx, cy = pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)
            vy = _pad_box(pad)[3] + 1.2 + (1.0 if int(round(cx)) % 2 else 0.0)
            i, j = int(round(cx / router.GRID_MM)), int(math.ceil(vy / router.GRID_MM))
            vx, vy = i * router.GRID_MM, j * router.GRID_MM
            _track(board, nets[name], SIGNAL_LAYERS[0], (cx, cy), (vx, vy), router.TRACK_MM)
            r.mark_rect((0,), min(cx, vx), min(cy, vy), max(cx, vx), max(cy, vy), ids[name],
                        margin=router.slack(fabrules.FAB["min_clearance"] + router.TRACK_MM))
            lay_via = [(0, i, j), (1, i, j)]
            r.commit(ids[name], lay_via)
            _via(board, nets[name], vx, vy)
            breakouts[(cx, cy)] = lay_via[1:]  # routes leave on B.Cu: the via joins both layers
            bus_taps.setdefault(name, []).append((i, j))
    # A SOIC's ground and supply pins go to their planes through a via just
    # inside the pad row, under the chip's body: out of the way of its signals.
    under_chip = set()
    for fp in fps:
        if not fp.GetFPID().GetLibItemName().wx_str().startswith("SOIC"):
            continue
        fx = pcbnew.ToMM(fp.GetPosition().x)
        for pad in fp.Pads():
            name = pad.GetNetname()
            if name not in PLANES:
                continue
            x0, y0, x1, y1 = _pad_box(pad)
            pos = pad.GetPosition()
            cx, cy = pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)
            inner = x1 if cx < fx else x0
            vx = inner + (0.8 if cx < fx else -0.8)
            i, j = int(round(vx / router.GRID_MM)), int(round(cy / router.GRID_MM))
            vx, vy = i * router.GRID_MM, j * router.GRID_MM
            _track(board, nets[name], SIGNAL_LAYERS[0], (cx, cy), (vx, vy), router.TRACK_MM)
            r.mark_rect((0,), min(cx, vx), min(cy, vy), max(cx, vx), max(cy, vy), ids[name],
                        margin=router.slack(fabrules.FAB["min_clearance"] + router.TRACK_MM))
            r.commit(ids[name], [(0, i, j), (1, i, j)])
            _via(board, nets[name], vx, vy)
            under_chip.add((cx, cy))
    for name, layer, a, b, w in design.wide:
        lid = 0 if layer == "F.Cu" else 1
        half = w / 2
        x0, x1 = sorted((a[0], b[0]))
        y0, y1 = sorted((a[1], b[1]))
        if a[0] != b[0] and a[1] != b[1]:  # a diagonal: its box, as copper (generous)
            pass
        r.mark_rect((lid,), x0 - half, y0 - half, x1 + half, y1 + half, ids[name])
        _track(board, nets[name], SIGNAL_LAYERS[lid], a, b, w)

    def inside(box, layers):
        x0, y0, x1, y1 = box
        found = []
        for j in range(int(y0 / router.GRID_MM), int(y1 / router.GRID_MM) + 2):
            for i in range(int(x0 / router.GRID_MM), int(x1 / router.GRID_MM) + 2):
                x, y = i * router.GRID_MM, j * router.GRID_MM
                if x0 + 0.04 <= x <= x1 - 0.04 and y0 + 0.04 <= y <= y1 - 0.04:
                    found += [(lay, i, j) for lay in layers]
        return found

    stubs = {}

    def access(name, box, layers, centre):
        """The grid nodes a route may start or end on in the pad: those
        inside it, else (a pad narrower than the grid) the nearest free node
        beside its centre, joined to the centre by a short stub."""
        if centre in breakouts:
            return breakouts[centre]
        found = inside(box, layers)
        if found or not name:
            return found
        if centre not in stubs:
            # out along the pad's long side, clear of its neighbours, then
            # across to the nearest grid node: down (+y) for a tall pad, right for a wide one
            g = router.GRID_MM
            cx, cy = centre
            margin = fabrules.FAB["min_clearance"] + router.TRACK_MM + 0.1
            if box[3] - box[1] >= box[2] - box[0]:
                # neighbours 1 mm apart land on alternate rows: room for a via beside each
                j = int(math.ceil((box[3] + margin) / g)) + 2 * (int(round(cx)) % 2)
                i = int(round(cx / g))
                bend = (cx, j * g)
            else:
                i = int(math.ceil((box[2] + margin) / g))
                j = int(round(cy / g))
                bend = (i * g, cy)
            width = router.TRACK_MM
            for a_, b_ in ((centre, bend), (bend, (i * g, j * g))):
                if a_ != b_:
                    _track(board, nets[name], SIGNAL_LAYERS[0], a_, b_, width)
                    r.mark_rect((0,), min(a_[0], b_[0]), min(a_[1], b_[1]), max(a_[0], b_[0]),
                                max(a_[1], b_[1]), ids[name],
                                margin=router.slack(fabrules.FAB["min_clearance"] + width))
            stubs[centre] = [(0, i, j)]
        return stubs[centre]

    wide_boxes = [(n, (min(a[0], b[0]) - w / 2, min(a[1], b[1]) - w / 2, max(a[0], b[0]) + w / 2,
                       max(a[1], b[1]) + w / 2)) for n, _, a, b, w in design.wide]

    def covered(name, centre):
        return any(n == name and bx[0] <= centre[0] <= bx[2] and bx[1] <= centre[1] <= bx[3]
                   for n, bx in wide_boxes)

    by_net = {}
    for name, layers, box, centre in pads:
        if name:
            by_net.setdefault(name, []).append((layers, box, centre))
    failed = []
    failed_nets = []

    def lay(name, path, via_at_end=False):
        net = nets[name]
        for lid, (i0, j0), (i1, j1) in router.segments(path):
            g = router.GRID_MM
            _track(board, net, SIGNAL_LAYERS[lid], (i0 * g, j0 * g), (i1 * g, j1 * g), router.TRACK_MM)
        vias = r.commit(ids[name], path)
        if via_at_end:  # down to the plane
            vias.append(path[-1][1:])
            r.commit(ids[name], [path[-1], (1 - path[-1][0],) + path[-1][1:]])
        for i, j in vias:
            _via(board, net, i * router.GRID_MM, j * router.GRID_MM)

    # The select bus, laid out rather than searched for: each select line's
    # taps in a socket column joined straight down on B.Cu (the contacts of
    # one column line up), then across all columns on F.Cu below the sockets,
    # one row per line; the router then joins it to the Pico.
    pre_tree = {}
    selects = sorted(n for n in bus_taps if n.startswith("MUX_S"))
    if selects:
        j_bus = max(j for n in selects for _, j in bus_taps[n]) + int(round(1.0 / router.GRID_MM))
        for k, name in enumerate(selects):
            jk = j_bus + k * int(round(1.0 / router.GRID_MM))
            columns = {}
            for i, j in bus_taps[name]:
                columns.setdefault(i, []).append(j)
            nodes = set()
            for i, js in sorted(columns.items()):
                down = [(1, i, j) for j in range(min(js), jk + 1)] + [(0, i, jk)]
                lay(name, down)
                nodes |= set(down)
            across = [(0, i, jk) for i in range(min(columns), max(columns) + 1)]
            lay(name, across)
            pre_tree[name] = nodes | set(across)

    # Plane nets: each SMD pad not on the wide copper (nor tied under its chip) gets a via to its plane.
    for name in sorted(PLANES):
        for layers, box, centre in by_net.get(name, ()):
            if layers != (0,) or covered(name, centre) or centre in under_chip:
                continue
            try:
                lay(name, r.route(ids[name], access(name, box, layers, centre), (), via_target=True),
                    via_at_end=True)
            except router.Unroutable:
                failed.append("%s at %.2f, %.2f" % (name, centre[0], centre[1]))
    # Signal nets, the shortest first, each as a tree grown pad by pad.
    def span(item):
        cs = [c for _, _, c in item[1]]
        rank = first.index(item[0]) if item[0] in first else len(first)
        return (rank, max(x for x, _ in cs) - min(x for x, _ in cs)
                + max(y for _, y in cs) - min(y for _, y in cs), item[0])
    for name, members in sorted(((n, m) for n, m in by_net.items() if n not in PLANES), key=span):
        members = sorted(members, key=lambda m: (m[2][0], m[2][1]))
        tree = set(pre_tree.get(name, ())) or set(access(name, members[0][1], members[0][0], members[0][2]))
        on_wide = covered(name, members[0][2])  # the tree reaches the net's wide copper
        for layers, box, centre in members[0 if name in pre_tree else 1:]:
            mine = access(name, box, layers, centre)
            if (on_wide and covered(name, centre)) or tree & set(mine):
                tree |= set(mine)
                continue
            on_wide = on_wide or covered(name, centre)
            try:
                path = r.route(ids[name], mine, tree)
            except router.Unroutable:
                failed.append("%s at %.2f, %.2f" % (name, centre[0], centre[1]))
                failed_nets.append(name)
                continue
            lay(name, path)
            tree |= set(path) | set(mine)
    for name, layer in sorted(PLANES.items()):
        _zone(board, nets[name], board.GetLayerID(layer), width, height)
    return board, failed, failed_nets


def deterministic(path, seed):
    """The ids and timestamps pcbnew invents, replaced in order of
    appearance, so the same design writes the same file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    counter = [0]

    def fresh(m):
        counter[0] += 1
        return "(tstamp %s)" % uuid.uuid5(uuid.NAMESPACE_URL, "%s/%d" % (seed, counter[0]))
    text = re.sub(r"\(tstamp [0-9a-f-]+\)", fresh, text)
    text = re.sub(r"\(tedit [0-9A-Fa-f]+\)", "(tedit 0)", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write(design, path):
    from host_sim.tools.fab.controller import HEIGHT, WIDTH
    first = ["BANK_S%d" % i for i in range(4)]  # the level-2 selects first: the SIG lines crowd the muxes
    for _ in range(ATTEMPTS):  # the nets that found no way go first next time
        board, failed, failed_nets = build(design, WIDTH, HEIGHT, first)
        if not failed:
            break
        failing = list(dict.fromkeys(failed_nets))
        first = failing + [n for n in first if n not in failing]
    if failed:
        raise SystemExit("controller: could not route %d connection(s): %s" % (len(failed), "; ".join(failed)))
    pcbnew.SaveBoard(path, board)  # zones unfilled: the DRC and the fab outputs fill them
    deterministic(path, "gogadget/controller")
    base = path[:-len(".kicad_pcb")]
    if os.path.exists(base + ".kicad_prl"):  # the editor's view settings, not the design
        os.unlink(base + ".kicad_prl")
    with open(base + ".kicad_dru", "w", encoding="utf-8") as f:
        f.write(fabrules.kicad_dru())
