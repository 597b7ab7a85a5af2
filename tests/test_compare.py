"""``gzinertia compare`` and :func:`gzinertia.compare` (issue 29).

* Every catalogue vehicle, written into a model as gz-sim would get it (its converted added mass
  as ``<fluid_added_mass>``, its damping in a Hydrodynamics plugin), is recognised as that
  entry's numbers, completely; with ``--with`` the ratio file/entry of every one of its numbers
  is 1.
* What the file applies is Gazebo's: ``<fluid_added_mass>`` plus the plugin's ``-sym(D)`` (the
  added mass counted twice when both are there, as Gazebo counts it), the plugins' damping.
* The ellipsoid estimate against its closed form (a sphere: ``ρV/2``), in the fluid asked for.
* The examples and the corpus run; the JSON validates against ``tests/data/compare-schema.json``
  and holds finite numbers or ``null``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest
import sdf_builders as sdf
from conftest import CORPUS, EXAMPLES, REPO, run_cli

import gzinertia
from gzinertia import catalogue
from gzinertia.catalogue.compare import ADDED_MASS_NAMES, quantity_unit

SCHEMA = json.loads((REPO / "tests" / "data" / "compare-schema.json").read_text())
ENTRY_IDS = [e.id for e in catalogue.entries()]


def _vehicle_model(tmp_path: Path, entry_id: str) -> Path:
    """A one-link model carrying an entry's numbers as gz-sim takes them."""
    terms = catalogue.entry(entry_id).gz_terms()
    A = None if terms.A_BBo_B is None else terms.A_BBo_B.linear_first()
    mass = terms.mass or 10.0
    body = sdf.link("hull", sdf.inertial(mass, np.eye(3), A=A), sdf.box([1.0, 0.4, 0.3]))
    text = sdf.model(body, sdf.hydro_plugin("hull", terms.damping), name="vehicle")
    return sdf.write(tmp_path, text)


@pytest.mark.parametrize("entry_id", ENTRY_IDS)
def test_every_catalogue_vehicle_is_recognised_in_a_model(tmp_path: Path, entry_id: str) -> None:
    path = _vehicle_model(tmp_path, entry_id)
    (link,) = gzinertia.compare(path).links
    found = {m.entry: m for m in link.copies}
    assert entry_id in found, [m.entry for m in link.copies]
    assert found[entry_id].complete and not found[entry_id].sign_flipped
    with_entry = gzinertia.compare(path, entry=entry_id).links[0]
    terms = catalogue.entry(entry_id).gz_terms()
    hydro_rows = [r for r in with_entry.rows if r.quantity not in ("mass", "volume")]
    for row in hydro_rows:
        if row.entry:  # every non-zero number of the entry is the file's, ratio 1
            assert row.ratio_to_entry == pytest.approx(1.0, rel=1e-12), row.quantity
    assert {r.quantity for r in hydro_rows if r.entry} == (
        {n for n, v in terms.damping.items() if v}
        | ({ADDED_MASS_NAMES[i] for i in range(6) if terms.A_BBo_B.linear_first()[i, i]}
           if terms.A_BBo_B is not None else set()))


def test_a_sign_flipped_copy_is_recognised_and_said(tmp_path: Path) -> None:
    """Damping copied with the sign of VRX (positive) into gz-sim's plugin still matches."""
    terms = catalogue.entry("tethys").gz_terms()
    flipped = {k: -v for k, v in terms.damping.items()}
    text = sdf.model(sdf.link("hull", sdf.inertial(1.0, np.eye(3)), sdf.box([1, 1, 1])),
                     sdf.hydro_plugin("hull", flipped))
    (link,) = gzinertia.compare(sdf.write(tmp_path, text)).links
    match = next(m for m in link.copies if m.entry == "tethys")
    assert set(match.sign_flipped) == {k for k, v in terms.damping.items() if v}


def test_what_the_file_applies_is_gazebos(tmp_path: Path) -> None:
    """``<fluid_added_mass>`` and the plugin's ``<iDotJ>`` both apply in Gazebo: the file's
    added mass is their sum; two plugins' damping terms add."""
    A = np.diag([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])
    text = sdf.model(
        sdf.link("hull", sdf.inertial(5.0, np.eye(3), A=A), sdf.sphere(0.2)),
        sdf.hydro_plugin("hull", {"xDotU": -4.0, "xUabsU": -10.0}),
        sdf.hydro_plugin("hull", {"xUabsU": -5.0, "yV": -1.0}))
    (link,) = gzinertia.compare(sdf.write(tmp_path, text)).links
    rows = {r.quantity: r for r in link.rows}
    assert rows["xx"].file == 1.0 + 4.0
    assert rows["yy"].file == 2.0
    assert rows["xUabsU"].file == -15.0 and rows["yV"].file == -1.0
    assert rows["mass"].file == 5.0
    assert rows["volume"].file == pytest.approx(4.0 / 3.0 * math.pi * 0.2**3, rel=1e-12)
    assert len(link.sources) == 3  # <fluid_added_mass> and both plugins, each with its line


def test_the_plugin_s_added_mass_is_read_as_convert_reads_it(tmp_path: Path) -> None:
    """Positive ``<iDotJ>`` (the physical sign) count as they are, Fossen's negative ones
    negated, as ``convert --hydro-to-sdf`` reads them (``added_mass_of``); a diagonal of mixed
    signs tells no convention: not counted, and the link says so."""
    def link_of(terms: dict[str, float]) -> Any:
        text = sdf.model(sdf.link("hull", sdf.inertial(5.0, np.eye(3)), sdf.sphere(0.2)),
                         sdf.hydro_plugin("hull", terms))
        (link,) = gzinertia.compare(sdf.write(tmp_path, text)).links
        return link, {r.quantity: r for r in link.rows}

    for sign in (1.0, -1.0):
        _, rows = link_of({"xDotU": sign * 4.0, "yDotV": sign * 6.0})
        assert rows["xx"].file == 4.0 and rows["yy"].file == 6.0
    link, rows = link_of({"xDotU": 4.0, "yDotV": -6.0})
    assert "xx" not in rows or rows["xx"].file is None
    assert any("mixes signs" in s for s in link.sources), link.sources


