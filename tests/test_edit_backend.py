"""The edits over one backend (issue 26, items 1-3, second wave): refused values carry their
setting's key (:class:`~gzinertia.errors.SettingError`) in every edit; ``addmass --from`` shares
the refusals of ``--ellipsoid`` and ``--bem`` (a Hydrodynamics plugin applying added mass, the
fluid-ellipsoid overlap guard); delivery is the command line's, the edit layer prints nothing;
"is this URDF/xacro" is answered in one place.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sb
from conftest import REPO, run_cli

import gzinertia
from gzinertia.errors import SettingError

PACKAGE = REPO / "gzinertia"
A_DIAGONAL = (3.0, 40.0, 40.0, 0.5, 2.0, 2.0)  # A/ρ, a slender hull's order of magnitude


def _box_model(tmp_path: Path) -> Path:
    """One box link carrying a diagonal ``<fluid_added_mass>``."""
    return sb.write(tmp_path, sb.model(sb.box_link(A=np.diag(1000.0 * np.array(A_DIAGONAL)))))


def _wamit(tmp_path: Path, diagonal: tuple[float, ...]) -> Path:
    """A WAMIT ``.1`` file holding the zero-frequency limit (``PER = -1``) of a diagonal
    added mass, non-dimensional (with ULEN = 1 m the values are A/ρ)."""
    lines = [f"-1 {i + 1} {j + 1} {diagonal[i] if i == j else 0.0:.9e}"
             for i in range(6) for j in range(6)]
    path = tmp_path / "hull.1"
    path.write_text("\n".join(lines) + "\n")
    return path


# --- refused values are SettingErrors with their keys (texts as before) ----------------------

#: (library call refusing a value, the key it carries)
REFUSALS: dict[str, tuple[Callable[[Path], object], str]] = {
    "shift_from": (lambda p: gzinertia.shift(p, "body", source="middle"),  # type: ignore[arg-type]
                   "from"),
    "hydro_viscosity": (lambda p: gzinertia.hydro(p, "body", viscosity=-1.0), "viscosity"),
    "wamit_length": (
        lambda p: gzinertia.addmass_from(p, _wamit(p.parent, (1.0,) * 6), link="*",
                                         about=(0.0, 0.0, 0.0), frequency="zero",
                                         density=1000.0, wamit_length=0.0),
        "wamit_length",
    ),
    "frequency_text": (
        lambda p: gzinertia.addmass_from(p, _wamit(p.parent, (1.0,) * 6), link="*",
                                         about=(0.0, 0.0, 0.0), frequency="soon",
                                         density=1000.0),
        "frequency",
    ),
    "frequency_negative": (
        lambda p: gzinertia.addmass_from(p, _wamit(p.parent, (1.0,) * 6), link="*",
                                         about=(0.0, 0.0, 0.0), frequency="-2",
                                         density=1000.0),
        "frequency",
    ),
    "fix_method": (lambda p: gzinertia.fix(p, method="best"), "method"),  # type: ignore[arg-type]
    "fix_density": (lambda p: gzinertia.fix(p, method="geometry", density=-1.0), "density"),
    "fix_density_and_mass": (
        lambda p: gzinertia.fix(p, method="geometry", density=1.0, mass=1.0), "density"),
    "fix_geometry_only": (lambda p: gzinertia.fix(p, move_com=True), "fix_geometry_only"),
    "fix_select": (lambda p: gzinertia.fix(p, select=["GZI9"]), "select"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_value_is_a_setting_error_with_its_key(tmp_path: Path, case: str) -> None:
    """Each edit's refusal of a value is a SettingError whose key names the setting, whose
    library message spells the keyword and whose command-line rendering spells the flag; the
    file is untouched."""
    call, key = REFUSALS[case]
    path = _box_model(tmp_path)
    before = path.read_bytes()
    with pytest.raises(SettingError) as caught:
        call(path)
    assert caught.value.key == key
    assert str(caught.value) == caught.value.render("library")
    assert "\n" not in caught.value.render("command line")
    assert path.read_bytes() == before


def test_the_command_line_prints_the_flag_of_a_refused_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hydro --viscosity -1``: one line, exit 2, the flag named."""
    path = _box_model(tmp_path)
    code, _, err = run_cli(["hydro", str(path), "--link", "body", "--viscosity", "-1", "--diff"],
                           capsys)
    assert code == 2 and err.count("\n") == 1 and "--viscosity must be >= 0" in err, err


