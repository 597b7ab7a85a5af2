"""The picture :mod:`gzinertia.report.plot`'s drawings make: three orthographic views per row
(top x–y, side x–z, front y–z), the marks of buoyancy and the legend, with matplotlib, written
as PNG or SVG (``gzinertia plot``). Labels (G, B, link names) cover no other label
(:mod:`gzinertia.report.plot_labels`); a view without room for some says how many it left out.

Floor: rendering (imported by the plot command through :mod:`gzinertia.report`'s face only, so
that nothing else loads matplotlib).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import ConvexHull, QhullError

from gzinertia.errors import GzInertiaError

try:
    import matplotlib

    matplotlib.use("Agg")  # no display: the picture is a file (before pyplot chooses one)
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
except ImportError as exc:  # a runtime dependency: only a broken install lacks it
    raise GzInertiaError(
        f"gzinertia plot needs matplotlib, which is not importable ({exc}): "
        "`pip install matplotlib` (or reinstall gzinertia)"
    ) from None

from gzinertia.report.plot import (
    AXIS_NAMES,
    OUTLINE_LABEL,
    VIEWS,
    HydroMarks,
    LinkDrawing,
    ellipse,
    surface_trace,
)
from gzinertia.report.plot_labels import Label, place_labels
from gzinertia.vocabulary.scoped_names import split_scoped

__all__ = ["figure", "render"]


def _draw_view(ax: Any, drawings: Sequence[LinkDrawing], i: int, j: int, title: str,
               axis_length: float) -> None:
    """Draws the view (axes ``i``, ``j``) of every link: one collection per kind of mark, not
    an artist per link and mark (which cost about 30 ms and 300 KiB a link)."""
    hulls, inertia, fluid = [], [], []
    origins, tips, colours, coms = [], [], [], []
    for d in drawings:
        for pts in d.outlines:
            p2 = pts[:, [i, j]]
            try:
                hull = p2[ConvexHull(p2).vertices]
            except (QhullError, ValueError):
                hull = p2
            hulls.append(np.vstack([hull, hull[:1]]))
        if d.inertia_ellipsoid is not None:
            inertia.append(ellipse(*d.inertia_ellipsoid, i, j))
        fluid += [ellipse(centre, Q, i, j) for centre, Q in d.fluid_ellipsoids]
        o = d.X_FB.p
        for k, colour in enumerate(("tab:red", "tab:green", "tab:blue")):
            tip = o + axis_length * d.X_FB.R[:, k]
            origins.append((o[i], o[j]))
            tips.append((tip[i], tip[j]))
            colours.append(colour)
        coms.append(d.p_FoBcm_F[[i, j]])
    ax.add_collection(PolyCollection(hulls, facecolors="0.85", edgecolors="none", zorder=1))
    ax.add_collection(LineCollection(hulls, colors="0.35", linewidths=1.0, zorder=2))
    ax.add_collection(
        LineCollection(inertia, colors="tab:blue", linewidths=1.2, linestyles="--", zorder=3)
    )
    ax.add_collection(LineCollection(fluid, colors="tab:purple", linewidths=1.4, zorder=4))
    if origins:
        start, end = np.array(origins), np.array(tips)
        # Arrows in data units (from the origin to the tip), 1.5 pt wide; like the annotations
        # they replace, they do not widen the view.
        ax.quiver(start[:, 0], start[:, 1], *(end - start).T, color=colours, angles="xy",
                  scale_units="xy", scale=1.0, units="inches", width=1.5 / 72, headwidth=4,
                  headlength=5, headaxislength=4.5, zorder=5)
        com = np.array(coms)
        ax.plot(com[:, 0], com[:, 1], ls="", marker="o", ms=7, mfc="white", mec="black",
                zorder=6)
        ax.plot(com[:, 0], com[:, 1], ls="", marker="+", ms=7, color="black", zorder=7)
    ax.autoscale_view()
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(f"{AXIS_NAMES[i]} [m]")
    ax.set_ylabel(f"{AXIS_NAMES[j]} [m]")
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, lw=0.3)


def _ranges(drawings: Sequence[LinkDrawing]) -> NDArray[np.float64]:
    """The drawing's size along x, y, z (points, outlines and ellipsoid extents)."""
    pts = [d.X_FB.p[None, :] for d in drawings] + [o for d in drawings for o in d.outlines]
    pts += [d.p_FoBcm_F[None, :] for d in drawings]
    ellipsoids = [e for d in drawings for e in d.fluid_ellipsoids]
    ellipsoids += [d.inertia_ellipsoid for d in drawings if d.inertia_ellipsoid is not None]
    for centre, Q in ellipsoids:
        half = np.sqrt(np.clip(np.diag(Q), 0.0, None))
        pts += [(centre - half)[None, :], (centre + half)[None, :]]
    return np.maximum(np.ptp(np.vstack(pts), axis=0), 1e-3)


