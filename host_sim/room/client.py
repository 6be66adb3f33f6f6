"""umqtt.simple's client API on paho-mqtt, so that the firmware's
Broadcaster (gogadget.broadcast) runs unchanged on CPython: the host
publisher (`gogadget publish`), simulated boards, the room tests and the
bench.

    from host_sim.room.client import factory
    from gogadget.broadcast import Broadcaster
    b = Broadcaster(factory("mqtt://127.0.0.1:1883", "board01", password), "board01")
    app = App(config, sensors, leds, buttons, store, broadcast=b)   # or b.attach(referee)
    ... app.step(now_ms) (or b.poll(now_ms)) in the loop ...

PahoClient has umqtt.simple's methods with umqtt's behaviour where the
Broadcaster relies on it: connect() returns once the broker said yes (a
refusal raises MQTTException with the CONNACK code, an unreachable broker
OSError); publish() with QoS 1 returns only when the broker acknowledged
the message (PUBACK) and raises OSError when the connection is lost or no
PUBACK came within `timeout` seconds; nothing is resent behind the caller's
back (paho's own reconnection is off: the Broadcaster decides).  ping() is
paho's job (its network thread keeps the connection alive); close() drops
the connection without DISCONNECT, so the broker publishes the last will.
A board playing another board (gogadget.pairing) also subscribes:
set_callback(f), subscribe(topic, qos) returning once the broker granted
it (SUBACK; a refusal raises MQTTException), and check_msg(), which hands
at most one received message to f(topic, msg) and never waits.
"""
import collections
import threading
import time

import paho.mqtt.client as mqtt

from gogadget.roomnames import KEEPALIVE_S
from host_sim.room.broker import parse_url


class MQTTException(Exception):
    """The broker refused the connection (umqtt.simple's name); args[0] is
    the CONNACK code (4: bad user name or password, 5: not authorised)."""


# paho 2 reports an MQTT 3.1.1 CONNACK code as its MQTT 5 reason code; umqtt
# (and the 3.1.1 spec) give the plain code.
_V311 = {132: 1, 133: 2, 136: 3, 134: 4, 135: 5}


def _text(topic):
    return topic.decode() if isinstance(topic, (bytes, bytearray, memoryview)) else topic


