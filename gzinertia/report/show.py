"""``gzinertia show``: every link's inertia, in one documented JSON shape or as rich tables.

The JSON keys are a public contract (``docs/json.md``). All 6x6 matrices of one output are in the
requested ``ordering``; 3-vectors and 3x3 matrices are in link axes unless the name says other.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.gazebo.buoyancy_release import ReleaseBuoyancy, behaviour_of, link_release_buoyancy
from gzinertia.gazebo.dart import dart_spatial_tensor
from gzinertia.gazebo.releases import CHANGES, RELEASES
from gzinertia.gazebo.target import Target
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.physics.buoyancy_release import CollisionBuoyancy
from gzinertia.records import BuoyancyWorld, LinkRecord, Note, SdfDocument
from gzinertia.spatial.algebra import Ordering, reorder
from gzinertia.spatial.inertia import equivalent_ellipsoid_semi_axes, principal_axes
from gzinertia.wording import number, vector

__all__ = [
    "document_summary",
    "hydrodynamics_added_mass",
    "link_summary",
    "note_summary",
    "target_lines",
    "target_summary",
]


def _plain(values: ArrayLike) -> Any:
    """Nested lists of floats, with non-finite numbers as ``None`` (JSON has no NaN)."""
    arr = np.asarray(values, dtype=float)
    if arr.ndim == 0:
        v = float(arr)
        return v if math.isfinite(v) else None
    return [_plain(row) for row in arr]


def link_summary(link: LinkRecord, ordering: Ordering) -> dict[str, Any]:
    """The ``show --json`` entry of one link."""
    inertial = link.inertial
    moments, R_BP = principal_axes(inertial.I_BBcm_B)
    A = None if inertial.A_BBo_B is None else inertial.A_BBo_B.in_ordering(ordering)
    return {
        "name": link.name,
        "file": link.source.file,
        "line": link.source.line,
        "X_WB": {"p": _plain(link.X_WB.p), "R": _plain(link.X_WB.R)},
        "mass": inertial.mass,
        "inertial_defaulted": inertial.defaulted,
        "p_BoBcm_B": _plain(inertial.p_BoBcm_B),
        "R_BI": _plain(inertial.R_BI),
        "I_BBcm_B": _plain(inertial.I_BBcm_B),
        "I_BBo_B": _plain(inertial.I_BBo_B),
        "M_BBcm_B": _plain(inertial.M_BBcm_B.in_ordering(ordering)),
        "M_BBo_B": _plain(inertial.M_BBo_B.in_ordering(ordering)),
        "principal_moments": _plain(moments),
        "R_BP": _plain(R_BP),
        "equivalent_ellipsoid_semi_axes": _plain(
            equivalent_ellipsoid_semi_axes(inertial.mass, moments)
        ),
        "A_BBo_B": None if A is None else _plain(A),
        "gazebo_dart_tensor": _plain(dart_spatial_tensor(inertial, ordering)),
        "hydrodynamics_added_mass": hydrodynamics_added_mass(link, ordering),
    }


def hydrodynamics_added_mass(link: LinkRecord, ordering: Ordering) -> dict[str, Any] | None:
    """What Gazebo's Hydrodynamics plugins on ``link`` apply as added mass (gz-sim 6.12+ / 7+:
    ``A_BBo_B = -sym(D)``, D the ``<iDotJ>`` terms as written, about the link origin in link
    axes), summed over the plugins whose added mass is on, with where the first is written;
    ``None`` when none applies any."""
    active = [
        p for p in link.hydrodynamics if added_mass_active(p)
    ]
    if not active:
        return None
    D = sum((p.D_BBo_B for p in active), np.zeros((6, 6)))
    A_BBo_B = -0.5 * (D + D.T) + 0.0  # linear-first
    return {
        "A_BBo_B": _plain(reorder(A_BBo_B, "linear-first", ordering)),
        "source": "Hydrodynamics plugin",
        "file": active[0].source.file,
        "line": active[0].source.line,
    }


def note_summary(note: Note) -> dict[str, Any]:
    """The ``show --json`` entry of one reader note."""
    return {
        "level": note.level,
        "code": note.code,
        "message": note.message,
        "file": note.source.file,
        "line": note.source.line,
        "link": note.link,
    }


def document_summary(
    doc: SdfDocument, links: list[LinkRecord], ordering: Ordering
) -> dict[str, Any]:
    """The whole ``show --json`` object."""
    return {
        "file": doc.path,
        "sdf_version": doc.sdf_version,
        "ordering": ordering,
        "links": [link_summary(link, ordering) for link in links],
        "notes": [note_summary(note) for note in doc.notes],
    }


def _added_mass_under(link: LinkRecord, target: Target) -> dict[str, str | None]:
    """What ``target`` does with the link's ``<fluid_added_mass>`` and its Hydrodynamics
    plugin's added mass: a sentence each (``None``: the link has none)."""
    element = None
    if link.inertial.A_BBo_B is not None:
        if target.applies_fluid_added_mass:
            element = "applied: dartsim adds it to the link's inertia"
        elif not target.has("fluid-added-mass-read"):
            element = (f"ignored: this gz-sim does not hand it to the engine (it does since "
                       f"{CHANGES['fluid-added-mass-read'].source})")
        else:
            element = (f"ignored: only dartsim reads it "
                       f"({CHANGES['dartsim-fluid-added-mass'].source}), not {target.engine}")
    plugin = None
    if any(added_mass_active(p) for p in link.hydrodynamics):
        plugin = "applied as an explicit force from the last steps' acceleration"
        if element is not None and target.has("hydro-added-mass-engine-advice"):
            plugin += (", with <fluid_added_mass> on the same link an error in this release "
                       f"({CHANGES['hydro-added-mass-engine-advice'].source})")
        elif target.has("hydro-added-mass-deprecated") and target.applies_fluid_added_mass:
            plugin += (f", deprecated for <fluid_added_mass> "
                       f"({CHANGES['hydro-added-mass-deprecated'].source})")
    return {"fluid_added_mass": element, "plugin_added_mass": plugin}


