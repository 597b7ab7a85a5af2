"""Hostile files: what the reader may open and read, and how much (issue 11, items 1-5, 12, 13).

Each hostile case runs in a child process under a time limit and an address-space limit
(``RLIMIT_AS``), so that a hang or a memory blow-up fails the test instead of the suite:

1. no ``<!DOCTYPE>`` makes the parser open anything (a FIFO named by a SYSTEM id would block;
   a resolver that records every call must never be called);
2. only regular files are read (FIFOs, ``/dev/zero``, sockets are refused before opening), and
   their size is checked before a byte is read: SDF files, includes, ``model.config``, meshes
   and the audit cache file;
3. compressed and archived meshes are refused; vertices and triangles are capped;
4. included models and links per file are capped (an include bomb ends in one error line);
5. entity declarations are refused on what the parser reports (a comment in the DTD or a
   UTF-16 file does not hide them);
12. numbers are read as libsdformat reads them (the compiled libsdformat oracle, and C's
    ``strtod`` for where a number ends);
13. cache entries that do not verify are not trusted; a cache file nested too deeply is ignored.
"""

# The SDF texts here stay inline: hostile bytes (DOCTYPEs, entities, caps) are the point.

from __future__ import annotations

import ctypes
import json
import os
import re
import resource
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.sdf import read_sdf_bytes, read_sdf_file
from gzinertia.sdf import xml as sdf_xml

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Every hostile case gets this long (the honest ones take well under a second) ...
TIMEOUT_S = 60
#: ... and this much address space (Python, NumPy, SciPy and trimesh need about 1 GiB of it).
MEMORY_BYTES = 1536 * 1024 * 1024

LINK = '<link name="{name}"><inertial><mass>1</mass></inertial></link>'
MODEL = '<?xml version="1.0"?>\n<sdf version="1.10">\n<model name="m">\n{body}\n</model>\n</sdf>\n'


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def run_limited(
    program: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs ``python -c program args`` with this repository first on the path, under
    :data:`TIMEOUT_S` and :data:`MEMORY_BYTES`; a time-out fails the test (it hung)."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "OPENBLAS_NUM_THREADS": "1",
                "OMP_NUM_THREADS": "1", **(env or {})}
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(program), *args],
            capture_output=True, text=True, timeout=TIMEOUT_S, env=full_env, cwd=cwd,
            preexec_fn=_limit_memory, check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: still running after {TIMEOUT_S} s")


