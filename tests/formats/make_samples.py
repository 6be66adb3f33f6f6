"""Write a sample of each file a firmware keeps on the board's flash, with
the firmware in the folder given (its firmware/ directory):

    python tests/formats/make_samples.py FIRMWARE_DIR OUT_DIR

The samples beside this script (format0/) were written this way by the
firmware of commit c7bb464 (0.1.0, before the formats were versioned:
format 0 of the journal, config.json, secrets.json and the calibration
file "GGC1"; SGF FF[4]).  tests/test_formats.py has the firmware of today
read each of them; a firmware that stops reading one fails it."""
import os
import random
import sys


def main(firmware, out):
    sys.path.insert(0, firmware)
    from gogadget.app import App
    from gogadget.board import OK
    from gogadget.config import Config
    from gogadget.events import BTN_NONE
    from gogadget.hw.calib import Calibration
    from gogadget import sgf

    class Quiet:
        kind = "colour"

        def read(self, scan):
            pass

        def show(self, frame, now_ms):
            pass

        def poll(self, now_ms):
            return BTN_NONE

    os.makedirs(out + "/games", exist_ok=True)
    config = Config(size=9, preset="japanese", komi=6.5, time_control="byoyomi",
                    main_time=600, period_time=30, periods=5, board_id="board07")
    config.save(out + "/config.json")
    with open(out + "/secrets.json", "w") as f:
        f.write('{"mqtt_password": "s3cret-07", "wifi_password": "wifi-pass"}')
    Calibration(9).save(out + "/calib.bin")
    app = App(Config(size=9, preset="japanese", komi=6.5), Quiet(), Quiet(), Quiet(),
              out + "/games")
    app.boot(0)
    ref = app.referee
    rng = random.Random(3)
    pts = ref.board.points()
    while ref.board.moves < 24:
        pt = rng.choice(pts)
        if not ref.board.cells[pt]:
            ref.external_move(ref.to_move(), pt)
    # one finished game kept as the store keeps it, the game above under way
    sgf.save_game(out + "/games", ref.board, ref.rules, 6.5, result="B+R", date="2026-11-28")
    app.journal.close()
    for name in ("calib.bin", "games/journal.bin"):  # (the project carries no binaries)
        with open(out + "/" + name, "rb") as f:
            data = f.read()
        with open(out + "/" + name + ".hex", "w") as f:
            f.write(data.hex() + "\n")
        os.remove(out + "/" + name)
    print("moves", ref.board.moves, OK)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
