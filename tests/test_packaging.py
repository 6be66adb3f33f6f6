"""pyproject.toml as setuptools and pytest read it: a build that says
nothing a newcomer must act on, a wheel with every package, skips that say
why."""
import subprocess
import sys
import zipfile

from conftest import ROOT


def _sources(dest):
    files = subprocess.run(["git", "ls-files", "-z", "pyproject.toml", "README.md",
                            "firmware/gogadget", "host_sim"], cwd=ROOT, check=True,
                           capture_output=True).stdout.split(b"\0")
    for name in filter(None, files):
        target = dest / name.decode()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / name.decode()).read_bytes())


def test_the_build_warns_of_nothing_and_the_wheel_holds_every_package(tmp_path):
    # A copy, so the build's build/ and egg-info stay out of the tree
    # (build/lib is make mpy's).  The first `make` printed about 110 lines
    # of setuptools warnings: the license as a table, the page's static/
    # folder not a package of its own.
    src = tmp_path / "src"
    _sources(src)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                        "-w", str(tmp_path / "out"), str(src)],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    noise = [line for line in (r.stdout + r.stderr).splitlines()
             if "Warning" in line or "deprecated" in line.lower() or "!!" in line]
    assert noise == []
    (wheel,) = (tmp_path / "out").glob("gogadget-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("gogadget", "gogadget/hw", "host_sim", "host_sim/base", "host_sim/bench",
                   "host_sim/faces", "host_sim/person", "host_sim/room", "host_sim/sim",
                   "host_sim/rp2", "host_sim/tools"):
        assert folder + "/__init__.py" in names, folder
    assert "host_sim/room/static/index.html" in names and "host_sim/room/static/room.js" in names


def test_pytest_says_why_a_test_was_skipped(tmp_path):
    # Plain `make test` uses pyproject's options: a skip shows its reason.
    test = tmp_path / "test_skip.py"
    test.write_text("import pytest\n\ndef test_x():\n    pytest.skip('no frobnicator here')\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(test)],
                       capture_output=True, text=True, timeout=60)
    assert "SKIPPED [1]" in r.stdout and "no frobnicator here" in r.stdout, r.stdout


def test_the_makefiles_editable_install_says_nothing_and_imports(tmp_path):
    """`make venv` (the first `make sim`) installs the project editable; the
    setuptools note "Please be careful with folders ..." is information a
    newcomer cannot act on: the Makefile's own install line keeps it out,
    and the install still imports from the tree."""
    import re
    recipe = next(line for line in (ROOT / "Makefile").read_text().splitlines()
                  if "pip install" in line and " -e " in line)
    env_words = dict(re.findall(r"(\w+)='([^']*)'", recipe.split("$(BIN)/pip")[0]))
    src = tmp_path / "src"
    _sources(src)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    import os
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--no-deps", "-e", str(src)],
                       capture_output=True, text=True, timeout=240,
                       env=dict(os.environ, **env_words))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    said = r.stdout + r.stderr
    assert "Please be careful" not in said and "Editable installation" not in said, said
    r = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import gogadget, host_sim.tools; print(gogadget.__file__)"],
                       capture_output=True, text=True, cwd=str(tmp_path), timeout=60)
    assert r.stdout.strip() == str(src / "firmware" / "gogadget" / "__init__.py"), r.stderr
