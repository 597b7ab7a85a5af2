"""Numbers in every format gzinertia reads, NetCDF sized before it is read, and lying mesh
headers (issue 23, items 8, 9 and the result-file and mesh parts of 12).

8. One number parser (:mod:`gzinertia.numbers`) for every format: a word is a number only when
   the format's reference reader reads all of it, as the same value. Oracles: C's ``strtod``
   through ``ctypes`` (libsdformat's ``std::stod``, gz-common's COLLADA loader, the C/C++ mesh
   loaders), and a Fortran list-directed ``READ`` compiled with gfortran (how OpenFAST's HydroDyn
   reads a WAMIT ``.1`` file; skipped without gfortran).
9. A Capytaine NetCDF dataset is read variable by variable: only those the import needs, sized
   before a byte of them is copied (a 1.1 MB file whose 800 or 2,500 variables share one block
   of data took 1.7 and 5.2 GB).
12. A WAMIT value that is not a finite number, an option out of range, and a binary STL whose
   triangle count lies are each one line naming the file (and line) or the option.

Hostile cases run in a child process under the time and memory limits of
``tests/test_hostile_files.py`` (``run_limited``, ``run_cli_limited``).
"""

from __future__ import annotations

import ctypes
import math
import re
import struct
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from test_hostile_files import SPELLINGS, cube_dae, run_cli_limited, run_limited

from gzinertia.sdf import read_sdf_file

# ---- the oracle: C's strtod --------------------------------------------------------------------
_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.strtod.restype = ctypes.c_double
_LIBC.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
_ERANGE = 34


def strtod(word: str) -> tuple[float, bool, bool]:
    """``(value, whole, erange)``: what C's ``strtod`` reads from ``word``, whether it read all
    of it, and whether it set ``ERANGE``."""
    raw = word.encode("utf-8")
    buf = ctypes.create_string_buffer(raw)
    end = ctypes.c_char_p()
    ctypes.set_errno(0)
    value = _LIBC.strtod(buf, ctypes.byref(end))
    erange = ctypes.get_errno() == _ERANGE
    consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)  # type: ignore[operator]
    return value, bool(raw) and consumed == len(raw), erange


_LIBC.strtoul.restype = ctypes.c_ulong
_LIBC.strtoul.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int]


def strtoul_reads_all(word: str) -> bool:
    """Whether C's ``strtoul`` (base 10: gz-common's ``<p>`` and ``<vcount>``) reads all of
    ``word``."""
    raw = word.encode("utf-8")
    buf = ctypes.create_string_buffer(raw)
    end = ctypes.c_char_p()
    _LIBC.strtoul(buf, ctypes.byref(end), 10)
    consumed = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)  # type: ignore[operator]
    return bool(raw) and consumed == len(raw)


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


# ---- 8. the parser -----------------------------------------------------------------------------
_MORE_WORDS = ("1e200", "-1e101", "1e100", "0x1p-1074", "1.0e-320", "1.0D+03", "1.0+03", "12",
               "1e-400", "-0x1.8p1", "0.5e-310")


def test_read_number_is_strtod_of_the_whole_word() -> None:
    """For every syntax that follows ``strtod`` (libsdformat's, gz-common's, the command
    line's): a word is read exactly when ``strtod`` reads all of it (hexadecimal only where the
    reader reads it), as the same value to the bit, finite and within ±1e100, an underflow only
    where the reader keeps it; anything else is an error naming the word."""
    from gzinertia.numbers import (
        DBL_MIN,
        DECIMAL,
        GZ_COMMON,
        LIBSDFORMAT,
        MAX_MAGNITUDE,
        NumberError,
        read_number,
    )

    accepted = 0
    for syntax in (LIBSDFORMAT, GZ_COMMON, DECIMAL):
        for spelled in (*SPELLINGS, *_MORE_WORDS):
            word = spelled.strip(" \t\n\r")
            value, whole, erange = strtod(word)
            hexadecimal = re.match(r"[+-]?0[xX]", word) is not None
            underflow = erange and abs(value) < DBL_MIN
            expected = (whole and (syntax.hexadecimal or not hexadecimal)
                        and math.isfinite(value) and abs(value) <= MAX_MAGNITUDE
                        and (syntax.underflow or not underflow))
            try:
                ours = read_number(word, syntax)
            except NumberError as exc:
                assert not expected, (syntax.reader, word, str(exc))
                assert repr(word) in str(exc)
                continue
            assert expected, (syntax.reader, word, ours)
            assert _bits(ours) == _bits(value), (syntax.reader, word, ours, value)
            accepted += 1
    assert accepted >= 60  # not vacuous


