"""The catalogue's conversion of published numbers to gz-sim's form, against independent routes.

For each entry, the wrench its published numbers apply (by the published law, in the published
axes, at the published point: written here from each convention's definition, or UUV
Simulator's and VRX's plugins re-implemented in :mod:`classic_oracles`) equals, on random
states, the wrench gz-sim applies for the converted terms (gz-sim's Hydrodynamics law
re-implemented in :mod:`hydro_oracles`, and DART's ``-A·a`` for ``<fluid_added_mass>``), to 1e-9
relative. The published numbers themselves are checked against their source files in
``tests/test_catalogue_sources.py``.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import classic_oracles as classic
import numpy as np
import pytest
from conftest import random_rotation
from hydro_oracles import gz_hydrodynamics_wrench, rel
from test_import_graph import UPPER, _under
from test_rule_layout import import_graph

from gzinertia import catalogue
from gzinertia.catalogue.disagree import factor_apart
from gzinertia.catalogue.published import CatalogueDataError
from gzinertia.catalogue.vehicle import entry_from_table
from gzinertia.errors import SettingError

ENTRIES = {e.id: e for e in catalogue.entries()}
ROWS = "xyzkmn"
COLUMNS = "UVWPQR"
#: Forward-starboard-down → forward-port-up, written out (a rotation by π about x).
F = np.diag([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])
TERM = re.compile(r"^([xyzkmn])(Dot)?([UVWPQR])(?:abs([UVWPQR]))?$")


def _states(seed: int, n: int = 20) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.normal(scale=1.5, size=6) for _ in range(n)]


def _published_wrench(terms: dict[str, float], nu: np.ndarray, sign: float) -> np.ndarray:
    """Fossen's damping law as published: ``τ_i = s·Σ (X_ij·ν_j + X_ij|k|·|ν_k|·ν_j)`` in the
    published axes (``s = 1`` for Fossen's negative derivatives, ``-1`` for magnitudes)."""
    tau = np.zeros(6)
    for name, value in terms.items():
        row, dot, j, k = TERM.match(name).groups()  # type: ignore[union-attr]
        if dot:
            continue
        v = nu[COLUMNS.index(j)] * (1.0 if k is None else abs(nu[COLUMNS.index(k)]))
        tau[ROWS.index(row)] += sign * value * v
    return tau


def _published_added_mass_wrench(terms: dict[str, float], a: np.ndarray, sign: float,
                                 ) -> np.ndarray:
    """``τ_i = s·Σ X_i,Dot j·a_j`` (Fossen's derivatives act on the acceleration)."""
    tau = np.zeros(6)
    for name, value in terms.items():
        row, dot, j, _ = TERM.match(name).groups()  # type: ignore[union-attr]
        if dot:
            tau[ROWS.index(row)] += sign * value * a[COLUMNS.index(j)]
    return tau


def _gz_wrench(damping: dict[str, float], s_B: np.ndarray) -> np.ndarray:
    R = random_rotation(np.random.default_rng(11))
    f_W, t_W = gz_hydrodynamics_wrench(damping, R, R @ s_B[:3], R @ s_B[3:])
    return np.concatenate([R.T @ f_W, R.T @ t_W])


def _close(a: np.ndarray, b: np.ndarray, tol: float = 1e-9) -> bool:
    return rel(a, b) <= tol or float(np.max(np.abs(a - b))) <= tol * 1e-3


@pytest.mark.parametrize("entry_id", sorted(e for e, v in ENTRIES.items()
                                            if v.published.convention in
                                            ("fossen", "gz_hydrodynamics")))
def test_derivative_entries_apply_the_published_wrench(entry_id: str) -> None:
    entry = ENTRIES[entry_id]
    published = entry.published
    flip = F if published.frd else np.eye(6)
    sign = 1.0 if published.sign == "negative" else -1.0
    terms = entry.gz_terms()
    for s_B in _states(1):
        expected = flip @ _published_wrench(published.terms, flip @ s_B, sign)
        assert _close(_gz_wrench(terms.damping, s_B), expected)
    if terms.A_BBo_B is None:
        assert not any("Dot" in n for n in published.terms)
        assert not published.fluid_added_mass
        return
    A = terms.A_BBo_B.linear_first()
    for a_B in _states(2):
        expected = flip @ (_published_added_mass_wrench(published.terms, flip @ a_B, sign)
                           - _sdf_matrix(published.fluid_added_mass) @ (flip @ a_B))
        assert _close(-A @ a_B, expected)


def _sdf_matrix(values: dict[str, float]) -> np.ndarray:
    """A published ``<fluid_added_mass>`` as DART applies it (``-A·a``): the SDF spec's upper
    triangle by tag (``xq`` is row x, column q of ``[x y z p q r]``), mirrored."""
    A = np.zeros((6, 6))
    for tag, value in values.items():
        i, j = "xyzpqr".index(tag[0]), "xyzpqr".index(tag[1])
        A[i, j] = A[j, i] = value
    return A


def _uuv_block(published: catalogue.CatalogueEntry) -> ET.Element:
    m = published.published.matrices
    text = "".join(f"<{tag}>{' '.join(map(repr, values))}</{tag}>" for tag, values in m.items())
    return ET.fromstring(f"<link><hydrodynamic_model><type>fossen</type>{text}"
                         "</hydrodynamic_model></link>")


def test_uuv_entry_applies_what_the_plugin_applies() -> None:
    """RexROV: UUV Simulator's force law (re-implemented from its source) on the published
    matrices, the centre of mass at the link origin, against gz-sim's damping law on the
    converted terms and ``-A·a`` of the converted added mass."""
    entry = ENTRIES["rexrov"]
    assert entry.published.p_PoG == (0.0, 0.0, 0.0)
    mats = classic.uuv_link_matrices(_uuv_block(entry), entry.published.rigid_mass or 0.0)
    terms = entry.gz_terms()
    damping_only = {**mats, "Ma": np.zeros((6, 6))}
    R, flow = np.eye(3), np.zeros(3)
    for s_B in _states(3):
        f, t = classic.uuv_tau(damping_only, s_B[:3], s_B[3:], np.zeros(6), R, flow)
        assert _close(_gz_wrench(terms.damping, s_B), np.concatenate([f, t]))
    assert terms.A_BBo_B_exact is not None
    for a_B in _states(4):
        f, t = classic.uuv_tau(mats, np.zeros(3), np.zeros(3), F @ a_B, R, flow)
        assert _close(-terms.A_BBo_B_exact @ a_B, np.concatenate([f, t]))
    # the file's added mass is not symmetric: the written matrix loses its skew part, and says so
    assert 0.0 < terms.added_mass_gap < 1e-3
    assert any("not symmetric" in n for n in terms.notes)


def test_vrx_entry_applies_what_simple_hydrodynamics_applies() -> None:
    """WAM-V: VRX's force law (re-implemented from its source, its defaults where the block is
    silent) against the converted terms; SimpleHydrodynamics applies it at the link origin."""
    entry = ENTRIES["wamv"]
    plugin = ET.fromstring("<plugin>" + "".join(
        f"<{k}>{v!r}</{k}>" for k, v in entry.published.terms.items()) + "</plugin>")
    terms = entry.gz_terms()
    zero = np.zeros(3)
    for s_B in _states(5):
        expected = classic.vrx_force(plugin, s_B[:3], s_B[3:], zero, zero)
        assert _close(_gz_wrench(terms.damping, s_B), expected)
    assert terms.A_BBo_B is not None
    A = terms.A_BBo_B.linear_first()
    for a_B in _states(6):
        expected = classic.vrx_force(plugin, zero, zero, a_B[:3], a_B[3:])
        assert _close(-A @ a_B, expected)
    assert any("zDotW" in n for n in terms.notes)  # the defaults used are said


def test_remus_centres_and_mass_are_turned_to_link_axes() -> None:
    """Prestero's centre of gravity is 0.0196 m below the centre of buoyancy (z down): in the
    link axes (z up) it is at -0.0196 m; the mass is the published weight over gravity."""
    published = ENTRIES["remus100"].published
    terms = ENTRIES["remus100"].gz_terms()
    assert published.p_PoG is not None and terms.p_BoBcm_B is not None
    assert terms.p_BoBcm_B[2] == -published.p_PoG[2]
    assert terms.mass == (published.weight or 0.0) / (published.gravity or 1.0)


def test_every_entry_says_where_its_numbers_come_from() -> None:
    for entry in ENTRIES.values():
        source = entry.source
        assert source.authors and source.title and source.where and 1900 < source.year < 2100
        assert source.verified in ("repository", "repository copy", "unverified")
        assert source.files, entry.id  # every entry names the public file that carries it
        for f in source.files:
            assert re.fullmatch(r"[0-9a-f]{40}", f.commit) and f.names
        for f in source.files:
            for key in f.names:
                entry.published.value(key)  # every checked key is a published value


def test_bluerov2_sources_disagree_and_the_disagreement_is_shown() -> None:
    """The issue's example: quadratic surge damping 18.18 (Wu 2018) against 141 (von Benzon et
    al. 2022), both kept; the factor is computed from the two entries."""
    found = {d.term: d for d in catalogue.disagreements(catalogue.entries(), "bluerov2")}
    surge = found["xUabsU"]
    wu = ENTRIES["bluerov2_wu2018"].published.terms["xUabsU"]
    benzon = ENTRIES["bluerov2_heavy_vonbenzon2022"].published.terms["xUabsU"]
    assert surge.values["bluerov2_wu2018"] == -wu
    assert surge.values["bluerov2_heavy_vonbenzon2022"] == -benzon
    assert surge.factor >= benzon / wu
    assert found["yV"].factor == math.inf  # 0 in one source, not in another


def test_factor_apart() -> None:
    assert factor_apart([2.0, 2.0]) == 1.0
    assert factor_apart([-2.0, -8.0]) == 4.0
    assert factor_apart([1.0, -1.0]) == math.inf
    assert factor_apart([0.0, 3.0]) == math.inf


def test_an_unknown_entry_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(SettingError, match="remus100") as info:
        catalogue.entry("remus200")
    assert info.value.key == "with_entry"


def test_a_defective_data_table_names_its_key() -> None:
    with pytest.raises(CatalogueDataError, match="missing key 'source'"):
        entry_from_table({"id": "x"}, "x.toml")
    table = {"id": "x", "vehicle": "v", "family": "f", "kind": "k",
             "source": {"authors": "a", "year": 2000, "title": "t", "where": "w",
                        "verified": "unverified", "note": ""},
             "published": {"convention": "fossen", "sign": "negative", "axes": "a",
                           "frd": True, "point": "p", "units": "SI",
                           "terms": {"xUabsU": float("nan")}}}
    with pytest.raises(CatalogueDataError, match=r"terms\.xUabsU: not a finite number"):
        entry_from_table(table, "x.toml")


def test_the_catalogue_stands_on_the_floors_below_the_checks() -> None:
    """The catalogue is data and models: it imports nothing of the checks, audit, edits,
    output, command line or library face (``docs/architecture.md``)."""
    graph = import_graph()
    up = [(a, b) for a, b in graph.edges()
          if _under(a, ("gzinertia.catalogue",)) and (b == "gzinertia" or _under(b, UPPER))]
    assert up == []


def test_two_copies_of_prestero_disagree_and_one_is_axisymmetric() -> None:
    """REMUS 100 is a body of revolution with cruciform fins, so its cross-flow damping is the
    same in sway and heave, turned by a quarter turn about x: ``Y_v|v| = Z_w|w|``,
    ``N_r|r| = M_q|q|``, ``N_v|v| = -M_w|w|`` and ``Y_r|r| = -Z_q|q|`` (FRD axes). The SCRIMMAGE
    copy of Prestero's table meets all four; the MATLAB copy (entry ``remus100``) breaks the
    first two by factors 10 and 2, and both are kept, the disagreement shown term by term."""
    for entry_id, axisymmetric in (("remus100_scrimmage", True), ("remus100", False)):
        t = ENTRIES[entry_id].published.terms
        assert t["nVabsV"] == -t["mWabsW"] and t["yRabsR"] == -t["zQabsQ"], entry_id
        assert (t["yVabsV"] == t["zWabsW"] and t["nRabsR"] == t["mQabsQ"]) is axisymmetric
    found = {d.term: d for d in catalogue.disagreements(catalogue.entries(), "remus100")}
    apart = {term for term, d in found.items() if d.factor > 1.0}
    assert apart == {"yVabsV", "kPabsP", "kDotP", "mQabsQ", "nRabsR"}
    assert found["yVabsV"].factor == pytest.approx(10.0)
