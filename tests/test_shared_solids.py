"""One solid per collision record while the audit checks a document
(:func:`gzinertia.physics.shapes.shared_solids`).

The rules' link context, the volume fit, the hydrostatics and the buoyancy-proxy comparison all
ask for the same collisions' solids; inside the block each record's solid is computed once and
is the very value computed without the block, refusals included, and nothing outlives it.
And the quick overflow check of a solid agrees with its definition.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gzinertia.physics import shapes
from gzinertia.physics.shapes import ShapeError, collision_solid, shared_solids
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose

HERE = SourceRef("test", 1)


def _collision(geometry: Geometry, name: str = "c") -> Collision:
    return Collision(name, Pose(np.array([0.1, -0.2, 0.3])), geometry, HERE)


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[Geometry]:
    """The geometries whose solid was actually computed, in order."""
    seen: list[Geometry] = []
    original = shapes.solid_properties

    def counting(geometry: Geometry) -> shapes.SolidProperties:
        seen.append(geometry)
        return original(geometry)

    monkeypatch.setattr(shapes, "solid_properties", counting)
    return seen


def test_inside_a_block_each_record_is_computed_once_and_equals_the_plain_value(
    computed: list[Geometry],
) -> None:
    box = _collision(Geometry("box", size=(1.0, 2.0, 3.0)))
    plain = collision_solid(box)
    with shared_solids():
        first = collision_solid(box)
        again = collision_solid(box)
    assert again is first
    assert first.volume == plain.volume
    np.testing.assert_array_equal(first.p_FoFc_F, plain.p_FoFc_F)
    np.testing.assert_array_equal(first.G_FFc_F, plain.G_FFc_F)
    assert len(computed) == 2  # once outside, once inside the block


def test_records_alike_in_value_are_distinct_entries(computed: list[Geometry]) -> None:
    a = _collision(Geometry("sphere", radius=0.5), "a")
    b = _collision(Geometry("sphere", radius=0.5), "b")
    with shared_solids():
        collision_solid(a)
        collision_solid(b)
        collision_solid(a)
    assert len(computed) == 2


def test_a_refusal_is_computed_once_and_raised_each_time(computed: list[Geometry]) -> None:
    plane = _collision(Geometry("plane", normal=(0.0, 0.0, 1.0)))
    with pytest.raises(ShapeError) as plain:
        collision_solid(plane)
    with shared_solids():
        for _ in range(2):
            with pytest.raises(ShapeError) as shared:
                collision_solid(plane)
            assert str(shared.value) == str(plain.value)
    assert len(computed) == 2


def test_nothing_outlives_the_block_and_nested_blocks_share(computed: list[Geometry]) -> None:
    box = _collision(Geometry("box", size=(1.0, 1.0, 1.0)))
    with shared_solids():
        first = collision_solid(box)
        with shared_solids():
            assert collision_solid(box) is first
        assert collision_solid(box) is first
    assert collision_solid(box) is not first
    assert len(computed) == 2


_EXTREME = st.sampled_from(
    [0.0, 1.0, -2.5, 1e-300, 8.9e307, -9e307, 1e308, 1.7e308, math.inf, -math.inf, math.nan]
)


@settings(max_examples=300)
@given(
    volume=_EXTREME,
    centroid=st.lists(_EXTREME, min_size=3, max_size=3),
    inertia=st.lists(_EXTREME, min_size=9, max_size=9),
)
@example(volume=1.0, centroid=[0.0, 0.0, 0.0], inertia=[1e308, 0, 0, 0, 1.0, 0, 0, 0, 1.0])
@example(volume=1.0, centroid=[0.0, 0.0, 0.0], inertia=[8.9e307, 0, 0, 0, 1.0, 0, 0, 0, 1.0])
def test_a_solid_is_refused_exactly_when_a_value_overflowed(
    volume: float, centroid: list[float], inertia: list[float]
) -> None:
    """The quick overflow check agrees with its definition: the volume, the centroid and
    ``G + Gᵀ`` (what the symmetric part is computed from) all finite; no warning escapes."""
    G = np.array(inertia).reshape(3, 3)
    with np.errstate(over="ignore", invalid="ignore"):
        finite = (
            math.isfinite(volume)
            and bool(np.all(np.isfinite(centroid)))
            and bool(np.all(np.isfinite(G + G.T)))
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if finite:
            solid = shapes.checked_solid(volume, centroid, G)
            np.testing.assert_array_equal(solid.G_FFc_F, 0.5 * (G + G.T))
        else:
            with pytest.raises(ShapeError, match="too large"):
                shapes.checked_solid(volume, centroid, G)


def _bits(solid: shapes.SolidProperties) -> tuple[object, ...]:
    return (np.float64(solid.volume).tobytes(), np.asarray(solid.p_FoFc_F).tobytes(),
            np.asarray(solid.G_FFc_F).tobytes(), solid.approximation)


_SIZE = st.floats(1e-6, 1e6) | st.sampled_from([0.0, -0.0, 1e-300, 1e300])


@given(
    volume=st.floats(1e-12, 1e12) | st.sampled_from([1e-300, 1e300, 3.0, 0.1]),
    centroid=st.lists(_SIZE | _SIZE.map(lambda x: -x), min_size=3, max_size=3),
    inertia=st.lists(_SIZE | _SIZE.map(lambda x: -x), min_size=9, max_size=9),
    approximation=st.sampled_from([None, "", "convex hull"]),
)
@example(volume=3.0, centroid=[0.1, -0.0, 1e300], inertia=[1.0, -0.0, 0, 0, 2.0, 0, 0, 0, 3.0],
         approximation=None)
@example(volume=1e300, centroid=[1e300, 1.0, 0.0], inertia=[1.0, 0, 0, 0, 2.0, 0, 0, 0, 3.0],
         approximation="")
def test_one_solid_combines_to_the_bits_of_the_general_sum(
    volume: float, centroid: list[float], inertia: list[float], approximation: str | None,
) -> None:
    """``combine_solids`` of one solid (the usual link) skips NumPy yet gives the bits the
    general volume-weighted sum gives, signed zeros included, or takes the general path."""
    G = np.array(inertia).reshape(3, 3)
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            solid = shapes.checked_solid(volume, centroid, G, approximation)
        except ShapeError:
            return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the general path may overflow: so does the quick one)
        try:
            quick: object = _bits(shapes.combine_solids([solid]))
        except ShapeError as exc:
            quick = str(exc)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(shapes, "_combined_alone", lambda _: None)
            try:
                general: object = _bits(shapes.combine_solids([solid]))
            except ShapeError as exc:
                general = str(exc)
    assert quick == general