#: Spellings of the A field of a WAMIT line (and of I): Fortran's own exponents, C's, words.
FORTRAN_WORDS = (
    "1", "1.", ".5", "-0", "+2.5", "1e5", "1E5", "1.0E+03", "1.0D+03", "1.0d3", "1.0+03",
    "1.0-03", "2.2250738585072014e-308", "4.9e-324", "1e-400", "1e200", "1e999", "inf",
    "nan", "Infinity", "1_000", "１２", "١٢", "1abc", "1e", "1e+", "1.5.2", "0x10", "--1",
    "e5", ".", "+", "1.0q3",
)
#: What gfortran reads and gzinertia refuses on purpose: a ``Q`` exponent (a gfortran
#: extension, not Fortran's F editing).
FORTRAN_EXTENSIONS = ("1.0q3",)


def test_wamit_numbers_are_read_as_a_fortran_list_directed_read() -> None:
    """The ``.1`` file's readers (OpenFAST's HydroDyn) read it with Fortran's list-directed
    ``READ``: gzinertia reads a word exactly when gfortran does, as the same value (a ``D``
    exponent too), refuses what it refuses (``1_000``, ``１２``, ``1abc``), and refuses non-finite
    values and magnitudes beyond 1e100, which gfortran reads; integers (``I``, ``J``) the same
    way."""
    from oracles.fortran_oracle import read_with_fortran

    from gzinertia.numbers import FORTRAN, MAX_MAGNITUDE, NumberError, read_integer, read_number

    theirs = read_with_fortran([f"0 1 1 {w}" for w in FORTRAN_WORDS])
    if theirs is None:
        pytest.skip("needs gfortran (the Fortran list-directed READ oracle)")
    read = 0
    for word, their in zip(FORTRAN_WORDS, theirs, strict=True):
        try:
            ours: float | None = read_number(word, FORTRAN)
        except NumberError as exc:
            assert repr(word) in str(exc)
            ours = None
        refused = their is None or word in FORTRAN_EXTENSIONS
        if refused or not (math.isfinite(their[3]) and abs(their[3]) <= MAX_MAGNITUDE):
            assert ours is None, (word, ours)
        else:
            assert ours is not None and _bits(ours) == _bits(their[3]), (word, ours, their)
            read += 1
    assert read >= 12
    integers = ("1", "+1", "-3", "01", "1_0", "１", "1.0", "1e0", "0x1", "1a")
    theirs = read_with_fortran([f"0 {w} 1 1" for w in integers])
    assert theirs is not None
    for word, their in zip(integers, theirs, strict=True):
        try:
            ours_i: int | None = read_integer(word)
        except NumberError:
            ours_i = None
        assert ours_i == (None if their is None else their[1]), (word, ours_i, their)


# ---- 8. COLLADA: what gz-common reads ----------------------------------------------------------
_VOLUME_PROGRAM = (
    "import sys\nfrom gzinertia.physics.shapes import ShapeError, mesh_solid\n"
    "for path in sys.argv[1:]:\n"
    "    try:\n        print('volume', repr(mesh_solid(path).volume))\n"
    "    except ShapeError as exc:\n        print(exc)\n"
)


def _volumes(paths: Sequence[Path], env: dict[str, str] | None = None) -> list[str]:
    """Each mesh's volume (``volume <v>``) or its one-line error, read in a limited child."""
    proc = run_limited(_VOLUME_PROGRAM, *map(str, paths), env=env)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == len(paths), (proc.stdout, proc.stderr[-2000:])
    return lines


def _read_cases(tmp: Path, cases: dict[str, tuple[bytes, int | None]], suffix: str
                ) -> Iterator[tuple[str, int | None, Path, str]]:
    """Each case's bytes as a mesh file, read in one limited child: ``(name, its line, path,
    volume or error)``."""
    paths = []
    for i, (data, _) in enumerate(cases.values()):
        paths.append(tmp / f"case{i}.{suffix}")
        paths[-1].write_bytes(data)
    for (name, (_, line)), path, read in zip(cases.items(), paths, _volumes(paths), strict=True):
        yield name, line, path, read


def _gz_common_reads(word: str) -> float | None:
    """What gzinertia may read for a word of a mesh: ``strtod``'s value when it reads all of a
    decimal word and the value is finite (gz-common's ``strtod``/``std::stod``; its node
    transforms, read with C++ streams, take no hexadecimal, so gzinertia takes none), else
    nothing."""
    value, whole, _ = strtod(word)
    if not whole or re.match(r"[+-]?0[xX]", word) or not math.isfinite(value):
        return None
    return value


