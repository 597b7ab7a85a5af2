"""``gzinertia audit`` as users run it: files and folders, settings, exit status, formats.

The consumers are the oracles: JSON parsed strictly against the issue's contract, SARIF
validated against the official 2.1.0 schema (``tests/data/sarif-schema-2.1.0.json``), JUnit
parsed as XML, exit statuses as documented (0 clean, 1 findings at ``--fail-on``, 2 usage error
or unreadable file).
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from conftest import EXAMPLES, REPO, run_cli
from sdf_builders import (
    BOX,
    BOX_MASS,
    box_inertia,
    box_link,
    include,
    model,
    model_config,
    world,
    write,
)

from gzinertia.audit.config import (
    AuditConfig,
    ConfigError,
    find_config_file,
    load_config,
    with_overrides,
)
from gzinertia.audit.discover import discover
from gzinertia.audit.rules import RULES

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
DEFECTS = EXAMPLES / "defects"


def _triangle_model() -> str:
    """A box whose izz breaks the triangle inequality (GZI104, an error)."""
    I = box_inertia(BOX_MASS, BOX)
    I[2, 2] = I[0, 0] + I[1, 1] + 0.1
    return model(box_link(I=I))


def _warning_model() -> str:
    """A box with its centre of mass well outside it (GZI107, a warning only)."""
    return model(box_link(com=(0.0, 0.0, -0.5)))


@pytest.fixture(autouse=True)
def _no_config_around(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test runs in an empty folder, so no settings file above it applies."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("CI", raising=False)


# --- exit status --------------------------------------------------------------------------------


@pytest.mark.oracle("pydrake")
def test_exit_status_follows_fail_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    error = str(write(tmp_path / "e", _triangle_model()))
    warning = str(write(tmp_path / "w", _warning_model()))
    clean = str(write(tmp_path / "c", model(box_link())))
    assert run_cli(["audit", clean], capsys)[0] == 0
    assert run_cli(["audit", error], capsys)[0] == 1
    assert run_cli(["audit", warning], capsys)[0] == 0
    assert run_cli(["audit", warning, "--fail-on", "warning"], capsys)[0] == 1
    assert run_cli(["audit", error, "--ignore", "GZI104"], capsys)[0] == 0
    assert run_cli(["audit", error, "--select", "GZI2"], capsys)[0] == 0


@pytest.mark.oracle("pydrake")
def test_unreadable_file_exits_2_and_the_rest_is_still_audited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "repo" / "a", _triangle_model())
    # Inline: not well-formed XML (its bytes are the point).
    write(tmp_path / "repo" / "b", "<sdf version='1.10'><model name='x'><link name=l></model>")
    code, out, err = run_cli(["audit", str(tmp_path / "repo"), "--format", "json"], capsys)
    assert code == 2
    data = json.loads(out)
    states = {Path(f["path"]).parent.name: f for f in data["files"]}
    assert states["a"]["status"] == "ok" and states["b"]["status"] == "error"
    assert "model.sdf:1" in states["b"]["message"]  # file and line, one line
    assert "\n" not in states["b"]["message"]
    assert [f["code"] for f in data["findings"]] == ["GZI104"]
    assert "Traceback" not in err


@pytest.mark.oracle("pydrake")
def test_usage_errors_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, model(box_link())))
    for args in (
        ["--select", "GZI999"],
        ["--ignore", "XYZ1"],
        ["--fail-on", "fatal"],
        ["--tolerance", "loose"],
        ["--density", "-3"],
        ["--format", "yaml"],
        ["--config", str(tmp_path / "missing.toml")],
    ):
        code, _, err = run_cli(["audit", path, *args], capsys)
        assert code == 2, args
        assert err.startswith("gzinertia: error: ") and err.count("\n") == 1, (args, err)
    code, _, _ = run_cli(["audit", str(tmp_path / "nope.sdf")], capsys)
    assert code == 2


# --- formats --------------------------------------------------------------------------------------


def test_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["audit", str(DEFECTS), "--format", "json"], capsys)
    assert code == 1
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert set(data) == {"version", "files", "findings", "settings", "targets"}
    assert isinstance(data["version"], str) and data["settings"] == []
    for f in data["files"]:
        assert set(f) == {"path", "status", "message"}
        assert f["status"] in ("ok", "skipped", "error")
    assert data["findings"]
    for f in data["findings"]:
        assert set(f) == {"code", "severity", "file", "line", "link", "message", "values"}
        assert f["severity"] in ("error", "warning", "info")
        assert isinstance(f["line"], int) and f["line"] > 0
        assert f["code"] in RULES and isinstance(f["values"], dict)


def test_sarif_of_a_real_audit_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "report.sarif"
    args = ["audit", str(EXAMPLES), "-m", str(EXAMPLES), "--format", "sarif", "-o", str(out_file)]
    code, out, _ = run_cli(args, capsys)
    assert code == 1 and out == ""
    log = json.loads(out_file.read_text())
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"GZI102", "GZI104", "GZI202", "GZI204", "GZI205"}
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(RULES)


@pytest.mark.oracle("pydrake")
def test_junit_github_text_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, _triangle_model()))
    _, out, _ = run_cli(["audit", path, "--format", "junit"], capsys)
    root = ET.fromstring(out.encode())
    assert root.tag == "testsuites" and root.get("failures") == "1"
    _, out, _ = run_cli(["audit", path, "--format", "github"], capsys)
    assert out.startswith("::error file=") and "title=GZI104" in out
    _, out, _ = run_cli(["audit", path, "--format", "text"], capsys)
    assert f"{path}:" in out and "GZI104 error [m::body]" in out
    _, out, _ = run_cli(["audit", path], capsys)  # table (not a terminal: fixed width)
    assert "GZI104" in out and "inertia-triangle-inequality" in out


def test_no_progress_bar_without_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run_cli(["audit", str(EXAMPLES), "-m", str(EXAMPLES), "--format", "text"], capsys)
    assert err == ""


# --- discovery ------------------------------------------------------------------------------------


def test_discovery_recurses_skips_templates_and_hidden_folders(tmp_path: Path) -> None:
    for rel in ("b/model.sdf", "a/w.world", "a/t.sdf.erb", "a/u.sdf.em", "c/model.sdf.in",
                ".git/x.sdf", "a/readme.md", "a/model.config"):
        write(tmp_path, "<sdf/>", rel)
    targets = discover([str(tmp_path)])
    rel = [(Path(t.path).relative_to(tmp_path).as_posix(), t.state) for t in targets]
    assert rel == [
        ("a/t.sdf.erb", "skipped"), ("a/u.sdf.em", "skipped"), ("a/w.world", "audit"),
        ("b/model.sdf", "audit"), ("c/model.sdf.in", "skipped"),
    ]
    again = discover([str(tmp_path / "b" / "model.sdf"), str(tmp_path)])  # each file once
    assert [t.path for t in again].count(str(tmp_path / "b" / "model.sdf")) == 1
    assert discover([str(tmp_path / "none")])[0].state == "error"


# --- settings -------------------------------------------------------------------------------------


@pytest.mark.oracle("pydrake")
def test_config_from_pyproject_found_upward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    (repo / "models" / "deep").mkdir(parents=True)
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.gzinertia]\nfail-on = "warning"\nignore = ["GZI105"]\n'
        'tolerance = "drake"\ndensity = 1025\n'
        '[tool.gzinertia.per-path-ignores]\n"models/legacy/*.sdf" = ["GZI107"]\n'
    )
    found = find_config_file(repo / "models" / "deep")
    assert found == (repo / "pyproject.toml").resolve()
    config = load_config(None, RULES, start=repo / "models" / "deep")
    assert config.fail_on == "warning" and config.ignore == ("GZI105",)
    assert config.tolerance == "drake" and config.density == 1025.0
    write(repo / "models" / "legacy", _warning_model())
    write(repo / "models" / "new", _warning_model())
    monkeypatch.chdir(repo / "models" / "deep")
    code, out, _ = run_cli(["audit", str(repo / "models"), "--format", "json"], capsys)
    files = {Path(f["file"]).parent.name for f in json.loads(out)["findings"]}
    assert files == {"new"} and code == 1  # per-path ignore; fail-on warning from the file
    code, _, _ = run_cli(["audit", str(repo / "models"), "--fail-on", "error"], capsys)
    assert code == 0  # the command line wins


def test_dot_gzinertia_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.gzinertia]\nselect = ["GZI1"]\n')
    (tmp_path / ".gzinertia.toml").write_text('select = ["GZI2"]\n')
    assert load_config(None, RULES, start=tmp_path).select == ("GZI2",)
    (tmp_path / ".gzinertia.toml").unlink()
    assert load_config(None, RULES, start=tmp_path).select == ("GZI1",)


@pytest.mark.parametrize(
    "text, message",
    [
        ('selec = ["GZI1"]\n', "unknown key 'selec'"),
        ('ignore = ["GZI777"]\n', "unknown rule code 'GZI777'"),
        ('fail-on = "fatal"\n', "fail-on must be"),
        ("density = -1\n", "density must be a positive"),
        ('tolerance = "loose"\n', "tolerance must be"),
        ("[per-path-ignores]\n'*.sdf' = ['NOPE']\n", "unknown rule code 'NOPE'"),
        ("select = [\n", "not valid TOML"),
    ],
)
def test_bad_settings_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / ".gzinertia.toml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(None, RULES, start=tmp_path)


def test_overrides_and_selection() -> None:
    config = with_overrides(AuditConfig(known_codes=frozenset(RULES)), select="GZI1, GZI204",
                            ignore="GZI105")
    chosen = config.selected(RULES)
    assert "GZI204" in chosen and "GZI101" in chosen and "GZI105" not in chosen
    assert "GZI202" not in chosen


@pytest.mark.oracle("pydrake")
def test_model_path_from_settings_is_relative_to_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A settings file found for the audited file: its paths are relative to its folder; one
    given with ``--config``: relative to the working directory, as ruff has it (it applies to
    every file, wherever it lies)."""
    settings = tmp_path / "proj" / ".gzinertia.toml"
    write(tmp_path / "proj" / "models" / "crate", _triangle_model())
    settings.write_text('model-path = ["models"]\n')
    (tmp_path / "proj" / "models" / "crate" / "model.config").write_text(
        model_config(version="1.10"))
    world_file = write(tmp_path / "proj" / "worlds",
                       world(include("model://crate"), version="1.10"), "w.sdf")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, _ = run_cli(["audit", str(world_file), "--format", "text"], capsys)
    assert code == 1 and "GZI104" in out  # found through the include
    code, out, _ = run_cli(["audit", str(world_file), "--config", str(settings),
                            "--format", "text"], capsys)
    assert "GZI104" not in out and "GZI001" in out  # elsewhere/models does not exist
    monkeypatch.chdir(tmp_path / "proj")
    code, out, _ = run_cli(["audit", str(world_file), "--config", str(settings),
                            "--format", "text"], capsys)
    assert code == 1 and "GZI104" in out


