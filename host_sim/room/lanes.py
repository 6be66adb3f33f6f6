"""The relay's lanes: one MQTT connection a board (docs/ROOM.md, "Security").

Mosquitto keeps one queue of outgoing messages a connection, in order, and
serves its connections in turn.  On one connection for the whole room, a
board's flood (100,000 small messages in a fraction of a second) sits in
front of every other board's next move in that queue, and the relay reads
about 40,000 messages a second: seconds of delay, growing with the flood.
With one connection a board, the flood fills its own board's queue only:
another board's move waits for its own connection's turn at the broker and
for one message a busy board in the relay's inbox (inbox.py).

    lanes = Lanes(host, port, "relay", password, put=file)  # file(topic, payload, retained)
    lanes.wanted(board)      # the main connection saw this board: open its lane
    lanes.live(board)        # True once its lane is subscribed: drop main's copy
    lanes.stop()

* A lane logs in as `relay.<board>` (the room's generator writes that user,
  with the relay's password, allowed to read that board's topics only:
  broker.lane_user) with a persistent session, as the main connection
  does (what the board publishes while the lane is away is delivered when
  it is back), and subscribes to the board's topics at every connection:
  the broker sends the board's retained status, snapshot and pair at once,
  so whatever was missed is caught up by the ordering rules (games.py) like
  any duplicate or gap.
* Until its lane is subscribed (and again whenever it is lost) a board's
  messages come from the main connection (which keeps the relay's
  persistent session); after that, the main connection's copies of its
  status and snapshots are dropped unread (the lane's subscription brought
  the newest of each).  Its events there are still read: the broker may
  have sent one to the main connection before the lane subscribed, and the
  lane never gets it (a copy both bring is a duplicate the ordering rules
  drop).  Once a lane is subscribed, the relay's main connection takes
  only the boards' status and snapshots (relay.FIND_TOPICS: enough to find
  a new board), no copy of their events; a lane refused widens it again.
* A broker that refuses the lane users (a config written before lanes, or
  users that publish for many boards, like the bench's) leaves every board
  on the main connection: after REFUSALS refusals and no lane ever up, no
  more are tried (one log line).
"""
import logging
import threading

from gogadget.roomnames import TOPIC_ROOT, valid_board_id
from host_sim.room.broker import lane_user

log = logging.getLogger("gogadget.relay")

REFUSALS = 3  # refused lanes, none ever up: the broker has no lane users
MAX_LANES = 2000  # connections (and threads) at most; more boards use the main one


class Lanes:
    def __init__(self, host, port, user, password, put, on_change=None):
        self.host, self.port = host, port
        self.user, self.password = user, password
        self.put = put
        self.on_change = on_change  # (any lane up, any lane refused), when either changes
        self.clients = {}  # board -> paho client (opened, up or not)
        self.subscribed = set()  # boards whose lane delivers: main's copies dropped
        self.refused = 0
        self.ever_up = False
        self.given_up = False
        self.lock = threading.Lock()
        self.stopping = False

    def live(self, board):
        return board in self.subscribed

    def wanted(self, board):
        """Open board's lane unless it is open (or lanes are not to be had)."""
        if board in self.clients or self.given_up or self.stopping:
            return
        if not valid_board_id(board):
            return
        with self.lock:
            if board in self.clients or len(self.clients) >= MAX_LANES:
                return
            self.clients[board] = self._open(board)

    def _open(self, board):
        import paho.mqtt.client as mqtt
        user = lane_user(self.user or "", board)
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, clean_session=False,
                        protocol=mqtt.MQTTv311)
        c.username_pw_set(user, self.password)
        prefix = "%s/%s/" % (TOPIC_ROOT, board)
        put = self.put

        def on_connect(client, userdata, flags, reason_code, properties=None):
            if reason_code.is_failure:
                self._refused(board, client, reason_code)
                return
            client.subscribe(prefix + "#", qos=1)

        def on_subscribe(client, userdata, mid, reason_codes, properties=None):
            if all(not rc.is_failure for rc in reason_codes):
                self.subscribed.add(board)
                # Up once subscribed, not once connected: the main
                # connection narrows then, so the broker takes its
                # unsubscribe after this subscription, and no event of
                # this board's is sent to neither connection.
                if not self.ever_up:
                    self.ever_up = True
                    if self.on_change is not None:
                        self.on_change(True, self.refused > 0)

        def on_disconnect(client, userdata, flags, reason_code, properties=None):
            self.subscribed.discard(board)

        def on_message(client, userdata, msg):
            if msg.topic.startswith(prefix):  # the broker's ACL says so too
                put(msg.topic, msg.payload, msg.retain)

        c.on_connect, c.on_subscribe = on_connect, on_subscribe
        c.on_disconnect, c.on_message = on_disconnect, on_message
        c.reconnect_delay_set(min_delay=0.25, max_delay=4)
        c.max_inflight_messages_set(100)
        c.connect_async(self.host, self.port, keepalive=15)
        c.loop_start()
        return c

    def _refused(self, board, client, reason_code):
        self.subscribed.discard(board)
        client.disconnect()  # its thread ends; the board stays on the main connection
        if self.on_change is not None:
            self.on_change(self.ever_up, True)
        with self.lock:
            self.refused += 1
            if not self.ever_up and self.refused >= REFUSALS and not self.given_up:
                self.given_up = True
                log.warning("the broker refuses the relay's lane users (%s: %s): every board "
                            "comes on one connection, and one board's flood delays the others "
                            "(write the room's config again: python -m host_sim.room.broker)",
                            lane_user(self.user or "", board), reason_code)

    def count(self):
        return len(self.subscribed)

    def stop(self):
        self.stopping = True
        with self.lock:
            clients, self.clients = list(self.clients.values()), {}
        for c in clients:
            c.disconnect()
        for c in clients:
            c.loop_stop()
        self.subscribed.clear()
