"""The room's names: MQTT topics, a board id's rule and the keepalive, for the board, the relay and the host tools."""
# (defined once here, docs/ROOM.md; the message format's version and size
# limit are the host's: host_sim/room/messages.py.  The board loads this
# module only to check an id or name its topics -- a Broadcaster's start
# (roomjoin.init), the config, a paired game's start -- and lets it go: the
# room's scan-loop publishing holds the topics as bytes.)
from gogadget.compat import const

TOPIC_ROOT = "gogadget/board"
T_STATUS = "status"  # retained: online, faults; the last will says offline
T_GAME = "game"  # retained: the snapshot of the whole current game
T_MOVE = "move"  # events: move, pass, take-back, end; each with its seq
KEEPALIVE_S = 60  # the MQTT keepalive the client is made with
_MAX_ID = const(32)


def valid_board_id(name):
    """1-32 characters of a-z A-Z 0-9 - _ (a board's id is its MQTT user)."""
    if not name or len(name) > _MAX_ID:
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch == "_" or ord(ch) == 45) or ord(ch) > 127:
            return False
    return True


def topic(board_id, name):
    return TOPIC_ROOT + "/" + board_id + "/" + name
