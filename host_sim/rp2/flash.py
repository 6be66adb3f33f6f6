"""The emulated Pico's flash: the firmware's files built and written into a littlefs image, and read back."""
from pathlib import Path

from host_sim.rp2.firmware import _layout, uf2_board
from host_sim.tools import uf2

# littlefs as the official rp2 firmware formats the Pico's flash (1408 KiB
# at 4 KB; host_sim/tools/uf2.py's LAYOUTS has both boards).
FS_BLOCK = uf2.FS_BLOCK
FS_BLOCKS = uf2.LAYOUTS["pico"].fs_blocks
FS_VERSION = uf2.FS_VERSION


def build_mpy(out):
    """`make mpy` into out (a Path); returns out."""
    import io

    from host_sim.tools.mpy import build
    build(out=Path(out), stream=io.StringIO())
    return Path(out)


def fs_blocks(firmware):
    """The littlefs blocks the official firmware of a UF2's board gives its
    file system: 352 on a Pico, 212 on a Pico W, whose radio firmware takes
    flash (uf2.LAYOUTS)."""
    return _layout(uf2_board(firmware)).fs_blocks


def flash_image(dest, build_dir=None, files=None, dirs=(), blocks=FS_BLOCKS):
    """A littlefs image of the Pico's flash: everything under build_dir
    (main.py, gogadget/...) plus files {name: bytes} in dirs (made first).
    blocks: the file system's size (fs_blocks(board)).  Returns dest."""
    from littlefs import LittleFS, UserContext
    ctx = UserContext(buffsize=FS_BLOCK * blocks)
    fs = LittleFS(context=ctx, block_size=FS_BLOCK, block_count=blocks, prog_size=256,
                  disk_version=FS_VERSION)
    if build_dir is not None:
        build_dir = Path(build_dir)
        for p in sorted(build_dir.rglob("*")):
            rel = p.relative_to(build_dir).as_posix()
            if rel.startswith("."):
                continue
            if p.is_dir():
                fs.mkdir(rel)
            elif p.suffix in (".py", ".mpy"):
                with fs.open(rel, "wb") as f:
                    f.write(p.read_bytes())
    for d in dirs:
        fs.mkdir(d)
    for name, data in (files or {}).items():
        with fs.open(name, "wb") as f:
            f.write(data)
    fs.unmount()
    Path(dest).write_bytes(bytes(ctx.buffer))
    return Path(dest)


def read_image(path):
    """{name: bytes} of every file in a littlefs image (a dumped flash)."""
    from littlefs import LittleFS, UserContext
    data = Path(path).read_bytes()
    ctx = UserContext(buffsize=len(data))
    ctx.buffer[:] = data
    # No disk_version: the board formats with its own littlefs version.
    fs = LittleFS(context=ctx, block_size=FS_BLOCK, block_count=len(data) // FS_BLOCK, mount=True)
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for n in names:
            p = (root.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    fs.unmount()
    return out


def folders(files):
    """The folders of files' paths ({path: bytes}), a parent before its
    children: what flash_image's dirs must make for them (gogadget,
    gogadget/hw, and any package the firmware grows)."""
    out = set()
    for name in files:
        parts = name.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            out.add("/".join(parts[:k]))
    return sorted(out, key=lambda d: (d.count("/"), d))
