"""A GTP engine for tests that writes every command it gets to a log file
(one line each, then `-> =` or `-> ?` with the answer), so a test sees
exactly what a host told the engine.

    python recording_engine.py LOG [--no-kgs] [--proxy COMMAND]

It plays the first empty point of a fixed list on the third lines (it
tracks `play`); --no-kgs refuses kgs-time_settings as GNU Go 3.8 does;
--proxy passes every command to a real engine (e.g. GNU Go) and its
answer back, logging both.
"""
import shlex
import subprocess
import sys

ORDER = "C3 G7 C7 G3 E3 E7 C5 G5 D3 F7 D7 F3 C4 G6 C6 G4 E5 D5 F5 E4 E6".split()


def _answer(out, ok, text=""):
    out.write(("=" if ok else "?") + (" " + text if text else "") + "\n\n")
    out.flush()


def main(argv):
    log = open(argv[0], "a")
    no_kgs = "--no-kgs" in argv
    proxy = None
    if "--proxy" in argv:
        proxy = subprocess.Popen(shlex.split(argv[argv.index("--proxy") + 1]),
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    taken = set()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        log.write(" ".join(words) + "\n")
        log.flush()
        if proxy is not None:
            proxy.stdin.write(line)
            proxy.stdin.flush()
            lines = []
            while True:
                got = proxy.stdout.readline()
                if not got or (got.strip() == "" and lines):
                    break
                if got.strip():
                    lines.append(got.rstrip("\n"))
            text = "\n".join(lines)
            log.write("-> %s\n" % text)
            log.flush()
            sys.stdout.write(text + "\n\n")
            sys.stdout.flush()
            if words[0] == "quit":
                break
            continue
        cmd = words[0]
        if cmd == "quit":
            _answer(sys.stdout, True)
            break
        if cmd == "kgs-time_settings" and no_kgs:
            log.write("-> ?\n")
            _answer(sys.stdout, False, "unknown command")
            continue
        if cmd in ("boardsize", "clear_board"):
            taken.clear()
        if cmd == "play" and len(words) == 3:
            taken.add(words[2].upper())
        if cmd == "genmove":
            move = next((v for v in ORDER if v not in taken), "pass")
            taken.add(move)
            log.write("-> = %s\n" % move)
            _answer(sys.stdout, True, move)
            continue
        if cmd == "name":
            _answer(sys.stdout, True, "recorder")
            continue
        log.write("-> =\n")
        _answer(sys.stdout, True)
    log.close()
    if proxy is not None:
        proxy.stdin.close()
        proxy.wait(10)


if __name__ == "__main__":
    main(sys.argv[1:])
