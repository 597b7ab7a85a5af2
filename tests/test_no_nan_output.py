"""No command prints a NaN or an infinity (issue 24 item 4): ``show``, ``audit`` in each
format, ``hydrostatics`` (text and JSON) and ``addmass --ellipsoid`` to standard output, over
the examples and the public corpus (skipped when absent), and a model whose collisions have
no volume: "undefined: zero volume", never ``nan``. (``plot`` writes pictures, not numbers.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import CORPUS, EXAMPLES, run_cli

#: A NaN or an infinity written as a number: ``nan``, ``-inf``, ``Infinity`` as words of
#: their own (not "info", "inflatable", "nano_").
NON_FINITE = re.compile(r"(?<![A-Za-z0-9_])[-+]?(nan|inf|infinity)(?![A-Za-z0-9_])", re.I)
FORMATS = ("table", "text", "json", "sarif", "junit", "github")
MODEL_SUFFIXES = (".sdf", ".world", ".urdf", ".xacro")


def model_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in MODEL_SUFFIXES and p.is_file()
                  and not any(part.startswith(".") for part in p.relative_to(root).parts))


def outputs(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """What each per-file command prints on the file (standard output and error)."""
    runs = {
        "show": ["show", str(path)],
        "show --json": ["show", "--json", str(path)],
        "hydrostatics": ["hydrostatics", str(path)],
        "hydrostatics --json": ["hydrostatics", "--json", str(path)],
        "addmass --ellipsoid": ["addmass", "--ellipsoid", "-o", "-", str(path)],
    }
    printed = {}
    for name, args in runs.items():
        _, out, err = run_cli(args, capsys)
        printed[name] = out + err
    return printed


def assert_finite(printed: dict[str, str], where: str) -> None:
    for command, text in printed.items():
        found = NON_FINITE.search(text)
        assert found is None, (f"{where}: `{command}` prints {found.group()!r}: "
                               f"...{text[max(0, found.start() - 200):found.end() + 80]}...")


def assert_no_command_prints_non_finite(files: list[Path], root: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Every per-file command on each file, then the audit in every format on ``root``."""
    for path in files:
        assert_finite(outputs(path, capsys), str(path.relative_to(root)))
    for fmt in FORMATS:
        _, out, err = run_cli(["audit", "--format", fmt, str(root)], capsys)
        assert_finite({f"audit --format {fmt}": out + err}, str(root))


@pytest.mark.parametrize("root, least", [(EXAMPLES, 5), (CORPUS, 50)],
                         ids=["examples", "corpus"])
def test_no_command_prints_a_non_finite_number(
    root: Path, least: int, capsys: pytest.CaptureFixture[str],
) -> None:
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    files = model_files(root)
    assert len(files) >= least
    assert_no_command_prints_non_finite(files, root, capsys)


def zero_volume_model(folder: Path) -> Path:
    """A link whose only collision is a plane (no volume): buoyancy 0, B undefined."""
    body = sdf.link("body", sdf.inertial(10.0, np.eye(3)),
                    sdf.collision(sdf.plane_geometry((0, 0, 1), (1, 1)), sdf.ORIGIN, "floor"))
    return sdf.write(folder, sdf.model(body, name="flat"))


def test_a_zero_volume_says_undefined_not_nan(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = zero_volume_model(tmp_path)
    printed = outputs(path, capsys)
    assert_finite(printed, str(path))
    text = printed["hydrostatics"]
    assert "B undefined: zero volume" in text
    assert "restoring stiffness undefined: zero volume, no centre of buoyancy" in text
    model = json.loads(printed["hydrostatics --json"])["models"][0]
    assert model["p_WB"] == [None, None, None] and model["restoring_stiffness"] is None
    assert model["volume"] == 0.0