@pytest.mark.oracle("pydrake")
def test_relative_paths_are_kept_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "proj" / "m", _triangle_model())
    monkeypatch.chdir(tmp_path / "proj")
    _, out, _ = run_cli(["audit", "m", "--format", "json"], capsys)
    assert json.loads(out)["findings"][0]["file"] == os.path.join("m", "model.sdf")


@pytest.mark.oracle("pydrake")
def test_links_from_an_include_and_the_file_itself_are_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crate = write(tmp_path / "models" / "crate", _triangle_model())
    (crate.parent / "model.config").write_text(model_config(version="1.10"))
    write(tmp_path, world(include("model://crate", "a"),
                          include("model://crate", "b", (5, 0, 0, 0, 0, 0)), version="1.10"),
          "world.sdf")
    args = ["audit", str(tmp_path), "-m", str(tmp_path / "models"), "--format", "json"]
    _, out, _ = run_cli(args, capsys)
    found = [f for f in json.loads(out)["findings"] if f["code"] == "GZI104"]
    assert len(found) == 1 and found[0]["file"] == str(crate)



# --- the fixes the messages suggest ------------------------------------------------------------


def _fix_command(message: str) -> list[str]:
    """The first `gzinertia ...` command quoted in a finding's message, as argv (no program)."""
    import re
    import shlex

    match = re.search(r"`gzinertia ([^`]+)`", message)
    assert match, message
    return shlex.split(match.group(1))


