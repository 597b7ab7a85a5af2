"""A link's ``<visual>`` geometry, read on demand from the file that holds the link.

The reader keeps collisions only (what physics uses); the buoyancy-proxy rule (GZI304) and
``addmass``'s proxy warning compare them with the visuals. A visual is read when its
``<pose>`` is relative to the link (no ``relative_to``, or the link's own name) and its
geometry is one :func:`~gzinertia.sdf.geometry.read_geometry` reads; others are left out (the
callers then stay silent rather than guess).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from gzinertia.errors import GzInertiaError
from gzinertia.records import Collision, LinkRecord, SourceRef
from gzinertia.sdf.geometry import read_geometry
from gzinertia.sdf.values import child_pose
from gzinertia.sdf.xml import child, line_of, parse_xml_file_shared


def link_visuals(
    link: LinkRecord,
    model_paths: Sequence[str | Path] = (),
    trees: dict[str, etree._Element | None] | None = None,
) -> tuple[list[Collision], int]:
    """``(visuals, skipped)``: the link's visuals as :class:`~gzinertia.records.Collision`
    records (``X_BC`` is the visual's pose in the link frame), and how many were left out.
    ``([], 0)`` when the link's element cannot be found again (standard input, a changed
    file). ``trees``: a memo of the files' parses (``None`` for one that cannot be read) to
    reuse over the links of one document (each file is then looked up once)."""
    path = link.source.file
    if trees is None:
        root = _file_tree(path)
    else:
        if path not in trees:
            trees[path] = _file_tree(path)
        root = trees[path]
    if root is None:
        return [], 0
    own = link.name.rsplit("::", 1)[-1]
    elem = _links_by_line_and_name(root).get((link.source.line, own))
    if elem is None:
        return [], 0
    visuals: list[Collision] = []
    skipped = 0
    for v in elem.iterchildren("visual"):
        try:
            spec = child_pose(v, path)
            geom = child(v, "geometry")
            if geom is None or (spec is not None and spec.relative_to not in ("", own)):
                skipped += 1
                continue
            geometry = read_geometry(geom, path, [str(p) for p in model_paths])
        except GzInertiaError:
            skipped += 1
            continue
        from gzinertia.physics.rotation import Pose

        X_BV = Pose() if spec is None else spec.X
        visuals.append(Collision((v.get("name") or "").strip(), X_BV, geometry,
                                 SourceRef(path, line_of(v))))
    return visuals, skipped


def _file_tree(path: str) -> etree._Element | None:
    """The shared parse of the file that holds a link, ``None`` when it is not a regular
    file (standard input) or cannot be read."""
    if not Path(path).is_file():
        return None
    try:
        return parse_xml_file_shared(path)
    except GzInertiaError:
        return None


@functools.lru_cache(maxsize=4)
def _links_by_line_and_name(root: etree._Element) -> dict[tuple[int, str], etree._Element]:
    """Every ``<link>`` of a shared parse by (line, name), built once per tree: finding the
    links one by one stays linear in their number."""
    index: dict[tuple[int, str], etree._Element] = {}
    for e in root.iter("link"):
        index.setdefault((line_of(e), (e.get("name") or "").strip()), e)
    return index
