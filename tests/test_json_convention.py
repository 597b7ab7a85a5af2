"""One JSON convention for every gzinertia output (docs/json.md): strict JSON, every number
finite, ``null`` where a number is not finite, strings always strings (issue 10).

``show --json`` of a link whose principal moments violate the triangle inequality has no
equivalent ellipsoid (its semi-axes are not real numbers): they must be ``null``, never a
``NaN`` token; the audit's JSON of the same file writes its non-finite values the same way.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import sdf_builders as sdf
from conftest import EXAMPLES, run_cli

TRIANGLE = EXAMPLES / "defects" / "triangle_inequality" / "model.sdf"


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"not JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def _numbers(value: Any) -> list[float]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v)]
    return [x for v in value.values() for x in _numbers(v)]


def test_show_writes_what_is_not_a_number_as_null(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["show", str(TRIANGLE), "--json"], capsys)
    assert status == 0, err
    data = _strict(out)
    semi_axes = [link["equivalent_ellipsoid_semi_axes"] for link in data["links"]]
    assert any(None in axes for axes in semi_axes)  # the unphysical link: null, not NaN
    assert all(math.isfinite(x) for x in _numbers(data))


def test_audit_json_and_sarif_are_strict_with_finite_numbers_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for fmt in ("json", "sarif"):
        status, out, err = run_cli(["audit", str(TRIANGLE), "--format", fmt, "--no-cache"],
                                   capsys)
        assert status == 1, err  # GZI104 is an error
        assert all(math.isfinite(x) for x in _numbers(_strict(out)))


def test_hydrostatics_writes_what_is_not_a_number_as_null(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A model no buoyancy acts on has no centre of buoyancy: `null`, never `NaN`."""
    status, out, err = run_cli(["hydrostatics", str(TRIANGLE), "--json", "--density", "1000",
                                "--waterline", "-1e6"], capsys)
    assert status == 0, err
    data = _strict(out)
    assert all(math.isfinite(x) for x in _numbers(data))
    status, out, err = run_cli(
        ["hydrostatics", str(EXAMPLES / "harbour_world.sdf"), "-m", str(EXAMPLES), "--json"],
        capsys)
    assert status == 0, err
    assert all(math.isfinite(x) for x in _numbers(_strict(out)))
    # a model without collisions: no volume, no buoyancy, no centre of buoyancy
    world = sdf.world(sdf.buoyancy_plugin(), sdf.nested_model("m", sdf.link("l")),
                      version="1.10")
    from gzinertia.physics.hydrostatics import model_hydrostatics
    from gzinertia.records import BuoyancyWorld
    from gzinertia.report.hydrostatics import model_summary
    from gzinertia.report.json_text import json_safe
    from gzinertia.sdf import read_sdf_string

    doc = read_sdf_string(world, "w.sdf")

    (model,) = model_hydrostatics(doc.links, BuoyancyWorld())
    data = _strict(json.dumps(json_safe(model_summary(model)), allow_nan=False))
    assert data["p_WB"] == [None, None, None] and data["fluid_density"] is None
