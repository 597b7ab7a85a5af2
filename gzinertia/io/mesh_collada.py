"""COLLADA (``.dae``) geometry as Gazebo reads it: gz-common's ``ColladaLoader``, in metres.

gz-common (``graphics/src/ColladaLoader.cc``) builds the mesh that Gazebo's physics and its
Buoyancy system use; this module reproduces its geometry, from the bytes
:func:`gzinertia.io.mesh_trimesh.load_mesh_file` read (no other file is ever opened: images and
textures a COLLADA file names are not geometry and are never looked at):

* **Units**: every position is multiplied by ``<asset><unit meter="s">`` (default 1), as
  ``ColladaLoader::Load`` scales the whole mesh. ``<up_axis>`` is **ignored**, as Gazebo ignores
  it (a ``Y_UP`` file is read with its coordinates as written).
* **Scene**: the visual scene ``<scene><instance_visual_scene>`` names; each ``<node>`` composes
  its parent's transform with its own, which is gz-common's ``LoadNodeTransform``: the first
  ``<matrix>`` alone when there is one (row-major), else ``T·R1·R2···S`` from the first
  ``<translate>``, every ``<rotate>`` (degrees; the axis as written, not normalised) and the
  first ``<scale>`` (``<lookat>`` and ``<skew>`` ignored). Child nodes are read, then the first
  ``<instance_node>`` (and then nothing else of that node), else every ``<instance_geometry>``.
  A skinned mesh (``<instance_controller>``) is refused: gz-common builds it only with a
  complete skeleton and it is posed at run time, so no one static geometry is what Gazebo uses.
* **Triangles**: every ``<triangles>`` and ``<polylist>`` of a ``<mesh>`` (a polygon fanned from
  its first vertex); ``<polygons>``, ``<tristrips>``, ``<trifans>`` and ``<lines>`` add no
  triangle, as in Gazebo. An index tuple is as long as gz-common counts it (the distinct
  offsets of the VERTEX, NORMAL and TEXCOORD inputs, plus one per other input); positions are
  read from the ``<vertices>`` POSITION source within its ``<float_array count>``, with the
  accessor's stride, in double precision.
* **Instances**: gz-common caches a position source's transformed coordinates by the source's
  id, so a geometry instanced twice appears twice **at the first instance's place**; so here.

Hostile files: the XML is parsed with lxml without entities, DTDs or network (a document with a
``<!DOCTYPE>`` is refused: COLLADA never needs one), numbers are parsed only up to what the
caps (:class:`~gzinertia.io.limits.MeshLimits`) allow, and each only when gz-common would read all
of the word (:data:`gzinertia.numbers.GZ_COMMON`: ``1_000``, full-width digits, trailing
letters are refused, naming the word and its line), node nesting and visits are bounded (an
``<instance_node>`` cycle ends in an error), and every problem is a
:class:`~gzinertia.io.mesh_files.MeshFileError` naming the file and, where known, the line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
from lxml import etree

from gzinertia.errors import GzInertiaError
from gzinertia.io.limits import ENV_MAX_MESH_FACES, ENV_MAX_MESH_VERTICES, MeshLimits
from gzinertia.numbers import GZ_COMMON, MAX_MAGNITUDE, NumberError, read_integer, read_number

__all__ = [
    "MAX_NODE_DEPTH",
    "MAX_NODE_VISITS",
    "ColladaError",
    "read_collada",
    "read_collada_submeshes",
]

#: ``<node>``/``<instance_node>`` nesting read (an instance cycle ends here).
MAX_NODE_DEPTH = 128
#: Nodes visited in one file (instancing can multiply them).
MAX_NODE_VISITS = 100_000


class ColladaError(GzInertiaError):
    """A COLLADA file that is not read; the message names the file (and line where known)."""


def _local(element: Any) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: Any, name: str) -> Iterator[Any]:
    for child in element:
        if _local(child) == name:
            yield child


def _first(element: Any, name: str) -> Any:
    return next(_children(element, name), None)


#: Text parsed per step (numbers are read in steps, so a cap bounds the memory, not the text).
_STEP = 1 << 20


class _BadNumberError(Exception):
    """A word of an element's text that is not a number, and the lines before it there."""

    def __init__(self, error: NumberError, newlines: int) -> None:
        super().__init__(str(error))
        self.error, self.newlines = error, newlines


