"""The audit's cheap screens and the physics' plain-float fast paths agree with the exact
computations they spare.

Each settles the common case in plain floats and leaves the rest to the exact path (LAPACK,
the built bounding box, the full hydrostatics, NumPy's checks): it may say "not certain" too
often, never a verdict the exact path would contradict. Findings are unchanged by
construction; these tests check the fast paths themselves, near their thresholds too.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import findings_of
from conftest import random_rotation
from hypothesis import example, given
from hypothesis import strategies as st
from sdf_builders import box, cylinder, inertia_xml, link, model, sphere, vec, world

from gzinertia.audit import hydrostatics_scope as hydro_rules
from gzinertia.audit.findings import plain_json_value
from gzinertia.audit.rules.inertia import GYRATION_FACTOR
from gzinertia.checks.context import DocumentContext
from gzinertia.checks.matrices import gyration_factors, gyration_factors_within
from gzinertia.physics.ellipsoid import PosedEllipsoid, semi_axes_problem, validated_semi_axes
from gzinertia.records import LinkRecord
from gzinertia.sdf.reader import read_sdf_string
from gzinertia.spatial.inertia import reverses_orientation
from gzinertia.spatial.rotation import Pose

_positive = st.floats(0.05, 20.0)


def _box_G(size: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Unit-density second moment of a box about its centroid over its volume (m²), in B."""
    x, y, z = size
    return R @ np.diag([y * y + z * z, x * x + z * z, x * x + y * y]) / 12.0 @ R.T


