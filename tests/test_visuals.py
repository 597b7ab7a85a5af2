"""A link's ``<visual>`` shapes, read with its collisions (``LinkRecord.visuals``): the one
visuals reader behind GZI304, ``addmass``'s proxy warning, ``addmass --bem --geometry visual``
(GZI212) and ``fix --geometry visual``.

Oracle: libsdformat (the compiled oracle resolves each visual's ``SemanticPose()`` in its link):
visuals posed relative to the link (by default and by name), the model frame, another link, a
frame, a joint, a nested model and a frame inside it, in a model file and in a world. GZI304's
visual volume and centre of volume follow the pose libsdformat gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import findings_of
from sdf_builders import write
from sdfgen import geometry_xml, pose_xml

from gzinertia.sdf import read_sdf_file, read_sdf_string

_REFS_OUTER = (None, "l{i}", "__model__", "l{j}", "f{i}", "j{i}", "n", "n::nf", "n::__model__")
_REFS_NESTED = (None, "nl", "__model__", "nf")


def _visuals(rng: np.random.Generator, prefix: str, refs: Sequence[str | None], kind: str) -> str:
    """One ``<visual>`` of a random ``kind`` shape per entry of ``refs``, posed relative to it
    (``None``: no ``relative_to``, the pose sometimes omitted)."""
    return "".join(
        f'<visual name="{prefix}{k}">{pose_xml(rng, ref)}{geometry_xml(rng, kind, "")}</visual>'
        for k, ref in enumerate(refs)
    )


def _links(rng: np.random.Generator, count: int) -> str:
    out = []
    for i in range(count):
        j = (i + 1) % count
        refs = [None if ref is None else ref.format(i=i, j=j) for ref in _REFS_OUTER]
        visuals = _visuals(rng, "v", refs, "box")
        # Random <pose> elements (sdfgen: every form, sometimes none) as the elements' parts.
        out.append(sdf.link(f"l{i}", pose_xml(rng, "__model__" if i % 2 else None), visuals))
        out.append(sdf.frame(f"f{i}", pose_xml(rng, f"l{j}"), attached_to=f"l{i}"))
        if i:
            out.append(sdf.joint(f"j{i}", f"l{i - 1}", f"l{i}", pose_xml(rng, None),
                                 type="revolute", axis=(0, 0, 1)))
    out.append(sdf.joint("j0", "l0", "n::nl"))
    nested = _visuals(rng, "w", _REFS_NESTED, "sphere")
    out.append(sdf.nested_model(
        "n", pose_xml(rng, "l0"), sdf.link("nl", pose_xml(rng, None), nested),
        sdf.frame("nf", pose_xml(rng, None), attached_to="nl"),
    ))
    return "".join(out)


def _model_text(seed: int, in_world: bool) -> str:
    rng = np.random.default_rng(seed)
    parts = (pose_xml(rng, None), _links(rng, 3))
    if in_world:
        return sdf.world(sdf.nested_model("m", *parts), version="1.9")
    return sdf.model(*parts, version="1.9")


@pytest.mark.oracle("sdformat")
def test_visual_poses_equal_libsdformat(tmp_path: Path) -> None:
    """Every visual's ``X_BV`` equals libsdformat's ``Visual::SemanticPose()`` resolved in
    its link, whatever frame its ``<pose relative_to>`` names (4 random models, 2 of them in
    a world)."""
    from oracles.sdformat_oracle import read_with_sdformat

    paths = []
    for seed in range(4):
        path = tmp_path / f"v{seed}.sdf"
        path.write_text(_model_text(seed, in_world=seed % 2 == 1))
        paths.append(path)
    compared = 0
    for path, oracle in zip(paths, read_with_sdformat(paths), strict=True):
        assert oracle["errors"] == [], oracle["errors"]
        ours = {link.name: link for link in read_sdf_file(path).links}
        assert set(ours) == {link["name"] for link in oracle["links"]}
        for link in oracle["links"]:
            record = ours[link["name"]]
            assert record.unread_visuals == ()
            assert [v.name for v in record.visuals] == [v["name"] for v in link["visuals"]]
            for visual, expected in zip(record.visuals, link["visuals"], strict=True):
                X_BV = np.array(expected["X_BV"], dtype=float).reshape(4, 4)
                np.testing.assert_allclose(visual.X_BC.matrix(), X_BV, atol=1e-9)
                compared += 1
    assert compared == 4 * (3 * len(_REFS_OUTER) + len(_REFS_NESTED))


def test_a_visual_that_cannot_be_read_is_recorded_with_its_line() -> None:
    """A visual whose ``relative_to`` names no frame (libsdformat refuses the file) or whose
    geometry cannot be read is left out of ``visuals`` and named, with its file and line and
    why, in ``unread_visuals``; the link's other visuals and the reading stand."""
    # Inline: the lines of the input (one visual per line) are asserted.
    text = (
        '<sdf version="1.9"><model name="m"><link name="l">\n'
        '<visual name="ok"><geometry><sphere><radius>0.1</radius></sphere></geometry></visual>\n'
        '<visual name="lost"><pose relative_to="nowhere">0 0 0 0 0 0</pose><geometry>'
        "<sphere><radius>0.1</radius></sphere></geometry></visual>\n"
        '<visual name="bad"><geometry><box><size>1 -1 1</size></box></geometry></visual>\n'
        "</link></model></sdf>"
    )
    link = read_sdf_string(text, "v.sdf").links[0]
    assert [v.name for v in link.visuals] == ["ok"]
    lost, bad = link.unread_visuals
    assert (lost.name, lost.source.file, lost.source.line) == ("lost", "v.sdf", 3)
    assert "'nowhere'" in lost.reason and "no frame" in lost.reason
    assert (bad.name, bad.source.line) == ("bad", 4) and "negative" in bad.reason
    assert str(lost).startswith("v.sdf:3: visual 'lost'")


