"""The emulated Pico's bench (host_sim/bench/rp2/) without the emulator:
`--results FILE` writes what the bench prints to a file as well, headed by
the command and the commit (the one run the docs' on-target figures are
quoted from), and the flash it builds makes a folder for every package of
the firmware (a firmware regrouped into subpackages still boots)."""
import contextlib
import io
from pathlib import Path

from host_sim import rp2
from host_sim.bench import rp2 as bench


def test_results_are_written_to_a_file_and_the_printed_figures_are_unchanged(tmp_path):
    path = tmp_path / "figures" / "rp2.txt"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.main(("heap",), None, "no UF2 here", results=path)
    printed = out.getvalue()
    assert printed == "rp2: not available (no UF2 here)\n", printed
    text = path.read_text()
    assert text.startswith("# python -m host_sim.bench.rp2 --image - heap\n# commit "), text
    assert text.endswith(printed), text
    # Without --results the bench writes no file and prints the same.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.main(("heap",), None, "no UF2 here")
    assert out.getvalue() == printed


def test_the_results_option_is_taken_from_the_arguments():
    assert bench.results_arg(["--image", "x.uf2", "--results", "r.txt", "heap"]) == \
        (["--image", "x.uf2", "heap"], Path("r.txt"))
    assert bench.results_arg(["heap"]) == (["heap"], None)


def test_every_package_of_the_firmware_gets_its_folder_on_the_flash(tmp_path):
    files = {"gogadget/__init__.mpy": b"a", "gogadget/hw/pins.mpy": b"b",
             "gogadget/clock/__init__.mpy": b"c", "gogadget/clock/clockio.mpy": b"d"}
    dirs = rp2.folders(files)
    assert dirs == ["gogadget", "gogadget/clock", "gogadget/hw"]
    img = rp2.flash_image(tmp_path / "flash.img", None, files, dirs=dirs + ["games"])
    assert rp2.read_image(img) == files


def test_each_part_has_its_runner():
    # (the package's `latency` is the part's timing function, as before the
    # split: the runner is found by module)
    for name in bench.RUNNERS:
        assert callable(bench.part_module(name).run), name
    assert callable(bench.latency)
