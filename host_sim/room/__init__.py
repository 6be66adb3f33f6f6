"""The tournament room: Mosquitto as the broker, boards publishing, the relay
and its web page (docs/ROOM.md)."""
