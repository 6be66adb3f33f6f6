"""Every promise of docs/ROOM.md's threat model names the test that holds
it: each `test_x.py::test_name` (or `::test_name`, in the file named last)
there is a test that exists."""
import re

from conftest import ROOT


def named_tests(text):
    out, last = [], None
    for m in re.finditer(r"`(test_\w+\.py)?::(test_\w+)`", text):
        last = m.group(1) or last
        assert last, "a test named before any file: %s" % m.group(0)
        out.append((last, m.group(2)))
    return out


def test_every_test_the_threat_model_names_exists():
    doc = (ROOT / "docs" / "ROOM.md").read_text()
    promises = doc[doc.index("#### What holds, and the test that holds it"):]
    named = named_tests(promises)
    assert len(named) >= 20, named
    for path, name in named:
        source = (ROOT / "tests" / path).read_text()
        assert re.search(r"^def %s\(" % name, source, re.M), "%s::%s is not a test" % (path, name)
