"""The command line stands on the library (issue 26, item 1): the library checks every
argument's value and raises :class:`~gzinertia.errors.SettingError` carrying the setting's key;
each interface spells the key its own way (the keyword argument in Python, the flag on the
command line) and no process-wide state decides which.
"""

from __future__ import annotations

import ast
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from string import Formatter
from typing import Any, cast

import pytest
from conftest import REPO, run_cli

import gzinertia
from gzinertia import arguments, options
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.options import OPTIONS, interface, spell

EXAMPLES = REPO / "sdf_examples"
CLI = REPO / "gzinertia" / "cli"


def _model(tmp_path: Path, name: str = "torpedo_auv") -> Path:
    path = tmp_path / "model.sdf"
    shutil.copy(EXAMPLES / name / "model.sdf", path)
    return path


#: (library call on the model's path, the command line's arguments after it, the key refused)
CASES: dict[str, tuple[Callable[[Path], object], list[str], str]] = {
    "waterline": (
        lambda p: gzinertia.addmass_bem(p, waterline=cast(Any, "high"), quality="fast"),
        ["addmass", "{path}", "--bem", "--waterline", "high", "--quality", "fast",
         "--in-place"],
        "waterline",
    ),
    "quality": (
        lambda p: gzinertia.addmass_bem(p, quality=cast(Any, "superb")),
        ["addmass", "{path}", "--bem", "--quality", "superb", "--diff"],
        "quality",
    ),
    "panel_size": (
        lambda p: gzinertia.addmass_bem(p, panel_size=0.0),
        ["addmass", "{path}", "--bem", "--panel-size", "0", "--diff"],
        "panel_size",
    ),
    "depth": (
        lambda p: gzinertia.addmass_bem(p, depth=10.0),
        ["addmass", "{path}", "--bem", "--depth", "10", "--diff"],
        "depth",
    ),
    "density_and_fluid": (
        lambda p: gzinertia.hydrostatics(p, density=1020.0, fluid="air"),
        ["hydrostatics", "{path}", "--density", "1020", "--fluid", "air"],
        "density",
    ),
    "density": (
        lambda p: gzinertia.hydrostatics(p, density=-3.0),
        ["hydrostatics", "{path}", "--density", "-3"],
        "density",
    ),
    "max_links": (
        lambda p: arguments.read_limits(max_links=0),
        ["audit", "{path}", "--max-links", "0"],
        "max_links_count",
    ),
    "ellipsoid_scale": (
        lambda p: arguments.ellipsoid_scale("abc"),
        ["plot", "{path}", "-o", "{path}.png", "--ellipsoid-scale", "abc"],
        "ellipsoid_scale",
    ),
}


def _settings_named(error: SettingError) -> list[str]:
    """The settings a refusal names (its template's fields that are not values)."""
    return [name for _, name, _, _ in Formatter().parse(error.template)
            if name and name not in error.values]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_refused_value_carries_its_key_and_each_interface_spells_it(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The library's refusal names the keyword argument, the command line's the flag; the two
    messages differ in nothing else, and the command line prints exactly its rendering."""
    call, argv, key = CASES[case]
    path = _model(tmp_path)
    old = path.read_bytes()
    with pytest.raises(SettingError) as refused:
        call(path)
    error = refused.value
    assert error.key == key and key in OPTIONS
    assert isinstance(error, GzInertiaError) and isinstance(error, ValueError)
    named = _settings_named(error)
    assert key in named
    library, command_line = str(error), error.render("command line")
    for name in named:
        assert spell(name, "library") in library and spell(name, "command line") in command_line
    expected = library
    for name in sorted(named, key=lambda n: -len(spell(n, "library"))):
        expected = expected.replace(spell(name, "library"), spell(name, "command line"))
    assert command_line == expected

    status, out, err = run_cli([a.replace("{path}", str(path)) for a in argv], capsys)
    assert (status, out) == (2, "")
    assert err == f"gzinertia: error: {command_line}\n"
    assert path.read_bytes() == old


def test_the_command_line_texts_the_tests_assert_are_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The flag spellings ``tests/test_bem_waterline_auto.py`` asserts, and the keyword
    spellings the library now gives for the same refusal."""
    path = _model(tmp_path)
    for bad in ("high", "nan", "inf"):
        status, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", bad,
                                  "--quality", "fast", "--in-place"], capsys)
        assert status == 2
        assert err == ("gzinertia: error: --waterline must be a finite height in metres or "
                       f"auto, not {bad!r}\n")
        with pytest.raises(SettingError, match=r"^waterline must be a finite height in metres "
                           rf"or auto, not {bad!r}$"):
            gzinertia.addmass_bem(path, waterline=cast(Any, bad))


