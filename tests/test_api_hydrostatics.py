"""``gzinertia.hydrostatics`` carries the numbers ``gzinertia hydrostatics --json`` prints.

The oracle is the command line itself: for the examples and the corpus's buoyancy worlds, every
number of the JSON (models, their links and collisions, their free bodies, each flotation, the
fluid) equals the typed attribute of the library's result that carries it, exactly (the same
doubles: JSON keeps them to the last bit). Every key of the JSON is accounted for, so a field
added to the command without its library counterpart fails here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, run_cli

import gzinertia
from gzinertia.physics.flotation import Flotation
from gzinertia.physics.hydrostatics import LinkHydrostatics, ModelHydrostatics

ROOT = Path(__file__).resolve().parent.parent
GZ_SIM = CORPUS / "gazebosim__gz-sim"

#: JSON keys that are prose, not numbers (the text the command prints), per entry kind.
PROSE = {"model": {"differences"}, "link": set(), "collision": {"note"}}


def same(json_value: Any, value: Any) -> bool:
    """A JSON value equals the library's: null for a non-finite number, lists for arrays."""
    if isinstance(value, np.ndarray | list | tuple):
        items = list(np.asarray(value, dtype=float).reshape(-1)) if isinstance(
            value, np.ndarray) else list(value)
        flat = list(np.asarray(json_value, dtype=object).reshape(-1)) if json_value is not None \
            else None
        return flat is not None and len(flat) == len(items) and all(
            same(a, b) for a, b in zip(flat, items, strict=True))
    if isinstance(value, bool | str) or value is None:
        return bool(json_value == value)
    x = float(value)
    return json_value is None if not math.isfinite(x) else json_value == x


def check(entry: Mapping[str, Any], typed: object, renamed: Mapping[str, Any],
          prose: set[str], where: str) -> None:
    """Every key of ``entry`` equals ``renamed[key]`` or the same-named attribute of ``typed``
    (keys in ``prose`` excepted)."""
    for key, json_value in entry.items():
        if key in prose or (isinstance(json_value, list) and json_value and isinstance(
                json_value[0], dict)):
            continue  # lists of entries are checked entry by entry
        if key in renamed:
            value = renamed[key]
        else:
            assert hasattr(typed, key), f"{where}: the JSON's {key!r} has no library attribute"
            value = getattr(typed, key)
        assert same(json_value, value), f"{where}.{key}: JSON {json_value!r}, library {value!r}"


def up(result: gzinertia.HydrostaticsResult) -> np.ndarray:
    g = np.asarray(result.fluid.g_W, dtype=float)
    return -g / np.linalg.norm(g)


def check_link(entry: dict[str, Any], link: LinkHydrostatics, u: np.ndarray) -> None:
    check(entry, link, {"buoyancy": float(link.f_W @ u),
                        "buoyancy_exact": float(link.f_W_exact @ u)}, PROSE["link"], link.name)
    assert [c["name"] for c in entry["collisions"]] == [c.name for c in link.collisions]
    for c_entry, c in zip(entry["collisions"], link.collisions, strict=True):
        check(c_entry, c, {"volume": c.volume_gz, "volume_exact": c.volume},
              PROSE["collision"], f"{link.name}::{c.name}")


def check_totals(entry: dict[str, Any], m: ModelHydrostatics, where: str) -> None:
    renamed = {
        "static": all(link.static for link in m.links),
        "p_MG": m.in_model_frame(m.p_WG),
        "p_MB": m.in_model_frame(m.p_WB),
        "links": [link.name for link in m.links],
    }
    check(entry, m, renamed, PROSE["model"] | {"flotation", "gazebo_vs_exact"}, where)
    for key, exact in (("volume", m.volume_exact), ("buoyancy", m.buoyancy_exact)):
        side = entry["gazebo_vs_exact"][key]
        gazebo = getattr(m, key)
        assert same(side["gazebo"], gazebo) and same(side["exact"], exact), where
        assert same(side["difference"], gazebo - exact), where


def check_flotation(entry: dict[str, Any] | None, f: Flotation | None, where: str) -> None:
    if entry is None or f is None:
        assert entry is None and f is None, f"{where}: flotation {entry!r} against {f!r}"
        return
    check(entry, f, {"stiffness_G": f.K_G_W}, set(), f"{where}.flotation")


def compare(args: list[str], result: gzinertia.HydrostaticsResult,
            capsys: pytest.CaptureFixture[str], same_origin: bool = True) -> dict[str, Any]:
    status, out, err = run_cli(["hydrostatics", "--json", *args], capsys)
    assert status == 0, err
    summary = json.loads(out)
    fluid = summary["fluid"]
    check(fluid, result.fluid, {"enable": result.fluid.enabled,
                                "layers": [[h, rho] for h, rho in result.fluid.layers],
                                "origin": result.fluid_origin if same_origin else fluid["origin"],
                                "buoyancy_system": result.buoyancy_system,
                                "caveat": result.caveat},
          set(), "fluid")
    assert [[x["above"], x["density"]] for x in fluid["layers"]] == [
        [h, rho] for h, rho in result.fluid.layers]
    assert [m["name"] for m in summary["models"]] == [m.name for m in result.models]
    u = up(result)
    for entry, m in zip(summary["models"], result.models, strict=True):
        check_totals(entry, m, m.name)
        check_flotation(entry["flotation"], result.flotation[m.name], m.name)
        assert [x["name"] for x in entry["links"]] == [link.name for link in m.links]
        for link_entry, link in zip(entry["links"], m.links, strict=True):
            check_link(link_entry, link, u)
        assert [b["name"] for b in entry["bodies"]] == [b.name for b in m.bodies]
        for body_entry, body in zip(entry["bodies"], m.bodies, strict=True):
            check_totals(body_entry, body, body.name)
            check_flotation(body_entry["flotation"], result.flotation[body.name], body.name)
    return summary


