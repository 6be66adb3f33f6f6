"""The board's restart a moment after the host's answer has gone out
(GTP gogadget-maintenance, configgtp.py): the one pin-level call the link
needs, kept here under hw/ with the rest of the machine code."""


def soon(ms):
    """machine.reset() ms from now, from a one-shot timer; False where there
    is no machine to restart (the unix port, CPython)."""
    try:
        import machine
        machine.Timer(mode=machine.Timer.ONE_SHOT, period=ms,  # pyright: ignore[reportCallIssue]
                      callback=lambda t: machine.reset())
    except (ImportError, AttributeError):
        return False
    return True
