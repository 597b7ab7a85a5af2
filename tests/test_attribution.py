"""Notes and findings on the right link, none lost; what cannot be read is said, first.

* The reader attaches each note to the link it was written for (``Note.link``); the audit keys
  notes and findings on it, so the layout of a file (one line or many) and including a model
  twice never move or drop a finding. The oracle for attribution is the same model laid out one
  element per line: a layout-independent audit gives the same (code, link) pairs.
* Hydrodynamics plugins inside an ``<include>`` are read (libsdformat adds them to the included
  model); inside an include that cannot be resolved, what the text allows is checked and what
  it does not is listed.
* Fuel URLs resolve from the local Fuel cache (gz-fuel-tools' layout), never the network.
* An unknown URI scheme is reported with the near scheme; blank lines before ``<?xml`` are read
  (libsdformat, the compiled oracle, reads them).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import run
from conftest import CORPUS, run_cli
from sdf_builders import (
    box,
    frame,
    hydro_plugin,
    include,
    inertial,
    link,
    mesh,
    model,
    model_config,
    nested_model,
    one_element_per_line,
    one_line,
    write,
)
from sdf_builders import world as world_text

from gzinertia.checks.context import DocumentContext
from gzinertia.sdf import read_sdf_file

GZ_SIM_WORLDS = CORPUS / "gazebosim__gz-sim" / "examples" / "worlds"

def _link(name: str, mass: float, relative_to: str | None = None) -> str:
    """A unit cube of ``mass`` (unit inertia), its inertial posed ``relative_to`` a frame when
    given (which SDFormat ignores there: the reader's ``inertial-relative-to`` note)."""
    return link(name, inertial(mass, np.eye(3), relative_to=relative_to,
                               posed=relative_to is not None), box((1, 1, 1), pose=None))


def _model(*links: str, name: str = "m") -> str:
    """A model file of ``links``, all on one line (the layout under test)."""
    return one_line(model(*links, version="1.9", name=name))


_one_per_line = one_element_per_line


def _pairs(paths: list[Path]) -> list[tuple[str, str | None]]:
    return sorted((f.code, f.link) for f in run(paths).findings)


# --- notes and findings on the right link ------------------------------------------------------


def test_a_model_on_one_line_keeps_every_links_finding(tmp_path: Path) -> None:
    text = _model(_link("a", -1.0), _link("b", -2.0, relative_to="a"), _link("c", 3.0))
    one = write(tmp_path / "one", text)
    many = write(tmp_path / "many", _one_per_line(text))
    assert len(one.read_text().splitlines()) == 1
    expected = _pairs([many])
    assert ("GZI101", "m::a") in expected and ("GZI101", "m::b") in expected
    assert ("GZI108", "m::b") in expected
    assert _pairs([one]) == expected


def test_reader_notes_carry_their_link(tmp_path: Path) -> None:
    text = _model(_link("a", 1.0), _link("b", 1.0, relative_to="a"), "<link name='d'/>")
    doc = read_sdf_file(write(tmp_path, text))
    by_code = {(n.code, n.link) for n in doc.notes}
    assert ("inertial-relative-to", "m::b") in by_code
    assert ("inertial-defaulted", "m::d") in by_code
    ctx = DocumentContext(doc)
    notes = {lk.name: {n.code for n in lk.notes} for lk in ctx.links}
    assert notes == {"m::a": set(), "m::b": {"inertial-relative-to"},
                     "m::d": {"inertial-defaulted"}}


def test_a_model_included_twice_gets_each_note_on_its_own_link(tmp_path: Path) -> None:
    model = tmp_path / "models" / "boat"
    write(model, _model(_link("hull", 1.0), _link("fin", 1.0, relative_to="hull"), name="boat"))
    world = write(tmp_path, world_text(include("models/boat", "a"),
                                       include("models/boat", "b", (9, 0, 0, 0, 0, 0)),
                                       version="1.9"), "world.sdf")
    doc = read_sdf_file(world)
    ctx = DocumentContext(doc)
    notes = {lk.name: [n.code for n in lk.notes] for lk in ctx.links}
    assert notes["a::fin"] == ["inertial-relative-to"] == notes["b::fin"]
    assert notes["a::hull"] == [] == notes["b::hull"]
    # One element at fault, one finding: on the link of the first include.
    found = [(f.code, f.link) for f in run([world]).findings if f.code == "GZI108"]
    assert found == [("GZI108", "a::fin")]


def test_same_named_links_of_two_nested_models_on_one_line_both_report(tmp_path: Path) -> None:
    text = _model(nested_model("x", _link("l", -1.0)), nested_model("y", _link("l", -1.0)))
    one = write(tmp_path / "one", text)
    many = write(tmp_path / "many", _one_per_line(text))
    assert ("GZI101", "m::x::l") in _pairs([many]) and ("GZI101", "m::y::l") in _pairs([many])
    assert _pairs([one]) == _pairs([many])


# --- Hydrodynamics plugins inside includes ---------------------------------------------------

def _world_with_include(uri: str, terms: dict[str, float], name: str | None = None) -> str:
    """A world including ``uri`` with a Hydrodynamics plugin of ``terms`` for its
    ``base_link`` inside the ``<include>``."""
    return world_text(include(uri, name, parts=[hydro_plugin("base_link", terms)]),
                      version="1.9")


def test_plugin_inside_an_unresolved_include_is_checked_from_its_text(tmp_path: Path) -> None:
    world = write(tmp_path, _world_with_include(
        "https://fuel.gazebosim.org/1.0/someone/models/Sub", {"xDotU": 6.4, "yUabsU": -3},
        name="sub"), "w.sdf")
    found = {f.code: f for f in run([world]).findings}
    assert found["GZI208"].link == "sub::base_link"  # positive xDotU: negative added mass
    assert found["GZI209"].link == "sub::base_link"  # yUabsU without xUabsU
    unchecked = found["GZI001"].message
    assert "GZI205" in unchecked and "GZI211" in unchecked  # what the text cannot tell


def test_model_plugin_naming_a_link_of_an_unresolved_include_is_checked(tmp_path: Path) -> None:
    text = _one_per_line(model(include("model://hull_not_here", merge=True),
                               hydro_plugin("base_link", {"zDotW": 15.4}), version="1.9",
                               name="auv"))
    model_file = write(tmp_path, text)
    found = {f.code: f for f in run([model_file]).findings}
    [z_line] = [i for i, line in enumerate(text.splitlines(), 1) if "<zDotW>" in line]
    assert z_line != next(i for i, line in enumerate(text.splitlines(), 1) if "<plugin" in line)
    assert found["GZI208"].link == "auv::base_link" and found["GZI208"].line == z_line
    assert "GZI211" not in found  # the link may be in the include: not claimed missing


@pytest.mark.skipif(not GZ_SIM_WORLDS.is_dir(), reason="corpus absent")
def test_gz_sim_multi_lrauv_race_typo_is_found() -> None:
    world = GZ_SIM_WORLDS / "multi_lrauv_race.sdf"
    found = [f for f in run([world]).findings if f.code == "GZI209"]
    lines = [i for i, text in enumerate(world.read_text().splitlines(), 1) if "<yUabsU>" in text]
    assert sorted(f.line for f in found) == lines and len(lines) >= 3
    assert {f.link for f in found} >= {"triton::base_link", "daphne::base_link"}


@pytest.mark.skipif(not GZ_SIM_WORLDS.is_dir(), reason="corpus absent")
def test_gz_sim_auv_controls_says_what_was_and_was_not_checked() -> None:
    world = GZ_SIM_WORLDS / "auv_controls.sdf"
    found = run([world]).findings
    [gzi001] = [f for f in found if f.code == "GZI001"]
    assert "Hydrodynamics" in gzi001.message and "GZI208" in gzi001.message
    assert "not checked" in gzi001.message
    # Fossen's negative xDotU is what gz-sim >= 6.12 expects: no sign finding.
    assert not [f for f in found if f.code == "GZI208"]


def test_plugin_inside_a_resolved_include_applies_to_the_included_link(tmp_path: Path) -> None:
    write(tmp_path / "models" / "sub", _model(_link("base_link", 10.0), name="sub"))
    world = write(tmp_path, _world_with_include("models/sub", {"xDotU": -2}), "w.sdf")
    link = read_sdf_file(world).link("sub::base_link")
    assert [p.terms for p in link.hydrodynamics] == [{"xDotU": -2.0}]


# --- Fuel URLs from the local cache ------------------------------------------------------------


def _fuel_model(cache: Path, host: str, owner: str, name: str, version: str, mass: float) -> Path:
    folder = cache / host / owner / "models" / name / version
    write(folder, _model(_link("base_link", mass), name="tethys"))
    (folder / "model.config").write_text(model_config(version="1.9"))
    return folder


FUEL_URL = "https://fuel.gazebosim.org/1.0/accurrent/models/MBARI%20Tethys%20LRAUV"


@pytest.mark.parametrize("where", ["GZ_FUEL_CACHE_PATH", ".gz/fuel", ".ignition/fuel"])
def test_fuel_url_resolves_from_the_local_cache_newest_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GZ_FUEL_CACHE_PATH", raising=False)
    monkeypatch.delenv("IGN_FUEL_CACHE_PATH", raising=False)
    cache = tmp_path / "cache" if where == "GZ_FUEL_CACHE_PATH" else home / where
    if where == "GZ_FUEL_CACHE_PATH":
        monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(cache))
    # Fuel lowercases names: the folder is "mbari tethys lrauv"; versions 2 and 10.
    _fuel_model(cache, "fuel.gazebosim.org", "accurrent", "mbari tethys lrauv", "2", 2.0)
    _fuel_model(cache, "fuel.gazebosim.org", "accurrent", "mbari tethys lrauv", "10", 10.0)
    world = write(tmp_path, _world_with_include(FUEL_URL, {"xDotU": -2}), "w.sdf")
    doc = read_sdf_file(world)
    link = doc.link("tethys::base_link")
    assert link.inertial.mass == 10.0  # the newest version folder, by number
    assert [p.terms for p in link.hydrodynamics] == [{"xDotU": -2.0}]
    pinned = write(tmp_path / "pinned", _world_with_include(FUEL_URL + "/2", {}), "w.sdf")
    assert read_sdf_file(pinned).link("tethys::base_link").inertial.mass == 2.0
    assert not [f for f in run([world]).findings if f.code == "GZI001"]


