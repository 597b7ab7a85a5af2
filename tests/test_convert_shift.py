"""`gzinertia convert` (Hydrodynamics `<iDotJ>` ⇄ `<fluid_added_mass>`) and `gzinertia shift`
(a matrix authored about another point moved to the link origin)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import CORPUS, EXAMPLES, rel_err, run_cli
from editing import assert_only_added_mass_changed

from gzinertia.edit.convert import hydro_to_sdf, sdf_to_hydro
from gzinertia.errors import GzInertiaError
from gzinertia.sdf import read_sdf_bytes, read_sdf_file
from gzinertia.sdf.fluid_added_mass import values_of
from gzinertia.spatial.added_mass import AddedMass, ellipsoid_added_mass
from gzinertia.spatial.rotation import Pose, rotation_from_rpy


def _file(tmp_path: Path, terms: dict[str, float]) -> Path:
    """The sub: a hull of 20 kg whose Hydrodynamics plugin has ``terms`` and a drag term."""
    hull = sdf.link("hull", sdf.inertial(20.0, np.diag([1.0, 2.0, 2.0]), posed=False))
    plugin = sdf.hydro_plugin("hull", {**terms, "xUabsU": -6.0})
    path = tmp_path / "sub.sdf"
    path.write_text(sdf.model(hull, plugin, version="1.10", name="sub"))
    return path


def test_fossen_derivatives_become_positive_added_mass_and_the_plugin_stops_adding_it(
    tmp_path: Path,
) -> None:
    path = _file(tmp_path, {"xDotU": -2, "yDotV": -8, "zDotW": -8, "mDotQ": -0.5,
                            "zDotQ": 0.3, "mDotW": 0.3})
    result = hydro_to_sdf(path, pattern=None, sign="auto", remove_plugin_terms=False,
                          force=False, model_paths=[])
    (item,) = result.links
    assert item.sign == "fossen"
    doc = read_sdf_bytes(result.new, str(path))
    link = doc.link("sub::hull")
    D = link.hydrodynamics[0].D_BBo_B
    assert link.inertial.A_BBo_B is not None
    assert np.array_equal(link.inertial.A_BBo_B.linear_first(), -D)
    assert link.hydrodynamics[0].disable_added_mass
    assert link.inertial.A_BBo_B.is_positive_semidefinite()


def test_round_trip_through_the_plugin_and_back(tmp_path: Path) -> None:
    path = Path(tmp_path / "rov.sdf")
    # box_rov heavier than its heave added mass (17.1 kg), so that the plugin may carry it
    # (GZI506's bound, gz-sim#1923: sdf_to_hydro leaves a link beyond it)
    text = (EXAMPLES / "box_rov" / "model.sdf").read_text()
    path.write_text(text.replace("<mass>10.9029</mass>", "<mass>20</mass>", 1))
    written = read_sdf_file(path).link("box_rov::base_link").inertial.A_BBo_B
    assert written is not None
    original = written.linear_first()
    to_plugin = sdf_to_hydro(path, pattern=None, sign="fossen", model_paths=[])
    path.write_bytes(to_plugin.new)
    moved = read_sdf_file(path).link("box_rov::base_link")
    assert moved.inertial.A_BBo_B is None
    assert not moved.hydrodynamics[0].disable_added_mass
    assert rel_err(-moved.hydrodynamics[0].D_BBo_B, original) < 1e-9
    back = hydro_to_sdf(path, pattern=None, sign="auto", remove_plugin_terms=True,
                        force=False, model_paths=[])
    path.write_bytes(back.new)
    again = read_sdf_file(path).link("box_rov::base_link")
    assert again.inertial.A_BBo_B is not None and rel_err(again.inertial.A_BBo_B.linear_first(), original) < 1e-9
    assert not any("Dot" in t for t in again.hydrodynamics[0].terms)


def test_positive_values_are_taken_as_physical(tmp_path: Path) -> None:
    path = _file(tmp_path, {"xDotU": 2, "yDotV": 8})
    (item,) = hydro_to_sdf(path, pattern=None, sign="auto", remove_plugin_terms=False,
                           force=False, model_paths=[]).links
    assert item.sign == "physical" and item.A_BBo_B.linear_first()[1, 1] == 8.0


def test_mixed_signs_are_refused_with_the_diagonal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, {"xDotU": 2, "yDotV": -8})
    status, _, err = run_cli(["convert", str(path), "--hydro-to-sdf"], capsys)
    assert status == 2 and "yDotV=-8" in err and "--sign" in err


def test_asymmetric_terms_are_symmetrised_with_a_warning(tmp_path: Path) -> None:
    path = _file(tmp_path, {"xDotU": -2, "yDotV": -8, "yDotR": -0.4, "nDotV": -0.2})
    result = hydro_to_sdf(path, pattern=None, sign="fossen", remove_plugin_terms=False,
                          force=False, model_paths=[])
    assert any("0.2" in w and "yDotR" in w for w in result.warnings)
    assert result.links[0].A_BBo_B.linear_first()[1, 5] == pytest.approx(0.3)


def test_corpus_plugins_convert_with_only_the_expected_changes(tmp_path: Path) -> None:
    src = CORPUS / "gazebosim__gz-sim/test/worlds/hydrodynamics_flags.sdf"
    if not src.is_file():
        pytest.skip("corpus not available")
    path = Path(shutil.copy(src, tmp_path / src.name))
    result = hydro_to_sdf(path, pattern=None, sign="auto", remove_plugin_terms=False,
                          force=False, model_paths=[])
    before = read_sdf_file(path)
    # gz-sim's test world of the plugin's flags: tethys and triton have their added mass off
    # (<disable_added_mass>), so Gazebo applies none of it there and converting their terms
    # would add added mass those models do not have; only daphne's is converted.
    active = [lk.name for lk in before.links
              if lk.hydrodynamics and not lk.hydrodynamics[0].disable_added_mass
              and np.any(lk.hydrodynamics[0].D_BBo_B)]
    disabled = [lk.name for lk in before.links
                if lk.hydrodynamics and lk.hydrodynamics[0].disable_added_mass]
    assert active and disabled
    assert sorted(item.link.name for item in result.links) == sorted(active)
    assert sum("is off" in w for w in result.warnings) == len(disabled)
    for name in disabled:
        assert read_sdf_bytes(result.new, str(path)).link(name).inertial.A_BBo_B is None
    after = read_sdf_bytes(result.new, str(path))
    for item in result.links:
        plugin = after.link(item.link.name).hydrodynamics[0]
        assert plugin.disable_added_mass
        A = after.link(item.link.name).inertial.A_BBo_B
        assert A is not None
        assert np.array_equal(A.linear_first(), -before.link(item.link.name).hydrodynamics[0].D_BBo_B)


def test_existing_fluid_added_mass_is_not_overwritten_without_force(tmp_path: Path) -> None:
    path = Path(shutil.copy(EXAMPLES / "box_rov" / "model.sdf", tmp_path / "rov.sdf"))
    text = path.read_text().replace(
        "<disable_added_mass>true</disable_added_mass>", "<xDotU>-1</xDotU>"
    )
    path.write_text(text)
    # a library call names the keyword argument (the command line names --force)
    with pytest.raises(GzInertiaError, match="force=True"):
        hydro_to_sdf(path, pattern=None, sign="auto", remove_plugin_terms=False,
                     force=False, model_paths=[])


# --- shift ------------------------------------------------------------------------------------

# Inline: `shift` must change only the <fluid_added_mass> lines of this layout (minimal diff).
SHIFT_MODEL = """<sdf version="1.10">
  <model name="m">
    <link name="body">
      <inertial>
        <pose>0.2 -0.1 0.05 0.3 0.2 0.1</pose>
        <mass>10</mass>
        <inertia><ixx>0.4</ixx><iyy>0.5</iyy><izz>0.6</izz></inertia>
        <fluid_added_mass>
{values}
        </fluid_added_mass>
      </inertial>
    </link>
  </model>
