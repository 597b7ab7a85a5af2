"""GZI003: a collision mesh that could not be used (missing, a git-lfs pointer, unreadable,
empty, refused), so that "No findings" never hides a link the geometry rules could not judge.

The rules that need a link's collision solids (GZI105, GZI106, GZI107 on its inertia and
density, GZI207 and GZI210 on its fluid ellipsoid, GZI301–GZI305 on its buoyancy) stay silent on
a link one of whose meshes has no solid; this rule names the link, the collision and the file,
and says why. A URI whose scheme libsdformat does not know and that resolves nowhere is left to
GZI002, which says the same.
"""

from __future__ import annotations

from collections.abc import Iterator

from gzinertia.audit.emit import finding, link_rule
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import link_name
from gzinertia.checks.context import LinkContext
from gzinertia.physics.shapes import ShapeError, collision_solid
from gzinertia.records import Collision
from gzinertia.sdf.includes import unknown_scheme_message

__all__ = ["JUDGED_BY", "collision_mesh_unusable", "mesh_problem"]

#: The rules that could not judge a link with an unusable mesh.
JUDGED_BY = "GZI105, GZI106, GZI107, GZI207, GZI210, GZI301-GZI305"


def _not_found(uri: str) -> str:
    scheme = uri.split("://", 1)[0].lower() if "://" in uri else ""
    if scheme == "package":
        return ("not found: its ROS package is not on the package path (--package-path, "
                "ROS_PACKAGE_PATH)")
    if scheme == "model":
        return "not found on the model path (-m/--model-path, GZ_SIM_RESOURCE_PATH)"
    return "not found (no such file)"


def mesh_problem(collision: Collision) -> tuple[str, str] | None:
    """``(kind, reason)`` when the collision's mesh has no solid to compute: ``kind`` is
    ``"not-found"``, ``"git-lfs-pointer"`` or ``"unusable"`` (unreadable, empty, refused, no
    volume); ``None`` for a usable mesh, another shape, or a URI GZI002 reports."""
    geometry = collision.geometry
    if geometry.kind != "mesh":
        return None
    uri = (geometry.mesh_uri or "").strip()
    if geometry.mesh_path is None:
        if unknown_scheme_message(uri) is not None:
            return None  # GZI002: the scheme, and that it resolves nowhere
        return "not-found", _not_found(uri) if uri else "has no <uri>"
    try:
        collision_solid(collision)
    except ShapeError as exc:
        # (gzinertia.io.mesh_files refuses a git-lfs pointer, saying so)
        kind = "git-lfs-pointer" if "git-lfs pointer" in str(exc) else "unusable"
        return kind, str(exc)
    return None


@link_rule("GZI003")
def collision_mesh_unusable(ctx: LinkContext) -> Iterator[Finding]:
    """GZI003 collision-mesh-unusable: a collision mesh with no solid to compute."""
    for collision in ctx.link.collisions:
        problem = mesh_problem(collision)
        if problem is None:
            continue
        kind, reason = problem
        uri = collision.geometry.mesh_uri or ""
        yield finding(
            "GZI003", collision.source, ctx.name,
            f"collision {collision.name!r}, <uri> {uri!r}: {reason}; the geometry rules "
            f"({JUDGED_BY}) could not judge link " + link_name(ctx.name, quoted=True),
            {"collision": collision.name, "uri": uri, "path": collision.geometry.mesh_path,
             "problem": kind},
        )
