"""Inertia validity as libsdformat judges it, against the compiled libsdformat 12 oracle.

gz-math's closed-form principal moments (``MassMatrix3::PrincipalMoments``) differ from
LAPACK's near a double eigenvalue and skip products below ``1e-6·max(diagonal)``, so inertias
at the limits of validity can pass one check and fail the other. The audit's default
``--tolerance gz`` (GZI103, GZI104) must say exactly what libsdformat says: on
hypothesis-generated near-limit inertias (derandomized) every link's verdict is compared with
the ``LINK_INERTIA_INVALID`` errors of the compiled oracle; so is the output of
``fix --method nearest`` on the invalid ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from gzinertia.audit.runner import audit
from gzinertia.physics.gz_math_inertia import gz_is_valid, gz_principal_moments
from gzinertia.physics.inertia_repair import nearest_valid_inertia

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: each example costs an oracle run: a failure is reported as found, not shrunk for minutes
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
LINK_INERTIA_INVALID = 18  # sdf::ErrorCode::LINK_INERTIA_INVALID in libsdformat 12


def _rotation(q: tuple[float, float, float, float]) -> np.ndarray:
    w, x, y, z = np.asarray(q) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


quaternions = st.tuples(*[st.floats(-1, 1) for _ in range(4)]).filter(
    lambda q: float(np.linalg.norm(q)) > 0.1
)
scales = st.sampled_from([1e-6, 1e-3, 1.0, 10.0, 1e4])
offsets = (st.floats(-2e-7, 2e-7, allow_subnormal=False)
           | st.floats(-1e-12, 1e-12, allow_subnormal=False) | st.sampled_from([0.0]))


@st.composite
def near_limit(draw: st.DrawFn) -> np.ndarray:
    """A rotational inertia at the edge of validity: on or near a triangle face (also with a
    double moment), nearly singular, or with products near gz-math's 1e-6 diagonal shortcut."""
    s = draw(scales)
    kind = draw(st.sampled_from(["triangle", "singular", "shortcut", "double"]))
    a = s * draw(st.floats(0.05, 1.0))
    b = s * draw(st.floats(0.05, 1.0))
    if kind == "triangle":
        moments = [a, b, (a + b) * (1 + draw(offsets))]
    elif kind == "double":  # two equal moments on a triangle face: gz-math's acos is worst
        moments = [a, a * (1 + draw(offsets)), 2 * a * (1 + draw(offsets))]
    elif kind == "singular":
        moments = [s * draw(offsets), a, a * (1 + draw(offsets))]
    else:
        moments = [a, b, a + b]
    R = _rotation(draw(quaternions)) if kind != "shortcut" else np.eye(3)
    I = R @ np.diag(moments) @ R.T
    if kind == "shortcut":
        k = draw(st.floats(0.5, 2.0)) * 1e-6 * max(moments)
        i, j = draw(st.sampled_from([(0, 1), (0, 2), (1, 2)]))
        I[i, j] = I[j, i] = k
    I = 0.5 * (I + I.T)
    I[np.abs(I) < 1e-200] = 0.0  # libsdformat 12 cannot read subnormal numbers ("Error reading")
    return np.asarray(I, dtype=float)


def _sdf(inertias: list[np.ndarray]) -> str:
    links = [sdf.link(f"l{n}", sdf.inertial(1.0, I, posed=False), pose=(n, 0, 0, 0, 0, 0))
             for n, I in enumerate(inertias)]
    return sdf.model(*links, version="1.9")


def _libsdformat_invalid(path: Path) -> set[str]:
    from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    [result] = read_with_sdformat([path])
    assert result["root"] == "model", result["errors"][:3]
    return {
        e["message"].split("A link named ")[1].split()[0]
        for e in result["errors"]
        if e["code"] == LINK_INERTIA_INVALID
    }


def _audit_invalid(path: Path) -> set[str]:
    return {
        f.link.split("::")[-1]
        for f in audit([str(path)]).findings
        if f.link is not None and f.code in ("GZI103", "GZI104")
    }


@pytest.mark.oracle("sdformat")
@settings(max_examples=4, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(inertias=st.lists(near_limit(), min_size=120, max_size=120))
def test_audit_judges_validity_as_libsdformat(inertias: list[np.ndarray], tmp_path_factory:
                                              pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("near") / "m.sdf"
    path.write_text(_sdf(inertias))
    reference = _libsdformat_invalid(path)
    ours = {f"l{n}" for n, I in enumerate(inertias) if not gz_is_valid(1.0, I)}
    assert ours == reference
    assert _audit_invalid(path) == reference
    # the nearest valid inertia (as fix writes it, shortest round-trip text) passes libsdformat
    fixed = [nearest_valid_inertia(I).I_after if f"l{n}" in reference else I
             for n, I in enumerate(inertias)]
    path.write_text(_sdf(fixed))
    assert _libsdformat_invalid(path) == set()


def test_principal_moments_shortcut_returns_the_diagonal() -> None:
    """Products within 1e-6 of the largest diagonal entry are ignored (gz-math's shortcut):
    the diagonal comes back unsorted, and numpy's eigenvalues differ from it."""
    I = np.array([[2.0, 1.5e-6, 0.0], [1.5e-6, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert gz_principal_moments(I) == (2.0, 1.0, 1.0)
    assert np.linalg.eigvalsh(I)[2] > 2.0  # so λ1 + λ2 < λ3: numpy alone would call it invalid
