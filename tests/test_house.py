"""How the house is built (issue 39): host_sim's folders stand on floors and
import only downward, and no module grows past 500 lines without saying why.

host_sim's floors, lowest first (docs/ARCHITECTURE.md, "The house"):

  0  the package itself (host_sim/__init__.py: data_dir), base/ (the serial
     link, GTP time and hints, the stop flag, secret files), and the data
     folders games/ and problems/;
  1  sim/ (the virtual board), with tools/ beside it: the board's model takes
     its geometry and bytecode tools from tools/, and tools' update and image
     reach the simulator's store (sim/session.py) and problems (sim/study.py);
  2  person/ (the seeded person: replays, stress, corpus);
  3  faces/ (the window, the terminal, their launcher: a record is loaded
     onto the board by the person's tidy hand);
  4  room/, ogs/, rp2/ (the services);
  5  bench/;
  6  cli.py and commands/ (the gogadget command and its subcommands' bodies),
     __main__.py, docgen.py (on top; nothing imports them).

A module may import from its own floor and the floors below, never from
one above, at module level or inside a function.  A new folder or a new
module at host_sim's top fails here until it is given a floor.

Modules under firmware/ and host_sim/ hold at most LONGEST lines; one that
needs more says why in its docstring, with the words of MARKER ("Longer
than 500 lines because ...").
"""
import ast
from pathlib import Path

from conftest import ROOT
from test_imports import imports_of, module_name

FLOORS = [
    ("host_sim", "base", "games", "problems"),
    ("sim", "tools"),
    ("person",),
    ("faces",),
    ("room", "ogs", "rp2"),
    ("bench",),
    ("cli", "commands", "__main__", "docgen"),
]
LONGEST = 500
MARKER = "Longer than 500 lines because"


def place(name):
    """The folder (or top module) of host_sim a module stands in: host_sim.sim.virtual -> sim."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def floor_of(name):
    where = place(name)
    for n, floor in enumerate(FLOORS):
        if where in floor:
            return n
    return None


def host_sim_graph(root):
    root = Path(root)
    files = {module_name(root, p): p for p in sorted((root / "host_sim").rglob("*.py"))}
    return {name: imports_of(ast.parse(p.read_text(), str(p)), name, p.name == "__init__.py", files)
            for name, p in files.items()}


def upward_imports(root):
    """Every import from a lower floor into a higher one, and every module on no floor."""
    graph = host_sim_graph(root)
    found = ["%s is on no floor (give %s one in FLOORS)" % (m, place(m))
             for m in sorted(graph) if floor_of(m) is None]
    for m, deps in sorted(graph.items()):
        for d in sorted(deps):
            if None not in (floor_of(m), floor_of(d)) and floor_of(d) > floor_of(m):
                found.append("%s (floor %d) imports %s (floor %d)" % (m, floor_of(m), d, floor_of(d)))
    return found


def test_host_sim_imports_only_downward():
    graph = host_sim_graph(ROOT)
    # The floors are those of this tree: every folder is on one, and the
    # person really stands on the board (the check is not vacuous).
    assert "host_sim.sim.virtual" in graph["host_sim.person.replay"]
    assert not [f for floor in FLOORS for f in floor if f != "host_sim" and not (
        (ROOT / "host_sim" / f).is_dir() or (ROOT / "host_sim" / (f + ".py")).is_file())]
    found = upward_imports(ROOT)
    assert found == [], "imports that run up host_sim's floors:\n" + "\n".join(found)


def plant(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_an_upward_import_is_found(tmp_path):
    """The check above fails on an upward import, even one inside a
    function, and on a module that stands on no floor."""
    plant(tmp_path, {"host_sim/__init__.py": "", "host_sim/base/__init__.py": "",
                     "host_sim/faces/__init__.py": "", "host_sim/faces/gui.py": "",
                     "host_sim/sim/__init__.py": "",
                     "host_sim/sim/virtual.py": "def f():\n    from host_sim.faces import gui\n",
                     "host_sim/base/link.py": "import host_sim.sim.virtual\n",
                     "host_sim/stray.py": "from host_sim.base import link\n"})
    assert upward_imports(tmp_path) == [
        "host_sim.stray is on no floor (give stray one in FLOORS)",
        "host_sim.base.link (floor 0) imports host_sim.sim (floor 1)",
        "host_sim.base.link (floor 0) imports host_sim.sim.virtual (floor 1)",
        "host_sim.sim.virtual (floor 1) imports host_sim.faces (floor 3)",
        "host_sim.sim.virtual (floor 1) imports host_sim.faces.gui (floor 3)"]


def too_long(root):
    """Modules under firmware/ and host_sim/ over LONGEST lines whose
    docstring does not say why, each with its length."""
    found = []
    for top in ("firmware", "host_sim"):
        for path in sorted((Path(root) / top).rglob("*.py")):
            text = path.read_text()
            lines = len(text.splitlines())
            if lines > LONGEST and MARKER not in (ast.get_docstring(ast.parse(text)) or ""):
                found.append("%s: %d lines" % (path.relative_to(root).as_posix(), lines))
    return found


def test_no_module_over_500_lines_without_a_reason():
    found = too_long(ROOT)
    assert found == [], ("modules over %d lines, with no \"%s ...\" in their docstring "
                         "(split them along their jobs):\n" % (LONGEST, MARKER)) + "\n".join(found)


def test_a_long_module_is_found(tmp_path):
    body = "x = 1\n" * LONGEST
    plant(tmp_path, {"firmware/gogadget/short.py": '"""One job."""\n' + "x = 1\n" * (LONGEST - 1),
                     "firmware/gogadget/long.py": '"""One job."""\n' + body,
                     "host_sim/said.py": '"""One job.\n\n%s it must.\n"""\n' % MARKER + body,
                     "host_sim/unsaid.py": "# %s a comment is no docstring\n" % MARKER + body})
    assert too_long(tmp_path) == ["firmware/gogadget/long.py: %d lines" % (LONGEST + 1),
                                  "host_sim/unsaid.py: %d lines" % (LONGEST + 1)]
