"""What the page reads of the room: each board's card as JSON, the games list, a game's SGF."""
import json

from gogadget.points import BLACK, EMPTY, WHITE
from host_sim.room.game import split_game_id
from host_sim.room.pairs import lead

_STONES = bytes.maketrans(bytes([EMPTY, BLACK, WHITE]), b".bw")


class Cards:
    """The web side of games.Room (its boards, dirty set, lock)."""

    def summary(self, st):
        """A board's card for the page, as JSON text (cached until it changes)."""
        if st.json is not None:
            return st.json
        s = st.status or {"online": False, "faults": 0, "note": ""}
        d = {"id": st.id, "online": s["online"], "faults": s["faults"], "note": s["note"]}
        other = self.paired(st)
        if other is not None:
            # One game on two boards: the page shows it once, on Black's card.
            d["pair"] = st.pair["pair"]
            d["opponent"] = other.id
            d["mirror"] = lead(st.game, st.pair["colour"], other.game,
                               other.pair["colour"]) is not st.game
        g = st.game
        if g is not None:
            bd = g.bd
            size = g.size
            w = size + 1
            cells = bd.cells
            stones = b"".join(cells[(r + 1) * w:(r + 1) * w + size]
                              for r in range(size - 1, -1, -1)).translate(_STONES)
            last = g.moves[-1] if g.moves else None
            d.update(game=g.game, seq=g.seq, size=size, komi=g.komi, rules=g.rules,
                     handicap=g.handicap, black=g.black, white=g.white, phase=g.phase,
                     result=g.result, claim=g.verdict == "claim", n=len(g.moves),
                     moves=",".join(c + p for c, p in g.moves),
                     stones=stones.decode("ascii"),
                     last=(last[0] + last[1]) if last else "",
                     lastcap=len(bd.captured_stones()) if bd.moves else 0,
                     captures=[bd.prisoners[BLACK], bd.prisoners[WHITE]],
                     waiting=g.waiting, sgf="/game/%s.sgf" % g.name,
                     at=int(g.changed * 1000))
            if g.clock is not None:
                d.update(self._clocks(st, g, other))
        st.json = json.dumps(d, separators=(",", ":"))
        return st.json

    def _clocks(self, st, g, other):
        """The card's clocks, each player's from the board that owns it
        (docs/CLOCK.md): a board alone owns both; of two paired boards, each
        its own player's.  clock: [system, running, B ms, B n, W ms, W n] as
        the snapshot's, running only if its owner says so; clock_at: when
        each figure was true (ms since the epoch; None: not known, a retained
        copy after a relay restart); clock_online: is each owner online.
        The page counts a figure down only while it is known and its owner
        online, and marks it stale otherwise."""
        owners = [st, st]
        if other is not None and other.game is not None and other.game.clock is not None:
            owners = [st, other] if st.pair["colour"] == "B" else [other, st]
        clock = list(g.clock[:6])
        clock[1] = ""
        at, online = [], []
        for i, b in enumerate(owners):
            c = b.game.clock
            colour = "BW"[i]
            clock[2 + 2 * i:4 + 2 * i] = c[2 + 2 * i:4 + 2 * i]
            if c[1] == colour:
                clock[1] = colour
            at.append(int(b.game.clock_at * 1000) if b.game.clock_at else None)
            online.append(bool(b.status and b.status["online"]))
        return {"clock": clock, "clock_at": at, "clock_online": online}

    def take_dirty(self):
        """The summaries of the boards changed since the last call."""
        with self.lock:
            ids, self.dirty = self.dirty, set()
            return [self.summary(self.boards[i]) for i in sorted(ids)]

    def full_state(self):
        with self.lock:
            return [self.summary(self.boards[i]) for i in sorted(self.boards)]

    def games(self):
        with self.lock:
            out = []
            for i in sorted(self.boards):
                st = self.boards[i]
                for g in st.past.values():
                    out.append(g.info(st.status))
                if st.game is not None:
                    out.append(st.game.info(st.status))
            return out

    def find(self, name):
        """The Game called `<board>-<game>`, current or kept; None if unknown."""
        parts = split_game_id(name)
        if parts is None:
            return None
        with self.lock:
            st = self.boards.get(parts[0])
            if st is None:
                return None
            if st.game is not None and st.game.game == parts[1]:
                return st.game
            return st.past.get(parts[1])

    def sgf(self, name):
        """SGF text of a game, live or final (an archived game from an earlier
        run is read from the archive); None if unknown, or if the archive
        holds several records under that name (a record published ahead of
        the board's): the relay does not choose one, /games.json lists them
        all (archive_files)."""
        with self.lock:
            g = self.find(name)
            if g is not None:
                return g.sgf()
            if not split_game_id(name) or name + ".2.sgf" in self.files:
                return None
        return self.archive_file(name + ".sgf")