def _numbers(text: str | None, count: int, dtype: Any) -> Any:
    """At most ``count`` whitespace-separated numbers from ``text`` (floats or, for an integer
    ``dtype``, whole numbers), each a word gz-common's ``strtod``/``strtoul`` reads whole
    (:data:`gzinertia.numbers.GZ_COMMON`), read in steps of :data:`_STEP` characters so that
    memory is bounded by ``count``, not by the text. Any other word is a :class:`_BadNumberError`
    (gz-common would read a different number, or stop there)."""
    if not text or count <= 0:
        return np.zeros(0, dtype=dtype)
    parts: list[Any] = []
    have, pos, size = 0, 0, len(text)
    while pos < size and have < count:
        end = min(size, pos + _STEP)
        while end < size and not text[end].isspace():
            end += 1  # finish the token
        values = _step(text[pos:end], count - have, dtype)
        if values is None:
            values = _step_exactly(text, pos, end, count - have, dtype)
        parts.append(values)
        have += len(values)
        pos = end
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _step(chunk: str, most: int, dtype: Any) -> Any:
    """The step's numbers when every word is plain (ASCII, no ``_``: Python then reads as
    ``strtod`` does) and, for floats, finite within ``±MAX_MAGNITUDE``; else ``None``."""
    if not chunk.isascii() or "_" in chunk:
        return None
    try:
        values = np.array(chunk.split()[:most], dtype=dtype)
    except (ValueError, OverflowError):
        return None
    if values.dtype.kind == "f" and len(values) and not (
        np.all(np.isfinite(values)) and float(np.max(np.abs(values))) <= MAX_MAGNITUDE
    ):
        return None
    return values


def _step_exactly(text: str, pos: int, end: int, most: int, dtype: Any) -> Any:
    """:func:`_step` word by word, naming the first word that is not a number."""
    integers = np.issubdtype(dtype, np.integer)
    values: list[float | int] = []
    for match in re.finditer(r"[^ \t\n\r\f\v]+", text[pos:end]):
        if len(values) == most:
            break
        word = match.group()
        try:
            values.append(read_integer(word) if integers else read_number(word, GZ_COMMON))
        except NumberError as exc:
            raise _BadNumberError(exc, text.count("\n", 0, pos + match.start())) from None
    return np.array(values, dtype=dtype)