def test_fuel_mesh_urls_resolve_from_the_cache_and_nothing_leaves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trimesh

    cache = tmp_path / "cache"
    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(cache))
    folder = _fuel_model(cache, "fuel.gazebosim.org", "accurrent", "mbari tethys lrauv", "3", 1.0)
    (folder / "meshes").mkdir()
    trimesh.creation.box((1.0, 1.0, 1.0)).export(folder / "meshes" / "hull.stl")
    (tmp_path / "secret.stl").write_bytes((folder / "meshes" / "hull.stl").read_bytes())

    def mesh_path(uri: str) -> str | None:
        doc = read_sdf_file(write(tmp_path / "m", _model(link("l", mesh(uri, pose=None)))))
        return doc.link("m::l").collisions[0].geometry.mesh_path

    base = "https://fuel.gazebosim.org/1.0/accurrent/models/MBARI%20Tethys%20LRAUV/3/files/"
    assert mesh_path(base + "meshes/hull.stl") == str(folder / "meshes" / "hull.stl")
    # Percent-encoded separators and ".." stay inside the cached model (or resolve to nothing).
    assert mesh_path(base + "..%2F..%2F..%2F..%2F..%2F..%2Fsecret.stl") is None
    assert mesh_path(base + "../../../../../../secret.stl") is None
    evil = "https://fuel.gazebosim.org/1.0/accurrent/models/..%2F..%2F..%2F..%2F/3/files/x.stl"
    assert mesh_path(evil) is None


