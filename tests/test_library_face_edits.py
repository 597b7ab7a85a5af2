"""Issue 26, item 1: every public edit of the library face returns an
:class:`~gzinertia.edit.edit_result.Edit`, and the command line's edits are renderings of it.

For each mode (``addmass --ellipsoid``, ``--from``, ``shift``, ``convert`` both ways, ``hydro``,
``fix``) the command's ``--diff`` is the :class:`Edit`'s :meth:`~Edit.diff` and its ``-o -`` is
the :class:`Edit`'s ``new`` bytes; the command prints no Python warning (it says what the
library issues as :class:`~gzinertia.api_edits.GzInertiaWarning` in its own words). The library
refuses what the command line refused (a :class:`~gzinertia.errors.SettingError` carrying the
key), each spelled by its interface.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from test_convert_shift import _file as _sub_with_plugin_terms
from test_edit_backend import _wamit

import gzinertia
from gzinertia import api_edits
from gzinertia.edit.edit_result import Edit
from gzinertia.errors import SettingError

ROOT = Path(__file__).resolve().parent.parent
BOX_ROV = ROOT / "sdf_examples/box_rov/model.sdf"
TRIANGLE = ROOT / "sdf_examples/defects/triangle_inequality/model.sdf"
THRUSTER = "box_rov::thruster_fp"

#: The public edits: every one is named here (checked against ``api_edits.__all__``).
EDITS = ("addmass", "addmass_bem", "addmass_from", "convert", "fix", "hydro", "shift")


def test_every_public_edit_is_declared_to_return_an_edit() -> None:
    functions = {n for n in api_edits.__all__ if n[0].islower()}
    assert functions == set(EDITS)
    for name in EDITS:
        function = getattr(gzinertia, name)
        assert function is getattr(api_edits, name)
        assert str(inspect.signature(function).return_annotation).startswith("Edit["), name


def _copy(tmp_path: Path) -> Path:
    """box_rov in ``tmp_path`` (an edit's result files go beside it)."""
    model = tmp_path / "rov.sdf"
    model.write_bytes(BOX_ROV.read_bytes())
    return model


def _with_added_mass(tmp_path: Path) -> Path:
    """box_rov with the thruster's ellipsoid added mass written (for shift and
    convert --sdf-to-hydro)."""
    model = _copy(tmp_path)
    gzinertia.addmass(model, links=THRUSTER).write()
    return model


def _heavier(tmp_path: Path) -> Path:
    """box_rov with its base link heavier than its heave added mass (17.1 kg), so that the
    Hydrodynamics plugin may carry it (GZI506's bound: convert --sdf-to-hydro leaves a link
    beyond it)."""
    model = _copy(tmp_path)
    model.write_text(model.read_text().replace("<mass>10.9029</mass>", "<mass>20</mass>", 1))
    return model


def _with_plugin_terms(tmp_path: Path) -> Path:
    """A hull whose Hydrodynamics plugin applies added mass (Fossen's sign)."""
    return _sub_with_plugin_terms(tmp_path, {"xDotU": -2, "yDotV": -8, "zDotW": -8,
                                             "mDotQ": -0.5})


#: (command line after FILE, the library call it stands for, the file it edits)
MODES: dict[str, tuple[list[str], Callable[[Path], Edit[Any]], Callable[[Path], Path]]] = {
    "ellipsoid": (["addmass", "--ellipsoid", "--density", "1025", "--fit", "mujoco"],
                  lambda p: gzinertia.addmass(p, density=1025.0, method="mujoco"), _copy),
    "explicit": (["addmass", "--ellipsoid", "--link", THRUSTER, "--semi-axes", "0.1,0.05,0.05"],
                 lambda p: gzinertia.addmass(p, links=THRUSTER, ellipsoid=_explicit()), _copy),
    "from": (["addmass", "--from", "{wamit}", "--link", "box_rov::base_link", "--about",
              "0,0,0", "--frequency", "zero", "--density", "1000"],
             lambda p: gzinertia.addmass_from(p, _wamit(p.parent, (1.0,) * 6),
                                              link="box_rov::base_link", about=(0.0, 0.0, 0.0),
                                              frequency="zero", density=1000.0),
             _copy),
    "shift": (["shift", "--link", THRUSTER, "--from", "0.1,0,0", "--force"],
              lambda p: gzinertia.shift(p, THRUSTER, source=(0.1, 0.0, 0.0), force=True),
              _with_added_mass),
    "hydro_to_sdf": (["convert", "--hydro-to-sdf"],
                     lambda p: gzinertia.convert(p, to="sdf"), _with_plugin_terms),
    "sdf_to_hydro": (["convert", "--sdf-to-hydro", "--sign", "fossen", "--gazebo", "harmonic"],
                     lambda p: gzinertia.convert(p, to="hydro", sign="fossen", gazebo="harmonic"),
                     _heavier),
    "hydro": (["hydro", "--link", "box_rov::base_link", "--force", "--coefs", "0.5 0.25 1.5 1 1"],
              lambda p: gzinertia.hydro(p, "box_rov::base_link", force=True,
                                        coefficients=_coefficients()),
              _copy),
    "fix": (["fix"], lambda p: gzinertia.fix(p), lambda t: TRIANGLE),  # (written nowhere)
}


def _explicit() -> Any:
    from gzinertia.physics.fits import explicit_fit

    return explicit_fit((0.1, 0.05, 0.05))


def _coefficients() -> Any:
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

    return EllipsoidFluidCoefficients(0.5, 0.25, 1.5, 1.0, 1.0)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_command_renders_the_edit_the_library_returns(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command, call, source = MODES[mode]
    path = source(tmp_path)
    edit = call(path)
    assert isinstance(edit, Edit) and edit.changed and edit.links
    assert edit.path == path and edit.old == path.read_bytes()
    wamit = str(tmp_path / "hull.1")
    args = [command[0], str(path), *(a.replace("{wamit}", wamit) for a in command[1:])]
    status, out, err = run_cli([*args, "--diff"], capsys)
    assert status == 0, err
    assert out == edit.diff() != ""
    assert "Warning" not in err  # the command's own words, never Python's warning lines
    status, _, err = run_cli([*args, "--check"], capsys)
    assert status == 1 and f"{path}: would change" in err
    written = tmp_path / "written.sdf"
    status, _, err = run_cli([*args, "-o", str(written)], capsys)
    assert status == 0, err
    assert written.read_bytes() == edit.new


def test_the_library_issues_what_the_command_line_says_as_warnings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What the edit warns of (here: damping terms replaced by values far from them) is a
    :class:`GzInertiaWarning` from the library, an item of the Edit's ``warnings``, and the
    command's own ``warning:`` line."""
    with pytest.warns(gzinertia.GzInertiaWarning) as caught:
        edit = gzinertia.hydro(BOX_ROV, "box_rov::base_link", force=True)
    said = [str(w.message) for w in caught]
    assert [*edit.skipped, *edit.warnings] == said != []
    status, _, err = run_cli(["hydro", str(BOX_ROV), "-l", "box_rov::base_link", "--force",
                              "--check"], capsys)
    assert status == 1 and all(f"warning: {line}" in err for line in edit.warnings)


@pytest.mark.parametrize(("keywords", "key", "library", "command_line"), [
    ({"remove_plugin_terms": True, "sign": "fossen"}, "remove_plugin_terms",
     "remove_plugin_terms=True goes with convert(to=\"sdf\")",
     "--remove-plugin-terms goes with --hydro-to-sdf"),
    ({}, "sign", 'convert(to="hydro") needs sign="fossen" or sign="physical"',
     "--sdf-to-hydro needs --sign fossen or --sign physical"),
])
def test_convert_refuses_as_the_command_line_did(
    keywords: dict[str, Any], key: str, library: str, command_line: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SettingError) as caught:
        gzinertia.convert(BOX_ROV, to="hydro", **keywords)
    assert caught.value.key == key and str(caught.value) == library
    flags = ["--remove-plugin-terms", "--sign", "fossen"] if keywords else []
    status, _, err = run_cli(["convert", str(BOX_ROV), "--sdf-to-hydro", *flags], capsys)
    assert status == 2 and err == f"gzinertia: error: {command_line}\n"
