"""``addmass --bem --waterline Z --depth D`` at each frequency (issue 24 item 9).

At zero frequency (the default) a sea bed cannot be solved (Capytaine has no finite-depth
Green function there): refused up front with one line naming the options and what works,
exit 2, nothing written. At infinite frequency a finite depth is solved: checked against an
independent Capytaine solve of a sphere's immersed half meshed by Capytaine itself. A finite
omega is refused with one line naming what to do instead.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

capytaine = pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

from gzinertia.physics.bem import FreeSurface, bem_added_mass  # noqa: E402
from gzinertia.physics.rotation import Pose  # noqa: E402
from gzinertia.records import Collision, Geometry, SourceRef  # noqa: E402

RADIUS = 0.5
DEPTH = 0.75


def _buoy(tmp_path: Path) -> Path:
    path = tmp_path / "buoy.sdf"
    path.write_text(
        sdf.model(sdf.link("b", sdf.inertial(50.0, np.eye(3), posed=False), sdf.sphere(RADIUS)))
    )
    return path


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ([], ("--depth 0.75 m with --frequency zero", "--frequency infinite")),
        (["--frequency", "zero"], ("--depth 0.75 m with --frequency zero", "--frequency infinite")),
        (["--frequency", "2.5"], ("--frequency under a free surface", "--from")),
    ],
    ids=["zero-by-default", "zero", "finite-omega"],
)
def test_depth_at_zero_or_a_finite_frequency_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
    named: tuple[str, str],
) -> None:
    path = _buoy(tmp_path)
    before = path.read_bytes()
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--waterline", "0", "--depth", str(DEPTH), *extra,
         "--in-place"], capsys,
    )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert all(n in lines[0] for n in named), lines[0]
    assert path.read_bytes() == before


def test_depth_at_infinite_frequency_against_an_independent_solve() -> None:
    """A sphere centred on the waterline, sea bed 0.75 m below, infinite frequency: every entry
    of gzinertia's result within its reported bound of Capytaine's solve of its own mesh of
    the immersed half (``mesh_sphere(...).immersed_part()``, about 3,200 panels), with the
    reference's distance to a coarser one of its own (about 1,800) added as its uncertainty."""
    collision = Collision(
        "c", Pose(np.zeros(3), np.eye(3)), Geometry("sphere", radius=RADIUS), SourceRef("b", 1)
    )
    free = FreeSurface(0.0, Pose(np.zeros(3), np.eye(3)), "infinite", DEPTH)
    result = bem_added_mass([collision], 1000.0, quality="fast", use_cache=False,
                            free_surface=free)
    assert "water depth 0.75 m" in result.fluid_domain

    def reference(n: int) -> np.ndarray:
        mesh = capytaine.mesh_sphere(radius=RADIUS, resolution=(n, 2 * n)).immersed_part()
        body = capytaine.FloatingBody(
            mesh=mesh, dofs=capytaine.rigid_body_dofs(rotation_center=(0.0, 0.0, 0.0))
        )
        solver = capytaine.BEMSolver(method="direct")
        dofs = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")
        A = np.empty((6, 6))
        for i, dof in enumerate(dofs):
            problem = capytaine.RadiationProblem(
                body=body, radiating_dof=dof, omega=np.inf, free_surface=0.0,
                water_depth=DEPTH, rho=1000.0,
            )
            added = solver.solve(problem, keep_details=False).added_mass
            A[i] = [added[d] for d in dofs]
        return 0.5 * (A + A.T)

    fine, coarse = reference(56), reference(42)
    A = result.A_BBo_B.symmetric().linear_first()
    assert np.all(np.abs(A - fine) <= result.error_bound + np.abs(fine - coarse))
    # the sea bed matters: heave differs from the deep-water solve by more than the bound
    deep = bem_added_mass([collision], 1000.0, quality="fast", use_cache=False,
                          free_surface=FreeSurface(0.0, free.X_WB, "infinite"))
    assert abs(A[2, 2] - deep.A_BBo_B.linear_first()[2, 2]) > result.error_bound[2, 2]