# --- addmass --from shares the refusals of --ellipsoid and --bem -----------------------------


def _plugin_model(tmp_path: Path) -> Path:
    """A box link whose Hydrodynamics plugin applies added mass (Fossen-negative ``<iDotJ>``)."""
    plugin = sb.hydro_plugin("body", {"xDotU": -3000.0, "yDotV": -40000.0, "zDotW": -40000.0})
    return sb.write(tmp_path, sb.model(sb.box_link(), plugin))


def _audit_codes(path: Path) -> list[str]:
    return sorted(f.code for f in gzinertia.audit_paths(path))


def test_addmass_from_refuses_a_plugin_applying_added_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--from`` on a link whose Hydrodynamics plugin applies added mass would count it twice:
    refused in one line naming the plugin's file and line and the flag to proceed (as
    ``--ellipsoid`` refuses it); ``--replace-plugin-added-mass`` writes the matrix, turns the
    plugin's added mass off, and the audit afterwards adds no finding."""
    path = _plugin_model(tmp_path)
    result = _wamit(tmp_path, A_DIAGONAL)
    args = ["addmass", str(path), "--from", str(result), "--link", "body", "--about", "0,0,0",
            "--frequency", "zero", "--density", "1000"]
    before = path.read_bytes()
    codes_before = _audit_codes(path)
    code, _, err = run_cli([*args, "--in-place"], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{path}:" in err and "--replace-plugin-added-mass" in err, err
    assert path.read_bytes() == before
    # the same refusal from the ellipsoid model, for comparison
    code, _, ellipsoid_err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "body",
                                      "--diff"], capsys)
    assert code == 2 and "--replace-plugin-added-mass" in ellipsoid_err, ellipsoid_err

    code, _, err = run_cli([*args, "--replace-plugin-added-mass", "--in-place"], capsys)
    assert code == 0, err
    text = path.read_text()
    assert "<fluid_added_mass>" in text and "<disable_added_mass>true" in text
    doc = gzinertia.read(path)
    A = doc.link("m::body").inertial.A_BBo_B
    assert A is not None
    np.testing.assert_allclose(np.diag(A.linear_first()), 1000.0 * np.array(A_DIAGONAL),
                               rtol=1e-9)
    assert set(_audit_codes(path)) <= set(codes_before), (codes_before, _audit_codes(path))


def test_addmass_from_refuses_an_overlapping_fluid_ellipsoid(tmp_path: Path) -> None:
    """A link whose fluid ellipsoid overlaps one of a link carrying added mass (GZI210) is
    refused by the library's ``addmass_from`` as by ``addmass`` (``allow_overlap`` to write
    it, with the overlap said)."""
    A_written = np.diag(1000.0 * np.array(A_DIAGONAL))
    first = sb.box_link("first", A=A_written)
    second = sb.box_link("second", pose=(0.1, 0, 0, 0, 0, 0))
    path = sb.write(tmp_path, sb.model(first, second))
    result = _wamit(tmp_path, A_DIAGONAL)
    with pytest.raises(gzinertia.GzInertiaError) as caught:
        gzinertia.addmass_from(path, result, link="second", about=(0.0, 0.0, 0.0),
                               frequency="zero", density=1000.0)
    assert "overlaps" in str(caught.value) and "allow_overlap=True" in str(caught.value)
    with pytest.warns(gzinertia.GzInertiaWarning, match="overlaps"):
        text = gzinertia.addmass_from(path, result, link="second", about=(0.0, 0.0, 0.0),
                                      frequency="zero", density=1000.0, allow_overlap=True).text
    assert text.count("<fluid_added_mass>") == 2


# --- delivery is the command line's; the edit layer prints nothing ---------------------------


