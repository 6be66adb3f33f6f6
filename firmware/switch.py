"""A firmware update's switch, run by main.py at every start before
gogadget/ is imported, and let go of (sys.modules) afterwards: a file of
its own beside main.py, so that it works with gogadget/ missing, and so
that a game never holds its code.

gogadget update (host_sim/tools/update.py) writes the new package whole
to gogadget.new/, its manifest.json last, and switches it in by renaming
the folders; a cut before the manifest leaves the old firmware (the half
written folder is removed here), a cut during the switch is finished
here.  A file "maint" (GTP gogadget-maintenance) starts no game once: the
REPL is then free for mpremote."""
import os


def _is(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _rm(path):
    if os.stat(path)[0] & 0x4000:  # a folder
        for name in os.listdir(path):
            _rm(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


def run():
    """Finish or undo an update; False when the board is to stay in maintenance."""
    if _is("gogadget.new/manifest.json"):
        if _is("gogadget"):
            if _is("gogadget.old"):
                _rm("gogadget.old")
            os.rename("gogadget", "gogadget.old")
        os.rename("gogadget.new", "gogadget")
        print("gogadget: update switched in")
    elif _is("gogadget.new"):
        _rm("gogadget.new")
        print("gogadget: an update cut short was removed, the firmware is as it was")
    if _is("gogadget.old"):
        if _is("gogadget"):
            _rm("gogadget.old")
        else:
            os.rename("gogadget.old", "gogadget")
    if _is("maint"):
        os.remove("maint")
        print("gogadget: maintenance, not starting (the REPL is free)")
        return False
    return True
