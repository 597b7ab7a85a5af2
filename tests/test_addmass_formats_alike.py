"""The added-mass edit is written once (issue 26 item 2): the same model written as SDFormat and
as URDF gets the same links skipped, in the same order and for the same reasons, the same
warnings and the same matrices (to 1e-12), whichever format carries the matrix. What differs is
only where the matrix goes (``<fluid_added_mass>``, or a Hydrodynamics ``<gazebo>`` block) and
what that implies (the SDF version note; URDF's note that the plugin applies added mass
explicitly; the wording of why a second plugin cannot be added).

Each test below pins one difference the URDF loop had before it ran the shared one
(:mod:`gzinertia.edit.added_mass_run`): links visited in file order, not largest fluid
ellipsoid first; no overlap guard (GZI210); no buoyancy-proxy, plausibility or overlap
warnings; an explicit ellipsoid written to every link; an overflow said without the link;
a plugin conflict on a named link skipped instead of refused; BEM solves whose block is only
printed to paste listed among the links written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sb
from conftest import run_cli
from urdfgen import with_macro_named_link

from gzinertia.edit.added_mass_edits import AddedMassRequest, bem_edit, ellipsoid_edit
from gzinertia.edit.addmass import FitChooser
from gzinertia.edit.addmass_bem import BemSettings
from gzinertia.edit.edit_result import Edit
from gzinertia.errors import GzInertiaError

DENSITY = 1025.0


@dataclass(frozen=True)
class Part:
    """One link of a test robot: its origin in the root link's frame (revolute joints, so
    that libsdformat lumps nothing), mass, a box collision's size (``None``: none), a cylinder
    visual ``(radius, length)`` (``None``: none), and its Hydrodynamics ``<iDotJ>`` terms."""

    name: str
    xyz: tuple[float, float, float]
    mass: float
    box: tuple[float, float, float] | None
    visual: tuple[float, float] | None = None
    plugin: dict[str, float] | None = None


def _inertia(part: Part) -> np.ndarray:
    size = part.box or (0.2, 0.2, 0.2)
    return sb.box_inertia(part.mass, size)


def _urdf(parts: Sequence[Part]) -> str:
    """The robot ``auv`` as URDF: the first part the root, the others on revolute joints."""
    out = ['<?xml version="1.0"?>', '<robot name="auv">']
    for part in parts:
        I = _inertia(part)
        out.append(f'  <link name="{part.name}">')
        out.append(f'    <inertial><mass value="{part.mass!r}"/><inertia ixx="{float(I[0, 0])!r}" '
                   f'ixy="0" ixz="0" iyy="{float(I[1, 1])!r}" iyz="0" izz="{float(I[2, 2])!r}"/></inertial>')
        if part.box is not None:
            out.append('    <collision name="c"><geometry><box size="'
                       f'{" ".join(map(repr, part.box))}"/></geometry></collision>')
        if part.visual is not None:
            out.append(f'    <visual name="v"><geometry><cylinder radius="{part.visual[0]!r}" '
                       f'length="{part.visual[1]!r}"/></geometry></visual>')
        out.append("  </link>")
    for part in parts[1:]:
        out.append(f'  <joint name="j_{part.name}" type="revolute"><parent link="{parts[0].name}"'
                   f'/><child link="{part.name}"/><origin xyz="{" ".join(map(repr, part.xyz))}"'
                   '/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                   "</joint>")
    for part in parts:
        if part.plugin is not None:
            out.append("  <gazebo>" + sb.hydro_plugin(part.name, part.plugin) + "</gazebo>")
    out.append("</robot>")
    return "\n".join(out) + "\n"


def _sdf(parts: Sequence[Part]) -> str:
    """The same robot as SDFormat 1.10: model ``auv``, the links posed in the model frame."""
    body = []
    for part in parts:
        shapes = [] if part.box is None else [sb.box(part.box)]
        if part.visual is not None:
            shapes.append(sb.visual(sb.cylinder_geometry(*part.visual)))
        body.append(sb.link(part.name, sb.inertial(part.mass, _inertia(part)), *shapes,
                            pose=(*part.xyz, 0.0, 0.0, 0.0)))
    for part in parts[1:]:
        body.append(sb.joint(f"j_{part.name}", parts[0].name, part.name, type="revolute",
                             axis=(0.0, 0.0, 1.0)))
    body += [sb.hydro_plugin(p.name, p.plugin) for p in parts if p.plugin is not None]
    return sb.model(*body, name="auv")


def _twins(tmp_path: Path, parts: Sequence[Part]) -> dict[str, Path]:
    sdf = sb.write(tmp_path / "sdf", _sdf(parts))
    urdf = tmp_path / "urdf" / "auv.urdf"
    urdf.parent.mkdir()
    urdf.write_text(_urdf(parts), encoding="utf-8")
    return {"sdf": sdf, "urdf": urdf}


#: Named in the file's order (libsdformat's URDF parser lists links by name). A hull; a link
#: inside the hull's fluid ellipsoid (GZI210: skipped); a link without a collision; a link
#: whose Hydrodynamics plugin applies added mass; a far, implausibly light link (what it
#: implies is said); a thin fin. The overlap is found last (the order links are visited in).
#: The masses are above the added mass on every axis (the plugin's explicit bound, GZI506)
#: except the light link's, which URDF alone skips (:data:`LIGHT`).
ROBOT = (
    Part("a_hull", (0.0, 0.0, 0.0), 1000.0, (2.0, 0.5, 0.4)),
    Part("b_inner", (0.3, 0.0, 0.0), 5.0, (0.2, 0.2, 0.2)),
    Part("c_bare", (0.0, -3.0, 0.0), 1.0, None),
    Part("d_tail", (-4.0, 0.0, 0.0), 5.0, (0.3, 0.3, 0.3), plugin={"xDotU": -3.0, "yDotV": -5.0}),
    Part("e_light", (0.0, 4.0, 0.0), 0.01, (0.3, 0.3, 0.3)),
    Part("f_fin", (0.0, 0.0, 3.0), 80.0, (0.6, 0.05, 0.4)),
)
#: The one difference by design: the light link's added mass exceeds its mass, where the
#: plugin's explicit scheme diverges (gz-sim#1923): URDF, which has only the plugin, skips it
#: (saying so); SDFormat's <fluid_added_mass> is applied implicitly and has no such bound.
LIGHT = "auv::e_light"


def _not_light(lines: Sequence[str]) -> list[str]:
    """``lines`` without those about the light link (:data:`LIGHT`)."""
    return [line for line in lines if LIGHT not in line]


def _edits(paths: dict[str, Path], pattern: str | None = None, **request: bool,
           ) -> dict[str, Edit[object]]:
    return {fmt: ellipsoid_edit(AddedMassRequest(path, pattern, **request),  # type: ignore[arg-type]
                                FitChooser("volume"), DENSITY)
            for fmt, path in paths.items()}


def _without_plugin_wording(skipped: Sequence[str]) -> list[str]:
    """Skips as said, the plugin conflict's reason cut to its link (its wording is the
    format's: on URDF the matrix would be a second plugin, on SDF it would sit beside it)."""
    return [s.split(": ")[0] + ": <plugin>" if "count it twice" in s else s for s in skipped]


