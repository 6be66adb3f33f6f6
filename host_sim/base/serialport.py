"""Host side of the USB serial link: byte transports and a GTP client.

A real board is a serial port (pyserial); the simulated board is the
master end of a pty whose slave path is opened with pyserial exactly like
/dev/ttyACM0, so host tools run the same code against both.
"""
import errno
import os
import subprocess
import time

import serial

DEFAULT_PORT = "/dev/ttyACM0"  # a Pico's USB serial under Linux (cli's --port, update)
DEFAULT_BAUD = 115200  # USB CDC ignores it, but pyserial wants one


class GtpError(Exception):
    """The other side answered "? ..."."""


class LinkClosed(Exception):
    """The other side went away (port closed, engine exited)."""


class FdStream:
    """A non-blocking file descriptor as the board's byte stream (Link's
    readinto/write interface); used for the simulator's pty master."""

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)

    def readinto(self, buf):
        try:
            data = os.read(self.fd, len(buf))
        except BlockingIOError:
            return 0
        except OSError as exc:
            if exc.errno == errno.EIO:  # pty slave not open right now
                return 0
            raise
        buf[:len(data)] = data
        return len(data)

    def write(self, data):
        view = memoryview(data)
        deadline = time.monotonic() + 5.0
        while view:
            try:
                n = os.write(self.fd, view)
                view = view[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OSError(errno.EAGAIN, "host is not reading")
                time.sleep(0.001)


class SerialTransport:
    """Line-oriented access to a serial port (a board or the simulator's pty)."""

    def __init__(self, port, baud=DEFAULT_BAUD, check=None):
        self.port = port
        self.ser = serial.Serial(port, baud, timeout=0.05, write_timeout=5)
        self._buf = bytearray()
        # check() raises when the other end is known to be dead (the
        # simulator's thread), so a wait for an answer never hangs.
        self.check = check

    def write(self, data):
        self.ser.write(data)
        self.ser.flush()

    def read_line(self, timeout=None):
        """One line (without the newline) as bytes; None at timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[:i + 1]
                return line
            if deadline is not None and time.monotonic() > deadline:
                return None
            if self.check is not None:
                self.check()
            try:
                chunk = self.ser.read(max(1, self.ser.in_waiting))
            except serial.SerialException as exc:
                raise LinkClosed(str(exc))
            if chunk:
                self._buf += chunk

    def close(self):
        self.ser.close()


class PipeTransport:
    """A GTP engine run as a child process (GNU Go and friends)."""

    def __init__(self, argv):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)

    def write(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise LinkClosed(str(exc))

    def read_line(self, timeout=None):
        line = self.proc.stdout.readline()
        if not line:
            raise LinkClosed("%s exited" % self.argv[0])
        return line.rstrip(b"\n")

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def status_words(text):
    """gogadget-status's key=value words (up to the "|" and its text)."""
    out = {}
    for word in text.split("|", 1)[0].split():
        key, sep, value = word.partition("=")
        if sep:
            out[key] = value
    return out


class GtpClient:
    """Sends GTP commands and reads responses (ends at an empty line)."""

    def __init__(self, transport):
        self.transport = transport

    def raw(self, command, timeout=None):
        """Send one line; return (ok, text) with the "=" / "?" stripped."""
        self.transport.write(command.encode() + b"\n")
        return self.read_response(timeout)

    def read_response(self, timeout=None):
        lines = []
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self.transport.read_line(left)
            if line is None:
                raise TimeoutError("no answer from %s" % getattr(self.transport, "port", "engine"))
            text = line.decode("utf-8", "replace").replace("\r", "")
            if not lines and not text.strip():
                continue  # stray empty line before a response
            if lines and not text.strip():
                break
            lines.append(text)
        head = lines[0]
        ok = head.startswith("=")
        if not ok and not head.startswith("?"):
            raise GtpError("not a GTP response: %r" % head)
        body = head[1:].lstrip("0123456789")
        if body.startswith(" "):
            body = body[1:]
        text = "\n".join([body] + lines[1:]).strip("\n")
        return ok, text

    def send(self, command, timeout=None):
        ok, text = self.raw(command, timeout)
        if not ok:
            raise GtpError("%s: %s" % (command.split()[0] if command.split() else command, text))
        return text

    def close(self):
        try:
            self.send("quit", timeout=5)
        except (GtpError, TimeoutError, LinkClosed, OSError):
            pass
        self.transport.close()


def engine(command):
    """Start a GTP engine from a command line ("gnugo --mode gtp")."""
    import shlex
    return GtpClient(PipeTransport(shlex.split(command)))


def board(port):
    """A GtpClient on the board at a serial port."""
    return GtpClient(SerialTransport(port))
