"""The emulated Pico's USB console on TCP, for the real mpremote and `make deploy`.

    python -m host_sim.rp2.serve --tcp-port N [--image UF2] [--flash FLASH.img] [--dump-fs OUT.img]
    make deploy PORT=socket://127.0.0.1:N

What `rp2040py micropython --image UF2 --tcp-port N --dump-fs OUT` does,
on the MicroPython UF2 you give (--image, else GOGADGET_UF2, else the cache
folder: host_sim.rp2.find_firmware) and with the USB modelling artifact
patched (host_sim.rp2.patch_usb), which makes a raw-REPL file copy several
times faster.  Prints "listening on 127.0.0.1:N" once the board has enumerated;
SIGTERM or SIGINT stops it and writes the flash file system to --dump-fs.
"""
import argparse
import asyncio
import signal
import sys


async def serve(port, firmware, image=None, dump=None, ready=sys.stdout):
    from rp2040py.boards import BOARDS, resolve_firmware
    from rp2040py.cli.socket_repl import SocketInteractiveRepl
    from rp2040py.device import MicroPythonDevice

    from host_sim import rp2

    board = resolve_firmware(BOARDS[rp2.uf2_board(firmware)], "micropython", str(firmware))
    dev = MicroPythonDevice(board=board, filesystem=image)
    rp2.patch_usb(dev)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    repl = SocketInteractiveRepl(dev.cdc, dev.simulator, on_quit=lambda code: stop.set(), port=port)
    await repl.start()
    try:
        await dev.astart(timeout=None)
        print("listening on 127.0.0.1:%d" % repl.port, file=ready, flush=True)
        await stop.wait()
    finally:
        await repl.stop()
        dev.stop()
        if dump:
            dev.dump_flash_image(dump)
            print("flash written to %s" % dump, file=ready, flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.rp2.serve", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tcp-port", type=int, required=True)
    ap.add_argument("--image", help="the MicroPython UF2 to boot, or a folder of them "
                    "(default: $GOGADGET_UF2, else the cache folder)")
    ap.add_argument("--board", choices=("pico", "pico_w"), default="pico",
                    help="which board's firmware to look for in a folder (default pico)")
    ap.add_argument("--flash", help="littlefs image of the filesystem to boot with "
                    "(default: what the UF2 holds, erased flash for an official one)")
    ap.add_argument("--dump-fs", help="write the flash file system here on exit")
    args = ap.parse_args(argv)
    from host_sim import rp2
    reason = rp2.missing_packages()
    firmware, why = rp2.find_firmware(args.board, args.image)
    if reason or why:
        raise SystemExit(reason or why)
    asyncio.run(serve(args.tcp_port, firmware, args.flash, args.dump_fs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
