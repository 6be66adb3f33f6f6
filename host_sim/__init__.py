"""Desktop side of Go Gadget: the simulator and the host tools (CPython only)."""
