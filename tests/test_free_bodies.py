"""Free bodies: links joined by joints move together, links with no joint between them apart
(the mooring float and its sinker in one model). The grouping against Drake's floating bases
and scipy's connected components; the hydrostatics of each body against closed forms; GZI301
and GZI302 judging each free body (defect files and their joined twins)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import findings_of
from conftest import run_cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gzinertia.physics.bodies import free_bodies

RHO, G = 1000.0, 9.8
UNIFORM = sdf.buoyancy_plugin(RHO)


def sphere_link(name: str, radius: float, mass: float, z: float, com_z: float = 0.0,
                x: float = 0.0) -> str:
    """A sphere of ``radius`` at ``(x, 0, z)`` (unit inertia), G ``com_z`` above its centre."""
    return sdf.link(name, sdf.inertial(mass, np.eye(3), com=(0, 0, com_z)),
                    sdf.sphere(radius, pose=None), pose=(x, 0, z, 0, 0, 0))


def joint(name: str, kind: str, parent: str, child: str) -> str:
    """A joint of ``kind`` about y."""
    return sdf.joint(name, parent, child, type=kind, axis=(0, 1, 0))


def sphere_volume(r: float) -> float:
    return 4.0 / 3.0 * math.pi * r**3


# ---------------------------------------------------------------------------------------------
# The grouping


def _drake_floating_bases(text: str) -> set[str]:
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(text, "sdf")
    plant.Finalize()
    return {plant.get_body(i).name() for i in plant.GetFloatingBaseBodies()}


@pytest.mark.oracle("pydrake")
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(-1, n - 1), st.integers(0, n - 1),
                       st.sampled_from(["revolute", "fixed", "prismatic"])), max_size=n))))
@example((3, []))
@example((3, [(0, 1, "revolute"), (1, 2, "revolute")]))
@example((4, [(-1, 3, "fixed"), (2, 1, "ball")]))
def test_free_bodies_are_drakes_floating_bases(case: tuple[int, list[tuple[int, int, str]]]
                                               ) -> None:
    """Random forests of links (each link the child of at most one joint, no loops, some
    joined to the world): our unanchored bodies' roots are the bodies Drake gives a floating
    base, and every link's body is its connected component (scipy)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n, raw = case
    names = [f"l{i}" for i in range(n)]
    joints: list[tuple[str, str, str]] = []
    has_parent: set[int] = set()
    up = list(range(n))

    def find(i: int) -> int:
        while up[i] != i:
            i = up[i]
        return i

    for parent, kid, kind in raw:
        if kid in has_parent or parent == kid:
            continue
        if parent >= 0 and find(parent) == find(kid):
            continue  # Drake needs a forest
        has_parent.add(kid)
        if parent >= 0:
            up[find(kid)] = find(parent)
        joints.append((kind, "world" if parent < 0 else names[parent], names[kid]))
    bodies = free_bodies(names, joints)
    links = "".join(sphere_link(name, 0.1, 1.0, i) for i, name in enumerate(names))
    js = "".join(joint(f"j{k}", kind, p, c) for k, (kind, p, c) in enumerate(joints))
    text = sdf.model(links, js, version="1.10")
    free_roots = {root for root, anchored in bodies.values() if not anchored}
    assert free_roots == _drake_floating_bases(text)
    edges = [(names.index(p), names.index(c)) for _, p, c in joints if p != "world"]
    rows = [a for a, _ in edges]
    cols = [b for _, b in edges]
    graph = coo_matrix((np.ones(len(edges)), (rows, cols)), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    for i in range(n):
        for j in range(n):
            same = bodies[names[i]][0] == bodies[names[j]][0]
            assert same == (label[i] == label[j])


def test_reader_gives_each_link_its_body(tmp_path: Path) -> None:
    """Through the SDF reader: joints naming nested models (their first link) and frames (the
    link they are attached to) join bodies; a joint to the world anchors one."""
    from gzinertia.sdf.reader import read_sdf_file

    text = sdf.model(
        sphere_link("a", 0.1, 1.0, 0), sphere_link("b", 0.1, 1.0, 1),
        sdf.frame("fb", attached_to="b"),
        sdf.nested_model("n", sphere_link("c", 0.1, 1.0, 2)),
        sphere_link("d", 0.1, 1.0, 3), sphere_link("e", 0.1, 1.0, 4),
        joint("j1", "revolute", "a", "fb"), joint("j2", "ball", "b", "n"),
        joint("j3", "revolute", "world", "d"),
        version="1.10",
    )
    path = tmp_path / "m.sdf"
    path.write_text(text)
    links = {link.name: link for link in read_sdf_file(path).links}
    assert {links[n].body for n in ("m::a", "m::b", "m::n::c")} == {"m::a"}
    assert not links["m::a"].body_anchored
    assert links["m::d"].body == "m::d" and links["m::d"].body_anchored
    assert links["m::e"].body == "m::e" and not links["m::e"].body_anchored


# ---------------------------------------------------------------------------------------------
# Hydrostatics per body (closed forms: a sphere's volume at its centre)

R_FLOAT, R_SINK = 0.3, 0.1
M_FLOAT = 0.5 * RHO * sphere_volume(R_FLOAT)           # half its displacement: rises
M_SINK = RHO * (sphere_volume(R_FLOAT) + sphere_volume(R_SINK)) - M_FLOAT  # the sum neutral


def mooring(joined: str = "") -> str:
    """A float above its sinker in one model, in a uniform-fluid world; the model as a whole
    is exactly neutral, each of them is not (unless ``joined`` joins them)."""
    buoy = sdf.nested_model("buoy", sphere_link("float", R_FLOAT, M_FLOAT, 0.0),
                            sphere_link("sinker", R_SINK, M_SINK, -2.0), joined,
                            pose=(0, 0, -10, 0, 0, 0))
    return sdf.world(UNIFORM, buoy, version="1.10")


def test_json_bodies_of_a_float_and_its_sinker(tmp_path: Path, capsys) -> None:
    path = tmp_path / "w.sdf"
    path.write_text(mooring())
    code, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
    assert code == 0, err
    (m,) = json.loads(out)["models"]
    assert m["name"] == "buoy" and m["net"] == pytest.approx(0.0, abs=1e-9)  # the sum hovers
    assert [b["name"] for b in m["bodies"]] == ["buoy::float", "buoy::sinker"]
    for b, r, mass, z in ((m["bodies"][0], R_FLOAT, M_FLOAT, -10.0),
                          (m["bodies"][1], R_SINK, M_SINK, -12.0)):
        V = sphere_volume(r)
        assert b["links"] == [b["name"]] and not b["anchored"]
        assert b["volume"] == pytest.approx(V, rel=1e-12)
        assert b["buoyancy"] == pytest.approx(RHO * V * G, rel=1e-12)
        assert b["weight"] == pytest.approx(mass * G, rel=1e-12)
        assert b["net_percent"] == pytest.approx(100 * (RHO * V - mass) / mass, rel=1e-9)
        assert b["p_WB"] == pytest.approx([0.0, 0.0, z], abs=1e-12)
    assert m["flotation"] is None  # several free bodies: no waterline of the whole


def test_json_chain_joined_by_revolute_joints_is_one_body(tmp_path: Path, capsys) -> None:
    """Three spheres in a chain of revolute joints: one body, the model's numbers."""
    links = "".join(sphere_link(f"s{i}", 0.1 * (i + 1), 1.0, -2.0 * i) for i in range(3))
    js = joint("j0", "revolute", "s0", "s1") + joint("j1", "revolute", "s1", "s2")
    path = tmp_path / "w.sdf"
    path.write_text(sdf.world(UNIFORM, sdf.nested_model("chain", links, js), version="1.10"))
    code, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
    assert code == 0, err
    (m,) = json.loads(out)["models"]
    (b,) = m["bodies"]
    assert b["name"] == "chain" and b["links"] == [f"chain::s{i}" for i in range(3)]
    V = [sphere_volume(0.1 * (i + 1)) for i in range(3)]
    assert b["volume"] == pytest.approx(sum(V), rel=1e-12)
    z_B = sum(v * -2.0 * i for i, v in enumerate(V)) / sum(V)
    assert b["p_WB"] == pytest.approx([0.0, 0.0, z_B], abs=1e-12)
    for key in ("mass", "volume", "buoyancy", "weight", "p_WG", "p_WB"):
        assert b[key] == m[key]


def test_gzi302_judges_each_free_body_and_the_joined_twin(tmp_path: Path) -> None:
    """Unjoined, the float rises and the sinker sinks (each beyond 5 %), though the model's
    sum is neutral; joined by a ball joint (a mooring line), the body hovers: no finding."""
    found = findings_of(tmp_path / "d", mooring(), "GZI302")
    by_body = {f.values["body"]: f for f in found}
    assert set(by_body) == {"buoy::float", "buoy::sinker"}
    for body, r, mass in (("buoy::float", R_FLOAT, M_FLOAT), ("buoy::sinker", R_SINK, M_SINK)):
        expected = 100 * (RHO * sphere_volume(r) - mass) / mass
        assert by_body[body].values["net_percent"] == pytest.approx(expected, rel=1e-9)
        assert body in by_body[body].message
    twin = mooring(joint("line", "ball", "float", "sinker"))
    assert findings_of(tmp_path / "c", twin, "GZI302") == []
    # held by a joint to the world: not a free body, not judged
    held = mooring(joint("anchor", "revolute", "world", "sinker")
                   + joint("line", "ball", "sinker", "float"))
    assert findings_of(tmp_path / "h", held, "GZI302") == []


def pair(joined: str) -> str:
    """Two neutral spheres side by side in a model file: the first with G 0.1 r above its
    centre (unstable alone), the second with G 0.5 r below (stable); their sum is stable."""
    r = 0.2
    m = RHO * sphere_volume(r)
    return sdf.model(sphere_link("top", r, m, 0.0, 0.1 * r),
                     sphere_link("keel", r, m, 0.0, -0.5 * r, x=1.0), joined,
                     version="1.10", name="rov")


def test_gzi301_judges_each_free_body_and_the_joined_twin(tmp_path: Path) -> None:
    found = findings_of(tmp_path / "d", pair(""), "GZI301")
    assert [f.values["body"] for f in found] == ["rov::top"]
    r = 0.2
    assert found[0].values["z_B_minus_z_G"] == pytest.approx(-0.1 * r, rel=1e-9)
    V = sphere_volume(r)
    assert found[0].values["restoring_stiffness"] == pytest.approx(RHO * V * G * -0.1 * r,
                                                                   rel=1e-9)
    twin = pair(joint("j", "revolute", "top", "keel"))
    assert findings_of(tmp_path / "c", twin, "GZI301") == []


GRADED = sdf.buoyancy_plugin(default=RHO, changes=[(0.0, 0.0)])  # water below z = 0, air above


def barge(name: str, x: float, com_z: float) -> str:
    """A 2 × 1 × 1 m box of half the water's density (draft 0.5 m), G ``com_z`` above its
    centre."""
    m = 0.5 * RHO * 2.0
    return sdf.link(name, sdf.inertial(m, np.eye(3), com=(0, 0, com_z)),
                    sdf.box((2, 1, 1), pose=None), pose=(x, 0, 0, 0, 0, 0))


def test_gzi303_judges_each_floating_body(tmp_path: Path) -> None:
    """Two barges in one model, no joint: the top-heavy one capsizes (box closed form
    GM_T = d/2 + B²/(12d) - KG), the other is stable; only the first is reported."""
    text = sdf.world(GRADED, sdf.nested_model("pair", barge("tall", 0.0, 0.45),
                                              barge("low", 5.0, -0.3)), version="1.10")
    found = findings_of(tmp_path / "d", text, "GZI303")
    assert [f.values["body"] for f in found] == ["pair::tall"]
    d, B, KG = 0.5, 1.0, 0.5 + 0.45
    assert found[0].values["GM_T"] == pytest.approx(d / 2 + B**2 / (12 * d) - KG, rel=1e-9)


def urdf_arm(world: bool) -> str:
    """A neutral sphere with G above its centre, hinged to the world (``world`` root) or free."""
    m = RHO * sphere_volume(0.3)
    hinge = ('<link name="world"/><joint name="j0" type="revolute"><parent link="world"/>'
             '<child link="a"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" '
             'velocity="1"/></joint>') if world else ""
    return (f'<robot name="arm">{hinge}<link name="a"><inertial><origin xyz="0 0 0.05"/>'
            f'<mass value="{m!r}"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
            '</inertial><collision><geometry><sphere radius="0.3"/></geometry></collision>'
            "</link></robot>")


def test_urdf_body_hinged_to_the_world_is_not_judged(tmp_path: Path) -> None:
    """URDF is one tree: one body, anchored when its root is ``world``; GZI301 judges the free
    sphere (B 5 cm below G) and not the hinged one."""
    from audit_helpers import run
    from sdf_builders import write

    def gzi301(folder: Path, text: str) -> list[object]:
        result = run([write(folder, text, "arm.urdf")])
        assert not result.files_with("error"), result.files
        return [f for f in result.findings if f.code == "GZI301"]

    found = gzi301(tmp_path / "free", urdf_arm(False))
    assert [f.values["body"] for f in found] == ["arm"]  # type: ignore[attr-defined]
    assert gzi301(tmp_path / "hinged", urdf_arm(True)) == []


def test_text_output_lists_each_free_body(tmp_path: Path, capsys) -> None:
    path = tmp_path / "w.sdf"
    path.write_text(mooring())
    code, out, err = run_cli(["hydrostatics", str(path)], capsys)
    assert code == 0, err
    assert "model buoy:" in out and "several free bodies (below)" in out
    float_line = next(line for line in out.splitlines() if "body buoy::float:" in line)
    sinker_line = next(line for line in out.splitlines() if "body buoy::sinker:" in line)
    assert float_line.endswith("rises") and sinker_line.endswith("sinks")
