"""The build's checks that need no browser: a binary wheel must match Pyodide's official lock; the
interpreter snapshot's container survives packing, compressing and cutting into parts, the
snapshot is taken from the page's code up to writing the document, and the standard library it is
restored with is Pyodide's without the entries left out, each other entry as it was; and the
runtime's own iOS check must take an iPad for iOS, not for a Mac."""

from __future__ import annotations

import gzip
import hashlib
import random
import runpy
import subprocess
import zipfile
from pathlib import Path

import pytest

from kostka_build import config, fetch, snapshot, util
from kostka_build.util import BuildError

WHEEL = "fake_binary-1.0-cp312-cp312-pyodide_2024_0_wasm32.whl"


@pytest.fixture
def lock(tmp_path):
    (tmp_path / "pyodide-wheels").mkdir()
    good = b"PK official bytes"
    return {"packages": {"fake-binary": {"file_name": WHEEL, "sha256": hashlib.sha256(good).hexdigest()}}}, good


def test_a_binary_wheel_matching_the_official_lock_is_taken(lock, tmp_path):
    entry, good = lock
    (tmp_path / "pyodide-wheels" / WHEEL).write_bytes(good)
    assert fetch.fetch_lock_wheels(entry, tmp_path, ("fake-binary",)) == {
        "fake-binary": tmp_path / "pyodide-wheels" / WHEEL
    }


def test_a_binary_wheel_that_differs_from_the_official_lock_stops_the_build(lock, tmp_path):
    entry, good = lock
    (tmp_path / "pyodide-wheels" / WHEEL).write_bytes(good + b"!")
    with pytest.raises(
        BuildError, match=r"sha256 MISMATCH for fake_binary.*Refusing to ship an unverified binary wheel"
    ):
        fetch.fetch_lock_wheels(entry, tmp_path, ("fake-binary",))


@pytest.mark.parametrize("size", [0, 3, 1000, 1 << 16, 3 * (1 << 16) + 17])
def test_the_snapshot_compressed_in_pieces_is_one_gzip_member_of_the_same_bytes(size):
    rng = random.Random(size)
    # compressible across the pieces' edges: words repeated from far before, runs of zeros, noise
    words = [rng.randbytes(rng.randint(3, 40)) for _ in range(50)]
    data = b"".join(rng.choice(words) if rng.random() < 0.9 else bytes(300) for _ in range(size))[:size]
    packed = util.gzip_compress(data, 9, piece=1 << 14)
    assert gzip.decompress(packed) == data
    assert packed[:10] == gzip.compress(data, 9, mtime=0)[:10]  # the header gzip writes: no name, no time
    if size <= 1 << 14:  # a single piece: byte for byte what gzip makes
        assert packed == gzip.compress(data, 9, mtime=0)
    else:  # the dictionary carried over: hardly larger than in one piece
        assert len(packed) < len(gzip.compress(data, 9, mtime=0)) * 1.01 + 64


def test_the_snapshot_container_round_trips_through_its_parts():
    memory = random.Random(7).randbytes(5_000_000)  # incompressible: more than two parts
    files = [
        ("panel/__init__.pyc", b"code"),
        ("webapp/locale/ru/LC_MESSAGES/kostka.mo", bytes(1000)),
        ("empty.txt", b""),
    ]
    container = snapshot.pack_snapshot(memory, files)
    assert int.from_bytes(container[:4], "little") == snapshot.SNAPSHOT_MAGIC
    assert (8 + int.from_bytes(container[4:8], "little")) % 4 == 0  # the memory starts 4-aligned
    parts = snapshot.snapshot_parts(container)
    assert len(parts) > 1 and all(len(p) <= config.SNAPSHOT_PART_BYTES for p in parts)
    assert snapshot.unpack_snapshot(gzip.decompress(b"".join(parts))) == (memory, files)
    with pytest.raises(ValueError):
        snapshot.unpack_snapshot(b"PK" + container[2:])


def zip_without():
    """programs/zip_without.py's function, as snapshot_pack.py runs it inside Pyodide."""
    return runpy.run_path(str(Path(snapshot.__file__).parent / "programs" / "zip_without.py"))["write_zip_without"]


def entries(path: Path) -> list[tuple[str, int, bytes]]:
    with zipfile.ZipFile(path) as zf:
        assert zf.testzip() is None  # every entry's CRC checks out
        return [(info.filename, info.compress_type, zf.read(info)) for info in zf.infolist()]


def test_a_zip_without_some_entries_keeps_every_other_one_as_it_was(tmp_path):
    source = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(source, "w") as zf:
        zf.writestr("json/", b"")
        zf.writestr("json/__init__.py", b"from .decoder import *\n" * 50, zipfile.ZIP_DEFLATED)
        zf.writestr("json/decoder.py", random.Random(1).randbytes(200_000), zipfile.ZIP_DEFLATED)  # > one buffer
        zf.writestr("graphlib.py", b"class TopologicalSorter: ...\n", zipfile.ZIP_STORED)
        zf.writestr("encodings/cp1250.py", b"# a codec\n", zipfile.ZIP_DEFLATED)
        zf.writestr("čeština.txt", "Žluťoučký kůň\n".encode(), zipfile.ZIP_DEFLATED)  # its name flagged UTF-8
        zf.writestr("typing.py", b"", zipfile.ZIP_DEFLATED)
    left_out = {"json/__init__.py", "typing.py", "not/there.py"}
    target = tmp_path / "rest.zip"
    assert zip_without()(str(source), str(target), left_out) == 5
    assert entries(target) == [e for e in entries(source) if e[0] not in left_out]
    copy = tmp_path / "copy.zip"
    assert zip_without()(str(target), str(copy), set()) == 5
    assert copy.read_bytes() == target.read_bytes()


