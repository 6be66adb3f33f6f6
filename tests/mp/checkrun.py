"""Run a module's check_* functions the same way on both interpreters.

Each check returns a short text; run_checks prints "name: result" lines (or
"name: FAIL ...") so pytest can compare CPython's lines with MicroPython's.
"""


def checks(namespace):
    """Every check_* function in a module's globals(), in name order."""
    return [namespace[name] for name in sorted(namespace) if name.startswith("check_")]


def run_checks(namespace, names=None):
    out = []
    for fn in checks(namespace):
        name = fn.__name__
        if names and name not in names:
            continue
        try:
            result = fn()
        except Exception as exc:  # report and go on: the caller compares lines
            result = "FAIL %s %s" % (type(exc).__name__, exc)
        line = "%s: %s" % (name, result)
        print(line)
        out.append(line)
    return out
