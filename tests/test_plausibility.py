"""addmass warns, with the numbers, when a fit cannot be the body the user meant.

Each threshold is checked where the physics puts it (``gzinertia.physics.plausibility``): the density
range of materials (shared with the audit's GZI106), the buoyancy at which a body floats more
than half out of the fluid, and the added/rigid ratio of a neutrally-light flat disk; the issue's
cases (a 1e-9 kg placeholder, a nearly flat inertia, the WAM-V from the VRX corpus) warn, and a
clean twin (a neutrally buoyant ROV hull) does not.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, random_rotation
from lxml import etree
from sdf_builders import box, inertial, link, model
from sdf_builders import link as link_xml
from sdf_builders import sphere as sphere_collision

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit
from gzinertia.edit.addmass import FitChooser, add_mass
from gzinertia.physics.fits import FitMethod
from gzinertia.physics.plausibility import (
    ADDED_TO_RIGID_MAX,
    DENSITY_RANGE,
    FLOATING_RATIO,
    added_to_rigid_ratio,
)
from gzinertia.spatial.added_mass import ellipsoid_added_mass
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

RHO = 1000.0


def sdf(
    mass: float,
    inertia: tuple[float, float, float],
    collisions: str = "",
    extra_links: str = "",
) -> bytes:
    """Model ``m``: link ``body`` of this mass, principal inertia and collisions, then
    ``extra_links``."""
    return model(link("body", inertial(mass, np.diag(inertia)), collisions), extra_links).encode()


def sphere(r: float, name: str = "hull") -> str:
    return sphere_collision(r, pose=None, name=name)


def run_addmass(
    tmp_path: Path,
    data: bytes,
    fit: FitMethod = "volume",
    link: str | None = None,
    name: str = "model.sdf",
) -> tuple[Path, list[str], bytes]:
    path = tmp_path / name
    path.write_bytes(data)
    result = add_mass(
        path,
        fit_for=FitChooser(method=fit),
        density=RHO,
        pattern=link,
        upgrade_version=False,
        model_paths=[],
    )
    return path, list(result.warnings), result.new


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", text)]


def solid_sphere_inertia(mass: float, r: float) -> tuple[float, float, float]:
    return (0.4 * mass * r * r,) * 3  # type: ignore[return-value]


# --- density ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bound", [0, 1])
def test_density_outside_the_range_of_materials_warns_as_the_audit_does(
    tmp_path: Path, bound: int
) -> None:
    """A sphere of radius 0.3 m: a mass 1 % inside the density range is quiet, 1 % outside
    warns with the density, and the audit's GZI106 fires on exactly the same files."""
    r = 0.3
    volume = 4.0 / 3.0 * np.pi * r**3
    limit = DENSITY_RANGE[bound]
    outward = 0.99 if bound == 0 else 1.01
    for factor, expected in ((1.0 / outward, False), (outward, True)):
        mass = limit * factor * volume
        path, warnings, _ = run_addmass(
            tmp_path, sdf(mass, solid_sphere_inertia(mass, r), sphere(r))
        )
        density_warnings = [w for w in warnings if "mean density" in w]
        assert bool(density_warnings) == expected, warnings
        if expected:
            assert pytest.approx(mass / volume, rel=1e-3) in numbers(density_warnings[0])
        config = AuditConfig(select=("GZI106",), known_codes=frozenset(RULES))
        assert bool(audit([str(path)], config).findings) == expected


# --- added against rigid ---------------------------------------------------------------------


def test_the_ratio_is_the_largest_translational_added_mass_anywhere(
    rng: np.random.Generator,
) -> None:
    """For an ellipsoid posed anywhere in the link, the ratio is its largest Tuckerman m_A over
    the mass: the linear block does not change with the point or the axes."""
    for _ in range(20):
        semi_axes = rng.uniform(0.05, 1.0, size=3)
        m_A = np.diag(ellipsoid_added_mass_matrix(semi_axes, RHO))[:3]
        pose = Pose(rng.uniform(-2.0, 2.0, size=3), random_rotation(rng))
        _, A_BBo_B = ellipsoid_added_mass(semi_axes, RHO, pose)
        mass = float(rng.uniform(1.0, 100.0))
        ratio = added_to_rigid_ratio(mass, A_BBo_B.linear_first())
        assert ratio == pytest.approx(float(m_A.max()) / mass, rel=1e-12)


