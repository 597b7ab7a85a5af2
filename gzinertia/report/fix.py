"""What ``gzinertia fix`` says about each link it repaired or skipped."""

from __future__ import annotations

import numpy as np

from gzinertia.edit.fix import FixResult, LinkFix
from gzinertia.wording import number


def _pct(x: float) -> str:
    return f"{100.0 * x:+.3g} %" if np.isfinite(x) else "from 0"


#: What each face of the valid set means for the body (:data:`~gzinertia.physics.
#: inertia_repair.Boundary`).
_BOUNDARY_TEXT = {
    "flat plate": "λ₁ + λ₂ = λ₃, the inertia of a flat plate (all mass in one plane)",
    "rod": "a principal moment of 0, the inertia of a rod (all mass on one line)",
}


def _boundary(fix: LinkFix) -> str:
    """Where the written inertia sits on the boundary of validity and, when the repair only
    moved the moments there, how to compute a body's inertia instead ("" inside the set)."""
    r = fix.repair
    if r.boundary is None:
        return ""
    text = f"; on the boundary of validity: {_BOUNDARY_TEXT[r.boundary]}"
    if r.method == "nearest":
        text += ": nearest moved the moments only as far as validity needs"
        if fix.geometry_available is not None:
            flag = "" if fix.geometry_available == "collision" else " --geometry visual"
            text += (
                f"; if the body is not one, --method geometry{flag} recomputes the inertia "
                f"from its {fix.geometry_available}s"
            )
    return text


def describe_link(fix: LinkFix) -> str:
    """One line: method, codes, the change of each principal moment (along the written
    inertia's principal axes, relative to that moment's own written value), where the result
    sits on the boundary of validity (and, after ``nearest`` on a link with geometry, the
    ``--method geometry`` that computes a body's inertia), centre-of-mass move/offset."""
    r = fix.repair
    codes = ",".join(fix.codes) or "requested"
    if fix.inserted:
        text = (
            f"{fix.link}: {r.method} ({codes}): wrote <inertial>: {fix.mass_after:.6g} kg, "
            "principal moments "
            + " ".join(number(v, 6) for v in sorted(r.I_after.diagonal()))
            + f" kg*m^2 (in link axes), centre of mass at the {fix.shapes}' centroid"
        )
        return text + _geometry_note(fix)
    if r.method == "transcribed":
        return (
            f"{fix.link}: transcribed ({codes}): wrote the URDF-style <inertia> attributes as "
            "the child elements SDFormat reads; the link simulated with the spec's unit inertia, "
            "now principal moments "
            + " ".join(number(v, 6) for v in sorted(np.linalg.eigvalsh(r.I_after)))
            + " kg*m^2"
        )
    before = " ".join(number(v, 6) for v in r.moments_before)
    after = " ".join(number(v, 6) for v in r.moments_after)
    change = " ".join(_pct(v) for v in r.moment_change)
    text = (
        f"{fix.link}: {r.method} ({codes}): principal moments {before} -> {after} kg*m^2 "
        f"({change} of each moment)"
    )
    text += _boundary(fix)
    if fix.mass_after != fix.mass_before:
        text += f"; <mass> {fix.mass_before:.6g} -> {fix.mass_after:.6g} kg"
    if fix.com_move > 0.0:
        text += f"; centre of mass moved {fix.com_move:.6g} m to the {fix.shapes}' centroid"
    elif fix.com_offset is not None:
        text += (
            f"; centre of mass kept, {fix.com_offset:.6g} m from the {fix.shapes}' centroid "
            "(--move-com moves it)"
        )
    return text + _geometry_note(fix)


def _geometry_note(fix: LinkFix) -> str:
    """What the geometry pipeline did to the shapes the inertia came from, if anything."""
    return f"; geometry: {fix.geometry_note}" if fix.geometry_note else ""


def describe_fix(result: FixResult) -> list[str]:
    """One line per repaired link, then one per skipped link (or "no link to repair")."""
    lines = [describe_link(f) for f in result.fixed]
    lines += [f"{result.path}: {s}" for s in result.skipped]
    lines += [f"warning: not written: {p}" for p in result.pending]
    if not result.fixed and not result.skipped and not result.pending:
        lines.append(f"{result.path}: no link to repair")
    return lines


def _plain(x: object) -> object:
    """JSON-ready: arrays as lists, non-finite numbers as null."""
    if isinstance(x, np.ndarray):
        return [_plain(v) for v in x.tolist()]
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if isinstance(x, float | np.floating):
        value = float(x)
        return value if np.isfinite(value) else None
    return x


def fix_json(result: FixResult) -> dict[str, object]:
    """The machine-readable report of one file (``gzinertia fix --json``): per repaired link
    the method, the codes, the mass, the centre of mass ``p_BoBcm_B`` (m, link frame) and
    ``I_BBcm_I`` (kg·m², about the CoM in the inertial frame's axes) before and after, the
    principal moments before and after along the written inertia's principal axes, their
    change relative to the largest written moment (``relative_change``) and to each moment's own
    written value (``moment_change``, null for a moment written as 0), the face of the valid set
    the result sits on (``boundary``: ``"flat plate"``, ``"rod"`` or null); the links not
    repaired and why."""
    links = []
    for f in result.fixed:
        r = f.repair
        links.append(
            {
                "name": f.link,
                "method": r.method,
                "codes": list(f.codes),
                "mass": {"before": f.mass_before, "after": f.mass_after},
                "p_BoBcm_B": {"before": f.p_before, "after": f.p_after},
                "I_BBcm_I": {"before": r.I_before, "after": r.I_after},
                "principal_moments": {"before": r.moments_before, "after": r.moments_after},
                "relative_change": r.relative_change,
                "moment_change": r.moment_change,
                "boundary": r.boundary,
                "com_move": f.com_move,
                "com_offset_from_centroid": f.com_offset,
                "inserted_inertial": f.inserted,
            }
        )
    out = {
        "file": str(result.path),
        "changed": result.new != result.old,
        "links": links,
        "not_repaired": list(result.skipped),
        "not_written": list(result.pending),
    }
    return {k: _plain_tree(v) for k, v in out.items()}


def _plain_tree(x: object) -> object:
    if isinstance(x, dict):
        return {k: _plain_tree(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain_tree(v) for v in x]
    return _plain(x)
