"""``gzinertia report`` (issue 30): the HTML page opened in a real browser (headless Chromium,
offline), the scene it built read back through its test hook (``window.gzinertiaScene``,
serialised into ``<pre id="gzinertia-scene">``) and compared with ``show --json``,
``hydrostatics --json`` and ``audit --format json`` of the same files (the library's JSON,
oracle-tested elsewhere); a screenshot checked not to be blank; nothing fetched from a network.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import EXAMPLES, run_cli
from oracles.chromium import chromium_binary, open_page, screenshot
from sdfgen import shapes_vehicle_for_seed

import gzinertia

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")

#: Every model file of the examples, in one report (one entry of the page's chooser each).
EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".sdf", ".urdf"))
#: The examples' worlds include the example models by model:// URI.
MODEL_PATH = ["-m", str(EXAMPLES)]


@pytest.fixture(scope="session")
def browser() -> str:
    """Debian's chromium, installed with apt-get when missing and allowed (tests/oracles/
    chromium.py); the test is skipped, saying why, where it cannot be."""
    binary, why = chromium_binary()
    if binary is None:
        pytest.skip(f"needs headless chromium (apt-get install chromium): {why}")
    return binary


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    status, out, err = run_cli(args, capsys)
    assert status in (0, 1), err
    return json.loads(out)


def _report(files: list[Path], out: Path, capsys: pytest.CaptureFixture[str],
            *extra: str) -> str:
    status, _, err = run_cli(["report", *map(str, files), *MODEL_PATH, *extra, "-o", str(out)],
                             capsys)
    assert status == 0, err
    assert f"wrote {out}" in err
    return err


def _scene(page: Path, fragment: str = "") -> dict[str, Any]:
    dom = open_page(page, fragment)
    found = re.search(r'<pre id="gzinertia-scene"[^>]*>(.*?)</pre>', dom, re.S)
    assert found, "the page's script did not finish (no test hook in the DOM)"
    return dict(json.loads(html.unescape(found.group(1))))


def _page_data(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="gzinertia-data">(.*?)</script>',
                      text, re.S)
    assert found
    return dict(json.loads(found.group(1)))


def _check_against_json(read: dict[str, Any], file: Path, data: dict[str, Any],
                        capsys: pytest.CaptureFixture[str]) -> None:
    """The scene read back from the browser against ``show --json`` and ``hydrostatics
    --json`` of ``file``, and the shapes the reader found."""
    show = _json(["show", str(file), *MODEL_PATH, "--json"], capsys)
    assert read["links"] == [link["name"] for link in show["links"]]
    assert read["frames"] == len(show["links"])
    solid = [lk["name"] for lk in show["links"] if not lk["inertial_defaulted"]
             and None not in lk["equivalent_ellipsoid_semi_axes"]]
    assert read["ellipsoids"] == len(solid)
    unsolid = {s.split(": no inertia ellipsoid")[0].removeprefix(f"{data['file']}: ")
               for s in data["not_drawn"] if ": no inertia ellipsoid: " in s}
    assert unsolid == {lk["name"] for lk in show["links"]} - set(solid)
    hydro = _json(["hydrostatics", str(file), *MODEL_PATH, "--json"], capsys)
    for key in ("p_WG", "p_WB", "p_WB_exact"):
        expected = {m["name"]: m[key] for m in hydro["models"] if m[key] is not None}
        drawn = read[{"p_WG": "G", "p_WB": "B", "p_WB_exact": "B_exact"}[key]]
        assert drawn.keys() == expected.keys()
        for name, p in expected.items():
            np.testing.assert_allclose(drawn[name], p, rtol=1e-12, atol=1e-12)
    # an added-mass ellipsoid per link that carries added mass (show's A_BBo_B, or its
    # plugin's), at the centre the page's data holds, unless the page says why not
    carried = {lk["name"] for lk in show["links"]
               if lk["A_BBo_B"] is not None or lk["hydrodynamics_added_mass"] is not None}
    unsaid = {s.split(": no added-mass ellipsoid")[0].removeprefix(f"{data['file']}: ")
              for s in data["not_drawn"] if ": no added-mass ellipsoid: " in s}
    assert {a["link"] for a in read["added_mass"]} == carried - unsaid
    centres = {lk["name"]: lk["added_mass_ellipsoid"]["centre"] for lk in data["links"]
               if lk["added_mass_ellipsoid"]}
    for a in read["added_mass"]:
        np.testing.assert_allclose(a["centre"], centres[a["link"]], rtol=1e-6, atol=1e-6)
    doc = gzinertia.read(file, model_paths=[EXAMPLES])
    shapes = sum(len(lk.collisions) + len(lk.visuals) for lk in doc.links)
    skipped = [s for s in data["not_drawn"] if re.search(r": (collision|visual) '", s)]
    assert read["meshes"] == shapes - len(skipped) == len(data["meshes"])


def test_examples_in_browser(browser: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    """Each example's scene, as the browser built it, holds show --json's links (frame and
    ellipsoid each), hydrostatics --json's G, B and exact B per model, and every shape."""
    page = tmp_path / "examples.html"
    _report(EXAMPLE_FILES, page, capsys)
    scene = _scene(page)
    data = _page_data(page)
    assert [f["file"] for f in scene["files"]] == [str(p) for p in EXAMPLE_FILES]
    for read, file, model in zip(scene["files"], EXAMPLE_FILES, data["models"], strict=True):
        _check_against_json(read, file, model, capsys)
    assert sum(f["meshes"] for f in scene["files"]) > 20


