"""The WS2812 chain's PIO program (hw/ws2812pio.py's state machine runs it):
a module of its own, which the chain loads once when it is made and lets
go of (its bytecode is needed only to assemble the program)."""


def program(rp2):
    """The ws2812 program of MicroPython's examples/rp2/pio_ws2812.py."""
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=8)
    def ws2812():
        # asm_pio runs this body with the PIO instructions as globals.
        T1 = 2
        T2 = 5
        T3 = 3
        wrap_target()  # pyright: ignore[reportUndefinedVariable]
        label("bitloop")  # pyright: ignore[reportUndefinedVariable]
        out(x, 1).side(0)[T3 - 1]  # pyright: ignore[reportUndefinedVariable]
        jmp(not_x, "do_zero").side(1)[T1 - 1]  # pyright: ignore[reportUndefinedVariable]
        jmp("bitloop").side(1)[T2 - 1]  # pyright: ignore[reportUndefinedVariable]
        label("do_zero")  # pyright: ignore[reportUndefinedVariable]
        nop().side(0)[T2 - 1]  # pyright: ignore[reportUndefinedVariable]
        wrap()  # pyright: ignore[reportUndefinedVariable]
    return ws2812