def _auto_inertial_under(link: LinkRecord, target: Target) -> str | None:
    """What ``target``'s libsdformat does with the link's ``<inertial auto="true">`` where it
    differs from what is shown (``None``: the link has none, or the target resolves it)."""
    row = CHANGES["sdformat-auto-inertial"]
    if not link.inertial.auto or target.resolves_auto_inertial:
        return None
    first = next(name for name in RELEASES if row.in_release(name))
    return (f"not resolved: {target.info.sdformat} does not know <inertial auto=\"true\"> "
            f"(it does since {row.source}, {RELEASES[first].sdformat} {row.first[first]}): Gazebo "
            f"{target.info.title} uses the <mass>, <pose> and <inertia> as written (1 kg, "
            "unit inertia at the link origin where absent), not the mass and inertia shown "
            "(computed from the collisions)")


def _inertial_as_read(link: LinkRecord, target: Target) -> dict[str, Any] | None:
    """The inertial ``target``'s libsdformat loads where it does not resolve the link's
    ``<inertial auto="true">`` (:meth:`~gzinertia.gazebo.target.Target.reads`): mass (kg),
    ``p_BoBcm_B`` (m, link frame) and ``I_BBcm_B`` (kg·m², about Bcm in link axes); ``None``
    where the target reads what is shown."""
    written = link.inertial.as_written
    if written is None or target.resolves_auto_inertial:
        return None
    return {"mass": written.mass, "p_BoBcm_B": [float(x) for x in written.p_BoBcm_B],
            "I_BBcm_B": [[float(x) for x in row] for row in written.I_BBcm_B]}