@given(
    size=st.tuples(_positive, _positive, _positive),
    scales=st.tuples(st.floats(0.05, 20.0), st.floats(0.05, 20.0), st.floats(0.05, 20.0)),
    seed=st.integers(0, 2**32 - 1),
)
@example(size=(1.0, 1.0, 1.0), scales=(1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0), seed=0)
@example(size=(1.0, 2.0, 3.0), scales=(9.0, 9.0, 9.0), seed=1)
@example(size=(1.0, 2.0, 3.0), scales=(1.0 / 9.0 * 1.0005, 1.0, 9.0 * 0.9995), seed=2)
@example(size=(1e-3, 1.0, 1.0), scales=(1.0, 1.0, 1.0), seed=3)
def test_the_gyration_screen_never_contradicts_the_factors(
    size: tuple[float, float, float], scales: tuple[float, float, float], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    G = _box_G(np.array(size), random_rotation(rng))
    # the rigid inertia: the solid's, stretched along random axes (exact thresholds included)
    Q = random_rotation(rng)
    root = np.linalg.cholesky(G)
    I = root @ Q @ np.diag(scales) @ Q.T @ root.T
    if gyration_factors_within(I, G, GYRATION_FACTOR):
        f_min, f_max = gyration_factors(I, G)
        assert f_min >= 1.0 / GYRATION_FACTOR and f_max <= GYRATION_FACTOR


def test_the_gyration_screen_settles_the_plain_cases_only() -> None:
    G = _box_G(np.array([0.4, 0.3, 0.2]), np.eye(3))
    assert gyration_factors_within(G, G, GYRATION_FACTOR)  # the solid's own inertia
    for factor in (1.0 / GYRATION_FACTOR**2, GYRATION_FACTOR**2, 100.0, 1e-3):
        assert not gyration_factors_within(factor * G, G, GYRATION_FACTOR)
    rod = _box_G(np.array([1.0, 1e-5, 1e-5]), np.eye(3))  # ill-conditioned: left to LAPACK
    assert not gyration_factors_within(rod, rod, GYRATION_FACTOR)
    assert not gyration_factors_within(np.full((3, 3), np.nan), G, GYRATION_FACTOR)


def _random_links(rng: np.random.Generator, count: int) -> str:
    links = []
    for k in range(count):
        parts = []
        for j in range(int(rng.integers(1, 4))):
            pose = (*rng.uniform(-1.0, 1.0, 3), *rng.uniform(-np.pi, np.pi, 3))
            kind = j % 3 if k % 2 else int(rng.integers(0, 3))
            if kind == 0:
                parts.append(box(rng.uniform(0.01, 1.0, 3).tolist(), pose, name=f"c{j}"))
            elif kind == 1:
                parts.append(sphere(float(rng.uniform(0.01, 0.5)), pose, name=f"c{j}"))
            else:
                parts.append(cylinder(float(rng.uniform(0.01, 0.5)), float(rng.uniform(0.01, 1.0)),
                                      pose, name=f"c{j}"))
        links.append(link(f"l{k}", *parts))
    return model(*links)


def test_the_box_screen_never_contradicts_the_box() -> None:
    rng = np.random.default_rng(7)
    doc = read_sdf_string(_random_links(rng, 40))
    inside_seen = 0
    for ctx in DocumentContext(doc).links:
        box_B = ctx.bounding_box
        assert box_B is not None
        lo, hi = box_B
        assert ctx.certainly_inside_bounding_box(0.5 * (lo + hi))
        # points around and on the faces, corners and edges of the exact box
        u = rng.choice([-0.01, -1e-12, 0.0, 1e-12, 0.3, 0.5, 1.0 - 1e-12, 1.0, 1.0 + 1e-12, 1.01],
                       size=(200, 3))
        for q in lo + u * (hi - lo):
            if ctx.certainly_inside_bounding_box(q):
                inside_seen += 1
                assert np.all(lo <= q) and np.all(q <= hi), (ctx.name, q, lo, hi)
            on_face = np.any((q == lo) | (q == hi))
            assert not (on_face and ctx.certainly_inside_bounding_box(q))
    assert inside_seen > 0


def test_no_box_no_screen() -> None:
    doc = read_sdf_string(model(link("frame"), link("floor", "<collision name='p'><geometry>"
                                                     "<plane><normal>0 0 1</normal></plane>"
                                                     "</geometry></collision>")))
    for ctx in DocumentContext(doc).links:
        assert ctx.bounding_box is None
        assert not ctx.certainly_inside_bounding_box(np.zeros(3))


def _hovering_model(name: str, ratio: float, x: float) -> str:
    """A cone (Gazebo puts its centre of volume at its origin: GZI305) of mass ``ratio`` times
    the fresh water it displaces, centre of mass above the centre of buoyancy (GZI301), and a
    second body (no joint) a sphere of twice the ratio."""
    r, L = 0.3, 0.8
    V = np.pi * r * r * L / 3.0
    cone = (f"<collision name='c'><geometry><cone><radius>{r}</radius><length>{L}</length>"
            "</cone></geometry></collision>")
    I = np.eye(3) * 0.05
    hull = link("hull", f"<inertial><pose>0 0 0.2 0 0 0</pose><mass>{ratio * 1000.0 * V!r}</mass>"
                f"{inertia_xml(I)}</inertial>", cone)
    R = 0.1
    Vs = 4.0 / 3.0 * np.pi * R**3
    buoy = link("buoy", f"<inertial><mass>{2 * ratio * 1000.0 * Vs!r}</mass>"
                f"{inertia_xml(I * 0.01)}</inertial>", sphere(R),
                pose=(0.0, 2.0, 0.0, 0.0, 0.0, 0.0))
    return f"<model name='{name}'><pose>{vec((x, 0.0, -5.0, 0.0, 0.0, 0.0))}</pose>{hull}{buoy}</model>"


_RATIOS = (0.3, 0.69, 0.7, 0.75, 0.79, 0.8, 0.8000001, 1.0, 1.2499999, 1.25, 1.26, 1.39, 1.4,
           1.41, 3.0, 0.0, -1.0)


def test_the_hydrostatics_screen_passes_over_only_models_no_rule_judges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = world(*(_hovering_model(f"m{k}", ratio, 5.0 * k) for k, ratio in enumerate(_RATIOS)))
    codes = ("GZI301", "GZI302", "GZI303", "GZI304", "GZI305")
    screened = [f.to_plain() for f in findings_of(tmp_path, text) if f.code in codes]
    monkeypatch.setattr(hydro_rules, "_may_hover", lambda *_: True)
    every = [f.to_plain() for f in findings_of(tmp_path, text) if f.code in codes]
    assert screened == every
    assert {f["code"] for f in every} >= {"GZI301", "GZI305"}  # the comparison is not empty
    monkeypatch.undo()
    doc = read_sdf_string(text)
    by_model: dict[str, list[LinkRecord]] = {}
    for lk in doc.links:
        by_model.setdefault(lk.name.split("::")[0], []).append(lk)
    may = {name: hydro_rules._may_hover(name, links) for name, links in by_model.items()}
    assert may["m0"] is False and may["m7"] is True  # some models are spared, some are not


def test_plain_json_value_keeps_exact_scalars_and_converts_subclasses() -> None:
    plain = plain_json_value([np.float64(1.5), True, 2, "a", None, 0.25, np.int64(3)])
    assert plain == [1.5, True, 2, "a", None, 0.25, 3]
    assert [type(v) for v in plain] == [float, bool, int, str, type(None), float, int]
    assert plain_json_value(np.array([1.0, 2.0])) == [1.0, 2.0]
    with pytest.raises(TypeError):
        plain_json_value([1.0, object()])


@pytest.mark.parametrize("scale", [1.0, 1e299, 1e300, 1e301, 1e308, np.inf, np.nan])
def test_finite_moments_without_the_eigenvalues(scale: float) -> None:
    """The reader caps values at 1e100; other records (the library's) may hold anything."""
    doc = read_sdf_string(model(link("b", f"<inertial><mass>1</mass>{inertia_xml(np.eye(3))}"
                                         "</inertial>")))
    with np.errstate(over="ignore"):
        I = np.array([[2.0, 0.5, 0.1], [0.5, 3.0, 0.2], [0.1, 0.2, 4.0]]) * scale
    (record,) = doc.links
    record = replace(record, inertial=replace(record.inertial, I_BBcm_I=I))
    (ctx,) = DocumentContext(replace(doc, links=(record,))).links
    with np.errstate(all="ignore"):
        expected = bool(np.all(np.isfinite(ctx.principal_moments)))
    assert ctx._finite_moments == expected


@given(seed=st.integers(0, 2**32 - 1), flip=st.booleans(),
       noise=st.sampled_from([0.0, 1e-12, 1e-3, 0.3, 0.7, 2.0]))
@example(seed=0, flip=False, noise=0.0)
def test_orientation_sign_is_lapacks(seed: int, flip: bool, noise: float) -> None:
    rng = np.random.default_rng(seed)
    R = random_rotation(rng) @ np.diag([1.0, 1.0, -1.0 if flip else 1.0])
    R = R + noise * rng.normal(size=(3, 3))
    assert reverses_orientation(R) == bool(np.linalg.det(R) < 0.0)
    assert reverses_orientation(np.zeros((3, 3))) is False


def _numpy_accepts(semi_axes: np.ndarray, R: np.ndarray, p: np.ndarray) -> bool:
    ok = (semi_axes_problem(semi_axes) is None and bool(np.all(np.isfinite(p)))
          and bool(np.all(np.isfinite(R))))
    return ok and bool(np.max(np.abs(R.T @ R - np.eye(3))) < 1e-9
                       and abs(np.linalg.det(R) - 1.0) < 1e-9)


@given(seed=st.integers(0, 2**32 - 1),
       noise=st.sampled_from([0.0, 1e-13, 2e-10, 4e-10, 6e-10, 1e-9, 2e-9, 1e-3]),
       axes=st.sampled_from([(1.0, 2.0, 3.0), (0.0, 1.0, 1.0), (-1.0, 1.0, 1.0),
                             (np.inf, 1.0, 1.0), (np.nan, 1.0, 1.0), (1e-300, 1e300, 1.0)]),
       flip=st.booleans())
@example(seed=0, noise=0.0, axes=(1.0, 2.0, 3.0), flip=False)
def test_a_posed_ellipsoid_is_accepted_exactly_as_numpy_checks_it(
    seed: int, noise: float, axes: tuple[float, float, float], flip: bool
) -> None:
    rng = np.random.default_rng(seed)
    R = random_rotation(rng) @ np.diag([1.0, 1.0, -1.0 if flip else 1.0])
    R = R + noise * rng.normal(size=(3, 3))
    p = rng.normal(size=3)
    semi_axes = np.array(axes)
    try:
        PosedEllipsoid(semi_axes, Pose(p, R))
        accepted = True
    except ValueError:
        accepted = False
    assert accepted == _numpy_accepts(semi_axes, R, p)
    if accepted:
        assert validated_semi_axes(semi_axes).tolist() == semi_axes.tolist()