def _proxy_model(visual_ref: str, collision_ref: str, collision: str) -> str:
    """An ROV whose hull is drawn by a sphere visual posed relative to a frame attached to
    the link (60 kg over 0.0905 m^3: near water's density, so the audit judges it marine)."""
    offset = (0.05, 0.02, -0.03, 0.3, 0, 0)
    body = sdf.link(
        "body", sdf.inertial(60.0, np.diag([1.7, 2.1, 2.6]), posed=False),
        sdf.visual(sdf.sphere_geometry(0.3), offset, "hull", relative_to=visual_ref),
        sdf.collision(collision, offset, relative_to=collision_ref),
        pose=(0.3, -0.2, 0.1, 0.2, 0.1, 0.4),
    )
    mount = sdf.frame("mount", attached_to="body", pose=(0.5, 0.1, 0.2, 0, 0.4, -0.3),
                      relative_to=sdf.MODEL_FRAME)
    return sdf.model(body, mount, version="1.9", name="rov")


@pytest.mark.oracle("sdformat")
def test_gzi304_judges_a_visual_posed_relative_to_a_frame_where_libsdformat_puts_it(
    tmp_path: Path,
) -> None:
    """GZI304 compares the collisions with the visual at the pose libsdformat resolves for
    it (relative to a frame, not the link): a small proxy at the link origin is reported with
    the offset from the visual's centre (the sphere's, at libsdformat's ``X_BV``) and the
    sphere's volume; the twin whose collision is the same sphere at the same pose is not."""
    from oracles.sdformat_oracle import read_with_sdformat

    small = sdf.box_geometry((0.1, 0.1, 0.1))
    text = _proxy_model("mount", "body", small)
    path = write(tmp_path / "p", text)
    [oracle] = read_with_sdformat([path])
    assert oracle["errors"] == []
    [visual] = oracle["links"][0]["visuals"]
    p_BoVo_B = np.array(visual["X_BV"], dtype=float).reshape(4, 4)[:3, 3]
    p_BoCo_B = np.array([0.05, 0.02, -0.03])  # the collision, posed relative to the link
    found = findings_of(tmp_path / "p", text, "GZI304")
    assert len(found) == 1, found
    assert abs(found[0].values["offset"] - np.linalg.norm(p_BoVo_B - p_BoCo_B)) < 1e-9
    assert abs(found[0].values["visual_volume"] - 4.0 / 3.0 * np.pi * 0.3**3) < 1e-12
    twin = _proxy_model("mount", "mount", sdf.sphere_geometry(0.3))
    assert findings_of(tmp_path / "t", twin, "GZI304") == []