def _draw_hydro(ax: Any, marks: HydroMarks, i: int, j: int) -> list[Label]:
    """Draws the marks' G, B and waterline in the view; returns the labels of G and B."""
    labels = []
    for name, G, B in marks.centres:
        if np.all(np.isfinite(G)):
            ax.plot(G[i], G[j], marker="o", ms=6, color="black", ls="", zorder=8, gid="G")
            labels.append(Label(f"G {name}", float(G[i]), float(G[j])))
        if np.all(np.isfinite(B)):
            ax.plot(B[i], B[j], marker="^", ms=7, color="tab:cyan", mec="black", ls="",
                    zorder=8, gid="B")
            labels.append(Label(f"B {name}", float(B[i]), float(B[j])))
    if marks.waterline_z is not None and j == 2:
        ax.axhline(marks.waterline_z, color="tab:cyan", lw=1.2, ls="-.", zorder=0,
                   gid="waterline")
    elif marks.waterline_z is None and marks.surface_F is not None:
        trace = surface_trace(marks.surface_F, i, j)
        if trace is not None:
            ax.axline(trace[0], trace[1], color="tab:cyan", lw=1.2, ls="-.", zorder=0,
                      gid="waterline")
    return labels


def _link_labels(drawings: Sequence[LinkDrawing], i: int, j: int) -> list[Label]:
    """Each link's name (its last scoped part) at its centre of mass, heaviest first; none
    for a view of one link (its row's title names it)."""
    if len(drawings) < 2:
        return []
    ordered = sorted(drawings, key=lambda d: -d.mass)
    return [Label(split_scoped(d.name)[-1], float(d.p_FoBcm_F[i]), float(d.p_FoBcm_F[j]),
                  gid="link label") for d in ordered]


def _label_view(ax: Any, labels: Sequence[Label]) -> None:
    """Places the view's labels; a view that had no room for some says how many."""
    left_out = place_labels(ax, labels)
    if left_out:
        ax.text(0.01, 0.01, f"{left_out} of {len(labels)} labels left out (no room)",
                transform=ax.transAxes, fontsize=6, color="0.35", zorder=10, gid="labels left out")


def render(rows: Sequence[tuple[str, Sequence[LinkDrawing]]], out: Path,
           hydro: Sequence[HydroMarks | None] | None = None,
           inertia_label: str = "equivalent inertia ellipsoid") -> None:
    """One row of three views per entry (title, drawings), written to ``out`` (.png or .svg);
    ``hydro``: per row, the centres of mass and buoyancy and the waterline to mark;
    ``inertia_label``: the legend's words for the inertia ellipsoids (their scale)."""
    if out.suffix.lower() not in (".png", ".svg"):
        raise GzInertiaError(f"{out}: the picture must be .png or .svg")
    fig = figure(rows, hydro, inertia_label)
    # the same model gives the same bytes: no date in an SVG's metadata, and the SVG ids
    # (clip paths, markers) drawn from a fixed salt rather than a random one
    svg = out.suffix.lower() == ".svg"
    with matplotlib.rc_context({"svg.hashsalt": "gzinertia"} if svg else {}):
        fig.savefig(out, dpi=110, bbox_inches="tight", metadata={"Date": None} if svg else None)
    plt.close(fig)


def figure(rows: Sequence[tuple[str, Sequence[LinkDrawing]]],
           hydro: Sequence[HydroMarks | None] | None = None,
           inertia_label: str = "equivalent inertia ellipsoid") -> Any:
    """The matplotlib ``Figure`` :func:`render` writes (the caller closes it). Marks of
    buoyancy carry a ``gid``: ``"G"``, ``"B"``, ``"waterline"``."""
    fig = plt.figure(figsize=(13, 4.2 * len(rows) + 0.4))
    subfigures = fig.subfigures(len(rows), 1, squeeze=False)[:, 0]
    marks = list(hydro) if hydro is not None else [None] * len(rows)
    for sub, (title, drawings), mark in zip(subfigures, rows, marks, strict=True):
        size = _ranges(drawings)
        # Each view about as wide as its content is, so elongated bodies stay readable.
        widths = [float(np.clip(size[i] / size[j], 0.6, 3.0)) for i, j, _ in VIEWS]
        axes = sub.subplots(1, 3, gridspec_kw={"width_ratios": widths})
        for ax, (i, j, view) in zip(axes, VIEWS, strict=True):
            _draw_view(ax, drawings, i, j, view, 0.2 * float(size.max()))
            labels = _draw_hydro(ax, mark, i, j) if mark is not None else []
            _label_view(ax, labels + _link_labels(drawings, i, j))
        sub.suptitle(title, fontsize=10, fontweight="bold")
    legend = [
        Line2D([], [], color="0.35", lw=1.0, label=OUTLINE_LABEL),
        Line2D([], [], color="tab:blue", ls="--", label=inertia_label),
        Line2D([], [], color="tab:purple", label="fluid ellipsoid (added mass)"),
        Line2D([], [], marker="o", mfc="white", mec="black", ls="", label="centre of mass"),
        Line2D([], [], color="tab:red", label="link axes x, y, z (red, green, blue)"),
    ]
    if any(m is not None and (m.centres or m.waterline_z is not None
                              or m.surface_F is not None) for m in marks):
        legend += [
            Line2D([], [], marker="o", color="black", ls="",
                   label="G: centre of mass (model, or the row's link)"),
            Line2D([], [], marker="^", color="tab:cyan", mec="black", ls="",
                   label="B: centre of buoyancy (Gazebo)"),
            Line2D([], [], color="tab:cyan", ls="-.", label="waterline"),
        ]
    fig.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=4, fontsize=8,
               frameon=False)
    return fig
