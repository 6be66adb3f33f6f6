"""umqtt.simple from micropython-lib, for the boards that publish over Wi-Fi
(gogadget.hw.net) and for the tests that run the firmware's publisher under
the MicroPython unix port.  It is not part of this repository: this tool
downloads the published sdist, checks its sha256, and puts the one module
into build/lib/umqtt/simple.py (`make mpy` compiles it beside, `make deploy`
copies it to the board's /lib; `make test` fetches it too).

    python -m host_sim.tools.mqttlib            # fetch (nothing to do when present)
    python -m host_sim.tools.mqttlib --check    # exit 1 unless it is there, intact

On a board with Wi-Fi, `mpremote mip install umqtt.simple` installs the
current micropython-lib release instead; both work with the firmware.
"""
import argparse
import hashlib
import io
import os
import sys
import tarfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
LIB = ROOT / "build" / "lib"
NAME = "micropython-umqtt.simple"
VERSION = "1.3.4"
URL = ("https://files.pythonhosted.org/packages/bd/cf/"
       "697e3418b2f44222b3e848078b1e33ee76aedca9b6c2430ca1b1aec1ce1d/"
       "micropython-umqtt.simple-1.3.4.tar.gz")
SDIST_SHA256 = "b6a2520239e3992c63a7de9370ee9b3d9d27819a90359c521f1c0f7ccab8d12f"
MEMBER = "micropython-umqtt.simple-1.3.4/umqtt/simple.py"
# The module as it is in that sdist: a copy already in build/lib is checked
# against this (no download needed).
MODULE_SHA256 = "8555d2f654deb8eb0d724f79b0811a78cc94029d070f3d96bbd74288653d63a5"


def module_path(lib=LIB):
    return Path(lib) / "umqtt" / "simple.py"


def present(lib=LIB):
    """Is build/lib/umqtt/simple.py there, byte for byte the pinned one?"""
    try:
        data = module_path(lib).read_bytes()
    except OSError:
        return False
    return hashlib.sha256(data).hexdigest() == MODULE_SHA256


def extract(sdist):
    """The module's bytes from the sdist's bytes (checked: sdist and module)."""
    got = hashlib.sha256(sdist).hexdigest()
    if got != SDIST_SHA256:
        raise ValueError("%s %s: sha256 %s, expected %s" % (NAME, VERSION, got, SDIST_SHA256))
    with tarfile.open(fileobj=io.BytesIO(sdist), mode="r:gz") as tar:
        member = tar.getmember(MEMBER)
        f = tar.extractfile(member)
        if f is None:
            raise ValueError("%s is not a file in the sdist" % MEMBER)
        data = f.read()
    if hashlib.sha256(data).hexdigest() != MODULE_SHA256:
        raise ValueError("umqtt/simple.py in the sdist is not the pinned one")
    return data


def download(url=URL, timeout=60):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def fetch(lib=LIB, url=URL, stream=sys.stdout, get=download):
    """Make build/lib/umqtt/simple.py; returns its path."""
    path = module_path(lib)
    if present(lib):
        return path
    print("fetching %s %s from %s" % (NAME, VERSION, url), file=stream)
    data = extract(get(url))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    print("%7d  %s" % (len(data), path), file=stream)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.tools.mqttlib",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", type=Path, default=LIB, help="where lib/ is (default build/lib)")
    ap.add_argument("--check", action="store_true", help="only check it is there")
    args = ap.parse_args(argv)
    if args.check:
        ok = present(args.lib)
        print("%s: %s" % (module_path(args.lib), "ok" if ok else "missing or not the pinned one"))
        return 0 if ok else 1
    try:
        fetch(args.lib)
    except (OSError, ValueError, KeyError, tarfile.TarError) as exc:
        print("mqttlib: could not get %s %s: %s" % (NAME, VERSION, exc), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