def run_cli_limited(args: list[str], env: dict[str, str] | None = None,
                    cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``gzinertia ARGS`` in a child process under the limits."""
    return run_limited("from gzinertia.cli import main; import sys; sys.argv[0] = 'gzinertia'; "
                       "main()", *args, env=env, cwd=cwd)


def _read_program(expect_error: bool = False) -> str:
    """A program that reads each file named on its command line and prints, per file, one JSON
    line: ``{"links": n}`` or ``{"error": message}``."""
    return """
        import json, sys
        from gzinertia.errors import GzInertiaError
        from gzinertia.sdf import read_sdf_file
        for path in sys.argv[1:]:
            try:
                doc = read_sdf_file(path)
                print(json.dumps({"links": len(doc.links), "notes": [str(n) for n in doc.notes]}))
            except GzInertiaError as exc:
                print(json.dumps({"error": str(exc)}))
    """


def read_limited(*paths: Path, env: dict[str, str] | None = None) -> list[dict[str, object]]:
    """Each file read by :func:`read_sdf_file` in a child process under the limits."""
    proc = run_limited(_read_program(), *map(str, paths), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _model(tmp: Path, name: str, body: str) -> Path:
    path = tmp / name
    path.write_text(MODEL.format(body=body), encoding="utf-8")
    return path


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A FIFO nobody writes to: opening it for reading blocks, reading it blocks."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# ---- 1. no DOCTYPE opens anything ---------------------------------------------------------------
def _doctypes(target: Path) -> dict[str, tuple[bytes, str | None]]:
    """Documents whose DOCTYPE names ``target``, with the error expected (``None``: read)."""
    body = b'<sdf version="1.10"><model name="m"><link name="a"/></model></sdf>'
    url = target.as_uri().encode()
    return {
        "SYSTEM id": (b'<?xml version="1.0"?><!DOCTYPE sdf SYSTEM "%s">' % url + body, None),
        "SYSTEM path": (b'<!DOCTYPE sdf SYSTEM "%s">' % str(target).encode() + body, None),
        "PUBLIC id": (b'<!DOCTYPE sdf PUBLIC "-//x//y" "%s">' % url + body, None),
        "parameter entity": (
            b'<!DOCTYPE sdf [<!ENTITY %% p SYSTEM "%s"> %%p;]>' % url + body,
            "refusing a DTD that declares entities",
        ),
        "external entity": (
            b'<!DOCTYPE sdf [<!ENTITY x SYSTEM "%s">]>' % url
            + b'<sdf version="1.10"><model name="m"><link name="&x;"/></model></sdf>',
            "refusing a DTD that declares entities",
        ),
        "external subset and an entity reference": (
            b'<!DOCTYPE sdf SYSTEM "%s">' % url
            + b'<sdf version="1.10"><model name="m"><link name="&x;"/></model></sdf>',
            "Entity 'x' not defined (no DTD is read",
        ),
    }


def test_a_doctype_naming_a_fifo_opens_nothing(tmp_path: Path, fifo: Path) -> None:
    """libxml2 loaded the external subset (``collect_ids=False``): this blocked on the FIFO."""
    files = []
    for i, (data, _) in enumerate(_doctypes(fifo).values()):
        files.append(tmp_path / f"d{i}.sdf")
        files[-1].write_bytes(data)
    results = read_limited(*files)
    for (case, (_, expected)), result in zip(_doctypes(fifo).items(), results, strict=True):
        if expected is None:
            assert result.get("links") == 1, (case, result)
        else:
            assert expected in str(result.get("error")), (case, result)


def test_no_doctype_calls_a_resolver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every parser the reader makes gets a resolver that records what it is asked for: libxml2
    must never ask (a file name, URL or entity it would open)."""
    asked: list[str] = []

    class Recorder(etree.Resolver):
        def resolve(self, system_url: str, public_id: str, context: object) -> None:
            asked.append(system_url)

    class SpiedParser(etree.XMLParser):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.resolvers.add(Recorder())

    monkeypatch.setattr(etree, "XMLParser", SpiedParser)
    monkeypatch.setattr(sdf_xml._LOCAL, "parser", None, raising=False)
    target = tmp_path / "elsewhere.dtd"
    target.write_text('<!ENTITY x "boo">', encoding="utf-8")
    for case, (data, expected) in _doctypes(target).items():
        if expected is None:
            assert len(read_sdf_bytes(data, "d.sdf").links) == 1, case
        else:
            with pytest.raises(SdfError, match=re.escape(expected)):
                read_sdf_bytes(data, "d.sdf")
    assert asked == []


# ---- 2. regular files only, sized before reading ------------------------------------------------
def test_fifos_and_devices_are_refused_before_they_are_opened(tmp_path: Path, fifo: Path) -> None:
    named = tmp_path / "x.sdf"
    os.mkfifo(named)
    zero = tmp_path / "zero.sdf"
    zero.symlink_to("/dev/zero")
    stdin = tmp_path / "stdin.sdf"
    stdin.symlink_to("/dev/stdin")
    results = read_limited(named, zero, stdin)
    assert "x.sdf: is a FIFO (named pipe), not a regular file" in str(results[0]["error"])
    assert "zero.sdf: is a character device, not a regular file" in str(results[1]["error"])
    assert "stdin.sdf: is " in str(results[2]["error"])  # a pipe or a terminal, never read


def test_the_size_cap_is_checked_before_reading(tmp_path: Path) -> None:
    """A sparse 4 GiB file costs no disk; reading it first (as before) needed 4 GiB of memory."""
    big = tmp_path / "big.sdf"
    with big.open("wb") as f:
        f.truncate(4 * 1024**3)
    (result,) = read_limited(big)
    assert "big.sdf: is larger than 64 MiB (4294967296 bytes): not read" in str(result["error"])


def test_an_audit_reports_every_file_around_a_fifo_and_a_device(tmp_path: Path) -> None:
    """A FIFO named x.sdf blocked the whole audit (the cache digested it first); now it and a
    symlink to /dev/zero are reported as errors and the other files as usual. (The link, found
    in the folder, leads out of it: it is named too, or it would only be listed as skipped,
    tests/test_hostile_links.py.)"""
    folder = tmp_path / "models"
    folder.mkdir()
    _model(folder, "a_good.sdf", LINK.format(name="a"))
    os.mkfifo(folder / "x.sdf")
    (folder / "zero.sdf").symlink_to("/dev/zero")
    env = {"GZINERTIA_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # the second run goes through the cache written by the first
        proc = run_cli_limited(["audit", str(folder), str(folder / "zero.sdf"), "--format",
                                "json", "--jobs", "1"], env)
        assert proc.returncode == 2, proc.stderr
        files = {Path(f["path"]).name: f for f in json.loads(proc.stdout)["files"]}
        assert files["a_good.sdf"]["status"] == "ok"
        assert "FIFO" in files["x.sdf"]["message"]
        assert "character device" in files["zero.sdf"]["message"]


def test_includes_model_config_and_meshes_are_read_only_as_regular_files(
    tmp_path: Path,
) -> None:
    # model.config a FIFO in one folder, a symlink to /dev/zero in another: model.sdf is used.
    for name, make in (("fifo_config", os.mkfifo),
                       ("zero_config", lambda p: Path(p).symlink_to("/dev/zero"))):
        folder = tmp_path / name
        folder.mkdir()
        make(folder / "model.config")
        _model(folder, "model.sdf", LINK.format(name="inside"))
    huge = tmp_path / "huge"
    huge.mkdir()
    with (huge / "model.sdf").open("wb") as f:
        f.truncate(2 * 1024**3)
    os.mkfifo(tmp_path / "pipe.sdf")
    os.mkfifo(tmp_path / "pipe.stl")
    (tmp_path / "zero.stl").symlink_to("/dev/zero")
    mesh = '<collision name="c"><geometry><mesh><uri>{}</uri></mesh></geometry></collision>'
    world = _model(
        tmp_path,
        "top.sdf",
        "\n".join([
            LINK.format(name="own"),
            '<link name="meshed">' + mesh.format("pipe.stl") + mesh.format("zero.stl") + "</link>",
            '<include><uri>fifo_config</uri><name>a</name></include>',
            '<include><uri>zero_config</uri><name>b</name></include>',
            '<include><uri>huge</uri><name>c</name></include>',
            '<include><uri>pipe.sdf</uri><name>d</name></include>',
        ]),
    )
    (result,) = read_limited(world)
    assert result["links"] == 4, result  # own, meshed, a::inside, b::inside
    notes = "\n".join(result["notes"])  # type: ignore[arg-type]
    assert "model.sdf: is larger than 64 MiB" in notes
    assert "cannot find 'pipe.sdf'" in notes


def test_a_mesh_is_read_only_as_a_regular_file_within_its_size_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.stl"
    with big.open("wb") as f:
        f.truncate(3 * 1024**3)
    program = """
        import sys
        from gzinertia.physics.shapes import ShapeError, load_mesh
        try:
            load_mesh(sys.argv[1], (1.0, 1.0, 1.0))
        except ShapeError as exc:
            print(exc)
    """
    proc = run_limited(program, str(big))
    assert "is larger than 256 MiB (3221225472 bytes): not read" in proc.stdout, proc.stderr
    proc = run_limited(program, str(big), env={"GZINERTIA_MAX_MESH_BYTES": "1000"})
    assert "is larger than 1000 bytes" in proc.stdout, proc.stderr


# ---- 3. meshes: no archives, capped vertices and triangles -------------------------------------
@pytest.fixture
def sphere_stl() -> bytes:
    import trimesh

    data: bytes = trimesh.creation.icosphere(subdivisions=2).export(file_type="stl")
    return data


def test_compressed_and_archived_meshes_are_refused(tmp_path: Path, sphere_stl: bytes) -> None:
    """trimesh decompresses ``.bz2``, ``.zip``... without limit (785 bytes of bzip2 became
    3.2 GB); here each holds a valid STL that trimesh would load, and each is refused."""
    import bz2
    import gzip

    bomb = bz2.BZ2Compressor()
    chunks = [bomb.compress(b"\0" * (1 << 20)) for _ in range(256)]  # 256 MiB of zeros
    (tmp_path / "bomb.stl.bz2").write_bytes(b"".join(chunks) + bomb.flush())
    (tmp_path / "m.stl.bz2").write_bytes(bz2.compress(sphere_stl))
    with zipfile.ZipFile(tmp_path / "m.zip", "w") as z:
        z.writestr("m.stl", sphere_stl)
    (tmp_path / "gzip_named.stl").write_bytes(gzip.compress(sphere_stl))
    (tmp_path / "zip_named.stl").write_bytes((tmp_path / "m.zip").read_bytes())
    names = ["bomb.stl.bz2", "m.stl.bz2", "m.zip", "gzip_named.stl", "zip_named.stl"]
    program = """
        import sys
        from gzinertia.physics.shapes import ShapeError, mesh_solid
        for path in sys.argv[1:]:
            try:
                mesh_solid(path)
                print("read")
            except ShapeError as exc:
                print(exc)
    """
    proc = run_limited(program, *(str(tmp_path / n) for n in names))
    lines = proc.stdout.splitlines()
    assert len(lines) == len(names), proc.stderr[-2000:]
    for name, line in zip(names, lines, strict=True):
        assert name in line and "not read" in line, line
        assert "compressed" in line, line


@pytest.mark.parametrize("file_type", ["stl", "obj", "ply", "off"])
def test_mesh_vertices_and_triangles_are_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file_type: str
) -> None:
    import trimesh

    from gzinertia.physics.shapes import ShapeError, mesh_solid

    sphere = trimesh.creation.icosphere(subdivisions=2)  # 162 vertices, 320 triangles
    path = tmp_path / f"sphere.{file_type}"
    data = sphere.export(file_type=file_type)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    monkeypatch.setenv("GZINERTIA_MAX_MESH_FACES", "319")
    with pytest.raises(ShapeError, match="320 triangles, more than the 319 read"):
        mesh_solid(str(path))
    monkeypatch.setenv("GZINERTIA_MAX_MESH_FACES", "320")
    monkeypatch.setenv("GZINERTIA_MAX_MESH_VERTICES", "161")
    with pytest.raises(ShapeError, match="GZINERTIA_MAX_MESH_VERTICES"):
        mesh_solid(str(path))
    monkeypatch.setenv("GZINERTIA_MAX_MESH_VERTICES", "162")
    as_trimesh_reads_it = trimesh.load(str(path), force="mesh")
    assert mesh_solid(str(path)).volume == pytest.approx(as_trimesh_reads_it.volume, rel=1e-12)


# ---- 4. includes: capped included models and links ---------------------------------------------
def _include_bomb(tmp: Path, levels: int = 10, fan_out: int = 10) -> Path:
    """Level k includes level k+1 ``fan_out`` times; the last level has one link:
    ``fan_out ** levels`` links from a few kilobytes."""
    for level in range(levels, -1, -1):
        if level == levels:
            body = LINK.format(name="l")
        else:
            body = "\n".join(
                f"<include><uri>level{level + 1}.sdf</uri><name>i{i}</name></include>"
                for i in range(fan_out)
            )
        _model(tmp, f"level{level}.sdf", body)
    return tmp / "level0.sdf"


def test_an_include_bomb_stops_at_the_included_models_cap(tmp_path: Path) -> None:
    top = _include_bomb(tmp_path)
    (result,) = read_limited(top)
    error = str(result["error"])
    assert "more than 10000 included models in one file" in error
    # a library read names the library's setting (the CLI names audit --max-included-models)
    assert "ReadLimits.max_included_models" in error and "GZINERTIA_MAX_INCLUDED_MODELS" in error
    assert error.startswith(str(tmp_path / "level")) and ".sdf:" in error  # file:line
    (small,) = read_limited(top, env={"GZINERTIA_MAX_INCLUDED_MODELS": "50"})
    assert "more than 50 included models" in str(small["error"])


def test_the_audit_flags_set_the_caps(tmp_path: Path) -> None:
    top = _include_bomb(tmp_path, levels=2, fan_out=10)  # 110 includes, 100 links
    base = ["audit", str(top), "--format", "json", "--no-cache"]
    proc = run_cli_limited(base)
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["files"][0]["status"] == "ok"
    for flag, value, message in (
        ("--max-included-models", "109", "more than 109 included models"),
        ("--max-links", "99", "more than 99 links in one file"),
    ):
        proc = run_cli_limited([*base, flag, value])
        assert proc.returncode == 2, proc.stderr
        (status,) = json.loads(proc.stdout)["files"]
        assert message in status["message"], status
        file, line = status["message"].split(": ", 1)[0].rsplit(":", 1)
        assert Path(file).name.startswith("level") and int(line) > 0
    proc = run_cli_limited([*base, "--max-links", "100", "--max-included-models", "110"])
    assert json.loads(proc.stdout)["files"][0]["status"] == "ok"
    proc = run_cli_limited([*base, "--max-links", "0"])
    assert proc.returncode == 2 and "--max-links must be at least 1" in proc.stderr


# ---- 5. entity declarations, decided on what the parser reports --------------------------------
ENTITY_CASES = {
    "a comment with markup in the DTD": (
        b'<?xml version="1.0"?><!DOCTYPE sdf [<!-- <model> --><!ENTITY a "aaaa">]>'
        b'<sdf version="1.10"><model name="&a;"><link name="l"/></model></sdf>'
    ),
    "UTF-16": (
        '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE sdf [<!ENTITY a "aaaa">]>'
        '<sdf version="1.10"><model name="&a;"><link name="l"/></model></sdf>'
    ).encode("utf-16"),
    "a parameter entity": (
        b'<!DOCTYPE sdf [<!ENTITY % p "<!ENTITY a \'b\'>"> %p;]>'
        b'<sdf version="1.10"><model name="&a;"><link name="l"/></model></sdf>'
    ),
    "an entity declared after a processing instruction naming <sdf": (
        b'<?xml version="1.0"?><?pi <sdf version="1.10"/>?><!DOCTYPE sdf [<!ENTITY a "b">]>'
        b'<sdf version="1.10"><model name="&a;"><link name="l"/></model></sdf>'
    ),
}


@pytest.mark.parametrize("data", ENTITY_CASES.values(), ids=ENTITY_CASES.keys())
def test_entity_declarations_are_refused_whatever_hides_them(data: bytes) -> None:
    with pytest.raises(SdfError, match="refusing a DTD that declares entities") as err:
        read_sdf_bytes(data, "hidden.sdf")
    assert str(err.value).startswith("hidden.sdf")


def test_a_doctype_without_entities_is_ignored_as_libsdformat_does() -> None:
    data = (b'<!DOCTYPE sdf [<!ELEMENT sdf ANY>]>\n'
            b'<sdf version="1.10"><model name="m"><link name="l"/></model></sdf>')
    assert [lk.name for lk in read_sdf_bytes(data, "d.sdf").links] == ["m::l"]


# ---- 12. numbers as libsdformat reads them -----------------------------------------------------
SPELLINGS = (
    "1", " 7 ", "+2", "-0", ".5", "5.", "1e5", "1E-5", "1e+5", "-.5e-2", "00012", "0.1",
    "0x10", "0X1P3", "0x.8", "0x1p-3", "0x",
    "1_000", "1abc", "1,5", "1.5.2", "1e", "1d5", "1f", "0b1", "--1", "+-1", ".", "+", "e5",
    "abc", "１２", "١٢", "٫5", "1\u00a0",
    "inf", "-inf", "nan", "NaN", "Infinity",
    "1e308", "1.8e308", "1e-300", "2.2250738585072014e-308", "1e-310", "4.9e-324", "0e-400",
    "1e150", "0.000", "-0.0", "0." + "0" * 400 + "1",
)


def _strtod_consumes_all(word: str) -> bool:
    """Whether C's ``strtod`` (what libsdformat's ``std::stod`` calls) reads all of ``word``
    (leading and trailing white space aside)."""
    libc = ctypes.CDLL(None)
    libc.strtod.restype = ctypes.c_double
    libc.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
    raw = word.strip(" \t\n\r").encode("utf-8")  # the white space XML allows
    buf = ctypes.create_string_buffer(raw)
    end = ctypes.c_char_p()
    libc.strtod(buf, ctypes.byref(end))
    consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)  # type: ignore[operator]
    return bool(raw) and consumed == len(raw)


