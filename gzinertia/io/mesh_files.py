"""Reading a mesh file a model names, within caps: no archives, no decompression, no other file.

* Formats by suffix: STL, OBJ, PLY, OFF, GLB, glTF and DAE (what Gazebo reads and trimesh
  parses). Compressed files and archives (``.bz2``, ``.gz``, ``.xz``, ``.zip``, ``.tar.*``,
  ``.3mf``, ``.3dxml``, and any file whose first bytes are a gzip, bzip2, xz, zstd, 7-Zip or ZIP
  signature whatever its name) are refused: trimesh would decompress them without limit.
* The file is read through :func:`gzinertia.io.safe_read.read_regular_file` (a regular file, at
  most :attr:`~gzinertia.io.limits.MeshLimits.max_bytes`, checked before reading) and handed to
  trimesh as bytes, so trimesh opens no file itself. The files a mesh names for its geometry
  (a glTF's external ``.bin`` buffers) are read the same way, only from the mesh's folder and
  below; materials and textures are skipped (they do not change the geometry; an image could
  be a decompression bomb). (Gazebo's mesh volume reads an OBJ's ``mtllib`` names the same
  way: :mod:`gzinertia.io.mesh_submeshes`.)
* COLLADA is read by :mod:`gzinertia.io.mesh_collada` as gz-common's ``ColladaLoader`` reads it
  (``<unit>`` applied, ``<up_axis>`` ignored, node transforms composed as gz-common composes
  them, double precision), not by trimesh (whose pycollada reads coordinates in single
  precision and reads the images a file names).
* Vertices and triangles are capped (:class:`~gzinertia.io.limits.MeshLimits`): from the header
  where the format declares the counts (binary STL, PLY, OFF) or by counting lines (ASCII STL,
  OBJ) before trimesh parses anything, and again after loading.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gzinertia.errors import GzInertiaError
from gzinertia.io.limits import ENV_MAX_MESH_FACES, ENV_MAX_MESH_VERTICES, MeshLimits
from gzinertia.io.mesh_text import TEXT_FORMATS, MeshTextError, prepared_text_mesh
from gzinertia.io.safe_read import RefusedFileError, read_regular_file

__all__ = [
    "ARCHIVE_SUFFIXES",
    "GIT_LFS_POINTER",
    "MESH_FORMATS",
    "MeshFileError",
    "check_counts",
    "mesh_file_type",
    "read_mesh_bytes",
]

#: Suffix (lower case) → trimesh file type.
MESH_FORMATS = {
    ".stl": "stl",
    ".obj": "obj",
    ".ply": "ply",
    ".off": "off",
    ".glb": "glb",
    ".gltf": "gltf",
    ".dae": "dae",
}
ARCHIVE_SUFFIXES = (
    ".bz2", ".gz", ".xz", ".zst", ".lzma", ".zip", ".tar", ".tgz", ".7z", ".3mf", ".3dxml", ".zae",
)
_SIGNATURES = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
    (b"PK\x03\x04", "ZIP"),
    (b"PK\x05\x06", "ZIP"),
)
#: The first bytes of a git-lfs pointer file (what a checkout without git-lfs holds in place of
#: a file stored in LFS: ``version https://git-lfs.github.com/spec/v1``, ``oid``, ``size``).
GIT_LFS_POINTER = b"version https://git-lfs.github.com/spec/"
_PLY_ELEMENT = re.compile(rb"^element\s+(vertex|face)\s+(\d+)\s*$", re.MULTILINE)


class MeshFileError(GzInertiaError):
    """A mesh file that is not read (refused format, too large, too many vertices or faces)."""


def mesh_file_type(path: str) -> str:
    """The trimesh file type of ``path`` by its suffix; :class:`MeshFileError` for archives,
    compressed files and formats that are not read."""
    name = PurePath(path).name.lower()
    for suffix in ARCHIVE_SUFFIXES:
        if name.endswith(suffix):
            raise MeshFileError(
                f"mesh {path!r} is a compressed file or an archive ({suffix}): not read "
                "(decompress it and name the mesh itself)"
            )
    suffix = PurePath(name).suffix
    if suffix not in MESH_FORMATS:
        known = ", ".join(s.lstrip(".").upper() for s in MESH_FORMATS)
        raise MeshFileError(f"mesh {path!r}: format {suffix or '(no suffix)'!r} is not read "
                            f"(read: {known})")
    return MESH_FORMATS[suffix]


def _declared_counts(data: bytes, file_type: str) -> tuple[int, int]:
    """(vertices, triangles) the file declares or its lines count, before parsing; 0 where
    the format does not say (checked after loading instead)."""
    if file_type == "stl":
        if len(data) >= 84:
            faces = int.from_bytes(data[80:84], "little")
            if 84 + 50 * faces == len(data):  # binary STL: 50 bytes a triangle (the
                return 0, faces  # vertices, shared between triangles, are counted later)
        return 0, data.count(b"endfacet")
    if file_type == "obj":
        vertices = data.count(b"\nv ") + data.startswith(b"v ")
        faces = data.count(b"\nf ") + data.startswith(b"f ")
        return vertices, faces
    if file_type == "ply":
        header = data[: data.find(b"end_header")] if b"end_header" in data else b""
        counts = {kind: int(n) for kind, n in _PLY_ELEMENT.findall(header)}
        return counts.get(b"vertex", 0), counts.get(b"face", 0)
    if file_type == "off":
        words = data[:4096].split()
        if words and words[0].upper().endswith(b"OFF") and len(words) >= 3:
            try:
                return int(words[1]), int(words[2])
            except ValueError:
                return 0, 0
    return 0, 0


def check_counts(path: str, vertices: int, faces: int, limits: MeshLimits, when: str) -> None:
    """Refuses (:class:`MeshFileError`) a mesh ``path`` that ``when`` (``"declares"``, ``"has"``)
    more ``vertices`` or triangles (``faces``) than ``limits`` allow."""
    if vertices > limits.max_vertices:
        raise MeshFileError(
            f"mesh {path!r} {when} {vertices} vertices, more than the {limits.max_vertices} "
            f"read (raise {ENV_MAX_MESH_VERTICES} to read it)"
        )
    if faces > limits.max_faces:
        raise MeshFileError(
            f"mesh {path!r} {when} {faces} triangles, more than the {limits.max_faces} read "
            f"(raise {ENV_MAX_MESH_FACES} to read it)"
        )


def read_mesh_bytes(path: str, limits: MeshLimits) -> tuple[bytes, str]:
    """``(bytes, trimesh file type)`` of the mesh file ``path``, checked as
    :func:`load_mesh_file` checks it before parsing (format, size, compression, text numbers,
    declared counts); the bytes of a text mesh as trimesh is handed them. Raises
    :class:`MeshFileError`."""
    file_type = mesh_file_type(path)
    try:
        data = read_regular_file(path, limits.max_bytes)
    except RefusedFileError as exc:
        raise MeshFileError(f"mesh {path!r} {exc}") from None
    except OSError as exc:
        raise MeshFileError(f"mesh {path!r} cannot be read: {exc.strerror or exc}") from None
    if data.startswith(GIT_LFS_POINTER):
        raise MeshFileError(
            f"mesh {path!r} is missing: git-lfs pointer ({len(data)} bytes of text in the "
            "mesh's place: the checkout has no git-lfs; `git lfs pull` fetches the mesh)"
        )
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            raise MeshFileError(
                f"mesh {path!r} is {kind}-compressed or archived data: not read "
                "(decompress it and name the mesh itself)"
            )
    if file_type in TEXT_FORMATS:
        try:
            data = prepared_text_mesh(data, file_type, path)
        except MeshTextError as exc:
            raise MeshFileError(str(exc)) from None
    check_counts(path, *_declared_counts(data, file_type), limits, "declares")
    return data, file_type