class _Reader:
    """One file's walk (gz-common's ``ColladaLoader::Implementation``)."""

    def __init__(self, root: Any, path: str, limits: MeshLimits) -> None:
        self.root, self.path, self.limits = root, path, limits
        self.ids: dict[str, Any] = {}
        for element in root.iter():
            for key in ("id", "sid"):
                value = element.get(key)
                if value is not None:
                    self.ids.setdefault(value, element)
        self.positions: dict[str, Any] = {}  # gz-common's positionIds cache (first transform)
        self.chunks: list[Any] = []  # (n, 3, 3) triangles
        self.vertices = 0
        self.faces = 0
        self.visits = 0

    def fail(self, element: Any, message: str) -> ColladaError:
        line = getattr(element, "sourceline", None)
        where = f", line {line}" if line else ""
        return ColladaError(f"mesh {self.path!r}{where}: {message}")

    def numbers(self, element: Any, count: int, dtype: Any) -> Any:
        """:func:`_numbers` of the element's text, a word that is not a number an error naming
        its line."""
        try:
            return _numbers(element.text, count, dtype)
        except _BadNumberError as bad:
            line = getattr(element, "sourceline", None)
            where = f", line {line + bad.newlines}" if line else ""
            raise ColladaError(
                f"mesh {self.path!r}{where}: <{_local(element)}> value {bad.error}"
            ) from None

    def attribute_number(self, element: Any, name: str) -> float:
        """Attribute ``name`` as gz-common reads a number (``std::stod``, whole word)."""
        try:
            return read_number(element.get(name).strip(" \t\n\r"), GZ_COMMON)
        except NumberError as exc:
            raise self.fail(element, f"<{_local(element)} {name}> value {exc}") from None

    def attribute_integer(self, element: Any, name: str, default: str = "") -> int:
        """Attribute ``name`` as a whole number in ASCII digits (``int()`` read ``2_4`` as 24,
        tinyxml2 and ``std::stoi`` read 2)."""
        try:
            return read_integer((element.get(name) or default).strip(" \t\n\r"))
        except NumberError as exc:
            raise self.fail(element, f"<{_local(element)} {name}> value {exc}") from None

    def element(self, url: str | None, referrer: Any) -> Any:
        """gz-common's ``ElementId``: the element whose id (or sid) the URL names."""
        key = (url or "").strip()
        key = key[1:] if key.startswith("#") else key
        found = self.ids.get(key)
        if found is None:
            raise self.fail(referrer, f"{_local(referrer)} names {url!r}, which is not in the file")
        return found

    # -- scene ---------------------------------------------------------------------------------
    def read(self) -> Any:
        if _local(self.root) != "COLLADA":
            raise self.fail(self.root, f"the root element is <{_local(self.root)}>, not <COLLADA>")
        meter = 1.0
        asset = _first(self.root, "asset")
        unit = _first(asset, "unit") if asset is not None else None
        if unit is not None and unit.get("meter") is not None:
            meter = self.attribute_number(unit, "meter")
            if not meter > 0.0:
                raise self.fail(unit, f"<unit meter={unit.get('meter')!r}> is not a positive "
                                      "number of metres")
        scene = _first(self.root, "scene")
        instance = _first(scene, "instance_visual_scene") if scene is not None else None
        if instance is None:
            raise self.fail(scene if scene is not None else self.root,
                            "no <scene><instance_visual_scene>: Gazebo reads no geometry")
        visual_scene = self.element(instance.get("url"), instance)
        for node in _children(visual_scene, "node"):
            self.node(node, np.eye(4), 1)
        return [chunk * meter for chunk in self.chunks]

    def node(self, node: Any, X_parent: Any, depth: int) -> None:
        self.visits += 1
        if depth > MAX_NODE_DEPTH:
            raise self.fail(node, f"nodes nested deeper than {MAX_NODE_DEPTH} levels "
                                  "(an <instance_node> cycle?)")
        if self.visits > MAX_NODE_VISITS:
            raise self.fail(node, f"more than {MAX_NODE_VISITS} nodes to visit (instancing)")
        X = X_parent @ self.node_transform(node)
        for child in _children(node, "node"):
            self.node(child, X, depth + 1)
        instance_node = _first(node, "instance_node")
        if instance_node is not None:
            self.node(self.element(instance_node.get("url"), instance_node), X, depth + 1)
            return
        for instance in _children(node, "instance_geometry"):
            self.geometry(self.element(instance.get("url"), instance), X)
        for instance in _children(node, "instance_controller"):
            raise self.fail(instance, "a skinned mesh (<instance_controller>) is not read: "
                                      "Gazebo builds it only with a complete skeleton, and "
                                      "poses it at run time; name a static mesh instead")

    def node_transform(self, node: Any) -> Any:
        """gz-common's ``LoadNodeTransform`` (4x4, parent from child)."""
        X = np.eye(4)
        matrix = _first(node, "matrix")
        if matrix is not None:
            values = np.zeros(16)
            read = self.numbers(matrix, 16, float)
            values[: len(read)] = read
            return values.reshape(4, 4)
        translate = _first(node, "translate")
        if translate is not None:
            X[:3, 3] = self.vector(translate, 3)
        for rotate in _children(node, "rotate"):
            x, y, z, degrees = self.vector(rotate, 4)
            R = np.eye(4)
            R[:3, :3] = _axis_angle(np.array([x, y, z]), math.radians(degrees))
            X = X @ R
        scale = _first(node, "scale")
        if scale is not None:
            X = X @ np.diag([*self.vector(scale, 3), 1.0])
        return X

    def vector(self, element: Any, n: int) -> Any:
        values = self.numbers(element, n, float)
        if len(values) < n:
            raise self.fail(element, f"<{_local(element)}> needs {n} numbers")
        return values

    # -- geometry ------------------------------------------------------------------------------
    def geometry(self, geometry: Any, X: Any) -> None:
        mesh = _first(geometry, "mesh")
        if mesh is None:
            return
        for kind in ("triangles", "polylist"):
            for primitive in _children(mesh, kind):
                self.primitive(primitive, kind, X)

    def primitive(self, primitive: Any, kind: str, X: Any) -> None:
        offsets: dict[str, set[int]] = {}
        positions = None
        for put in _children(primitive, "input"):
            semantic = put.get("semantic") or ""
            offset = self.attribute_integer(put, "offset", "0")
            if semantic not in ("VERTEX", "NORMAL", "TEXCOORD"):
                semantic = f"other {len(offsets)}"  # gz-common: each such input on its own
            offsets.setdefault(semantic, set()).add(offset)
            if semantic == "VERTEX" and positions is None:
                positions = self.vertex_positions(self.element(put.get("source"), put), X)
        vertex_offsets = offsets.get("VERTEX")
        p = _first(primitive, "p")
        if not vertex_offsets or positions is None or p is None:
            return
        tuple_size = sum(len(s) for s in offsets.values())
        vertex_offset = min(vertex_offsets)  # gz-common: the set's first (smallest)
        if not 0 <= vertex_offset < tuple_size:
            raise self.fail(primitive, f"VERTEX offset {vertex_offset} outside the "
                                       f"{tuple_size} indices of a vertex")
        room = (self.limits.max_faces - self.faces + 1) * 3 * tuple_size
        if kind == "polylist":
            vcount = _first(primitive, "vcount")
            if vcount is None:
                raise self.fail(primitive, "<polylist> has no <vcount>")
            counts = self.numbers(vcount, self.limits.max_faces - self.faces + 1, np.int64)
            corners = int(np.sum(np.maximum(counts - 2, 0)))
            self.count_faces(primitive, corners)
            room = int(np.sum(counts)) * tuple_size
        indices = self.numbers(p, room, np.int64)
        corners_index = indices[vertex_offset::tuple_size][: len(indices) // tuple_size]
        if kind == "triangles":
            tri = corners_index[: len(corners_index) // 3 * 3].reshape(-1, 3)
        else:
            tri = _fans(counts, corners_index)
        self.count_faces(primitive, len(tri))
        if len(tri) == 0:
            return
        if int(tri.min()) < 0 or int(tri.max()) >= len(positions):
            raise self.fail(p, f"a vertex index outside the {len(positions)} positions")
        self.faces += len(tri)
        self.chunks.append(positions[tri])

    def count_faces(self, element: Any, n: int) -> None:
        if self.faces + n > self.limits.max_faces:
            raise self.fail(element, f"more than the {self.limits.max_faces} triangles read "
                                     f"(raise {ENV_MAX_MESH_FACES} to read it)")

    def vertex_positions(self, vertices: Any, X: Any) -> Any:
        """The POSITION source of a ``<vertices>``, transformed by ``X`` the first time it is
        read (later instances get the same coordinates, as in gz-common)."""
        for put in _children(vertices, "input"):
            if put.get("semantic") == "POSITION":
                key = put.get("source") or ""
                if key not in self.positions:
                    local = self.source_points(self.element(key, put))
                    self.vertices += len(local)
                    if self.vertices > self.limits.max_vertices:
                        raise self.fail(put, f"more than the {self.limits.max_vertices} "
                                             f"vertices read (raise {ENV_MAX_MESH_VERTICES})")
                    self.positions[key] = local @ X[:3, :3].T + X[:3, 3]
                return self.positions[key]
        return None

    def source_points(self, source: Any) -> Any:
        array = _first(source, "float_array")
        accessor = None
        technique = _first(source, "technique_common")
        if technique is not None:
            accessor = _first(technique, "accessor")
        if array is None or accessor is None:
            raise self.fail(source, "a position <source> without <float_array> or <accessor>")
        total = self.attribute_integer(array, "count")
        stride = self.attribute_integer(accessor, "stride")
        if total < 0 or stride < 3:
            raise self.fail(source, f"a position <source> with count {total} and stride "
                                    f"{stride} (stride must be at least 3)")
        points = (total + stride - 1) // stride
        if points > self.limits.max_vertices:
            raise self.fail(array, f"declares {points} vertices, more than the "
                                   f"{self.limits.max_vertices} read (raise "
                                   f"{ENV_MAX_MESH_VERTICES} to read it)")
        values = self.numbers(array, total, float)
        n = max(0, (len(values) - 3) // stride + 1) if len(values) >= 3 else 0
        starts = np.arange(n) * stride
        out = values[starts[:, None] + np.arange(3)[None, :]] if n else np.zeros((0, 3))
        if not np.all(np.isfinite(out)):
            raise self.fail(array, "a position that is not a finite number")
        return out


def _axis_angle(axis: Any, angle: float) -> Any:
    """gz-math's ``Matrix3::SetFromAxisAngle``: Rodrigues' formula with the axis **as written**
    (gz-math does not normalise it: an axis of length 2 scales as well as turns)."""
    x, y, z = (float(v) for v in axis)
    c, s = math.cos(angle), math.sin(angle)
    C = 1.0 - c
    return np.array([
        [x * x * C + c, x * y * C - z * s, x * z * C + y * s],
        [y * x * C + z * s, y * y * C + c, y * z * C - x * s],
        [z * x * C - y * s, z * y * C + x * s, z * z * C + c],
    ])


def _fans(counts: Any, corners: Any) -> Any:
    """Polygons of ``counts`` corners (indices ``corners``, consecutive) fanned from each
    polygon's first corner; polygons the indices do not complete are dropped."""
    counts = np.asarray(counts, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]) if len(counts) else counts
    complete = (counts >= 3) & (starts + counts <= len(corners))
    counts, starts = counts[complete], starts[complete]
    fans = counts - 2
    if len(fans) == 0:
        return np.zeros((0, 3), dtype=np.int64)
    owner = np.repeat(np.arange(len(fans)), fans)
    k = np.arange(int(fans.sum())) - np.repeat(np.cumsum(fans) - fans, fans)
    first = starts[owner]
    return np.stack([corners[first], corners[first + k + 1], corners[first + k + 2]], axis=1)


def _parser() -> Any:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=True, remove_comments=True,
                           remove_pis=True)


def _has_doctype(element: Any) -> bool:
    info = element.getroottree().docinfo
    return bool(info.doctype) or info.internalDTD is not None or info.externalDTD is not None


def _doctype_refusal(path: str) -> ColladaError:
    return ColladaError(f"mesh {path!r}: refusing a <!DOCTYPE> (COLLADA does not use one; it "
                        "is how entity bombs and external reads are built)")


def _refuse_doctype(data: bytes, path: str) -> None:
    """Refuses a document with a DTD from its prolog alone (what the parser reports when the
    root element starts, whatever the encoding), before any entity could be expanded."""
    probe = etree.XMLPullParser(events=("start",), resolve_entities=False, no_network=True,
                                load_dtd=False, huge_tree=True)
    step = 1 << 16
    try:
        for start in range(0, len(data), step):
            probe.feed(data[start:start + step])
            for _event, element in probe.read_events():
                if _has_doctype(element):
                    raise _doctype_refusal(path)
                return
    except etree.XMLSyntaxError:
        # e.g. an entity bomb stops the parser in its DTD: what a recovering parse reports
        recovering = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                                     huge_tree=False, recover=True)
        try:
            root = etree.fromstring(data, recovering)
        except (etree.XMLSyntaxError, ValueError):
            return  # the full parse reports it, with its line
        if root is not None and _has_doctype(root):
            raise _doctype_refusal(path) from None


