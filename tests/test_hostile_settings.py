"""Settings a pull request adds, and names it chooses, can neither hide findings unseen nor
steer a CI log (issue 23, item 7 and the settings and escaping parts of item 12).

* Item 7: a ``pyproject.toml`` a pull request adds in a subfolder with ``ignore = ["ALL"]``
  turned a negative mass into exit 0 and "No findings" without a word. Every report now names
  each settings file that changed what was checked, and what it changed (text and table
  lines, JSON ``settings``, SARIF ``toolConfigurationNotifications``, GitHub annotations,
  JUnit properties); ``--config FILE`` pins one file for every audited file and ``--isolated``
  uses none (ruff's semantics); the GitHub Action pins the repository root's file by default.
* Item 12: a settings file nested 100,000 deep is one line naming it, exit 2, in bounded time
  and memory; control characters (C0, C1) and bidi overrides in file names, link names and
  messages never reach a format that is displayed raw.

Oracles: the same audit without the settings (``--isolated``: the finding is there); the
consumers' own readers (the Actions runner's workflow-command rule, lxml, the SARIF 2.1.0
schema, strict JSON).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import numpy as np
import pytest
import sdf_builders as sdf
import tomllib
import yaml
from audit_helpers import parse_workflow_command
from conftest import EXAMPLES, REPO, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from test_hostile_files import run_cli_limited

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.toml_limits import (
    MAX_KEY_PARTS,
    MAX_TOML_DEPTH,
    TomlShapeError,
    check_toml_shape,
)
from gzinertia.report.audit import FORMATS

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
DEFECT = EXAMPLES / "defects" / "added_mass_about_com" / "model.sdf"  # one GZI204 (warning)
#: A link with a negative mass: GZI101, an error, whatever else the rules think of it.
NEGATIVE_MASS = sdf.model(
    sdf.link("hull", sdf.inertial(-1.0, 0.1 * np.eye(3)), sdf.box([1.0, 1.0, 1.0])), name="sub"
)
IGNORE_ALL = "[project]\nname = 'x'\n\n[tool.gzinertia]\nignore = [\"ALL\"]\n"


def _repo(root: Path, root_settings: str | None = None) -> Path:
    """A checkout: ``models/auv.sdf`` (GZI204) and ``sub/bad.sdf`` (GZI101) under a
    ``sub/pyproject.toml`` that ignores every rule, as a pull request could add it."""
    (root / "models").mkdir(parents=True)
    shutil.copy(DEFECT, root / "models" / "auv.sdf")
    (root / "sub").mkdir()
    (root / "sub" / "bad.sdf").write_text(NEGATIVE_MASS, encoding="utf-8")
    (root / "sub" / "pyproject.toml").write_text(IGNORE_ALL, encoding="utf-8")
    if root_settings is not None:
        (root / ".gzinertia.toml").write_text(root_settings, encoding="utf-8")
    return root


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    status, out, err = run_cli(["audit", *args, "--format", "json", "--no-cache"], capsys)
    assert status in (0, 1), err
    return status, json.loads(out)


def _codes(data: dict[str, object]) -> set[tuple[str, str]]:
    return {(f["file"], f["code"]) for f in data["findings"]}  # type: ignore[attr-defined, index]


def _commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    return [parse_workflow_command(line) for line in out.split("\n")
            if line.lstrip().startswith("::")]


# ---------------------------------------------------------------------------------------------
# Item 7: every report names the settings that applied


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_nested_settings_file_that_ignores_everything_is_named_in_every_format(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_repo(tmp_path))
    status, alone = _json([".", "--isolated"], capsys)  # the oracle: what the rules see
    assert status == 1 and ("sub/bad.sdf", "GZI101") in _codes(alone)
    status, out, err = run_cli(["audit", ".", "--format", fmt, "--no-cache"], capsys)
    # ruff's semantics: the nearest settings file applies, and the exit status follows it ...
    assert status == 0, err
    assert "GZI101 error" not in out and '"ruleId": "GZI101"' not in out
    assert '"code": "GZI101"' not in out and "title=GZI101" not in out
    # ... but the report says so, in every format
    if fmt in ("text", "table"):
        lines = out.splitlines()
        (line,) = [x for x in lines if x.startswith("sub/pyproject.toml: settings:")]
        assert 'ignore = ["ALL"]' in line and "every rule is off for 1 file" in line
        assert lines[-1].endswith("in 2 files (1 with every rule off).")
    elif fmt == "json":
        data = json.loads(out)
        assert data["settings"] == [{
            "path": "sub/pyproject.toml",
            "files": ["sub/bad.sdf"],
            "changes": {"ignore": ["ALL"]},
            "rules_off": sorted(RULE_INFOS),
            "unchecked": ["sub/bad.sdf"],
        }]
    elif fmt == "sarif":
        log = json.loads(out)
        assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
        (note,) = log["runs"][0]["invocations"][0]["toolConfigurationNotifications"]
        assert note["level"] == "warning" and note["descriptor"]["id"] == "settings"
        location = note["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "sub/pyproject.toml", "uriBaseId": "%SRCROOT%"}
        assert 'ignore = ["ALL"]' in note["message"]["text"]
        assert note["properties"]["changes"] == {"ignore": ["ALL"]}
        assert note["properties"]["unchecked"] == ["sub/bad.sdf"]
    elif fmt == "github":
        settings = [c for c in _commands(out) if c[1].get("file") == "sub/pyproject.toml"]
        ((command, props, message),) = settings
        assert command == "warning" and props["title"] == "gzinertia: settings"
        assert 'ignore = ["ALL"]' in message and "every rule is off" in message
    elif fmt == "junit":
        root = etree.fromstring(out.encode("utf-8"))
        suites = {s.get("name"): s for s in root.iter("testsuite")}
        (prop,) = suites["sub/bad.sdf"].findall("properties/property")
        assert prop.get("name") == "gzinertia.settings"
        assert prop.get("value").startswith('sub/pyproject.toml: ignore = ["ALL"]')
        assert suites["models/auv.sdf"].find("properties") is None


def test_each_settings_file_is_named_with_what_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a settings file changed is what the same command line does differently with it
    than without it: keys that match the defaults, or that an option replaces, are not
    changes; rules off are the codes on without the file and off with it."""
    root = _repo(tmp_path, 'density = 1025.0\nnet-buoyancy = 0.1\ntolerance = "gz"\n'
                           '[per-path-ignores]\n"models/*.sdf" = ["GZI204"]\n')
    (root / "sub" / "pyproject.toml").write_text(
        "[tool.gzinertia]\nselect = ['GZI1']\nfail-on = 'warning'\n", encoding="utf-8")
    monkeypatch.chdir(root)
    status, data = _json(["."], capsys)
    assert status == 1  # sub's fail-on and GZI101
    assert _codes(data) == {("sub/bad.sdf", "GZI101")}
    top, sub = data["settings"]  # type: ignore[misc]
    assert top == {
        "path": ".gzinertia.toml",
        "files": ["models/auv.sdf"],
        "changes": {"density": 1025.0, "net-buoyancy": 0.1,
                    "per-path-ignores": {"models/*.sdf": ["GZI204"]}},
        "rules_off": ["GZI204"],
        "unchecked": [],
    }
    assert sub == {
        "path": "sub/pyproject.toml",
        "files": ["sub/bad.sdf"],
        "changes": {"select": ["GZI1"], "fail-on": "warning"},
        "rules_off": sorted(c for c in RULE_INFOS if not c.startswith("GZI1")),
        "unchecked": [],
    }
    # options replace the files' values: those are no longer the files' changes
    _, data = _json([".", "--fail-on", "error", "--select", "GZI"], capsys)
    assert [s["changes"] for s in data["settings"]] == [  # type: ignore[attr-defined]
        {"density": 1025.0, "net-buoyancy": 0.1, "per-path-ignores": {"models/*.sdf": ["GZI204"]}},
    ]
    # a settings file that changes nothing is not named
    (root / ".gzinertia.toml").write_text('tolerance = "gz"\nfail-on = "error"\n')
    _, data = _json(["models"], capsys)
    assert data["settings"] == [] and _codes(data) == {("models/auv.sdf", "GZI204")}