def _ours(path: Path) -> tuple[float, float] | str:
    """(mass, x of the link pose) as we read them, or our error."""
    try:
        (link,) = read_sdf_file(path).links
    except SdfError as exc:
        return str(exc)
    return link.inertial.mass, float(link.X_WB.p[0])


@pytest.mark.oracle("sdformat")
def test_numbers_are_read_as_libsdformat_reads_them(tmp_path: Path) -> None:
    """For each spelling in ``<mass>`` and in ``<pose>``: where libsdformat reads the whole word
    we read the same value (unless it is not finite or beyond ±1e100, which we refuse on
    purpose); where it refuses the word, or reads only its start (``1_000`` as 1), we report
    an error naming the word, file and line."""
    from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

    from gzinertia.sdf.values import MAX_MAGNITUDE

    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle cannot be built")
    files: list[tuple[str, str, Path]] = []
    for i, word in enumerate(SPELLINGS):
        for where in ("mass", "pose"):
            path = tmp_path / f"{where}{i}.sdf"
            mass, pose = (word, "0 0 0 0 0 0") if where == "mass" else ("1", f"{word} 0 0 0 0 0")
            path.write_text(
                '<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n'
                f'<link name="l">\n<pose>{pose}</pose>\n'
                f"<inertial><mass>{mass}</mass></inertial>\n</link>\n</model>\n</sdf>\n",
                encoding="utf-8",
            )
            files.append((word, where, path))
    theirs = read_with_sdformat([p for _, _, p in files])
    accepted = 0
    for (word, where, path), their in zip(files, theirs, strict=True):
        ours = _ours(path)
        if not their["links"]:  # libsdformat refused the element
            assert isinstance(ours, str), (word, where, ours)
            continue
        link = their["links"][0]
        value = link["mass"] if where == "mass" else link["X_WB"][3]
        whole = _strtod_consumes_all(word)
        if not whole:  # libsdformat read a leading part of the word only: we refuse it
            assert isinstance(ours, str) and "is not a number" in ours, (word, where, ours)
            assert f"{path}:" in ours
            continue
        if value is None or abs(value) > MAX_MAGNITUDE:  # not finite / beyond our range
            assert isinstance(ours, str), (word, where, ours)
            continue
        assert not isinstance(ours, str), (word, where, ours)
        assert (ours[0] if where == "mass" else ours[1]) == value, (word, where)
        accepted += 1
    assert accepted >= 30  # the comparison is not vacuous


