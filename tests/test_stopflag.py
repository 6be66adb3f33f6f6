"""host_sim/base/stopflag.py: SIGTERM/SIGINT as a flag while a command runs."""
import multiprocessing
import os
import signal

from host_sim.base.stopflag import StopFlag


def test_the_handlers_are_given_back():
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    with StopFlag() as stop:
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.wait(5)
    assert {s: signal.getsignal(s) for s in before} == before


def _sleep():
    import time
    time.sleep(60)


def test_a_process_forked_after_a_command_still_dies_of_sigterm():
    # In-process command tests left SIGTERM ignored, and the stress's worker
    # pool, forked later in the same pytest run, could then never be
    # terminated: the whole run hung in Pool.terminate().
    with StopFlag():
        pass
    child = multiprocessing.get_context("fork").Process(target=_sleep)
    child.start()
    child.terminate()
    child.join(10)
    assert child.exitcode == -signal.SIGTERM