def test_a_setting_error_survives_pickling_across_worker_processes() -> None:
    """The audit's workers send errors back pickled: the key and values travel with them."""
    import pickle

    error = SettingError("jobs", "{jobs} must be at least 1, not {value}", value=0)
    again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, SettingError) and again.key == "jobs"
    assert str(again) == "jobs must be at least 1, not 0"
    assert again.render("command line") == "--jobs must be at least 1, not 0"


def test_no_module_state_decides_spelling(tmp_path: Path) -> None:
    """A command running in one thread and a library call in another each name the setting
    their own way at the same moment (a process-wide switch would give both the flag)."""
    path = _model(tmp_path, "box_rov")
    assert not hasattr(options, "use_command_line_spelling")
    assert not hasattr(options, "use_library_spelling")
    tree = ast.parse(Path(options.__file__).read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Global)]

    inside = threading.Barrier(2)
    said: dict[str, str] = {}

    def refuse(who: str) -> None:
        try:
            gzinertia.shift(path, "box_rov::thruster_fp", source=cast(Any, "nowhere"))
        except GzInertiaError as exc:
            said[who] = str(exc)

    def command_line() -> None:
        with interface("command line"):
            inside.wait()  # the library thread runs while this one is inside the command
            refuse("command line")
            inside.wait()

    def library() -> None:
        inside.wait()
        refuse("library")
        inside.wait()

    threads = [threading.Thread(target=command_line), threading.Thread(target=library)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert said["command line"].startswith("--from must be com, origin or x,y,z")
    assert said["library"].startswith("source must be com, origin or x,y,z")
    assert options.spelling() == "library"


def _raised_texts(path: Path) -> list[tuple[int, str]]:
    """Each ``raise SomethingError(...)`` in the module with the literal text of its message."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            text = "".join(
                part.value for arg in node.exc.args for part in ast.walk(arg)
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            found.append((node.lineno, text))
    return found


def test_the_command_line_checks_no_value_itself() -> None:
    """A value the user gives is judged by the library (``must be ...``: a SettingError the
    CLI only renders); the command line refuses only what belongs to it: flags of one mode
    with another's (``X goes with Y``), and its flags' syntax (``takes three numbers``). It
    constructs no SettingError (the keys are the library's) and imports no value check of
    the library to run it again."""
    offenders = []
    for module in sorted(CLI.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for line, text in _raised_texts(module):
            if " must be " in text or "must be one of" in text:
                offenders.append(f"{module.name}:{line}: {text}")
        if "SettingError(" in source or "require_free_surface" in source:
            offenders.append(f"{module.name}: checks a setting the library checks")
        if "QUALITY_PANELS" in source or "FLUID_DENSITIES[" in source:
            offenders.append(f"{module.name}: a library vocabulary used to check a value")
    assert offenders == []


def test_the_library_and_the_command_line_check_bem_settings_in_one_place() -> None:
    """``gzinertia.addmass_bem`` builds its settings with one function,
    :func:`gzinertia.edit.bem_arguments.bem_settings`, and ``addmass --bem`` calls
    ``gzinertia.addmass_bem`` (no copy of its checks elsewhere)."""
    api = (REPO / "gzinertia" / "api_edits.py").read_text(encoding="utf-8")
    cli = (CLI / "addmass.py").read_text(encoding="utf-8")
    assert "bem_settings(" in api and "gzinertia.addmass_bem," in cli
    assert "bem_settings" not in cli
    for text in (api, cli):
        assert "BemSettings(" not in text
        assert "positive length in m" not in text


def test_no_command_function_over_80_lines_and_no_cli_module_over_500() -> None:
    """Each command reads as flags → one library call → a renderer (issue 26's limits, held
    for the command line: a command that grows past them is split by what its pieces do)."""
    long = []
    for module in sorted([*CLI.glob("*.py"), REPO / "gzinertia" / "arguments.py"]):
        source = module.read_text(encoding="utf-8")
        if len(source.splitlines()) > 500:
            long.append(f"{module.name}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - first + 1
                if length > 80:
                    long.append(f"{module.name}:{node.lineno}: {node.name}, {length} lines")
    assert long == []
