"""What `gogadget publish` and `remote` share: the broker's client, the run until stopped."""
import os
import sys

from gogadget.roomnames import valid_board_id
from host_sim.base.stopflag import StopFlag


class BrokerWatch:
    """The Broadcaster's client factory, wrapped so that the person hears
    about the broker: an absent one at every try, a refused login (which
    another try cannot mend) as `refused`, which ends the command."""

    def __init__(self, factory, where, user, say, log=None):
        self.factory = factory
        self.where = where
        self.user = user
        self.say = say
        self.log = log or (lambda text: None)  # --verbose: every connection
        self.refused = None
        self.down = False

    def __call__(self):
        return _Watched(self.factory(), self)


class _Watched:
    def __init__(self, client, watch):
        self._client = client
        self._watch = watch

    def __getattr__(self, name):
        return getattr(self._client, name)

    def connect(self, clean_session=True):
        from host_sim.room.client import MQTTException
        w = self._watch
        try:
            answer = self._client.connect(clean_session)
        except MQTTException as exc:
            why = REFUSALS.get(exc.args[0] if exc.args else None)
            if why is None:
                w.say("the broker at %s refused the connection (code %s); trying again"
                      % (w.where, exc.args[0] if exc.args else "?"))
            else:
                w.refused = why
            raise
        except OSError as exc:
            w.down = True
            w.say("no broker at %s (%s); trying again" % (w.where, exc.strerror or exc))
            raise
        if w.down:
            w.say("connected to the broker at %s" % w.where)
            w.down = False
        else:
            w.log("connected to the broker at %s as %s" % (w.where, w.user))
        return answer


# CONNACK codes (MQTT 3.1.1) that another try cannot mend.
REFUSALS = {2: "the client id was rejected", 4: "bad user name or password",
            5: "not authorised (a wrong password, or a user the room's ACL does not list)"}


def connect_from_args(args, command="publish"):
    """The Broadcaster's client factory from the command line; None (said
    on stderr) when the board id, the broker or the credentials are bad."""
    from host_sim.room.client import factory
    from host_sim.room.relay import read_credentials
    if not valid_board_id(args.board_id):
        print("gogadget %s: bad board id %r (1-32 of a-z A-Z 0-9 - _)" % (command, args.board_id),
              file=sys.stderr)
        return None
    user = args.user or args.board_id
    password = args.password or os.environ.get("GOGADGET_MQTT_PASSWORD")
    try:
        if args.credentials:
            password = read_credentials(args.credentials, user)
        made = factory(args.broker, user, password)
        made.password = password  # for the refusal's message (white space at an end)
        return made
    except (OSError, ValueError) as e:
        print("gogadget %s: %s" % (command, e), file=sys.stderr)
        return None

def run_host(args, command, make_host, banner, runner=None, out=None):
    """The host side of `publish` and `remote`: make_host(connect, log,
    notice) builds the HostPublisher on the watched client factory; it runs
    until SIGINT or SIGTERM (then the board is said offline), or until the
    broker refuses the login, which another try cannot mend (exit 1).
    runner(host, refused): runs the loop instead (a simulator of our own
    on the main thread: host_sim/room/atsim.py) until it stops or refused() is
    true; out(line): where what the person hears goes (default stderr)."""
    connect = connect_from_args(args, command)
    if connect is None:
        return 2
    user = args.user or args.board_id

    def tell(text):
        line = "gogadget %s: %s" % (command, text)
        if out is not None:
            out(line)
        else:
            print(line, file=sys.stderr, flush=True)

    def say(text):
        if args.verbose:
            tell(text)

    where = args.broker.split("//", 1)[-1].rstrip("/")
    watch = BrokerWatch(connect, where, user, tell, log=say)
    try:
        host = make_host(watch, say, tell)
    except ValueError as e:
        tell(str(e))
        return 2
    if runner is not None:
        tell(banner)
        runner(host, lambda: watch.refused)
    else:
        with StopFlag() as stop:
            print("gogadget %s: %s" % (command, banner), flush=True)
            host.run(stop=lambda: stop.is_set() or watch.refused)
    if watch.refused:
        from host_sim.room.relay import blank_hint
        tell("the broker at %s refused the login as %r: %s; check --user and --password or "
             "--credentials (the room's credentials.csv)%s" % (where, user, watch.refused,
                                                                 blank_hint(connect.password)))
        return 1
    return 0
