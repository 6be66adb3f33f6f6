"""GTP on a board's console: a command asked with an id, the port opened, the wait for a board back from its reset."""
import time


class ConsoleError(Exception):
    """A board's console that cannot be opened."""


def ask(transport, command, timeout, every=None):
    """One GTP command with an id (a console may still hold an older
    answer, or boot text: only the answer with this id counts), sent
    again with the same id every `every` seconds without one (the
    emulated Pico's console may hold an answer until more comes in); the
    answer's text, or None with no GTP answer in time; GtpError on '?'."""
    from host_sim.base.serialport import GtpError
    ident = 7300 + int(time.monotonic() * 1000) % 2000
    deadline = time.monotonic() + timeout
    while True:
        transport.write(b"%d %s\n" % (ident, command.encode()))
        again = time.monotonic() + (every or timeout)
        while time.monotonic() < again:
            line = transport.read_line(max(0.0, min(again, deadline) - time.monotonic()))
            if line is None:
                break
            text = line.decode("utf-8", "replace").strip()
            for mark in ("=", "?"):
                if text.startswith("%s%d" % (mark, ident)):
                    body = text[len(mark) + len(str(ident)):].strip()
                    if mark == "?":
                        raise GtpError(body)
                    return body
        if time.monotonic() >= deadline:
            return None


def transport_for(port):
    """A line transport on a serial port or a socket:// console."""
    import serial
    from host_sim.base.serialport import SerialTransport
    try:
        if "://" in port:  # the emulated Pico's console, as mpremote takes it
            transport = SerialTransport.__new__(SerialTransport)
            transport.port, transport._buf, transport.check = port, bytearray(), None
            transport.ser = serial.serial_for_url(port, timeout=0.05)
            return transport
        return SerialTransport(port)
    except (OSError, serial.SerialException) as exc:
        raise ConsoleError("cannot open %s: %s" % (port, exc))


def back_after_reset(port, wait_s):
    """(version, board_id as JSON) of the board on port once it is back
    from its reset, or (None, None) after wait_s.  Its port goes away while
    it restarts and may still be the old run's for a moment after the reset
    (a USB board's disappears and comes back after boot): opened again
    until it answers."""
    from host_sim.base.serialport import LinkClosed
    version = got = None
    deadline = time.monotonic() + wait_s
    while got is None and time.monotonic() < deadline:
        try:
            transport = transport_for(port)
        except ConsoleError:
            time.sleep(0.5)
            continue
        try:
            left = max(1.0, deadline - time.monotonic())
            version = version or ask(transport, "version", left, every=10)
            got = version and ask(transport, "gogadget-config board_id", left, every=10)
        except LinkClosed:
            time.sleep(0.5)
        finally:
            transport.close()
    return version, got
