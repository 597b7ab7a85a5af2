"""The target release's buoyancy in ``hydrostatics`` (with ``--gazebo``/``--engine`` or the
settings' target): the JSON ``target`` and ``release`` objects and their text block, each
collision's buoyancy as the release computes it beside the exact geometry's
(docs/hydrostatics.md)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.gazebo.buoyancy_release import FLAGS, LinkReleaseBuoyancy
from gzinertia.physics.buoyancy_release import BuoyancyBehaviour, CollisionBuoyancy
from gzinertia.wording import number

if TYPE_CHECKING:
    from gzinertia.hydrostatics_result import HydrostaticsResult

__all__ = ["release_lines", "release_summary"]


def _vec(v: Any) -> list[float | None] | None:
    if v is None:
        return None
    return [float(x) if math.isfinite(float(x)) else None for x in np.asarray(v).reshape(3)]


def _rows(behaviour: BuoyancyBehaviour) -> dict[str, bool]:
    """Each row of the release table the behaviour follows, and whether it has it."""
    return {key: bool(getattr(behaviour, flag)) for flag, key in FLAGS.items()}


def _collision(c: CollisionBuoyancy, other: CollisionBuoyancy | None) -> dict[str, Any]:
    exact = c.buoyancy_exact
    return {
        "name": c.name, "kind": c.kind,
        "volume": c.volume, "volume_exact": c.volume_exact,
        "p_BoCv_B": _vec(c.p_BoCv_B), "p_BoCv_B_exact": _vec(c.p_BoCv_B_exact),
        "buoyancy": c.buoyancy, "buoyancy_exact": exact,
        "difference": None if exact is None else c.buoyancy - exact,
        "relative": c.force_difference,
        "p_WB": _vec(c.p_WB), "p_WB_exact": _vec(c.p_WB_exact), "offset": c.centre_offset,
        "causes": list(c.causes),
        "with_unknown_changes": None if other is None else {
            "volume": other.volume, "p_BoCv_B": _vec(other.p_BoCv_B),
            "buoyancy": other.buoyancy, "p_WB": _vec(other.p_WB)},
    }


def _link(link: LinkReleaseBuoyancy, exact: tuple[float, Any]) -> dict[str, Any]:
    others: list[CollisionBuoyancy | None] = (
        list(link.alternative) if link.alternative else [None] * len(link.collisions))
    return {
        "name": link.name, "buoyancy": link.buoyancy, "p_WB": _vec(link.p_WB),
        "buoyancy_exact": exact[0], "p_WB_exact": _vec(exact[1]),
        "with_unknown_changes": None if not link.alternative else {
            "buoyancy": link.alternative_buoyancy, "p_WB": _vec(link.alternative_p_WB)},
        "collisions": [_collision(c, o) for c, o in zip(link.collisions, others, strict=True)],
    }


def release_summary(result: HydrostaticsResult) -> dict[str, Any] | None:
    """The ``release`` object of ``hydrostatics --json`` (``None`` without a target): the
    rows of the table the release has, what is assumed, and per enabled link its collisions
    under the release beside the exact geometry (the link's exact buoyancy and centre are the
    union's, as the ``links`` entries give them)."""
    release = result.release
    if release is None:
        return None
    exact: dict[str, tuple[float, Any]] = {}
    for m in result.models:
        up = -np.asarray(m.g_W) / m.g if m.g > 0 else np.array([0.0, 0.0, 1.0])
        for link in m.links:
            exact[link.name] = (float(np.asarray(link.f_W_exact) @ up), link.p_WB_exact)
    return {
        "changes": _rows(release.behaviour),
        "assumption": release.assumption or None,
        "with_unknown_changes": None if release.alternative is None
        else _rows(release.alternative),
        "links": [_link(link, exact[link.name]) for link in result.release_links],
    }


def _point(v: list[float | None] | None) -> str:
    if v is None or any(x is None for x in v):
        return "nowhere"
    return "(" + ", ".join(number(float(x)) for x in v if x is not None) + ") m"


def _pair(entry: dict[str, Any]) -> str:
    exact = entry["buoyancy_exact"]
    said = (f"Gazebo {number(entry['buoyancy'])} N at {_point(entry['p_WB'])}, exact "
            + ("-" if exact is None else f"{number(exact)} N at {_point(entry['p_WB_exact'])}"))
    if entry.get("relative") is not None:
        said += f": {100 * entry['relative']:+.3g} %"
        if entry["offset"] is not None:
            said += f", {number(entry['offset'])} m apart"
    return said


def release_lines(summary: dict[str, Any]) -> list[str]:
    """The text block of the target and its release's buoyancy (empty without a target)."""
    release = summary.get("release")
    if release is None:
        return []
    target = summary["target"]
    lines = ["", f"target: Gazebo {target['gazebo'].title()} ({target['gz_sim']}, "
                 f"{target['gazebo_origin']}), engine {target['engine']} "
                 f"({target['engine_origin']})",
             "buoyancy as this release computes it, collision by collision (N along up, world)"
             + (f"; {release['assumption']}" if release["assumption"] else "") + ":"]
    for link in release["links"]:
        lines.append(f"  {link['name']}: {_pair(link)}")
        if link["with_unknown_changes"] is not None:
            other = link["with_unknown_changes"]
            lines.append(f"    with them: {number(other['buoyancy'])} N at "
                         f"{_point(other['p_WB'])}")
        for c in link["collisions"]:
            why = f"; {'; '.join(c['causes'])}" if c["causes"] else ""
            lines.append(f"    {c['name']} ({c['kind']}): volume {number(c['volume'])} m^3, "
                         f"{_pair(c)}{why}")
    return lines
