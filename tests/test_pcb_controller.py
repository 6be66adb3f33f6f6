"""The controller board (hardware/pcb/controller.kicad_pcb, written by
host_sim/tools/fab/controller.py): it is what the generator writes, and its
pads' nets join what the firmware drives and reads (pins.py, with each
GPIO's Pico pin from hwdoc.PHYSICAL and the chips' pins from their
datasheets' tables in host_sim/tools/pinouts.py).  The copper agrees with
the pads' nets where KiCad's DRC finds 0 unconnected items
(tests/test_pcb_drc.py)."""
import re

import pytest

from gogadget.hw import pins
from host_sim.tools.hwdoc import PHYSICAL
from host_sim.tools.pinouts import AHCT125, CD4067
from pcbtools import ROOT, need_pcbnew, system_python

BOARD = ROOT / "hardware" / "pcb" / "controller.kicad_pcb"


def pad_nets(text):
    """{(reference, pad number): net name} of a KiCad 6 board file."""
    nets = {}
    for block in re.split(r"\n  \(footprint ", text)[1:]:
        ref = re.search(r'\(fp_text reference "([^"]+)"', block).group(1)
        for number, net in re.findall(r'\(pad "([^"]+)"[^(]*(?:\((?!net )[^()]*(?:\([^()]*\))*[^()]*\)\s*)*'
                                      r'\(net \d+ "([^"]*)"\)', block):
            nets[(ref, number)] = net
    return nets


def pin(table, name):
    return str({v: k for k, v in table.items()}[name])


def firmware_links():
    """Pairs of (reference, pad) that must share a net: each GPIO's Pico pin
    and what it drives or reads (pins.py), the level-2 inputs and the tile
    sockets' SIG contacts (controller.socket_channels), from the pin map
    and the parts' pin tables."""
    from host_sim.tools.fab.controller import SOCKETS, socket_channels
    from host_sim.tools.pcb.parts import SOCKET_PINS
    links = []
    for k in range(SOCKETS):
        ref = "J%d" % (8 + k)
        bank, first = socket_channels(k)
        for n, signal in enumerate(SOCKET_PINS):
            if signal.startswith("SIG"):
                channel = first + int(signal[3:])
                links.append((("U%d" % (2 + bank), pin(CD4067, "I%d" % channel)), (ref, str(n + 1))))
            elif signal.startswith("S"):  # level-1 select lines out to every tile
                links.append((("U1", str(PHYSICAL[pins.MUX_SELECT[int(signal[1])]])), (ref, str(n + 1))))
    for b, adc in enumerate(pins.ADC_PINS):
        mux = "U%d" % (2 + b)
        links.append((("U1", str(PHYSICAL[adc])), (mux, pin(CD4067, "COM"))))
        for i, gp in enumerate(pins.BANK_SELECT):
            links.append((("U1", str(PHYSICAL[gp])), (mux, pin(CD4067, "S%d" % i))))
    links.append((("U1", str(PHYSICAL[pins.LED_DATA])), ("U4", pin(AHCT125, "1A"))))
    links.append((("U4", pin(AHCT125, "1Y")), ("R1", "1")))
    links.append((("R1", "2"), ("J7", "1")))
    for k, gp in enumerate((pins.BUTTON_PASS, pins.BUTTON_CONFIRM, pins.BUTTON_NEW)):
        links.append((("U1", str(PHYSICAL[gp])), ("J5", str(k + 1))))
    for k, gp in enumerate((pins.DISPLAY_CLK, pins.DISPLAY_DIO)):
        links.append((("U1", str(PHYSICAL[gp])), ("J6", str(k + 1))))
    return links


def mismatches(nets):
    found = []
    for a, b in firmware_links():
        if nets.get(a) is None or nets.get(a) != nets.get(b):
            found.append("%s pad %s (%s) and %s pad %s (%s)" % (a[0], a[1], nets.get(a), b[0], b[1], nets.get(b)))
    # no net of the firmware's signals reaches a pad it should not
    signals = {nets[a] for a, _ in firmware_links() if a in nets}
    for (ref, number), net in nets.items():
        if net in signals and all((ref, number) not in pair for pair in firmware_links()):
            found.append("%s pad %s is on %s" % (ref, number, net))
    return found


def test_the_board_is_wired_as_the_firmware_reads_it():
    nets = pad_nets(BOARD.read_text())
    assert len(nets) > 150
    assert mismatches(nets) == []


def test_two_nets_swapped_are_found():
    nets = pad_nets(BOARD.read_text())
    a, b = ("J9", "6"), ("J9", "7")  # socket 1's SIG0 and SIG1 crossed
    nets[a], nets[b] = nets[b], nets[a]
    assert len(mismatches(nets)) >= 2
    nets = pad_nets(BOARD.read_text())
    gp2, gp3 = ("U1", str(PHYSICAL[pins.MUX_SELECT[0]])), ("U1", str(PHYSICAL[pins.MUX_SELECT[1]]))
    nets[gp2], nets[gp3] = nets[gp3], nets[gp2]
    assert mismatches(nets)


def test_the_committed_board_is_what_the_generator_writes(tmp_path):
    need_pcbnew()
    fresh = tmp_path / "controller.kicad_pcb"
    r = system_python("-m", "host_sim.tools.fab.controller", fresh, timeout=600)
    assert r.returncode == 0, r.stderr
    for suffix in (".kicad_pcb", ".kicad_pro", ".kicad_dru"):
        committed = BOARD.with_suffix(suffix)
        assert fresh.with_suffix(suffix).read_bytes() == committed.read_bytes(), (
            "%s is stale: make pcb-controller" % committed.name)


@pytest.mark.parametrize("ref,count", [("U1", 40), ("U2", 24), ("U3", 24), ("U4", 14), ("J8", 10), ("J23", 10)])
def test_footprints_have_their_datasheet_pin_counts(ref, count):
    nets_or_not = re.split(r"\n  \(footprint ", BOARD.read_text())
    block = [b for b in nets_or_not if '(fp_text reference "%s"' % ref in b][0]
    assert len(re.findall(r'\(pad "', block)) == count


def test_readme_table_says_what_the_boards_are():
    from host_sim.tools.fab import summary
    readme = (ROOT / "hardware" / "README.md").read_text()
    rows = summary.rows(ROOT / "hardware" / "pcb")
    assert len(rows) == 7
    for row in rows:
        assert row in readme, row


@pytest.mark.parametrize("size", (9, 13, 19))
def test_each_place_reaches_the_level2_input_the_firmware_reads(size):
    """Through the tile plan: a place on tile t (column by column from the
    left, each bottom up), read by that tile's level-1 mux k, comes in on
    socket t's SIG<k>, which the controller wires to level-2 input
    socket_channels(t) + k: the (bank, channel) pins.mux_address gives it."""
    from host_sim.tools.fab.controller import SOCKETS, socket_channels
    cols, rows = pins.tile_split(size)
    t = 0
    x0 = 0
    for w in cols:
        y0 = 0
        for h in rows:
            assert t < SOCKETS
            bank, first = socket_channels(t)
            for row in range(h):
                for col in range(w):
                    place = (y0 + row) * size + x0 + col
                    k = (row * w + col) // pins.MUX_CHANNELS
                    assert pins.mux_address(size, place)[:2] == (bank, first + k), (size, place)
            t += 1
            y0 += h
        x0 += w
