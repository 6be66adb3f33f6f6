"""A board of the tournament room under the MicroPython unix port: the
firmware's App on a fake board, publishing with the firmware's Broadcaster
through gogadget.hw.net's umqtt.simple client to a real broker.

    micropython room_board.py HOST PORT BOARD_ID PASSWORD STORE [SIZE [OPPONENT COLOUR PAIR]]

With an opponent, the board plays COLOUR (B or W) of the game PAIR against
that board (config opponent/colour/pair, as main.py builds it: the
Broadcaster with a pairing.Follower on the same umqtt.simple connection).

The test drives it on stdin, one command a line, and reads one JSON line
back per command:

    play D4      the stone of the colour to move, settled (captures lifted)
    pass         the Pass button
    takeback     lift the last stone, put back its prisoners, Confirm
    confirm      the Confirm button (the count, after two passes)
    flush        scan until the broker has everything (or 20 s have passed)
    drop         close the connection's socket under the publisher (a Wi-Fi drop)
    locked N     N scans with the heap locked (nothing new: nothing may be
                 allocated, the real socket's look for a message included);
                 false if one allocated
    await N      scan until the record has N moves (the opponent's lit), then do
                 what the lights ask (place it, lift its prisoners); false after 20 s
    state        the referee's game and the publisher's figures
    quit
"""
import gc
import json
import sys
import time

from gogadget import signals as sg
from gogadget.app import App
from gogadget.broadcast import Broadcaster
from gogadget.config import Config
from gogadget.events import BTN_CONFIRM, BTN_PASS
from gogadget.hw import net
from gogadget.points import BLACK, parse_vertex, place
from gogadget.scan import S_BLACK, S_EMPTY, S_WHITE

from fake_drivers import Buttons, Leds, Sensors

SCAN_MS = 20


class Board:
    def __init__(self, host, port, board_id, password, store, size, pairing=None):
        self.config = Config(size=size, board_id=board_id, broker=host, broker_port=port,
                             mqtt_password=password).validate()
        peer = None
        if pairing:
            self.config.opponent, self.config.pair_colour, self.config.pair = pairing
            self.config.validate()
            from gogadget.pairing import Follower
            peer = Follower(board_id, self.config.opponent,
                            1 if self.config.pair_colour == "B" else 2, self.config.pair)
        self.sensors = Sensors(size)
        self.buttons = Buttons()
        self.b = Broadcaster(net.mqtt_factory(self.config), board_id, peer=peer)
        self.app = App(self.config, self.sensors, Leds(), self.buttons, store, broadcast=self.b)
        self.size = size
        self.t = 1000
        self.app.boot(self.t)
        self.steps(20)

    @property
    def ref(self):
        return self.app.referee

    def steps(self, n):
        for _ in range(n):
            self.app.step(self.t)
            self.t += SCAN_MS

    def settle(self):
        self.steps(self.ref.settler.debounce + 3)

    def pl(self, v):
        return place(self.size, parse_vertex(self.size, v))

    def follow(self):
        """Lift what the lights ask to lift, put back what they ask for."""
        for _ in range(3):
            done = True
            for pl in range(self.size * self.size):
                p = self.ref.prompt[pl]
                if p == sg.P_PUT_BLACK or p == sg.P_PUT_WHITE:
                    self.sensors.board[pl] = S_BLACK if p == sg.P_PUT_BLACK else S_WHITE
                    done = False
                elif p == sg.P_REMOVE:
                    self.sensors.board[pl] = S_EMPTY
                    done = False
            self.settle()
            if done:
                return
            self.steps(self.config.hand_settle_ms // SCAN_MS + 10)

    def play(self, v):
        moves = self.ref.board.moves
        colour = self.ref.to_move()
        self.sensors.board[self.pl(v)] = S_BLACK if colour == BLACK else S_WHITE
        self.settle()
        self.follow()
        return self.ref.board.moves == moves + 1

    def press(self, button):
        self.buttons.queue.append(button)
        self.steps(2)
        self.settle()
        return True

    def takeback(self):
        moves = self.ref.board.moves
        board = self.ref.board
        colour, pt = board.last_move()
        caps = board.captured_stones()
        self.sensors.board[self.ref.place(pt)] = S_EMPTY
        for p in caps:
            self.sensors.board[self.ref.place(p)] = S_WHITE if colour == BLACK else S_BLACK
        self.settle()
        self.steps(self.config.hand_settle_ms // SCAN_MS + 10)
        self.press(BTN_CONFIRM)
        self.follow()
        return self.ref.board.moves == moves - 1

    def flush(self, seconds=20):
        end = time.ticks_add(time.ticks_ms(), seconds * 1000)
        while time.ticks_diff(end, time.ticks_ms()) > 0:
            if self.b.connected and not self.b.pending():
                return True
            self.steps(1)
            time.sleep_ms(2)
        return False

    def await_moves(self, n, seconds=20):
        end = time.ticks_add(time.ticks_ms(), seconds * 1000)
        while self.ref.board.moves < n:
            if time.ticks_diff(end, time.ticks_ms()) <= 0:
                return False
            self.steps(1)
            time.sleep_ms(2)
        self.follow()
        return self.ref.outstanding() == 0

    def locked(self, n):
        import micropython
        gc.collect()
        micropython.heap_lock()
        try:
            self.steps(n)
        except MemoryError:
            return False
        finally:
            micropython.heap_unlock()
        return self.b.connected

    def drop(self):
        client = self.b._client
        if client is None or client.sock is None:
            return False
        client.sock.close()  # the publisher finds out on its next publish
        return True

    def state(self):
        ref = self.ref
        board = ref.board
        moves = []
        w = self.size + 1
        for i in range(board.moves):
            colour, pt = board.move(i)
            p = "" if pt == 0 else chr(97 + pt % w) + chr(97 + self.size - pt // w)
            moves.append(["B" if colour == BLACK else "W", p])
        gc.collect()
        return {"game": ref.log.game, "seq": ref.log.seq, "moves": moves, "result": ref.result,
                "phase": ref.phase, "connected": self.b.connected, "pending": self.b.pending(),
                "connects": self.b.connects, "failures": self.b.failures,
                "published": self.b.published, "error": self.b.error,
                "snapshot_bytes": len(self.b.snapshot() or b""), "free": gc.mem_free(),
                "pair_note": self.b.peer.note if self.b.peer else "",
                "agreed": bool(self.b.peer and self.b.peer.agreed)}


def main():
    args = sys.argv[1:]
    host, port, board_id, password, store = args[:5]
    size = int(args[5]) if len(args) > 5 else 9
    pairing = args[6:9] if len(args) > 8 else None
    board = Board(host, int(port), board_id, password, store, size, pairing)
    print(json.dumps({"ready": True}))
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        try:
            if cmd == "play":
                out = board.play(words[1])
            elif cmd == "pass":
                out = board.press(BTN_PASS)
            elif cmd == "confirm":
                out = board.press(BTN_CONFIRM)
            elif cmd == "takeback":
                out = board.takeback()
            elif cmd == "flush":
                out = board.flush()
            elif cmd == "await":
                out = board.await_moves(int(words[1]))
            elif cmd == "locked":
                out = board.locked(int(words[1]))
            elif cmd == "drop":
                out = board.drop()
            elif cmd == "state":
                out = board.state()
            elif cmd == "quit":
                print(json.dumps({"ok": True}))
                return
            else:
                out = "unknown command " + cmd
            print(json.dumps({"ok": out}))
        except Exception as exc:  # noqa: BLE001  (reported to the test)
            sys.print_exception(exc)
            print(json.dumps({"error": repr(exc)}))


main()
