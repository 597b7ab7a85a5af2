"""One edit object (:class:`gzinertia.Edit`): what every edit returns, its ``.diff()`` and its
atomic ``.write(expected=old)``, which refuses to overwrite a file changed since it was read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

import gzinertia
from gzinertia.edit.addmass import FitChooser, add_mass
from gzinertia.edit.convert import hydro_to_sdf
from gzinertia.edit.fix import FixOptions
from gzinertia.edit.fix import fix as run_fix
from gzinertia.edit.shift import shift as run_shift
from gzinertia.errors import GzInertiaError
from gzinertia.spatial.added_mass import AddedMass

BOAT = sdf.model(
    sdf.link("hull", sdf.inertial(30.0, np.diag([2.0, 5.0, 6.0]), com=(0.1, 0, 0)),
             sdf.box((2, 0.6, 0.4), pose=None)),
    sdf.link("keel", sdf.inertial(4.0, np.diag([0.1, 0.2, 0.2])), sdf.box((0.5, 0.05, 0.3)),
             pose=(0, 0, -0.5, 0, 0, 0)),
    name="boat",
)


def _A(seed: int) -> AddedMass:
    rng = np.random.default_rng(seed)
    L = rng.normal(size=(6, 6))
    return AddedMass(L @ L.T + 6.0 * np.eye(6), ordering="linear-first")


def test_write_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, BOAT)
    edit = gzinertia.edit(path).set_added_mass("hull", _A(1))
    changed = BOAT.replace("<mass>30.0</mass>", "<mass>31.0</mass>")
    path.write_text(changed)  # another process wrote the file meanwhile
    with pytest.raises(GzInertiaError, match="changed"):
        edit.write()
    assert path.read_text() == changed  # nothing written
    edit.write(expected=None)  # said: replace whatever is there
    assert path.read_bytes() == edit.new


def test_write_elsewhere_and_the_diff_says_what_changed(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, BOAT)
    edit = gzinertia.edit(path).set_added_mass("hull", _A(2))
    out = tmp_path / "out.sdf"
    edit.write(out)
    assert out.read_bytes() == edit.new and path.read_text() == BOAT
    diff = edit.diff()
    assert diff.startswith(f"--- {path}\n+++ {path}\n")  # an absolute path: no a/ b/ prefixes
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and line[1:2] != "+"]
    assert "".join(f"{line}\n" for line in added) in edit.text
    unchanged = gzinertia.edit(path)
    assert unchanged.new_bytes() == unchanged.old  # nothing set: nothing changes


def test_every_set_adds_to_one_edit_and_a_link_is_set_once(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, BOAT)
    model = gzinertia.edit(path)
    model.set_added_mass("hull", _A(3))
    edit = model.set_added_mass("keel", _A(4))
    assert [o.link.name for o in edit.links] == ["boat::hull", "boat::keel"]
    with pytest.raises(GzInertiaError, match="set already"):
        model.set_added_mass("hull", _A(5))
    edit.write()
    read = gzinertia.read(path)
    for name, seed in (("boat::hull", 3), ("boat::keel", 4)):
        A = read.link(name).A_BBo_B
        assert A is not None
        assert np.allclose(A.linear_first(), _A(seed).linear_first(), rtol=1e-9, atol=0)


def test_a_document_opens_its_file(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, BOAT)
    doc = gzinertia.read(path)
    edit = gzinertia.edit(doc).set_added_mass("hull", _A(6))
    assert edit.path == path and edit.old == path.read_bytes()


def test_the_cli_diff_is_the_edit_rendered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = sdf.write(tmp_path, BOAT)
    edit = add_mass(path, fit_for=FitChooser("volume"), density=1025.0, pattern=None,
                    upgrade_version=True, model_paths=())
    assert isinstance(edit, gzinertia.Edit)
    status, out, _ = run_cli(["addmass", str(path), "--ellipsoid", "--density", "1025", "--diff"], capsys)
    assert status == 0 and out == edit.diff()
    with pytest.warns(gzinertia.GzInertiaWarning, match="displace"):  # as the CLI says
        assert gzinertia.addmass(path, density=1025.0).text == edit.text


def test_every_edit_returns_an_edit(tmp_path: Path) -> None:
    A0 = _A(7).linear_first()
    text = sdf.model(
        sdf.link("hull", sdf.inertial(30.0, np.diag([2.0, 5.0, 1.0]), A=A0), sdf.box((1, 1, 1))),
        sdf.hydro_plugin("hull", {"xDotU": -5.0}, disable=True),
    )
    path = sdf.write(tmp_path, text)
    shifted = run_shift(path, pattern="hull", point=(0.1, 0.0, 0.0), axes="link", force=False,
                        model_paths=())
    fixed = run_fix(path, FixOptions(), ())
    converted = hydro_to_sdf(path, pattern=None, sign="fossen", remove_plugin_terms=False,
                             force=True, model_paths=(), upgrade_version=True)
    for edit in (shifted, fixed, converted):
        assert isinstance(edit, gzinertia.Edit) and edit.old == path.read_bytes()
    # the names the old result types had still read
    assert shifted.link.name == "m::hull" and not shifted.already_done
    assert fixed.fixed == fixed.links and len(fixed.links) == 1  # GZI104 repaired


def test_standard_input_has_no_file_to_write(tmp_path: Path) -> None:
    from gzinertia.edit.sdf_file import SdfModelFile

    edit = SdfModelFile.open(Path("<stdin>"), (), BOAT.encode()).set_added_mass("hull", _A(8))
    with pytest.raises(GzInertiaError, match="no file to write"):
        edit.write()
    edit.write(tmp_path / "out.sdf")
    assert (tmp_path / "out.sdf").read_bytes() == edit.new
