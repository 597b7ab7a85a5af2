"""``addmass --ellipsoid`` records its fit in the comment before ``<fluid_added_mass>``, and the
audit judges the matrix against that fit of the link as it is now (GZI204's centre, GZI207's
magnitude), not against the default volume fit: each fit is a legitimate estimate with its own
centre and size, and the tool must not call its own output a mistake.

Oracles: the fits themselves (:func:`gzinertia.physics.fits.fit_link`, checked against MuJoCo,
Drake and closed forms elsewhere), the exact change of point (DESIGN.md §4), and the audit's
verdict before and after each edit.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli
from sdf_builders import added_mass_xml

from gzinertia.audit.runner import audit
from gzinertia.edit.addmass import provenance
from gzinertia.physics.bem_provenance import format_provenance
from gzinertia.physics.fit_provenance import parse_fit_provenance
from gzinertia.physics.fits import FIT_METHODS, explicit_fit, fit_link
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.added_mass import AddedMass

#: A flat cone (MuJoCo's ellipsoid of it: semi-axes r, r, 3L/4 about its centroid, three times
#: its volume and more) beside a sphere: the mujoco fit's added mass is centred on the other
#: side of the link origin from the collisions' volume centroid. Found by a search over cones
#: and spheres; GZI204 fired after `addmass --ellipsoid --fit mujoco` before the audit read the
#: fit back.
CONE_AND_SPHERE = sdf.model(sdf.link(
    "body", sdf.inertial(50.0, 2.0 * np.eye(3), posed=False),
    sdf.collision(
        sdf.cylinder_geometry(0.5545137376349965, 0.07177608216531157, kind="cone"),
        (0.02287141060801734, -0.03253129369167701, -0.35012033668009956, 0, 0, 0), "c0"),
    sdf.sphere(0.19305359625547275,
               (0.11306253531150001, 0.28210627078452544, 0.07435281448342723, 0, 0, 0), "c1"),
), version="1.11")

#: (:func:`ballasted`) A box hull whose centre of mass (ballast) sits off the origin: the inertia fit's ellipsoid
#: is centred there, the collision centroid at the origin.
def ballasted(com_x: float) -> str:
    """The box hull with its centre of mass ``com_x`` along x."""
    return sdf.model(sdf.link(
        "body", sdf.inertial(20.0, np.diag([0.3, 0.4, 0.5]), com=(com_x, 0, 0)),
        sdf.box((0.8, 0.3, 0.2), pose=None, name="hull"),
    ), version="1.11")


def _codes(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in audit([str(path)]).findings:
        out.setdefault(f.code, []).append(f.message)
    return out


def _written(path: Path) -> tuple[np.ndarray, str]:
    link = read_sdf_bytes(path.read_bytes(), str(path), []).links[0]
    assert link.inertial.A_BBo_B is not None and link.inertial.added_mass_comment
    return link.inertial.A_BBo_B.linear_first(), link.inertial.added_mass_comment


def _rewrite_matrix(path: Path, A_BBo_B: np.ndarray) -> None:
    """The file with its ``<fluid_added_mass>`` replaced by ``A_BBo_B``, the comment kept (a
    hand edit under the tool's comment)."""
    text = path.read_text()
    new = re.sub(r"<fluid_added_mass>.*?</fluid_added_mass>", added_mass_xml(A_BBo_B), text,
                 flags=re.S)
    assert new != text
    path.write_text(new)


def test_the_comment_reads_back_every_fit(tmp_path: Path) -> None:
    """The comment ``addmass`` writes names the fit (every method) and the density; an explicit
    ellipsoid's numbers read back to the 6 digits written; BEM comments and others are no fit."""
    path = tmp_path / "m.sdf"
    path.write_text(ballasted(0.2))
    link = read_sdf_bytes(path.read_bytes(), str(path), []).links[0]
    for method in FIT_METHODS:
        fit = (
            explicit_fit((0.4, 0.2, 0.123456789), (0.1, -0.2, 0.05), (0.3, -0.1, 2.0))
            if method == "explicit"
            else fit_link(link, method)
        )
        parsed = parse_fit_provenance(provenance(fit, 1025.0))
        assert parsed is not None and (parsed.method, parsed.density) == (method, 1025.0)
        if method == "explicit":
            assert parsed.explicit is not None
            np.testing.assert_allclose(np.concatenate(parsed.explicit),
                                       [0.4, 0.2, 0.123456789, 0.1, -0.2, 0.05, 0.3, -0.1, 2.0],
                                       rtol=5e-6)
    bem = format_provenance(capytaine_version="2", method="direct", panels=10,
                            frequency="zero", fluid_domain="unbounded fluid", relative_error=0.01,
                            collisions=["hull"], digest="sha256:0", density=1000.0)
    assert parse_fit_provenance(bem) is None and parse_fit_provenance("my own numbers") is None


def test_mujoco_fit_of_a_cone_beside_a_sphere_adds_no_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`addmass --ellipsoid --fit mujoco` then audit: no GZI204, since the matrix is judged
    against the mujoco fit its comment names. The same numbers without the comment (a matrix
    of unknown origin) are judged against the collisions' centroid and do draw GZI204, so the
    comment, not a blanket exemption, is what clears them."""
    path = tmp_path / "m.sdf"
    path.write_text(CONE_AND_SPHERE)
    assert "GZI204" not in _codes(path)
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--fit", "mujoco",
                            "--in-place"], capsys)
    assert code == 0, err
    assert "GZI204" not in _codes(path)
    A, _ = _written(path)
    link = read_sdf_bytes(path.read_bytes(), str(path), []).links[0]
    np.testing.assert_allclose(A, fit_link(link, "mujoco").added_mass(1000.0).linear_first(),
                               rtol=1e-8, atol=1e-8 * np.max(np.abs(A)))
    without = re.sub(r"<!--[^>]*gzinertia addmass[^>]*-->", "", path.read_text())
    assert "gzinertia addmass" not in without
    path.write_text(without)
    assert "GZI204" in _codes(path)


def test_a_stale_inertia_fit_is_reported_against_that_fit_and_recomputed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The inertia fit is centred at the centre of mass. Written there, the audit is silent.
    Move the ballast to the other side of the origin and the matrix is centred where the
    inertia fit no longer is: GZI204 names that fit and suggests recomputing it with
    ``--fit inertia``; running the suggestion clears it."""
    path = tmp_path / "m.sdf"
    path.write_text(ballasted(0.3))
    before = _codes(path)
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--fit", "inertia",
                            "--in-place"], capsys)
    assert code == 0, err
    assert set(_codes(path)) <= set(before)
    text = path.read_text()
    assert text.count("<pose>0.3 0.0 0.0") == 1
    path.write_text(text.replace("<pose>0.3 0.0 0.0", "<pose>-0.3 0.0 0.0"))
    [message] = _codes(path)["GZI204"]
    assert "inertia fit its comment names" in message and "--fit inertia" in message
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--fit", "inertia",
                            "--in-place"], capsys)
    assert code == 0, err
    assert "GZI204" not in _codes(path)


def test_a_hand_edit_under_the_comment_is_still_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The comment is not an exemption: the inertia fit's matrix moved 0.6 m (the exact
    change of point, as if computed about another point) under the same comment draws GZI204;
    the same fit multiplied by 100 (wrong units) draws GZI207 against that fit's estimate."""
    path = tmp_path / "m.sdf"
    path.write_text(ballasted(0.3))
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--fit", "inertia",
                            "--in-place"], capsys)
    assert code == 0, err
    A, _ = _written(path)
    written = AddedMass(A, ordering="linear-first")
    _rewrite_matrix(path, written.shift(np.array([0.6, 0.0, 0.0]), "Bo").linear_first())
    assert "GZI204" in _codes(path)
    _rewrite_matrix(path, 100.0 * A)
    [message] = _codes(path)["GZI207"]
    assert "inertia fit its comment names" in message
