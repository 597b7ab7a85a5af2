"""``addmass`` skips links whose collisions are a placeholder (UUV Simulator's 1e-6 m dummy
cylinders, kept so that Gazebo classic keeps the link), by the audit's one definition
(:func:`gzinertia.physics.placeholder.is_placeholder`), saying so per link, unless ``--link``
names them (issue 24).

Oracles: the cylinders' closed-form volume ``π r² L`` in the message; the audit of the edited
file has no finding the original had not; the placeholder links' ``<fluid_added_mass>`` absent
(skipped) or present (named).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import run
from conftest import run_cli

from gzinertia.sdf import read_sdf_bytes

DUMMY_R = DUMMY_L = 1e-6
DUMMIES = ("imu_link", "dvl_link", "pressure_link")
HULL = (0.8, 0.4, 0.3)


def _rov() -> str:
    mass = 1000.0 * float(np.prod(HULL))
    parts = [sdf.link("base_link", sdf.inertial(mass, sdf.box_inertia(mass, HULL)),
                      sdf.box(HULL, None, "hull"))]
    for name in DUMMIES:
        parts.append(sdf.link(name, sdf.inertial(0.01, 1e-6 * np.eye(3)),
                              sdf.cylinder(DUMMY_R, DUMMY_L, None, "dummy")))
        parts.append(sdf.joint(f"{name}_joint", "base_link", name))
    return sdf.model(*parts, name="rov")


def _written(path: Path) -> set[str]:
    """The links of ``path`` that carry ``<fluid_added_mass>``."""
    links = read_sdf_bytes(path.read_bytes(), str(path), []).links
    return {lk.name for lk in links if lk.inertial.A_BBo_B is not None}


def _findings(path: Path) -> set[tuple[str, str | None]]:
    return {(f.code, f.link) for f in run([path]).findings}


@pytest.mark.parametrize("method", ["--ellipsoid", "--bem"])
def test_placeholder_links_are_skipped_and_said(
    method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if method == "--bem":
        pytest.importorskip("capytaine")
        pytest.importorskip("manifold3d")
    path = sdf.write(tmp_path, _rov())
    before = _findings(path)
    extra = ["--panel-size", "0.2", "--no-cache"] if method == "--bem" else []
    code, _, err = run_cli(["addmass", str(path), method, *extra, "--in-place"], capsys)
    assert code == 0, err
    volume = math.pi * DUMMY_R**2 * DUMMY_L
    for name in DUMMIES:
        said = (f"skipped rov::{name}: its collisions enclose {volume:.3g} m^3, negligible "
                "(below 1e-09 m^3")
        assert said in err, err
        assert "--link computes it anyway" in err
    assert _written(path) == {"rov::base_link"}
    after = _findings(path)
    assert after <= before, after - before


def test_a_named_placeholder_link_is_computed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = sdf.write(tmp_path, _rov())
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "rov::imu_link",
                            "--in-place"], capsys)
    assert code == 0, err
    assert not re.search(r"skipped rov::imu_link", err), err
    assert _written(path) == {"rov::imu_link"}


def _urdf() -> str:
    # the hull's own inertia, above its added inertia (GZI506's bound for the plugin)
    inertia = '<inertia ixx="2" ixy="0" ixz="0" iyy="5.84" iyz="0" izz="6.4"/>'
    thruster = (
        '<link name="thruster_0"><inertial><mass value="0.5"/>'
        '<inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>'
        f'<collision><geometry><cylinder radius="{DUMMY_R}" length="{DUMMY_L}"/></geometry>'
        "</collision></link>"
        '<joint name="thruster_0_joint" type="continuous"><parent link="base_link"/>'
        '<child link="thruster_0"/><axis xyz="1 0 0"/></joint>'
    )
    return (
        '<?xml version="1.0"?><robot name="rov"><link name="base_link"><inertial>'
        f'<mass value="96"/>{inertia}</inertial><collision><geometry>'
        f'<box size="{HULL[0]} {HULL[1]} {HULL[2]}"/></geometry></collision></link>'
        f"{thruster}</robot>"
    )


def test_a_urdf_thruster_with_a_dummy_collision_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """UUV Simulator's idiom: a thruster link on a continuous joint with a 1e-6 m cylinder."""
    path = tmp_path / "rov.urdf"
    path.write_text(_urdf())
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert code == 0, err
    volume = math.pi * DUMMY_R**2 * DUMMY_L
    assert f"skipped rov::thruster_0: its collisions enclose {volume:.3g} m^3, negligible" in err
    text = path.read_text()
    assert "<link_name>base_link</link_name>" in text
    assert "<link_name>thruster_0</link_name>" not in text


def test_a_thin_disk_of_little_volume_is_a_body_not_a_speck() -> None:
    """A 1 m disk 1 nm thick encloses 7.9e-10 m³, below the placeholder volume, but its added
    mass normal to it is 8/3 ρ a³ (333 kg in water): it is not skipped; a 1 µm cylinder is."""
    from gzinertia.physics.placeholder import placeholder_note
    from gzinertia.sdf import read_sdf_string

    disk = sdf.link("disk", sdf.collision(sdf.cylinder_geometry(0.5, 1e-9)))
    speck = sdf.link("speck", sdf.collision(sdf.cylinder_geometry(1e-6, 1e-6)))
    doc = read_sdf_string(sdf.model(disk + speck))
    notes = {link.name.split("::")[-1]: placeholder_note(link) for link in doc.links}
    assert notes["disk"] is None
    assert notes["speck"] is not None and "negligible" in notes["speck"]