def read_collada_submeshes(data: bytes, path: str, limits: MeshLimits) -> list[Any]:
    """The submeshes gz-common's ``ColladaLoader`` builds from a COLLADA document: one per
    ``<triangles>`` or ``<polylist>`` block of each geometry instance, in the order it reads
    them, each as triangles ``(n, 3, 3)`` float64 in metres in the file's own axes (``<unit>``
    applied, ``<up_axis>`` ignored). Raises :class:`ColladaError` naming ``path`` (and the
    line) for anything not read."""
    _refuse_doctype(data, path)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line = f", line {exc.lineno}" if exc.lineno else ""
        message = re.sub(r",? line \d+, column \d+$", "", exc.msg or "malformed XML")
        raise ColladaError(f"mesh {path!r}{line}: not well-formed XML: {message}") from None
    except ValueError as exc:
        raise ColladaError(f"mesh {path!r}: cannot parse as XML: {exc}") from None
    if _has_doctype(root):
        raise _doctype_refusal(path)
    try:
        submeshes: list[Any] = _Reader(root, path, limits).read()
    except RecursionError:
        raise ColladaError(f"mesh {path!r}: nested too deeply") from None
    return submeshes


def read_collada(data: bytes, path: str, limits: MeshLimits) -> tuple[Any, Any]:
    """The triangles of a COLLADA document as gz-common's ``ColladaLoader`` builds them, in
    metres in the file's own axes (``<unit>`` applied, ``<up_axis>`` ignored): ``(vertices
    (n, 3) float64, faces (m, 3) int64)``, one vertex per triangle corner (callers merge); its
    submeshes (:func:`read_collada_submeshes`) one after the other.
    Raises :class:`ColladaError` naming ``path`` (and the line) for anything not read."""
    submeshes = read_collada_submeshes(data, path, limits)
    triangles = np.concatenate(submeshes) if submeshes else np.zeros((0, 3, 3))
    n = len(triangles)
    return triangles.reshape(-1, 3), np.arange(3 * n, dtype=np.int64).reshape(n, 3)
