"""The relay's archive: each finished game's SGF written once, within a board's daily quota."""
import logging
import os
import re
import time

from host_sim.room.game import split_game_id

log = logging.getLogger("gogadget.relay")

# What one board may add to the archive in a day (UTC): a tournament board
# plays a few dozen games a day, each record a few KB (8 KB of moves at most).
QUOTA_GAMES = 100
QUOTA_BYTES = 4 << 20
_FILE = re.compile(r"(.+-\d{1,10})(?:\.\d{1,2})?\.sgf")  # an archive file: <board>-<game>[.k].sgf


class Archive:
    """The archive side of games.Room (its archive, files, quotas, counts, lock)."""

    def _maybe_archive(self, g):
        if g.phase != "over" or not g.result:
            return
        st = self.boards.get(g.board)
        if st is not None and st.game is g:
            self._end_pair(st, g)  # the paired game is over: so is the pairing
        if g.archived or not self.archive:
            return
        if not g.moves:
            # A game not started (a resignation before any move, or a board
            # announcing results ahead): shown, never written to the archive.
            return
        if self._spent(g.board):
            return  # over its quota today: not even its record is made
        text = g.sgf()
        base = os.path.join(self.archive, g.name)
        try:
            # (A game reopened by a take-back after its end and ended again
            # gets a file of its own: no file is replaced by another record.)
            path = self._write_new(base, text, g.board)
        except OSError as e:
            log.error("cannot archive %s: %s", base + ".sgf", e)
            return  # the game's next message tries again
        if path is None:
            return  # over the board's quota: shown, not archived
        g.archived = True  # said only now: the file is there
        g.archive_name = os.path.basename(path)
        self.files[g.archive_name] = g.board
        if st is not None:
            self._touch(st)

    def _write_new(self, base, text, board=None):
        """base.sgf holding text: written atomically, unless it holds it
        already (a relay restarted).  No file is replaced by another record:
        a base.sgf with another record (a record published ahead for that
        game number, or the game's own before a take-back after its end) is
        kept, and text goes beside it (base.2.sgf, ...), so a
        fake game cannot take a real one's place, and every file is listed
        in /games.json.  None when the board's quota for the day is spent."""
        data = text.encode("utf-8")
        for k in range(1, 100):
            path = base + (".sgf" if k == 1 else ".%d.sgf" % k)
            try:
                with open(path, "rb") as f:
                    if f.read() == data:
                        return path
                continue
            except FileNotFoundError:
                pass
            if board is not None and not self._quota(board, len(data)):
                return None
            if k > 1:
                log.warning("%s.sgf holds another record: this one is %s", base, path)
            tmp = path + ".tmp"
            try:
                with open(tmp, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except OSError:
                try:
                    os.remove(tmp)
                except OSError:
                    pass
                raise
            self.counts["archived"] += 1
            log.info("archived %s", path)
            return path
        raise OSError("%s.sgf: too many different records" % base)

    def _quota(self, board, nbytes):
        """May the board have one more file of nbytes archived
        today (UTC)?  Counted when yes; when no, one log line a board a day
        says so (issue 36: one board filled the archive with 300 one-move
        games in 6 s)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(self.now()))
        q = self._quota_of(board, day)
        if q[1] + 1 > self.quota_games or q[2] + nbytes > self.quota_bytes:
            self.counts["over_quota"] += 1
            if q[3] != day:
                q[3] = day  # said once a board a day
                line = ("%s: archive quota reached (%d games, %d bytes a board a day): its "
                        "further games today are shown, not archived" % (
                            board, self.quota_games, self.quota_bytes))
                log.warning(line)
                if self.on_log:
                    self.on_log(line)
            return False
        q[1] += 1
        q[2] += nbytes
        return True

    def _spent(self, board):
        """Was the board's quota reached today (and said)?  Then nothing more
        of it is archived today.  (Cheap: every message of a finished game
        tries to archive it until it is.)"""
        q = self.quotas.get(board)
        return q is not None and q[3] == time.strftime("%Y-%m-%d", time.gmtime(self.now()))

    def _quota_of(self, board, day):
        """[day, files, bytes, the day it was said] for the board, today's."""
        q = self.quotas.get(board)
        if q is None:
            q = self.quotas[board] = [day, 0, 0, None]
        elif q[0] != day:
            q[:3] = [day, 0, 0]
        return q

    def _scan_archive(self):
        """The files already in the archive (earlier runs): listed in
        /games.json and served, and today's counted against their boards'
        quotas."""
        today = time.strftime("%Y-%m-%d", time.gmtime(self.now()))
        for name in sorted(os.listdir(self.archive)):
            m = _FILE.fullmatch(name)
            parts = split_game_id(m.group(1)) if m else None
            if parts is None:
                continue
            path = os.path.join(self.archive, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            self.files[name] = parts[0]
            if time.strftime("%Y-%m-%d", time.gmtime(info.st_mtime)) == today:
                q = self._quota_of(parts[0], today)
                q[1] += 1
                q[2] += info.st_size

    def archive_files(self):
        """Every file in the archive, this run's and earlier ones', by name:
        each is served as /archive/<name> (archive_file)."""
        with self.lock:
            return sorted(self.files)

    def archive_file(self, name):
        """The text of an archive file by its name (one archive_files()
        lists, this run's or earlier ones'), as written; None for any other
        name: nothing else of the disk is read."""
        with self.lock:
            known = self.archive and name in self.files
        if not known:
            return None
        try:
            with open(os.path.join(self.archive, name), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return None