def test_config_pins_one_file_and_isolated_uses_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ruff: ``--config FILE`` is used for every file, no other settings file is read, and
    relative paths in it resolve against the working directory; ``--isolated`` ignores every
    settings file; the two together are a usage error."""
    root = _repo(tmp_path, 'fail-on = "warning"\n')
    (root / "ci").mkdir()
    (root / "ci" / "gz.toml").write_text('[per-path-ignores]\n"models/*.sdf" = ["GZI204"]\n')
    monkeypatch.chdir(root)
    status, data = _json([".", "--config", ".gzinertia.toml"], capsys)
    assert status == 1
    assert _codes(data) == {("sub/bad.sdf", "GZI101"), ("models/auv.sdf", "GZI204")}
    assert [(s["path"], s["files"]) for s in data["settings"]] == [  # type: ignore[attr-defined]
        (".gzinertia.toml", ["models/auv.sdf", "sub/bad.sdf"])]
    status, data = _json([".", "--config", "ci/gz.toml"], capsys)  # globs from the cwd
    assert status == 1 and _codes(data) == {("sub/bad.sdf", "GZI101")}
    status, data = _json([".", "--isolated"], capsys)
    assert status == 1 and data["settings"] == []
    assert _codes(data) == {("sub/bad.sdf", "GZI101"), ("models/auv.sdf", "GZI204")}
    status, out, err = run_cli(["audit", ".", "--isolated", "--config", "ci/gz.toml"], capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--config" in err and "--isolated" in err


def _action_step() -> tuple[dict[str, object], str]:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "audit")
    return action, step["run"]


def _run_action(root: Path, config: str | None) -> tuple[int, list[tuple[str, dict[str, str], str]],
                                                        dict[str, object]]:
    """The action's audit step in ``root`` (the workspace) with the ``config`` input (None: its
    default): the recorded exit code, the annotations and the SARIF log."""
    action, script = _action_step()
    inputs = action["inputs"]  # type: ignore[index]
    (root / "github_output").unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GZI_")}
    env.pop("CI", None)
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(REPO),
        GZI_PATHS=".", GZI_FAIL_ON="error", GZI_ARGS="", GZI_SARIF=str(root / "out.sarif"),
        GZI_CONFIG=inputs["config"]["default"] if config is None else config,
        GITHUB_OUTPUT=str(root / "github_output"),
        GZINERTIA_CACHE_DIR=str(root / ".cache"),
    )
    done = subprocess.run(["bash", "-e", "-c", script], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    outputs = dict(line.split("=", 1) for line in
                   (root / "github_output").read_text().strip().splitlines())
    status = int(outputs["exit-code"])
    log = json.loads((root / "out.sarif").read_text())
    assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
    return status, _commands(done.stdout), log


def test_the_action_pins_the_settings_to_the_repository_root_by_default(tmp_path: Path) -> None:
    action, script = _action_step()
    assert "config" in action["inputs"]  # type: ignore[operator]
    assert "${{" not in script
    step_env = next(s for s in action["runs"]["steps"]  # type: ignore[index]
                    if s.get("id") == "audit")["env"]
    assert step_env["GZI_CONFIG"] == "${{ inputs.config }}"

    def errors(commands: list[tuple[str, dict[str, str], str]]) -> set[str]:
        return {p["file"] for c, p, m in commands if c == "error" and p.get("title") == "GZI101"}

    # the default: the root's .gzinertia.toml for every file; sub/pyproject.toml is not read
    root = _repo(tmp_path / "a", 'net-buoyancy = 0.1\n')
    status, commands, log = _run_action(root, None)
    assert status == 1 and errors(commands) == {"sub/bad.sdf"}
    notes = log["runs"][0]["invocations"][0]["toolConfigurationNotifications"]  # type: ignore
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes] == [
        ".gzinertia.toml"]
    # a root pyproject.toml with [tool.gzinertia] is the root's settings file too
    root = _repo(tmp_path / "b")
    (root / "pyproject.toml").write_text("[tool.gzinertia]\nfail-on = 'warning'\n")
    status, commands, _ = _run_action(root, None)
    assert status == 1 and errors(commands) == {"sub/bad.sdf"}
    assert any(p.get("file") == "models/auv.sdf" and c == "warning" for c, p, _ in commands)
    # no settings at the root: none at all (--isolated), never the subfolder's
    root = _repo(tmp_path / "c")
    assert _run_action(root, None)[0] == 1
    assert _run_action(root, "none")[0] == 1
    # "nearest": ruff's discovery, opted into; the report names what the pull request added
    status, commands, _ = _run_action(root, "nearest")
    assert status == 0 and errors(commands) == set()
    assert [c for c, p, _ in commands if p.get("file") == "sub/pyproject.toml"] == ["warning"]
    # a path: that file for every file
    (root / "gz.toml").write_text('fail-on = "warning"\n')
    status, commands, _ = _run_action(root, "gz.toml")
    assert status == 1 and errors(commands) == {"sub/bad.sdf"}


# ---------------------------------------------------------------------------------------------
# Item 12: a settings file nested 100,000 deep

DEEP = 100_000

#: Settings texts nested 100,000 deep: tomllib recurses once per level of an array or inline
#: table (RecursionError), and its cost grows with the square of a dotted key's parts (a
#: 200 kB key took minutes and gigabytes).
HOSTILE_SETTINGS = {
    "arrays": ".gzinertia.toml", "inline-tables": ".gzinertia.toml",
    "dotted-key": ".gzinertia.toml", "table-header": ".gzinertia.toml",
    "array-of-tables": ".gzinertia.toml", "in-project-table": "pyproject.toml",
    "in-xacro-args": ".gzinertia.toml", "over-the-size-cap": ".gzinertia.toml",
}


def _hostile_settings(kind: str) -> str:
    dotted = ".".join(["a"] * DEEP)
    return {
        "arrays": "select = " + "[" * DEEP + "]" * DEEP + "\n",
        "inline-tables": "xacro-args = " + "{a = " * DEEP + "1" + "}" * DEEP + "\n",
        "dotted-key": f"{dotted} = 1\n",
        "table-header": f"[{dotted}]\n",
        "array-of-tables": f"[[{dotted}]]\n",
        "in-project-table": "[project]\nname = 'x'\nx = " + "[" * DEEP + "]" * DEEP + "\n"
                            "[tool.gzinertia]\nignore = ['ALL']\n",
        "in-xacro-args": f'[xacro-args."*".{dotted}]\nb = 1\n',
        "over-the-size-cap": "# a comment line\n" * 70_000,  # 1.2 MB
    }[kind]


@pytest.mark.parametrize("kind", sorted(HOSTILE_SETTINGS))
def test_a_settings_file_nested_deeply_is_one_line_naming_it(kind: str, tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "model.sdf").write_text(NEGATIVE_MASS, encoding="utf-8")
    settings = tmp_path / "models" / HOSTILE_SETTINGS[kind]
    settings.write_text(_hostile_settings(kind), encoding="utf-8")
    run = run_cli_limited(["audit", "models", "--no-cache", "--format", "text"], cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith(f"gzinertia: error: {settings}:"), line
    assert "model.sdf" not in line and "internal error" not in line
    assert len(line) < 300
    assert run.stdout == ""


def test_brackets_and_dots_in_strings_and_comments_are_not_nesting(tmp_path: Path) -> None:
    """The twin: the same characters inside strings, multi-line strings, literal strings and
    comments are text, and the file is read."""
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "model.sdf").write_text(NEGATIVE_MASS, encoding="utf-8")
    deep = "[" * 10_000 + "." * 10_000 + "{" * 10_000 + "]" * 10_000  # 40 kB a copy
    (tmp_path / "models" / "pyproject.toml").write_text(
        f'[project]\nname = "x"\ndescription = "{deep}"\nreadme = \'{deep}\'\n'
        f'a = """\n{deep}\n"""\nb = \'\'\'\n{deep}\n\'\'\'\n# {deep}\n'
        f'c = "\\"{deep}"\n"q.{deep}" = 1\n'
        '[tool.gzinertia]\nfail-on = "warning"\n', encoding="utf-8")
    run = run_cli_limited(["audit", "models", "--no-cache", "--format", "json"], cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert [s["changes"] for s in data["settings"]] == [{"fail-on": "warning"}]


#: Text for strings and quoted keys: every character TOML's lexical rules care about.
_TEXT = st.text(st.sampled_from(list("[]{}.=,#\"'\\\n\t a\u00e9\u202e")), max_size=12)


def _string(kind: int, text: str) -> str:
    """``text`` as a TOML string: basic, literal, multi-line basic or multi-line literal
    (JSON's escapes are TOML's; literal strings fall back to basic when they cannot hold it)."""
    basic = json.dumps(text)
    if kind == 1 and not set(text) & {"'", "\n"}:
        return f"'{text}'"
    if kind == 2:
        return f'"""{basic[1:-1]}"""'
    if kind == 3 and "'" not in text:
        return f"'''{text}'''"
    return basic


@st.composite
def _toml(draw: st.DrawFn) -> tuple[str, int, int]:
    """A TOML document, with how deep its arrays and inline tables nest and its longest dotted
    key's parts (the structure it was built with)."""
    levels = draw(st.integers(0, MAX_TOML_DEPTH))
    parts = draw(st.integers(1, MAX_KEY_PARTS + 4))
    strings = draw(st.lists(st.tuples(st.integers(0, 3), _TEXT), min_size=1, max_size=4))
    value = "[" + ", ".join(_string(k, t) for k, t in strings) + "]"
    nested = 1
    for level in range(levels):  # arrays and inline tables, inside one another
        if level % 2:
            value, nested = f"[{value}, 1]", nested + 1
        else:
            value, nested = f"{{ k{level} = {value} }}", nested + 1
    key = ".".join(_string(0, t) if i % 3 == 1 else f"p{i}" for i, t in
                   enumerate(draw(st.lists(_TEXT, min_size=parts, max_size=parts))))
    comment = draw(_TEXT).replace("\n", " ")
    text = f"k = {value} # {comment}\n{key} = 1\n[{key.replace('p0', 'h0', 1)}]\n"
    return text, nested, parts


