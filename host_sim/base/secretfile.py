"""The one check for a file of secrets given on a command line (an OGS
account for `gogadget online`, the room's credentials.csv for `gogadget
relay`, `publish` and `remote`): as ssh does with a key, a file other users
may read is refused, with the fix in the message.

    private_file(path)     # ValueError, or nothing
"""
import os
import stat


def private_file(path):
    """ValueError unless path can be read and only by its owner's user."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError as e:
        raise ValueError("%s: %s" % (path, e.strerror or e))
    if mode & 0o077:
        raise ValueError("%s is open to other users (mode %03o): chmod 600 %s" % (path, mode, path))
