"""Seconds per link of ``addmass --bem`` against panel count, and the default-quality figures.

Run: ``python benchmarks/bench_bem.py [--quick] [--corpus]``

1. The 0.45 x 0.34 x 0.25 m box (a small ROV frame) meshed at several panel sizes: panel counts
   of the two solves, seconds (meshing + both solves, no cache), the estimated discretisation
   error the tool reports.
2. The box at each ``--quality`` (the figure the issue asks for: default under 30 s on 2 cores).
3. ``--corpus``: the marine collision meshes of the corpus (``$GZINERTIA_CORPUS`` or
   ``../shared/corpus``) at default quality, or why each is refused.
4. ``--hemisphere``: a sphere of radius 0.5 m centred on the waterline at each quality and both
   frequency limits: wetted panels solved, seconds, the true error of the entry the mirror images
   fix (surge at zero, heave at infinite frequency: ``ρπa³/3``), the bound reported on it, and
   the one figure reported (docs/bem.md, *The error under a free surface*).
5. ``--child``: what running the native meshing in a limited child costs
   (:mod:`gzinertia.physics.mesh_sandbox`): the meshing step of the box (and of the corpus's
   blueboat hull, a 2,600-triangle STL, with ``--corpus``) in this process, in a forked child,
   and through the helper process (other threads running), against the two solves it precedes.

The machine description (CPU, cores, load) is printed first: the BEM is dense linear algebra,
O(N²) memory and O(N²)-O(N³) time, and other processes on a shared machine slow it down.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from common import REPO, machine_description, print_table

from gzinertia.errors import GzInertiaError
from gzinertia.physics.bem import QUALITY_PANELS, bem_added_mass
from gzinertia.physics.free_surface import FreeSurface
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose

BOX = Collision("frame", Pose(), Geometry("box", size=(0.45, 0.34, 0.25)), SourceRef("box", 1))
CORPUS_MESHES = (
    "ArduPilot__SITL_Models/Gazebo/models/blueboat/meshes/blueboat_hull_collision.stl",
    "ArduPilot__SITL_Models/Gazebo/models/catamaran/meshes/hull_left_collision.stl",
    "srmainwaring__asv_wave_sim/gz-waves-models/models/duck/meshes/duck_collision.stl",
    "Field-Robotics-Lab__dave/models/dave_robot_models/models/glider_slocum/mesh/"
    "COLLISION-Slocum-Glider.dae",
)


def _timed(collisions: list[Collision], **kwargs: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = bem_added_mass(collisions, 1000.0, use_cache=False, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer panel sizes")
    parser.add_argument("--corpus", action="store_true", help="also the corpus's marine meshes")
    parser.add_argument(
        "--hemisphere", action="store_true", help="also the floating hemisphere (free surface)"
    )
    parser.add_argument(
        "--child", action="store_true", help="only the cost of meshing in a limited child"
    )
    args = parser.parse_args()
    if args.child:
        for line in machine_description(["capytaine", "manifold3d"]):
            print(line)
        _child(args.corpus)
        return
    for line in machine_description(["capytaine", "manifold3d"]):
        print(line)

    sizes = (0.06, 0.04) if args.quick else (0.08, 0.06, 0.045, 0.035, 0.028, 0.022)
    rows = []
    for h in sizes:
        secs, r = _timed([BOX], panel_size=h)
        rows.append(
            (
                f"{h:g}",
                r.panels,
                r.coarse_panels,
                f"{secs:.1f}",  # type: ignore[attr-defined]
                f"{100 * r.relative_error:.2g} %",
            )
        )  # type: ignore[attr-defined]
    print("\n0.45 x 0.34 x 0.25 m box, seconds for both solves (no cache):")
    print_table(("panel size m", "panels", "coarse panels", "seconds", "error estimate"), rows)

    rows = []
    for quality in QUALITY_PANELS:
        if args.quick and quality == "fine":
            continue
        secs, r = _timed([BOX], quality=quality)
        diag = " ".join(f"{v:.4g}" for v in np.diag(r.A_BBo_B.linear_first()))  # type: ignore[attr-defined]
        rows.append(
            (
                quality,
                r.panels,
                f"{secs:.1f}",  # type: ignore[attr-defined]
                f"{100 * r.relative_error:.2g} %",
                diag,
            )
        )  # type: ignore[attr-defined]
    print("\nthe box at each --quality:")
    print_table(("quality", "panels", "seconds", "error estimate", "diag [x y z p q r]"), rows)

    if args.corpus:
        corpus = Path(os.environ.get("GZINERTIA_CORPUS", REPO.parent / "shared" / "corpus"))
        rows = []
        for rel in CORPUS_MESHES:
            path = corpus / rel
            geometry = Geometry("mesh", mesh_uri=rel, mesh_path=str(path))
            collision = Collision("hull", Pose(), geometry, SourceRef(rel, 1))
            try:
                secs, r = _timed([collision], quality="default")
            except GzInertiaError as exc:
                rows.append((Path(rel).name, "-", "-", f"refused: {str(exc)[-90:]}"))
                continue
            rows.append(
                (
                    Path(rel).name,
                    r.panels,
                    f"{secs:.1f}",  # type: ignore[attr-defined]
                    f"{100 * r.relative_error:.2g} %",
                )
            )  # type: ignore[attr-defined]
        print("\ncorpus collision meshes at default quality:")
        print_table(("mesh", "panels", "seconds", "error estimate / why refused"), rows)

    if args.hemisphere:
        _hemisphere(quick=args.quick)


def _hemisphere(quick: bool) -> None:
    import math

    a, rho = 0.5, 1000.0
    exact = rho * math.pi * a**3 / 3.0  # half the sphere's, by mirror images
    sphere = [Collision("hull", Pose(), Geometry("sphere", radius=a), SourceRef("buoy", 1))]
    rows = []
    for quality in QUALITY_PANELS:
        if quick and quality == "fine":
            continue
        for frequency, i in (("zero", 0), ("infinite", 2)):
            fs = FreeSurface(0.0, Pose(), frequency)  # type: ignore[arg-type]
            start = time.perf_counter()
            r = bem_added_mass(sphere, rho, quality=quality, use_cache=False, free_surface=fs)
            secs = time.perf_counter() - start
            A = r.A_BBo_B.linear_first()
            rows.append(
                (
                    quality,
                    frequency,
                    r.panels,
                    f"{secs:.1f}",
                    f"{100 * abs(A[i, i] - exact) / exact:.2f} %",
                    f"{100 * r.error_bound[i, i] / exact:.2f} %",
                    f"{100 * r.relative_error:.2g} %",
                )
            )
    print("\nfloating hemisphere a = 0.5 m (no cache):")
    print_table(
        ("quality", "frequency", "wetted panels", "seconds", "entry error", "bound on it",
         "reported"),
        rows,
    )


def _child(corpus: bool) -> None:
    """Milliseconds of one link's meshing step (panel size for the default quality, fine and
    coarse surfaces) in this process, in a forked child and through the helper, and of the two
    solves that follow it."""
    import statistics

    from gzinertia.physics import mesh_sandbox
    from gzinertia.physics.bem_meshes import mesh_link
    from gzinertia.physics.bem_solve import solve_surface
    from gzinertia.physics.mesh_sandbox import run_meshing

    links = [("box 0.45 x 0.34 x 0.25 m", [BOX])]
    if corpus:
        root = Path(os.environ.get("GZINERTIA_CORPUS", REPO.parent / "shared" / "corpus"))
        rel = CORPUS_MESHES[0]
        hull = Geometry("mesh", mesh_uri=rel, mesh_path=str(root / rel))
        links.append(("blueboat hull (STL)", [Collision("hull", Pose(), hull, SourceRef(rel, 1))]))
    rows = []
    for label, shapes in links:
        step_args = (shapes, None, QUALITY_PANELS["default"], None, "collision", "l")

        def median_ms(run: object, repeat: int = 7) -> float:
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                run()  # type: ignore[operator]
                times.append(time.perf_counter() - start)
            return 1e3 * statistics.median(times)

        mesh_sandbox._HELPER.stop()
        start = time.perf_counter()
        run_meshing(mesh_link, step_args, label, fork=False)
        first_helper = 1e3 * (time.perf_counter() - start)
        in_process = median_ms(lambda: mesh_link(*step_args))  # noqa: B023
        forked = median_ms(lambda: run_meshing(mesh_link, step_args, label, fork=True))  # noqa: B023
        helped = median_ms(lambda: run_meshing(mesh_link, step_args, label, fork=False))  # noqa: B023
        _, meshes = mesh_link(*step_args)
        start = time.perf_counter()
        solve_surface(meshes.fine, 1000.0)
        solve_surface(meshes.coarse, 1000.0)
        solve_ms = 1e3 * (time.perf_counter() - start)
        rows.append((label, meshes.fine.panels, f"{in_process:.0f}", f"{forked - in_process:+.0f}",
                     f"{helped - in_process:+.0f}", f"{first_helper:.0f}", f"{solve_ms:.0f}",
                     f"{100 * (forked - in_process) / solve_ms:.2g} %"))
    print("\nmeshing step of one link at default quality, median of 7 (ms):")
    print_table(("link", "panels", "in process", "forked child", "helper", "helper start",
                 "both solves", "child / solves"), rows)


if __name__ == "__main__":
    main()