def test_the_ratio_threshold_is_a_disk_flatter_than_1_to_80_at_half_the_fluid_density() -> None:
    """The documented derivation: a disk-like ellipsoid of density ρ/2 (the lightest that does
    not float more than half out) reaches a ratio of 100 at a thickness/diameter of about 1:80;
    1:60 stays below, 1:100 is above."""
    a = 1.0
    for ratio_c, above in ((60.0, False), (80.0, None), (100.0, True)):
        c = a / ratio_c
        mass = 0.5 * RHO * 4.0 / 3.0 * np.pi * a * a * c
        A = ellipsoid_added_mass_matrix(np.array([a, a, c]), RHO)
        ratio = added_to_rigid_ratio(mass, A)
        assert ratio is not None
        if above is None:
            assert ratio == pytest.approx(ADDED_TO_RIGID_MAX, rel=0.02)
        else:
            assert (ratio > ADDED_TO_RIGID_MAX) == above, ratio


def test_a_nearly_flat_inertia_warns_with_its_30_tonnes(tmp_path: Path) -> None:
    """The issue's case: 1 kg, I = (1, 1, 2 - 1e-7) kg·m²: the inertia fit is a disk of radius
    √5 m whose heave added mass is 8/3·ρ·a³ (thin-disk limit) ≈ 29 814 kg."""
    data = sdf(1.0, (1.0, 1.0, 2.0 - 1e-7))
    _, warnings, _ = run_addmass(tmp_path, data, fit="inertia", link="body")
    (ratio_warning,) = [w for w in warnings if "largest translational added mass" in w]
    heave = 8.0 / 3.0 * RHO * np.sqrt(5.0) ** 3
    assert any(abs(x / heave - 1.0) < 1e-3 for x in numbers(ratio_warning)), ratio_warning


def test_a_placeholder_mass_warns_of_density_and_ratio(tmp_path: Path) -> None:
    """The issue's case: 1e-9 kg with I = 1e-10 kg·m²: the inertia fit is a 0.5 m sphere
    (a² = 5/(2m)·I) whose added mass ρV/2 = 262 kg is 2.6e11 times the link's."""
    _, warnings, _ = run_addmass(tmp_path, sdf(1e-9, (1e-10,) * 3), fit="inertia", link="body")
    text = "\n".join(warnings)
    volume = 4.0 / 3.0 * np.pi * 0.5**3
    assert "mean density" in text and "largest translational added mass" in text
    assert any(abs(x / (1e-9 / volume) - 1.0) < 1e-3 for x in numbers(text))
    assert any(abs(x / (RHO * volume / 2.0 / 1e-9) - 1.0) < 1e-3 for x in numbers(text))


# --- floating --------------------------------------------------------------------------------


def test_a_body_that_floats_more_than_half_out_warns(tmp_path: Path) -> None:
    """A sphere whose displaced mass is just below / above twice the model's mass; the model's
    mass counts every moving link (a heavy payload link without collisions keeps it quiet)."""
    r = 0.2
    displaced = RHO * 4.0 / 3.0 * np.pi * r**3
    for factor, expected in ((1.01, False), (0.99, True)):
        mass = displaced / FLOATING_RATIO * factor
        _, warnings, _ = run_addmass(tmp_path, sdf(mass, solid_sphere_inertia(mass, r), sphere(r)))
        floating = [w for w in warnings if "floats with" in w]
        assert bool(floating) == expected, warnings
        if expected:
            assert pytest.approx(displaced, rel=1e-3) in numbers(floating[0])
    payload = link("payload", inertial(50.0, np.eye(3)))
    mass = 0.1 * displaced
    _, warnings, _ = run_addmass(
        tmp_path, sdf(mass, solid_sphere_inertia(mass, r), sphere(r), payload)
    )
    assert not [w for w in warnings if "floats with" in w]