EXAMPLES = sorted(p for p in (ROOT / "sdf_examples").glob("*/model.sdf"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
def test_the_library_gives_the_cli_numbers_for_each_example(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare([str(path)], gzinertia.hydrostatics(path), capsys)


def test_a_world_of_several_free_bodies_floating_at_a_waterline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The harbour: a static quay, a mooring of two free bodies (a float that floats at the
    waterline, a sinker that does not), a cage; every body's flotation as the CLI's."""
    path = ROOT / "sdf_examples/harbour_world.sdf"
    result = gzinertia.hydrostatics(path, waterline=0.0)
    summary = compare([str(path), "--waterline", "0"], result, capsys)
    mooring = result.model("mooring")
    assert len(mooring.bodies) == 2 and result.flotation["mooring"] is None
    floating = result.flotation["mooring::float"]
    assert floating is not None and floating.floats
    sinker = result.flotation["mooring::sinker"]
    assert sinker is not None and not sinker.floats
    assert any(b["flotation"] for m in summary["models"] for b in m["bodies"])


def test_a_model_file_in_a_world_given_apart_with_a_density_override(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``world=`` gives the gravity and plugin; ``density=`` replaces its fluid (the origin is
    worded without the CLI's option name: compared apart)."""
    model = ROOT / "sdf_examples/torpedo_auv/model.sdf"
    world = ROOT / "sdf_examples/harbour_world.sdf"
    result = gzinertia.hydrostatics(model, world=world, density=1025.0, waterline=0.2,
                                    trim=False)
    compare([str(model), "--world", str(world), "--density", "1025", "--waterline", "0.2",
             "--no-trim"], result, capsys, same_origin=False)
    assert result.fluid.density == 1025.0 and "1025" in result.fluid_origin
    seawater = gzinertia.hydrostatics(model, fluid="seawater")
    compare([str(model), "--fluid", "seawater"], seawater, capsys, same_origin=False)


@pytest.mark.parametrize("name", ["examples/worlds/graded_buoyancy.sdf",
                                  "examples/worlds/buoyancy.sdf",
                                  "test/worlds/center_of_volume.sdf"])
def test_the_library_gives_the_cli_numbers_for_corpus_buoyancy_worlds(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """gz-sim's own worlds: graded layers (flotation solved at the lowest one), a uniform
    fluid, and meshes whose centre of volume Gazebo misplaces."""
    path = GZ_SIM / name
    if not path.exists():
        pytest.skip(f"{path} not in the corpus")
    compare([str(path)], gzinertia.hydrostatics(path), capsys)


def test_a_document_is_accepted_and_a_model_glob_selects(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = ROOT / "sdf_examples/harbour_world.sdf"
    doc = gzinertia.read(path)
    result = gzinertia.hydrostatics(doc, model="moor*")
    assert [m.name for m in result.models] == ["mooring"]
    compare([str(path), "--model", "moor*"], result, capsys)
    with pytest.raises(gzinertia.GzInertiaError, match="no model matches 'nothing'"):
        gzinertia.hydrostatics(doc, model="nothing")


def test_bad_arguments_raise_value_errors_without_option_names() -> None:
    path = ROOT / "sdf_examples/box_rov/model.sdf"
    for kwargs in ({"density": -1.0}, {"density": 1000.0, "fluid": "seawater"},
                   {"fluid": "mercury"}, {"waterline": math.inf}):
        with pytest.raises(ValueError) as exc:
            gzinertia.hydrostatics(path, **kwargs)  # type: ignore[arg-type]
        assert "--" not in str(exc.value)


def test_a_xacro_with_arguments_and_a_package_path(tmp_path: Path) -> None:
    """A xacro's argument sets the mass, its package holds the hull's macro: the result is
    Archimedes' for the box the macro writes (Gazebo's default fluid, 1000 kg/m³ and
    g = 9.8 m/s², with no world)."""
    parts = tmp_path / "ws/hulls"
    (parts / "urdf").mkdir(parents=True)
    (parts / "package.xml").write_text("<package><name>hulls</name></package>")
    (parts / "urdf/box.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:macro name="box" params="mass"><link name="base">'
        '<inertial><mass value="${mass}"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
        'izz="1"/></inertial><collision><origin xyz="0 0 0.1"/><geometry>'
        '<box size="1 0.5 0.3"/></geometry></collision></link></xacro:macro></robot>')
    model = tmp_path / "boat.urdf.xacro"
    model.write_text(
        '<robot name="boat" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:arg name="mass" default="10"/>'
        '<xacro:include filename="$(find hulls)/urdf/box.xacro"/>'
        '<xacro:box mass="$(arg mass)"/></robot>')
    result = gzinertia.hydrostatics(model, package_paths=[tmp_path / "ws"],
                                    xacro_args={"mass": "12.5"})
    (boat,) = result.models
    volume = 1.0 * 0.5 * 0.3
    assert boat.mass == 12.5 and math.isclose(boat.volume, volume, rel_tol=1e-12)
    assert math.isclose(boat.net, (1000.0 * volume - 12.5) * 9.8, rel_tol=1e-12)
    np.testing.assert_allclose(boat.p_BG_W, [0.0, 0.0, -0.1], atol=1e-12)  # B 0.1 m above G
