"""Link cost per scan cycle: an idle poll, and a poll that runs one command."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "mp"))


def main():
    from fake_referee import FakeReferee, FakeStream
    from gogadget.link import Link

    ref = FakeReferee(19)
    st = FakeStream()
    lk = Link(ref, st)
    n = 20000
    t = time.perf_counter()
    for _ in range(n):
        lk.poll(0)
    idle = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for _ in range(2000):
        st.feed(b"gogadget-status\n")
        lk.poll(0)
        st.out = bytearray()
    cmd = (time.perf_counter() - t) / 2000
    print("idle poll          %8.2f us (CPython)" % (idle * 1e6))
    print("poll + status cmd  %8.2f us (CPython)" % (cmd * 1e6))


if __name__ == "__main__":
    main()
