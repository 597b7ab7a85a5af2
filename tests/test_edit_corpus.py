"""Every writing command over the public corpus: only the elements it is about change, what it
wrote reads back, and a second run changes nothing (or, for `shift`, is refused).

`addmass` has its own corpus round trip in test_addmass.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS
from editing import assert_only_changed_within, undo_version_upgrade

from gzinertia.edit.convert import hydro_to_sdf
from gzinertia.edit.hydro import hydro
from gzinertia.edit.shift import shift
from gzinertia.errors import GzInertiaError
from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.sdf import read_sdf_bytes, read_sdf_file


def _readable(predicate: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    out = []
    for path in sorted(CORPUS.rglob("*.sdf")):
        if predicate.encode() not in path.read_bytes():
            continue
        try:
            read_sdf_file(path)
        except GzInertiaError:
            continue
        out.append(path)
    return out


def _ids(p: Path) -> str:
    return str(p.relative_to(CORPUS))


@pytest.mark.parametrize("src", _readable("Dot"), ids=_ids)
def test_convert_hydro_to_sdf(src: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(src, tmp_path / src.name))
    kwargs = dict(pattern=None, sign="auto", remove_plugin_terms=False, model_paths=[])
    try:
        result = hydro_to_sdf(path, force=True, **kwargs)  # type: ignore[arg-type]
    except GzInertiaError as exc:
        assert "--sign" in str(exc)  # mixed signs: refused, naming the diagonal
        return
    unversioned = undo_version_upgrade(result.old, result.new)
    assert_only_changed_within(result.old, unversioned, ("fluid_added_mass", "plugin"))
    after = read_sdf_bytes(result.new, str(path))
    for item in result.links:
        link = after.link(item.link.name)
        D = item.plugin.D_BBo_B
        expected = -D if item.sign == "fossen" else D
        assert link.inertial.A_BBo_B is not None
        assert np.allclose(link.inertial.A_BBo_B.linear_first(), 0.5 * (expected + expected.T), rtol=1e-9)
        assert all(p.disable_added_mass for p in link.hydrodynamics)
    path.write_bytes(result.new)
    again = hydro_to_sdf(path, force=True, **kwargs)  # type: ignore[arg-type]
    assert again.new == result.new


@pytest.mark.parametrize("src", _readable("<collision"), ids=_ids)
def test_hydro_damping_plugins(src: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(src, tmp_path / src.name))
    kwargs = dict(pattern="*", method="mujoco", density=1000.0, viscosity=1e-3,
                  coefs=EllipsoidFluidCoefficients(), couplings=False, model_paths=[],
                  force=True)
    try:
        result = hydro(path, **kwargs)  # type: ignore[arg-type]
    except GzInertiaError as exc:
        assert str(exc)  # a link the fit cannot handle is an error naming it
        return
    assert_only_changed_within(result.old, result.new, ("plugin",))
    after = read_sdf_bytes(result.new, str(path))
    for item in result.links:
        plugins = after.link(item.link.name).hydrodynamics
        assert plugins and all(
            plugins[0].terms[name] == pytest.approx(value, rel=1e-9, abs=1e-300)
            for name, value in item.terms.items()
        )
    path.write_bytes(result.new)
    assert hydro(path, **kwargs).new == result.new  # type: ignore[arg-type]


@pytest.mark.parametrize("src", _readable("<fluid_added_mass"), ids=_ids)
def test_shift_from_com(src: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(src, tmp_path / src.name))
    links = [lk for lk in read_sdf_file(path).links
             if lk.inertial.A_BBo_B is not None and lk.source.file == str(path)]
    if not links:
        pytest.skip("no link with <fluid_added_mass> in this file")
    link = links[0]
    result = shift(path, pattern=link.name, point="com", axes="link", force=False,
                   model_paths=[])
    assert_only_changed_within(result.old, result.new, ("fluid_added_mass",))
    after = read_sdf_bytes(result.new, str(path)).link(link.name).inertial.A_BBo_B
    assert after is not None
    scale = max(1.0, float(np.max(np.abs(result.A_BBo_B.linear_first()))))
    assert np.max(np.abs(after.linear_first() - result.A_BBo_B.symmetric().linear_first())) <= 1e-9 * scale
    if result.new != result.old:
        path.write_bytes(result.new)
        again = shift(path, pattern=link.name, point="com", axes="link", force=False,
                      model_paths=[])
        assert again.already_done and again.new == result.new  # the same shift: a no-op
        with pytest.raises(GzInertiaError, match="already about the link origin"):
            shift(path, pattern=link.name, point=(0.1, 0.0, 0.0), axes="link", force=False,
                  model_paths=[])