class PahoClient:
    def __init__(self, client_id, server, port=1883, user=None, password=None,
                 keepalive=KEEPALIVE_S, timeout=5.0):
        self.client_id = client_id
        self.server = server
        self.port = port
        self.user = user
        self.password = password
        self.keepalive = keepalive
        self.timeout = timeout
        self._will = None
        self._c = None
        self._lock = threading.Condition()
        self._connack = None  # None: waiting; else the reason code's value
        self._up = False
        self._cb = None
        self._inbox = collections.deque()  # (topic, payload) from paho's thread
        self._subacks = {}  # mid -> granted codes

    # -- callbacks (paho's network thread) ------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties=None):
        with self._lock:
            code = reason_code.value if hasattr(reason_code, "value") else int(reason_code)
            self._connack = _V311.get(code, code)
            self._up = self._connack == 0
            self._lock.notify_all()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None):
        with self._lock:
            self._up = False
            if self._connack is None:
                self._connack = -1
            self._lock.notify_all()

    def _on_publish(self, client, userdata, mid, reason_code=None, properties=None):
        with self._lock:
            self._lock.notify_all()

    def _on_message(self, client, userdata, msg):
        self._inbox.append((msg.topic.encode(), bytes(msg.payload)))

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties=None):
        with self._lock:
            self._subacks[mid] = [getattr(r, "value", r) for r in reason_codes]
            self._lock.notify_all()

    # -- umqtt.simple's API -----------------------------------------------------

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self._will = (_text(topic), bytes(msg), qos, retain)

    def connect(self, clean_session=True):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                        clean_session=clean_session, protocol=mqtt.MQTTv311,
                        reconnect_on_failure=False)
        if self.user is not None:
            c.username_pw_set(self.user, self.password)
        if self._will is not None:
            topic, msg, qos, retain = self._will
            c.will_set(topic, msg, qos, retain)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_publish = self._on_publish
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe
        self._connack = None
        self._c = c
        try:
            c.connect(self.server, self.port, self.keepalive)
        except OSError:
            self._c = None
            raise
        c.loop_start()
        end = time.monotonic() + self.timeout
        with self._lock:
            while self._connack is None and time.monotonic() < end:
                self._lock.wait(end - time.monotonic())
            code = self._connack
        if code != 0:
            self.close()
            if code is None:
                raise OSError(110, "no CONNACK from %s:%d" % (self.server, self.port))
            if code == -1:
                raise OSError(104, "connection closed by %s:%d" % (self.server, self.port))
            raise MQTTException(code)
        return 0

    def publish(self, topic, msg, retain=False, qos=0):
        c = self._c
        if c is None or not self._up:
            raise OSError(107, "not connected")
        info = c.publish(_text(topic), bytes(msg), qos, retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(104, "publish failed: %s" % mqtt.error_string(info.rc))
        if qos == 0:
            return
        end = time.monotonic() + self.timeout
        with self._lock:
            while not info.is_published():
                if not self._up:
                    raise OSError(104, "connection lost before PUBACK")
                left = end - time.monotonic()
                if left <= 0:
                    raise OSError(110, "no PUBACK within %.1f s" % self.timeout)
                self._lock.wait(min(left, 0.1))

    def set_callback(self, f):
        self._cb = f

    def subscribe(self, topic, qos=0):
        c = self._c
        if c is None or not self._up:
            raise OSError(107, "not connected")
        rc, mid = c.subscribe(_text(topic), qos)
        if rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(104, "subscribe failed: %s" % mqtt.error_string(rc))
        end = time.monotonic() + self.timeout
        with self._lock:
            while mid not in self._subacks:
                if not self._up:
                    raise OSError(104, "connection lost before SUBACK")
                left = end - time.monotonic()
                if left <= 0:
                    raise OSError(110, "no SUBACK within %.1f s" % self.timeout)
                self._lock.wait(min(left, 0.1))
            codes = self._subacks.pop(mid)
        if any(code >= 0x80 for code in codes):
            raise MQTTException(codes[0])

    def check_msg(self):
        if self._c is None or not self._up:
            if not self._inbox:
                raise OSError(107, "not connected")
        if self._inbox:
            topic, msg = self._inbox.popleft()
            if self._cb is not None:
                self._cb(topic, msg)

    def ping(self):
        if self._c is None or not self._up:
            raise OSError(107, "not connected")

    def disconnect(self):
        c, self._c = self._c, None
        if c is not None:
            c.disconnect()
            c.loop_stop()
        self._up = False

    def close(self):
        """Drop the connection without DISCONNECT (the will is published)."""
        c, self._c = self._c, None
        self._up = False
        if c is None:
            return
        sock = c.socket()
        c.loop_stop()  # its thread first (up to a second), then the socket
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass


class NullClient:
    """umqtt.simple's API on a broker that takes everything and keeps
    nothing: connect() succeeds at once, publish() drops the message.  The
    base of clients that hand messages on elsewhere (the bench's shared
    connections, the tests' recorders override publish())."""

    def set_last_will(self, topic, msg, retain=False, qos=0):
        pass

    def connect(self, clean_session=True):
        return 0

    def publish(self, topic, msg, retain=False, qos=0):
        pass

    def set_callback(self, f):
        pass

    def subscribe(self, topic, qos=0):
        pass

    def check_msg(self):
        pass

    def ping(self):
        pass

    def disconnect(self):
        pass

    def close(self):
        pass


def factory(url, user, password=None, client_id=None, keepalive=KEEPALIVE_S, timeout=5.0):
    """A Broadcaster's client factory for the broker at mqtt://HOST:PORT;
    the client id defaults to the user (a board's id)."""
    host, port = parse_url(url)

    def make():
        return PahoClient(client_id or user, host, port, user, password, keepalive, timeout)

    return make
