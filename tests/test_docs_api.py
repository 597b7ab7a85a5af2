"""``docs/api.md`` as written: its Python examples run, in order, and the front door is light."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import gzinertia

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "api.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_examples_of_docs_api_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every ```python block of the page, executed in order in one namespace, from a copy of
    the repository's ``sdf_examples`` (the examples write a file)."""
    blocks = python_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    shutil.copytree(ROOT / "sdf_examples", tmp_path / "sdf_examples")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "docs_api"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gzinertia.GzInertiaWarning)
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"docs/api.md block {number}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "refused:" in out  # the bare-array sum was refused, as the page says
    assert (tmp_path / "sdf_examples/torpedo_auv/model_with_added_mass.sdf").exists()


def test_import_gzinertia_is_light() -> None:
    """``import gzinertia`` (the CLI's first import) loads neither NumPy nor lxml, and every
    public name resolves on first use."""
    code = (
        "import sys, gzinertia\n"
        "heavy = sorted(m for m in ('numpy', 'lxml', 'scipy', 'rich') if m in sys.modules)\n"
        "assert not heavy, heavy\n"
        "for name in gzinertia.__all__:\n"
        "    getattr(gzinertia, name)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_audit_paths_is_not_shadowed_by_the_audit_package() -> None:
    """``gzinertia.audit`` is the sub-package; the function is ``audit_paths`` and stays one
    after the sub-package is imported."""
    import gzinertia.audit.runner

    assert callable(gzinertia.audit_paths)
    found = gzinertia.audit_paths(ROOT / "sdf_examples/defects/non_psd_added_mass",
                                  codes={"GZI202"})
    assert [f.code for f in found] == ["GZI202"]


def test_readers_plug_in_by_suffix(tmp_path: Path) -> None:
    from gzinertia.api import readers, register_reader
    from gzinertia.errors import GzInertiaError

    model = tmp_path / "boat.model"
    shutil.copy(ROOT / "sdf_examples/spar_buoy/model.sdf", model)
    saved = readers()
    try:
        seen: list[Path] = []

        def reader(path: Path, model_paths: Sequence[str | Path]) -> gzinertia.Document:
            from gzinertia.sdf import read_sdf_file

            seen.append(path)
            return read_sdf_file(path, model_paths)

        register_reader(".MODEL", reader)
        doc = gzinertia.read(model)
        assert seen == [model] and [lk.name for lk in doc.links] == ["spar_buoy::hull"]
        register_reader(".model", "gzinertia.no_such_module:read")
        with pytest.raises(GzInertiaError, match=r"no reader for \.model"):
            gzinertia.read(model)
        with pytest.raises(ValueError):
            register_reader("model", reader)
    finally:
        import gzinertia.api as api

        api._READERS.clear()
        api._READERS.update(saved)


def test_read_takes_every_format_the_commands_take(tmp_path: Path) -> None:
    """``gzinertia.read`` and the CLI share one reader: a xacro file reads as the URDF it
    expands to, with the same links as ``gzinertia show`` reads."""
    from gzinertia.model_reader import read_model_file

    urdf = (
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:property name="m" value="2"/>'
        '<link name="base"><inertial><mass value="${m}"/>'
        '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>'
    )
    path = tmp_path / "r.urdf.xacro"
    path.write_text(urdf)
    doc = gzinertia.read(path)
    assert [(lk.name, lk.inertial.mass) for lk in doc.links] == [
        (lk.name, lk.inertial.mass) for lk in read_model_file(path).links
    ] == [("r::base", 2.0)]


def test_a_spatial_matrix_refuses_to_mix_with_a_bare_array() -> None:
    """Rigid (angular-first from Drake) + added (linear-first from SDF) adds the same physics
    when both are typed; any bare array, in any position, raises."""
    doc = gzinertia.read(ROOT / "sdf_examples/box_rov/model.sdf")
    link = doc.link("box_rov::base_link")
    M, A = link.M_BBo_B, link.A_BBo_B
    assert A is not None
    total = M + A
    assert np.array_equal(total.linear_first(), M.linear_first() + A.linear_first())
    assert np.array_equal(total.angular_first(), M.angular_first() + A.angular_first())
    for mixed in (lambda: M + A.linear_first(), lambda: M.angular_first() + A,
                  lambda: np.asarray(M), lambda: M @ np.ones(6)):
        with pytest.raises(TypeError, match="linear_first"):
            mixed()
    with pytest.raises(ValueError, match="about Bcm"):
        link.M_BBcm_B + A
