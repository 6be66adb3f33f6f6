"""The emulated Pico a part runs on: its flash's physical board, a fresh boot, a script over the raw REPL, the output's tagged lines."""
import asyncio

from host_sim.bench.rp2 import SIZE

# Run over the raw REPL just before a script: the heap free at the REPL,
# the heap at boot the targets are shares of (and, for the heap bench,
# what its own part takes is measured against it).
REPL_FREE = "import gc\ngc.collect()\nprint('REPL_FREE', gc.mem_free())\n"


async def on_pico(image, code, size=SIZE, firmware=None, attach=None, before=""):
    """Boot a fresh Pico (so nothing of an earlier script is in its heap)
    and run code over the raw REPL (after `before`, if given); the output.  CONFIRM is held at
    power-up: a frozen main.py (the Pico W image's) then returns to the REPL
    instead of starting the scan loop, whose link turns Ctrl-C off, so the
    raw REPL would never answer.  attach(pico), given, wires the Pico up
    before it boots (the physical sensors of physics_adc)."""
    from host_sim import rp2
    from gogadget.hw import pins
    pico = rp2.Pico(image, size=size, firmware=firmware, hold_confirm=True,
                    board=rp2.uf2_board(firmware))
    if attach is not None:
        attach(pico)
    await pico.start()
    pico.press(pins.BUTTON_CONFIRM, False)  # released before the script's buttons look
    first = ""
    if before:
        out, err = await pico.exec(before, timeout=600)
        first = out + err
    out, err = await pico.exec(code, timeout=3600)
    pico.stop()
    return first + out + err


# What a firmware image holds, asked on an empty flash: whether gogadget is
# frozen in (then the bench puts no .mpy files on the flash, which imports
# would take first), whether main.py is, and the board's name.
PROBE = r"""
import os, sys
try:
    import gogadget  # the flash has none: only a frozen one imports
    frozen = True
except ImportError:
    frozen = False
print("PROBE", repr((frozen, os.uname().machine, sys.version)))
"""


async def probe(image, firmware):
    out = await on_pico(image, PROBE, firmware=firmware)
    frozen, machine, version = eval(parse("PROBE", out))
    return frozen, machine, version


def parse(tag, text):
    for line in text.splitlines():
        if line.startswith(tag + " "):
            return line[len(tag) + 1:]
    raise RuntimeError("no %s line in:\n%s" % (tag, text[-1500:]))


# The physical board the cycle, latency and scan parts read: host_sim.sim.physics's nominal parts,
# calibrated the maker's way on the host through the firmware's Calibrator.
SCAN_SEED = 17
LATE_STONES = 160


def physical_board(d, files):
    """A physics.Board of host_sim.sim.physics's nominal parts, calibrated the
    maker's way on the host (the firmware's Calibrator), and files plus its
    calibration as the flash's calib.bin: (board, files)."""
    from host_sim.rp2 import physics_adc
    from gogadget.hw import pico as hw_pico
    board, result = physics_adc.calibrated_board(SIZE, d / "calib.bin", "nominal", SCAN_SEED)
    if not result.startswith("ok"):
        raise SystemExit("the bench's physical board did not calibrate: %s" % result)
    out = dict(files)
    out[hw_pico.CALIBRATION_FILE] = (d / "calib.bin").read_bytes()
    return board, out


def physics_attach(board):
    """on_pico's attach: board's sensors on the Pico's ADC."""
    def attach(pico):
        from host_sim.rp2 import physics_adc
        physics_adc.PhysicsAdc(pico, board=board)
    return attach


def rp2_place(col, row):
    return row * SIZE + col


def _version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "?"