def _prints(tree: ast.AST) -> list[int]:
    """Lines calling ``print`` or naming ``sys.stdout``/``sys.stderr``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
            node.func.id == "print"
        ):
            lines.append(node.lineno)
        if isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") and (
            isinstance(node.value, ast.Name) and node.value.id == "sys"
        ):
            lines.append(node.lineno)
    return lines


def test_no_edit_module_prints() -> None:
    """Printing and delivery (``--diff``, ``--check``, ``-o``, ``--in-place``, stdout) are the
    command line's rendering of an :class:`~gzinertia.edit.edit_result.Edit`
    (:mod:`gzinertia.cli.delivery`); nothing under ``gzinertia/edit`` prints."""
    found = {
        str(path.relative_to(REPO)): lines
        for path in sorted((PACKAGE / "edit").glob("*.py"))
        if (lines := _prints(ast.parse(path.read_text())))
    }
    assert found == {}
    from gzinertia.cli.delivery import WriteMode, deliver

    assert callable(deliver) and WriteMode().writes is False


# --- one answer to "is this URDF/xacro" -------------------------------------------------------

#: The one home of the format suffixes.
SUFFIX_HOME = PACKAGE / "vocabulary" / "model_suffixes.py"


def _suffix_literals(tree: ast.AST) -> list[int]:
    return [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value.lower() in (".urdf", ".xacro", ".urdf.xacro")
    ]


def test_urdf_and_xacro_suffixes_have_one_home() -> None:
    """Only :mod:`gzinertia.vocabulary.model_suffixes` spells ``.urdf`` and ``.xacro``; every
    other site asks its ``is_urdf_path`` / ``is_xacro_path`` (or its suffix tuples)."""
    found = {
        str(path.relative_to(REPO)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != SUFFIX_HOME and (lines := _suffix_literals(ast.parse(path.read_text())))
    }
    assert found == {}


# --- each added-mass edit is chosen by format once -------------------------------------------

URDF_EXAMPLE = REPO / "sdf_examples" / "defects" / "urdf_massless_link" / "model.urdf"


@pytest.mark.parametrize("model", [["--ellipsoid"], ["--from", "{result}", "--about", "0,0,0",
                                                     "--frequency", "zero", "--density", "1000"]])
def test_replacing_plugin_added_mass_is_refused_on_urdf_for_every_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: list[str]
) -> None:
    """URDF has no ``<fluid_added_mass>``: the matrix goes into the Hydrodynamics plugin, so
    ``--replace-plugin-added-mass`` means nothing there. ``--bem`` refused it; ``--ellipsoid``
    and ``--from`` ignored it without a word. Now each refuses it in one line naming the file
    and the flag, the file untouched (and the library as well, naming its keyword)."""
    path = tmp_path / "model.urdf"
    path.write_bytes(URDF_EXAMPLE.read_bytes())
    result = _wamit(tmp_path, A_DIAGONAL)
    args = [a.replace("{result}", str(result)) for a in model]
    code, _, err = run_cli(["addmass", str(path), *args, "--link", "hull",
                            "--replace-plugin-added-mass", "--in-place"], capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{path}: --replace-plugin-added-mass is for SDF" in err, err
    assert path.read_bytes() == URDF_EXAMPLE.read_bytes()
    with pytest.raises(SettingError) as caught:
        gzinertia.addmass(path, links="hull", replace_plugin_added_mass=True)
    assert caught.value.key == "replace_plugin_added_mass"
    assert "replace_plugin_added_mass=True is for SDF" in str(caught.value)


def _names_called(function: ast.AST) -> set[str]:
    return {node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            for node in ast.walk(function) if isinstance(node, ast.Call)}


def test_each_added_mass_mode_is_one_call_over_one_format_dispatch() -> None:
    """The library's three added-mass functions each call one function of
    :mod:`gzinertia.edit.added_mass_edits`, and the command line's three modes each the
    library's function (issue 26: the CLI stands on the library); none asks the format
    itself: the choice of SDF or URDF writer is made there, once per edit."""
    forbidden = {"is_urdf_path", "is_xacro_path", "add_mass", "add_mass_urdf", "add_mass_bem",
                 "add_mass_bem_urdf", "add_mass_from", "add_mass_from_urdf"}
    library = {"addmass": "ellipsoid_edit", "addmass_bem": "bem_edit",
               "addmass_from": "import_edit"}
    command_line = {"addmass": "addmass", "_addmass_bem": "addmass_bem",
                    "_addmass_from": "addmass_from"}
    seen = {}
    for module, calls in ((PACKAGE / "api_edits.py", library),
                          (PACKAGE / "cli" / "addmass.py", command_line)):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in calls:
                names = _names_called(node)
                used = {f"{n.value.id}.{n.attr}" for n in ast.walk(node)
                        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
                wanted = (calls[node.name] in names if calls is library
                          else f"gzinertia.{calls[node.name]}" in used)
                below = set() if calls is library else set(library.values())
                seen[f"{module.name}:{node.name}"] = wanted and not names & (forbidden | below)
    assert seen == dict.fromkeys([*(f"api_edits.py:{n}" for n in library),
                                  *(f"addmass.py:{n}" for n in command_line)], True)