def test_fuel_url_missing_from_the_cache_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GZ_FUEL_CACHE_PATH", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    world = write(tmp_path, _world_with_include(FUEL_URL, {}), "w.sdf")
    [note] = [n for n in read_sdf_file(world).notes if n.code == "unresolved-include"]
    assert "Fuel cache" in note.message and str(tmp_path / "cache") in note.message


# --- unknown URI schemes -----------------------------------------------------------------------


def test_a_misspelt_scheme_is_reported_with_the_near_one(tmp_path: Path) -> None:
    hull = link("hull", inertial(2.0, np.eye(3), posed=False),
                mesh("models://blueboat/meshes/hull.stl", pose=None))
    model = write(tmp_path / "m", _one_per_line(_model(hull)))
    [f] = [f for f in run([model]).findings if f.code == "GZI002"]
    assert "models://blueboat/meshes/hull.stl" in f.message and "model://" in f.message
    assert f.link == "m::hull"
    assert "<uri>models://" in model.read_text().splitlines()[f.line - 1]
    assert "not on the model path" in f.message
    world = write(tmp_path / "w", _world_with_include("models://blueboat", {}), "w.sdf")
    [g] = [f for f in run([world]).findings if f.code == "GZI002"]
    assert "models://blueboat" in g.message and "model://" in g.message