def _matrices(edit: Edit[object]) -> dict[str, np.ndarray]:
    return {o.link.name: o.A_BBo_B.linear_first() for o in edit.links}  # type: ignore[attr-defined]


def test_the_same_links_are_skipped_in_the_same_order_for_the_same_reasons(
    tmp_path: Path,
) -> None:
    """Largest fluid ellipsoid first on both (the URDF loop went in file order and had no
    overlap guard: ``inner`` got a matrix inside the hull's)."""
    edits = _edits(_twins(tmp_path, ROBOT))
    sdf, urdf = edits["sdf"], edits["urdf"]
    for skipped in (sdf.skipped, _not_light(urdf.skipped)):  # no geometry first, then as
        # visited: the plugin's, the overlap
        assert [s.split(": ")[0] for s in skipped] == ["auv::c_bare", "auv::d_tail",
                                                       "auv::b_inner"], skipped
    assert _without_plugin_wording(_not_light(urdf.skipped)) == _without_plugin_wording(
        sdf.skipped)
    assert [s for s in urdf.skipped if LIGHT in s and "gz-sim#1923" in s]


def test_the_same_links_get_the_same_matrices(tmp_path: Path) -> None:
    """The same links written, in the file's order, with the same ``A_BBo_B`` to 1e-12."""
    edits = _edits(_twins(tmp_path, ROBOT))
    sdf, urdf = _matrices(edits["sdf"]), _matrices(edits["urdf"])
    assert list(sdf) == ["auv::a_hull", LIGHT, "auv::f_fin"]
    assert list(urdf) == ["auv::a_hull", "auv::f_fin"]
    for name, A in urdf.items():
        assert np.max(np.abs(sdf[name] - A)) <= 1e-12 * np.max(np.abs(A)), name


