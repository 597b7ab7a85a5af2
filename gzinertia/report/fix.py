"""What ``gzinertia fix`` says about each link it repaired or skipped."""

from __future__ import annotations

import numpy as np

from gzinertia.edit.fix import FixResult, LinkFix


def _pct(x: float) -> str:
    return f"{100.0 * x:+.3g} %"


def describe_link(fix: LinkFix) -> str:
    """One line: method, codes, relative change of each principal moment (of the written
    inertia's principal axes, relative to its largest moment), centre-of-mass move/offset."""
    r = fix.repair
    codes = ",".join(fix.codes) or "requested"
    if fix.inserted:
        text = (
            f"{fix.link}: {r.method} ({codes}): wrote <inertial>: {fix.mass_after:.6g} kg, "
            "principal moments "
            + " ".join(f"{v:.6g}" for v in sorted(r.I_after.diagonal()))
            + f" kg*m^2 (in link axes), centre of mass at the {fix.shapes}' centroid"
        )
        return text
    if r.method == "transcribed":
        return (
            f"{fix.link}: transcribed ({codes}): wrote the URDF-style <inertia> attributes as "
            "the child elements SDFormat reads; the link simulated with the spec's unit inertia, "
            "now principal moments "
            + " ".join(f"{v:.6g}" for v in sorted(np.linalg.eigvalsh(r.I_after)))
            + " kg*m^2"
        )
    before = " ".join(f"{v:.6g}" for v in r.moments_before)
    after = " ".join(f"{v:.6g}" for v in r.moments_after)
    change = " ".join(_pct(v) for v in r.relative_change)
    text = (
        f"{fix.link}: {r.method} ({codes}): principal moments {before} -> {after} kg*m^2 "
        f"({change} of the largest)"
    )
    if fix.mass_after != fix.mass_before:
        text += f"; <mass> {fix.mass_before:.6g} -> {fix.mass_after:.6g} kg"
    if fix.com_move > 0.0:
        text += f"; centre of mass moved {fix.com_move:.6g} m to the {fix.shapes}' centroid"
    elif fix.com_offset is not None:
        text += (
            f"; centre of mass kept, {fix.com_offset:.6g} m from the {fix.shapes}' centroid "
            "(--move-com moves it)"
        )
    return text


def describe_fix(result: FixResult) -> list[str]:
    lines = [describe_link(f) for f in result.fixed]
    lines += [f"{result.path}: {s}" for s in result.skipped]
    if not result.fixed and not result.skipped:
        lines.append(f"{result.path}: no link to repair")
    return lines
