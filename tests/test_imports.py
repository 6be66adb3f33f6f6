"""No import circle in firmware/ (issue 21): every `import` and `from ...
import` of a gogadget module, at module level or inside a function, is an
edge from the importing module to the imported one (and to the packages
it sits in); the test fails on any cycle, naming it.  A circle kept only
by importing inside a function is still a circle: the two modules cannot
be understood, tested or loaded apart."""
import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def module_name(root, path):
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(tree, name, is_package, known):
    """The firmware modules one module's source imports, wherever the
    import statement is."""
    out = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            targets = [base]
            # `from gogadget import sgf` names a module, `from gogadget.x import y` a name
            targets += [base + "." + a.name for a in node.names if base + "." + a.name in known]
        for t in targets:
            # importing a.b.c runs a and a.b first
            parts = t.split(".")
            for k in range(1, len(parts) + 1):
                m = ".".join(parts[:k])
                if m in known and m != name:
                    out.add(m)
    return out


def import_graph(root):
    root = Path(root)
    files = {}
    for p in sorted(root.rglob("*.py")):
        files[module_name(root, p)] = p
    graph = {}
    for name, p in files.items():
        tree = ast.parse(p.read_text(), str(p))
        graph[name] = imports_of(tree, name, p.name == "__init__.py", files)
    return graph


def cycles(graph):
    """Every import circle, each as a list of modules from its first back
    to it; [] when there is none."""
    found = []
    state = {}
    stack = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_the_detector_finds_circles_at_module_and_function_level(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import thing\n")
    (pkg / "b.py").write_text("def later():\n    from pkg import a\n    return a\n")
    (pkg / "c.py").write_text("import pkg.d\n")
    (pkg / "d.py").write_text("x = 1\n")
    (tmp_path / "main.py").write_text("def main():\n    from pkg import c\n")
    graph = import_graph(tmp_path)
    assert graph["main"] == {"pkg", "pkg.c"}
    assert graph["pkg.c"] == {"pkg", "pkg.d"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.a"]]
    (pkg / "b.py").write_text("thing = 1\n")
    assert cycles(import_graph(tmp_path)) == []


def test_no_import_circle_in_firmware():
    graph = import_graph(FIRMWARE)
    assert "gogadget.referee" in graph and "gogadget.hw.pico" in graph
    assert "gogadget.board" in graph["gogadget.referee"]
    circles = cycles(graph)
    assert circles == [], "import circles in firmware/: " + "; ".join(
        " -> ".join(c) for c in circles)


def test_no_import_circle_in_the_drawing_tools():
    """host_sim/tools (issue 27): wiring, pinouts and layout draw with the
    primitives of svg.py and import each other one way only."""
    root = FIRMWARE.parent
    files = {module_name(root, p): p for p in sorted((root / "host_sim" / "tools").glob("*.py"))}
    graph = {name: imports_of(ast.parse(p.read_text(), str(p)), name, p.name == "__init__.py",
                              files) for name, p in files.items()}
    assert {"host_sim.tools.svg", "host_sim.tools.layout"} <= graph["host_sim.tools.wiring"]
    circles = cycles(graph)
    assert circles == [], "import circles in host_sim/tools: " + "; ".join(
        " -> ".join(c) for c in circles)