def test_collada_unit_is_read_as_gz_common_reads_it(tmp_path: Path) -> None:
    """``<unit meter>`` (gz-math's ``parseFloat``: ``std::stod``): a word ``strtod`` reads
    whole scales the unit cube to that value cubed; ``1_000`` (which Python read as 1000 and
    gz-common as 1: a 10⁹ too large added mass), full-width digits and trailing garbage are one
    line naming the file, line 3 and the word."""
    meters = ("1", "0.001", "1e-3", "2.5", "+2", "1_000", "１", "1abc", "1e", "0x1p-10", "1,5")
    paths = []
    for i, meter in enumerate(meters):
        path = tmp_path / f"unit{i}.dae"
        path.write_bytes(cube_dae().replace(b'meter="1"', f'meter="{meter}"'.encode()))
        paths.append(path)
    read = 0
    for meter, path, line in zip(meters, paths, _volumes(paths), strict=True):
        value = _gz_common_reads(meter)
        if value is not None and value > 0:
            assert line.startswith("volume"), (meter, line)
            assert float(line.split()[1]) == pytest.approx(value**3, rel=1e-12), (meter, line)
            read += 1
        else:
            assert f"mesh {str(path)!r}, line 3:" in line and repr(meter) in line, (meter, line)
    assert read == 5


