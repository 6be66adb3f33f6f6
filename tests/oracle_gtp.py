"""A minimal GTP client for the oracle tests: one long-lived process,
commands sent in batches (one write, then one read per response) so that
thousands of queries per game stay cheap."""
import subprocess

GNUGO = "/usr/games/gnugo"

# GNU Go mode flags -> our (ko, suicide) options.  Verified by the oracle
# tests themselves (every point's legality agrees on random games):
#   default                  simple ko (000 Rule 8), no suicide at all
#   --allow-suicide          several stones may self-capture, a lone stone
#                            may not: SUICIDE_MULTI (not SUICIDE_ALLOWED)
#   --allow-all-suicide      any self-capture: SUICIDE_ALLOWED
#   --positional-superko     KO_POSITIONAL
#   --situational-superko    KO_SITUATIONAL
GNUGO_MODES = {
    "default": ((), "simple", "forbidden"),
    "positional": (("--positional-superko",), "positional", "forbidden"),
    "situational": (("--situational-superko",), "situational", "forbidden"),
    "multi-suicide": (("--allow-suicide",), "simple", "multi"),
    "all-suicide": (("--allow-all-suicide",), "simple", "allowed"),
    "positional-all-suicide": (("--positional-superko", "--allow-all-suicide"), "positional", "allowed"),
    "situational-all-suicide": (("--situational-superko", "--allow-all-suicide"), "situational", "allowed"),
}


class GtpProcess:
    def __init__(self, argv, cwd=None, env=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, cwd=cwd, env=env,
                                     bufsize=1 << 16)

    def batch(self, commands):
        """Send commands; returns [(ok, text)] in order.  Batches must stay
        below the pipe buffers (a few thousand short commands)."""
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()
        out = []
        readline = self.proc.stdout.readline
        for _ in commands:
            first = readline()
            if not first:
                raise RuntimeError("GTP engine exited")
            lines = [first.rstrip("\n")]
            while True:
                line = readline()
                if line == "\n" or not line:
                    break
                lines.append(line.rstrip("\n"))
            text = "\n".join(lines)
            out.append((text[0] == "=", text[1:].lstrip("0123456789").strip()))
        return out

    def one(self, command):
        ok, text = self.batch([command])[0]
        if not ok:
            raise RuntimeError(command + ": " + text)
        return text

    def close(self):
        try:
            self.batch(["quit"])
        except (RuntimeError, OSError, ValueError):
            pass
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def gnugo(mode, gnugo_path=GNUGO):
    flags = GNUGO_MODES[mode][0]
    return GtpProcess([gnugo_path, "--mode", "gtp", "--level", "0"] + list(flags))


def margin(result):
    """A GTP final_score or SGF RE text -> Black's margin (W+3.5 -> -3.5)."""
    result = result.strip()
    if result in ("0", "0.0", "Draw"):
        return 0.0
    value = float(result[2:])
    return value if result[0] in "Bb" else -value
