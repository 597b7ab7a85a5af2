"""The library's ``fix``, ``addmass_bem``, ``addmass_from`` and ``read(..., xacro_args=)``.

Each library edit is checked against the command it stands for (the same file's bytes from
``-o OUT``, the same per-link numbers as ``--json``) and against what the tool promises after
it (the audit reports none of the repaired codes); a xacro's arguments and package paths are
checked by what they change in the links read.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

import gzinertia

ROOT = Path(__file__).resolve().parent.parent
DEFECTS = ROOT / "sdf_examples/defects"


def cli_output(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The text ``gzinertia ARGS -o OUT`` writes."""
    out = tmp_path / f"cli_{len(list(tmp_path.iterdir()))}{''.join(Path(args[1]).suffixes)}"
    status, _, err = run_cli([*args, "-o", str(out)], capsys)
    assert status == 0, err
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [DEFECTS / "triangle_inequality/model.sdf",
                                  DEFECTS / "urdf_lumped_invalid_inertia/model.urdf"],
                         ids=["sdf", "urdf"])
def test_fix_returns_the_text_the_command_writes_and_its_per_link_changes(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixed = gzinertia.fix(path)
    assert fixed.text == cli_output(["fix", str(path)], tmp_path, capsys)
    status, out, _ = run_cli(["fix", str(path), "--check", "--json"], capsys)
    assert status == 1  # the file would change
    (report,) = json.loads(out)
    assert len(report["links"]) == len(fixed.links) > 0
    for entry, change in zip(report["links"], fixed.links, strict=True):
        assert entry["name"] == change.link and entry["codes"] == list(change.codes)
        assert entry["principal_moments"]["after"] == change.repair.moments_after.tolist()
        assert entry["relative_change"] == change.repair.relative_change.tolist()
        assert entry["I_BBcm_I"]["after"] == change.repair.I_after.tolist()
        assert entry["mass"] == {"before": change.mass_before, "after": change.mass_after}
    # what was fixed is fixed: the audit of the new text reports none of those codes
    written = tmp_path / f"fixed{''.join(path.suffixes)}"
    written.write_text(fixed.text, encoding="utf-8")
    codes = {c for change in fixed.links for c in change.codes}
    assert not gzinertia.audit_paths(written, codes=codes)
    # a second fix changes nothing
    assert gzinertia.fix(written).text == fixed.text


def test_fix_arguments_are_checked_without_option_names() -> None:
    path = DEFECTS / "triangle_inequality/model.sdf"
    for kwargs in ({"method": "nearest", "density": 1000.0}, {"method": "geometry",
                   "density": 1.0, "mass": 1.0}, {"method": "guess"},
                   {"method": "geometry", "mass": -1.0}, {"xacro_args": {"a": "1"}}):
        with pytest.raises(ValueError) as exc:
            gzinertia.fix(path, **kwargs)  # type: ignore[arg-type]
        assert "--" not in str(exc.value)


#: A link with a negative moment (GZI103).
NOT_POSITIVE = sdf.model(
    sdf.link("a", sdf.inertial(2.0, np.diag([-0.1, 0.2, 0.2]), posed=False)), version="1.10")


def test_fix_warns_about_the_links_it_does_not_repair(tmp_path: Path) -> None:
    """``balance`` repairs GZI104 (and GZI109) only: a link whose moment is negative (GZI103)
    is left as written and named in a :class:`GzInertiaWarning`, as the command names it."""
    path = tmp_path / "m.sdf"
    path.write_text(NOT_POSITIVE)
    with pytest.warns(gzinertia.GzInertiaWarning, match=r"m::a: GZI103 not repaired"):
        fixed = gzinertia.fix(path, method="balance")
    assert fixed.links == () and fixed.text == NOT_POSITIVE
    with pytest.raises(ValueError, match="repairs GZI104, GZI109 only"):
        gzinertia.fix(path, method="balance", select=["GZI103"])
    repaired = gzinertia.fix(path, method="nearest")
    assert [(c.link, c.codes) for c in repaired.links] == [("m::a", ("GZI103",))]


XACRO = """<?xml version="1.0"?>
<robot name="rov" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="mass" default="10"/>
  <xacro:include filename="$(find rov_parts)/urdf/hull.xacro"/>
  <xacro:hull name="base_link" mass="$(arg mass)"/>
</robot>
"""
HULL = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="hull" params="name mass">
    <link name="${name}">
      <inertial><mass value="${mass}"/>
        <inertia ixx="${mass/12*(0.25+0.09)}" ixy="0" ixz="0" iyy="${mass/12*(1+0.09)}" iyz="0"
                 izz="${mass/12*(1+0.25)}"/></inertial>
      <collision><geometry><box size="1 0.5 0.3"/></geometry></collision>
    </link>
  </xacro:macro>
</robot>
"""


def _xacro_package(tmp_path: Path) -> tuple[Path, Path]:
    parts = tmp_path / "ws/rov_parts"
    (parts / "urdf").mkdir(parents=True)
    (parts / "package.xml").write_text("<package><name>rov_parts</name></package>")
    (parts / "urdf/hull.xacro").write_text(HULL)
    model = tmp_path / "rov.urdf.xacro"
    model.write_text(XACRO)
    return model, tmp_path / "ws"


def test_read_takes_xacro_arguments_and_package_paths(tmp_path: Path) -> None:
    """The argument sets the mass, and the inertia the macro computes from it scales with it
    (a box's moments are linear in the mass); ``package_paths`` finds ``$(find rov_parts)``."""
    model, ws = _xacro_package(tmp_path)
    default = gzinertia.read(model, package_paths=[ws]).link("rov::base_link")
    heavier = gzinertia.read(model, package_paths=[ws], xacro_args={"mass": "12.5"}).link(
        "rov::base_link")
    assert default.inertial.mass == 10.0 and heavier.inertial.mass == 12.5
    np.testing.assert_allclose(heavier.M_BBcm_B.angular_first(),
                               1.25 * default.M_BBcm_B.angular_first(), rtol=1e-12)
    with pytest.raises(gzinertia.GzInertiaError, match="rov_parts"):
        gzinertia.read(model)  # the package is nowhere to be found
    with pytest.raises(ValueError, match="xacro"):
        gzinertia.read(DEFECTS / "triangle_inequality/model.sdf", xacro_args={"mass": "1"})


def test_read_gives_the_links_show_reads_for_a_xacro_with_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, ws = _xacro_package(tmp_path)
    doc = gzinertia.read(model, package_paths=[ws], xacro_args={"mass": "7"})
    status, out, err = run_cli(["show", str(model), "--json", "--package-path", str(ws),
                                "--xacro-arg", "mass:=7"], capsys)
    assert status == 0, err
    shown = json.loads(out)
    links = shown["links"] if isinstance(shown, dict) else shown[0]["links"]
    assert [(x["name"], x["mass"]) for x in links] == [
        (lk.name, lk.inertial.mass) for lk in doc.links]


# --- the WAMIT import: a non-dimensional matrix, the CLI's text -----------------------------


def _wamit_file(tmp_path: Path) -> Path:
    """A WAMIT ``.1`` file at infinite frequency (PER = 0) of a symmetric positive definite
    non-dimensional 6x6 (any such matrix serves: the oracle is the command)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(6, 6))
    A = X @ X.T + 6.0 * np.eye(6)
    path = tmp_path / "hull.1"
    path.write_text("".join(f"  0.000000E+00 {i + 1} {j + 1} {A[i, j]: .6E}\n"
                            for i in range(6) for j in range(6)))
    return path


def test_addmass_from_returns_the_text_the_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "box_rov.sdf"
    path.write_text((ROOT / "sdf_examples/box_rov/model.sdf").read_text(encoding="utf-8"))
    result = _wamit_file(tmp_path)
    text = gzinertia.addmass_from(path, result, link="box_rov::base_link",
                                  about=(0.1, 0.0, -0.05), axes_rpy=(0.0, 0.0, 0.3),
                                  frequency="infinite", density=1025.0, wamit_length=0.5).text
    assert text == cli_output(
        ["addmass", str(path), "--from", str(result), "--link", "box_rov::base_link",
         "--about", "0.1,0,-0.05", "--axes", "0,0,0.3", "--frequency", "infinite",
         "--density", "1025", "--wamit-length", "0.5"], tmp_path, capsys)
    assert text != path.read_text(encoding="utf-8")


# --- BEM --------------------------------------------------------------------------------------


def test_addmass_bem_without_capytaine_raises_the_install_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The library raises the hint the command prints (the extra to install), naming the
    function where the command names its flag (gzinertia.options)."""
    from gzinertia.physics import bem_solve
    from gzinertia.physics.bem import INSTALL_HINT, BemUnavailableError

    monkeypatch.setattr(bem_solve, "cpt", None)  # imported at the top, None when missing
    path = ROOT / "sdf_examples/spar_buoy/model.sdf"
    with pytest.raises(BemUnavailableError) as exc:
        gzinertia.addmass_bem(path)
    assert str(exc.value) == INSTALL_HINT.format(what="gzinertia.addmass_bem")
    assert isinstance(exc.value, gzinertia.GzInertiaError)
    status, _, err = run_cli(["addmass", str(path), "--bem", "--check"], capsys)
    assert status == 2 and INSTALL_HINT.format(what="--bem") in err
    assert "pip install 'gzinertia[bem]'" in str(exc.value)


SPHERE = sdf.model(sdf.link(
    "body", sdf.inertial(50.0, 0.5 * np.eye(3), posed=False), sdf.sphere(0.2, None, "hull"),
), version="1.10", name="ball")


@pytest.mark.oracle("capytaine")
def test_addmass_bem_returns_the_text_the_command_writes_and_each_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sphere: the command's text, and the solve it reports: the sphere's added mass is
    ρV/2 on each translation (the closed form), and the solve says how far off it may be (its
    per-entry error estimate covers the true error)."""
    path = tmp_path / "ball.sdf"
    path.write_text(SPHERE)
    with pytest.warns(gzinertia.GzInertiaWarning, match="discretisation error"):
        result = gzinertia.addmass_bem(path, density=1025.0, quality="fast")
    assert result.text == cli_output(
        ["addmass", str(path), "--bem", "--quality", "fast", "--density", "1025"], tmp_path,
        capsys)
    (solved,) = result.links
    assert solved.link.name == "ball::body"
    from gzinertia.physics.bem import BemResult

    bem = solved.result
    assert isinstance(bem, BemResult)
    half_displaced = 1025.0 * 4.0 / 3.0 * np.pi * 0.2**3 / 2.0
    error = np.abs(np.diag(bem.A_BBo_B.linear_first())[:3] - half_displaced)
    assert np.all(error <= np.diag(bem.error_bound)[:3])


def test_addmass_on_a_urdf_writes_the_block_the_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """URDF has no ``<fluid_added_mass>``: the library writes the ``<gazebo>`` Hydrodynamics
    block ``addmass --ellipsoid`` writes, byte for byte."""
    path = tmp_path / "boat.urdf"
    path.write_text(
        '<robot name="boat"><link name="hull"><inertial><mass value="100"/>'
        '<inertia ixx="15" ixy="0" ixz="0" iyy="15" iyz="0" izz="1"/></inertial>'
        '<collision><geometry><cylinder radius="0.15" length="1.2"/></geometry></collision>'
        "</link></robot>\n")
    text = gzinertia.addmass(path, density=1025.0).text
    assert text == cli_output(["addmass", str(path), "--ellipsoid", "--density", "1025"],
                              tmp_path, capsys)
    assert "Hydrodynamics" in text and text != path.read_text(encoding="utf-8")
