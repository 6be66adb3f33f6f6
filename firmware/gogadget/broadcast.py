"""The board's game on MQTT: topic names and message format (docs/ROOM.md).

Defined once here; the relay and the host tools import them.
"""
TOPIC_ROOT = "gogadget/board"
T_STATUS = "status"  # retained: online, faults; the last will says offline
T_GAME = "game"  # retained: the snapshot of the whole current game
T_MOVE = "move"  # events: move, pass, take-back, end; each with its seq
FORMAT = 1  # "v" in every message
MAX_MESSAGE = 8192  # bytes; the relay drops bigger ones
MAX_ID = 32


def valid_board_id(name):
    """1-32 characters of a-z A-Z 0-9 - _ (a board's id is its MQTT user)."""
    if not name or len(name) > MAX_ID:
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_") or ord(ch) > 127:
            return False
    return True


def topic(board_id, leaf):
    return "%s/%s/%s" % (TOPIC_ROOT, board_id, leaf)
