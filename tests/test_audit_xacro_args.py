"""``audit --xacro-arg name:=value`` and the settings' ``xacro-args`` (per glob): the
arguments reach every xacro file, in worker processes too, and each cache entry records the
arguments its expansion read (changed arguments are a miss, the same ones a hit)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_helpers import spy_checked
from conftest import run_cli

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig, ConfigError, load_config, with_overrides
from gzinertia.audit.runner import PARALLEL_MIN_FILES, audit
from gzinertia.spatial.inertia import gz_tolerance


def _robot(path: Path) -> Path:
    """A hull whose ``izz`` is the xacro argument ``izz`` (default 1, with ixx = iyy = 1)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:arg name="izz" default="1"/>\n'
        '  <link name="hull"><inertial><mass value="10"/>\n'
        '    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="$(arg izz)"/></inertial>\n'
        "  </link>\n</robot>\n"
    )
    return path


# The hulls here have no geometry: their inertia is not judged (GZI113, info), beside the point.
_NOT_JUDGED = "GZI113"


def _violates_triangle(izz: float) -> bool:
    """The physics the audit checks: principal moments (1, 1, izz) of a rigid body satisfy
    1 + 1 >= izz (within gz-math's tolerance)."""
    import numpy as np

    moments = np.array([1.0, 1.0, izz])
    return bool(2.0 - izz < -gz_tolerance(moments))


def _codes(result: Any) -> set[str]:
    return {f.code for f in result.findings}


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the audit really checked (not served from the cache)."""
    return spy_checked(monkeypatch)


def test_the_cli_passes_xacro_args_to_the_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robot = _robot(tmp_path / "r.urdf.xacro")
    for izz in ("1", "3"):
        args = ["audit", "--no-cache", "--format", "json", "--ignore", _NOT_JUDGED, str(robot)]
        code, out, _ = run_cli([*args, "--xacro-arg", f"izz:={izz}"], capsys)
        found = json.loads(out)["findings"]
        assert bool(found) == _violates_triangle(float(izz)) and code == (1 if found else 0)
        assert all(f["file"] == str(robot) and f["line"] == 4 for f in found)
    code, _, err = run_cli(["audit", "--xacro-arg", "izz=3", str(robot)], capsys)
    assert code == 2 and "name:=value" in err and len(err.strip().splitlines()) == 1


def test_changed_args_miss_the_cache_and_the_same_args_hit_it(
    tmp_path: Path, checked: list[str]
) -> None:
    robot = _robot(tmp_path / "robots" / "r.urdf.xacro")
    cache = tmp_path / "cache"
    base = with_overrides(AuditConfig(known_codes=frozenset(RULE_INFOS)), ignore=_NOT_JUDGED)

    def run(izz: str) -> Any:
        config = with_overrides(base, xacro_args={"izz": izz})
        return audit([str(robot.parent)], config, cache_dir=cache)

    first = run("3")
    assert checked == [str(robot)] and _codes(first) == {"GZI104"}
    same = run("3")  # the same arguments: served from the cache
    assert checked == [str(robot)] and same == first
    other = run("1")  # another value of an argument the file reads: checked again
    assert checked == [str(robot)] * 2 and not other.findings
    again = run("3")  # the entry holds the last run's arguments: checked again
    assert checked == [str(robot)] * 3 and again == first


def test_settings_give_args_per_glob_and_the_command_line_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _robot(tmp_path / "urdf" / "heavy.urdf.xacro")
    good = _robot(tmp_path / "urdf" / "light.urdf.xacro")
    (tmp_path / ".gzinertia.toml").write_text(
        '[xacro-args]\n"*" = { izz = 1.5 }\n"urdf/heavy*.xacro" = { izz = "3" }\n'
    )
    config = load_config(None, RULE_INFOS, start=tmp_path)
    assert config.xacro_args_for(str(bad)) == {"izz": "3"}
    assert config.xacro_args_for(str(good)) == {"izz": "1.5"}
    args = ["audit", "--no-cache", "--format", "json", "--ignore", _NOT_JUDGED, str(tmp_path)]
    code, out, _ = run_cli(args, capsys)
    files = {Path(f["file"]).name for f in json.loads(out)["findings"]}
    assert files == {bad.name} and code == 1
    code, out, _ = run_cli([*args, "--xacro-arg", "izz:=1"], capsys)
    assert json.loads(out)["findings"] == [] and code == 0


@pytest.mark.parametrize("table", [
    '[xacro-args]\n"*" = "izz:=3"\n',
    '[xacro-args]\n"*" = { izz = [1, 2] }\n',
    'xacro-args = ["izz:=3"]\n',
])
def test_bad_xacro_args_settings_are_one_line(tmp_path: Path, table: str) -> None:
    (tmp_path / ".gzinertia.toml").write_text(table)
    with pytest.raises(ConfigError) as err:
        load_config(None, RULE_INFOS, start=tmp_path)
    assert "xacro-args" in str(err.value) and "\n" not in str(err.value)


def test_workers_get_the_args(tmp_path: Path) -> None:
    """Enough xacro files to use worker processes: the same result as one process, and the
    arguments reached the workers (every file has the finding the argument makes)."""
    paths = [_robot(tmp_path / f"r{k:02d}.urdf.xacro") for k in range(PARALLEL_MIN_FILES + 1)]
    config = with_overrides(AuditConfig(known_codes=frozenset(RULE_INFOS)),
                            xacro_args={"izz": "3"})
    one = audit([str(tmp_path)], config, jobs=1)
    two = audit([str(tmp_path)], config, jobs=2)
    assert one == two
    assert sorted({f.file for f in two.findings}) == sorted(str(p) for p in paths)


def test_an_edit_of_an_included_macro_file_misses_the_cache(
    tmp_path: Path, checked: list[str]
) -> None:
    """The finding of a macro-built link names the macro's file; editing that file (not the
    audited one) is seen: the audited file is checked again."""
    lib = tmp_path / "robots" / "hull.xacro"
    lib.parent.mkdir()
    lib.write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="hull">\n'
        '<link name="hull"><inertial><mass value="10"/>\n'
        '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link>\n'
        "</xacro:macro></robot>\n"
    )
    robot = tmp_path / "robots" / "r.urdf.xacro"
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<xacro:include filename="hull.xacro"/><xacro:hull/></robot>\n')
    cache = tmp_path / "cache"
    config = with_overrides(AuditConfig(known_codes=frozenset(RULE_INFOS)), ignore=_NOT_JUDGED)
    first = audit([str(robot)], config, cache_dir=cache)
    assert _codes(first) == {"GZI104"} and {f.file for f in first.findings} == {str(lib)}
    assert audit([str(robot)], config, cache_dir=cache) == first and checked == [str(robot)]
    lib.write_text(lib.read_text().replace('izz="3"', 'izz="1.5"'))
    assert not audit([str(robot)], config, cache_dir=cache).findings
    assert checked == [str(robot)] * 2