@pytest.mark.parametrize(
    "folder, code, extra",
    [
        ("added_mass_about_com", "GZI204", ["--in-place"]),
        ("double_counted_added_mass", "GZI205", ["--in-place"]),
        ("positive_idotj", "GZI208", ["--in-place"]),
    ],
)
def test_the_suggested_command_fixes_the_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str, code: str,
    extra: list[str],
) -> None:
    import shutil

    shutil.copytree(DEFECTS / folder, tmp_path / folder)
    path = tmp_path / folder / "model.sdf"
    _, out, _ = run_cli(["audit", str(path), "--format", "json", "--select", code], capsys)
    (finding,) = json.loads(out)["findings"]
    code_fix, _, err = run_cli([*_fix_command(finding["message"]), *extra], capsys)
    assert code_fix == 0, err
    _, out, _ = run_cli(["audit", str(path), "--format", "json"], capsys)
    left = {f["code"] for f in json.loads(out)["findings"]}
    assert code not in left and not left & {"GZI202", "GZI203", "GZI205"}, left


def test_shifting_the_defect_gives_the_added_mass_addmass_computes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The GZI204 example's matrix, shifted as the message says, is the Tuckerman matrix about
    the link origin that `gzinertia addmass` writes (to the 6 digits the example was typed
    with)."""
    import shutil

    import numpy as np

    from gzinertia.edit.addmass import FitChooser, add_mass
    from gzinertia.sdf import read_sdf_file

    shutil.copytree(DEFECTS / "added_mass_about_com", tmp_path / "d")
    path = tmp_path / "d" / "model.sdf"
    _, out, _ = run_cli(["audit", str(path), "--format", "json", "--select", "GZI204"], capsys)
    message = json.loads(out)["findings"][0]["message"]
    assert run_cli([*_fix_command(message), "--in-place"], capsys)[0] == 0
    shifted = read_sdf_file(path).links[0].inertial.A_BBo_B
    fresh = add_mass(DEFECTS / "added_mass_about_com" / "model.sdf", fit_for=FitChooser("volume"),
                     density=1000.0, pattern=None, upgrade_version=False, model_paths=[])
    expected = fresh.links[0].A_BBo_B.linear_first()
    assert shifted is not None
    np.testing.assert_allclose(shifted.linear_first(), expected, rtol=2e-5, atol=2e-5 * np.max(np.abs(expected)))


def test_no_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["audit"], capsys)[0] == 2


def test_progress_bar_on_a_terminal_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal (and not in CI) the bar starts once there are many files, and stops."""
    from gzinertia.cli import audit as cli_audit

    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    with cli_audit._ProgressBar() as bar:
        bar.update(1, 5, "a.sdf")
        assert bar.progress is None  # few files: no bar
        bar.update(1, cli_audit.PROGRESS_MIN_FILES, "a.sdf")
        assert bar.progress is not None
    monkeypatch.setenv("CI", "true")
    with cli_audit._ProgressBar() as bar:
        bar.update(1, 100, "a.sdf")
        assert bar.progress is None
