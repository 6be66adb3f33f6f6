"""Write every board of the tile plan under hardware/pcb/ (make pcb)."""
import sys

from host_sim.tools.pcb import boards


def main(argv=None):
    for path in boards.write_all():
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