def wamv_from_xacro(xacro: Path) -> bytes:
    """The WAM-V base link of VRX as SDF: its collisions (the left/right macro expanded with
    ``reflect = ±1``, plus the deck) and its 180 kg inertial, read from the corpus xacro."""
    root = etree.parse(str(xacro)).getroot()
    macro = next(root.iter("{*}macro"))

    def expand(text: str, env: dict[str, object]) -> str:
        return re.sub(r"\$\{([^}]*)\}", lambda m: str(eval(m.group(1), {}, env)), text)

    def collision(c: etree._Element, env: dict[str, object]) -> str:
        origin, geometry = c.find("origin"), c.find("geometry")
        assert origin is not None and geometry is not None
        g = geometry[0]
        if g.tag == "cylinder":
            shape = (
                f"<cylinder><radius>{g.get('radius')}</radius>"
                f"<length>{g.get('length')}</length></cylinder>"
            )
        else:
            shape = f"<box><size>{g.get('size')}</size></box>"
        pose = f"{expand(origin.get('xyz', ''), env)} {expand(origin.get('rpy', ''), env)}"
        return (
            f'<collision name="{expand(c.get("name", ""), env)}"><pose>{pose}</pose>'
            f"<geometry>{shape}</geometry></collision>"
        )

    parts = [
        collision(c, {"prefix": prefix, "reflect": reflect})
        for prefix, reflect in (("left", 1), ("right", -1))
        for c in macro.findall("collision")
    ]
    link = root.find("link")
    assert link is not None
    parts += [collision(c, {}) for c in link.findall("collision")]
    inertial = link.find("inertial")
    assert inertial is not None
    mass = inertial.find("mass").get("value")  # type: ignore[union-attr]
    I = inertial.find("inertia")
    assert I is not None
    inertia = "".join(f"<{k}>{I.get(k)}</{k}>" for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
    # The inertial and collisions as the xacro writes them (values copied as text).
    base_link = link_xml("base_link", f"<inertial><mass>{mass}</mass><inertia>{inertia}</inertia>"
                         "</inertial>", *parts)
    return model(base_link, version="1.10", name="wamv").encode()


def test_the_wamv_surface_boat_warns_that_it_floats(tmp_path: Path) -> None:
    """VRX's WAM-V (180 kg): its collisions displace about 1.36 t of water, so at rest it
    floats with about 13 % of that volume in the water; addmass says so, with the numbers."""
    xacro = CORPUS / "osrf__vrx/vrx_urdf/wamv_description/urdf/wamv_base.urdf.xacro"
    if not xacro.exists():
        pytest.skip("VRX corpus not available")
    data = wamv_from_xacro(xacro)
    _, warnings, new = run_addmass(tmp_path, data, name="wamv.sdf")
    (floating,) = [w for w in warnings if "floats with" in w]
    from gzinertia.sdf import read_sdf_bytes

    link = read_sdf_bytes(data).link("wamv::base_link")
    from union_oracle import overlap, summed_volume

    # the collisions' union (they overlap: issue 24 counts the overlap once)
    displaced = RHO * (summed_volume(link.collisions) - overlap(link.collisions)[3, 3])
    assert link.inertial.mass == 180.0
    values = numbers(floating)
    assert pytest.approx(displaced, rel=1e-3) in values
    assert pytest.approx(100.0 * 180.0 / displaced, rel=1e-3) in values
    assert new != data  # the warning does not stop the edit


# --- the clean twin ----------------------------------------------------------------------------


def test_a_neutrally_buoyant_rov_hull_gives_no_warning(tmp_path: Path) -> None:
    """A 0.45 x 0.34 x 0.25 m box hull of neutral density, with the uniform box's inertia: no
    warning from any fit."""
    size = np.array([0.45, 0.34, 0.25])
    mass = RHO * float(np.prod(size))
    a, b, c = size
    inertia = (
        mass / 12 * (b * b + c * c),
        mass / 12 * (a * a + c * c),
        mass / 12 * (a * a + b * b),
    )
    hull = box(size, pose=None, name="hull")
    for fit in ("volume", "mujoco", "inertia"):
        _, warnings, _ = run_addmass(tmp_path, sdf(mass, inertia, hull), fit=fit)
        assert warnings == [], (fit, warnings)
