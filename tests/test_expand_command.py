"""``gzinertia expand FILE [--sdf]``: what the tool sees, and what Gazebo builds (issue 25
item 10).

Oracles: the URDF printed for a xacro is the ``xacro`` package's own expansion (with the same
argument and package path: tests/test_xacro_compatibility.py's command); the SDFormat printed
with ``--sdf`` is loaded by libsdformat (``oracles/sdformat_dump.cc``) and must give the link
poses, masses and inertias libsdformat itself converts the URDF to.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from oracles.sdformat_oracle import read_with_sdformat
from test_model_input_options import boat_package
from test_xacro_compatibility import _xacro_command
from urdfgen import random_urdf

from gzinertia.urdf.reader import read_urdf_file

#: Random robots compared (those whose conversion libsdformat 12.3, the oracle, and newer
#: libsdformat agree on: tests/test_urdf_vs_libsdformat.py compares the others).
SEEDS = range(40)


@pytest.mark.parametrize("args", [{}, {"simulation": "true"}])
def test_expand_prints_what_the_xacro_package_prints(
    args: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xacro, ws = boat_package(tmp_path)
    proc = _xacro_command(xacro, ws, args, {})
    assert proc.returncode == 0, proc.stderr
    given = [a for k, v in args.items() for a in ("--xacro-arg", f"{k}:={v}")]
    code, out, err = run_cli(["expand", str(xacro), "--package-path", str(ws), *given], capsys)
    assert code == 0, err
    assert out == proc.stdout
    assert "BOAT_MASS" in err or not args  # the $(optenv) default taken is said


def test_a_plain_urdf_is_printed_as_it_is(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(random_urdf(3).text)
    code, out, _ = run_cli(["expand", str(path)], capsys)
    assert code == 0 and out == path.read_text()


def test_sdformat_is_refused_in_one_line(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    code, out, err = run_cli(["expand", str(path), "--sdf"], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "URDF and xacro" in err


def _links(result: dict) -> dict[str, tuple[np.ndarray, float, np.ndarray, np.ndarray]]:  # type: ignore[type-arg]
    return {
        lk["name"]: (np.array(lk["X_WB"], float), float(lk["mass"]),
                     np.array(lk["X_BI"], float), np.array(lk["I"], float))
        for lk in result["links"]
    }


def _same_conversion(path: Path) -> bool:
    """Whether libsdformat 12.3's lumping (legacy) and the newer one agree on ``path``."""
    new, old = read_urdf_file(path), read_urdf_file(path, legacy=True)
    return [r.name for r in new.links] == [r.name for r in old.links] and all(
        np.array_equal(a.M_BBo_B.angular_first(), b.M_BBo_B.angular_first())
        and np.array_equal(a.X_WB.matrix(), b.X_WB.matrix())
        for a, b in zip(new.links, old.links, strict=True))


@pytest.mark.oracle("sdformat")
def test_the_sdf_printed_loads_in_libsdformat_as_the_urdf_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urdfs, sdfs = [], []
    for seed in SEEDS:
        path = tmp_path / f"gen{seed}.urdf"
        path.write_text(random_urdf(seed).text)
        if not read_urdf_file(path).links or not _same_conversion(path):
            continue
        code, out, err = run_cli(["expand", str(path), "--sdf"], capsys)
        assert code == 0, err
        assert "not written: joints" in err  # what is left out is said
        sdf = tmp_path / f"gen{seed}.sdf"
        sdf.write_text(out)
        urdfs.append(path)
        sdfs.append(sdf)
    assert len(urdfs) >= 20
    for urdf, theirs, ours in zip(urdfs, read_with_sdformat(urdfs), read_with_sdformat(sdfs),
                                  strict=True):
        assert not [e for e in ours["errors"] if e["code"] != 18], (urdf, ours["errors"])
        expected, got = _links(theirs), _links(ours)
        assert got.keys() == expected.keys(), urdf
        for name, values in expected.items():
            for a, b in zip(got[name], values, strict=True):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=f"{urdf} {name}")
