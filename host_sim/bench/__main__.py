"""Run every benchmark section in turn; each section prints its own figures."""
import importlib
import sys

SECTIONS = ("rules", "referee", "scan", "sensors", "link", "rp2", "room", "relayrules", "study")


def main(argv):
    wanted = argv or SECTIONS
    for name in wanted:
        try:
            module = importlib.import_module("host_sim.bench." + name)
        except ImportError as exc:
            print("== %s: not available (%s)" % (name, exc))
            continue
        print("== " + name)
        module.main()
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