def _buoyancy_under(link: LinkRecord, release: ReleaseBuoyancy) -> dict[str, Any]:
    """The release's buoyancy of the link in a uniform fluid (1000 kg/m³ unless a world says
    otherwise: the volume and centre of volume do not depend on it), beside the exact."""
    under = link_release_buoyancy(link, release, BuoyancyWorld())
    volume = sum(c.volume for c in under.collisions)
    exact = sum(c.volume_exact or 0.0 for c in under.collisions)

    def centre(parts: tuple[CollisionBuoyancy, ...], exact: bool) -> Any:
        weights = [(c.volume_exact or 0.0) if exact else c.volume for c in parts]
        points = [c.p_BoCv_B_exact if exact else c.p_BoCv_B for c in parts]
        total = sum(weights)
        if total <= 0.0:
            return None
        return _plain(sum((w * np.asarray(p) for w, p in zip(weights, points, strict=True)
                           if p is not None), np.zeros(3)) / total)

    causes = [f"{c.name}: {why}" for c in under.collisions for why in c.causes]
    return {"volume": volume, "p_BoBv_B": centre(under.collisions, False),
            "volume_exact": exact, "p_BoBv_B_exact": centre(under.collisions, True),
            "causes": causes, "assumption": release.assumption or None}


def target_summary(
    summary: dict[str, Any], links: list[LinkRecord], target: Target | None
) -> dict[str, Any]:
    """``summary`` (:func:`document_summary`) with what ``target`` applies: the ``target``
    and, per link, ``gazebo``: the added mass applied or ignored and the release's buoyancy
    (volume and centre of volume in the link frame, summed over the collisions, overlaps
    counted twice as gz-sim counts them, beside the exact solids' sum). ``target`` ``None``:
    ``summary`` unchanged."""
    if target is None:
        return summary
    release = behaviour_of(target)
    summary["target"] = target.as_json()
    for entry, link in zip(summary["links"], links, strict=True):
        entry["gazebo"] = {**_added_mass_under(link, target),
                           "auto_inertial": _auto_inertial_under(link, target),
                           "inertial_as_read": _inertial_as_read(link, target),
                           "buoyancy": _buoyancy_under(link, release)}
    return summary


def _where(p: list[float | None] | None) -> str:
    """A point in a line of text, or why there is none."""
    if p is None or any(x is None for x in p):
        return "no point (no volume)"
    return f"{vector(float(x) for x in p if x is not None)} m"


def target_lines(summary: dict[str, Any]) -> list[str]:
    """The text of :func:`target_summary`'s additions (empty without a target)."""
    target = summary.get("target")
    if target is None:
        return []
    lines = [f"target: Gazebo {target['gazebo'].title()} ({target['gz_sim']}, "
             f"{target['gazebo_origin']}), engine {target['engine']} ({target['engine_origin']})"]
    for link in summary["links"]:
        gazebo = link["gazebo"]
        b = gazebo["buoyancy"]
        lines.append(f"  {link['name']}: buoyancy volume {number(b['volume'])} m^3 at "
                     f"{_where(b['p_BoBv_B'])} (link frame), exact {number(b['volume_exact'])} "
                     f"m^3 at {_where(b['p_BoBv_B_exact'])}")
        lines.extend(f"    {why}" for why in b["causes"])
        if gazebo["auto_inertial"] is not None:
            lines.append(f'    <inertial auto="true">: {gazebo["auto_inertial"]}')
        read = gazebo.get("inertial_as_read")
        if read is not None:
            moments = [read["I_BBcm_B"][i][i] for i in range(3)]
            lines.append(f"    as its libsdformat reads it: mass {read['mass']:.6g} kg, "
                         f"centre of mass {vector(read['p_BoBcm_B'])} m, Ixx Iyy Izz "
                         f"{vector(moments)} kg·m²")
        for key, name in (("fluid_added_mass", "<fluid_added_mass>"),
                          ("plugin_added_mass", "Hydrodynamics plugin added mass")):
            if gazebo[key] is not None:
                lines.append(f"    {name}: {gazebo[key]}")
    if any(link["gazebo"]["buoyancy"]["assumption"] for link in summary["links"]):
        lines.append(f"  ({summary['links'][0]['gazebo']['buoyancy']['assumption']})")
    return lines
