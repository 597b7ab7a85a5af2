"""Issue 24: no silent fallback. A model with each kind of geometry (a primitive, a closed mesh,
a mesh of overlapping closed pieces, a mesh that needs repair, an open mesh under ``--hull
convex``) run through ``hydrostatics``, ``addmass --ellipsoid``, ``addmass --bem`` and the
audit: what the geometry pipeline did to each shape is recorded in the text, in the JSON and in
the comment written into the file, and nothing is said for a shape used as it is.

The expected notes are what each generated file needs (counted from how it was built: three
pieces, five flipped triangles, a convex hull), not the tool's output typed in.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from conftest import run_cli
from geometry_pieces import overlapping_pieces

pytest.importorskip("manifold3d")

#: link -> words its geometry note holds (``None``: no note: the shape used as it is).
EXPECTED: dict[str, tuple[str, ...] | None] = {
    "primitive": None,
    "closed": None,
    "pieces": ("union of 3 closed pieces",),
    "repaired": ("repaired", "5 triangles flipped"),
    "hull": ("convex hull of a mesh that is not closed",),
}


def _meshes(folder: Path) -> None:
    trimesh.creation.icosphere(2, radius=0.2).export(folder / "closed.stl")
    trimesh.util.concatenate(overlapping_pieces()).export(folder / "pieces.stl")
    flipped = trimesh.creation.icosphere(2, radius=0.2)
    faces = np.asarray(flipped.faces).copy()
    faces[:5] = faces[:5, ::-1]  # five triangles wound the wrong way
    trimesh.Trimesh(flipped.vertices, faces, process=False).export(folder / "repaired.stl")
    opened = trimesh.creation.icosphere(2, radius=0.2)
    opened.update_faces(opened.face_normals[:, 2] < 0.7)  # a wide opening at the top
    opened.export(folder / "hull.stl")


def _model(folder: Path) -> Path:
    _meshes(folder)
    links = []
    for k, name in enumerate(EXPECTED):
        shape = (sdf.box((0.3, 0.3, 0.3), name="c") if name == "primitive"
                 else sdf.mesh(f"{name}.stl", name="c"))
        links.append(sdf.link(name, sdf.inertial(20.0, np.diag([0.4, 0.4, 0.4]), posed=False),
                              shape, pose=(3.0 * k, 0, 0, 0, 0, 0)))
    path = folder / "kinds.sdf"
    path.write_text(sdf.model(*links, name="kinds"))
    return path


def _said(text: str | None, name: str) -> None:
    """``text`` holds the link's expected note (or, for a shape used as is, no note words)."""
    expected = EXPECTED[name]
    if expected is None:
        for word in ("repaired", "union of", "convex hull"):
            assert text is None or word not in text, (name, text)
        return
    assert text is not None, name
    for word in expected:
        assert word in text, (name, word, text)


def _comments(written: str) -> dict[str, str]:
    """Each link's XML comments, joined (the links are written in order)."""
    out = {}
    for name in EXPECTED:
        body = written.split(f'<link name="{name}">', 1)[1].split("</link>", 1)[0]
        out[name] = " ".join(part.split("-->", 1)[0] for part in body.split("<!--")[1:])
    return out


def _audit(path: Path, capsys: pytest.CaptureFixture[str]) -> set[tuple[str, str]]:
    """The audit's ``(code, link)`` pairs on ``path`` (its folder's ``.gzinertia.toml`` read);
    no GZI003: with ``hull = "convex"`` every mesh here is usable."""
    _, out, err = run_cli(["audit", str(path), "--format", "json"], capsys)
    found = {(f["code"], f["link"]) for f in json.loads(out)["findings"]}
    assert not any(code == "GZI003" for code, _ in found), (found, err)
    return found


def test_every_geometry_kind_is_said_in_hydrostatics_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _model(tmp_path)
    code, out, err = run_cli(["hydrostatics", str(path), "--json", "--hull", "convex"], capsys)
    assert code == 0, err
    links = {link["name"].split("::")[-1]: link
             for link in json.loads(out)["models"][0]["links"]}
    for name in EXPECTED:
        _said(links[name]["collisions"][0]["note"], name)
        kind = "approximate" if name == "hull" else "exact"
        assert links[name]["volume_exact_kind"] == kind, (name, links[name])
    code, out, err = run_cli(["hydrostatics", str(path), "--hull", "convex"], capsys)
    assert code == 0, err
    for name in EXPECTED:
        line = "\n".join(ln for ln in out.splitlines() if f"kinds::{name}::c:" in ln) or None
        _said(line, name)


def test_every_geometry_kind_is_said_in_the_ellipsoid_comment_and_audit_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``addmass --ellipsoid``: each fit's comment says what its geometry is, the text says it
    too, and an audit with the same ``hull`` setting adds no finding after the edit."""
    path = _model(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text('hull = "convex"\n')
    before = _audit(path, capsys)
    code, out, err = run_cli(
        ["addmass", str(path), "--ellipsoid", "--hull", "convex", "--in-place"], capsys
    )
    assert code == 0, err
    comments = _comments(path.read_text())
    for name in EXPECTED:
        _said(comments[name], name)
        if EXPECTED[name] is not None:
            _said("\n".join(ln for ln in (out + err).splitlines() if name in ln), name)
    after = _audit(path, capsys)
    assert after <= before, after - before


def test_every_geometry_kind_is_said_in_the_bem_comment_and_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("capytaine")
    path = _model(tmp_path)
    code, out, err = run_cli(
        ["addmass", str(path), "--bem", "--quality", "fast", "--hull", "convex", "--in-place"],
        capsys,
    )
    assert code == 0, err
    comments = _comments(path.read_text())
    text = out + err
    for name in EXPECTED:
        _said(comments[name], name)
        block = text.split(f"kinds::{name}: BEM (", 1)[1].split("kinds::", 1)[0]
        _said(block if EXPECTED[name] is not None else None, name)


def test_the_plot_legend_says_its_outlines_are_convex_hulls(tmp_path: Path) -> None:
    """A plot draws each piece's projected convex hull (a picture, not the body): its legend
    says so, whatever the geometry."""
    import matplotlib.pyplot as plt

    from gzinertia.report.plot import link_drawing
    from gzinertia.report.plot_figure import figure
    from gzinertia.sdf import read_sdf_file

    doc = read_sdf_file(_model(tmp_path))
    fig = figure([("kinds", [link_drawing(lk, lk.X_WB, None) for lk in doc.links])])
    texts = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    plt.close(fig)
    assert any("convex hull" in t for t in texts), texts
