"""`python -m host_sim.bench.rp2 [--image UF2] [--board pico|pico_w] [--results FILE] [PART...]`."""
import sys

from host_sim.bench.rp2 import image_arg, main, results_arg

argv, results = results_arg(sys.argv[1:])
main(*image_arg(argv), results=results)
