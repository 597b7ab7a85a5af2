"""Issue 24 items 1 and 5: a link's exact volume and centre are the union of its collisions,
not their sum (overlaps displace water once); Gazebo's numbers stay Gazebo's (the sum).

Oracles: closed forms. Two boxes overlapping along x whose union is one box (its volume, centre
and graded-fluid buoyancy by hand); a cylinder with a sphere of its radius centred on one end
(the union is the cylinder and a hemisphere); separate shapes, whose sum is the union.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

from gzinertia.physics.hydrostatics import link_hydrostatics
from gzinertia.records import BuoyancyWorld, Collision, Geometry, Inertial, LinkRecord, SourceRef
from gzinertia.spatial.rotation import Pose

pytest.importorskip("manifold3d")

HERE = SourceRef("union.sdf", 1)
G = 9.81


def _link(*collisions: Collision) -> LinkRecord:
    return LinkRecord("m::body", "m", Pose(), Inertial(mass=1.0), collisions, HERE)


def _box(name: str, size: tuple[float, float, float], p: tuple[float, float, float]) -> Collision:
    return Collision(name, Pose(np.asarray(p, float)), Geometry("box", size=size), HERE)


def _two_boxes() -> LinkRecord:
    """Boxes [0, 1] and [0.5, 2] along x, 1 m in y and z: their union is the box [0, 2]."""
    return _link(_box("a", (1.0, 1.0, 1.0), (0.5, 0.0, 0.5)),
                 _box("b", (1.5, 1.0, 1.0), (1.25, 0.0, 0.5)))


def test_overlapping_boxes_exact_volume_and_centre_are_the_union() -> None:
    """Exact: the union box's 2 m³ at x = 1 (the sum would be 2.5 m³ at x = 0.95); Gazebo's:
    the sum, with both sides said."""
    hs = link_hydrostatics(_two_boxes(), BuoyancyWorld("uniform", 1000.0, g_W=(0.0, 0.0, -G)))
    assert hs.volume_exact == pytest.approx(2.0, rel=1e-12)
    assert np.allclose(hs.p_BoBv_B_exact, [1.0, 0.0, 0.5], rtol=0, atol=1e-12)
    assert hs.volume == pytest.approx(1.0 + 1.5, rel=1e-15)  # Gazebo sums the collisions
    assert float(np.linalg.norm(hs.f_W_exact)) == pytest.approx(1000.0 * 2.0 * G, rel=1e-12)
    assert hs.volume_exact_note is not None and "'a', 'b' overlap" in hs.volume_exact_note


def test_overlapping_boxes_in_a_graded_fluid_are_sliced_once() -> None:
    """A layer of 1.5 kg/m³ above z = 0.3 over 1000 kg/m³: the union box's buoyancy by hand
    (0.6 m³ below the layer, 1.4 m³ above), and its centre on the slabs' centres."""
    fluid = BuoyancyWorld("graded", 1000.0, ((0.3, 1.5),), g_W=(0.0, 0.0, -G))
    hs = link_hydrostatics(_two_boxes(), fluid)
    below, above = 2.0 * 0.3, 2.0 * 0.7
    w_below, w_above = 1000.0 * below * G, 1.5 * above * G
    assert float(hs.f_W_exact[2]) == pytest.approx(w_below + w_above, rel=1e-9)
    z = (w_below * 0.15 + w_above * 0.65) / (w_below + w_above)
    assert np.allclose(hs.p_WB_exact, [1.0, 0.0, z], rtol=0, atol=1e-9)


def test_a_sphere_over_a_cylinder_end_counts_the_hemisphere_inside_once() -> None:
    """A cylinder (r, L) along z and a sphere of radius r centred on its top face: the union
    is the cylinder and a hemisphere, πr²L + 2πr³/3, its centroid by the hemisphere's 3r/8;
    the overlap (the other hemisphere) is measured on tessellations, so to 1e-4 here."""
    r, L = 0.2, 1.0
    cylinder = Collision("tube", Pose(), Geometry("cylinder", radius=r, length=L), HERE)
    sphere = Collision("dome", Pose(np.array([0.0, 0.0, L / 2])), Geometry("sphere", radius=r),
                       HERE)
    hs = link_hydrostatics(_link(cylinder, sphere), BuoyancyWorld("uniform", 1000.0))
    V_cyl, V_hemi = math.pi * r * r * L, 2.0 * math.pi * r**3 / 3.0
    V = V_cyl + V_hemi
    z = V_hemi * (L / 2 + 3.0 * r / 8.0) / V
    assert hs.volume_exact == pytest.approx(V, rel=1e-4)
    assert np.allclose(hs.p_BoBv_B_exact, [0.0, 0.0, z], rtol=0, atol=1e-4 * L)
    assert hs.volume == pytest.approx(V_cyl + 2.0 * V_hemi, rel=1e-15)  # Gazebo's sum


def test_separate_collisions_are_summed_exactly_and_not_noted() -> None:
    """Shapes apart: the sum is the union, to the bit, and nothing is said."""
    link = _link(_box("a", (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)),
                 _box("b", (1.0, 1.0, 1.0), (3.0, 0.0, 0.0)))
    hs = link_hydrostatics(link, BuoyancyWorld("uniform", 1000.0))
    assert hs.volume_exact == 2.0 and hs.volume_exact_note is None


def test_the_union_is_said_in_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hydrostatics`` prints Gazebo's volume beside the exact union's and says why; the JSON
    carries the note and calls the volume exact."""
    path = tmp_path / "union.sdf"
    path.write_text(sdf.model(sdf.link(
        "body", sdf.inertial(1000.0, np.eye(3), posed=False),
        sdf.box((1.0, 1.0, 1.0), (0.5, 0, 0.5, 0, 0, 0), "a"),
        sdf.box((1.5, 1.0, 1.0), (1.25, 0, 0.5, 0, 0, 0), "b"),
    )))
    code, out, err = run_cli(["hydrostatics", str(path)], capsys)
    assert code == 0, err
    assert "Gazebo's volume 2.5 m^3, exact 2 m^3" in out, out
    assert "overlap" in out
    code, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
    assert code == 0, err
    link = json.loads(out)["models"][0]["links"][0]
    assert link["volume_exact"] == pytest.approx(2.0, rel=1e-12)
    assert link["volume_exact_kind"] == "exact"
    assert "overlap" in link["volume_exact_note"]
