"""The libsdformat rows of :data:`gzinertia.gazebo.releases.CHANGES` against libsdformat's own
spec: in the newest tag of each release's libsdformat major, the newest SDFormat spec has
``<fluid_added_mass>``, ``<inertial auto>`` and ``<inertial><density>`` exactly where the table
says the release reads them (skipped without a mirror of gazebosim/sdformat)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sdf_builders as sdf
from test_hostile_files import run_cli_limited

from gzinertia.gazebo.releases import CHANGES, RELEASES

MIRROR = Path(os.environ.get("GZINERTIA_MIRRORS", "/work/.mirror")) / "gazebosim+sdformat" / "repo"


def _git(*args: str) -> str:
    if not MIRROR.is_dir():
        pytest.skip(f"no mirror of gazebosim/sdformat at {MIRROR}")
    return subprocess.run(["git", "-C", str(MIRROR), *args], check=True, capture_output=True,
                          text=True).stdout


def _inertial_spec(major: str) -> str:
    """``inertial.sdf`` of the newest SDFormat spec in the newest tag of ``major``."""
    tags = [t for t in _git("tag", "--list", f"{major}_*").split() if "-" not in t]
    newest = max(tags, key=lambda t: tuple(int(p) for p in t.partition("_")[2].split(".")))
    specs = re.findall(r"^sdf/(1\.\d+)/$", _git("ls-tree", "-d", "--name-only", newest, "sdf/")
                       .replace("\n", "/\n"), flags=re.MULTILINE)
    spec = max(specs, key=lambda v: int(v.split(".")[1]))
    return _git("show", f"{newest}:sdf/{spec}/inertial.sdf")


@pytest.mark.parametrize("release", list(RELEASES))
def test_each_release_s_spec_reads_what_the_table_says(release: str) -> None:
    spec = _inertial_spec(RELEASES[release].sdformat)
    assert ('name="fluid_added_mass"' in spec) == CHANGES["sdformat-fluid-added-mass"] \
        .in_release(release)
    assert ('attribute name="auto"' in spec) == CHANGES["sdformat-auto-inertial"] \
        .in_release(release)
    assert ('element name="density"' in spec) == CHANGES["sdformat-auto-inertial-link-density"] \
        .in_release(release)


# ------------------------------------------------ show under a target whose libsdformat differs
def _auto_link_model(tmp_path: Path) -> Path:
    """A model (SDFormat 1.11) whose link has ``<inertial auto="true">`` with a written
    ``<mass>`` and a box collision."""
    body = sdf.link("hull", sdf.auto_inertial(mass=12.0), sdf.box([1.0, 0.5, 0.4]))
    return sdf.write(tmp_path, sdf.model(body, version="1.11"))


def _show(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = run_cli_limited(["show", "--json", *args], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("release", list(RELEASES))
def test_show_says_when_the_target_s_libsdformat_does_not_resolve_auto_inertia(
        tmp_path: Path, release: str) -> None:
    path = _auto_link_model(tmp_path)
    (link,) = _show(tmp_path, str(path), "--gazebo", release)["links"]
    said = link["gazebo"]["auto_inertial"]
    if CHANGES["sdformat-auto-inertial"].in_release(release):
        assert said is None and link["gazebo"]["inertial_as_read"] is None
        return
    # what it loads instead: the <mass> written (12 kg), the spec's defaults for the rest
    read = link["gazebo"]["inertial_as_read"]
    ixx = re.search(r'<element name="ixx" type="double" default="([^"]+)"',
                    _inertial_spec(RELEASES[release].sdformat))
    assert ixx is not None
    assert read["mass"] == 12.0 and read["p_BoBcm_B"] == [0.0, 0.0, 0.0]
    assert [read["I_BBcm_B"][i][i] for i in range(3)] == [float(ixx.group(1))] * 3
    sdformat = RELEASES[release].sdformat
    assert said.startswith(f"not resolved: {sdformat} does not know <inertial auto=")
    assert CHANGES["sdformat-auto-inertial"].source in said
    text = run_cli_limited(["show", str(path), "--gazebo", release], cwd=tmp_path).stdout
    assert f'    <inertial auto="true">: {said}' in text


def test_show_without_a_target_is_unchanged(tmp_path: Path) -> None:
    (link,) = _show(tmp_path, str(_auto_link_model(tmp_path)))["links"]
    assert "gazebo" not in link


# -------------------------------------------- each row's commit changes what its summary says
#: Per row: a file of libsdformat, a text its reading has only before the row's commit (or
#: ``None``) and one it has only from the commit on.
CODE = {
    "sdformat-fluid-added-mass": ("src/Link.cc", None, '"fluid_added_mass"'),
    "sdformat-auto-inertial": ("sdf/1.11/inertial.sdf", None, 'attribute name="auto"'),
    "sdformat-auto-inertial-link-density": (
        "src/Link.cc", None, 'this->dataPtr->density = inertialElem->Get<double>("density")'),
    "sdformat-auto-inertial-mass": (
        "src/Link.cc", 'inertialElem->HasElement("mass") ||', "if (massSpecified)"),
    "sdformat-auto-inertial-failure-policy": (
        "src/Collision.cc", None, "CalculateInertialFailurePolicyType::WARN_AND_USE_DEFAULT"),
}


@pytest.mark.parametrize("key", list(CODE))
def test_each_row_s_commit_changes_the_reading(key: str) -> None:
    row = CHANGES[key]
    assert row.library == "sdformat" and row.source.startswith("gazebosim/sdformat#")
    path, before, after = CODE[key]
    for commit in {row.commit, *row.backports.values()}:
        old = subprocess.run(["git", "-C", str(MIRROR), "show", f"{commit}^:{path}"],
                             capture_output=True, text=True).stdout  # absent: ""
        new = _git("show", f"{commit}:{path}")
        assert after in new and after not in old, (key, commit)
        if before is not None:
            assert before in old and before not in new, (key, commit)
