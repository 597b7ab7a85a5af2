"""The audit's target: ``--gazebo``/``--engine``, the settings' ``gazebo``/``engine``, a world's
Physics system, the default; precedence command line > settings > world > default, each origin
said in the output; bad names refused in one line (exit 2). The table's tags checked against
the repositories' history where a mirror of them is on disk."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import inertial, link, model, write

from gzinertia.gazebo.releases import CHANGES, DEFAULT_RELEASE, ENGINES, RELEASES
from gzinertia.gazebo.target import DEFAULT_TARGET, engine_of_plugin

A_HULL = np.diag([1.0, 9.0, 9.0, 0.01, 0.5, 0.5])
MIRRORS = Path(os.environ.get("GZINERTIA_MIRRORS", "/work/.mirror"))


def _files(tmp_path: Path, engine_file: str | None = None) -> tuple[Path, Path]:
    """A model with added mass, and a world holding it whose Physics system names
    ``engine_file`` (its default engine when ``None``)."""
    body = link("hull", inertial(10.0, np.diag([0.1, 1.0, 1.0]), A=A_HULL))
    engine = "" if engine_file is None else f"<engine><filename>{engine_file}</filename></engine>"
    world = (
        '<?xml version="1.0"?>\n<sdf version="1.11">\n<world name="w">\n'
        '<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics">'
        f'{engine}</plugin>\n<model name="auv">{body}</model>\n</world>\n</sdf>\n'
    )
    return (write(tmp_path, model(body, version="1.11")),
            write(tmp_path, world, "world.sdf"))


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    status, out, err = run_cli(["audit", "--no-cache", "--format", "json", *args], capsys)
    assert status in (0, 1), err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_the_default_target_is_the_newest_release_with_dartsim(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    newest = max(RELEASES.values(), key=lambda r: int(r.gz_sim.removeprefix("gz-sim")
                                                      .removeprefix("ignition-gazebo")))
    assert DEFAULT_RELEASE == newest.name == "jetty"
    path, _ = _files(tmp_path)
    data = _json(["--isolated", str(path)], capsys)
    assert data["targets"] == [DEFAULT_TARGET.as_json()]
    status, out, _ = run_cli(["audit", "--no-cache", "--isolated", "--format", "text",
                              str(path)], capsys)
    assert status == 0
    assert "target: Gazebo Jetty (gz-sim10_10.4.0, default), engine dartsim (default)" in out
    sarif = json.loads(run_cli(["audit", "--no-cache", "--isolated", "--format", "sarif",
                                str(path)], capsys)[1])
    assert sarif["runs"][0]["properties"]["gzinertia.targets"] == [DEFAULT_TARGET.as_json()]


def test_precedence_command_line_settings_world_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, world = _files(tmp_path, "gz-physics-tpe-plugin")
    # the world names tpe: its findings say so
    (found,) = [f for f in _json(["--isolated", str(world)], capsys)["findings"]
                if f["code"] == "GZI601"]
    assert found["values"]["target"]["engine"] == "tpe"
    assert found["values"]["target"]["engine_origin"] == f"world {world}:4"
    # the settings win over the world
    (tmp_path / ".gzinertia.toml").write_text('gazebo = "Harmonic"\nengine = "bullet"\n')
    data = _json([str(world), str(path)], capsys)
    settings = f"settings {tmp_path / '.gzinertia.toml'}"
    assert data["targets"] == [{"gazebo": "harmonic", "gz_sim": "gz-sim8_8.14.0",
                                "engine": "bullet", "gazebo_origin": settings,
                                "engine_origin": settings}]
    assert {f["values"]["target"]["engine"] for f in data["findings"]
            if f["code"] == "GZI601"} == {"bullet"}
    (use,) = data["settings"]  # the report names the settings file and what it changed
    assert use["changes"] == {"gazebo": "harmonic", "engine": "bullet"}
    # the command line wins over both
    data = _json(["--engine", "dart", str(world), str(path)], capsys)
    (target,) = data["targets"]
    assert (target["gazebo"], target["gazebo_origin"]) == ("harmonic", settings)
    assert (target["engine"], target["engine_origin"]) == ("dartsim", "command line")
    assert [use["changes"] for use in data["settings"]] == [{"gazebo": "harmonic"}]
    assert not [f for f in data["findings"] if f["code"] == "GZI601"]


@pytest.mark.parametrize(("args", "said"), [
    (["--gazebo", "rolling"], "--gazebo: gazebo must be one of fortress, garden, harmonic, "
                              "ionic, jetty, not 'rolling'"),
    (["--engine", "ode"], "--engine: engine must be one of dartsim, bullet, "
                          "bullet-featherstone, tpe, mujoco, not 'ode'"),
    (["--engine", "mujoco"], "engine mujoco is not in Gazebo Jetty's gz-physics9"),
    (["--gazebo", "fortress", "--engine", "bullet-featherstone"],
     "engine bullet-featherstone is not in Gazebo Fortress's ignition-physics5"),
])
def test_a_bad_name_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           args: list[str], said: str) -> None:
    path, _ = _files(tmp_path)
    status, out, err = run_cli(["audit", "--isolated", "--no-cache", *args, str(path)], capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and said in err


def test_a_bad_name_in_the_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _files(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text("engine = 3\n")
    status, _, err = run_cli(["audit", "--no-cache", str(path)], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "engine must be one of" in err and "not 3" in err


@pytest.mark.parametrize(("filename", "engine"), [
    ("gz-physics-dartsim-plugin", "dartsim"),
    ("libgz-physics7-bullet-featherstone-plugin.so", "bullet-featherstone"),
    ("ignition-physics-tpe-plugin", "tpe"),
    ("gz-physics-bullet-plugin", "bullet"),
    ("my-physics-plugin", None),
])
def test_engine_plugin_file_names(filename: str, engine: str | None) -> None:
    assert engine_of_plugin(filename) == engine


def test_an_unknown_engine_in_a_world_leaves_the_default_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, world = _files(tmp_path, "libmy-own-engine.so")
    data = _json(["--isolated", str(world)], capsys)
    assert not [f for f in data["findings"] if f["code"] == "GZI601"]
    assert data["targets"] == [DEFAULT_TARGET.as_json()]


# ------------------------------------------------------------------------ the table's sources
def _git(repo: str, *args: str) -> str:
    folder = MIRRORS / repo / "repo"
    if not folder.is_dir():
        pytest.skip(f"no mirror of {repo} at {folder}")
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                          text=True).stdout


def _first_tags(repo: str, commit: str) -> dict[str, str]:
    """The first tag of each major that contains ``commit`` (``git tag --contains``)."""
    first: dict[str, tuple[int, ...]] = {}
    for tag in _git(repo, "tag", "--contains", commit).split():
        major, _, version = tag.partition("_")
        if "-" in version or not version:
            continue  # pre-releases
        key = tuple(int(p) for p in version.split("."))
        if major not in first or key < first[major]:
            first[major] = key
    return {major: ".".join(map(str, v)) for major, v in first.items()}


@pytest.mark.parametrize("key", [k for k, c in CHANGES.items() if c.known])
def test_each_row_s_first_tags_are_the_repositories(key: str) -> None:
    change = CHANGES[key]
    repo = f"gazebosim+{change.library}"
    for name, release in RELEASES.items():
        tags = _first_tags(repo, change.backports.get(name, change.commit))
        major = getattr(release, change.library.replace("-", "_"))
        assert change.first[name] == tags.get(major), (key, name)
        if name in change.untagged:  # on the branch, in no tag yet
            branch = _git(repo, "branch", "-a", "--contains", change.backports[name])
            assert major.replace("ignition-gazebo", "ign-gazebo").replace(
                "ignition-common", "ign-common") in branch
    assert change.source.startswith("gazebosim/")


def test_each_release_s_libraries_are_its_cmake_s() -> None:
    for release in RELEASES.values():
        cmake = _git("gazebosim+gz-sim", "show", f"{release.newest}:CMakeLists.txt")
        flat = " ".join(cmake.split())
        for library in (release.gz_physics, release.gz_common, release.sdformat):
            name, major = library.rstrip("0123456789"), library[len(library.rstrip("0123456789")):]
            assert (f"find_package({library}" in flat
                    or f"find_package({name} VERSION {major}" in flat), (release.name, library)
        date = _git("gazebosim+gz-sim", "log", "-1", "--format=%cs", release.newest).strip()
        assert date == release.date


def test_each_engine_is_a_folder_of_gz_physics_from_its_first_tag() -> None:
    head = _git("gazebosim+gz-physics", "ls-tree", "--name-only", "HEAD").split()
    for engine in ENGINES.values():
        assert engine.name in head
        assert engine.name in _git("gazebosim+gz-physics", "ls-tree", "--name-only",
                                   engine.first).split()
    assert "FluidAddedMass" not in _git("gazebosim+gz-physics", "grep", "-l", "FluidAddedMass",
                                        "HEAD", "--", "dartsim").replace("dartsim", "")
    for other in ("bullet", "bullet-featherstone", "tpe", "mujoco"):
        found = subprocess.run(
            ["git", "-C", str(MIRRORS / "gazebosim+gz-physics" / "repo"), "grep", "-l",
             "FluidAddedMass", "HEAD", "--", other], capture_output=True, text=True)
        assert found.stdout == "", other  # only dartsim reads <fluid_added_mass>