def test_a_misspelt_scheme_resolves_as_gz_sim_resolves_it(tmp_path: Path) -> None:
    """gz-common tries the path after any scheme on the resource path: so does the reader, and
    the geometry rules then see the mesh (a 1 m cube of 0.02 kg: GZI106's density is
    mass/volume = 0.02 kg/m³, below any material)."""
    import trimesh

    meshes = tmp_path / "models" / "blueboat" / "meshes"
    meshes.mkdir(parents=True)
    trimesh.creation.box((1.0, 1.0, 1.0)).export(meshes / "hull.stl")
    hull = link("hull", inertial(0.02, np.eye(3), posed=False),
                mesh("models://blueboat/meshes/hull.stl", pose=None))
    model = write(tmp_path / "m", _one_per_line(_model(hull)))
    read = read_sdf_file(model, [tmp_path / "models"]).link("m::hull")
    assert read.collisions[0].geometry.mesh_path == str(meshes / "hull.stl")
    found = {f.code: f for f in run([model], model_paths=[str(tmp_path / "models")]).findings}
    assert "found at" in found["GZI002"].message
    assert found["GZI106"].values["density"] == pytest.approx(0.02)


# --- show: notes in JSON, the plugin's added mass ----------------------------------------------


def test_show_json_lists_the_readers_notes(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = _one_per_line(_model(_link("a", 1.0), _link("b", 1.0, relative_to="a")))
    model = write(tmp_path, text)
    code, out, _ = run_cli(["show", str(model), "--json"], capsys)
    assert code == 0
    notes = json.loads(out)["notes"]
    [note] = [n for n in notes if n["code"] == "inertial-relative-to"]
    assert set(note) == {"level", "code", "message", "file", "line", "link"}
    assert note["link"] == "m::b" and note["level"] == "warning"
    assert 'relative_to="a"' in text.splitlines()[note["line"] - 1]


def test_show_gives_the_plugins_added_mass_as_convert_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    terms = {"xDotU": -4.9, "yDotV": -126, "zDotW": -126, "mDotQ": -33}
    text = _model(_link("base_link", 147.0), hydro_plugin("base_link", terms))
    model = write(tmp_path / "plugin", _one_per_line(text))
    code, out, _ = run_cli(["show", str(model), "--json", "--ordering", "linear-first"], capsys)
    [link] = json.loads(out)["links"]
    assert link["A_BBo_B"] is None
    applied = link["hydrodynamics_added_mass"]
    assert applied["source"] == "Hydrodynamics plugin" and applied["file"] == str(model)
    # The oracle: `convert --hydro-to-sdf` preserves the dynamics exactly; its element is what
    # the plugin applied.
    converted = tmp_path / "converted.sdf"
    converted.write_text(model.read_text())
    assert run_cli(["convert", str(converted), "--hydro-to-sdf", "--in-place"], capsys)[0] == 0
    _, out, _ = run_cli(["show", str(converted), "--json", "--ordering", "linear-first"],
                        capsys)
    [after] = json.loads(out)["links"]
    np.testing.assert_allclose(applied["A_BBo_B"], after["A_BBo_B"], rtol=0, atol=1e-12)
    code, out, _ = run_cli(["show", str(model)], capsys)
    row = next(line for line in out.splitlines() if "fluid added mass" in line)
    assert code == 0 and "none" not in row and "applied by the" in row
    assert out.count("Hydrodynamics") >= 2  # the row and the title of the matrix


# --- what cannot be read comes first -----------------------------------------------------------


def test_a_missing_include_comes_before_its_consequences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # wide lines: a long temporary folder (an xdist worker's, a long user name) is not folded
    monkeypatch.setenv("COLUMNS", "400")
    world = write(tmp_path, world_text(
        include("model://boat_not_here", "boat"),
        frame("camera", pose=(1, 0, 0, 0, 0, 0), relative_to="boat::base_link"),
        nested_model("dock", _link("l", 1.0), pose=(0, 0, 0, 0, 0, 0),
                     relative_to="boat::base_link"),
        version="1.9"), "w.sdf")
    doc = read_sdf_file(world)
    codes = [n.code for n in doc.notes if n.level != "info"]
    assert codes[0] == "unresolved-include"
    assert "frame-in-unresolved-include" in codes
    consequence = next(n for n in doc.notes if n.code == "frame-in-unresolved-include")
    assert "boat" in consequence.message and "not checked" in consequence.message
    code, out, _ = run_cli(["show", str(world)], capsys)
    assert code == 0
    assert out.splitlines()[0].startswith(f"{world}:4: error")  # the <include> line, first
    assert "boat_not_here" in out and out.index("boat_not_here") < out.index("link(s)")
    code, out, _ = run_cli(["audit", str(world), "--format", "json"], capsys)
    data = json.loads(out)
    assert data["files"][0]["status"] == "ok"
    assert "GZI001" in {f["code"] for f in data["findings"]}


# --- blank lines before the XML declaration ----------------------------------------------------


@pytest.mark.oracle("sdformat")
def test_blank_lines_before_the_xml_declaration_are_read_as_libsdformat_does(
    tmp_path: Path,
) -> None:
    from oracles.sdformat_oracle import read_with_sdformat

    text = "\n\n   \n" + _one_per_line(_model(_link("a", 2.0), _link("b", -1.0)))
    model = write(tmp_path, text)
    try:
        [oracle] = read_with_sdformat([model])
    except RuntimeError as exc:  # pragma: no cover - needs g++ and libsdformat
        pytest.skip(str(exc))
    doc = read_sdf_file(model)
    assert {lk["name"]: lk["mass"] for lk in oracle["links"]} == {
        lk.name: lk.inertial.mass for lk in doc.links
    }
    [f] = [f for f in run([model]).findings if f.code == "GZI101"]
    assert '<link name="b">' in text.splitlines()[f.line - 1] or "<mass>-1" in text.splitlines()[
        f.line - 1]


def test_an_error_after_a_missing_include_names_the_include_first(tmp_path: Path) -> None:
    """A frame error that the missing model may explain (here a cycle through a frame next to
    the include) is reported at the <include>, with the error after it."""
    from gzinertia.errors import SdfError

    world = write(tmp_path, world_text(
        include("model://boat_not_here"),
        frame("a", relative_to="b"), frame("b", relative_to="a"),  # a cycle
        nested_model("m", _link("l", 1.0), relative_to="a"),
        version="1.9"), "w.sdf")
    with pytest.raises(SdfError) as raised:
        read_sdf_file(world)
    assert (raised.value.file, raised.value.line) == (str(world), 4)
    message = str(raised.value)
    assert message.index("boat_not_here") < message.index("cycle")


def test_findings_served_from_the_cache_keep_their_link(tmp_path: Path) -> None:
    """The result cache and worker processes carry the link as written in its file: a second,
    cached run of a world including one model twice reports exactly what the first did."""
    from gzinertia.audit.config import AuditConfig
    from gzinertia.audit.rules import RULES
    from gzinertia.audit.runner import audit

    write(tmp_path / "models" / "boat",
          _model(_link("a", -1.0), _link("b", -1.0, relative_to="a"), name="boat"))
    write(tmp_path, one_line(world_text(include("models/boat", "x"),
                                        include("models/boat", "y", (9, 0, 0, 0, 0, 0)),
                                        version="1.9")), "world.sdf")
    config = AuditConfig(known_codes=frozenset(RULES))
    runs = [audit([str(tmp_path)], config, cache_dir=tmp_path / "cache") for _ in range(2)]
    first, second = ([(f.code, f.file, f.line, f.link) for f in r.findings] for r in runs)
    assert first == second
    assert sorted((c, lk) for c, _, _, lk in first if c in ("GZI101", "GZI108")) == [
        ("GZI101", "boat::a"), ("GZI101", "boat::b"), ("GZI108", "boat::b")]