def test_collada_numbers_refuse_words_gz_common_reads_otherwise(tmp_path: Path) -> None:
    """A word in a ``<float_array>``, ``<p>``, node transform or count that ``strtod`` (or
    ``strtoul``) does not read whole is one line naming the file, its line and the word; the
    spellings it reads whole give the unit cube."""
    cube = cube_dae()
    first_one = b'count="24">0 0 0 1 '
    node = b'<node name="cube">'
    cases: dict[str, tuple[bytes, int | None]] = {}
    for word in ("1.0", "1e0", "+1", "10e-1", "1_000", "１", "1abc", "0x1p0", "1e", "nan"):
        cases[f"array {word}"] = (cube.replace(first_one, b'count="24">0 0 0 ' + word.encode()
                                               + b" "), 5)
    for word in ("0_0", "٠", "0.0", "+0", "00"):
        cases[f"index {word}"] = (cube.replace(b"<p>0 2 1", b"<p>" + word.encode() + b" 2 1"), 9)
    for element, text in (("translate", "1_000 0 0"), ("scale", "1 １ 1"),
                          ("rotate", "0 0 1 9_0"), ("matrix", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1x")):
        cases[element] = (cube.replace(node, node + f"<{element}>{text}</{element}>".encode()),
                          11)
    for attribute, old, new in (("count", 'count="24"', 'count="2_4"'),
                                ("stride", 'stride="3"', 'stride="３"'),
                                ("offset", 'offset="0"', 'offset="0_0"')):
        cases[attribute] = (cube.replace(old.encode(), new.encode()), None)
    for name, line_number, path, line in _read_cases(tmp_path, cases, "dae"):
        word = name.split(" ", 1)[1] if " " in name else None
        reads = strtoul_reads_all if name.startswith("index") else _gz_common_reads
        if word is not None and reads(word) not in (None, False):
            assert line == "volume 1.0", (name, line)
            continue
        assert line.startswith(f"mesh {str(path)!r}"), (name, line)
        assert "not" in line and "volume" not in line, (name, line)
        if line_number is not None:
            assert f", line {line_number}:" in line, (name, line)
        if word is not None:
            assert repr(word) in line, (name, line)


# ---- 8 and 12. WAMIT .1 files and the options of addmass --from --------------------------------
BOAT = ('<?xml version="1.0"?>\n<sdf version="1.10">\n<model name="boat">\n'
        '<link name="hull"><inertial><mass>1000</mass></inertial></link>\n</model>\n</sdf>\n')
#: A symmetric positive definite nondimensional added mass, exactly written in 10 digits.
ABAR = np.diag([2.0, 3.0, 4.0, 0.5, 0.75, 1.0]) + 0.125 * (np.ones((6, 6)) - np.eye(6))


def _wamit_lines(exponent: str = "E") -> list[str]:
    """A ``.1`` file as WAMIT writes it (``PER I J Abar``, E format): the zero-frequency
    (PER -1) and infinite-frequency (PER 0) limits."""
    lines = []
    for per in (-1.0, 0.0):
        for i in range(6):
            for j in range(6):
                lines.append(f" {per: .6E} {i + 1:5d} {j + 1:5d}  {ABAR[i, j]: .6E}")
    return [line.replace("E", exponent) for line in lines]


def _addmass_from(tmp: Path, result: Path, *options: str) -> tuple[int, list[str], bytes]:
    """``addmass boat.sdf --from result --link hull ...`` in a limited child: exit status,
    the lines of standard error, the model's bytes after (``--in-place``)."""
    boat = tmp / "boat.sdf"
    boat.write_text(BOAT, encoding="utf-8")
    proc = run_cli_limited(["addmass", str(boat), "--from", str(result), "--link", "hull",
                            "--in-place", *options])
    return proc.returncode, [ln for ln in proc.stderr.splitlines() if ln.strip()], boat.read_bytes()


def _imported(tmp: Path, result: Path, *options: str) -> np.ndarray:
    """The ``A_BBo_B`` (linear-first) ``addmass --from result`` writes, read back."""
    code, errors, after = _addmass_from(tmp, result, *options)
    assert code == 0, errors
    (tmp / "out.sdf").write_bytes(after)
    A = read_sdf_file(tmp / "out.sdf").links[0].inertial.A_BBo_B
    assert A is not None
    return A.linear_first()


def _one_error(code: int, errors: list[str], after: bytes) -> str:
    assert code == 2 and len(errors) == 1, (code, errors)
    assert errors[0].startswith("gzinertia: error:") and "internal error" not in errors[0], errors
    assert after == BOAT.encode()
    return errors[0]


_WAMIT_OPTIONS = ("--about", "0,0,0", "--density", "1000", "--frequency", "zero")


@pytest.mark.parametrize(("word", "field"), [
    ("inf", 3), ("nan", 3), ("1e999", 3), ("-1e200", 3), ("1_000", 3), ("１２", 3),
    ("1.0E+00x", 3), ("1_0", 1), ("nan", 0),
])
def test_a_wamit_value_that_is_not_a_number_is_one_line_naming_the_file_and_line(
    tmp_path: Path, word: str, field: int
) -> None:
    lines = _wamit_lines()
    k = 8  # line 8: PER -1, I 2, J 2
    fields = lines[k - 1].split()
    fields[field] = word
    lines[k - 1] = "  ".join(fields)
    wamit = tmp_path / "hull.1"
    wamit.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    error = _one_error(*_addmass_from(tmp_path, wamit, *_WAMIT_OPTIONS))
    assert f"{wamit}:{k}:" in error and repr(word) in error, error
    assert "boat.sdf" not in error, error


def test_a_wamit_file_with_fortran_d_exponents_reads_as_its_e_twin(tmp_path: Path) -> None:
    """``1.0D+00`` is Fortran's spelling of ``1.0E+00`` (WAMIT's readers take it): the import
    is the same, entry for entry, and equals ρ·Abar at PER = -1."""
    written = []
    for exponent in ("E", "D"):
        wamit = tmp_path / f"hull_{exponent}.1"
        wamit.write_text("\n".join(_wamit_lines(exponent)) + "\n", encoding="ascii")
        written.append(_imported(tmp_path, wamit, *_WAMIT_OPTIONS))
    assert np.array_equal(written[0], written[1])
    assert np.allclose(written[0], 1000.0 * ABAR, rtol=1e-9, atol=0)


@pytest.mark.parametrize(("options", "named"), [
    (("--wamit-length", "1e100"), "--wamit-length"),
    (("--wamit-length", "1e30"), "--wamit-length"),
    (("--wamit-length", "1e-300"), "--wamit-length"),
    (("--wamit-length", "0"), "--wamit-length"),
    (("--wamit-length", "-2"), "--wamit-length"),
    (("--wamit-length", "nan"), "--wamit-length"),
    (("--wamit-length", "inf"), "--wamit-length"),
    (("--density", "1e300"), "--density"),
    (("--about", "1e200,0,0"), "--about"),
    (("--about", "1_0,0,0"), "--about"),
    (("--about", "1e60,0,0"), "--about"),
    (("--axes", "１,0,0"), "--axes"),
    (("--axes", "1e300,0,0"), "--axes"),
    (("--frequency", "1_5"), "--frequency"),
])
def test_import_options_out_of_range_are_one_line_naming_the_option(
    tmp_path: Path, options: tuple[str, str], named: str
) -> None:
    """Each numeric option of ``addmass --from`` out of range (or not a number as C reads
    it) is one line naming it, exit status 2, the model untouched; never "internal error"."""
    wamit = tmp_path / "hull.1"
    wamit.write_text("\n".join(_wamit_lines()) + "\n", encoding="ascii")
    defaults = dict(zip(_WAMIT_OPTIONS[::2], _WAMIT_OPTIONS[1::2], strict=True))
    defaults[options[0]] = options[1]
    args = [a for pair in defaults.items() for a in pair]
    error = _one_error(*_addmass_from(tmp_path, wamit, *args))
    assert named in error, error


# ---- 9. NetCDF: only what the import needs, sized first ----------------------------------------
_NC_CHAR, _NC_DOUBLE = 2, 6
_DOFS = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")


def _nc_name(name: str) -> bytes:
    raw = name.encode()
    return struct.pack(">i", len(raw)) + raw + b"\0" * (-len(raw) % 4)


def _nc_attributes(attributes: dict[str, str]) -> bytes:
    if not attributes:
        return struct.pack(">ii", 0, 0)
    out = struct.pack(">ii", 0x0C, len(attributes))
    for key, value in attributes.items():
        raw = value.encode()
        out += _nc_name(key) + struct.pack(">ii", _NC_CHAR, len(raw)) + raw + b"\0" * (-len(raw) % 4)
    return out


#: One variable: name, dimension names, ``"d"`` (double) or ``"c"`` (char), its bytes (or
#: ``None``: the shared block), attributes.
_Var = tuple[str, tuple[str, ...], str, "bytes | None", dict[str, str]]


def netcdf_classic(dims: Sequence[tuple[str, int]], variables: Sequence[_Var],
                   shared: bytes = b"", version: int = 2) -> bytes:
    """A NetCDF classic file written from the format's specification (CDF-1 or CDF-2); the
    variables whose bytes are ``None`` all point at one copy of ``shared``, which the format
    allows (each variable has its own ``begin``; nothing says they must differ)."""
    ids = {name: i for i, (name, _) in enumerate(dims)}
    head = b"CDF" + bytes([version]) + struct.pack(">i", 0)
    head += struct.pack(">ii", 0x0A, len(dims))
    head += b"".join(_nc_name(n) + struct.pack(">i", size) for n, size in dims)
    head += _nc_attributes({"capytaine_version": "3.0.0"})
    entries = []
    for name, dim_names, kind, data, attributes in variables:
        size = len(data if data is not None else shared)
        entries.append(_nc_name(name) + struct.pack(">i", len(dim_names))
                       + b"".join(struct.pack(">i", ids[d]) for d in dim_names)
                       + _nc_attributes(attributes)
                       + struct.pack(">ii", _NC_DOUBLE if kind == "d" else _NC_CHAR,
                                     size + (-size % 4)))
    offset_format = ">q" if version == 2 else ">i"
    begin = (len(head) + 8 + sum(len(e) + struct.calcsize(offset_format) for e in entries))
    body, offsets, shared_at = b"", [], None
    for _, _, _, data, _ in variables:
        if data is None:
            if shared_at is None:
                shared_at = begin + len(body)
                body += shared + b"\0" * (-len(shared) % 4)
            offsets.append(shared_at)
        else:
            offsets.append(begin + len(body))
            body += data + b"\0" * (-len(data) % 4)
    return (head + struct.pack(">ii", 0x0B, len(variables))
            + b"".join(e + struct.pack(offset_format, o) for e, o in zip(entries, offsets,
                                                                       strict=True))
            + body)


A_DATASET = np.diag([100.0, 200.0, 300.0, 10.0, 20.0, 30.0]) + 2.5 * (np.ones((6, 6)) - np.eye(6))


def capytaine_like(A: np.ndarray = A_DATASET, omegas: int = 1, shared: int = 0,
                   shared_values: int = 137_500) -> bytes:
    """The variables of a Capytaine dataset the import reads (dofs as characters, as xarray
    writes strings), at zero frequency about the origin; ``shared`` more variables of
    ``shared_values`` doubles (1.1 MB) all pointing at one block of data."""
    chars = "".join(d.ljust(5, "\0") for d in _DOFS).encode()
    dims: list[tuple[str, int]] = [("omega", omegas), ("influenced_dof", 6),
                                   ("radiating_dof", 6), ("string5", 5), ("space_coordinate", 3)]
    variables: list[_Var] = [
        ("added_mass", ("omega", "influenced_dof", "radiating_dof"), "d",
         np.asarray(A, ">f8").tobytes() if omegas == 1 else None, {}),
        ("omega", ("omega",), "d", np.array([0.0], ">f8").tobytes() if omegas == 1 else None, {}),
        ("influenced_dof", ("influenced_dof", "string5"), "c", chars, {"_Encoding": "utf-8"}),
        ("radiating_dof", ("radiating_dof", "string5"), "c", chars, {"_Encoding": "utf-8"}),
        ("rho", (), "d", np.array([1000.0], ">f8").tobytes(), {}),
        ("water_depth", (), "d", np.array([np.inf], ">f8").tobytes(), {}),
        ("rotation_center", ("space_coordinate",), "d", np.zeros(3, ">f8").tobytes(), {}),
    ]
    if shared:
        dims.append(("big", shared_values))
        variables += [(f"junk{i:05d}", ("big",), "d", None, {}) for i in range(shared)]
    return netcdf_classic(dims, variables, np.zeros(shared_values, ">f8").tobytes())


def test_the_netcdf_writer_is_read_by_xarray(tmp_path: Path) -> None:
    """The test's writer is right: xarray reads the dataset it writes as written."""
    xr = pytest.importorskip("xarray")
    path = tmp_path / "honest.nc"
    path.write_bytes(capytaine_like(shared=3, shared_values=10))
    with xr.open_dataset(path, engine="scipy") as ds:
        assert np.array_equal(ds["added_mass"].values[0], A_DATASET)
        assert [str(d) for d in ds["radiating_dof"].values] == list(_DOFS)
        assert ds["junk00002"].shape == (10,)


@pytest.mark.parametrize("shared", [800, 2500])
def test_a_netcdf_whose_variables_share_one_block_is_read_within_the_memory_limit(
    tmp_path: Path, shared: int
) -> None:
    """A 1.1 MB dataset whose other variables all point at one 1.1 MB block (1.7 GB and 5.2
    GB when each was copied): the import reads only the variables it needs and ends as the
    honest dataset's does, under the 1.5 GiB limit."""
    pytest.importorskip("xarray")
    imported = []
    for name, data in (("honest.nc", capytaine_like()),
                       ("shared.nc", capytaine_like(shared=shared))):
        path = tmp_path / name
        path.write_bytes(data)
        imported.append(_imported(tmp_path, path, "--about", "0,0,0"))
    assert np.array_equal(imported[0], imported[1])
    assert np.allclose(imported[0], A_DATASET, rtol=1e-9, atol=0)


def _spliced(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, old
    return data.replace(old, new)


def test_netcdf_variables_are_sized_before_they_are_read(tmp_path: Path) -> None:
    """What the import needs, declared larger than the budget (10⁸ frequencies: 29 GB), or
    beyond the end of the file, a header cut short, a CDF-5 file: one line naming the file."""
    pytest.importorskip("xarray")
    honest = capytaine_like()
    omega_dim = struct.pack(">iii", 0x0A, 5, 5) + b"omega\0\0\0" + struct.pack(">i", 1)
    cases = {
        "huge": (_spliced(honest, omega_dim, omega_dim[:-4] + struct.pack(">i", 10**8)),
                 "added_mass"),
        "beyond the end": (honest[:-40], "beyond the end of the file"),
        "cut header": (honest[:60], "ends"),
        "cdf5": (b"CDF\x05" + honest[4:], "CDF-5"),
    }
    for name, (data, expected) in cases.items():
        path = tmp_path / f"{name.replace(' ', '_')}.nc"
        path.write_bytes(data)
        error = _one_error(*_addmass_from(tmp_path, path, "--about", "0,0,0"))
        assert str(path) in error and expected in error, (name, error)


# ---- 12. a binary STL whose triangle count lies ------------------------------------------------
def _cube_stl() -> bytes:
    import trimesh

    data: bytes = trimesh.creation.box().export(file_type="stl")
    return data


def _lying(data: bytes, count: int) -> bytes:
    return data[:80] + struct.pack("<I", count) + data[84:]


def test_a_binary_stl_whose_count_lies_is_one_line_naming_it(tmp_path: Path) -> None:
    """Larger than the file, smaller than it, zero with data: one line naming the mesh, the
    count it declares and the bytes it has (trimesh, finding no binary STL, decoded the bytes
    as text and reported "No module named 'charset_normalizer'")."""
    data = _cube_stl()
    n = struct.unpack("<I", data[80:84])[0]
    paths = []
    for count in (n + 5, n - 5, 0, 2**32 - 1):
        paths.append(tmp_path / f"lie{count}.stl")
        paths[-1].write_bytes(_lying(data, count))
    paths.append(tmp_path / "short.stl")
    paths[-1].write_bytes(data[:60])
    paths.append(tmp_path / "nan.stl")  # an honest count, a NaN vertex: trimesh dropped it
    paths[-1].write_bytes(data[:84 + 12] + struct.pack("<f", math.nan) + data[84 + 16:])
    lines = _volumes(paths)
    for path, line in zip(paths, lines, strict=True):
        assert line.startswith(f"mesh {str(path)!r}"), line
        assert "binary STL" in line and "charset" not in line, line
    assert "triangle 1 of the binary STL has a vertex coordinate that is not finite" in lines[-1]
    for count, line in zip((n + 5, n - 5, 0), _volumes(paths[:3]), strict=True):
        assert f"declares {count} triangles" in line and f"{len(data)} bytes" in line, line


def test_binary_meshes_with_a_vertex_that_is_not_finite_are_one_line(tmp_path: Path) -> None:
    """A NaN or an infinity in a binary PLY or a GLB (no text to check): trimesh's processing
    dropped the triangles it touches and the mesh read as another one; now one line. The same
    sphere without it reads as trimesh reads it."""
    import trimesh

    sphere = trimesh.creation.icosphere(subdivisions=2)
    paths = []
    for kind in ("ply", "glb"):
        for bad in (None, math.nan, math.inf):
            vertices = sphere.vertices.copy()
            if bad is not None:
                vertices[5, 1] = bad
            mesh = trimesh.Trimesh(vertices, sphere.faces, process=False)
            paths.append(tmp_path / f"{kind}_{bad}.{kind}")
            paths[-1].write_bytes(mesh.export(file_type=kind))
    for path, line in zip(paths, _volumes(paths), strict=True):
        if "None" in path.name:
            assert line.startswith("volume"), line
            assert float(line.split()[1]) == pytest.approx(sphere.volume, rel=1e-6), line
        else:
            assert line == (f"mesh {str(path)!r} has a vertex coordinate that is not finite or "
                            "beyond 1e+100"), line


AUTO = ('<?xml version="1.0"?>\n<sdf version="1.11">\n<model name="m">\n<link name="l">\n'
        '<inertial auto="true"><density>1000</density></inertial>\n'
        '<collision name="c"><geometry><mesh><uri>{mesh}</uri></mesh></geometry></collision>\n'
        '</link>\n</model>\n</sdf>\n')
PLAIN = AUTO.replace('<inertial auto="true"><density>1000</density></inertial>',
                     "<inertial><mass>500</mass></inertial>")


@pytest.mark.parametrize(("command", "model", "status"), [
    (["show"], AUTO, 0),  # libsdformat's convention: the collision adds nothing, said on stderr
    (["audit", "--format", "text"], AUTO, 1),  # GZI111
    (["hydrostatics"], PLAIN, 0),  # Gazebo's volume of a mesh it cannot load: 0, said
    (["addmass", "--ellipsoid"], PLAIN, 2),  # an edit the input prevents (item 13): one line
    (["addmass", "--bem"], PLAIN, 2),
])
def test_every_command_names_a_lying_stl_and_what_is_wrong(
    tmp_path: Path, command: list[str], model: str, status: int
) -> None:
    """Wherever a command needs the mesh, the lying STL is reported as each command reports
    a mesh it cannot read, with the file and what is wrong; no ImportError text, no traceback."""
    data = _cube_stl()
    n = struct.unpack("<I", data[80:84])[0]
    (tmp_path / "hull.stl").write_bytes(_lying(data, n + 5))
    sdf = tmp_path / "m.sdf"
    sdf.write_text(model.format(mesh="hull.stl"), encoding="utf-8")
    # wide lines: a long temporary folder (an xdist worker's, a long user name) is not folded
    proc = run_cli_limited([*command, str(sdf)], env={"COLUMNS": "400"})
    output = " ".join((proc.stdout + proc.stderr).split())  # show wraps its lines
    assert proc.returncode == status, (proc.returncode, output)
    assert str(tmp_path / "hull.stl") in output, output
    assert f"declares {n + 5} triangles" in output, output
    assert "charset" not in output and "Traceback" not in output, output


# ---- 8. text meshes: numbers as gz-common reads them ------------------------------------------
def _cube_texts() -> dict[str, str]:
    """The cube of side 2 (volume 8) in each text format trimesh parses (trimesh's exports)."""
    import trimesh

    cube = trimesh.creation.box()
    exports = {
        "stl": trimesh.exchange.stl.export_stl_ascii(cube),
        "obj": cube.export(file_type="obj"),
        "ply": cube.export(file_type="ply", encoding="ascii"),
        "off": cube.export(file_type="off"),
    }
    texts = {}
    for kind, exported in exports.items():
        text = exported.decode() if isinstance(exported, bytes) else exported
        texts[kind] = re.sub(r"(-?)0\.50*(?![0-9])", r"\g<1>1", text)  # coordinates ±1
    return texts


def _spell_first_one(text: str, word: str) -> tuple[str, int]:
    """``text`` with its first coordinate ``1`` (a whole word) spelled ``word``, and the line."""
    match = re.search(r"(?<![\w.+-])1(?![\w.])", text)
    assert match is not None
    line = text.count("\n", 0, match.start()) + 1
    return text[: match.start()] + word + text[match.end():], line


@pytest.mark.parametrize("kind", ["stl", "obj", "ply", "off"])
def test_text_meshes_refuse_numbers_gz_common_reads_otherwise(tmp_path: Path, kind: str) -> None:
    """A vertex coordinate ``strtod`` does not read whole (``1_000``: Python's float reads
    1000, gz-common and assimp 1; full-width digits; trailing letters) is one line naming the
    mesh, its line and the word; spellings it reads whole read as the cube (volume 8, as trimesh
    reads the file); a Latin-1 comment or name does not matter."""
    text = _cube_texts()[kind]
    cases: dict[str, tuple[bytes, int | None]] = {}
    for word in ("1.0", "1e0", "+1", "1_000", "１", "1abc", "0x1", "inf", "NaN", "1e200"):
        spelled, line = _spell_first_one(text, word)
        cases[word] = (spelled.encode("utf-8"), line)
    latin = {"stl": ("solid ", "solid caf\xe9 "), "obj": ("\nv ", "\n# caf\xe9\nv "),
             "ply": ("\nelement vertex", "\ncomment caf\xe9\nelement vertex"),
             "off": ("OFF\n", "OFF\n# caf\xe9\n")}[kind]
    cases["latin-1"] = (text.replace(*latin, 1).encode("latin-1"), 0)
    for word, line_number, path, line in _read_cases(tmp_path, cases, kind):
        value = 1.0 if word == "latin-1" else _gz_common_reads(word)
        if value is not None and abs(value) <= 1e100:
            assert line.startswith("volume") and float(line.split()[1]) == pytest.approx(8.0), (
                word, line)
        elif value is not None:  # finite, beyond 1e100: refused once loaded (without a line)
            assert line.startswith(f"mesh {str(path)!r}"), line  # or before (an ASCII PLY
            assert "1e+100" in line, line  # header has an "_": every number was checked)
        else:
            assert line.startswith(f"mesh {str(path)!r}, line {line_number}:"), (word, line)
            assert repr(word) in line, (word, line)


@pytest.mark.parametrize(("kind", "old", "new"), [
    ("ply", "element vertex 8", "element vertex 8_0"),
    ("off", "\n8 12", "\n8_0 12"),
    ("off", "\n8 12", "\n８ 12"),
    ("obj", "\nf 1 ", "\nf 1_0 "),
    ("ply", "\n3 0 ", "\n3 ０ "),
])
def test_text_mesh_counts_and_indices_are_ascii_digits(
    tmp_path: Path, kind: str, old: str, new: str
) -> None:
    """Counts and indices (``int()`` would read ``8_0`` as 80 and ``８`` as 8; C's ``strtol``
    reads neither whole): one line naming the mesh and the word."""
    text = _cube_texts()[kind]
    assert old in text, (kind, old, text[:300])
    path = tmp_path / f"m.{kind}"
    path.write_bytes(text.replace(old, new, 1).encode("utf-8"))
    (line,) = _volumes([path])
    word = new.split()[-1] if kind != "off" else new.split()[0]
    assert line.startswith(f"mesh {str(path)!r}") and repr(word) in line, line


# ---- 8. other numbers read from files ----------------------------------------------------------
def test_numbered_fuel_model_folders_are_ascii_digits(tmp_path: Path) -> None:
    """A Fuel cache keeps a model's versions in numbered folders, the highest one read; ``²``
    is a digit to ``str.isdigit`` and no number to ``int()`` (the reader crashed): only ASCII
    digits count."""
    model = tmp_path / "fuel" / "fuel.gazebosim.org" / "openrobotics" / "models" / "thing"
    for version, mass in (("1", "3"), ("²", "7")):
        (model / version).mkdir(parents=True)
        (model / version / "model.config").write_text(
            "<?xml version='1.0'?><model><name>thing</name><sdf version='1.10'>model.sdf</sdf>"
            "</model>", encoding="utf-8")
        (model / version / "model.sdf").write_text(
            f"<?xml version='1.0'?><sdf version='1.10'><model name='thing'><link name='l'>"
            f"<inertial><mass>{mass}</mass></inertial></link></model></sdf>", encoding="utf-8")
    world = tmp_path / "world.sdf"
    world.write_text("<?xml version='1.0'?><sdf version='1.10'><world name='w'><include><uri>"
                     "https://fuel.gazebosim.org/1.0/OpenRobotics/models/thing</uri></include>"
                     "</world></sdf>", encoding="utf-8")
    proc = run_limited(
        "import sys\nfrom gzinertia.sdf import read_sdf_file\n"
        "print([l.inertial.mass for l in read_sdf_file(sys.argv[1]).links])",
        str(world), env={"GZ_FUEL_CACHE_PATH": str(tmp_path / "fuel")})
    assert proc.returncode == 0 and proc.stdout.strip() == "[3.0]", (proc.stdout, proc.stderr)


def test_versions_and_comments_read_only_ascii_digits(tmp_path: Path) -> None:
    """``<sdf version="1.1_0">`` is no version (``int()`` read it as 1.10, so ``addmass``
    wrote SDF 1.10's element under it); an ``addmass`` comment whose density is ``1_000`` is
    not gzinertia's (its number would be read as 1000, ``strtod`` reads 1)."""
    from gzinertia.physics.fit_provenance import PREFIX, parse_fit_provenance

    comment = PREFIX + "volume fit of the collisions, fluid density {} kg/m^3; about the link"
    assert parse_fit_provenance(comment.format("1000")) is not None
    for word in ("1_000", "１０００", "1000x"):
        assert _gz_common_reads(word) is None
        assert parse_fit_provenance(comment.format(word)) is None, word
    sdf = tmp_path / "v.sdf"
    sdf.write_text(BOAT.replace('version="1.10"', 'version="1.1_0"').replace(
        "<mass>1000</mass>", "<mass>1000</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
        "</inertia>"), encoding="utf-8")
    before = sdf.read_bytes()
    proc = run_cli_limited(["addmass", str(sdf), "--ellipsoid", "--semi-axes", "1,1,1",
                            "--in-place"])
    assert proc.returncode == 2 and "1.1_0" in proc.stderr, (proc.returncode, proc.stderr)
    assert sdf.read_bytes() == before
