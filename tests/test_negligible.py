"""Round-off written as 0, judged within units (kg, kg·m, kg·m²), never kg·m² against kg.

The writer zeroes an entry when its contribution to the kinetic energy (added mass) or to the
wrench (damping), at motions with ``v = ω·ℓ`` for the matrix's own length ``ℓ``, is below 1e-12
of the largest (``gzinertia.physics.negligible``). The tests check what that rule promises: entries
that are physics are kept however small they are in SI units, round-off of rotations is still
zeroed, and the decision does not depend on the unit of length.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import random_rotation, random_spd6
from hypothesis import given, settings
from hypothesis import strategies as st
from sdf_builders import hydro_plugin, inertial, link, model

from gzinertia.edit.hydro import term_scales
from gzinertia.edit.links import fluid_added_mass_lines
from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES
from gzinertia.physics.negligible import RELATIVE_ZERO, entry_scales
from gzinertia.sdf.fluid_added_mass import SDF_AXES
from gzinertia.spatial.added_mass import AddedMass, ellipsoid_added_mass
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

#: Length exponent of each entry of a linear-first 6x6 (0 kg, 1 kg·m, 2 kg·m²).
_R = np.array([0, 0, 0, 1, 1, 1])
EXPONENT = _R[:, None] + _R[None, :]


def written(A_BBo_B: AddedMass) -> dict[str, float]:
    """The values ``<fluid_added_mass>`` would hold, by spec tag."""
    lines = fluid_added_mass_lines(A_BBo_B, "test", "  ")[2:-1]
    out = {}
    for line in lines:
        tag = line.strip()[1:].split(">", 1)[0]
        out[tag] = float(line.split(">", 1)[1].split("<", 1)[0])
    return out


def test_a_small_nearly_round_part_keeps_its_rotational_added_mass() -> None:
    """A 0.1 mm, slightly non-spherical part at the link origin: ≈2e-9 kg of translational
    added mass, ≈1e-22 kg·m² of rotational (Tuckerman). Against the largest entry in kg (the
    old rule) every rotational entry was below 1e-12 and zeroed; within its own unit it is the
    physics, computed to full precision, and is written."""
    semi_axes = np.array([1.0e-4, 1.001e-4, 1.003e-4])
    _, A = ellipsoid_added_mass(semi_axes, 1000.0, Pose())
    m_A, I_A = np.diag(A.linear_first())[:3], np.diag(A.linear_first())[3:]
    # closed form, not the writer: the ellipsoid's own rotational added mass is tiny in SI units
    assert np.all(I_A > 0.0)
    old_threshold = RELATIVE_ZERO * m_A.max()
    assert np.all(np.less(I_A, old_threshold))  # so mixing units would have zeroed it
    values = written(A)
    for k, tag in enumerate(("pp", "qq", "rr")):
        assert abs(values[tag] - I_A[k]) <= 1e-9 * I_A[k], tag


def test_large_kg_and_tiny_kg_m2_entries_are_kept_and_noise_is_not() -> None:
    """1000 kg translational, 1e-10 kg·m² rotational with a 1 % product of inertia, plus
    round-off-sized entries (1e-16 relative within their own block): the physics is written,
    the round-off is zeroed, block by block."""
    A = np.diag([1e3, 1.2e3, 1.5e3, 1e-10, 2e-10, 3e-10])
    A[3, 4] = A[4, 3] = 1e-12  # a real product of inertia: 1 % of the rotational diagonal
    A[0, 1] = A[1, 0] = 1e-13  # round-off in kg next to 1e3 kg
    A[3, 5] = A[5, 3] = 3e-26  # round-off in kg·m² next to 3e-10 kg·m²
    values = written(AddedMass(A, ordering="linear-first"))
    for tag, expected in (("pp", 1e-10), ("qq", 2e-10), ("rr", 3e-10), ("pq", 1e-12)):
        assert values[tag] == expected, tag
    assert values["xy"] == 0.0
    assert values["pr"] == 0.0


def test_round_off_of_a_rotated_sphere_is_zeroed(rng: np.random.Generator) -> None:
    """A sphere's added mass is ρV/2·1 in any axes: rotating it leaves only round-off off the
    diagonal (and a zero rotational block), which is written as 0."""
    for _ in range(20):
        R = random_rotation(rng)
        A = AddedMass(ellipsoid_added_mass_matrix([0.1, 0.1, 0.1], 1000.0), ordering="linear-first").reexpressed("B", R)
        values = written(A)
        m_A = 1000.0 * 4.0 / 3.0 * np.pi * 1e-3 / 2.0
        for tag, v in values.items():
            if tag in ("xx", "yy", "zz"):
                assert abs(v - m_A) <= 1e-9 * m_A
            else:
                assert v == 0.0, (tag, A.linear_first()[SDF_AXES.index(tag[0]), SDF_AXES.index(tag[1])])


@settings(derandomize=True, max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([1e-3, 1e-2, 0.3048, 1e3]),
    log_sizes=st.tuples(st.floats(-9, 6), st.floats(-9, 6)),
)
def test_the_decision_does_not_depend_on_the_unit_of_length(
    seed: int, k: float, log_sizes: tuple[float, float]
) -> None:
    """Writing lengths in another unit (mm, feet, km: multiply entry (i, j) by ``k^-e_ij``,
    ``e_ij`` its power of metres) zeroes exactly the same entries."""
    rng = np.random.default_rng(seed)
    A = random_spd6(rng)
    scale = np.array([10.0 ** log_sizes[0]] * 3 + [10.0 ** log_sizes[1]] * 3)
    A = A * np.sqrt(np.outer(scale, scale))
    # sprinkle entries at 1e-15 .. 1e-9 of their own scale: some are round-off, some are not
    own = entry_scales(A)
    mask = rng.random((6, 6)) < 0.3
    mask = mask | mask.T
    small = own * 10.0 ** rng.uniform(-15, -9, size=(6, 6))
    small = 0.5 * (small + small.T)
    A = np.where(mask, small, A)
    in_other_unit = A * k ** (-EXPONENT.astype(float))
    def zeroed(M: np.ndarray) -> set[str]:  # the entries the writer writes as 0
        return {tag for tag, value in written(AddedMass(M, ordering="linear-first")).items() if value == 0.0}

    assert zeroed(A) == zeroed(in_other_unit)


def test_hydro_damping_judges_moments_against_moments() -> None:
    """Linear and quadratic damping of a small link: large force terms (kg/s, kg/m), tiny
    moment terms (kg·m²/s, kg·m²). The moment terms are kept; a round-off cross term is not."""
    terms: dict[str, float] = {}
    for i in range(6):
        f, v = FORCE_AXES[i], VELOCITY_AXES[i]
        terms[f"{f}{v}"] = -50.0 if i < 3 else -2e-11
        terms[f"{f}{v}abs{v}"] = -400.0 if i < 3 else -3e-13
    terms["kU"] = -4e-28  # round-off of a moment on surge next to 2e-11-sized moment terms
    # quadratic cross terms (the plugin's iJabsK): a real moment from sway·|yaw rate| and a
    # round-off force from surge·|roll rate|
    terms["nVabsR"] = -1e-12
    terms["xUabsP"] = -1e-25
    scales = term_scales(terms)
    for name, value in terms.items():
        kept = abs(value) > RELATIVE_ZERO * scales[name]
        assert kept == (name not in ("kU", "xUabsP")), name
    # against the largest term of all (the old rule) the moment terms would have been zeroed
    largest = max(abs(v) for v in terms.values())
    assert all(abs(terms[n]) <= RELATIVE_ZERO * largest for n in ("kP", "mQabsQ", "nRabsR"))


def test_convert_to_plugin_terms_judges_round_off_as_the_element_writer(tmp_path: Path) -> None:
    """``convert --sdf-to-hydro`` writes the same matrix as ``<iDotJ>`` terms: tiny kg·m² entries
    next to 1000 kg are physics there too (kept), round-off within a block is zeroed, and the
    terms read back (``-D``, Fossen's sign) as what the element writer keeps."""
    from gzinertia.edit.convert import sdf_to_hydro
    from gzinertia.sdf import read_sdf_bytes

    A = np.diag([1e3, 1.2e3, 1.5e3, 1e-10, 2e-10, 3e-10])
    A[3, 4] = A[4, 3] = 1e-12
    A[0, 1] = A[1, 0] = 1e-13
    A[3, 5] = A[5, 3] = 3e-26
    element = "\n".join(
        fluid_added_mass_lines(AddedMass(A, ordering="linear-first"), "test", "  ")[1:]
    )
    path = tmp_path / "m.sdf"
    path.write_text(
        model(link("a", inertial(2000.0, np.eye(3), extra=element)), hydro_plugin("a", {"xU": -1.0}))
    )
    added = read_sdf_bytes(path.read_bytes(), str(path)).link("m::a").inertial.A_BBo_B
    assert added is not None
    kept = added.linear_first()
    result = sdf_to_hydro(path, pattern=None, sign="fossen", model_paths=[])
    (plugin,) = read_sdf_bytes(result.new, str(path)).link("m::a").hydrodynamics
    np.testing.assert_array_equal(-plugin.D_BBo_B, kept)
    assert kept[3, 4] == 1e-12 and kept[0, 1] == 0.0 and kept[3, 5] == 0.0
