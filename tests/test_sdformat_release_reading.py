"""The libsdformat rows of :data:`gzinertia.gazebo.releases.CHANGES` against libsdformat's own
spec: in the newest tag of each release's libsdformat major, the newest SDFormat spec has
``<fluid_added_mass>``, ``<inertial auto>`` and ``<inertial><density>`` exactly where the table
says the release reads them (skipped without a mirror of gazebosim/sdformat)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

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