def test_the_same_warnings_plausibility_and_overlap(tmp_path: Path) -> None:
    """The plausibility warnings (implied density, added against rigid, the model's displaced
    mass) and, with the overlap allowed, the overlap written: the same on both (the URDF loop
    said none of them)."""
    paths = _twins(tmp_path, ROBOT)
    edits = _edits(paths)
    assert edits["sdf"].warnings
    assert _not_light(edits["urdf"].warnings) == _not_light(edits["sdf"].warnings)
    assert any(LIGHT in w for w in edits["sdf"].warnings)
    allowed = _edits(paths, allow_overlap=True)
    assert any("counts twice" in w for w in allowed["sdf"].warnings)
    assert _not_light(allowed["urdf"].warnings) == _not_light(allowed["sdf"].warnings)
    assert "auv::b_inner" in _matrices(allowed["urdf"])


def test_the_same_buoyancy_proxy_warning(tmp_path: Path) -> None:
    """A thin slab collision under a cylinder visual (gz-sim's tutorial's proxy, GZI304): both
    warn that the added mass was fitted to the proxy (the URDF loop did not)."""
    parts = (Part("body", (0.0, 0.0, 0.0), 250.0, (1.0, 1.0, 0.01), visual=(0.2, 2.0)),)
    edits = _edits(_twins(tmp_path, parts))
    proxy = [w for w in edits["sdf"].warnings if "buoyancy proxy" in w]
    assert proxy and [w for w in edits["urdf"].warnings if "buoyancy proxy" in w] == proxy


def test_an_overflow_names_the_link_alike(tmp_path: Path) -> None:
    """Added mass beyond what a file may hold: the same refusal, naming the link's file and
    line (the URDF loop wrote the block and failed reading its own output back)."""
    paths = _twins(tmp_path, ROBOT[:1])
    said = {}
    for fmt, path in paths.items():
        with pytest.raises(GzInertiaError) as caught:
            ellipsoid_edit(AddedMassRequest(path), FitChooser("volume"), 1e306)
        message = str(caught.value)
        assert message.startswith(f"{path}:") and "nothing written" in message, message
        said[fmt] = message.split("of link 'a_hull' cannot be written", 1)[1]
    assert said["urdf"] == said["sdf"]


def test_an_explicit_ellipsoid_needs_one_link_on_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ellipsoid --semi-axes`` is one ellipsoid for one link: refused on both when several
    are selected (the URDF loop wrote it to every link)."""
    said = {}
    for fmt, path in _twins(tmp_path, ROBOT).items():
        before = path.read_bytes()
        status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--semi-axes", "1,0.3,0.2",
                                  "--in-place"], capsys)
        assert status == 2 and err.count("\n") == 1 and path.read_bytes() == before, err
        said[fmt] = err.split(str(path), 1)[1]
    assert said["urdf"] == said["sdf"]


def test_a_named_link_whose_plugin_applies_added_mass_is_refused_on_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--link d_tail`` on a link whose plugin applies added mass: an error in one line naming
    the plugin's file (the URDF loop skipped it and wrote nothing, exit 0)."""
    for path in _twins(tmp_path, ROBOT).values():
        status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "d_tail",
                                  "--in-place"], capsys)
        assert status == 2 and "count it twice" in err and f"{path}:" in err, err


def test_bem_lists_the_links_written_as_the_ellipsoid_does(tmp_path: Path) -> None:
    """A xacro link made by a macro gets its block to paste, in the warnings: it is not among
    the links written, by the BEM solve as by the ellipsoid fit (the URDF BEM listed it)."""
    pytest.importorskip("capytaine")
    pytest.importorskip("manifold3d")
    path = tmp_path / "auv.urdf.xacro"
    path.write_text(with_macro_named_link(_urdf(ROBOT[:1]), "auv", "a_hull"), encoding="utf-8")
    request = AddedMassRequest(path)
    for edit in (ellipsoid_edit(request, FitChooser("volume"), DENSITY),
                 bem_edit(request, BemSettings(DENSITY, panel_size=0.3, use_cache=False))):
        assert edit.links == () and edit.new == edit.old
        assert any("not written literally" in w for w in edit.warnings), edit.warnings