</sdf>
"""


def _shift_model(A: AddedMass) -> str:
    """:data:`SHIFT_MODEL` holding ``A`` as written, one entry per line."""
    values = "\n".join(f"          <{k}>{v!r}</{k}>" for k, v in values_of(A).items())
    return SHIFT_MODEL.format(values=values)


@pytest.mark.parametrize("axes", ["link", "inertial"])
def test_shift_from_the_com_gives_the_matrix_about_the_origin(
    axes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An author computed an ellipsoid's added mass about the CoM (in link or inertial axes) and
    wrote it unshifted; `shift --from com` yields what the ellipsoid gives about the origin."""
    X_BI = Pose((0.2, -0.1, 0.05), rotation_from_rpy(0.3, 0.2, 0.1))
    R = X_BI.R if axes == "inertial" else np.eye(3)
    A_authored, _ = ellipsoid_added_mass((0.5, 0.2, 0.1), 1000.0)
    path = tmp_path / "m.sdf"
    path.write_text(_shift_model(AddedMass(A_authored.linear_first(), ordering="linear-first")))
    status, _, err = run_cli(
        ["shift", str(path), "--link", "body", "--from", "com", "--axes", axes, "--in-place"],
        capsys,
    )
    assert status == 0, err
    # The ellipsoid: centred at the CoM, its axes those the author expressed the matrix in.
    _, A_BBo_B = ellipsoid_added_mass((0.5, 0.2, 0.1), 1000.0, Pose(X_BI.p, R))
    A_written = read_sdf_file(path).link("m::body").inertial.A_BBo_B
    assert A_written is not None and rel_err(A_written.linear_first(), A_BBo_B.linear_first()) < 1e-9
    # The same shift again is recognised as done (so `--check` after `--in-place` passes)...
    before = path.read_bytes()
    status, _, err = run_cli(["shift", str(path), "--link", "body", "--from", "com",
                              "--axes", axes, "--check"], capsys)
    assert status == 0 and "nothing to do" in err, err
    status, _, err = run_cli(["shift", str(path), "--link", "body", "--from", "com",
                              "--axes", axes, "--in-place"], capsys)
    assert status == 0 and path.read_bytes() == before
    # ...while moving it from another point would shift an origin matrix: refused.
    status, _, err = run_cli(["shift", str(path), "--link", "body", "--from", "0.1,0,0"], capsys)
    assert status == 2 and "already about the link origin" in err


def test_shift_changes_only_the_element(tmp_path: Path) -> None:
    from gzinertia.edit.shift import shift

    A, _ = ellipsoid_added_mass((0.5, 0.2, 0.1), 1000.0)
    path = tmp_path / "m.sdf"
    path.write_text(_shift_model(AddedMass(A.linear_first(), ordering="linear-first")))
    result = shift(path, pattern="body", point=(0.1, 0.2, 0.3), axes="link", force=False,
                   model_paths=[])
    assert_only_added_mass_changed(result.old, result.new)