@settings(max_examples=200, deadline=None)
@given(_toml())
def test_the_shape_check_reads_toml_as_tomllib_does(case: tuple[str, int, int]) -> None:
    """tomllib reads each document (the oracle that it is the TOML it was built as); the check
    refuses exactly those nested past the limits, whatever the strings and comments hold."""
    text, nested, parts = case
    tomllib.loads(text)
    too_deep = nested > MAX_TOML_DEPTH or parts > MAX_KEY_PARTS
    if too_deep:
        with pytest.raises(TomlShapeError):
            check_toml_shape(text)
    else:
        check_toml_shape(text)


# ---------------------------------------------------------------------------------------------
# Item 12: control characters and bidi overrides in names


#: What a terminal or a CI log acts on instead of showing: ESC, BEL, C1 controls (CSI U+009B,
#: NEL U+0085), bidi overrides and isolates (RLO U+202E, LRI U+2066, PDI U+2069).
HIDDEN = frozenset("\x1b\x07\x9b\x85\u202e\u2066\u2069")
FILE_NAME = "e\x1b[31m b\x07 c\x9b2J r\u202egnp.sdf"
FOLDER = "cfg\x1b\u202e"
LINK_NAME = "h\u202eull\x85\u2066x\u2069\x9b"


def _hostile_tree(root: Path) -> None:
    folder = root / FOLDER
    folder.mkdir()
    text = DEFECT.read_text(encoding="utf-8")
    (folder / FILE_NAME).write_text(text.replace('<link name="hull">',
                                                 f'<link name="{LINK_NAME}">'), encoding="utf-8")
    (folder / ".gzinertia.toml").write_text("net-buoyancy = 0.1\n", encoding="utf-8")


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_and_bidi_characters_never_reach_a_displayed_output(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _hostile_tree(tmp_path)
    status, out, err = run_cli(["audit", ".", "--format", fmt, "--no-cache"], capsys)
    assert status == 0, err  # GZI204 is a warning
    assert "GZI204" in out
    out.encode("utf-8")
    if fmt in ("json", "sarif"):
        assert out.isascii()  # names travel as \u escapes, never as raw characters
    else:
        assert not HIDDEN & set(out), sorted(HIDDEN & set(out))
    if fmt == "json":  # data: names exactly as they are, for programs to find the files
        data = json.loads(out)
        (finding,) = data["findings"]
        assert finding["file"] == f"{FOLDER}/{FILE_NAME}"
        assert finding["link"] == f"added_mass_about_com::{LINK_NAME}"
        assert data["settings"][0]["path"] == f"{FOLDER}/.gzinertia.toml"
    if fmt == "sarif":  # what a viewer shows is escaped; the URI names the exact bytes
        log = json.loads(out)
        assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
        run = log["runs"][0]
        (result,) = run["results"]
        shown = [result["message"]["text"], *result["locations"][0]["logicalLocations"][0].values()]
        shown += [n["message"]["text"]
                  for n in run["invocations"][0]["toolConfigurationNotifications"]]
        assert all(not HIDDEN & set(text) for text in shown), shown
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert unquote(uri) == f"{FOLDER}/{FILE_NAME}"
    if fmt == "github":  # what the runner reads back holds no hidden character either
        commands = _commands(out)
        assert len(commands) == 2  # the finding and the settings notice
        for _, props, message in commands:
            assert not HIDDEN & set(message) and not HIDDEN & set("".join(props.values()))
        files = sorted(p["file"] for _, p, _ in commands)
        assert files == ["cfg\\x1b\\u202e/.gzinertia.toml",
                         "cfg\\x1b\\u202e/e\\x1b[31m b\\x07 c\\x9b2J r\\u202egnp.sdf"]
        (finding,) = [m for c, p, m in commands if p.get("title") == "GZI204"]
        assert finding.startswith("[added_mass_about_com::h\\u202eull\\x85\\u2066x\\u2069\\x9b] ")
    if fmt == "junit":  # well-formed, and no attribute or text holds one
        root = etree.fromstring(out.encode("utf-8"))
        texts = [v for e in root.iter() for v in (*e.attrib.values(), e.text or "")]
        assert not HIDDEN & set("".join(texts))
    if fmt in ("text", "table"):
        assert "cfg\\x1b\\u202e/.gzinertia.toml: settings:" in out
    if fmt == "text":  # the table folds long names over lines
        assert "[added_mass_about_com::h\\u202eull\\x85\\u2066x\\u2069\\x9b]" in out
