"""gzinertia expands every xacro file of both shared corpora to the same text as the ``xacro``
package's own expansion (its ``eval``, its ``$(env)``), or fails where it fails.

The oracle is the ``xacro`` command run in a separate Python that patches only ``$(find)``
(ament, which the command uses, is not installed here) to the same package folders. The corpora:
``../shared/corpus`` (marine descriptions: UUV Simulator, DAVE, VRX, BlueROV2, copied into a
package tree by :mod:`corpus_packages`) and ``../shared/xacro-corpus`` (Universal Robots,
Franka, Husky: ``load_yaml``, ``math``, macros with block parameters, arguments, ``$(optenv)``).
Each file is expanded with its arguments' defaults, and the files that take arguments again with
the arguments set; the Husky files again with environment variables set and named
(``--xacro-env``), which the package reads unasked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import CORPUS
from corpus_packages import corpus_xacros, in_tree, package_tree

from gzinertia.errors import SdfError
from gzinertia.urdf.xacro_expand import expand_xacro
from gzinertia.urdf.xacro_policy import XacroPolicy

XACRO_CORPUS = CORPUS.parent / "xacro-corpus"

#: The ``xacro`` command run in a Python that patches only ``$(find)`` to our package finder.
XACRO_COMMAND = (
    "import sys; from xacro import substitution_args as s, main\n"
    "from gzinertia.urdf.ros_packages import find_package\n"
    "def f(p):\n"
    "    d = find_package(p)\n"
    "    if d is None: raise s.SubstitutionException('no package ' + p)\n"
    "    return str(d)\n"
    "s._eval_find = f\n"
    "sys.argv = ['xacro', *sys.argv[1:]]; main()\n"
)

#: Arguments each file that declares them is expanded with besides its defaults.
ARGUMENTS = {
    "franka_description": {"hand": "true", "gazebo": "true", "arm_id": "arm",
                           "xyz": "0.1 0 0", "rpy": "0 0 0.5", "tcp_xyz": "0 0 0.2"},
    "ur_description": {"safety_limits": "true", "safety_pos_margin": "0.2",
                       "robot_model": "ur5e"},
}
#: Environment variables the Husky description reads through ``$(optenv)``, set and named.
HUSKY_ENV = {"HUSKY_LMS1XX_ENABLED": "1", "HUSKY_IMU_XYZ": "0.1 0.2 0.3",
             "HUSKY_FULL_RISER_LEVEL": "2", "HUSKY_USER_RAIL_ENABLED": "true"}


def _xacro_command(path: Path, packages: Path, args: dict[str, str],
                   env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full_env = {"PATH": "/usr/bin:/bin", "ROS_PACKAGE_PATH": str(packages),
                "PYTHONPATH": os.environ.get("PYTHONPATH", ""), **env}
    return subprocess.run(
        [sys.executable, "-c", XACRO_COMMAND, str(path), *(f"{k}:={v}" for k, v in args.items())],
        capture_output=True, text=True, env=full_env, timeout=120, check=False,
    )


def _assert_same(path: Path, packages: Path, args: dict[str, str] | None = None,
                 env: dict[str, str] | None = None) -> None:
    """Same bytes as the package's expansion, or the same failure."""
    args, env = args or {}, env or {}
    proc = _xacro_command(path, packages, args, env)
    policy = XacroPolicy(env=frozenset(env))
    with pytest.MonkeyPatch.context() as monkey:
        monkey.setenv("ROS_PACKAGE_PATH", str(packages))
        for name, value in env.items():
            monkey.setenv(name, value)
        if proc.returncode != 0:
            with pytest.raises(SdfError):
                expand_xacro(path, args, policy=policy)
            return
        assert expand_xacro(path, args, policy=policy) == proc.stdout


@pytest.fixture(scope="module")
def corpus_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's repositories as a package tree (tests/corpus_packages.py), built once."""
    return package_tree(CORPUS, tmp_path_factory.mktemp("corpus"))


@pytest.mark.parametrize("path", corpus_xacros(CORPUS), ids=lambda p: p.name)
def test_the_marine_corpus_expands_as_xacro_expands_it(path: Path, corpus_tree: Path) -> None:
    _assert_same(in_tree(corpus_tree, CORPUS, path), corpus_tree)


def _xacro_corpus() -> list[Path]:
    return sorted(XACRO_CORPUS.rglob("*.xacro")) if XACRO_CORPUS.is_dir() else []


@pytest.mark.parametrize("path", _xacro_corpus(),
                         ids=lambda p: str(p.relative_to(XACRO_CORPUS)))
def test_the_xacro_corpus_expands_as_xacro_expands_it(path: Path) -> None:
    _assert_same(path, XACRO_CORPUS)
    package = path.relative_to(XACRO_CORPUS).parts[1]
    if package in ARGUMENTS and "<xacro:arg" in path.read_text(encoding="utf-8"):
        _assert_same(path, XACRO_CORPUS, ARGUMENTS[package])
    if package == "husky_description" and "$(optenv" in path.read_text(encoding="utf-8"):
        _assert_same(path, XACRO_CORPUS, env=HUSKY_ENV)


SUBSTITUTIONS = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="flag" default="false"/>
  <xacro:property name="side" value="$(optenv GZI_SIDE left)"/>
  <xacro:macro name="part" params="name mass:=$(optenv GZI_MASS 2.5) *origin">
    <link name="${name}_$(env GZI_TAG)"><inertial><mass value="${mass}"/><xacro:insert_block
      name="origin"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  </xacro:macro>
  <xacro:part name="${side}"><origin xyz="$(eval 1 + 2) 0 ${radians(90)}"/></xacro:part>
  <xacro:if value="$(eval arg('flag') and len(env('GZI_TAG')) > 2)">
    <link name="extra_$(optenv GZI_SIDE none)"/>
  </xacro:if>
  <link name="m${str(2 * pi)[:4]}_$(eval 'on' if flag else 'off')"/>
</robot>
"""


@pytest.mark.parametrize("args", [{}, {"flag": "true"}], ids=["defaults", "flag"])
@pytest.mark.parametrize("env", [
    {"GZI_TAG": "abc"},
    {"GZI_TAG": "abcd", "GZI_SIDE": "right", "GZI_MASS": "4"},
], ids=["one variable", "three variables"])
def test_env_optenv_and_eval_substitute_as_xacro_does(
    args: dict[str, str], env: dict[str, str], tmp_path: Path
) -> None:
    """Named variables are read as the package reads them; ``$(eval ...)`` (evaluated
    without Python here) gives the package's text."""
    path = tmp_path / "robot.urdf.xacro"
    path.write_text(SUBSTITUTIONS)
    _assert_same(path, tmp_path, args, env)


def test_the_xacro_corpus_is_there_and_mostly_expands() -> None:
    """The comparison above compares texts, not failures, on most files."""
    paths = _xacro_corpus()
    if not paths:
        pytest.skip("../shared/xacro-corpus not present")
    expanded = 0
    for path in paths:
        with pytest.MonkeyPatch.context() as monkey:
            monkey.setenv("ROS_PACKAGE_PATH", str(XACRO_CORPUS))
            try:
                expand_xacro(path)
                expanded += 1
            except SdfError:
                pass
    assert expanded >= len(paths) // 2, (expanded, len(paths))