# ---- 13. the cache: entries that do not verify are absent --------------------------------------
FAILING = LINK.replace("<mass>1</mass>", "<mass>-1</mass>")


def _audit_json(folder: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return run_cli_limited(["audit", str(folder), "--format", "json", "--cache-dir", str(cache)])


def _edit_cache(cache: Path, edit: Callable[[dict[str, object]], None]) -> None:
    (cache_file,) = (cache / "audit").glob("*.json")
    data = json.loads(cache_file.read_bytes())
    for entry in data["entries"].values():
        edit(entry)
    cache_file.write_text(json.dumps(data), encoding="utf-8")


def test_an_edited_cache_cannot_turn_a_failing_file_green(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    _model(folder, "bad.sdf", FAILING.format(name="a"))
    cache = tmp_path / "cache"
    first = _audit_json(folder, cache)
    assert first.returncode == 1 and json.loads(first.stdout)["findings"], first.stderr

    def drop_findings(entry: dict[str, object]) -> None:
        entry["findings"] = []

    _edit_cache(cache, drop_findings)
    again = _audit_json(folder, cache)
    assert again.returncode == 1, again.stdout
    assert json.loads(again.stdout)["findings"] == json.loads(first.stdout)["findings"]

    def drop_mac(entry: dict[str, object]) -> None:
        entry.pop("mac")
        entry["findings"] = []

    _edit_cache(cache, drop_mac)
    assert _audit_json(folder, cache).returncode == 1


def test_entries_signed_by_other_code_are_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry's key comes from the code fingerprint: entries written by another version of
    gzinertia, even copied to this version's cache file, are checked again."""
    from gzinertia.audit import cache as cache_module
    from gzinertia.audit import runner

    folder = tmp_path / "models"
    folder.mkdir()
    path = _model(folder, "bad.sdf", FAILING.format(name="a"))
    cache = tmp_path / "cache"
    monkeypatch.setattr(cache_module, "_code_fingerprint", lambda: "an older gzinertia")
    old = runner.audit([str(path)], cache_dir=cache)
    (old_file,) = (cache / "audit").glob("*.json")
    monkeypatch.undo()
    current_file = runner.open_cache(cache, runner.AuditConfig(), []).path
    assert current_file != old_file
    current_file.write_bytes(old_file.read_bytes())
    current = runner.open_cache(cache, runner.AuditConfig(), [])  # loads the copied entries
    assert len(current._entries) == 1 and current.lookup(str(path)) is None
    assert runner.audit([str(path)], cache_dir=cache).findings == old.findings


def test_a_cache_file_nested_too_deeply_or_not_a_regular_file_is_ignored(tmp_path: Path) -> None:
    from gzinertia.audit import runner

    folder = tmp_path / "models"
    folder.mkdir()
    _model(folder, "bad.sdf", FAILING.format(name="a"))
    cache = tmp_path / "cache"
    expected = _audit_json(folder, tmp_path / "fresh").stdout
    cache_file = runner.open_cache(cache, runner.AuditConfig(), []).path
    cache_file.parent.mkdir(parents=True)
    for make in (
        lambda p: p.write_text("[" * 200_000, encoding="utf-8"),
        lambda p: p.write_text('{"entries":' * 200_000, encoding="utf-8"),
        os.mkfifo,
        lambda p: p.symlink_to("/dev/zero"),
    ):
        cache_file.unlink(missing_ok=True)
        make(cache_file)
        proc = run_cli_limited(
            ["audit", str(folder), "--format", "json", "--cache-dir", str(cache)],
            cwd=Path.cwd(),
        )
        assert proc.returncode == 1, proc.stderr[-2000:]
        assert proc.stdout == expected
        assert "unreadable cache ignored" in proc.stderr


def test_a_settings_file_is_sized_before_it_is_read(tmp_path: Path) -> None:
    """The audit picks up ``.gzinertia.toml`` from the checkout it runs in: a sparse 4 GiB one
    is refused before it is read (it was read whole into memory)."""
    with (tmp_path / ".gzinertia.toml").open("wb") as f:
        f.truncate(4 * 1024**3)
    _model(tmp_path, "m.sdf", LINK.format(name="a"))
    proc = run_cli_limited(["audit", "m.sdf", "--no-cache"], cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"gzinertia: error: {tmp_path / '.gzinertia.toml'}: cannot read: is larger than 1 MiB "
        "(4294967296 bytes): not read"
    ]


def test_a_file_swapped_for_a_fifo_after_the_check_is_refused_without_blocking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the ``stat`` and the ``open`` the path becomes a FIFO: the non-blocking open
    returns at once and ``fstat`` sees a FIFO (or another inode)."""
    from gzinertia.io import safe_read

    path = _model(tmp_path, "m.sdf", LINK.format(name="a"))
    real_open = os.open

    def swap_then_open(name: str, flags: int, *args: int) -> int:
        os.unlink(name)
        os.mkfifo(name)
        return real_open(name, flags, *args)

    monkeypatch.setattr(safe_read.os, "open", swap_then_open)
    with pytest.raises(safe_read.RefusedFileError, match=r"is a FIFO|was replaced"):
        safe_read.read_regular_file(path, 1024)


def test_a_gltf_reads_its_buffers_only_from_its_folder_as_regular_files(tmp_path: Path) -> None:
    """A glTF's external buffers are geometry: read from the mesh's folder (the volume is
    trimesh's own reading of the same files); a buffer outside that folder, or a device, is
    not read."""
    import trimesh

    from gzinertia.physics.shapes import mesh_solid

    files = trimesh.creation.icosphere(subdivisions=2).export(file_type="gltf")
    good = tmp_path / "good"
    good.mkdir()
    for name, data in files.items():
        (good / name).write_bytes(data)
    expected = trimesh.load(str(good / "model.gltf"), force="mesh").volume
    assert mesh_solid(str(good / "model.gltf")).volume == pytest.approx(expected, rel=1e-12)

    tree = json.loads(files["model.gltf"])
    for case, uri in (("outside", "../good/gltf_buffer_0.bin"), ("device", "zero.bin"),
                      ("absolute", str(good / "gltf_buffer_0.bin"))):
        folder = tmp_path / case
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data)
        (folder / "zero.bin").symlink_to("/dev/zero")
        tree["buffers"][0]["uri"] = uri
        (folder / "model.gltf").write_text(json.dumps(tree), encoding="utf-8")
        proc = run_limited(
            "import sys\nfrom gzinertia.physics.shapes import ShapeError, mesh_solid\n"
            "try:\n    mesh_solid(sys.argv[1]); print('read')\n"
            "except ShapeError as exc:\n    print(exc)\n",
            str(folder / "model.gltf"),
        )
        assert "cannot be loaded" in proc.stdout, (case, proc.stdout, proc.stderr[-2000:])


# ---- 14. COLLADA: hardened XML, bounded counts and nesting, no other file opened --------------
#: A unit cube (12 triangles) in COLLADA; ``{head}`` goes before the root, ``{asset}`` and
#: ``{library}`` inside it, ``{nodes}`` after the cube's node in the visual scene.
CUBE_DAE = """<?xml version="1.0" encoding="utf-8"?>{head}
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit meter="1"/>{asset}</asset>{library}
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="{count}">0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1
</float_array><technique_common><accessor source="#pa" count="8" stride="3"/></technique_common>
</source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/>
<p>0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 1 2 6 1 6 5 2 3 7 2 7 6 3 0 4 3 4 7</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node name="cube"><instance_geometry url="#g"/>
</node>{nodes}</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""


#: Nine entities, each ten of the one before: 10**9 "lol"s if expanded.
LAUGHS = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))


def cube_dae(head: str = "", asset: str = "", library: str = "", nodes: str = "",
             count: str = "24") -> bytes:
    return CUBE_DAE.format(head=head, asset=asset, library=library, nodes=nodes,
                           count=count).encode()


_SOLID_PROGRAM = (
    "import sys\nfrom gzinertia.physics.shapes import ShapeError, mesh_solid\n"
    "for path in sys.argv[1:]:\n"
    "    try:\n        print('read', mesh_solid(path).volume)\n"
    "    except ShapeError as exc:\n        print(exc)\n"
)


def test_a_collada_cube_reads_and_hostile_collada_files_end_in_one_line(
    tmp_path: Path, fifo: Path
) -> None:
    """Each hostile COLLADA file ends in one line naming the file (and the line where there is
    one), under the time and memory limits; the honest cube reads with volume 1."""
    laughs = LAUGHS
    chain = "".join(f'<node id="n{i}">' + "".join(f'<node><instance_node url="#n{i + 1}"/></node>'
                                                  for _ in range(10)) + "</node>"
                    for i in range(12))
    cases = {
        "honest": (cube_dae(), "read 1.0"),
        "malformed": (cube_dae()[:-40], "line 13: not well-formed XML"),
        "entity bomb": (cube_dae(head=f'<!DOCTYPE COLLADA [<!ENTITY l0 "lol">{laughs}]>',
                                 asset="<contributor>&l9;</contributor>"),
                        "refusing a <!DOCTYPE>"),
        "external entity": (cube_dae(head=f'<!DOCTYPE COLLADA [<!ENTITY x SYSTEM "{fifo}">]>',
                                     asset="<contributor>&x;</contributor>"),
                            "refusing a <!DOCTYPE>"),
        "external DTD": (cube_dae(head=f'<!DOCTYPE COLLADA SYSTEM "{fifo}">'),
                         "refusing a <!DOCTYPE>"),
        "undeclared entity": (cube_dae(asset="<contributor>&nope;</contributor>"),
                              "not well-formed XML"),
        "huge count": (cube_dae(count="99999999999"), "declares 33333333333 vertices"),
        "instance cycle": (cube_dae(library='<library_nodes><node id="loop">'
                                            '<instance_node url="#loop"/></node></library_nodes>',
                                    nodes='<node><instance_node url="#loop"/></node>'),
                           "nested deeper than 128 levels"),
        "instancing bomb": (cube_dae(library=f"<library_nodes>{chain}"
                                             '<node id="n12"><instance_geometry url="#g"/></node>'
                                             "</library_nodes>",
                                     nodes='<node><instance_node url="#n0"/></node>'),
                            "more than 100000 nodes to visit"),
        "bad unit": (cube_dae().replace(b'meter="1"', b'meter="-2"'), "is not a positive number"),
        "skinned mesh": (cube_dae(nodes='<node><instance_controller url="#g"/></node>'),
                         "a skinned mesh (<instance_controller>) is not read"),
        "dangling url": (cube_dae(nodes='<node><instance_geometry url="#nothing"/></node>'),
                         "names '#nothing', which is not in the file"),
    }
    paths = []
    for name, (data, _) in cases.items():
        path = tmp_path / (name.replace(" ", "_") + ".dae")
        path.write_bytes(data)
        paths.append(str(path))
    proc = run_limited(_SOLID_PROGRAM, *paths)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == len(cases), proc.stderr[-3000:]
    for (name, (_, expected)), path, line in zip(cases.items(), paths, lines, strict=True):
        assert expected in line, (name, line)
        if name != "honest":
            assert repr(path) in line, (name, line)


def test_collada_triangles_and_polygons_are_capped(tmp_path: Path) -> None:
    """Triangles (a long ``<p>``, a polygon of a billion corners) and vertices past the caps
    are refused before they are built."""
    cube = cube_dae()
    many = cube.replace(b'<triangles count="12">', b'<triangles count="2400">').replace(
        b"3 4 7</p>", b"3 4 7 " + b"0 2 1 " * 2400 + b"</p>")
    polygon = cube.replace(b"</mesh>", b'<polylist count="1"><input semantic="VERTEX" '
                                        b'source="#v" offset="0"/><vcount>1000000000</vcount>'
                                        b"<p>0 1 2</p></polylist></mesh>")
    for name, data in (("many.dae", many), ("polygon.dae", polygon)):
        (tmp_path / name).write_bytes(data)
    proc = run_limited(_SOLID_PROGRAM, str(tmp_path / "many.dae"), str(tmp_path / "polygon.dae"),
                       env={"GZINERTIA_MAX_MESH_FACES": "1000"})
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and all("more than the 1000 triangles read" in ln for ln in lines), (
        proc.stdout, proc.stderr[-2000:])
    proc = run_limited(_SOLID_PROGRAM, str(tmp_path / "many.dae"),
                       env={"GZINERTIA_MAX_MESH_VERTICES": "5"})
    assert "declares 8 vertices, more than the 5 read" in proc.stdout, proc.stdout


def test_a_collada_file_opens_no_image_or_other_file_it_names(tmp_path: Path, fifo: Path) -> None:
    """Images, textures and any other file a COLLADA file names are not geometry: the cube
    whose material's image is a FIFO outside the model folder (opening it would block) reads
    with volume 1, and the only file opened is the DAE itself."""
    outside = tmp_path / "outside"
    outside.mkdir()
    image = outside / "texture.png"
    os.mkfifo(image)
    images = (f'<library_images><image id="img"><init_from>../outside/texture.png</init_from>'
              f'</image><image id="abs"><init_from>{fifo.as_uri()}</init_from></image>'
              '</library_images><library_effects><effect id="e"><profile_COMMON>'
              '<newparam sid="surf"><surface type="2D"><init_from>img</init_from></surface>'
              '</newparam><technique sid="t"><phong><diffuse><texture texture="surf" '
              'texcoord="uv"/></diffuse></phong></technique></profile_COMMON></effect>'
              '</library_effects><library_materials><material id="mat">'
              '<instance_effect url="#e"/></material></library_materials>')
    model = tmp_path / "model"
    model.mkdir()
    dae = model / "cube.dae"
    dae.write_bytes(cube_dae(library=images))
    program = (
        "import builtins, os, sys\n"
        "opened = []\n"
        "real_open, real_os_open = builtins.open, os.open\n"
        "def rec_open(f, *a, **k):\n    opened.append(str(f)); return real_open(f, *a, **k)\n"
        "def rec_os_open(f, *a, **k):\n    opened.append(str(f)); return real_os_open(f, *a, **k)\n"
        "from gzinertia.physics.shapes import mesh_solid\n"
        "import trimesh, numpy\n"
        "builtins.open, os.open = rec_open, rec_os_open\n"
        "volume = mesh_solid(sys.argv[1]).volume\n"
        "builtins.open, os.open = real_open, real_os_open\n"
        "print(volume)\n"
        "print('\\n'.join(p for p in opened if not p.endswith('.py') and '/proc/' not in p))\n"
    )
    proc = run_limited(program, str(dae))
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert float(lines[0]) == pytest.approx(1.0, rel=1e-12)
    assert lines[1:] == [str(dae)], lines


def test_a_hostile_collada_collision_is_one_cli_error_line(tmp_path: Path) -> None:
    """Through the CLI: ``addmass --bem`` and ``addmass --ellipsoid`` (which need the
    collision) exit 2 with one ``gzinertia: error:`` line naming the model file, the link, the
    collision and the mesh (``--ellipsoid`` skipped the link and exited 0 before issue 23, item
    13). No traceback, the file untouched."""
    laughs = LAUGHS
    (tmp_path / "bomb.dae").write_bytes(
        cube_dae(head=f'<!DOCTYPE COLLADA [<!ENTITY l0 "lol">{laughs}]>',
                 asset="<contributor>&l9;</contributor>"))
    model = _model(tmp_path, "model.sdf",
                   '<link name="l"><inertial><mass>1</mass></inertial><collision name="c">'
                   "<geometry><mesh><uri>bomb.dae</uri></mesh></geometry></collision></link>")
    before = model.read_bytes()
    proc = run_cli_limited(["addmass", str(model), "--bem", "--in-place"])
    assert proc.returncode == 2, (proc.stdout, proc.stderr[-2000:])
    errors = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1 and errors[0].startswith("gzinertia: error:"), proc.stderr
    assert (f"model.sdf:4: link 'm::l', collision 'c': mesh {str(tmp_path / 'bomb.dae')!r}"
            in errors[0]), errors
    assert "refusing a <!DOCTYPE>" in errors[0], errors
    proc = run_cli_limited(["addmass", str(model), "--ellipsoid", "--in-place"])
    errors = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2 and len(errors) == 1, proc.stderr
    assert errors[0].startswith("gzinertia: error:") and "link 'm::l'" in errors[0], errors
    assert "bomb.dae" in errors[0] and "refusing a <!DOCTYPE>" in errors[0], errors
    assert "Traceback" not in proc.stderr
    assert model.read_bytes() == before


def test_the_bem_geometry_digest_reads_meshes_only_as_regular_files(
    tmp_path: Path, fifo: Path, deadline: None
) -> None:
    """The BEM provenance digest (written by ``addmass --bem``, recomputed by the audit) reads a
    mesh through safe_read: a FIFO named as a mesh is not opened (it would block), it digests
    as unreadable; a regular mesh's bytes change the digest."""
    from gzinertia.physics.surface_mesh import geometry_digest
    from gzinertia.records import Collision, Geometry, SourceRef
    from gzinertia.spatial.rotation import Pose

    def digest(path: Path) -> str:
        geometry = Geometry("mesh", mesh_path=str(path))
        return geometry_digest([Collision("c", Pose(), geometry, SourceRef("m.sdf", 1))])

    mesh = tmp_path / "cube.dae"
    mesh.write_bytes(cube_dae())
    first = digest(mesh)
    mesh.write_bytes(cube_dae(asset="<contributor>x</contributor>"))
    assert digest(mesh) != first
    assert digest(fifo) == digest(tmp_path / "missing.dae")
