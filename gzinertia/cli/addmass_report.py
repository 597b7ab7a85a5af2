"""What ``gzinertia addmass`` prints on stderr (stdout is kept for ``--diff``): each link's
fitted ellipsoids, boundary-element solve or imported matrix (``A_BBo_B``: about the link
origin Bo in link axes B, linear-first ``[x y z p q r]``), then what was skipped, noted and
warned."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.cli.edit_report import report_outcome
from gzinertia.edit.addmass import LinkAddedMass
from gzinertia.physics.bem import BemResult

if TYPE_CHECKING:

    from gzinertia.edit.addmass_bem import LinkBem
    from gzinertia.edit.edit_result import Edit
    from gzinertia.spatial.added_mass import AddedMass

__all__ = ["report_bem", "report_fit", "report_import"]


def report_import(name: str, result: Path, A: AddedMass, notes: Sequence[str] = ()) -> None:
    """The matrix imported from ``result`` for link ``name`` (``A_BBo_B``: about the link
    origin Bo in link axes B): its diagonal, linear-first ``[x y z p q r]``; the import's
    ``notes``."""
    print(
        f"{name}: imported from {result}; A_BBo_B diag [x y z p q r] "
        + " ".join(f"{v:.4g}" for v in np.diag(A.linear_first())),
        file=sys.stderr,
    )
    for note in notes:
        print(f"note: {note}", file=sys.stderr)


def report_bem(solved: Sequence[LinkBem], element: str) -> None:
    """Each link's solve: the shapes of ``element`` meshed, panels, error estimate, density,
    time (or cached), the diagonal of ``A_BBo_B`` (about the link origin Bo in link axes B,
    linear-first ``[x y z p q r]``), where it floats (``--waterline auto``), geometry notes."""
    for item in solved:
        r = item.result
        assert isinstance(r, BemResult)
        A = r.A_BBo_B.linear_first()
        print(
            f"{item.link.name}: BEM (Capytaine {r.capytaine_version}, direct), {element}s "
            f"{', '.join(item.collisions)}, {r.panels} "
            + ("panels" if r.closed_panels is None else "wetted panels")
            + f" (error estimate from {r.coarse_panels}): {100.0 * r.relative_error:.2g} %, "
            f"{r.density:g} kg/m^3, "
            + ("cached" if r.cached else f"{r.seconds:.1f} s"),
            file=sys.stderr,
        )
        print(
            "  A_BBo_B diag [x y z p q r] " + " ".join(f"{v:.4g}" for v in np.diag(A)),
            file=sys.stderr,
        )
        if item.floating is not None:  # --waterline auto: where it floats
            print(f"  {r.fluid_domain}", file=sys.stderr)
        for note in item.geometry_notes:  # what the geometry pipeline did (a hull, a repair)
            print(f"  geometry of {note}", file=sys.stderr)


def _of_collisions(names: str | None) -> str:
    """`` (collision a)`` / `` (collisions a, b)`` for an ellipsoid fitted to named collisions."""
    if not names:
        return ""
    parts = names.split("+")
    return f" (collision{'s' if len(parts) > 1 else ''} {', '.join(parts)})"


def report_fit(result: Edit[Any], written: bool = False) -> None:
    """Each ellipsoid-fitted link (other outcomes are said by their command): its fit (its
    ellipsoids' semi-axes and centres in the link frame), the diagonal and largest
    off-diagonal entry of ``A_BBo_B`` (about the link origin Bo in link axes B, linear-first
    ``[x y z p q r]``); then what was skipped, noted and warned, and a line when nothing was
    ``written``."""
    err = sys.stderr
    for item in result.links:
        if not isinstance(item, LinkAddedMass):
            continue
        A = item.A_BBo_B.linear_first()
        print(f"{item.link.name}: {item.fit.description}, {item.density:g} kg/m^3", file=err)
        for e in item.fit.ellipsoids:
            print(
                "  ellipsoid semi-axes "
                + " ".join(f"{v:.4g}" for v in e.semi_axes)
                + " m, centre "
                + " ".join(f"{v:.4g}" for v in e.X_FE.p)
                + " m in the link frame"
                + _of_collisions(e.label),
                file=err,
            )
        print(
            "  A_BBo_B diag [x y z p q r] "
            + " ".join(f"{v:.4g}" for v in np.diag(A))
            + f"; max |off-diagonal| {float(np.max(np.abs(A - np.diag(np.diag(A))))):.4g}",
            file=err,
        )
    report_outcome(result)
    if not result.links and not written:
        print(f"{result.path}: no link to write added mass for", file=err)
