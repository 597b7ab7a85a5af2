"""The library's ``fix`` and ``hydrostatics`` take a xacro file as :func:`gzinertia.read` does:
``xacro_env`` names the environment variables ``$(env)`` may read (none by default, as on the
command line), ``trust_xacro`` is passed through. The oracle: the same call on the URDF with the
variable's value written in."""

from __future__ import annotations

from pathlib import Path

import pytest

import gzinertia

_ROBOT = (
    '<robot name="r">\n'
    '  <link name="hull"><inertial><mass value="{mass}"/>\n'
    '    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="2.00003"/></inertial>\n'
    "    {collision}\n"
    "  </link>\n</robot>\n"
)


_BOX = '<collision><geometry><box size="0.4 0.3 0.2"/></geometry></collision>'


def _pair(folder: Path, collision: str) -> tuple[Path, Path]:
    xacro = folder / "r.urdf.xacro"
    xacro.write_text(_ROBOT.format(mass="$(env HULL_MASS)", collision=collision))
    urdf = folder / "r.urdf"
    urdf.write_text(_ROBOT.format(mass="10", collision=collision))
    return xacro, urdf


@pytest.fixture(autouse=True)
def _hull_mass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HULL_MASS", "10")


def test_hydrostatics_reads_the_variables_it_is_allowed(tmp_path: Path) -> None:
    xacro, urdf = _pair(tmp_path, _BOX)
    with pytest.raises(gzinertia.GzInertiaError, match="HULL_MASS"):
        gzinertia.hydrostatics(xacro)
    got = gzinertia.hydrostatics(xacro, xacro_env=["HULL_MASS"]).models[0]
    want = gzinertia.hydrostatics(urdf).models[0]
    assert (got.mass, got.volume, got.buoyancy) == (want.mass, want.volume, want.buoyancy)


def test_fix_reads_the_variables_it_is_allowed(tmp_path: Path) -> None:
    """izz 0.0015 % beyond the triangle inequality: the nearest repair is written."""
    xacro, urdf = _pair(tmp_path, "")
    with pytest.raises(gzinertia.GzInertiaError, match="HULL_MASS"):
        gzinertia.fix(xacro)
    got = gzinertia.fix(xacro, xacro_env=["HULL_MASS"])
    want = gzinertia.fix(urdf)
    assert got.links and [f.link for f in got.links] == [f.link for f in want.links]
    assert got.text.replace("$(env HULL_MASS)", "10") == want.text
