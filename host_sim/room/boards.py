"""`gogadget room boards`: a room's boards set up from its credentials.csv
(python -m host_sim.room.broker writes it) and a template config.json
(the room's broker, its Wi-Fi, the rules and the clock: what every board
shares).

    gogadget room boards --credentials ROOM/credentials.csv --template room.json \\
        --boards table-1..table-30 (--port /dev/ttyACM0 | --sim-stores DIR | --images UF2 --out DIR)

For each board: its config.json (the template with its board_id) and its
secrets.json (its MQTT password from credentials.csv; the Wi-Fi password
from the template or GOGADGET_WIFI_PASSWORD), both checked by the
firmware's own Config (configfile.validate) before anything is written,
every board's before the first; then written

* --port: onto the boards plugged in one after another on that port (each
  asked to restart with its REPL free, as gogadget update does; the files
  written beside and renamed over), restarted, and checked: the firmware's
  version over GTP (gogadget version) and the board's first login at the
  broker with its own credentials, from this host (a wrong password or
  board id is caught here, before the board leaves the table);
* --sim-stores: into DIR/BOARD/, the flash of a simulated board each;
* --images: into a `make image` file each (DIR/BOARD.uf2), holding them,
  for boards flashed by drag and drop.

Every file holding a password is created 0600 from its first byte
(host_sim.room.broker's writer, as the room's own secrets)."""
import csv
import json
import os
import sys

from host_sim.room import broker as room_broker

SECRETS = ("mqtt_password", "wifi_password")


class BoardsError(Exception):
    pass


def read_credentials(path):
    """{user: password} of credentials.csv."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as exc:
        raise BoardsError("cannot read %s: %s" % (path, exc.strerror or exc))
    if not rows or rows[0][:2] != ["user", "password"]:
        raise BoardsError("%s is not a room's credentials.csv (user,password lines)" % path)
    return {r[0]: r[1] for r in rows[1:] if len(r) >= 2}


def read_template(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise BoardsError("cannot read %s: %s" % (path, exc.strerror or exc))
    except ValueError as exc:
        raise BoardsError("the template %s is not valid JSON: %s" % (path, exc))
    if not isinstance(data, dict):
        raise BoardsError("the template %s must hold a JSON object" % path)
    return data


def board_config(template, board_id, creds, wifi_password=None):
    """(config, secrets) dicts for one board, checked by the firmware's
    Config; BoardsError naming the board and the reason."""
    from gogadget.config import Config
    from gogadget.configfile import FORMAT, validate
    user = template.get("mqtt_user") or board_id
    if user not in creds:
        raise BoardsError("%s: no user %s in the credentials (a wrong board id?)"
                          % (board_id, user))
    config = {k: v for k, v in template.items() if k not in SECRETS and k != "format"}
    config["board_id"] = board_id
    config["format"] = FORMAT
    secrets = {"format": FORMAT, "mqtt_password": creds[user]}
    wifi = wifi_password if wifi_password is not None else template.get("wifi_password")
    if wifi:
        secrets["wifi_password"] = wifi
    try:
        trial = Config(**{k: v for k, v in config.items() if k != "format"})
        for k in SECRETS:
            if k in secrets:
                setattr(trial, k, secrets[k])
        validate(trial)
    except ValueError as exc:
        raise BoardsError("%s: %s" % (board_id, exc))
    if not trial.broker:
        raise BoardsError("the template names no broker: a room's boards publish to one")
    return config, secrets


def file_bytes(data):
    return json.dumps(data, sort_keys=True).encode()


def first_login(config, secrets, timeout=5.0):
    """The board's login at the room's broker with its own credentials:
    "" when it was accepted, else why not.  None when the broker cannot
    be reached from here (the room's network is not this host's)."""
    from host_sim.room import client
    user = config.get("mqtt_user") or config["board_id"]
    url = "mqtt://%s:%d" % (config["broker"], config.get("broker_port", 1883))
    c = client.factory(url, user, secrets.get("mqtt_password"), timeout=timeout)()
    try:
        c.connect()
    except client.MQTTException as exc:
        return "the broker at %s refused %s's login (CONNACK %s): a wrong password or board id" % (
            url, user, exc)
    except OSError:
        return None
    c.disconnect()
    return ""


def say_login(board_id, config, secrets, stream):
    if not config.get("broker"):
        return
    why = first_login(config, secrets)
    if why is None:
        print("%s: the broker %s is not reachable from here: its login not checked"
              % (board_id, config["broker"]), file=stream)
    elif why:
        raise BoardsError("%s: %s" % (board_id, why))
    else:
        print("%s: logged in at the broker with its own credentials" % board_id, file=stream)


# -- where the files go -------------------------------------------------------------

def to_store(folder, board_id, config, secrets):
    """A simulated board's flash: DIR/BOARD/config.json and secrets.json."""
    store = os.path.join(folder, board_id)
    room_broker.safe_folder(store)
    room_broker._write(os.path.join(store, "config.json"), file_bytes(config), 0o600)
    room_broker._write(os.path.join(store, "secrets.json"), file_bytes(secrets), 0o600)
    return store


