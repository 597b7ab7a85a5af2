"""The BEM surface in the HTML report (issue 30): a link whose added mass ``addmass --bem``
computed is drawn with the panels it was solved on, meshed again from the panel size its
provenance comment now records, in a layer of its own; where that cannot be done the page says
why.

Oracles: the solve itself (:func:`gzinertia.physics.bem.bem_added_mass`'s panel count and the
length scale of the volume it solved on), the sphere's area 4πr² and trimesh's area and volume
of the remeshed panels; the page read back in headless Chromium against the page's data and the
comment ``addmass --bem`` wrote.
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli
from oracles.chromium import chromium_binary, open_page

import gzinertia
from gzinertia.physics.provenance_comment import (
    BemProvenance,
    bem_comment,
    comment_data,
    read_bem_comment,
)
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")

RADIUS = 0.3


def _comment(**surface: Any) -> str:
    return bem_comment(capytaine_version="3.0.0", method="direct", panels=616,
                       frequency="infinite", fluid_domain="unbounded fluid",
                       relative_error=0.02, collisions=["hull"],
                       digest="sha256:d3b8915fa5ff5821", density=1000.0, **surface)


# --- the comment -------------------------------------------------------------------------------


def test_the_comment_records_the_panel_size_exactly_and_older_ones_still_read() -> None:
    h = 0.1 / 3.0
    read = read_bem_comment(_comment(panel_size=h))
    assert read is not None and read.panel_size == h and read.panels == 616
    assert read.closed_panels is None
    under = read_bem_comment(_comment(panel_size=h, closed_panels=1500))
    assert under is not None and (under.panels, under.closed_panels) == (616, 1500)
    older = _comment()  # as written before: no panel size, the rest as it was
    assert "panel_size" not in (comment_data(older) or {})
    assert read_bem_comment(older) == BemProvenance(("hull",), "sha256:d3b8915fa5ff5821")
    assert read_bem_comment(_comment(panel_size=h)) == BemProvenance(
        ("hull",), "sha256:d3b8915fa5ff5821", panel_size=h, panels=616)


@pytest.mark.parametrize("value", ["nan", "-1.0", "0.0", "inf", "x"])
def test_a_panel_size_that_does_not_read_back_is_none(value: str) -> None:
    comment = _comment(panel_size=0.05).replace("panel_size=0.05", f"panel_size={value}")
    read = read_bem_comment(comment)
    assert read is not None and read.panel_size is None


# --- the remesh against the solve --------------------------------------------------------------


def test_the_remesh_is_the_surface_the_solve_used() -> None:
    """The sphere solved at quality fast, then meshed again at the panel size the solve
    reports: the same panel count, the volume the solve's length scale comes from, and the
    area of a sphere to the discretisation."""
    pytest.importorskip("capytaine")
    trimesh = pytest.importorskip("trimesh")
    from gzinertia.physics.bem import QUALITY_PANELS, bem_added_mass
    from gzinertia.physics.bem_meshes import mesh_link
    from gzinertia.physics.bem_panels import bem_surface

    where = SourceRef("m.sdf", 1)
    shapes = [Collision("hull", Pose(), Geometry("sphere", radius=RADIUS), where)]
    solved = bem_added_mass(shapes, 1000.0, quality="fast", use_cache=False)
    surface = bem_surface(shapes, solved.panel_size, 1000.0, link="hull")
    assert surface.panels == solved.panels
    length = (3.0 * surface.volume() / (4.0 * math.pi)) ** (1.0 / 3.0)
    assert length == pytest.approx(solved.length_scale, rel=1e-12)
    mesh = trimesh.Trimesh(surface.vertices, surface.faces, process=False)
    assert mesh.is_watertight and mesh.area == pytest.approx(surface.area(), rel=1e-12)
    # the meshing step addmass --bem runs (in its child process), run here: the same area
    _, meshes = mesh_link(shapes, solved.panel_size, QUALITY_PANELS["fast"], None, "collision",
                          "hull")
    assert meshes.fine.panels == surface.panels and meshes.fine.area() == surface.area()
    # a sphere's, to its tessellation (the primitive's facets are refined, not bent)
    assert surface.area() == pytest.approx(4.0 * math.pi * RADIUS**2, rel=0.03)


# --- the page ----------------------------------------------------------------------------------


def _solved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, BemProvenance]:
    pytest.importorskip("capytaine")
    path = tmp_path / "ball.sdf"
    body = sdf.link("ball", sdf.inertial(100.0, np.eye(3) * 3.6), sdf.sphere(RADIUS, name="hull"))
    path.write_text(sdf.model(body, name="ball"), encoding="utf-8")
    args = ["addmass", str(path), "--bem", "--quality", "fast"]
    code, _, err = run_cli([*args, "--in-place"], capsys)
    assert code == 0, err
    code, _, err = run_cli([*args, "--check"], capsys)  # the comment it wrote is its own
    assert code == 0, err
    (link,) = gzinertia.read(path).links
    provenance = read_bem_comment(link.inertial.added_mass_comment)
    assert provenance is not None and provenance.panel_size is not None
    return path, provenance


def _page(path: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, _, err = run_cli(["report", str(path), "-o", str(out)], capsys)
    assert code == 0, err
    found = re.search(r'<script type="application/json" id="gzinertia-data">(.*?)</script>',
                      out.read_text(encoding="utf-8"), re.S)
    assert found
    (model,) = json.loads(found.group(1))["models"]
    return dict(model)


def test_the_page_draws_the_panels_addmass_bem_solved_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, provenance = _solved(tmp_path, capsys)
    model = _page(path, tmp_path / "ball.html", capsys)
    (link,) = model["links"]
    drawn = link["bem_surface"]
    assert drawn["panels"] == drawn["solved_panels"] == provenance.panels
    assert drawn["panel_size"] == provenance.panel_size
    assert drawn["area"] == pytest.approx(4.0 * math.pi * RADIUS**2, rel=0.03)
    assert not [s for s in model["not_drawn"] if "BEM" in s]
    # the audit after the edit: no finding about the link's added mass
    code, out, err = run_cli(["audit", "--no-cache", "--format", "json", str(path)], capsys)
    assert code in (0, 1), err
    assert not [f for f in json.loads(out)["findings"] if f["code"] in ("GZI204", "GZI212")]


def test_the_page_says_why_it_cannot_draw_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment without the panel size (written before), a geometry changed since the solve,
    and no bem extra: each said, nothing drawn."""
    path, _ = _solved(tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    older = re.sub(r" panel_size=\S+ panels=\d+", "", text)
    assert older != text
    path.write_text(older, encoding="utf-8")
    said = _page(path, tmp_path / "a.html", capsys)
    assert said["links"][0]["bem_surface"] is None
    assert any("does not record the panel size" in s for s in said["not_drawn"])
    path.write_text(text.replace(f'<radius>{RADIUS}</radius>', "<radius>0.31</radius>"),
                    encoding="utf-8")
    said = _page(path, tmp_path / "b.html", capsys)
    assert said["links"][0]["bem_surface"] is None
    assert any("changed since the solve (GZI212)" in s for s in said["not_drawn"])
    path.write_text(text, encoding="utf-8")
    from gzinertia.physics import bem_solve

    monkeypatch.setattr(bem_solve, "cpt", None)  # imported at the top, None when missing
    said = _page(path, tmp_path / "c.html", capsys)
    assert said["links"][0]["bem_surface"] is None
    (line,) = [s for s in said["not_drawn"] if "BEM surface not drawn" in s]
    assert "gzinertia[bem]" in line


@pytest.fixture(scope="module")
def browser() -> str:
    binary, why = chromium_binary()
    if binary is None:
        pytest.skip(f"needs headless chromium (apt-get install chromium): {why}")
    return binary


def test_the_panels_in_the_browser(browser: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The browser builds the BEM layer with the page's panels (the test hook reads the
    three.js geometry back), and the layer has its toggle."""
    path, provenance = _solved(tmp_path, capsys)
    page = tmp_path / "ball.html"
    _page(path, page, capsys)
    dom = open_page(page)
    found = re.search(r'<pre id="gzinertia-scene"[^>]*>(.*?)</pre>', dom, re.S)
    assert found, "the page's script did not finish (no test hook in the DOM)"
    (read,) = json.loads(html.unescape(found.group(1)))["files"]
    assert read["bem"] == [{"link": "ball::ball", "panels": provenance.panels}]
    assert 'data-layer="bem"' in dom
