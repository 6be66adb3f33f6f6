"""mpremote for tests/test_room_boards_port.py: `connect PORT` then exec,
fs cp and reset (chained with +), done on the board plugged in now (the
flash folder named in $FAKE_PLUGGED's file): exec runs under the unix
port in that folder, as mpremote runs code on the board's REPL; reset
asks the test's board to restart (a file it watches)."""
import os
import shutil
import subprocess
import sys


def main(argv):
    assert argv[0] == "connect", argv
    control = os.environ["FAKE_PLUGGED"]
    with open(control) as f:
        flash = f.read().strip()
    steps, step = [], []
    for arg in argv[2:]:
        if arg == "+":
            steps.append(step)
            step = []
        else:
            step.append(arg)
    steps.append(step)
    for step in steps:
        if step[0] == "exec":
            env = dict(os.environ, MICROPYPATH=flash)
            res = subprocess.run([os.environ["FAKE_MICROPYTHON"], "-c", step[1]], cwd=flash,
                                 env=env, capture_output=True, text=True, timeout=60)
            sys.stdout.write(res.stdout)
            if res.returncode:
                sys.stderr.write(res.stdout + res.stderr)
                return 1
        elif step[:2] == ["fs", "cp"]:
            assert step[3].startswith(":"), step
            shutil.copyfile(step[2], os.path.join(flash, step[3][1:]))
        elif step == ["reset"]:
            open(control + ".reset", "w").close()
        else:
            sys.stderr.write("fake mpremote: %r not known\n" % (step,))
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