@pytest.mark.skipif(not (config.CACHE / "npm").is_dir(), reason="npm pyodide not fetched (python build.py)")
def test_pyodides_standard_library_without_the_modules_the_snapshot_holds(tmp_path):
    stdlib = config.CACHE / "npm" / f"pyodide-{config.PYODIDE_VERSION}" / "package" / config.STDLIB_ZIP
    held = {"json/__init__.py", "json/decoder.py", "typing.py", "encodings/utf_8.py", "_pyodide/_base.py"}
    rest = tmp_path / config.STDLIB_REST
    kept = zip_without()(str(stdlib), str(rest), held)
    full = entries(stdlib)
    assert {name for name, _, _ in full} >= held
    assert entries(rest) == [e for e in full if e[0] not in held] and kept == len(full) - len(held)


def test_making_the_snapshot_without_node_stops_the_build_with_a_clear_message(monkeypatch):
    def no_node(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", "node")

    monkeypatch.setattr(subprocess, "run", no_node)
    with pytest.raises(BuildError, match=r"making the interpreter snapshot needs Node.js"):
        snapshot.run_snapshot_job({}, "making the interpreter snapshot")


def test_the_snapshot_takes_the_page_code_up_to_writing_the_document():
    code = "from panel.io.pyodide import init_doc, write_doc\ninit_doc()\nmain()\n\n\nawait write_doc()\n"
    assert (
        snapshot.prepared_page_code(code)
        == "from panel.io.pyodide import init_doc, write_doc\ninit_doc()\nmain()\n\n\n"
    )
    for changed in [code.replace("await write_doc()", "await write_doc(doc)"), code + "more()\n"]:
        with pytest.raises(BuildError, match=r"no longer ends with 'await write_doc\(\)'"):
            snapshot.prepared_page_code(changed)


def test_imports_read_by_type_checkers_only_need_not_ship():
    import ast

    from kostka_build.wheels import _run_time_nodes

    tree = ast.parse(
        "from typing import TYPE_CHECKING\nimport typing\n"
        "if TYPE_CHECKING:\n    from _typeshed import DataclassInstance\n"
        "if typing.TYPE_CHECKING:\n    import mypy_extensions\nelse:\n    import json\n"
    )
    imported = {
        a.name if isinstance(n, ast.Import) else n.module
        for n in _run_time_nodes(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported == {"typing", "json"}


# ---- the runtime's iOS check (kostka_build.verify.check_ios_detection)

# The check as Pyodide 0.27.7's pyodide.asm.js has it (getPyEMCountArgsPtr), and as 0.28 and later
# have it (cpython#135388): an iPad's Safari reports "MacIntel", which only the second one reads.
IOS_CHECK_0_27 = "globalThis.navigator&&/iPad|iPhone|iPod/.test(navigator.platform)"
IOS_CHECK_0_29 = (
    'globalThis.navigator&&(/iPad|iPhone|iPod/.test(navigator.userAgent)||navigator.platform==="MacIntel"'
    '&&typeof navigator.maxTouchPoints!=="undefined"&&navigator.maxTouchPoints>1)'
)


def runtime_with(check: str) -> str:
    """A runtime's text around its iOS check, as pyodide.asm.js writes it."""
    return f"function getPyEMCountArgsPtr(){{let isIOS={check};if(isIOS){{return 0}}const code=new Uint8Array([0]);}}"


def test_a_runtime_that_takes_an_ipad_for_a_mac_stops_the_build():
    from kostka_build import verify

    assert verify.ios_detection(runtime_with(IOS_CHECK_0_27))["iPad (iPadOS 18, Safari)"] is False
    with pytest.raises(BuildError, match=r"iPad \(iPadOS 18, Safari\): taken for not iOS"):
        verify.check_ios_detection(runtime_with(IOS_CHECK_0_27))


def test_a_runtime_that_tells_an_ipad_from_a_mac_passes():
    from kostka_build import verify

    assert verify.ios_detection(runtime_with(IOS_CHECK_0_29)) == {
        "iPad (iPadOS 18, Safari)": True,
        "iPhone (iOS 18, Safari)": True,
        "Mac (macOS, Safari)": False,
        "Android tablet (Chrome)": False,
    }
    verify.check_ios_detection(runtime_with(IOS_CHECK_0_29))


def test_a_runtime_whose_ios_check_cannot_be_found_stops_the_build():
    from kostka_build import verify

    with pytest.raises(BuildError, match="found 0 times"):
        verify.check_ios_detection("function getPyEMCountArgsPtr(){return 0}")


def test_the_pinned_runtime_tells_an_ipad_from_a_mac():
    core = config.CACHE / "npm" / f"pyodide-{config.PYODIDE_VERSION}" / "package" / "pyodide.asm.js"
    if not core.is_file():
        pytest.skip("the npm pyodide package is fetched by python build.py")
    from kostka_build import verify

    verify.check_ios_detection(core.read_text(encoding="utf-8"))
