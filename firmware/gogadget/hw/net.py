"""Wi-Fi and the MQTT client on a Pico W: the only code that
touches `network`, and the one that makes gogadget.mqtt's clients.

    wifi = Wifi(config.wifi_ssid, config.wifi_password)
    wifi.start()                      # returns at once; joining goes on by itself
    b = Broadcaster(mqtt_factory(config), config.board_id, ready=wifi.ready)

Wifi.ready() is what the Broadcaster asks before each connection attempt:
True once the board has an address; while it has none it starts a new join
when the last one failed or has taken too long, without waiting for it.

The client is gogadget.mqtt's (umqtt.simple's API in about half its heap,
with the socket timeout set before the connect): micropython-lib's
umqtt.simple is no longer imported.
"""
from gogadget.compat import const, ticks_diff, ticks_ms

_JOIN_MS = const(20000)  # a join that has not given an address by then is started again
_SOCKET_TIMEOUT_S = const(1)  # no broker answer within this: the connection has failed (a
# connection attempt waits for the TCP connect and the CONNACK: 2 s at most, inside the 4 s
# watchdog)


class Wifi:
    def __init__(self, ssid, password, hostname=None):
        self.ssid = ssid
        self.password = password
        self.hostname = hostname
        self.wlan = None
        self.time = 0  # when the last join started (ticks_ms)

    def start(self):
        """Switch the station interface on and start joining (non-blocking)."""
        import network
        if self.hostname:
            try:
                network.hostname(self.hostname)
            except (AttributeError, ValueError, OSError):
                pass  # older ports name themselves
        wlan = network.WLAN(network.STA_IF)
        wlan.active(True)
        self.wlan = wlan
        self.connect()
        return self

    def connect(self):
        """A join started (the WLAN's connect: it goes on by itself)."""
        self.time = ticks_ms()
        try:
            self.wlan.connect(self.ssid, self.password)
        except OSError:
            pass  # tried again by ready()

    def ready(self):
        """Has the board an address?  If not, start joining again when the
        last join failed or took longer than _JOIN_MS (never waits)."""
        wlan = self.wlan
        if wlan is None:
            return False
        if wlan.isconnected():
            return True
        # A failed join is a negative status on the Pico W's CYW43
        # (STAT_CONNECT_FAIL -1, STAT_NO_AP_FOUND -2, STAT_WRONG_PASSWORD -3).
        status = wlan.status()
        if isinstance(status, int) and status < 0 \
                or ticks_diff(ticks_ms(), self.time) > _JOIN_MS:
            self.connect()
        return False


def mqtt_factory(config):
    """The Broadcaster's client factory from the config's broker settings:
    client id and user name the board's id unless mqtt_user says otherwise.
    A board paired with another (config.opponent) subscribes too: its
    client is gogadget.mqttsub's."""
    if config.opponent:
        from gogadget.mqttsub import Client
    else:
        from gogadget.mqtt import Client
    user = config.mqtt_user or config.board_id
    host = config.broker
    port = config.broker_port
    password = config.mqtt_password
    board_id = config.board_id

    def make():
        return Client(board_id, host, port, user, password, _SOCKET_TIMEOUT_S)

    return make
