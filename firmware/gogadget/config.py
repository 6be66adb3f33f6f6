"""The configuration the running game reads: plain attributes, one per
setting, named and defaulted in configfile.py (every default of the
application in one place, the files, validate(), the single place that
knows the limits).

The board keeps the config as a small JSON file on flash; the simulator
and the tests build one in memory.  Building a Config, validating, loading
and saving load configfile.py for the job and let it go afterwards
(compat.forget): on the official firmware a module's bytecode is heap, and
the game reads its settings without them.
"""
from gogadget.compat import forget

SECRETS_FILE = "secrets.json"  # the passwords, beside config.json (configfile.SECRETS)


def _job(name, *args):
    """configfile's function name on args, its module let go afterwards
    unless something else holds it (a job calling another)."""
    import sys
    held = "gogadget.configfile" in sys.modules
    from gogadget import configfile
    try:
        return getattr(configfile, name)(*args)
    finally:
        configfile = None
        if not held:
            forget("configfile")


class Config:
    """Plain attributes named as in DEFAULTS."""

    # Declared for the type checker only (set from configfile.DEFAULTS in __init__;
    # MicroPython ignores annotations); tests/test_typecheck.py keeps this
    # list equal to configfile.DEFAULTS.
    size: int
    sensors: str
    preset: str
    komi: "float | int | None"
    handicap: int
    stable_ms: int
    slide_ms: int
    scan_hz: int
    budget_ma: int
    volts: int
    max_brightness: int
    long_press_ms: int
    store: str
    hand_places: int
    hand_window_ms: int
    hand_settle_ms: int
    stuck_ms: int
    confirm_ms: int
    board_id: str
    broker: str
    broker_port: int
    mqtt_user: str
    mqtt_password: str
    wifi_ssid: str
    wifi_password: str
    opponent: str
    pair: str
    pair_colour: str
    time_control: str
    main_time: int
    period_time: int
    periods: int
    stones_per_period: int
    time_increment: int
    max_time: int
    play_on_time_out: bool

    def __init__(self, **values):
        _job("fill", self, values)

    def as_dict(self):
        return _job("as_dict", self)

    def scan_period_ms(self):
        """One scan cycle as the scan loop schedules it (whole milliseconds)."""
        return max(1, 1000 // self.scan_hz)

    def scans(self, ms):
        """The scans that span ms at this scan rate (rounded up)."""
        period = self.scan_period_ms()
        return (ms + period - 1) // period

    def validate(self):
        """Raise ValueError naming the first bad setting; return self."""
        return _job("validate", self)

    @classmethod
    def load(cls, path):
        """Read a JSON file; missing keys keep their defaults."""
        return _job("load", cls, path)

    def load_secrets(self, path):
        """Read the SECRETS from their own JSON file (missing: unchanged);
        any other key there is an error.  Returns self, validated."""
        return _job("load_secrets", self, path)

    def save(self, path):
        """Write the config file; the SECRETS stay out of it."""
        return _job("save", self, path)
