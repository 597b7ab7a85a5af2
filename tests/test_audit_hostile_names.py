"""File names a pull request can choose cannot steer CI (issue 11, item 11).

A name holding a newline followed by ``::error file=...`` used to start a line of the text,
table and JUnit output, which GitHub Actions runs as a workflow command; a name that is not
UTF-8 made ``--format sarif`` raise UnicodeEncodeError. The oracles are the consumers' own
parsers: the Actions runner's rule (a log line whose start, after spaces, is ``::`` is a
command; see test_audit_formats.py), lxml for JUnit, the SARIF 2.1.0 schema, strict JSON and
strict UTF-8.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes

import jsonschema
import pytest
from audit_helpers import parse_workflow_command
from conftest import EXAMPLES, REPO, run_cli
from lxml import etree

import gzinertia
from gzinertia.report.audit import FORMATS

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
MODEL = EXAMPLES / "defects" / "added_mass_about_com" / "model.sdf"  # one GZI204 finding

FINDING_NAME = "x\n::error file=evil.sdf,line=1::owned\r\x1b[31m.sdf"
BROKEN_NAME = "y\n::error::broken.sdf"
TEMPLATE_NAME = "z\n::warning::t.sdf.erb"


def _tree(root: Path) -> Path:
    models = root / "models"
    models.mkdir()
    shutil.copy(MODEL, models / FINDING_NAME)
    # Inline: a truncated file.
    (models / BROKEN_NAME).write_text("<sdf version='1.10'><model", encoding="utf-8")
    (models / TEMPLATE_NAME).write_text("<%= 1 %>", encoding="utf-8")
    return models


def _commands(out: str) -> list[str]:
    return [line for line in out.split("\n") if line.lstrip().startswith("::")]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_file_name_starts_a_workflow_command(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path)
    status, out, err = run_cli(["audit", "models", "--format", fmt, "--no-cache"], capsys)
    assert status == 2, err  # the broken file
    out.encode("utf-8")  # strict UTF-8
    commands = _commands(out)
    if fmt != "github":
        assert commands == [], commands
    else:  # exactly one command per finding or file not audited, the names shown escaped
        parsed = [parse_workflow_command(line) for line in commands]
        files = sorted(props["file"] for _, props, _ in parsed)
        assert files == sorted([
            "models/x\\n::error file=evil.sdf,line=1::owned\\r\\x1b[31m.sdf",
            "models/y\\n::error::broken.sdf", "models/z\\n::warning::t.sdf.erb"])
    if fmt in ("text", "table"):
        assert "models/x\\n::error file=evil.sdf,line=1::owned\\r\\x1b[31m.sdf" in out
        assert "\x1b" not in out
    if fmt == "junit":
        etree.fromstring(out.encode("utf-8"))
    if fmt == "sarif":
        log = json.loads(out)
        assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
        (result,) = log["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert unquote(uri) == f"models/{FINDING_NAME}"
    if fmt == "json":
        data = json.loads(out)
        assert {f["file"] for f in data["findings"]} == {f"models/{FINDING_NAME}"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_link_names_with_line_breaks_stay_on_their_line(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link name is an XML attribute: ``&#10;`` puts a newline in it. The reader refuses a
    name holding ``::`` (as libsdformat does), so a name can never carry a workflow command
    itself; one with a line break is shown escaped."""
    text = MODEL.read_text(encoding="utf-8")
    evil = tmp_path / "evil.sdf"
    evil.write_text(text.replace('<link name="hull">', '<link name="h&#10;::error::x">'))
    odd = tmp_path / "odd.sdf"
    odd.write_text(text.replace('<link name="hull">', '<link name="hull&#10;&#13;2">'))
    status, out, err = run_cli(["audit", str(evil), str(odd), "--format", fmt, "--no-cache"],
                               capsys)
    assert status == 2, err  # evil.sdf is refused, in one line
    commands = _commands(out)
    if fmt == "github":
        parsed = [parse_workflow_command(line) for line in commands]
        assert sorted(props["file"] for _, props, _ in parsed) == [str(evil), str(odd)]
        (finding,) = [m for c, p, m in parsed if p["file"] == str(odd)]
        assert finding.startswith("[added_mass_about_com::hull\\n\\r2] ")  # shown escaped
    else:
        assert commands == [], commands
    if fmt in ("text", "table", "junit"):
        assert "added_mass_about_com::hull\\n\\r2" in out


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_name_that_is_not_utf8_is_reported_in_every_format(
    fmt: str, tmp_path: Path
) -> None:
    """Run as the console script (real stdout, UTF-8, strict): no UnicodeEncodeError."""
    models = tmp_path / "models"
    models.mkdir()
    raw = os.fsencode(models) + b"/bad\xff\xfe.sdf"
    shutil.copy(MODEL, raw)
    package_root = str(Path(gzinertia.__file__).resolve().parents[1])  # the code under test
    env = {**os.environ, "PYTHONPATH": package_root, "PYTHONIOENCODING": "utf-8"}
    run = subprocess.run(
        [sys.executable, "-c", "from gzinertia.cli import main; main()", "audit", "models",
         "--format", fmt, "--no-cache"],
        cwd=tmp_path, env=env, capture_output=True, timeout=60,
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")  # GZI204: a warning
    out = run.stdout.decode("utf-8")  # strict: valid UTF-8
    assert "Traceback" not in run.stderr.decode(errors="replace")
    if fmt in ("text", "table", "junit"):
        assert "models/bad\\xff\\xfe.sdf" in out
    if fmt == "sarif":
        log = json.loads(out)
        assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
        (result,) = log["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert unquote_to_bytes(uri) == b"models/bad\xff\xfe.sdf"  # the bytes, percent-encoded
    if fmt == "json":
        (finding,) = json.loads(out)["findings"]
        assert os.fsencode(finding["file"]) == b"models/bad\xff\xfe.sdf"
