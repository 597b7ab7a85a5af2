"""The mesh formats trimesh parses from text (ASCII STL, OBJ, PLY, OFF), checked before trimesh
sees the bytes: STL's kind decided by its size, numbers read as gz-common reads them.

* **Binary or ASCII STL.** A binary STL is an 80-byte header, a triangle count and 50 bytes a
  triangle: it is read as binary when its size is exactly that (as trimesh and gz-common read
  it), as ASCII when it is text that opens with ``solid``. Anything else is a binary STL whose
  count lies (more triangles than the file holds, fewer, none with data): one line naming the
  file, the count and the size. trimesh, finding no binary STL, decoded such bytes as text and
  reported whatever its text decoder raised (``No module named 'charset_normalizer'``).
* **Text.** A text mesh that is not UTF-8 (a Latin-1 name or comment) is handed to trimesh as
  UTF-8 (its numbers are ASCII and keep their bytes), for the same reason.
* **Numbers.** trimesh reads them with NumPy or Python's ``float()``/``int()``, which take
  ``1_000`` as 1000 and ``１`` as 1 (OFF silently, the others with an error that names no
  word); gz-common and assimp read them with ``strtod``/``sscanf``/``strtol``, which stop at the
  ``_``. A word in a number's place is read only when ``strtod`` reads all of it
  (:data:`gzinertia.numbers.GZ_COMMON`; counts and indices: ASCII digits): otherwise one line
  names the file, the line and the word; so does a value that is not finite or beyond 1e100
  (trimesh reads ``inf`` and then drops the triangles it touches). Files that are ASCII without
  ``_``, ``inf`` or ``nan`` are checked only when trimesh refuses them (NumPy's and Python's
  readers then agree with ``strtod``), to name the word; their coordinates beyond 1e100 are
  refused once loaded (:func:`gzinertia.io.mesh_trimesh.load_mesh_file`). A binary STL's vertices
  must be finite.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from gzinertia.numbers import GZ_COMMON, NumberError, read_integer, read_number

__all__ = ["TEXT_FORMATS", "MeshTextError", "bad_number", "prepared_text_mesh"]

#: trimesh file types that may hold text numbers.
TEXT_FORMATS = ("stl", "obj", "ply", "off")
_STL_HEADER = 84
_STL_TRIANGLE = 50
#: Bytes that are in no text (ASCII control characters other than white space).
_BINARY = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")


class MeshTextError(ValueError):
    """A text mesh (or STL) that is not read; the message names the file (and line)."""


def _non_finite(text: bytes) -> bool:
    """Whether ASCII ``text`` may spell ``inf`` or ``nan`` (trimesh reads them, then drops the
    triangles they touch without a word; a finite value beyond 1e100 is refused after
    loading)."""
    lower = text.lower()
    return b"inf" in lower or b"nan" in lower


def _is_ascii_stl(data: bytes) -> bool:
    return data.lstrip()[:5].lower() == b"solid" and _BINARY.search(data) is None


def _stl_kind(data: bytes, path: str) -> str:
    """``"binary"`` or ``"ascii"``; :class:`MeshTextError` for a binary STL whose count lies."""
    if len(data) >= _STL_HEADER:
        count = int.from_bytes(data[80:84], "little")
        if _STL_HEADER + _STL_TRIANGLE * count == len(data):
            return "binary"
    if _is_ascii_stl(data):
        return "ascii"
    if len(data) < _STL_HEADER:
        raise MeshTextError(f"mesh {path!r}: {len(data)} bytes, shorter than a binary STL's "
                            f"{_STL_HEADER}-byte header, and not ASCII STL text")
    expected = _STL_HEADER + _STL_TRIANGLE * count
    how = "more than" if expected > len(data) else "fewer than"
    raise MeshTextError(
        f"mesh {path!r}: a binary STL that declares {count} triangles ({expected} bytes, "
        f"{how} its {len(data)} bytes), and not ASCII STL text: its header lies"
    )


def _check_binary_stl(data: bytes, path: str) -> None:
    """Every vertex of a binary STL finite (trimesh drops the triangles of a NaN or an
    infinity without a word)."""
    triangles = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", 9),
                                                     ("a", "<u2")]), offset=_STL_HEADER)
    finite = np.isfinite(triangles["v"]).all(axis=1)
    if not finite.all():
        first = int(np.argmin(finite))
        raise MeshTextError(f"mesh {path!r}: triangle {first + 1} of the binary STL has a "
                            "vertex coordinate that is not finite")


def _text_part(data: bytes, file_type: str) -> tuple[bytes, bytes]:
    """``(text, rest)``: the bytes read as text and the binary rest (a binary PLY's body)."""
    if file_type == "ply":
        end = data.find(b"end_header")
        if end >= 0 and b"format ascii" not in data[:end]:
            cut = data.find(b"\n", end)
            cut = len(data) if cut < 0 else cut + 1
            return data[:cut], data[cut:]
    return data, b""


def prepared_text_mesh(data: bytes, file_type: str, path: str) -> bytes:
    """The bytes to hand trimesh for a mesh of ``file_type`` (one of :data:`TEXT_FORMATS`):
    a lying binary STL refused, text that is not UTF-8 made UTF-8, and, when the text is not
    plain ASCII without ``_``, every number checked (:func:`bad_number`)."""
    if file_type == "stl" and _stl_kind(data, path) == "binary":
        _check_binary_stl(data, path)
        return data
    text_bytes, rest = _text_part(data, file_type)
    if text_bytes.isascii() and b"_" not in text_bytes and not _non_finite(text_bytes):
        return data
    try:
        text = text_bytes.decode("utf-8")
    except UnicodeDecodeError:
        text = text_bytes.decode("latin-1")
        text_bytes = text.encode("utf-8")
    found = bad_number(text, file_type, path)
    if found is not None:
        raise MeshTextError(found)
    return text_bytes + rest


def bad_number(text: str, file_type: str, path: str) -> str | None:
    """The one-line error for the first word of ``text`` in a number's place that gz-common
    would not read whole, or ``None``."""
    for line, word, integer in _numeric_words(text, file_type):
        try:
            if integer:
                read_integer(word)
            else:
                read_number(word, GZ_COMMON)
        except NumberError as exc:
            kind = "a count or index" if integer else "value"
            return f"mesh {path!r}, line {line}: {kind} {exc}"
    return None


def _numeric_words(text: str, file_type: str) -> Iterator[tuple[int, str, bool]]:
    """``(line, word, is an integer)`` for each word in a number's place."""
    lines = text.split("\n")
    if file_type == "off":
        yield from _off_words(lines)
        return
    in_header = file_type == "ply"
    ascii_body = False
    for number, line in enumerate(lines, start=1):
        words = line.split()
        if not words:
            continue
        key = words[0].lower()
        if in_header:
            if key == "format":
                ascii_body = words[1:2] == ["ascii"]
            elif key == "element" and len(words) >= 3:
                yield number, words[2], True
            elif key == "end_header":
                in_header = False
                if not ascii_body:
                    return
        elif file_type == "ply":
            for word in words:
                yield number, word, False
        elif file_type == "stl":
            if key == "vertex":
                for word in words[1:]:
                    yield number, word, False
            elif key == "facet":
                for word in words[2:] if words[1:2] == ["normal"] else words[1:]:
                    yield number, word, False
        elif key in ("v", "vn", "vt", "vp"):
            for word in words[1:]:
                yield number, word, False
        elif key in ("f", "l", "p"):
            for word in words[1:]:
                for part in word.split("/"):
                    if part:
                        yield number, part, True


def _off_words(lines: list[str]) -> Iterator[tuple[int, str, bool]]:
    """OFF: the keyword (``OFF``, ``COFF``...), a line of counts, then numbers; ``#``
    comments."""
    stage = 0  # 0: the keyword to come, 1: the counts, 2: the data
    for number, line in enumerate(lines, start=1):
        words = line.split("#", 1)[0].split()
        if stage == 0 and words:
            stage, words = 1, words[1:]
        if words:
            for word in words:
                yield number, word, stage == 1
            stage = 2 if stage == 1 else stage
