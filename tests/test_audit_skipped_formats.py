"""Templates and other model formats found in a tree are listed as skipped, with why, in every
format; a tree holding only them never reads "No findings in 0 files" (issue 10). URDF and
xacro are read (issue 16): a xacro file holding only macros is skipped when read, with why.

Oracles: each format's consumer (strict JSON, SARIF schema, lxml for JUnit, the Actions
runner's workflow-command rule) must name every skipped file with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from audit_helpers import parse_workflow_command
from conftest import REPO, run_cli
from lxml import etree

from gzinertia.audit.discover import discover
from gzinertia.report.audit import FORMATS

#: read as URDF, then skipped: they expand to no link
MACROS_ONLY = ("robot.urdf.xacro", "macros.xacro")
MACROS = (
    "<robot name='r' xmlns:xacro='http://www.ros.org/wiki/xacro'>\n"
    "  <xacro:macro name='m'><link name='x'/></xacro:macro>\n</robot>\n"
)
NOT_SDF = {  # file → a word its reason must contain
    "robot.urdf.xacro": "macros only",
    "macros.xacro": "macros only",
    "world.sdf.erb": "render",
    "model.sdf.jinja": "render",
    "model.sdf.em": "render",
    "model.sdf.in": "render",
    "sub/deep.world.jinja2": "render",
    "tpl.sdf.xacro": "xacro",
    "gen.urdf.erb": "URDF",
}


def _tree(root: Path) -> Path:
    for name in NOT_SDF:
        (root / "desc" / name).parent.mkdir(parents=True, exist_ok=True)
        text = MACROS if name in MACROS_ONLY else "<robot name='r'/>\n"
        (root / "desc" / name).write_text(text, encoding="utf-8")
    (root / "desc" / "notes.txt").write_text("not a model\n", encoding="utf-8")
    return root / "desc"


def test_discovery_lists_each_with_its_reason(tmp_path: Path) -> None:
    folder = _tree(tmp_path)
    targets = discover([str(folder)])
    assert sorted(Path(t.path).relative_to(folder).as_posix() for t in targets) == sorted(NOT_SDF)
    for t in targets:
        name = Path(t.path).relative_to(folder).as_posix()
        if name in MACROS_ONLY:  # read, as URDF; skipped then (below, through the CLI)
            assert t.state == "audit"
            continue
        assert t.state == "skipped"
        assert NOT_SDF[name] in (t.message or "")
    # URDF given by name is read too; a URDF template is not
    (urdf,) = discover([str(folder / "robot.urdf.xacro")])
    assert urdf.state == "audit"
    (erb,) = discover([str(folder / "gen.urdf.erb")])
    assert erb.state == "skipped" and "gz sdf -p" in (erb.message or "")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_names_each_skipped_file_and_why(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path)
    status, out, err = run_cli(["audit", "desc", "--format", fmt, "--no-cache"], capsys)
    assert status == 0, err
    assert "in 0 files" not in out and "No findings" not in out
    reasons: dict[str, str] = {}
    if fmt in ("text", "table"):
        flat = " ".join(out.split())
        for name in NOT_SDF:
            assert f"desc/{name}: skipped:" in flat
        assert f"Nothing audited ({len(NOT_SDF)} skipped, listed above)." in flat
        return
    if fmt == "json":
        data = json.loads(out)
        reasons = {f["path"]: f["message"] for f in data["files"] if f["status"] == "skipped"}
    elif fmt == "sarif":
        (invocation,) = json.loads(out)["runs"][0]["invocations"]
        for n in invocation["toolExecutionNotifications"]:
            uri = n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            assert n["descriptor"]["id"] == "file-skipped"
            reasons[uri] = n["message"]["text"]
    elif fmt == "junit":
        root = etree.fromstring(out.encode("utf-8"))
        for case in root.iter("testcase"):
            skipped = case.find("skipped")
            assert skipped is not None
            reasons[case.get("file") or ""] = skipped.get("message") or ""
        assert root.get("skipped") == str(len(NOT_SDF))
    elif fmt == "github":
        for line in out.splitlines():
            if line.startswith("::"):
                command, props, message = parse_workflow_command(line)
                assert command == "notice"
                reasons[props["file"]] = message
        assert out.splitlines()[-1] == f"Nothing audited ({len(NOT_SDF)} skipped, listed above)."
    assert sorted(reasons) == sorted(f"desc/{n}" for n in NOT_SDF)
    for name, word in NOT_SDF.items():
        assert word in reasons[f"desc/{name}"]


def test_an_empty_tree_says_nothing_was_audited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["audit", str(tmp_path), "--format", "text", "--no-cache"], capsys)
    assert status == 0
    assert out == "Nothing audited: no SDFormat file (*.sdf, *.world) under the given paths.\n"


def test_the_docs_list_the_skipped_suffixes() -> None:
    text = " ".join((REPO / "docs" / "audit.md").read_text(encoding="utf-8").split())
    for suffix in ("*.sdf.erb", "*.sdf.jinja", "*.sdf.em", "*.sdf.in", "*.urdf.erb"):
        assert suffix in text