def test_fix_geometry_visual_refuses_a_link_with_an_unread_visual(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fix --geometry visual`` does not fill a link from some of its visuals: with one that
    cannot be read, the link is not repaired and the message names that visual's file and
    line; without it, the link is repaired from the others (a sphere's ``2/5·m·r²``)."""
    from conftest import run_cli

    # Inline: the message must name the lost visual's line (4) of this input.
    body = (
        '<sdf version="1.9"><model name="m"><link name="l">\n'
        "<inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz></inertia>"
        "</inertial>\n"
        '<visual name="ok"><geometry><sphere><radius>0.1</radius></sphere></geometry></visual>\n'
        "{lost}</link></model></sdf>\n"
    )
    lost = (
        '<visual name="lost"><pose relative_to="nowhere">0 0 0 0 0 0</pose><geometry>'
        "<sphere><radius>0.1</radius></sphere></geometry></visual>\n"
    )
    path = write(tmp_path / "u", body.format(lost=lost))
    args = ["fix", str(path), "--method", "geometry", "--geometry", "visual", "--in-place"]
    old = path.read_text()
    _, _, err = run_cli(args, capsys)
    assert path.read_text() == old
    assert f"{path}:4: visual 'lost'" in err and "'nowhere'" in err, err
    path.write_text(body.format(lost=""))
    code, _, err = run_cli(args, capsys)
    assert code == 0, err
    [link] = read_sdf_file(path).links
    np.testing.assert_allclose(np.diag(link.inertial.I_BBcm_B), [0.4 * 2 * 0.1**2] * 3)


def _urdf(seed: int) -> str:
    """A base with a fixed child (lumped into it) and a revolute child, visuals at random
    ``<origin>`` on each (one unnamed, one with no ``<origin>``)."""
    rng = np.random.default_rng(seed)

    def origin() -> str:
        xyz = " ".join(f"{v:.6f}" for v in rng.uniform(-0.5, 0.5, 3))
        rpy = " ".join(f"{v:.6f}" for v in rng.uniform(-np.pi, np.pi, 3))
        return f'<origin xyz="{xyz}" rpy="{rpy}"/>'

    inertial = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" '
                'ixz="0" iyz="0"/></inertial>')
    box = '<geometry><box size="0.1 0.2 0.3"/></geometry>'
    return (
        f'<robot name="r"><link name="base">{inertial}'
        f'<visual name="hull">{origin()}{box}</visual><visual>{box}</visual></link>'
        f'<joint name="j1" type="fixed"><parent link="base"/><child link="fin"/>{origin()}'
        f'</joint><link name="fin">{inertial}<visual name="finv">{origin()}{box}</visual>'
        f"<visual>{origin()}{box}</visual></link>"
        f'<joint name="j2" type="revolute"><parent link="base"/><child link="arm"/>{origin()}'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        f'<link name="arm">{inertial}<visual name="armv">{origin()}{box}</visual></link>'
        "</robot>"
    )


@pytest.mark.oracle("sdformat")
def test_urdf_visual_poses_equal_libsdformat_with_lumping(tmp_path: Path) -> None:
    """URDF visuals: each ``<origin>``, and the visuals of a link lumped through a fixed joint
    moved into the link it joins, in libsdformat's order and at its ``X_BV`` (3 random
    robots)."""
    from oracles.sdformat_oracle import read_with_sdformat

    from gzinertia.urdf import read_urdf_file

    paths = []
    for seed in range(3):
        path = tmp_path / f"r{seed}.urdf"
        path.write_text(_urdf(seed))
        paths.append(path)
    compared = 0
    for path, oracle in zip(paths, read_with_sdformat(paths), strict=True):
        assert oracle["errors"] == [], oracle["errors"]
        ours = {link.name: link for link in read_urdf_file(path, legacy=True).links}
        assert set(ours) == {link["name"] for link in oracle["links"]}
        for link in oracle["links"]:
            record = ours[link["name"]]
            assert len(record.visuals) == len(link["visuals"]) and not record.unread_visuals
            for visual, expected in zip(record.visuals, link["visuals"], strict=True):
                X_BV = np.array(expected["X_BV"], dtype=float).reshape(4, 4)
                np.testing.assert_allclose(visual.X_BC.matrix(), X_BV, atol=1e-9)
                compared += 1
    assert compared == 3 * 5