def test_the_ellipsoid_estimate_is_tuckermans_sphere_in_the_fluid_asked(tmp_path: Path) -> None:
    r = 0.3
    text = sdf.model(sdf.link("ball", sdf.inertial(10.0, np.eye(3)), sdf.sphere(r)))
    (link,) = gzinertia.compare(sdf.write(tmp_path, text), fluid="seawater").links
    rows = {row.quantity: row for row in link.rows}
    half_displaced = 1025.0 * 4.0 / 3.0 * math.pi * r**3 / 2.0
    for name in ("xx", "yy", "zz"):
        assert rows[name].estimates["ellipsoid"] == pytest.approx(half_displaced, rel=1e-12)
    assert rows["pp"].estimates["ellipsoid"] == pytest.approx(0.0, abs=1e-9)
    assert rows["xx"].file is None  # the file applies no added mass: said, not zero


def test_a_link_without_collisions_says_what_was_not_estimated(tmp_path: Path) -> None:
    text = sdf.model(sdf.link("bare", sdf.inertial(1.0, np.eye(3))))
    (link,) = gzinertia.compare(sdf.write(tmp_path, text)).links
    assert any("no collision" in n for n in link.notes)
    assert any(n.startswith("ellipsoid: not estimated") for n in link.notes)
    assert any(n.startswith("mujoco: not estimated") for n in link.notes)


def _check_json(out: str) -> dict[str, object]:
    def refuse(token: str) -> None:
        raise AssertionError(f"not JSON: {token}")

    data = json.loads(out, parse_constant=refuse)
    jsonschema.validate(data, SCHEMA)
    return data


EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*.sdf"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_compare_runs_on_every_example(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["compare", str(path), "-m", str(EXAMPLES), "--json"], capsys)
    assert status == 0, err
    data = _check_json(out)
    assert data["file"] == str(path)


def test_compare_with_an_entry_as_text_and_json(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = _vehicle_model(tmp_path, "remus100")
    status, out, err = run_cli(["compare", str(path), "--with", "remus100"], capsys)
    assert status == 0, err
    assert "entry remus100: Timothy Prestero (2001)" in out
    assert "same numbers as catalogue entry remus100" in out
    status, out, err = run_cli(["compare", str(path), "--with", "remus100", "--json"], capsys)
    assert status == 0, err
    data = _check_json(out)
    assert data["entry"]["id"] == "remus100"  # type: ignore[index]


def test_an_unknown_entry_is_one_line_and_status_2(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = _vehicle_model(tmp_path, "remus100")
    status, out, err = run_cli(["compare", str(path), "--with", "remus200"], capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "no catalogue entry 'remus200' (known: " in err


BLUEROV2_HEAVY = CORPUS / "clydemcqueen__bluerov2_gz" / "models" / "bluerov2_heavy" / "model.sdf"


@pytest.mark.skipif(not BLUEROV2_HEAVY.is_file(), reason="the corpus is not on this machine")
def test_the_corpus_bluerov2_heavy_is_recognised_as_the_bluerov2_ignition_set() -> None:
    """Its README cites von Benzon et al.'s simulator; its numbers are not theirs."""
    link = gzinertia.compare(BLUEROV2_HEAVY, links="*base_link").links[0]
    assert [m.entry for m in link.copies] == ["bluerov2_heavy_ignition"]
    rows = {r.quantity: r for r in gzinertia.compare(
        BLUEROV2_HEAVY, links="*base_link", entry="bluerov2_heavy_vonbenzon2022").links[0].rows}
    benzon = catalogue.entry("bluerov2_heavy_vonbenzon2022").published.terms["xUabsU"]
    assert rows["xUabsU"].ratio_to_entry == rows["xUabsU"].file / -benzon  # type: ignore[operator]


def test_the_entry_is_compared_with_each_models_heaviest_link_unless_links_are_named(
    tmp_path: Path,
) -> None:
    """An entry describes a whole vehicle: its numbers stand beside the hull (the heaviest
    link), not beside every fin; ``links=`` names the links to compare instead."""
    text = sdf.model(sdf.link("hull", sdf.inertial(30.0, np.eye(3)), sdf.box([1, 0.2, 0.2])),
                     sdf.link("fin", sdf.inertial(0.2, np.eye(3)), sdf.box([0.1, 0.01, 0.1])))
    path = sdf.write(tmp_path, text)
    shown = {c.link: any(r.entry is not None for r in c.rows)
             for c in gzinertia.compare(path, entry="remus100").links}
    assert shown == {"m::hull": True, "m::fin": False}
    (fin,) = gzinertia.compare(path, entry="remus100", links="*fin").links
    assert any(r.entry is not None for r in fin.rows)


def test_units_follow_the_term() -> None:
    assert [quantity_unit(n) for n in ("xU", "xUabsU", "yRabsR", "mWabsW", "nRabsR", "kP", "yR")] == [
        "kg/s", "kg/m", "kg·m", "kg", "kg·m²", "kg·m²/s", "kg·m/s"]


@pytest.mark.parametrize("text", [None, "<sdf", "\x00\x01binary"])
def test_a_bad_file_is_one_line_and_status_2(tmp_path: Path, text: str | None,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "model.sdf"
    if text is not None:
        path.write_text(text)
    status, out, err = run_cli(["compare", str(path), "--json"], capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and str(path) in err
