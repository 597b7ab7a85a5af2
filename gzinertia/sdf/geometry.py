"""Reading ``<collision>`` geometry into :class:`~gzinertia.records.Geometry` (SI units)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.records import Geometry
from gzinertia.sdf.includes import resolve_resource
from gzinertia.sdf.values import child_float, parse_floats, text_of
from gzinertia.sdf.xml import child, line_of

__all__ = ["read_geometry"]


def _vec3(
    parent: etree._Element, tag: str, file: str, default: tuple[float, float, float]
) -> tuple[float, float, float]:
    c = child(parent, tag)
    if c is None:
        return default
    x, y, z = parse_floats(c, file, 3)
    return (x, y, z)


def _sizes(
    shape: etree._Element, tag: str, file: str, default: tuple[float, float, float]
) -> tuple[float, float, float]:
    """A 3-vector of lengths (``<size>``, ``<radii>``): an error naming the line if any is < 0."""
    values = _vec3(shape, tag, file, default)
    if min(values) < 0.0:
        raise SdfError(file, line_of(shape), f"<{shape.tag}><{tag}> is negative ({values})")
    return values


def _length(shape: etree._Element, tag: str, file: str, default: float) -> float:
    """A length (``<radius>``, ``<length>``): an error naming the line if it is < 0."""
    value = child_float(shape, tag, file, default)
    if value < 0.0:
        raise SdfError(file, line_of(shape), f"<{shape.tag}><{tag}> is negative ({value})")
    return value


def read_geometry(
    geom: etree._Element, file: str, model_paths: Sequence[str | Path] = ()
) -> Geometry:
    """The shape inside a ``<geometry>`` element (the first one libsdformat would read)."""
    shape = next((c for c in geom if isinstance(c.tag, str)), None)
    if shape is None:
        return Geometry("other")
    kind = shape.tag
    if kind == "box":
        return Geometry("box", size=_sizes(shape, "size", file, (1.0, 1.0, 1.0)))
    if kind == "sphere":
        return Geometry("sphere", radius=_length(shape, "radius", file, 1.0))
    if kind == "cylinder":
        return Geometry(
            "cylinder",
            radius=_length(shape, "radius", file, 1.0),
            length=_length(shape, "length", file, 1.0),
        )
    if kind == "capsule":
        return Geometry(
            "capsule",
            radius=_length(shape, "radius", file, 0.5),
            length=_length(shape, "length", file, 1.0),
        )
    if kind == "ellipsoid":
        return Geometry("ellipsoid", size=_sizes(shape, "radii", file, (1.0, 1.0, 1.0)))
    if kind == "cone":  # SDFormat 1.11 (cone_shape.sdf: both default to 1)
        return Geometry(
            "cone",
            radius=_length(shape, "radius", file, 1.0),
            length=_length(shape, "length", file, 1.0),
        )
    if kind == "mesh":
        uri_elem = child(shape, "uri")
        uri = "" if uri_elem is None else text_of(uri_elem)
        resolved = resolve_resource(uri, Path(file), model_paths) if uri else None
        scale = _vec3(shape, "scale", file, (1.0, 1.0, 1.0))
        return Geometry(
            "mesh", mesh_uri=uri, mesh_path=None if resolved is None else str(resolved), scale=scale
        )
    if kind == "plane":
        return Geometry("plane", normal=_vec3(shape, "normal", file, (0.0, 0.0, 1.0)))
    if kind == "heightmap":
        return Geometry("heightmap")
    return Geometry("other")
