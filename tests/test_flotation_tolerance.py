"""The flotation figures state their tolerance with them (issue 24 item 10): in the text and
JSON of ``hydrostatics``, per result, and the figures keep within it against closed forms: a
floating box (polyhedral: the solver's tolerance) and a floating sphere (a round shape: its
mesh's tolerance, the cap's closed forms)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli
from scipy.optimize import brentq

RHO = 1000.0


def _float(tmp_path: Path, collision: str, mass: float, capsys: pytest.CaptureFixture[str]
           ) -> tuple[dict, str]:
    """The ``flotation`` JSON entry and the text of ``hydrostatics --waterline 0``."""
    body = sdf.link("body", sdf.inertial(mass, np.eye(3) * mass * 0.01, com=(0, 0, -0.05)),
                    collision)
    path = sdf.write(tmp_path, sdf.model(body, name="float"))
    code, out, err = run_cli(["hydrostatics", str(path), "--waterline", "0", "--json"], capsys)
    assert code == 0, err
    (model,) = json.loads(out)["models"]
    code, text, err = run_cli(["hydrostatics", str(path), "--waterline", "0"], capsys)
    assert code == 0, err
    return model["flotation"], text


def test_a_box_states_the_solvers_tolerance_and_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    L, W, H, d = 2.0, 0.8, 0.6, 0.2
    fl, text = _float(tmp_path, sdf.box((L, W, H)), RHO * L * W * d, capsys)
    tol = fl["tolerance"]
    assert 0 < tol <= 1e-9 and "polyhedral" in fl["tolerance_note"]
    for name, closed in (("draft", d), ("KB", d / 2), ("BM_T", W**2 / (12 * d)),
                         ("BM_L", L**2 / (12 * d)), ("waterplane_area", L * W)):
        assert abs(fl[name] - closed) <= tol * closed, (name, fl[name], closed)
    assert f"these figures within {tol:.2g} relative (polyhedral" in text


def test_a_sphere_states_the_round_shapes_tolerance_and_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r, fraction = 0.5, 0.3
    V = fraction * 4.0 / 3.0 * math.pi * r**3
    fl, text = _float(tmp_path, sdf.sphere(r), RHO * V, capsys)
    tol = fl["tolerance"]
    assert 1e-4 < tol < 2e-3 and "sphere meshed with" in fl["tolerance_note"]
    h = brentq(lambda x: math.pi * x * x * (3 * r - x) / 3.0 - V, 0.0, 2 * r)
    a2 = h * (2 * r - h)
    for name, closed in (("draft", h), ("BM_T", math.pi * a2 * a2 / 4.0 / V),
                         ("waterplane_area", math.pi * a2)):
        assert abs(fl[name] - closed) <= tol * closed, (name, fl[name], closed)
    assert f"these figures within {tol:.2g} relative (sphere meshed with" in text


def test_overlapping_boxes_float_as_their_union(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two boxes of one link, the second inside the first's top half (a deckhouse drawn through
    the deck): the hull is their union, so the draft is the first box's closed form, the
    second's overlap displacing nothing more."""
    L, W, H, d = 2.0, 0.8, 0.6, 0.2
    hull = sdf.box((L, W, H), name="hull")
    house = sdf.box((0.5, 0.4, 0.5), (0.2, 0.0, 0.1, 0, 0, 0), name="house")  # z in [-0.15, 0.35]
    fl, _ = _float(tmp_path, hull + house, RHO * L * W * d, capsys)
    tol = fl["tolerance"]
    # at the union's draft (water to z = -0.1) the house's submerged part (z from -0.15) lies
    # inside the hull: summed, it would displace 0.01 m^3 more and float the box higher
    for name, closed in (("draft", d), ("BM_T", W**2 / (12 * d)), ("waterplane_area", L * W)):
        assert abs(fl[name] - closed) <= tol * closed, (name, fl[name], closed)