def to_image(firmware, out, board_id, config, secrets, build=None):
    """DIR/BOARD.uf2: the official firmware with this checkout's files and
    the board's config and secrets (0600: it holds the passwords)."""
    from host_sim.tools import uf2
    blocks, layout = uf2.check_firmware(firmware)
    files = uf2.board_files(build or uf2.BUILD, layout.board, file_bytes(config))
    files["secrets.json"] = file_bytes(secrets)
    path = os.path.join(out, board_id + ".uf2")
    room_broker.safe_folder(out)
    room_broker._write(path, uf2.merge(blocks, layout, uf2.filesystem(files, layout)), 0o600)
    return path


def to_port(port, board_id, config, secrets, stream, mpremote=None):
    """The board plugged in on port: its files written beside and renamed
    over, the board restarted and asked its version."""
    from host_sim.tools import update
    flash = update.open_port(port, mpremote, stream)
    state = flash.probe()
    if not state["main"] or not state["package"]:
        raise BoardsError("the board on %s is not a Go Gadget (no main.py and gogadget/): "
                          "flash it first (make image)" % port)
    for name, data in (("config.json", config), ("secrets.json", secrets)):
        flash.put(name + ".tmp", file_bytes(data))
        flash.rename(name + ".tmp", name)
    flash.run("reset")
    version, got = update.back_after_reset(port, 60)
    if got is None:
        raise BoardsError("the board on %s did not answer after its restart" % port)
    if json.loads(got) != board_id:
        raise BoardsError("the board on %s says board_id %s after its restart, not %s"
                          % (port, got, board_id))
    print("%s: firmware %s, config and secrets written" % (board_id, version), file=stream)


# -- the command ------------------------------------------------------------------------

def add_arguments(p):
    p.add_argument("--credentials", default=os.path.join(room_broker.default_dir(),
                                                          "credentials.csv"),
                   help="the room's credentials.csv (default %(default)s)")
    p.add_argument("--template", required=True,
                   help="config.json every board shares: broker, broker_port, wifi_ssid, "
                        "the rules, the clock (board_id is each board's own)")
    p.add_argument("--boards", required=True,
                   help="the boards in the order they are set up: 30, table-1..table-30 or a,b,c")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="the port each board is plugged into in turn")
    where.add_argument("--sim-stores", help="a folder: one simulated board's flash per board")
    where.add_argument("--images", metavar="UF2", help="the official MicroPython UF2 to make "
                       "one image per board from (with --out)")
    p.add_argument("--out", default=None, help="--images: the folder for BOARD.uf2")
    p.add_argument("--mpremote", default=None, help="mpremote command (default: the venv's)")


def cmd_boards(args, stream=None, ask=input):
    stream = stream or sys.stdout
    try:
        creds = read_credentials(args.credentials)
        template = read_template(args.template)
        try:
            ids = room_broker.board_ids(args.boards)
        except ValueError as exc:
            raise BoardsError(str(exc))
        wifi = os.environ.get("GOGADGET_WIFI_PASSWORD")
        boards = [(b,) + board_config(template, b, creds, wifi) for b in ids]  # all, first
        if args.images and not args.out:
            raise BoardsError("--images needs --out FOLDER")
        if args.images:
            # As `gogadget image` does: the firmware checked first, then this
            # checkout's files built once for every board's image.
            from host_sim.tools import uf2
            uf2.check_firmware(args.images)
            uf2.build_mpy(uf2.BUILD)
        for board_id, config, secrets in boards:
            say_login(board_id, config, secrets, stream)  # before anything is written
            if args.sim_stores:
                where = to_store(args.sim_stores, board_id, config, secrets)
            elif args.images:
                where = to_image(args.images, args.out, board_id, config, secrets)
            else:
                if ask("plug in the board for %s on %s, then Enter (q: stop) "
                       % (board_id, args.port)).strip().lower() == "q":
                    return 1
                to_port(args.port, board_id, config, secrets, stream, args.mpremote)
                where = args.port
            print("%s: ready (%s)" % (board_id, where), file=stream)
    except BoardsError as exc:
        print("gogadget room boards: %s" % exc, file=sys.stderr)
        return 1
    except Exception as exc:  # the image's and the update's own errors
        from host_sim.tools import uf2, update
        if isinstance(exc, (uf2.ImageError, update.UpdateError, ValueError)):
            print("gogadget room boards: %s" % exc, file=sys.stderr)
            return 1
        raise
    print("%d boards set up" % len(boards), file=stream)
    return 0