def test_generated_vehicle_in_browser(browser: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A generated vehicle with mesh files, cones and rotated shapes: the same read-back, and
    #link=NAME highlights exactly that link's shapes."""
    model = tmp_path / "vehicle.sdf"
    model.write_text(shapes_vehicle_for_seed(7, tmp_path), encoding="utf-8")
    page = tmp_path / "vehicle.html"
    _report([model], page, capsys)
    scene = _scene(page)
    (read,) = scene["files"]
    _check_against_json(read, model, _page_data(page)["models"][0], capsys)
    assert read["meshes"] > 0
    doc = gzinertia.read(model)
    fitted = []
    for lk in doc.links:
        try:
            ellipsoids = gzinertia.fit(lk, "volume").ellipsoids
        except gzinertia.GzInertiaError:
            continue
        fitted += [(lk.name, (lk.X_WB @ e.X_FE).p) for e in ellipsoids]
    drawn = read["fluid"]
    assert [d["link"] for d in drawn] == [name for name, _ in fitted] and drawn
    for d, (_, p) in zip(drawn, fitted, strict=True):
        np.testing.assert_allclose(d["centre"], p, rtol=1e-12, atol=1e-12)
    first = read["links"][0]
    picked = _scene(page, "#link=" + first)
    link = next(lk for lk in doc.links if lk.name == first)
    assert picked["highlighted"] == [first] * (len(link.collisions) + len(link.visuals))


def test_screenshot_is_not_blank(browser: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The 3D view (left part of the page) is drawn: its pixels vary, and some are the
    collisions' blue."""
    from PIL import Image

    page = tmp_path / "torpedo.html"
    _report([EXAMPLES / "torpedo_auv" / "model.sdf"], page, capsys)
    png = tmp_path / "torpedo.png"
    screenshot(page, png)
    pixels = np.asarray(Image.open(png).convert("RGB"), dtype=float)
    view = pixels[60:700, :1000]
    assert view.std() > 10.0
    blue = (view[..., 2] > view[..., 0] + 40) & (view[..., 2] > 120)
    assert blue.sum() > 1000


def test_page_loads_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No script, style, image or frame source in the page names an address: everything is
    inlined (the browser tests load it with every host name unresolvable). Rule pages are the
    only links, opened on click."""
    page = tmp_path / "r.html"
    _report([EXAMPLES / "box_rov" / "model.sdf"], page, capsys)
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=", text, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", text, re.I)
    assert "THREE" in text and "three.js authors" in text.lower()  # licence header kept


def test_findings_and_rule_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page lists audit --format json's findings of each file (code, line, link,
    message), each with its rule page under --docs-url."""
    files = [EXAMPLES / "defects" / "non_psd_added_mass" / "model.sdf",
             EXAMPLES / "defects" / "urdf_massless_link" / "model.urdf"]
    page = tmp_path / "defects.html"
    _report(files, page, capsys, "--docs-url", "https://example.org/gzi/")
    for model, file in zip(_page_data(page)["models"], files, strict=True):
        audit = _json(["audit", "--isolated", "--format", "json", *MODEL_PATH, str(file)],
                      capsys)
        want = [(f["code"], f["line"], f["link"], f["message"]) for f in audit["findings"]]
        got = [(f["code"], f["line"], f["link"], f["message"]) for f in model["findings"]]
        assert got == want and got
        for f in model["findings"]:
            assert f["page"] == f"https://example.org/gzi/docs/rules/{f['code']}.md"
            assert (EXAMPLES.parent / "docs" / "rules" / f"{f['code']}.md").is_file()


def test_not_drawn_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mesh that cannot be read and a plane are named in the page and on stderr; the
    shapes that can be drawn still are."""
    model = tmp_path / "m.sdf"
    model.write_text("""<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="hull"><inertial><mass>2</mass></inertial>
    <collision name="body"><geometry><box><size>1 0.5 0.2</size></box></geometry></collision>
    <collision name="lost"><geometry><mesh><uri>gone.stl</uri></mesh></geometry></collision>
    <visual name="floor"><geometry><plane><normal>0 0 1</normal></plane></geometry></visual>
  </link></model></sdf>""", encoding="utf-8")
    page = tmp_path / "m.html"
    err = _report([model], page, capsys)
    (data,) = _page_data(page)["models"]
    assert [m["name"] for m in data["meshes"]] == ["body"]
    said = "\n".join(data["not_drawn"])
    assert "'lost' not drawn" in said and "'floor' not drawn" in said
    assert "'lost' not drawn" in err and "'floor' not drawn" in err


def test_no_links_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A world without models still gets its page, which says there is nothing to draw."""
    world = tmp_path / "w.sdf"
    world.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="w"/></sdf>',
                     encoding="utf-8")
    page = tmp_path / "w.html"
    err = _report([world], page, capsys)
    (data,) = _page_data(page)["models"]
    assert data["not_drawn"] == [f"{world}: no links to draw"]
    assert f"{world}: no links to draw" in err


def test_install_hint_without_three(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the report extra: one line naming it, exit status 2, nothing written."""
    monkeypatch.setitem(sys.modules, "jupyter_threejs_sage", None)
    out = tmp_path / "r.html"
    status, _, err = run_cli(["report", str(EXAMPLES / "box_rov" / "model.sdf"), "-o",
                              str(out)], capsys)
    assert status == 2
    assert err.count("\n") == 1 and "pip install 'gzinertia[report]'" in err
    assert not out.exists()


@pytest.mark.parametrize("args", [
    ["{missing}", "-o", "{out}"],
    ["-", "-o", "{out}"],
    ["{model}", "-o", "{tmp}/no/such/folder/r.html"],
    ["{model}", "--ellipsoid-scale", "-1", "-o", "{out}"],
])
def test_bad_input_is_one_line(args: list[str], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file, standard input, an unwritable output, a bad scale: one line, exit 2."""
    names = {"missing": tmp_path / "nope.sdf", "out": tmp_path / "r.html", "tmp": tmp_path,
             "model": EXAMPLES / "box_rov" / "model.sdf"}
    status, _, err = run_cli(["report", *(a.format(**names) for a in args)], capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("gzinertia: error: ")
    assert "Traceback" not in err


def test_hostile_names_stay_text(browser: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A link named like markup that closes the page's scripts is read back as that very name:
    the data cannot end its element, and the page writes names as text."""
    name = "a</script><script>document.title='x'</script><!--"
    model = tmp_path / "m.sdf"
    escaped = html.escape(name, quote=True)
    model.write_text(f"""<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="{escaped}"><inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>
  </inertia></inertial>
    <collision name="c"><geometry><sphere><radius>0.3</radius></sphere></geometry></collision>
  </link></model></sdf>""", encoding="utf-8")
    page = tmp_path / "m.html"
    _report([model], page, capsys)
    assert "</script><script>document" not in page.read_text(encoding="utf-8")
    (read,) = _scene(page)["files"]
    assert read["links"] == [f"m::{name}"]
    assert read["meshes"] == 1


def test_righting_curve_in_browser(browser: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """With --waterline, the floating model's righting-moment curve is drawn (19 points, 0 to
    90°): it starts at GZ = 0, and at 5° (the spar wall-sided at its waterline) it is the
    wall-sided formula's GZ = sin φ (GM_T + ½ BM_T tan² φ) with hydrostatics --json's GM_T and
    BM_T at the same waterline."""
    file = EXAMPLES / "spar_buoy" / "model.sdf"
    page = tmp_path / "spar.html"
    _report([file], page, capsys, "--waterline", "0")
    (read,) = _scene(page)["files"]
    curve = read["righting"]["spar_buoy"]
    assert curve["points"] == 19 and curve["heel_deg"] == pytest.approx(list(range(0, 91, 5)))
    hydro = _json(["hydrostatics", str(file), "--waterline", "0", "--json"], capsys)
    flotation = hydro["models"][0]["flotation"]
    assert abs(curve["GZ"][0]) < 1e-9
    phi = np.radians(5.0)
    wall_sided = np.sin(phi) * (flotation["GM_T"] + 0.5 * flotation["BM_T"] * np.tan(phi) ** 2)
    assert curve["GZ"][1] == pytest.approx(wall_sided, rel=1e-9)


def test_folder_in_browser(browser: str, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    """A folder is searched as audit searches it: its model files are reported, a template
    and a file that cannot be read are listed at the top of the page and on stderr."""
    import shutil

    folder = tmp_path / "models"
    folder.mkdir()
    shutil.copy(EXAMPLES / "box_rov" / "model.sdf", folder / "rov.sdf")
    (folder / "hull.sdf.erb").write_text("<sdf><%= x %></sdf>", encoding="utf-8")
    (folder / "broken.sdf").write_text("<sdf", encoding="utf-8")
    page = tmp_path / "folder.html"
    err = _report([folder], page, capsys)
    scene = _scene(page)
    assert [f["file"] for f in scene["files"]] == [str(folder / "rov.sdf")]
    assert len(scene["skipped"]) == 2
    for name in ("hull.sdf.erb", "broken.sdf"):
        (line,) = [s for s in scene["skipped"] if name in s]
        assert line in err
